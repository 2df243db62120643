"""Who may do what, endpoint by endpoint: anonymous, a signed-in non-player, the seat that
just moved, the seat to move, and a moderator. Each cell is a fresh game of Azul between Alice
(who created it) and Bob, after the first player's first move."""

import pytest
from django.contrib.auth.models import AnonymousUser
from rest_framework.throttling import SimpleRateThrottle

from games import repository
from games.models import Game
from games.selectors.access import can_read_chat
from games.services.moves import game_resign, takeback_request
from games.services.tables import INVITATIONS_PER_DAY, game_create
from tests.conftest import make_user
from tests.games.api_helpers import (
    client_for,
    moderator_user,
    mover,
    staff_user,
    url,
)
from tests.games.helpers import legal, play, started

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "non-player", "other seat", "to move", "moderator")
# A cell that depends on whether the caller created the game: (creator, anyone else).
CREATOR_OR_NOT = "creator-or-not"


def opening_point(game):
    return repository.game_table(game).boundaries()[0]


def legal_move_body(game):
    return {"move": legal(game)[0], "expected_seq": game.last_seq}


def request_takeback(game, roles):
    return takeback_request(game=game, user=roles["other seat"], to_seq=opening_point(game))


# (name, method, path, body, statuses for ROLES); a path or body may need the game.
MATRIX = [
    ("list", "get", "/api/games/", None, (401, 200, 200, 200, 200)),
    ("create", "post", "/api/games/", {"game": "azul", "players": 2}, (401, 201, 201, 201, 201)),
    # A public game in play is watched by anyone (issue 29).
    ("detail", "get", "", None, (200, 200, 200, 200, 200)),
    ("state", "get", "state", None, (200, 200, 200, 200, 200)),
    ("events", "get", "events", None, (200, 200, 200, 200, 200)),
    ("legal-moves", "get", "legal-moves", None, (200, 200, 200, 200, 200)),
    ("export", "get", "export", None, (200, 200, 200, 200, 200)),
    ("join", "post", "join", None, (401, 409, 409, 409, 409)),
    ("leave", "post", "leave", None, (401, 409, 409, 409, 409)),
    ("cancel", "post", "cancel", None, (401, 403, CREATOR_OR_NOT, CREATOR_OR_NOT, 403)),
    ("moves", "post", "moves", legal_move_body, (401, 403, 403, 201, 403)),
    ("undo", "post", "undo", None, (401, 403, 200, 409, 403)),
    ("grant-day", "post", "grant-day", None, (401, 403, 409, 409, 403)),
    ("takebacks", "post", "takebacks", "to opening", (401, 403, 201, 201, 403)),
    ("answer", "post", "takebacks/{request}/answer", {"accept": True}, (401, 403, 403, 200, 403)),
    ("resign", "post", "resign", None, (401, 403, 200, 200, 403)),
    (
        "token",
        "post",
        "/api/token/",
        {"email": "carol@example.com", "password": "pw-carol"},
        (200,) * 5,
    ),  # noqa: E501
    ("schema", "get", "/api/schema/", None, (200,) * 5),
    ("docs", "get", "/api/docs/", None, (200,) * 5),
]


@pytest.mark.parametrize(
    ("path", "method", "body", "role", "expected"),
    [
        pytest.param(path, method, body, role, statuses[index], id=f"{name}-{role}")
        for name, method, path, body, statuses in MATRIX
        for index, role in enumerate(ROLES)
    ],
)
def test_authorization_matrix(alice, bob, carol, path, method, body, role, expected):
    game = started("azul", alice, bob)
    play(game)
    game.refresh_from_db()
    to_move = mover(game)
    roles = {
        "anonymous": None,
        "non-player": carol,
        "other seat": alice if to_move == bob else bob,
        "to move": to_move,
        "moderator": moderator_user(),
    }
    if "{request}" in path:
        path = path.format(request=request_takeback(game, roles))
    if not path.startswith("/"):
        path = url(game, path) if path else url(game)
    if callable(body):
        body = body(game)
    elif body == "to opening":
        body = {"to_seq": opening_point(game)}
    user = roles[role]
    if expected == CREATOR_OR_NOT:
        expected = 409 if user == alice else 403
    response = getattr(client_for(user), method)(path, body, format="json")
    assert response.status_code == expected, response.content[:300]
    if path.startswith("/api/games/") and response.status_code >= 400:
        assert set(response.json()) >= {"code", "message"}


def test_the_legal_moves_are_listed_to_the_player_to_move_alone(alice, bob, carol):
    game = started("azul", alice, bob)
    to_move = mover(game)
    for user in (alice, bob, moderator_user()):
        moves = client_for(user).get(url(game, "legal-moves")).json()["moves"]
        assert bool(moves) is (user == to_move)


def in_play(alice, bob, **options):
    return started("azul", alice, bob, **options)


def finished(alice, bob, **options):
    """Bob resigns once both have moved (before, the game would be aborted)."""
    game = started("azul", alice, bob, **options)
    play(game)
    play(game)
    game_resign(game=game, user=bob)
    game.refresh_from_db()
    return game


