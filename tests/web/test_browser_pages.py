"""Every page in the real browser at desktop (1280×900) and phone (390×844) sizes: no
sideways scroll, a favicon, no console error, tap targets of 44 px; a screenshot of each
under var/screenshots/. Then the live game page: chat arriving without a reload while a
draft survives, the takeback picker offering the move just played, Confirm in view on a
phone after choosing a target, board pieces reached by keyboard."""

import pytest
from django.conf import settings
from django.test import Client

from games import repository
from games.models import NoticeKind, Outbox
from games.selectors.history import move_history
from games.selectors.moves import legal_moves_of
from games.selectors.names import display_name
from games.services.chat import chat_post
from games.services.moves import game_resign, move_undo
from games.services.tables import game_create, game_join
from tests.conftest import make_user
from tests.web.helpers import choose_its_colour, play_moves, player_to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TAPPABLE = ", ".join(
    [
        "main button",
        "main .button",
        "main select",
        "main input[type=text]",
        "main summary",
        "header a",
        "header button",
    ]
)
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def window_of(windows, live_server, user, size="desktop"):
    """A browser window signed in as ``user`` (the session cookie of a test client), which
    records every console error and failed request."""
    context = windows(viewport=SIZES[size])
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )
    page = context.new_page()
    page.problems = []
    page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    return page


def check_page(page, shoot, name: str) -> None:
    """No sideways scroll, a favicon, no console error, tap targets of 44 px or more."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
    assert page.locator("link[rel=icon]").count() == 1, name
    small = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim().slice(0, 30) || e.id, e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 43.5)
            .map(([t, r]) => t + ':' + Math.round(r.height))""",
        TAPPABLE,
    )
    assert not small, f"{name}: tap targets under 44 px: {small}"
    assert not page.problems, f"{name}: {page.problems}"
    shoot(page, name)


def finished_game(alice, bob):
    game = game_create(creator=alice, game="azul", players=2)
    game_join(game=game, user=bob)
    play_moves(game, (alice, bob), 6)
    game_resign(game=game, user=bob)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_every_page_fits_has_a_favicon_and_no_console_error(windows, live_server, shoot, size):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    playing = game_create(
        creator=alice,
        game="summer-pavilion",
        players=2,
        time_control={"kind": "per_move", "days": 3},
    )
    game_join(game=playing, user=bob)
    play_moves(playing, (alice, bob), 3)
    chat_post(game=playing, user=bob, text="Good luck!")
    mover = player_to_move(playing, alice, bob)
    waiting = bob if mover == alice else alice
    invited = game_create(creator=alice, game="miyabi", players=3, invite=[carol.email])
    token = Outbox.objects.get(game=invited, kind=NoticeKind.INVITATION).payload["token"]
    over = finished_game(alice, bob)
    url = live_server.url

    anonymous = window_of(windows, live_server, None, size)
    for path, name in [("/", "home"), ("/signin/", "sign-in")]:
        anonymous.goto(url + path)
        check_page(anonymous, shoot, f"{name}-{size}")
    answer = anonymous.goto(url + "/games/abc/")
    assert answer.status == 404 and "does not exist" in anonymous.content()
    anonymous.problems.remove(  # the page's own status, which the browser reports
        "Failed to load resource: the server responded with a status of 404 (Not Found)"
    )
    check_page(anonymous, shoot, f"not-found-{size}")

    page = window_of(windows, live_server, mover, size)
    pages = [
        (f"/games/{playing.pk}/", "game-your-turn"),
        (f"/games/{playing.pk}/replay/", "replay"),
        (f"/games/{playing.pk}/resign/", "resign"),
        (f"/games/{over.pk}/", "game-over"),
        ("/games/new/", "new-game"),
        (f"/games/{invited.pk}/", "game-waiting-for-players"),
    ]
    for path, name in pages:
        page.goto(url + path)
        check_page(page, shoot, f"{name}-{size}")
    assert page.locator("ul.seats").inner_text().count("(invited)") == 1
    page.goto(f"{url}/games/new/")
    page.select_option("select[name=bots]", "1")
    assert page.locator("[name=rated]").is_disabled()
    assert not page.locator("[name=rated]").is_checked()
    assert page.locator("#rated-note").inner_text() == "Games with computer players are not rated."
    check_page(page, shoot, f"new-game-with-a-computer-player-{size}")
    page.select_option("select[name=bots]", "0")
    assert page.locator("[name=rated]").is_checked()

    other = window_of(windows, live_server, waiting, size)
    other.goto(f"{url}/games/{playing.pk}/")
    assert other.locator("#clocks li").count() == 2
    check_page(other, shoot, f"game-waiting-{size}")
    guest = window_of(windows, live_server, carol, size)
    guest.goto(f"{url}/invite/{token}/")
    check_page(guest, shoot, f"invitation-{size}")
    guest.goto(f"{url}/lobby/")
    assert "Carol (invited)" in guest.content()
    check_page(guest, shoot, f"lobby-{size}")


