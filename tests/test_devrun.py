"""``make run`` keeps its workers running: one that stops on its own (a broker restart
can end a worker) is started again, with a line saying so, but not in a tight loop."""

import subprocess
import sys

from azulsite import devrun


def stopped_worker(*options: str) -> subprocess.Popen:
    """A process that ends at once, as a worker that lost its broker does."""
    return subprocess.Popen([sys.executable, "-c", "raise SystemExit(1)"])


def test_a_worker_that_stopped_is_started_again_with_a_line_saying_so(monkeypatch, capsys):
    monkeypatch.setattr(devrun, "worker", stopped_worker)
    monkeypatch.setattr(devrun, "RESTART_PAUSE_SECONDS", 0)
    supervised = devrun.Supervised("default", "--beat")
    first = supervised.process
    first.wait(10)
    supervised.keep_running()
    assert supervised.process is not first
    assert "the default worker stopped (exit status 1); starting it again" in (
        capsys.readouterr().err
    )
    supervised.process.wait(10)


def test_a_worker_that_stops_as_it_starts_is_not_started_again_at_once(monkeypatch, capsys):
    monkeypatch.setattr(devrun, "worker", stopped_worker)
    supervised = devrun.Supervised("default", "--beat")
    first = supervised.process
    first.wait(10)
    supervised.keep_running()
    assert supervised.process is first
    assert not capsys.readouterr().err
