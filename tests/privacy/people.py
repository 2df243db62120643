"""People made as the site makes them (issue 52): an account comes from the emailed
sign-in link — asked for on the sign-in page, opened from the email, confirmed with the
link page's button — never from ``create_user`` or ``set_unusable_password``, which the
site's sign-up never calls."""

import re
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.models import NoticeKind, Outbox
from games.notify.channels import loop
from games.notify.channels.email.addresses import account_identity

LINK = re.compile(r"(/signin/link/\S*)#([\w.\-]+)")


def emailed_link(address: str, smtp=None) -> tuple[str, str]:
    """Send the sign-in emails waiting, as the worker does, and read the newest one to
    ``address`` (from the SMTP sink where a test has one, else Django's test outbox): the
    link's path and its code."""
    waiting = Outbox.objects.filter(kind=NoticeKind.SIGN_IN, sent_at__isnull=True)
    for pk in waiting.values_list("pk", flat=True):
        loop.send(delivery_id=pk)
    address = account_identity(address)  # as the site writes to it
    if smtp is not None:
        body = smtp.to(address)[-1].get_body(("plain",)).get_content()
    else:
        body = next(m for m in reversed(mail.outbox) if m.to == [address]).body
    path, code = LINK.search(body).groups()
    return path, code


def sign_in_by_link(client: Client, address: str, next_url: str = "/lobby/", smtp=None):
    """Ask for a link for ``address`` on the sign-in page, open it from the email, and
    press its "Sign in" button; the page it lands on."""
    asked = client.post("/signin/", {"email": address, "next": next_url})
    assert asked.status_code == 200, asked.status_code
    path, code = emailed_link(address, smtp)
    assert client.get(path).status_code == 200
    return client.post("/signin/link/", {"code": code, "next": next_url})


def signed_up_by_link(address: str, smtp=None, **names) -> tuple[Client, object]:
    """A person who signs up as everyone does, by the emailed link, signed in in a browser
    of their own (the client); ``names`` (first_name, last_name) as the admin would set
    them. The account and the client."""
    client = Client()
    landed = sign_in_by_link(client, address, smtp=smtp)
    assert landed.status_code == 302, landed.status_code
    user = get_user_model().objects.get(username=account_identity(address))
    if names:
        get_user_model().objects.filter(pk=user.pk).update(**names)
        user.refresh_from_db()
    return client, user


def time_passes(monkeypatch, minutes: int) -> None:
    """The site's clock (``django.utils.timezone.now``, which every module reads) moves
    ``minutes`` on, as if the person had been away that long."""
    now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: now() + timedelta(minutes=minutes))
