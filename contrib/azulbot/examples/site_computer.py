"""The site's own computer players (``games.bots`` of the azulsite repository), run as an
outside process: each turn the game's record is fetched from the export, replayed through
the rules (as ``manage.py verify_game`` replays it) and the computer chooses. Run it from a
checkout of the repository (its ``games`` package on the path; no Django needed):

    python examples/site_computer.py URL TOKEN medium
"""

import logging
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(1, str(HERE.parents[3]))  # the repository's root

from azulbot import Bot, Client  # noqa: E402


def computer_player(url: str, token: str, level: str = "medium"):
    """A ``choose`` that plays as the site's computer player of ``level``."""
    from games import bots
    from games import table as tbl
    from games import table_storage as storage
    from games.registry import GAME_TYPES
    from games.table_verification import verify

    client = Client(url, token)

    def choose(position: dict, legal_moves: list[str]) -> str:
        rows = client.export(position["game_id"])
        kind = GAME_TYPES[position["game"]]
        empty = tbl.empty(kind.engine, kind.namespace)
        table = verify(empty, storage.read(empty, rows[1:]))
        command = bots.choose(
            kind.engine, table.state, position["seat"], level or "medium", seed=table.last_seq
        )
        return kind.engine.format(command)

    return choose


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    level = sys.argv[3] if len(sys.argv) > 3 else "medium"
    Bot(sys.argv[1], sys.argv[2], computer_player(sys.argv[1], sys.argv[2], level)).run()