def waiting(alice, **options):
    return game_create(creator=alice, game="azul", players=2, **options)


# Who sees a game's detail, state, events, legal moves and record, by the game's status:
# (anonymous, non-player, player, moderator).
VISIBILITY = [
    ("finished and public", finished, {}, (200, 200, 200, 200)),
    ("finished and private", finished, {"private": True}, (404, 404, 200, 200)),
    ("in play and public", in_play, {}, (200, 200, 200, 200)),
    ("in play and private", in_play, {"private": True}, (404, 404, 200, 200)),
    ("waiting for players", waiting, {}, (401, 200, 200, 200)),
]


@pytest.mark.parametrize(
    ("make", "options", "statuses"),
    [
        pytest.param(make, options, statuses, id=name)
        for name, make, options, statuses in VISIBILITY
    ],
)
@pytest.mark.parametrize("action", ["", "state", "events", "legal-moves", "export"])
def test_who_sees_a_game_depends_on_its_status(alice, bob, make, options, statuses, action):
    game = make(alice, **options) if make is waiting else make(alice, bob, **options)
    viewers = (None, make_user("dave"), alice, moderator_user())
    for viewer, expected in zip(viewers, statuses, strict=True):
        response = client_for(viewer).get(url(game, action) if action else url(game))
        assert response.status_code == expected, (viewer, response.content[:200])
    staff = client_for(staff_user()).get(url(game, action) if action else url(game))
    outsider = client_for(make_user("erin")).get(url(game, action) if action else url(game))
    assert staff.status_code == outsider.status_code, "staff who do not moderate see as anyone"


# Who reads a game's chat (docs/service.md, "Who reads the chat"): its players (a resigned
# one too) and the moderators, whatever the game's status; not staff, not visitors.
CHAT_GAMES = [
    ("in play", lambda alice, bob: started("azul", alice, bob)),
    ("finished and public", finished),
    ("finished and private", lambda alice, bob: finished(alice, bob, private=True)),
]


@pytest.mark.parametrize("make", [pytest.param(make, id=name) for name, make in CHAT_GAMES])
def test_a_games_chat_is_for_its_players_and_moderators(alice, bob, make):
    game = make(alice, bob)
    readers = {
        "anonymous": AnonymousUser(),
        "non-player": make_user("dave"),
        "player": alice,
        "staff": staff_user(),
        "moderator": moderator_user(),
    }
    if game.status == Game.Status.FINISHED:
        readers["resigned player"] = bob
    allowed = {name for name, user in readers.items() if can_read_chat(game, user)}
    players = {"player", "resigned player"} & set(readers)
    assert allowed == players | {"moderator"}


# Rate limits at the API, per client (rates lowered for the test, so that it stays fast):
# (name, scope, signed in, request maker, tries allowed before 429).
API_THROTTLES = [
    ("anonymous reads", "anon", None, lambda n: ("get", "/api/games/999999/", None)),
    ("signed-in requests", "user", "carol", lambda n: ("get", "/api/games/", None)),
    (
        "token per client address",
        "token",
        None,
        lambda n: ("post", "/api/token/", {"email": f"u{n}@example.com", "password": "x"}),
    ),
    (
        "token per account",
        "token-account",
        None,
        lambda n: ("post", "/api/token/", {"email": "carol@example.com", "password": f"{n}"}),
    ),
]


@pytest.mark.parametrize(
    ("scope", "who", "call"),
    [pytest.param(scope, who, call, id=name) for name, scope, who, call in API_THROTTLES],
)
def test_the_api_answers_429_with_retry_after_past_its_rates(carol, monkeypatch, scope, who, call):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, "3/min")
    client = client_for(carol if who else None)
    statuses = []
    for number in range(4):
        method, path, body = call(number)
        response = getattr(client, method)(path, body, format="json")
        statuses.append(response.status_code)
    assert 429 not in statuses[:3] and statuses[3] == 429
    assert response.json()["code"] == "throttled"
    assert 0 < int(response["Retry-After"]) <= 60


def test_the_token_is_refused_past_the_account_rate_even_with_the_right_password(carol):
    client = client_for(None)
    for number in range(10):
        wrong = {"email": "carol@example.com", "password": f"guess{number}"}
        assert client.post("/api/token/", wrong, format="json").status_code == 400
    right = {"email": "carol@example.com", "password": "pw-carol"}
    response = client.post("/api/token/", right, format="json")
    assert response.status_code == 429
    assert "Retry-After" in response


def test_invitations_are_limited_per_account_with_a_clear_429(alice):
    client = client_for(alice)
    body = {"game": "azul", "players": 4}
    for number in range(INVITATIONS_PER_DAY // 3):
        invite = [f"friend{number}-{seat}@example.com" for seat in range(3)]
        created = client.post("/api/games/", {**body, "invite": invite}, format="json")
        assert created.status_code == 201
    refused = client.post("/api/games/", {**body, "invite": ["one@example.com"]}, format="json")
    assert refused.status_code == 429
    assert refused.json()["code"] == "invitations_throttled"
    assert 0 < int(refused["Retry-After"]) <= 86400
    assert client.post("/api/games/", body, format="json").status_code == 201
