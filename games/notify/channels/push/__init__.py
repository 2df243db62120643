"""The Web Push channel: a notice becomes a delivery row per device of its reader
(``PushSubscription``), written in the transaction of the change in one statement, and is
pushed once after commit by the delivery loop (``channels.loop``): encrypted for the device
(RFC 8291, ``aes128gcm``), signed by the site (RFC 8292, VAPID) and posted to the device's
push service (RFC 8030), which must be a known one (``endpoints``). What a push says is
``texts``'; how it is sent, ``sending``'s."""

import json
from datetime import datetime, timedelta

from django.conf import settings

from games.i18n import speaking_to
from games.models import Delivery, NoticeKind, PushSubscription
from games.notify.channels import GAME_KINDS, Channel, loop


class PushChannel(Channel):
    name = "push"
    # The notices about a game of a player (a push needs both to say something and to
    # open a page), a tournament's round among them; sign-in links, digests, answers to
    # replies and a tournament's news without a game are emails.
    optional_kinds = (*GAME_KINDS, NoticeKind.TOURNAMENT_ROUND)
    max_attempts = 6
    # Nothing tells when a push leaves: a worker lost after its claim may have pushed, and
    # a lost push is covered by the next reminder, as a lost email is.
    claim_is_hand_over = True
    job = "pushes"
    tally = ("pushed", "pushes_lost", "pushes_retried")

    def deliver(self, notice) -> bool:
        if notice.kind not in self.optional_kinds or notice.game is None or notice.user is None:
            return False
        # The move that led here, so the push can say what happened even if more follow.
        payload = {**notice.payload, "seq": notice.game.last_seq}
        devices = PushSubscription._meta.db_table
        readers = (f"'', user_id, id, NULL FROM {devices} WHERE user_id = %s", [notice.user.pk])
        return loop.keep(self.name, notice, readers=readers, payload=payload)

    def stale_after(self) -> timedelta:
        return timedelta(seconds=settings.WEB_PUSH_CLAIM_STALE_SECONDS)

    # The HTTP and crypto stack is imported when pushing: the web processes never load it.

    def skip_reason(self, row: Delivery, now: datetime) -> str:
        from games.notify.channels.push import sending

        return sending.skip_reason(row, now)

    def compose(self, row: Delivery, now: datetime) -> str:
        from games.notify.channels.push import texts

        with speaking_to(row.subscription.user):
            return json.dumps(texts.message(row), ensure_ascii=False, separators=(",", ":"))

    def send(self, row: Delivery, composed, hand_over) -> None:
        from games.notify.channels.push import sending

        sending.push(row, composed)
