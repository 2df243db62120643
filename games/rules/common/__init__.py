"""What the rules engines truly share: errors, the outcome value, the event codec and
drawing tiles from a bag with a discard pile (Azul's lid, Summer Pavilion's tower), the
checks of ``start``, the fold of ``replay`` and the keys every ``view`` shares."""

from games.rules.common.bag import Draw, apply_draw, draw_tiles
from games.rules.common.codec import Codec
from games.rules.common.errors import IllegalMove, InvalidNotation, RulesError
from games.rules.common.fold import fold
from games.rules.common.frozen import fast_constructor
from games.rules.common.options import chosen_options
from games.rules.common.outcome import Outcome, shared_winners
from games.rules.common.tiles import add_counts, count_of, remove_counts, total
from games.rules.common.view import table_view

__all__ = [
    "Codec",
    "Draw",
    "IllegalMove",
    "InvalidNotation",
    "Outcome",
    "RulesError",
    "add_counts",
    "apply_draw",
    "chosen_options",
    "count_of",
    "draw_tiles",
    "fast_constructor",
    "fold",
    "remove_counts",
    "shared_winners",
    "table_view",
    "total",
]
