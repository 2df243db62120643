"""What the site's header shows besides the always-there links: who is signed in, by the
name the site shows them by everywhere, and the moderators' door."""

from django.http import HttpRequest

from games.selectors.access import is_moderator
from games.selectors.names import display_name


def navigation(request: HttpRequest) -> dict:
    """A template context processor: ``signed_in_as``, the signed-in person's name as
    every list of players shows it (``selectors.names.display_name``: never their address), and
    ``is_moderator`` for the header's link to moderation (a query only for staff, who
    alone can be moderators)."""
    user = getattr(request, "user", None)
    signed_in = bool(user and user.is_authenticated)
    return {
        "signed_in_as": display_name(user) if signed_in else "",
        "is_moderator": bool(user and user.is_staff and is_moderator(user)),
    }
