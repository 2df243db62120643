"""A channel made for the tests, in a folder of its own as every channel is: a pager that
beeps a player's number when it is their turn. Registered by one line (the setting
``NOTICE_CHANNELS``), it says only whom a notice reaches and how one row is sent, and
the delivery loop does the rest. What its pager service answers next is set by the test
(``PAGER.answers``); what it took is ``PAGER.beeped``."""

from dataclasses import dataclass, field

from games.models import Delivery, NoticeKind
from games.notify.channels import Channel, loop


@dataclass
class PagerService:
    # "ok", "busy" (try later), "unknown" (no such pager: for good), "silent" (no
    # answer once the beep was handed over).
    answers: list[str] = field(default_factory=list)
    beeped: list[tuple[str, str, int]] = field(default_factory=list)


PAGER = PagerService()


class PagerChannel(Channel):
    name = "pager"
    optional_kinds = (NoticeKind.YOUR_TURN,)
    max_attempts = 3
    job = "beeps"
    tally = ("beeped", "beeps_in_doubt", "beeps_retried")

    def deliver(self, notice) -> bool:
        if notice.kind not in self.optional_kinds or notice.user is None:
            return False
        return loop.keep(self.name, notice, recipient=f"pager:{notice.user.pk}")

    def send(self, row: Delivery, composed, hand_over) -> None:
        answer = PAGER.answers.pop(0) if PAGER.answers else "ok"
        if answer == "busy":
            raise loop.Refused("the pager service is busy")
        if answer == "unknown":
            raise loop.Refused("no such pager", permanent=True)
        hand_over()
        if answer == "silent":
            raise loop.InDoubt("no answer from the pager service")
        PAGER.beeped.append((row.recipient, row.kind, row.key))
