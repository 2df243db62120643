"""Miyabi's words in an emailed reply: the notation's only word is "pass"; tiles and
squares are letters and digits ("LP3 b2 r90") that no language changes."""

from django.utils.translation import pgettext_lazy

# The game's name in its emails, as the publishers' books in each language call it.
NAME = pgettext_lazy("game name", "Miyabi")

WORDS = {
    "es": {"pass": ("paso", "pasar")},
    "pt": {"pass": ("passo", "passar")},
    "pl": {"pass": ("pas", "pasuję", "spasuj", "spasować")},
}
EXAMPLES = {"es": "paso", "pt": "passo", "pl": "pasuję"}
ENGLISH = {"pass": "pass"}
"""What the English notation reads already."""


def in_order(text: str) -> str:
    """The notation reads the words in the order players write them."""
    return text
