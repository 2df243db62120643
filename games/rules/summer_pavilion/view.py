"""The public state as JSON-safe data: everything a player at the table sees. The bag is a
count only (never its order or contents); the tower is a count too, as in the box."""

from games.rules.summer_pavilion.board import COLOURS, SPACES_PER_STAR, STARS
from games.rules.summer_pavilion.engine import to_move
from games.rules.summer_pavilion.model import Counts, State


def view(state: State, seat: int | None = None) -> dict:
    """The table as every player sees it; ``seat`` is accepted for the service's signature
    (Summer Pavilion has no hidden hands, so every seat sees the same)."""
    return {
        "side": state.side.value,
        "round": state.round,
        "wild": COLOURS[state.wild],
        "phase": state.phase.name.lower(),
        "to_move": to_move(state),
        "bonus_due": state.bonus_due,
        "factories": [_named(tiles) for tiles in state.factories],
        "centre": _named(state.centre),
        "start_token_in_centre": state.token_taker is None,
        "start_player": state.start_player,
        "supply": [None if t is None else COLOURS[t] for t in state.supply],
        "bag": sum(state.bag),
        "tower": sum(state.tower),
        "players": [
            {
                "seat": number,
                "score": player.score,
                "passed": player.passed,
                "has_start_token": state.token_taker == number,
                "beside": _named(player.beside),
                "corners": _named(player.corners),
                "board": [
                    [
                        None if t is None else COLOURS[t]
                        for t in player.board[star * SPACES_PER_STAR : (star + 1) * SPACES_PER_STAR]
                    ]
                    for star in range(STARS)
                ],
            }
            for number, player in enumerate(state.players)
        ],
    }


def _named(tiles: Counts) -> dict[str, int]:
    return {COLOURS[c]: count for c, count in enumerate(tiles) if count}
