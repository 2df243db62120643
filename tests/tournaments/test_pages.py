"""The tournaments' pages: the list in its three tabs, a tournament's page (settings,
standings with tie-breaks, rounds linked to their games, the viewer's game), join,
withdraw and start by POST, refusals said on the page, the link in the site's menu."""

import re

import pytest
from django.test import Client

from games.models import Game, PlayerSettings, Rating, Tournament, TournamentSnapshot
from games.selectors.tournaments import tournament_view
from games.services.tournaments.entry import tournament_create, tournament_withdraw
from games.services.tournaments.stream import tournament_reproject
from games.tournaments import storage
from tests.tournaments.test_services import (
    cups_opened,
    finish_round,
    opened,
    organiser_starts,
    players,
    rounds_begun,
)

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_list_shows_open_running_and_finished_tournaments_and_the_menu_links_it():
    alice, bob = players(2)
    tournament = opened([alice, bob], format="swiss", per_game=2, rounds=1)
    page = signed_in(alice).get("/tournaments/")
    assert page.status_code == 200
    assert 'id="tournaments-link"' in page.content.decode()
    assert "Autumn cup" in page.content.decode()
    assert "Autumn cup" not in Client().get("/tournaments/?status=running").content.decode()
    organiser_starts(tournament, alice)
    assert "Autumn cup" in Client().get("/tournaments/?status=running").content.decode()
    finish_round(tournament)
    assert "Autumn cup" in Client().get("/tournaments/?status=finished").content.decode()


def test_a_player_joins_sees_their_game_highlighted_and_the_standings():
    alice, bob, carol, dan = players(4)
    tournament = opened([alice, bob, carol], format="swiss", per_game=2, rounds=2)
    path = f"/tournaments/{tournament.pk}/"
    page = signed_in(dan).get(path).content.decode()
    assert f'action="/tournaments/{tournament.pk}/join/"' in page
    assert signed_in(dan).post(path + "join/").status_code == 302
    assert signed_in(alice).post(path + "start/").status_code == 302
    rounds_begun()
    page = signed_in(bob).get(path).content.decode()
    assert 'id="my-game"' in page
    assert "Buchholz" in page and "Sonneborn–Berger" in page
    assert "Round 1" in page and "/games/" in page
    finish_round(tournament)
    page = Client().get(path).content.decode()
    assert "Round 2" in page and "places 1, 2" in page


def test_the_players_show_their_rating_at_entry_beside_their_rating_now():
    alice, bob = players(2)
    tournament = opened([alice, bob], format="swiss", per_game=2, rounds=1)
    Rating.objects.filter(user=bob).update(display=2069)
    PlayerSettings.objects.create(user=alice, profile_hidden=True)
    page = signed_in(bob).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Rating at entry" in page and "Rating now" in page
    cells = re.findall(r'<td class="number">(.*?)</td>', page.split("Rating at entry")[1])
    assert cells == ["2000", "2000", "1990", "2069"]
    # A hidden profile's rating now is not told to visitors.
    visitor = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    cells = re.findall(r'<td class="number">(.*?)</td>', visitor.split("Rating at entry")[1])
    assert cells == ["2000", "—", "1990", "2069"]


def test_a_refusal_is_said_on_the_tournament_page():
    alice, bob = players(2)
    tournament = opened([alice], format="swiss", per_game=2, rounds=1)
    client = signed_in(bob)
    answer = client.post(f"/tournaments/{tournament.pk}/start/", follow=True)
    assert (
        "Only the tournament&#x27;s organiser or a moderator can do this."
        in answer.content.decode()
    )
    client.post(f"/tournaments/{tournament.pk}/join/")
    client.post(f"/tournaments/{tournament.pk}/withdraw/")
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "withdrawn" in page


def test_an_unknown_tournament_is_a_404_page():
    assert Client().get("/tournaments/999999/").status_code == 404


def test_a_tournament_is_opened_from_the_form():
    (alice,) = players(1)
    client = signed_in(alice)
    assert client.get("/tournaments/new/").status_code == 200
    answer = client.post(
        "/tournaments/new/",
        {
            "name": "Club night",
            "format": "swiss",
            "rounds": 3,
            "game": "summer-pavilion",
            "opt_summer_pavilion_board": "grey",
            "players": 3,
            "time_control": "per_move",
            "days": 2,
            "max_players": 12,
            "round_days": 10,
            "rated": "on",
            "public": "on",
        },
    )
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert "Club night" in page and "3 players per game" in page and "2 days per move" in page
    assert "each round ends after 10 days" in page
    # Unticked, the organiser only organises.
    assert "Nobody has joined yet." in page and 'id="join-call"' in page
    refused = client.post(
        "/tournaments/new/",
        {
            "name": "Cup",
            "format": "knockout",
            "game": "azul",
            "players": 3,
            "time_control": "none",
            "max_players": 8,
        },
    )
    assert refused.status_code == 400
    assert "A knockout is played two players per game" in refused.content.decode()


def test_the_organiser_plays_in_their_tournament_unless_they_untick_it():
    (alice,) = players(1)
    client = signed_in(alice)
    form = client.get("/tournaments/new/").content.decode()
    assert re.search(r'<input type="checkbox" name="organiser_plays"[^>]* checked', form)
    assert "Play in it myself" in form
    settings = {"format": "swiss", "rounds": 3, "game": "azul", "players": 2}
    settings |= {"time_control": "none", "max_players": 8, "public": "on"}
    answer = client.post("/tournaments/new/", {**settings, "name": "Mine", "organiser_plays": "on"})
    page = client.get(answer["Location"]).content.decode()
    assert 'id="join-call"' not in page and "Withdraw" in page
    assert tournament_view(Tournament.objects.get(name="Mine"))["players"][0]["id"] == (alice.pk)


