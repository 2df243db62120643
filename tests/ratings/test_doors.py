"""The profile, leaderboard and archive pages and their API: filters, pagination, privacy,
export, and never an email address."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, GameResult, Rating
from games.ratings.selectors import ArchiveQuery, archive_search
from games.services.ratings import PROVISIONAL_GAMES, profile_visibility_set
from tests.games.api_helpers import client_for
from tests.ratings.helpers import finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(alice, bob, carol):
    """Alice beats bob twice at Azul (grey wall once), carol beats both at Summer Pavilion,
    bob beats alice in an unrated game."""
    return {
        "azul": finished("azul", alice, bob),
        "azul_grey": finished("azul", alice, bob, options={"wall": "grey"}),
        "sp3": finished("summer-pavilion", carol, alice, bob),
        "unrated": finished("azul", bob, alice, rated=False),
    }


def ids(results) -> set[int]:
    return {result.game_id for result in results}


def test_the_archive_filters(games, alice, bob, carol):
    everything = ids(archive_search(ArchiveQuery(), alice))
    assert everything == {game.pk for game in games.values()}
    assert ids(archive_search(ArchiveQuery(game="summer-pavilion"), None)) == {games["sp3"].pk}
    assert ids(archive_search(ArchiveQuery(side="grey"), None)) == {games["azul_grey"].pk}
    assert ids(archive_search(ArchiveQuery(players=3), None)) == {games["sp3"].pk}
    assert ids(archive_search(ArchiveQuery(player=carol.pk), None)) == {games["sp3"].pk}
    assert ids(archive_search(ArchiveQuery(player_name="Carol"), None)) == {games["sp3"].pk}
    won = ArchiveQuery(player=bob.pk, result="won")
    assert ids(archive_search(won, None)) == {games["unrated"].pk}
    lost = ArchiveQuery(player=alice.pk, result="lost")
    assert ids(archive_search(lost, None)) == {games["sp3"].pk, games["unrated"].pk}
    assert ids(archive_search(ArchiveQuery(rated=False), None)) == {games["unrated"].pk}
    today = timezone.localdate()
    assert len(archive_search(ArchiveQuery(date_from=today, date_to=today), None)) == 4
    assert not archive_search(ArchiveQuery(date_to=today - timedelta(days=1)), None)


def test_private_games_are_in_the_archive_of_their_players_only(alice, bob, carol):
    game = finished("azul", alice, bob, private=True)
    assert GameResult.objects.get(game=game).private
    assert ids(archive_search(ArchiveQuery(), alice)) == {game.pk}
    assert not archive_search(ArchiveQuery(), carol)
    assert not archive_search(ArchiveQuery(), None)


def test_the_archive_page_and_api_search_and_refuse_bad_input(client, games, bob):
    page = client.get("/archive/", {"game": "azul", "player": "Bob", "result": "won"})
    assert page.status_code == 200
    assert f"#{games['unrated'].pk}" in page.content.decode()
    assert f"#{games['azul'].pk}<" not in page.content.decode()
    refused = client.get("/archive/", {"result": "won"})
    assert refused.status_code == 400
    assert "Name a player (or sign in)" in refused.content.decode()
    bad = client.get("/archive/", {"date_from": "2026-02-01", "date_to": "2026-01-01"})
    assert bad.status_code == 400
    api = client_for(None).get("/api/archive/", {"game": "azul", "limit": 1})
    assert api.status_code == 200
    assert api.json()["count"] == 3 and len(api.json()["results"]) == 1
    seats = api.json()["results"][0]["seats"]
    assert {"place", "score", "won", "timed_out", "player"} <= set(seats[0])
    wrong = client_for(None).get("/api/archive/", {"players": 7})
    assert wrong.status_code == 400 and wrong.json()["field"] == "players"
    mine = client_for(bob).get("/api/archive/", {"result": "won"})
    assert [r["id"] for r in mine.json()["results"]] == [games["unrated"].pk]


def test_the_profile_shows_ratings_stats_games_and_head_to_head(client, games, alice, bob):
    page = client.get(f"/players/{alice.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    rating = Rating.objects.get(user=alice, game_type="azul")
    assert f"{rating.display} ± " in html
    assert "<svg" in html and "<polyline" in html
    assert "provisional until" in html
    assert "Head to head" in html and "Bob" in html
    assert f"/games/{games['azul'].pk}/replay/" in html
    assert "@example.com" not in html
    api = client_for(None).get(f"/api/players/{alice.pk}/").json()
    assert api["name"] == "Alice"
    azul = next(row for row in api["stats"] if row["game"] == "azul")
    assert azul == {"game": "azul", "played": 3, "won": 2, "average_score": azul["average_score"]}
    versus = {row["player"]: row for row in api["head_to_head"]}
    # Bob resigned after alice at Summer Pavilion, so he finished ahead of her there.
    assert (versus["Bob"]["games"], versus["Bob"]["ahead"], versus["Bob"]["behind"]) == (4, 2, 2)
    assert "@" not in json.dumps(api)
    history = client_for(None).get(f"/api/players/{alice.pk}/ratings/azul/").json()
    assert history["count"] == 2
    assert history["results"][-1]["rating"] == rating.display


def test_a_hidden_profile_is_for_signed_in_players_only(client, games, alice, carol):
    client.force_login(alice)
    client.post("/players/me/privacy/", {"hidden": "on"})
    client.logout()
    assert client.get(f"/players/{alice.pk}/").status_code == 403
    assert client_for(None).get(f"/api/players/{alice.pk}/").status_code == 401
    client.force_login(carol)
    assert client.get(f"/players/{alice.pk}/").status_code == 200
    assert client.get("/players/me/").url == f"/players/{carol.pk}/"


def test_the_leaderboard_lists_active_established_players(client, alice, bob, carol):
    for _ in range(PROVISIONAL_GAMES):
        finished("azul", alice, bob)
    finished("azul", carol, alice)
    Rating.objects.filter(user=bob).update(last_played_at=timezone.now() - timedelta(days=400))
    profile_visibility_set(user=alice, hidden=True)
    rows = client_for(None).get("/api/leaderboard/azul/").json()
    assert rows["count"] == 1
    assert rows["results"][0]["player"] is None  # hidden from visitors
    client.force_login(carol)
    page = client.get("/leaderboard/azul/").content.decode()
    # The board itself, not the header (which names the signed-in player, Carol).
    board = page.split("<main>", 1)[1]
    assert "Alice" in board and "Bob" not in page and "Carol</a>" not in board
    assert client.get("/leaderboard/chess/").status_code == 404
    assert client_for(None).get("/api/leaderboard/chess/").status_code == 404


def test_export_of_all_your_games_is_each_game_export_in_turn(client, games, carol):
    client.force_login(carol)
    response = client.get("/archive/export/")
    lines = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    headers = [line for line in lines if line.get("format") == "azulsite-game-record"]
    assert [header["id"] for header in headers] == [games["sp3"].pk]
    api = client_for(carol).get("/api/archive/export/")
    assert (
        b"".join(api.streaming_content).splitlines()[0]
        == json.dumps(headers[0], separators=(",", ":")).encode()
    )
    assert client_for(None).get("/api/archive/export/").status_code == 401


def test_rated_is_chosen_when_creating_a_game(client, alice):
    created = client_for(alice).post(
        "/api/games/", {"game": "azul", "players": 2, "rated": False}, format="json"
    )
    assert created.status_code == 201 and created.json()["rated"] is False
    client.force_login(alice)
    form = client.get("/games/new/").content.decode()
    assert 'name="rated"' in form
    # An unticked box is an unrated game.
    client.post("/games/new/", {"game": "azul", "players": 2, "time_control": "none"})
    assert list(Game.objects.order_by("pk").values_list("rated", flat=True)) == [False, False]


def test_the_leaderboard_pages_on_without_counting_and_a_page_past_its_end_opens_the_first(
    client, alice, bob, monkeypatch
):
    from games.ratings import views

    monkeypatch.setattr(views, "LEADERBOARD_PAGE", 1)
    for _ in range(PROVISIONAL_GAMES):
        finished("azul", alice, bob)
    first = client.get("/leaderboard/azul/").content.decode()
    assert "page=2" in first and "page 1" in first
    second = client.get("/leaderboard/azul/?page=2").content.decode()
    assert "page=1" in second and "page=3" not in second
    assert client.get("/leaderboard/azul/?page=9").url == "/leaderboard/azul/"
    assert client.get("/leaderboard/azul/?page=nine").status_code == 200
