"""A web process (azulsite/wsgi.py) keeps what it loads at start out of the garbage
collector's full passes: such a pass over all of it took 50-60 ms of a page view."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

STARTED = """
import gc, time
import azulsite.wsgi
frozen = gc.get_freeze_count()
started = time.perf_counter()
gc.collect()
print(frozen, time.perf_counter() - started)
"""


def test_what_a_web_process_loads_at_start_is_left_out_of_full_collections():
    answer = subprocess.run(
        [sys.executable, "-c", STARTED],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "azulsite.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    frozen, seconds = answer.stdout.split()
    assert int(frozen) > 50_000
    assert float(seconds) < 0.02
