"""The email channel: a notice becomes a row of the outbox, written in the transaction of
the change and sent once by the mail door (``games.mail.services.outbox_send``) after
commit, or by the minute sweep if the broker lost the task. Everything the email does
(the board picture, threading, reply-to-move, unsubscribe) is the mail door's."""

from games.models import Game, Outbox
from games.notify.channels import GAME_KINDS, TOURNAMENT_KINDS, Channel
from games.notify.channels.email import outbox


class EmailChannel(Channel):
    name = "email"
    optional_kinds = GAME_KINDS + TOURNAMENT_KINDS

    def deliver(self, notice) -> bool:
        return outbox.queue(
            notice.game,
            notice.key,
            notice.recipient,
            notice.kind,
            user=notice.user,
            due_at=notice.due_at,
            **notice.payload,
        )

    def withdraw(self, *, game: Game, kind: str, after_seq: int, reason: str, now) -> int:
        return Outbox.objects.filter(
            game=game, seq__gt=after_seq, kind=kind, sent_at__isnull=True, claimed_at__isnull=True
        ).update(cancelled_at=now, withdrawn_because=reason)
