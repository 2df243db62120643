"""The smallest bot: a random legal move, every turn.

python examples/random_mover.py URL TOKEN
"""

import logging
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from azulbot import Bot  # noqa: E402


def choose(position: dict, legal_moves: list[str]) -> str:
    return random.choice(legal_moves)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    Bot(sys.argv[1], sys.argv[2], choose).run()
