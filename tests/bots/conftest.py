"""Fixtures of the computer players' tests: a finished game and the tasks its analysis
asked for."""

import pytest

from games.models import Game
from tests.games.helpers import play_to_end, started


@pytest.fixture
def queued(monkeypatch):
    """The tasks the services asked for, instead of a broker."""
    sent = []
    monkeypatch.setattr(
        "games.services.analysis.send_quickly", lambda name, args, **kw: sent.append((name, args))
    )
    return sent


@pytest.fixture(autouse=True)
def few_simulations(settings):
    """Analyses search 8 simulations a move here (the site's default is 300)."""
    settings.ANALYSIS_SIMULATIONS = 8


@pytest.fixture
def finished(alice, bob, django_capture_on_commit_callbacks, queued) -> Game:
    """Alice and Bob's game of Azul played to its end with random legal moves: its analysis
    is asked for, not run."""
    game = started("azul", alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        play_to_end(game, seed=3)
    game.refresh_from_db()
    return game
