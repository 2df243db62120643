"""Screenshots of the HTML turn email of each game in each language at a phone's and a
desktop's width (``var/screenshots/mail/``), as a mail client shows it: the inline board
picture in place of its ``cid:`` and no sideways scrolling."""

import base64

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import NoticeKind, Outbox, PlayerSettings
from games.notify.channels.email import render
from games.repository import game_table
from games.services.moves import move_submit, takeback_request
from tests.mail.conftest import player_to_move, start_game

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
            boxes = [image.bounding_box() for image in page.locator("img").all()]
            assert len(boxes) == 1 + players, "the table and every board"
            assert all(box["width"] <= min(width, 600) for box in boxes)
            assert boxes[0]["height"] > 100 and boxes[1]["width"] > boxes[-1]["width"], (
                "the reader's board wider than the others'"
            )
            smallest = page.evaluate(
                "Math.min(...[...document.querySelectorAll('a[href*=\"?move=\"]')]"
                ".map(a => a.getBoundingClientRect().height))"
            )
            assert smallest >= 44, "tap targets of at least 44 px"


@pytest.mark.django_db
def test_what_happened_opens_the_email_and_its_preheader_stays_hidden(
    alice, bob, windows, screenshots, shoot, settings
):
    """Issue 28: the first thing read is what happened (a takeback asked, in words); the
    preheader that a mail list shows is not on the page."""
    settings.MAIL_BOARD_PICTURES = True
    (screenshots / "mail").mkdir(exist_ok=True)
    game = start_game(alice, bob)
    for _ in range(2):
        table = game_table(game)
        mover = player_to_move(game)
        move = table.engine.format(table.engine.default_command(table.state))
        move_submit(game=game, user=mover, move=move)
    asking = player_to_move(game)
    answering = bob if asking == alice else alice
    takeback_request(game=game, user=asking, to_seq=game_table(game).steps[0].last)
    row = Outbox.objects.get(game=game, kind=NoticeKind.TAKEBACK_REQUEST)
    for language in ("en", "pl"):
        PlayerSettings.objects.update_or_create(user=answering, defaults={"language": language})
        email = render.message(row, timezone.now())
        html = email.alternatives[0].content
        for cid, png in email.pictures:
            html = html.replace(
                f"cid:{cid}", f"data:image/png;base64,{base64.b64encode(png).decode()}"
            )
        line = " ".join(email.body.split("\n\n")[0].split())
        for width in (390, 800):
            page = windows(viewport={"width": width, "height": 900}).new_page()
            page.set_content(html)
            shoot(page, f"mail/takeback-{language}-{width}")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert page.locator(".preheader").is_hidden()
            shown = page.locator("p").nth(1).inner_text()
            assert " ".join(shown.split()) == line
