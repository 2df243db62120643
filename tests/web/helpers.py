"""Shared steps of the web tests: a started game between alice and bob."""

from django.test import Client

from games import repository
from games.selectors.access import seat_of
from games.selectors.moves import legal_moves_of
from games.services.moves import move_submit
from games.services.tables import game_create, game_join


def started_game(alice, bob, game: str = "summer-pavilion", **options):
    """A two-player game, created by alice and joined by bob (so it has started); bob is
    invited to a private one."""
    if options.get("private"):
        options.setdefault("invite", [bob.email])
    created = game_create(creator=alice, game=game, players=2, **options)
    game_join(game=created, user=bob)
    created.refresh_from_db()
    return created


def player_to_move(game, *users):
    """The user whose turn it is."""
    game.refresh_from_db()
    return next(user for user in users if seat_of(game, user).position == game.to_move)


def play_moves(game, users, count: int) -> None:
    """``count`` moves played through the service: each time the first legal move."""
    for _ in range(count):
        user = player_to_move(game, *users)
        table = repository.game_table(game)
        move_submit(game=game, user=user, move=legal_moves_of(table)[0]["move"])


def signed_in_page(windows, live_server, user, viewport: dict, **options):
    """A page in a new browser window of ``viewport`` (and ``options``), signed in as
    ``user``."""
    client = Client()
    client.force_login(user)
    context = windows(viewport=viewport, **options)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context.new_page()


def looked_at(page, url: str, shot: str, viewport: dict, shoot) -> None:
    """Open ``url``: it answers 200, its screenshot is saved as ``shot``, and it does not
    scroll sideways at the ``viewport``'s width."""
    response = page.goto(url)
    assert response.status == 200, url
    shoot(page, shot)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= viewport["width"], f"{url} scrolls sideways at {viewport['width']} px"


def choose_its_colour(page) -> None:
    """After a source is tapped on an Azul board: its first colour, when the page asks. A
    factory of one colour is not asked about (its four tiles are taken at once), which the
    first factory is in about one deal of 125."""
    colours = page.locator('#choices button.choice[data-choice^="col:"]')
    if colours.count():
        colours.first.click()
