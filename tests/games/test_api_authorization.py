"""Who may do what, endpoint by endpoint: anonymous, a signed-in non-player, the seat that
just moved, the seat to move, and staff. Each cell is a fresh game of Azul between Alice
(who created it) and Bob, after the first player's first move."""

import pytest

from games import selectors, services
from tests.conftest import make_user
from tests.games.api_helpers import (
    client_for,
    mover,
    staff_user,
    url,
)
from tests.games.helpers import legal, play, started

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "non-player", "other seat", "to move", "staff")
# A cell that depends on whether the caller created the game: (creator, anyone else).
CREATOR_OR_NOT = "creator-or-not"


def opening_point(game):
    return selectors.game_table(game).boundaries()[0]


def legal_move_body(game):
    return {"move": legal(game)[0], "expected_seq": game.last_seq}


def request_takeback(game, roles):
    return services.takeback_request(
        game=game, user=roles["other seat"], to_seq=opening_point(game)
    )


# (name, method, path, body, statuses for ROLES); a path or body may need the game.
MATRIX = [
    ("list", "get", "/api/games/", None, (401, 200, 200, 200, 200)),
    ("create", "post", "/api/games/", {"game": "azul", "players": 2}, (401, 201, 201, 201, 201)),
    ("detail", "get", "", None, (401, 403, 200, 200, 200)),
    ("state", "get", "state", None, (401, 403, 200, 200, 200)),
    ("events", "get", "events", None, (401, 403, 200, 200, 200)),
    ("legal-moves", "get", "legal-moves", None, (401, 403, 200, 200, 200)),
    ("export", "get", "export", None, (401, 403, 200, 200, 200)),
    ("join", "post", "join", None, (401, 409, 409, 409, 409)),
    ("leave", "post", "leave", None, (401, 403, 409, 409, 409)),
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
        "staff": staff_user(),
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
    for user in (alice, bob, staff_user()):
        moves = client_for(user).get(url(game, "legal-moves")).json()["moves"]
        assert bool(moves) is (user == to_move)


def finished(alice, bob, **options):
    game = started("azul", alice, bob, **options)
    services.game_resign(game=game, user=bob)
    game.refresh_from_db()
    return game


def waiting(alice, **options):
    return services.game_create(creator=alice, game="azul", players=2, **options)


# Who sees a game's detail, state, events, legal moves and record, by the game's status:
# (anonymous, non-player, player, staff).
VISIBILITY = [
    ("finished and public", finished, {}, (200, 200, 200, 200)),
    ("finished and private", finished, {"private": True}, (401, 403, 200, 200)),
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
    game = make(alice, bob, **options) if make is finished else make(alice, **options)
    viewers = (None, make_user("dave"), alice, staff_user())
    for viewer, expected in zip(viewers, statuses, strict=True):
        response = client_for(viewer).get(url(game, action) if action else url(game))
        assert response.status_code == expected, (viewer, response.content[:200])