def test_the_end_screen_shows_the_score_line_by_line_and_opens_a_rematch(
    windows, live_server, shoot
):
    alice, bob = make_user("alice"), make_user("bob")
    over = finished_game(alice, bob)
    page = window_of(windows, live_server, alice)
    page.goto(f"{live_server.url}/games/{over.pk}/")
    end = page.locator("#end-screen")
    assert "wins" in end.locator("h2").inner_text()
    assert end.locator("tfoot td").all_inner_texts() == [str(s) for s in over.scores]
    assert page.locator("text=clocks paused").count() == 0
    assert page.locator("#replay-link").is_visible()
    with page.expect_navigation():
        page.click("#rematch")
    assert "Rematch opened" in page.content()
    assert page.locator("ul.seats").inner_text().count("(invited)") == 1


def test_chat_arrives_live_and_a_half_typed_draft_survives(windows, live_server, shoot):
    alice, bob = make_user("alice"), make_user("bob")
    game = game_create(creator=alice, game="azul", players=2)
    game_join(game=game, user=bob)
    game.refresh_from_db()
    pages = {user: window_of(windows, live_server, user) for user in (alice, bob)}
    for page in pages.values():
        page.goto(f"{live_server.url}/games/{game.pk}/")
    pages[bob].fill("#chat-text", "a half-typed thou")
    pages[alice].fill("#chat-text", "Hello Bob!")
    with pages[alice].expect_navigation():
        pages[alice].click("#chat-form button")
    pages[bob].wait_for_selector("#part-chat >> text=Hello Bob!", timeout=10000)
    assert pages[bob].input_value("#chat-text") == "a half-typed thou"
    # A move by the other player also arrives in place, and the title says whose turn.
    mover = player_to_move(game, alice, bob)
    watcher = pages[bob if mover == alice else alice]
    watcher.fill("#chat-text", "still typing")
    play_moves(game, (alice, bob), 1)
    watcher.wait_for_selector("text=Your turn", timeout=10000)
    assert watcher.title().startswith("Your turn")
    assert watcher.input_value("#chat-text") == "still typing"
    assert not watcher.problems


def test_the_takeback_picker_offers_the_move_just_played_in_words(windows, live_server, shoot):
    alice, bob = make_user("alice"), make_user("bob")
    game = game_create(creator=alice, game="azul", players=2)
    game_join(game=game, user=bob)
    play_moves(game, (alice, bob), 2)
    asker = player_to_move(game, alice, bob)
    play_moves(game, (alice, bob), 1)
    move_undo(game=game, user=asker)
    play_moves(game, (alice, bob), 1)  # the move played after an undo is offered too
    just_played = move_history(game)[-1]
    page = window_of(windows, live_server, asker)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("#takeback summary")
    first = page.locator(".takeback-choice label").first.inner_text()
    assert first.startswith(f"before your move 3: {display_name(asker)} took")
    assert just_played["text"] in page.locator(".taken-back").first.inner_text()
    assert page.locator(".takeback-choice input").first.is_checked()
    shoot(page, "takeback-picker-desktop")
    with page.expect_navigation():
        page.click("#takeback-ask")
    assert "asks to take back the last move" in page.locator("#move-list").inner_text()


