"""What the site's header shows besides the always-there links: the moderators' door."""

from django.http import HttpRequest

from games import selectors


def navigation(request: HttpRequest) -> dict:
    """A template context processor: ``is_moderator`` for the header's link to moderation
    (a query only for staff, who alone can be moderators)."""
    user = getattr(request, "user", None)
    return {"is_moderator": bool(user and user.is_staff and selectors.is_moderator(user))}
