"""The game page's "Plan your answers" (conditional moves, issue 32) without a browser:
shown to the player who waits only, kept, refused on one's own turn with the reason, a
plan emptied or deleted, the card in the reader's language."""

from games.models import Plan
from games.services.moves import move_submit
from games.services.plans import plan_play
from tests.games.helpers import legal
from tests.games.test_services_plans import factory_move, legal_after, waiting
from tests.web.helpers import started_game


def test_only_the_player_who_waits_is_offered_to_plan(client, alice, bob):
    game = started_game(alice, bob, game="azul")
    planner, mover = waiting(game)
    client.force_login(mover)
    assert 'id="plan"' not in client.get(f"/games/{game.pk}/").text
    refused = client.post(
        f"/games/{game.pk}/plan/",
        {"lines": "", "next_move": "F1 blue 1", "expected_seq": game.last_seq},
        follow=True,
    )
    assert "It is your turn: play your move" in refused.text
    assert not Plan.objects.exists()
    client.force_login(planner)
    assert 'id="plan"' in client.get(f"/games/{game.pk}/").text


def test_a_plan_kept_emptied_and_deleted_on_the_page(client, alice, bob):
    game = started_game(alice, bob, game="azul")
    planner, _mover = waiting(game)
    theirs = factory_move(legal(game))
    mine = factory_move(legal_after(game, theirs), theirs)
    client.force_login(planner)
    page = f"/games/{game.pk}/"

    kept = client.post(
        page + "plan/",
        {"lines": f"{theirs}; {mine}", "next_move": "", "expected_seq": game.last_seq},
        follow=True,
    )
    assert "Your plan is kept" in kept.text and f"<code>{mine}</code>" in kept.text
    emptied = client.post(
        page + "plan/", {"lines": "", "next_move": "", "expected_seq": game.last_seq}, follow=True
    )
    assert "Your plan is deleted." in emptied.text and not Plan.objects.exists()
    client.post(page + "plan/", {"lines": f"{theirs}; {mine}", "expected_seq": game.last_seq})
    client.post(page + "plan/delete/")
    assert not Plan.objects.exists()


def test_the_planning_card_speaks_the_readers_language(client, alice, bob):
    game = started_game(alice, bob, game="azul")
    planner, _mover = waiting(game)
    client.force_login(planner)
    for language, title in (("es", "Planea tus respuestas"), ("pl", "Zaplanuj odpowiedzi")):
        text = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE=language).text
        assert title in text


def test_while_the_plan_answers_the_page_offers_no_move_and_says_so(
    client, alice, bob, monkeypatch
):
    # The worker that plays the plan's answer has not run yet.
    monkeypatch.setattr("games.services.plan_following.send_quickly", lambda *a, **kw: True)
    game = started_game(alice, bob, game="azul")
    planner, mover = waiting(game)
    theirs = factory_move(legal(game))
    mine = factory_move(legal_after(game, theirs), theirs)
    client.force_login(planner)
    client.post(
        f"/games/{game.pk}/plan/", {"lines": f"{theirs}; {mine}", "expected_seq": game.last_seq}
    )
    move_submit(game=game, user=mover, move=theirs)

    page = client.get(f"/games/{game.pk}/").text
    assert "Your plan is playing its answer" in page
    assert "Your turn." not in page and 'id="move-form"' not in page
    live = client.get(f"/games/{game.pk}/live", {"seq": 0}).json()
    assert live["my_turn"] is False

    assert plan_play(game_id=game.pk) == 1
    page = client.get(f"/games/{game.pk}/").text
    assert "Your plan is playing its answer" not in page
    assert "Waiting for" in page


def test_a_dropped_plan_is_said_on_the_page_until_its_player_has_seen_it(client, alice, bob):
    game = started_game(alice, bob, game="azul")
    planner, mover = waiting(game)
    expected = factory_move(legal(game))
    answer = factory_move(legal_after(game, expected), expected)
    played = next(move for move in legal(game) if move != expected)
    client.force_login(planner)
    page = f"/games/{game.pk}/"
    client.post(page + "plan/", {"lines": f"{expected}; {answer}", "expected_seq": game.last_seq})
    move_submit(game=game, user=mover, move=played)

    for _ in range(2):
        shown = client.get(page).text
        assert f"Your plan for Azul #{game.pk} is dropped" in shown
        assert f"played {played}, which none of your lines expected" in shown
    seen = client.post(page + "plan/seen/", follow=True)
    assert "is dropped" not in seen.text
    assert "is dropped" not in client.get(page).text
