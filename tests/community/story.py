"""A seed is a story (issue 58): what a simulated community's run wrote and sent, as digests
to compare two runs of one seed byte for byte; the database emptied between runs; and the
shrinker, which looks for the shortest story of a seed that still fails."""

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from django.db import connection

from bench.store import truncate
from events.models import Event

# Digested in this order: what the site recorded, what left it, what the run counted, and
# the steps the people took.
PARTS = ("events", "emails", "pushes", "summary", "steps")


def told(community) -> dict[str, list]:
    """The story a run told, in parts (``PARTS``): every event by stream and seq (type,
    version, data, actor, reason, time), every email as the SMTP server took it (its bytes:
    Message-ID, recipients, subject, body), every push as the push service took it (its path
    and its content, decrypted by the device it was for), the run's summary without its
    time, and the log of its steps."""
    events = Event.objects.order_by("stream", "seq").values_list(
        "stream", "seq", "type", "version", "data", "actor", "reason", "recorded_at"
    )
    devices = {f"/push/{p.name}": p.device for p in community.everyone if p.device}
    pushes = [
        (push.path, devices[push.path].decrypt(push.body) if push.path in devices else None)
        for push in community.push.received
    ]
    figures = summary_of(community)
    figures.pop("seconds")
    return {
        "events": [json.dumps(list(row), default=str) for row in events],
        "emails": [
            message.as_bytes().decode(errors="replace") for message in community.mail.messages
        ],
        "pushes": [json.dumps(push, default=str) for push in pushes],
        "summary": [json.dumps(figures, sort_keys=True)],
        "steps": community.log,
    }


def digests(parts: dict[str, list]) -> dict[str, str]:
    """SHA-256 of each part of a story (``told``)."""
    return {name: _digest(parts[name]) for name in PARTS}


def first_difference(one: dict[str, list], other: dict[str, list]) -> str:
    """Where two stories part: the first item of each part that differs."""
    said = []
    for name in PARTS:
        pairs = zip(one[name], other[name], strict=False)
        at = next((index for index, (a, b) in enumerate(pairs) if a != b), None)
        if at is None and len(one[name]) != len(other[name]):
            at = min(len(one[name]), len(other[name]))
        if at is not None:
            first = one[name][at] if at < len(one[name]) else "(nothing)"
            second = other[name][at] if at < len(other[name]) else "(nothing)"
            said.append(f"{name} #{at}:\n  {first[:1500]}\n  {second[:1500]}")
    return "\n".join(said)


def _digest(part) -> str:
    return hashlib.sha256(json.dumps(part, default=str, sort_keys=True).encode()).hexdigest()


def summary_of(community) -> dict:
    from tests.community.simulation import summary

    return json.loads(summary(community))


def empty_database() -> None:
    """Every table emptied and its ids from 1 again, as before the first run."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT string_agg(quote_ident(tablename), ', ') FROM pg_tables "
            "WHERE schemaname = 'public' AND tablename <> 'django_migrations'"
        )
        tables = cursor.fetchone()[0]
    truncate(f"{tables} RESTART IDENTITY CASCADE")


@dataclass(frozen=True)
class Story:
    """The part of a seed's story that is played: ``people`` people over ``days`` days, the
    steps of ``quiet`` being steps in which nobody acts and no fault begins (the clock, the
    worker and the sweep go on)."""

    seed: int
    people: int
    days: int
    quiet: frozenset[int] = frozenset()

    def command(self) -> str:
        """The one command that plays this story again."""
        quiet = f" --quiet {','.join(map(str, sorted(self.quiet)))}" if self.quiet else ""
        return (
            f"bench/community.py --seed {self.seed} --people {self.people} --days {self.days}"
            f"{quiet}"
        )


def shrunk(story: Story, fails: Callable[[Story], bool], *, steps: int) -> Story:
    """The shortest story of the same seed that still ``fails``: fewer days, then fewer
    people, then as many of its first ``steps`` steps made quiet as can be (halves,
    quarters … one step at a time, as delta debugging does), each tried by a full run."""
    while story.days > 1 and fails(smaller := Story(story.seed, story.people, story.days - 1)):
        story = smaller
    while story.people > 4:
        smaller = Story(story.seed, story.people * 2 // 3, story.days)
        if not fails(smaller):
            break
        story = smaller
    loud = [step for step in range(1, steps + 1) if step not in story.quiet]
    size = max(1, len(loud) // 2)
    while size >= 1 and loud:
        start = 0
        while start < len(loud):
            chunk = loud[start : start + size]
            quieter = Story(story.seed, story.people, story.days, story.quiet | frozenset(chunk))
            if fails(quieter):
                story = quieter
                loud = loud[:start] + loud[start + size :]
            else:
                start += size
        size //= 2
    return story
