"""Azul's refusals in the reader's language: the sentences of the codes only its engine
raises (``games.refusals`` holds the ones every game shares)."""

from typing import Any

from django.utils.translation import gettext_lazy, ngettext_lazy

from games.rules.azul.board import Colour

COLOURS = tuple(colour.name.lower() for colour in Colour)
"""The colour names by the engine's colour index (``games.rules.azul.board.Colour``)."""

SENTENCES = {
    "no_such_factory": ngettext_lazy(
        "there is no factory display %(factory)s: this game has %(factories)s",
        "there is no factory display %(factory)s: this game has %(factories)s",
        "factories",
    ),
    "no_such_pattern_line": gettext_lazy(
        "there is no pattern line %(line)s: the pattern lines are 1 to %(lines)s"
    ),
    "pattern_line_other_colour": gettext_lazy(
        "pattern line %(line)s already holds %(held_colour)s tiles"
    ),
    "pattern_line_complete": gettext_lazy("pattern line %(line)s is already complete"),
    "wall_row_has_colour": gettext_lazy("row %(row)s of the wall already has a %(colour)s tile"),
    "no_such_wall_column": gettext_lazy(
        "there is no wall column %(column)s: the columns are 1 to %(columns)s"
    ),
    "wall_space_taken": gettext_lazy(
        "row %(row)s, column %(column)s of the wall already holds a tile"
    ),
    "wall_column_has_colour": gettext_lazy(
        "column %(column)s of the wall already has a %(colour)s tile"
    ),
    # Translators: %(seat)s is the number of the player's seat (1 to 4).
    "wall_column_due": gettext_lazy(
        "not now: player %(seat)s must first choose a column of the grey wall"
    ),
    "during_factory_offer": gettext_lazy(
        "a column of the grey wall is chosen during the wall-tiling, not during the factory offer"
    ),
    "azul_expected_source": gettext_lazy(
        'expected a factory display F1 to F%(last)s or the centre C, as in "F3 blue 4", '
        '"C red floor" or, on the grey wall, "wall 2"'
    ),
    "azul_expected_colour": gettext_lazy(
        "expected a colour: blue, yellow, red, black or white (b, y, r, k, w)"
    ),
    "azul_expected_line": gettext_lazy('expected a pattern line 1 to %(last)s or "floor"'),
    "azul_expected_column": gettext_lazy('expected a wall column 1 to %(last)s, as in "wall 2"'),
    "azul_expected_end": gettext_lazy(
        'expected nothing after the command, as in "F3 blue 4", "C red floor" or, on the '
        'grey wall, "wall 2"'
    ),
}
"""Code -> sentence, with named placeholders (``games.refusals.RULES_ERRORS``)."""


def said(params: dict[str, Any]) -> dict[str, Any]:
    """Azul has no params of its own: its colours, sources and lines are every game's."""
    return {}
