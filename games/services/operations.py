"""Bookkeeping of the background processes, for the operator's status page."""

from django.utils import timezone

from games.models import ProcessBeat


def process_beat(*, name: str, detail: dict | None = None) -> None:
    """Record that the background job ``name`` just ran, with what it reported."""
    ProcessBeat.objects.update_or_create(
        name=name, defaults={"at": timezone.now(), "detail": detail or {}}
    )