def test_an_open_tournament_calls_a_signed_in_newcomer_to_join_at_the_top():
    alice, bob = players(2)
    tournament = opened([alice], format="swiss", per_game=2, rounds=1)
    path = f"/tournaments/{tournament.pk}/"
    page = signed_in(bob).get(path).content.decode()
    call = page.split('id="join-call"')[1].split("</div>")[0]
    assert "Registration is open: join to play in this tournament." in call
    assert f'action="{path}join/"' in call
    assert page.index('id="join-call"') < page.index("<h2>Settings</h2>")
    assert "Sign in to join" in Client().get(path).content.decode()
    assert 'id="join-call"' not in signed_in(alice).get(path).content.decode()


def test_the_list_opens_on_the_running_tournaments_the_viewer_plays_in():
    alice, bob, carol, dan = players(4)
    running = opened([alice, bob, carol], format="swiss", per_game=2, rounds=2)
    organiser_starts(running, alice)
    tournament_create(
        organiser=dan, name="Winter cup", format="swiss", game="azul", per_game=2, rounds=1
    )
    mine = signed_in(carol).get("/tournaments/").content.decode()
    assert "Autumn cup" in mine and "Winter cup" not in mine
    assert 'aria-current="page">Running</a>' in mine and "you play in it" in mine
    # Carol, the bye of the first round, has no game yet and plays in it all the same.
    assert not Game.objects.filter(tournament_table__tournament=running, seats__user=carol)
    others = signed_in(dan).get("/tournaments/").content.decode()
    assert "Winter cup" in others and "Autumn cup" not in others
    assert "you play in it" not in others
    tournament_withdraw(tournament=running, user=carol)
    assert "Winter cup" in signed_in(carol).get("/tournaments/").content.decode()


def test_a_player_knocked_out_reads_on_the_page_that_they_are_out_and_their_places():
    people = players(8)
    tournament = opened(people, format="knockout", per_game=2)
    organiser_starts(tournament, people[0])
    finish_round(tournament)
    path = f"/tournaments/{tournament.pk}/"
    out = signed_in(people[7]).get(path).content.decode()
    assert (
        "You are out of this tournament: you lost your game in round 1 and finish 5–8 of 8." in out
    )
    assert out.count("(out in round 1)") == 4
    still_in = signed_in(people[0]).get(path).content.decode()
    assert 'id="knocked-out"' not in still_in and 'id="my-game"' in still_in


def test_the_organiser_removes_a_player_from_the_page_and_others_cannot():
    alice, bob, carol = players(3)
    tournament = opened([alice, bob], format="swiss", per_game=2, rounds=1)
    path = f"/tournaments/{tournament.pk}/"
    assert "Remove Player2 from the tournament" in signed_in(alice).get(path).content.decode()
    assert "Remove Player1" not in signed_in(carol).get(path).content.decode()
    refused = signed_in(carol).post(path + "remove/", {"player": bob.pk}, follow=True)
    assert "organiser or a moderator" in refused.content.decode()
    signed_in(alice).post(path + "remove/", {"player": bob.pk})
    page = signed_in(alice).get(path).content.decode()
    assert "Remove Player2" not in page and "withdrawn" in page
    for wrong in ("x", "9" * 30):
        missing = signed_in(alice).post(path + "remove/", {"player": wrong}, follow=True)
        assert "There is no such player." in missing.content.decode()


def test_the_page_shows_the_same_standings_folded_from_a_snapshot(monkeypatch):
    monkeypatch.setattr(storage, "SNAPSHOT_EVERY", 5)
    people = players(6)
    tournament = opened(people, format="swiss", per_game=2, rounds=3)
    organiser_starts(tournament, people[0])
    finish_round(tournament)
    finish_round(tournament)
    tournament.refresh_from_db()
    snapshots = TournamentSnapshot.objects.filter(tournament=tournament)
    assert snapshots.count() >= 2
    path = f"/tournaments/{tournament.pk}/"
    from_snapshot = signed_in(people[1]).get(path).content.decode()
    assert "places 1, 2" in from_snapshot
    # Folded by other code: never read, the page folds the whole stream.
    snapshots.update(code="other code")
    assert _without_tokens(signed_in(people[1]).get(path).content.decode()) == _without_tokens(
        from_snapshot
    )
    assert not tournament_reproject(tournament=tournament)
    rewritten = TournamentSnapshot.objects.get(tournament=tournament)
    assert (rewritten.seq, rewritten.code) == (tournament.last_seq, storage.code_version())


def _without_tokens(page: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)


def test_the_list_shows_twenty_tournaments_a_page_and_links_the_older_ones():
    cups_opened(players(3), 21)
    first = Client().get("/tournaments/?status=open").content.decode()
    assert "Cup 20" in first and "Cup 1<" in first and "Cup 0<" not in first
    assert 'href="?status=open&amp;page=2"' in first
    second = Client().get("/tournaments/?status=open&page=2").content.decode()
    assert "Cup 0<" in second and "Cup 1<" not in second
    assert 'href="?status=open&amp;page=1"' in second and "page=3" not in second
    past = Client().get("/tournaments/?status=open&page=9")
    assert past.status_code == 302 and past.url == "/tournaments/?status=open"


@pytest.mark.parametrize(
    "path", ["/tournaments/?status=open", "/leaderboard/azul/?", "/archive/?game=azul&"]
)
@pytest.mark.parametrize("page", ["99999999999999999999999", "-4", "two"])
def test_a_page_number_out_of_any_range_is_never_an_error(path, page):
    separator = "" if path.endswith(("?", "&")) else "&"
    response = Client().get(f"{path}{separator}page={page}", follow=True)
    assert response.status_code == 200
