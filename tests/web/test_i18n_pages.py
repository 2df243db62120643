"""The site in the reader's language (issue 14): which language a page is written in (the
account's choice, else the cookie of the footer's switcher, else the browser's
``Accept-Language``, else English), the account page, dates in the reader's time zone;
no English left on any page once the catalogs are translated; and the game page in every
language, on a desktop and on a phone, without sideways scroll or overflowing buttons."""

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from zoneinfo import ZoneInfo

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.utils import dateformat, timezone, translation
from django.utils.formats import get_format

from games.models import Game, NoticeKind, Outbox, PlayerSettings
from games.selectors.history import move_history
from games.services.accounts import player_preferences_set
from games.services.chat import chat_post
from games.services.moves import move_undo
from games.services.tables import game_create
from tests.conftest import make_user
from tests.ratings.helpers import finished
from tests.web.helpers import play_moves, player_to_move, started_game

GAMES = ("summer-pavilion", "azul", "miyabi")
OTHER_LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
LOCALE = Path(settings.BASE_DIR) / "locale"


def lang_of(response) -> str:
    """The language a page says it is written in (``<html lang>``)."""
    found = re.search(r'<html lang="([^"]+)"', response.content.decode())
    assert found, "no <html lang>"
    return found.group(1)


def prefer(user, language: str = "", time_zone: str = "") -> None:
    player_preferences_set(user=user, language=language, time_zone=time_zone)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- (a) which language, which time zone ----------------------------------------------------


