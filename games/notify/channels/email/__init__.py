"""The email channel: a notice becomes a row to its reader's address, written in the
transaction of the change, with a Message-ID of its own, and sent once by the delivery loop
(``channels.loop``) after commit, or by the minute sweep if the broker lost the task. What
an email says and shows (``render``: the board picture, threading, reply-to-move,
unsubscribe) and how it is handed to the mail server (``smtp``) are this folder's; the mail
door (``games.mail``) reads the replies."""

from datetime import datetime, timedelta

from games.models import Delivery, new_message_id
from games.notify.channels import GAME_KINDS, TOURNAMENT_KINDS, Channel, loop


class EmailChannel(Channel):
    name = "email"
    optional_kinds = GAME_KINDS + TOURNAMENT_KINDS
    job = "emails"

    def deliver(self, notice) -> bool:
        return loop.keep(self.name, notice, recipient=notice.recipient, message_id=new_message_id())

    # The SMTP and rendering stack is imported when sending: writing a row needs none of it.

    def skip_reason(self, row: Delivery, now: datetime) -> str:
        from games.notify.channels.email import smtp

        return smtp.skip_reason(row, now)

    def waits(self, row: Delivery) -> timedelta | None:
        from games.notify.channels.email import smtp

        return smtp.waits(row)

    def compose(self, row: Delivery, now: datetime):
        from games.notify.channels.email import render

        return render.message(row, now)

    def send(self, row: Delivery, composed, hand_over) -> None:
        from games.notify.channels.email import smtp

        smtp.send(composed, hand_over)
