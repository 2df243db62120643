"""The move log in words and the end screen's score lines, checked on the golden game
records: every move is described, and the score lines of each seat add up to its final
score (the breakdown comes from the engines' own events)."""

import json
import re
from pathlib import Path

import pytest

from games import table as tbl
from games import table_storage as storage
from games.boards import board_of
from games.registry import game_type

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def folded(name: str) -> tuple[dict, tbl.Table]:
    header, *events = [json.loads(line) for line in (FIXTURES / name).read_text().splitlines()]
    kind = game_type(header["game"])
    empty = tbl.empty(kind.engine, kind.namespace)
    return header, tbl.fold(empty, storage.read(empty, events))


def said(header: dict, table: tbl.Table) -> list[str]:
    """Every move of the game in words, played by "Bob"."""
    board = board_of(header["game"])
    return [board.describe(step.events, "Bob") for step in table.steps[1:]]


GOLDEN = sorted(path.name for path in FIXTURES.glob("*.jsonl"))


@pytest.mark.parametrize("name", GOLDEN)
def test_every_move_is_said_in_words_and_the_score_lines_add_up(name):
    header, table = folded(name)
    for words in said(header, table):
        assert words.startswith("Bob ") and len(words) > len("Bob took"), words
    lines = board_of(header["game"]).breakdown(table.rules_events(), len(table.players))
    totals = [sum(values[seat] for _, values in lines) for seat in range(len(table.players))]
    assert totals == list(header["scores"])


def test_an_azul_take_reads_like_a_player_would_say_it():
    header, table = folded("azul-2p.jsonl")
    words = said(header, table)
    assert any("→ line" in s for s in words)
    assert any(" to the floor)" in s for s in words)


@pytest.mark.parametrize("name", GOLDEN)
def test_no_move_is_said_with_a_before_a_vowel(name):
    """ "a orange tile" reads wrong; the sentences count their tiles instead."""
    wrong = [words for words in said(*folded(name)) if re.search(r"\ba [aeiou]", words)]
    assert not wrong
