"""Post-game analysis on the website and the API (issue 15): the end screen asks for it and
shows its progress, then each player's accuracy; the replay marks the moves the computer
judged worse and says what it preferred; the API gives the same."""

import re

import pytest

from games import tasks
from games.models import Analysis, Game
from games.selectors.analysis import analysis_report
from games.selectors.history import move_history
from tests.conftest import make_user
from tests.games.helpers import play_to_end, started

pytestmark = pytest.mark.django_db


def marked(game: Game) -> list:
    return list(Analysis.objects.get(game=game).moves.exclude(judgement=""))


def test_the_end_screen_shows_the_progress_then_the_accuracy(client, finished, alice):
    client.force_login(alice)
    page = client.get(f"/games/{finished.pk}/").content.decode()
    assert 'id="analysis-bar"' in page
    assert "The analysis is waiting for the computer." in page
    Analysis.objects.filter(game=finished).update(status="running", done=36, total=112)
    page = client.get(f"/games/{finished.pk}/").content.decode()
    assert "Analysing move 37 of 112" in page
    poll = client.get(f"/games/{finished.pk}/analysis/progress").json()
    assert (poll["status"], poll["done"], poll["total"]) == ("running", 36, 112)
    assert poll["text"] == "Analysing move 37 of 112"

    Analysis.objects.filter(game=finished).update(status="queued", done=0, total=0)
    tasks.analysis_run(finished.pk)

    page = client.get(f"/games/{finished.pk}/").content.decode()
    table = page[page.index('id="accuracy"') :]
    table = table[: table.index("</table>")]
    report = analysis_report(finished, ["Alice", "Bob"])
    for row in report["accuracy"]:
        assert f"{row['percent']}%" in table
    assert "Accuracy measures the chances of winning each move gave away" in page
    assert client.get(f"/games/{finished.pk}/analysis/progress").json()["status"] == "done"


def test_the_replay_marks_worse_moves_and_shows_the_suggestion(client, finished):
    tasks.analysis_run(finished.pk)
    worse = marked(finished)
    assert worse, "random moves against the hard bot's judgement"
    page = client.get(f"/games/{finished.pk}/replay/").content.decode()
    marks = re.findall(r'<span class="mark" title="[^"]*">(\?\??)</span>', page)
    assert marks == [move.judgement for move in worse]
    history = move_history(finished)
    first = worse[0]
    end = next(e["end"] for e in history if e["seq"] == first.seq)

    page = client.get(f"/games/{finished.pk}/replay/?at={end}").content.decode()

    card = page[
        page.index('id="suggestion"') : page.index("</section>", page.index('id="suggestion"'))
    ]
    assert f"({first.best})" in card
    assert f"{round(100 * first.best_value)}%" in card
    assert f'data-seat="{first.seat}"' in card
    spots = re.search(r'data-spots="([^"]+)"', card).group(1).split()
    assert spots and all(f'data-spot="{spot}"' in page for spot in spots[:1])
    assert 'id="show-suggestion"' in card


def test_anyone_who_can_see_a_finished_game_may_ask_for_its_analysis(
    client, alice, bob, django_capture_on_commit_callbacks, queued
):
    game = started("miyabi", alice, bob)
    play_to_end(game, seed=1)
    Analysis.objects.all().delete()
    queued.clear()
    carol = make_user("carol")
    client.force_login(carol)
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert 'id="analyse"' in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/games/{game.pk}/analysis/", {"back": "replay"})
    assert answer.status_code == 302 and answer.url == f"/games/{game.pk}/replay/"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/games/{game.pk}/analysis/")
    assert queued == [("games.tasks.analysis_run", [game.pk])], "asked twice, queued once"


def test_the_api_gives_the_analysis_and_asks_for_it(client, finished, alice, queued):
    url = f"/api/games/{finished.pk}/analysis/"
    Analysis.objects.all().delete()
    missing = client.get(url)
    assert missing.status_code == 404 and missing.json()["code"] == "no_analysis"
    assert client.post(url).status_code in (401, 403)
    client.force_login(alice)
    asked = client.post(url)
    assert asked.status_code == 202 and asked.json()["status"] == "queued"
    tasks.analysis_run(finished.pk)
    body = client.get(url).json()
    assert body["status"] == "done" and body["done"] == body["total"] == len(body["moves"])
    stored = Analysis.objects.get(game=finished).moves.first()
    assert body["moves"][0] == {
        "seq": stored.seq,
        "number": stored.number,
        "seat": stored.seat,
        "played": stored.played,
        "best": stored.best,
        "played_value": stored.played_value,
        "best_value": stored.best_value,
        "judgement": stored.judgement,
    }
    assert {row["name"] for row in body["accuracy"]} == {"Alice", "Bob"}


def test_a_game_in_play_is_not_analysed(client, alice, bob):
    game = started("azul", alice, bob)
    client.force_login(alice)
    assert client.post(f"/api/games/{game.pk}/analysis/").status_code == 409
    assert 'id="analysis"' not in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.parametrize("kind", ["summer-pavilion", "miyabi"])
def test_every_marked_move_of_every_game_says_its_suggestion(client, alice, bob, kind, queued):
    game = started(kind, alice, bob)
    play_to_end(game, seed=5)
    tasks.analysis_run(game.pk)
    ends = {e["seq"]: e["end"] for e in move_history(game) if e["kind"] == "move"}
    worse = marked(game)
    assert worse
    for move in worse[:: max(1, len(worse) // 6)]:
        page = client.get(f"/games/{game.pk}/replay/?at={ends[move.seq]}").content.decode()
        assert f"({move.best})" in page, f"move {move.number}: {move.played}"
        assert re.search(r'id="suggestion"[^>]*data-spots="[^"]+"', page)
