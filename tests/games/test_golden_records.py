"""Golden game records: whole games exported once (bots playing the engines' default
moves) must replay through today's rules to the same final scores. Old games replay
identically after any code change, or this fails."""

import io
from pathlib import Path

import pytest
from django.core.management import call_command

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize(
    ("record", "scores", "winners"),
    [
        ("summer-pavilion-2p", [83, 71], [0]),
        ("summer-pavilion-grey-4p", [66, 73, 60, 85], [3]),
        ("azul-grey-3p", [29, 16, 30], [2]),
        ("azul-2p", [38, 27], [0]),
        ("miyabi-3p", [172, 153, 173], [2]),
    ],
)
def test_a_golden_record_replays_to_its_known_final_scores(record, scores, winners):
    out = io.StringIO()
    call_command("verify_game", str(FIXTURES / f"{record}.jsonl"), stdout=out)
    assert out.getvalue().startswith("OK")
    assert f"scores {scores}; winners {winners}" in out.getvalue()