@pytest.mark.django_db
def test_the_accounts_language_beats_the_cookie_and_the_browser(alice):
    prefer(alice, "pt")
    client = signed_in(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    response = client.get("/lobby/", headers={"accept-language": "pl"})
    assert response.status_code == 200
    assert lang_of(response) == "pt"


@pytest.mark.django_db
def test_without_a_choice_on_the_account_the_cookie_beats_the_browser(alice):
    client = signed_in(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert lang_of(client.get("/lobby/", headers={"accept-language": "pl"})) == "es"
    visitor = Client()
    visitor.cookies[settings.LANGUAGE_COOKIE_NAME] = "pt"
    assert lang_of(visitor.get("/", headers={"accept-language": "pl"})) == "pt"


@pytest.mark.django_db
def test_without_a_cookie_the_browser_decides_and_else_english(client):
    assert lang_of(client.get("/", headers={"accept-language": "pl-PL,pl;q=0.9,en;q=0.5"})) == "pl"
    assert lang_of(client.get("/", headers={"accept-language": "pt-BR"})) == "pt"
    assert lang_of(client.get("/", headers={"accept-language": "de, fr"})) == "en"
    assert lang_of(client.get("/")) == "en"


@pytest.mark.django_db
def test_a_shared_game_address_shows_each_player_their_own_language(alice, bob, carol):
    game = started_game(alice, bob, "azul")
    play_moves(game, (alice, bob), 2)
    prefer(alice, "es")
    prefer(bob, "pl")
    address = f"/games/{game.pk}/"
    assert lang_of(signed_in(alice).get(address)) == "es"
    assert lang_of(signed_in(bob).get(address)) == "pl"
    # The live parts of the page follow the same reader.
    live = signed_in(bob).get(f"{address}live?seq=0&chat=0")
    assert live.status_code == 200 and live.headers["Content-Language"] == "pl"


@pytest.mark.django_db
def test_the_footer_switcher_sets_the_cookie_and_the_account(client, alice):
    visitor = client.post("/language/", {"language": "pt", "next": "/signin/"})
    assert visitor.status_code == 302 and visitor.headers["Location"] == "/signin/"
    assert visitor.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pt"
    assert lang_of(client.get("/signin/")) == "pt"

    player = signed_in(alice)
    answer = player.post("/language/", {"language": "pl", "next": "/lobby/"})
    assert answer.status_code == 302 and answer.headers["Location"] == "/lobby/"
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pl"
    assert PlayerSettings.objects.get(user=alice).language == "pl"
    # The choice follows the player to another browser.
    assert lang_of(signed_in(alice).get("/lobby/")) == "pl"


@pytest.mark.django_db
def test_the_footer_switcher_refuses_an_unknown_language_quietly(client, alice):
    player = signed_in(alice)
    answer = player.post("/language/", {"language": "xx", "next": "/lobby/"})
    assert answer.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in answer.cookies
    assert not PlayerSettings.objects.filter(user=alice).exclude(language="").exists()


@pytest.mark.django_db
def test_the_footer_offers_every_language_in_its_own_name(client):
    page = client.get("/").content.decode()
    for code, name in settings.LANGUAGES:
        assert f'value="{code}" lang="{code}"' in page and f">{name}</button>" in page
    assert 'value="en" lang="en" class="link" aria-current="true"' in page


@pytest.mark.django_db
def test_the_account_page_saves_the_language_and_the_time_zone(alice):
    client = signed_in(alice)
    page = client.get("/account/")
    assert page.status_code == 200
    assert (
        'name="language"' in page.content.decode() and 'name="time_zone"' in page.content.decode()
    )
    saved = client.post("/account/", {"language": "es", "time_zone": "Europe/Madrid"})
    assert saved.status_code == 302 and saved.headers["Location"] == "/account/"
    settings_row = PlayerSettings.objects.get(user=alice)
    assert (settings_row.language, settings_row.time_zone) == ("es", "Europe/Madrid")
    again = client.get("/account/")
    assert lang_of(again) == "es"
    assert '<option value="Europe/Madrid" selected>' in again.content.decode()


@pytest.mark.django_db
def test_the_account_page_refuses_an_unknown_time_zone_with_a_clear_message(alice):
    client = signed_in(alice)
    refused = client.post("/account/", {"language": "pl", "time_zone": "Mars/Olympus_Mons"})
    assert refused.status_code == 400
    page = refused.content.decode()
    assert 'class="errorlist' in page and "Mars/Olympus_Mons" in page
    assert not PlayerSettings.objects.filter(user=alice, time_zone="Mars/Olympus_Mons").exists()
    assert not PlayerSettings.objects.filter(user=alice, language="pl").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("zone", ["UTC", "Asia/Kathmandu", "America/Los_Angeles"])
def test_dates_on_a_page_follow_the_readers_time_zone(alice, bob, zone):
    game = started_game(alice, bob, "azul")
    mover = player_to_move(game, alice, bob)
    play_moves(game, (alice, bob), 1)
    move_undo(game=game, user=mover)
    at = move_history(game)[-1]["at"]
    prefer(mover, "en", zone)
    page = signed_in(mover).get(f"/games/{game.pk}/").content.decode()
    with translation.override("en"):
        shown = dateformat.format(
            timezone.localtime(at, ZoneInfo(zone)), get_format("SHORT_DATETIME_FORMAT")
        )
    assert shown in page
    assert "UTC" not in page.split("<main>", 1)[1].split("</main>", 1)[0]


# --- (b) no English left on any page --------------------------------------------------------

SHOWN_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")
BLOCKS = {
    "p", "li", "ul", "ol", "div", "section", "nav", "header", "footer", "main", "aside",
    "h1", "h2", "h3", "h4", "td", "th", "tr", "table", "caption", "option", "select",
    "button", "label", "legend", "summary", "details", "figure", "figcaption", "br",
    "form", "fieldset", "title", "text", "g", "svg", "textarea",
}  # fmt: skip


class VisibleText(HTMLParser):
    """What a reader sees of a page: its text (not scripts or styles), the attributes a
    screen reader or a tooltip says, and the words of the JSON a script turns into
    buttons (the move panel's steps). Block elements break lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.hidden = 0
        self.json = False

    def handle_starttag(self, tag, attrs) -> None:
        attrs = dict(attrs)
        if tag in ("script", "style"):
            self.hidden += 1
            self.json = attrs.get("type") == "application/json"
        if tag in BLOCKS:
            self.lines.append("\n")
        for name in SHOWN_ATTRIBUTES:
            if attrs.get(name):
                self.lines.append("\n" + " ".join(attrs[name].split()) + "\n")

    def handle_startendtag(self, tag, attrs) -> None:
        for name in SHOWN_ATTRIBUTES:
            value = dict(attrs).get(name)
            if value:
                self.lines.append("\n" + " ".join(value.split()) + "\n")

    def handle_endtag(self, tag) -> None:
        if tag in ("script", "style"):
            self.hidden = max(0, self.hidden - 1)
            self.json = False
        if tag in BLOCKS:
            self.lines.append("\n")

    def handle_data(self, data) -> None:
        if self.json:
            self.lines.extend("\n" + text + "\n" for text in _strings(json.loads(data)))
        elif not self.hidden:
            self.lines.append(re.sub(r"\s+", " ", data))

    def text(self) -> str:
        return "\n".join(line.strip() for line in "".join(self.lines).splitlines())


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    parser.close()
    return parser.text()


PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")


def english_pattern(msgid: str) -> re.Pattern | None:
    """A catalog's English sentence as it would appear on a page (placeholders filled in
    with anything on the same line); ``None`` below two words of its own."""
    said = " ".join(re.sub(r"<[^>]+>", "", msgid).replace("%%", "%").split())
    pieces = PLACEHOLDER.split(said)
    if len(re.findall(r"[A-Za-z]{2,}", " ".join(pieces))) < 2:
        return None
    return re.compile(r"[^\n]+?".join(re.escape(piece) for piece in pieces))


def english_left(language: str) -> list[tuple[str, re.Pattern]]:
    """Every English sentence of the catalogs (``locale/es``'s msgids) that ``language``
    translates into something else."""
    english = polib.pofile(str(LOCALE / "es" / "LC_MESSAGES" / "django.po"))
    own = {
        (e.msgctxt, e.msgid): e
        for e in polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    }
    patterns = []
    for entry in english:
        if entry.obsolete:
            continue
        translated = own.get((entry.msgctxt, entry.msgid), entry)
        forms = set(translated.msgstr_plural.values()) | {translated.msgstr}
        for msgid in filter(None, (entry.msgid, entry.msgid_plural)):
            pattern = english_pattern(msgid)
            if pattern is not None and msgid not in forms:
                patterns.append((msgid, pattern))
    return patterns


def every_page(language: str) -> dict[str, str]:
    """Every page a player or a visitor reads, in ``language``, by name: HTML."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    for user in (alice, bob, carol):
        prefer(user, language, "Europe/Warsaw")
    visitor = Client()
    visitor.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    pages = {}

    def read(name: str, client: Client, address: str, status: int = 200) -> None:
        response = client.get(address)
        assert response.status_code == status, (name, address, response.status_code)
        assert lang_of(response) == language, name
        pages[name] = response.content.decode()

    read("home", visitor, "/")
    read("sign-in", visitor, "/signin/")
    read("sign-in-password", visitor, "/signin/password/")
    read("sign-in-link", visitor, "/signin/link/")
    read("404", visitor, "/no-such-page/", 404)
    for slug in GAMES:
        game = started_game(alice, bob, slug)
        play_moves(game, (alice, bob), 3)
        mover = player_to_move(game, alice, bob)
        chat_post(game=game, user=alice, text="hola")
        read(f"game {slug} (your move)", signed_in(mover), f"/games/{game.pk}/")
        other = bob if mover == alice else alice
        read(f"game {slug} (waiting)", signed_in(other), f"/games/{game.pk}/")
        read(f"replay {slug}", signed_in(mover), f"/games/{game.pk}/replay/?at=3")
        read(f"resign {slug}", signed_in(mover), f"/games/{game.pk}/resign/")
        done = finished(slug, alice, bob)
        read(f"end screen {slug}", signed_in(alice), f"/games/{done.pk}/")
        read(f"replay of a finished {slug}", visitor, f"/games/{done.pk}/replay/")
    invited = game_create(creator=alice, game="azul", players=3, invite=["carol@example.com"])
    token = Outbox.objects.get(game=invited, kind=NoticeKind.INVITATION).payload["token"]
    read("invitation (visitor)", visitor, f"/invite/{token}/")
    read("invitation", signed_in(carol), f"/invite/{token}/")
    read("open game", signed_in(carol), f"/games/{invited.pk}/")
    read("lobby", signed_in(alice), "/lobby/")
    read("new game", signed_in(alice), "/games/new/")
    read("account", signed_in(alice), "/account/")
    read("profile", signed_in(alice), f"/players/{alice.pk}/")
    read("profile (visitor)", visitor, f"/players/{bob.pk}/")
    read("leaderboard", visitor, "/leaderboard/azul/")
    read("archive", visitor, "/archive/?game=azul")
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == len(GAMES)
    return pages


@pytest.mark.django_db
@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_no_english_is_left_on_any_page(language):
    """Needs the translated catalogs (``locale/<language>/LC_MESSAGES/django.mo``)."""
    patterns = english_left(language)
    assert patterns, "no English sentence in the catalogs"
    left = {}
    for name, html in every_page(language).items():
        text = visible_text(html)
        found = [msgid for msgid, pattern in patterns if pattern.search(text)]
        if found:
            left[name] = found
    assert not left, f"English left in {language}: {left}"


def test_the_visible_text_keeps_what_readers_see_and_drops_the_rest():
    html = (
        '<html><head><title>Tab</title><style>p{}</style></head><body><p title="Tip here">'
        'Waiting for <strong>Bob</strong>.</p><script>var x = "Hidden text";</script>'
        '<svg aria-label="Board of player 1"><title>pattern line 1</title></svg>'
        '<script type="application/json" id="j">[{"steps": [["a", "take 2 blue tiles"]]}]'
        "</script></body></html>"
    )
    text = visible_text(html)
    assert "Waiting for Bob." in text and "Tip here" in text and "Tab" in text
    assert "Board of player 1" in text and "pattern line 1" in text
    assert "take 2 blue tiles" in text and "Hidden text" not in text and "p{}" not in text
    assert english_pattern("Waiting for <strong>%(name)s</strong>.").search(text)
    assert english_pattern("%(count)s %(colour)s tiles") is None


# --- (c) the game page in every language, desktop and phone ---------------------------------

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_game_page_fits_in_every_language(browser, live_server, screenshots):
    """Longer words (Polish, Portuguese) must not push the page sideways nor spill out of
    buttons: screenshots under ``var/screenshots/i18n/``."""
    folder = screenshots / "i18n"
    folder.mkdir(parents=True, exist_ok=True)
    alice, bob = make_user("alice"), make_user("bob")
    games = {}
    for slug in GAMES:
        game = started_game(alice, bob, slug)
        play_moves(game, (alice, bob), 3)
        games[slug] = (game, player_to_move(game, alice, bob))
    problems = []
    for code, _name in settings.LANGUAGES:
        for slug, (game, mover) in games.items():
            prefer(mover, code)
            for size, viewport in SIZES.items():
                context = browser.new_context(viewport=viewport)
                client = Client()
                client.force_login(mover)
                cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
                context.add_cookies(
                    [
                        {
                            "name": settings.SESSION_COOKIE_NAME,
                            "value": cookie,
                            "url": live_server.url,
                        }
                    ]
                )
                page = context.new_page()
                page.goto(f"{live_server.url}/games/{game.pk}/")
                assert page.locator("html").get_attribute("lang") == code
                page.locator("#by-list summary").click()
                name = f"{slug}-{code}-{size}"
                page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
                if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"):
                    problems.append(f"{name}: sideways scroll")
                spilled = page.evaluate(
                    """() => [...document.querySelectorAll(
                            'button, .button, summary, select, .tag, .fact, label')]
                        .filter(e => e.offsetParent !== null && !e.closest('.visually-hidden'))
                        .filter(e => e.scrollWidth > e.clientWidth + 1)
                        .map(e => e.textContent.trim().slice(0, 40))"""
                )
                if spilled:
                    problems.append(f"{name}: text spills out of {spilled}")
                context.close()
    assert not problems, problems
