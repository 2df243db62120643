"""The Web Push channel: a notice becomes a delivery row per device of its reader
(``PushSubscription``), written in the transaction of the change, and is pushed once after
commit by the Celery task ``send_push`` or by the minute sweep (``send_due``): encrypted
for the device (RFC 8291, ``aes128gcm``), signed by the site (RFC 8292, VAPID) and posted to
the device's push service (RFC 8030), which must be a known one (``endpoints``). What a
push says is ``texts``'; how it is sent, ``sending``'s."""

from datetime import datetime

from games.models import Game, NoticeKind, PushDelivery
from games.notify.channels import GAME_KINDS, Channel
from games.notify.channels.push import deliveries


class PushChannel(Channel):
    name = "push"
    # The notices about a game of a player (a push needs both to say something and to
    # open a page), a tournament's round among them; sign-in links, digests, answers to
    # replies and a tournament's news without a game are emails.
    optional_kinds = (*GAME_KINDS, NoticeKind.TOURNAMENT_ROUND)

    def deliver(self, notice) -> bool:
        if notice.kind not in self.optional_kinds or notice.game is None or notice.user is None:
            return False
        return deliveries.queue(notice)

    def withdraw(self, *, game: Game, kind: str, after_seq: int, reason: str, now) -> int:
        return PushDelivery.objects.filter(
            game=game, key__gt=after_seq, kind=kind, sent_at__isnull=True, claimed_at__isnull=True
        ).update(cancelled_at=now, withdrawn_because=reason)

    def send_due(self, *, now: datetime) -> dict[str, int]:
        # Imported when pushing: the web processes never load the HTTP and crypto stack.
        from games.notify.channels.push import sending

        return sending.send_due(now=now)
