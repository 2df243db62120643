"""The public state as JSON-safe data: everything a player at the table sees. The bag is a
count only (never its order or contents); the tower is a count too, as in the box."""

from games.rules.common import table_view
from games.rules.summer_pavilion.board import COLOURS, ROUNDS, SPACES_PER_STAR, STARS
from games.rules.summer_pavilion.engine import NAME, scores, to_move
from games.rules.summer_pavilion.model import Counts, Phase, State

PHASE_WORDS = {
    Phase.ACQUIRE: "acquire",
    Phase.PLAY: "play",
    Phase.ROUND_OVER: "prepare",
    Phase.GAME_OVER: "over",
}
"""The phase in the view's words: phase 1 acquire tiles, phase 2 play tiles, phase 3
prepare the next round (decided at once, so a view rarely shows it), and over."""

LAST_ROUND_PLAYED = "last_round"
"""Why the game ended: the final scoring after round 6."""


def view(state: State, seat: int | None = None) -> dict:
    """What ``seat`` may see (``None``: a spectator), JSON-safe: the keys every game shares
    (``table_view``) and Summer Pavilion's table. Nothing is hidden but the bag, so every
    seat sees the same."""
    over = state.phase is Phase.GAME_OVER
    return {
        **table_view(
            game=NAME,
            seat=seat,
            round=state.round,
            rounds=ROUNDS,
            phase=PHASE_WORDS[state.phase],
            to_move=to_move(state),
            start_player=state.start_player,
            scores=scores(state),
            ended_by=LAST_ROUND_PLAYED if over else None,
        ),
        "side": state.side.value,
        "wild": COLOURS[state.wild],
        "bonus_due": state.bonus_due,
        "factories": [_named(tiles) for tiles in state.factories],
        "centre": _named(state.centre),
        "start_token_in_centre": state.token_taker is None,
        "supply": [None if t is None else COLOURS[t] for t in state.supply],
        "bag": sum(state.bag),
        "tower": sum(state.tower),
        "boards": [
            {
                "passed": player.passed,
                "has_start_token": state.token_taker == number,
                "beside": _named(player.beside),
                "corners": _named(player.corners),
                "stars": [
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
