"""Exported records replay through the rules (``verify_game``); tampering is caught; read
models are rebuilt from the events (``rebuild_projections``)."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Game
from games.selectors.history import export_record
from games.services.moves import game_resign, move_undo, takeback_answer, takeback_request
from games.services.tables import game_reproject
from tests.games.helpers import play, play_to_end, started, to_move

pytestmark = pytest.mark.django_db


def exported(game: Game, tmp_path, rows=None) -> str:
    path = tmp_path / f"game-{game.pk}.jsonl"
    rows = rows if rows is not None else export_record(game)
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    return str(path)


def verify(path: str) -> str:
    out = io.StringIO()
    call_command("verify_game", path, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("game_type", "options"),
    [
        ("summer-pavilion", {}),
        ("summer-pavilion", {"board": "grey"}),
        ("azul", {}),
        ("azul", {"wall": "grey"}),
        ("miyabi", {}),
    ],
)
def test_a_random_full_game_exports_and_verifies_with_its_final_scores(
    alice, bob, carol, tmp_path, game_type, options
):
    game = started(game_type, alice, bob, carol, options=options)
    play_to_end(game, seed=7)
    game.refresh_from_db()
    report = verify(exported(game, tmp_path))
    assert report.startswith("OK") and f"scores {game.scores}" in report
    assert f"winners {game.winners}" in report


def test_a_record_with_undo_takeback_and_resignation_still_verifies(alice, bob, carol, tmp_path):
    game = started("azul", alice, bob, carol)
    mover = to_move(game)
    play(game)
    move_undo(game=game, user=mover)
    point = game.last_seq
    game.refresh_from_db()
    asker = to_move(game)
    play(game)
    request = takeback_request(game=game, user=asker, to_seq=point)
    for other in (alice, bob, carol):
        if other != asker:
            takeback_answer(game=game, user=other, request=request, accept=True)
    game_resign(game=game, user=carol)
    play_to_end(game, seed=1)
    game.refresh_from_db()
    assert verify(exported(game, tmp_path)).startswith("OK")


def tampered(game: Game, change) -> list[dict]:
    rows = export_record(game)
    change(rows)
    return rows


def first(rows, predicate):
    return next(row for row in rows[1:] if predicate(row))


def claim_more_points(rows):
    placed = first(rows, lambda r: "points" in r["data"] and r["data"]["points"] > 0)
    placed["data"]["points"] += 5


def move_out_of_turn(rows):
    moved = first(rows, lambda r: r["type"] == "table.Moved" and r["seq"] > 20)
    moved["data"]["seat"] = (moved["data"]["seat"] + 1) % 2


def drop_an_event(rows):
    rows.remove(first(rows, lambda r: r["seq"] == 30))


def inflate_the_final_scores(rows):
    rows[0]["scores"] = [score + 1 for score in rows[0]["scores"]]


@pytest.mark.parametrize(
    "change", [claim_more_points, move_out_of_turn, drop_an_event, inflate_the_final_scores]
)
def test_a_tampered_record_is_rejected_naming_what_is_wrong(alice, bob, tmp_path, change):
    game = started("azul", alice, bob)
    play_to_end(game, seed=2)
    game.refresh_from_db()
    with pytest.raises(CommandError, match="NOT OK"):
        verify(exported(game, tmp_path, tampered(game, change)))


def test_an_unreadable_record_is_rejected_plainly(tmp_path):
    path = tmp_path / "junk.jsonl"
    path.write_text("not json\n")
    with pytest.raises(CommandError, match="line 1 is not JSON"):
        verify(str(path))
    with pytest.raises(CommandError, match="cannot read"):
        verify(str(tmp_path / "missing.jsonl"))


def test_rebuild_projections_restores_read_models_from_the_events(alice, bob):
    game = started("summer-pavilion", alice, bob)
    for _ in range(6):
        play(game)
    game.refresh_from_db()
    truth = (game.status, game.last_seq, game.to_move, game.scores)
    Game.objects.filter(pk=game.pk).update(scores=[99, 99], to_move=None, last_seq=1)
    out = io.StringIO()
    call_command("rebuild_projections", stdout=out)
    game.refresh_from_db()
    assert (game.status, game.last_seq, game.to_move, game.scores) == truth
    assert "1 read models had drifted" in out.getvalue()


def test_a_rebuilt_game_keeps_when_it_ended_and_its_ladder_is_not_replayed(alice, bob, monkeypatch):
    """A game resigned a day after its last move: rebuilt from its events, it still ended
    when the resignation came (its page, the archive and its rating say so), and its
    unchanged result does not make the ladder count again from it (issue 44: a rebuild that
    replays the ladder costs as much as the ladder is long)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.services import ratings

    game = started("azul", alice, bob)
    for _ in range(4):
        play(game)
    later = timezone.now() + timedelta(days=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    game_resign(game=game, user=to_move(game))
    game.refresh_from_db()
    monkeypatch.undo()
    truth = (game.status, game.finished_at, game.last_move_at)
    assert game.status == Game.Status.FINISHED and game.finished_at - game.last_move_at > timedelta(
        hours=23
    )
    replayed = []
    monkeypatch.setattr(ratings, "_replay", lambda *a, **k: replayed.append(a))
    assert game_reproject(game=game) is False
    game.refresh_from_db()
    assert (game.status, game.finished_at, game.last_move_at) == truth
    assert replayed == []
