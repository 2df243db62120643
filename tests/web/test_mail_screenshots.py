"""Screenshots of the HTML turn email of each game in each language at a phone's and a
desktop's width (``var/screenshots/mail/``), as a mail client shows it: the inline board
picture in place of its ``cid:`` and no sideways scrolling."""

import base64

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.mail import render
from games.models import NoticeKind, Outbox, PlayerSettings
from tests.mail.conftest import start_game

pytestmark = pytest.mark.browser


def html_as_shown(game) -> str:
    """The turn email's HTML with its pictures inlined, as a mail client shows it."""
    row = Outbox.objects.get(game=game, kind=NoticeKind.YOUR_TURN)
    email = render.message(row, timezone.now())
    html = email.alternatives[0].content
    for cid, png in email.pictures:
        data = base64.b64encode(png).decode()
        html = html.replace(f"cid:{cid}", f"data:image/png;base64,{data}")
    return html


@pytest.mark.parametrize(("kind", "players"), [("azul", 2), ("summer-pavilion", 3), ("miyabi", 2)])
@pytest.mark.django_db
def test_the_turn_email_fits_a_phone_and_a_desktop_in_every_language(
    kind, players, alice, bob, carol, windows, screenshots, shoot, settings
):
    settings.MAIL_BOARD_PICTURES = True
    (screenshots / "mail").mkdir(exist_ok=True)
    game = start_game(alice, *(bob, carol)[: players - 1], game=kind)
    address = Outbox.objects.get(game=game, kind=NoticeKind.YOUR_TURN).recipient
    recipient = get_user_model().objects.get(email=address)
    for language, _name in settings.LANGUAGES:
        PlayerSettings.objects.update_or_create(user=recipient, defaults={"language": language})
        html = html_as_shown(game)
        assert f'lang="{language}"' in html
        for width in (390, 800):
            page = windows(viewport={"width": width, "height": 900}).new_page()
            page.set_content(html)
            shoot(page, f"mail/{kind}-{language}-{width}")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            picture = page.locator("img").bounding_box()
            assert picture["width"] <= min(width, 600) and picture["height"] > 150
            smallest = page.evaluate(
                "Math.min(...[...document.querySelectorAll('a[href*=\"?move=\"]')]"
                ".map(a => a.getBoundingClientRect().height))"
            )
            assert smallest >= 44, "tap targets of at least 44 px"