def test_on_a_phone_confirm_is_in_view_after_choosing_a_target(windows, live_server, shoot):
    alice, bob = make_user("alice"), make_user("bob")
    game = game_create(creator=alice, game="azul", players=2)
    game_join(game=game, user=bob)
    mover = player_to_move(game, alice, bob)
    page = window_of(windows, live_server, mover, "phone")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator("#table-area .factory.pickable").first.click()
    choose_its_colour(page)
    target = page.locator("figure.mine .pattern-line.pickable").last
    target.scroll_into_view_if_needed()
    target.click()
    confirm = page.locator("#confirm-move")
    assert confirm.is_enabled()
    box = confirm.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= SIZES["phone"]["height"]
    assert "→ line" in page.locator("#chosen").inner_text()
    assert page.locator("figure.mine .preview").count() >= 1
    shoot(page, "choosing-a-move-phone")
    before = repository.game_table(game).last_seq
    with page.expect_navigation():
        confirm.click()
    assert repository.game_table(game).last_seq > before
    assert page.locator("#move-list li.latest").is_visible()


def test_a_factory_of_one_colour_is_taken_without_asking_its_colour(windows, live_server):
    """Four tiles of one colour: the tap takes them, and the lines are offered at once."""
    alice, bob = make_user("alice"), make_user("bob")
    for _ in range(400):
        game = game_create(creator=alice, game="azul", players=2)
        game_join(game=game, user=bob)
        factories = repository.game_table(game).state.factories
        one = next((i for i, f in enumerate(factories) if sum(map(bool, f)) == 1), None)
        if one is not None:
            break
    assert one is not None, "no deal of 400 had a factory of one colour"
    page = window_of(windows, live_server, player_to_move(game, alice, bob), "phone")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator(f'svg .pickable[data-pick="src:f{one}"]').click()
    assert not page.locator('#choices button.choice[data-choice^="col:"]').count()
    assert page.locator("figure.mine .pattern-line.pickable").count() >= 1
    assert page.locator("#chosen").inner_text().startswith(f"factory {one + 1} → take 4")


def test_board_pieces_are_reached_and_chosen_with_the_keyboard(windows, live_server, shoot):
    alice, bob = make_user("alice"), make_user("bob")
    game = game_create(creator=alice, game="azul", players=2)
    game_join(game=game, user=bob)
    mover = player_to_move(game, alice, bob)
    page = window_of(windows, live_server, mover)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    stops = page.evaluate(
        """[...document.querySelectorAll('svg')]
          .map(svg => svg.querySelectorAll('.key[tabindex="0"]').length)"""
    )
    assert stops[0] == 1 and set(stops) <= {0, 1}, "one Tab stop a board (a roving tabindex)"
    page.locator("#table-area .factory.pickable .key").first.focus()
    page.keyboard.press("Enter")
    assert page.locator("#chosen").inner_text().startswith("factory")
    focused = page.evaluate("document.activeElement.closest('svg') !== null")
    assert focused, "focus stays on the board after a choice"
    for _ in range(3):
        if page.locator("#confirm-move:enabled").count():
            break
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
    assert page.locator("#confirm-move").is_enabled()
    shoot(page, "keyboard-choice-desktop")


def test_a_link_with_a_move_preselects_it_for_confirmation(windows, live_server):
    alice, bob = make_user("alice"), make_user("bob")
    game = game_create(creator=alice, game="azul", players=2)
    game_join(game=game, user=bob)
    mover = player_to_move(game, alice, bob)
    move = legal_moves_of(repository.game_table(game))[0]["move"]
    page = window_of(windows, live_server, mover)
    page.goto(f"{live_server.url}/games/{game.pk}/?move={move.replace(' ', '+')}")
    assert page.locator("#confirm-move").is_enabled()
    assert page.input_value("#move-select") == move
    game.refresh_from_db()
    assert repository.game_table(game).last_seq == game.last_seq  # a GET played nothing
