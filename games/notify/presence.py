"""Whether a player is looking at a game: a turn notice to someone on the game's page
tells them nothing, whatever the channel."""

from datetime import datetime, timedelta

from django.conf import settings

from games.models import Game, SeatClock


def looking(game: Game, seat: int, now: datetime) -> bool:
    """Whether seat ``seat``'s player was seen on ``game``'s page within
    ``MAIL_ACTIVE_WINDOW_SECONDS`` of ``now``."""
    window = timedelta(seconds=settings.MAIL_ACTIVE_WINDOW_SECONDS)
    return SeatClock.objects.filter(
        seat__game=game, seat__position=seat, last_seen_at__gte=now - window
    ).exists()
