"""Azul: Summer Pavilion's refusals in the reader's language: the sentences of the codes
only its engine raises (``games.refusals`` holds the ones every game shares)."""

from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext_lazy

from games.rules.summer_pavilion.board import COLOURS

__all__ = ["COLOURS", "SENTENCES", "said", "star_name"]

SENTENCES = {
    "bonus_due": ngettext_lazy(
        "first choose %(count)s bonus tile from the supply",
        "first choose %(count)s bonus tiles from the supply",
        "count",
    ),
    "not_acquire_phase": gettext_lazy('tiles are taken only in phase 1, "acquire tiles"'),
    "not_play_phase": gettext_lazy(
        'tiles are placed, and players pass, only in phase 2, "play tiles"'
    ),
    "wild_taken_alone": gettext_lazy(
        "%(wild)s is the wild colour this round: take it with another colour, or alone only "
        "from a factory display or the centre that holds nothing else"
    ),
    "no_such_star": gettext_lazy("there is no such star: the stars are 0 (the centre) to 6"),
    "no_such_space": gettext_lazy(
        "there is no space %(space)s on a star: the spaces are 1 to %(spaces)s"
    ),
    "wilds_not_a_number": gettext_lazy("the wild tiles spent are a number of tiles"),
    # Translators: %(star)s is a star of the board, e.g. "the purple star".
    "space_covered": gettext_lazy("space %(space)s of %(star)s is already covered"),
    # Translators: %(accepted)s lists tile colours, e.g. "blue or red".
    "star_refuses_colour": gettext_lazy("%(star)s accepts %(accepted)s, not %(colour)s"),
    "wild_paid_with_wilds": gettext_lazy(
        "a tile of the wild colour placed as itself is paid with tiles of that colour only"
    ),
    "wilds_out_of_range": ngettext_lazy(
        "this space costs %(cost)s: spend 0 to %(most)s wild tile",
        "this space costs %(cost)s: spend 0 to %(most)s wild tiles",
        "most",
    ),
    "too_few_of_colour": ngettext_lazy(
        "placing this tile needs %(needed)s %(colour)s tile beside your board",
        "placing this tile needs %(needed)s %(colour)s tiles beside your board",
        "needed",
    ),
    "too_few_wilds": ngettext_lazy(
        "only %(have)s wild tile lies beside your board",
        "only %(have)s wild tiles lie beside your board",
        "have",
    ),
    "no_bonus_due": gettext_lazy("no bonus tiles are due"),
    "bonus_not_colours": gettext_lazy("the bonus tiles are a list of colours"),
    "bonus_count": ngettext_lazy(
        "choose exactly %(count)s tile from the supply",
        "choose exactly %(count)s tiles from the supply",
        "count",
    ),
    "bonus_not_sorted": gettext_lazy("list the chosen colours in ascending order"),
    "supply_lacks_colour": gettext_lazy("the supply holds too few %(colour)s tiles"),
    "kept_not_colours": gettext_lazy("the tiles kept are a list of colours"),
    "keep_too_many": ngettext_lazy(
        "keep at most %(most)s tile on the corner spaces",
        "keep at most %(most)s tiles on the corner spaces",
        "most",
    ),
    "kept_not_sorted": gettext_lazy("list the kept colours in ascending order"),
    "kept_not_beside": gettext_lazy("keep only tiles that lie beside your board"),
    "pavilion_expected_command": gettext_lazy(
        'expected a take such as "y3" (yellow from factory display 3) or "yc" (from the '
        'centre), a placement such as "bb6" or "bb6+2" (a blue tile on the blue star, space '
        '6, with 2 wild tiles), "pass" or "pass gg" (the tiles to keep), or "bonus pr" (tiles '
        "from the supply)"
    ),
    "pavilion_expected_take": gettext_lazy(
        'expected a colour then a factory display 1-9 or "c" for the centre, as in "y3" or "yc"'
    ),
    "pavilion_expected_place": gettext_lazy(
        "expected a colour, a star (c p o r b y g or 0-6), a space 1-6 and, if you spend "
        'wild tiles, "+" with their number, as in "bb6+2"'
    ),
    "pavilion_expected_kept": ngettext_lazy(
        'expected up to %(most)s tile colours (p g o y b r or colour names) after "pass"',
        'expected up to %(most)s tile colours (p g o y b r or colour names) after "pass"',
        "most",
    ),
    "pavilion_expected_bonus": gettext_lazy(
        'expected tile colours (p g o y b r or colour names) after "bonus"'
    ),
    "pavilion_keep_too_many": ngettext_lazy(
        "expected at most %(most)s tile to keep",
        "expected at most %(most)s tiles to keep",
        "most",
    ),
}
"""Code -> sentence, with named placeholders (``games.refusals.RULES_ERRORS``)."""


def star_name(star: object) -> str:
    """A Summer Pavilion star, by the engine's index (0 the centre star, then the stars
    named after their colour on the coloured side)."""
    names = {
        0: gettext("the centre star"),
        1: gettext("the purple star"),
        2: gettext("the orange star"),
        3: gettext("the red star"),
        4: gettext("the blue star"),
        5: gettext("the yellow star"),
        6: gettext("the green star"),
    }
    return names.get(star, str(star)) if type(star) is int else str(star)


def said(params: dict[str, Any]) -> dict[str, Any]:
    """The params only this game has, in words: a star."""
    return {"star": star_name(params["star"])} if "star" in params else {}
