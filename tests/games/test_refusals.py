"""Every refusal an engine can raise has a sentence in ``games.refusals``, and every
sentence renders with the params its raise sites give it.

The codes are collected statically from the engines' source (``games/rules/**``), so a new
``raise IllegalMove("…")`` without a sentence fails here before anyone reads an English
fallback: the first argument of ``IllegalMove(…)`` (the second of ``InvalidNotation(…)``),
a module constant it names (``EXPECTED = "…"`` or ``SOURCE = ("…", {…})``), and the
``return "code", {…}`` of the helpers that explain a refusal (``payment_error``,
``placement_problem``)."""

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from games.refusals import RULES_ERRORS, illegal_move_text, rules_error_text, words
from games.registry import GAME_TYPES
from games.rules.common import IllegalMove, InvalidNotation

CODE = re.compile(r"[a-z]+(_[a-z]+)+")
"""What a refusal's code looks like (snake_case, at least two words)."""
REFUSALS = {"IllegalMove": 0, "InvalidNotation": 1}
"""The errors, and the position of their code among the arguments."""
RULES = Path(__file__).resolve().parents[2] / "games" / "rules"

# A value for every param name the engines use, of the kind they give.
SAMPLES = {
    "action": "take_tiles",
    "accepted": (0, 2),
    "canonical": 1,
    "chosen": 2,
    "colour": 2,
    "colours": 5,
    "column": 2,
    "columns": 5,
    "cost": 3,
    "count": 2,
    "current": "play",
    "factories": 5,
    "factory": 6,
    "fewest": 2,
    "game": "azul",
    "have": 1,
    "held_colour": 1,
    "kept": 5,
    "known": ("wall",),
    "last": 5,
    "levels": (0, 1),
    "line": 3,
    "lines": 5,
    "most": 4,
    "needed": 2,
    "object": 1,
    "option": "wall",
    "orientation": 4,
    "own_row": 1,
    "players": 5,
    "row": 2,
    "rows": 6,
    "seat": 0,
    "shape": "L",
    "source": None,
    "space": 3,
    "spaces": 6,
    "star": 1,
    "stars": 7,
    "unknown": ("colour",),
    "value": "gold",
    "values": ("coloured", "grey"),
    "wild": 0,
    "wilds": 3,
    "word": "xp3",
}


def _constants(tree: ast.Module) -> dict[str, tuple[str, set[str]]]:
    """Module constants that hold a code: ``NAME = "code"`` or ``NAME = ("code", {…})``."""
    found = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        if not isinstance(target, ast.Name):
            continue
        if isinstance(value, ast.Constant) and CODE.fullmatch(str(value.value)):
            found[target.id] = (value.value, set())
        elif (
            isinstance(value, ast.Tuple)
            and len(value.elts) == 2
            and isinstance(value.elts[0], ast.Constant)
            and isinstance(value.elts[1], ast.Dict)
        ):
            keys = {k.value for k in value.elts[1].keys if isinstance(k, ast.Constant)}
            found[target.id] = (value.elts[0].value, keys)
    return found


def _raised() -> list[tuple[str, frozenset[str], str]]:
    """(code, the param names given, where) for every refusal in the engines' source."""
    raised = []
    for path in sorted(RULES.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        constants = _constants(tree)
        for node in ast.walk(tree):
            where = f"{path.relative_to(RULES)}:{getattr(node, 'lineno', 0)}"
            called = getattr(node, "func", None)
            if isinstance(node, ast.Call) and getattr(called, "id", None) not in REFUSALS:
                # ``reader.invalid(COLOUR)``, ``_tiles(text, rest, EXPECTED_KEPT, most=4)``: a
                # code constant handed to a helper that raises it with these params.
                names = {k.arg for k in node.keywords if k.arg}
                for arg in node.args:
                    if isinstance(arg, ast.Name) and arg.id in constants:
                        value, keys = constants[arg.id]
                        raised.append((value, frozenset(names | keys), where))
            if isinstance(node, ast.Call) and getattr(called, "id", None) in REFUSALS:
                position = REFUSALS[called.id]
                if len(node.args) <= position:
                    continue
                code = node.args[position]
                names = {k.arg for k in node.keywords if k.arg}
                if isinstance(code, ast.Constant):
                    raised.append((code.value, frozenset(names), where))
                elif isinstance(code, ast.Name) and code.id in constants:
                    value, keys = constants[code.id]
                    raised.append((value, frozenset(names | keys), where))
                # else a code handed in (``code``, ``expected``): collected where it is
                # returned or handed over.
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
                elts = node.value.elts
                if (
                    len(elts) == 2
                    and isinstance(elts[0], ast.Constant)
                    and isinstance(elts[0].value, str)
                    and isinstance(elts[1], ast.Dict)
                ):
                    keys = {k.value for k in elts[1].keys if isinstance(k, ast.Constant)}
                    raised.append((elts[0].value, frozenset(keys), where))
            elif (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.IfExp)
                and any(isinstance(t, ast.Name) and t.id == "code" for t in node.targets)
            ):
                for branch in (node.value.body, node.value.orelse):
                    if isinstance(branch, ast.Constant):
                        raised.append((branch.value, frozenset({"action", "current"}), where))
    return raised


RAISED = _raised()


def test_the_scan_finds_the_engines_refusals():
    codes = {code for code, _, _ in RAISED}
    assert len(codes) > 50
    assert {
        "no_such_factory",
        "too_few_of_colour",
        "uneven_levels",
        "not_play_phase",
        "azul_expected_colour",
        "pavilion_expected_kept",
        "miyabi_expected_command",
        "player_count",
    } <= codes


def test_every_code_an_engine_raises_has_a_sentence():
    missing = sorted({f"{code} ({where})" for code, _, where in RAISED if code not in RULES_ERRORS})
    assert not missing, f"codes without a sentence in games/refusals/: {missing}"


def test_every_sentence_is_raised_somewhere():
    unused = set(RULES_ERRORS) - {code for code, _, _ in RAISED}
    assert not unused, f"sentences no engine raises: {sorted(unused)}"


def _games_raising(where: str) -> list[str]:
    """The registered games whose engine raises from ``where`` (``common/``: every game)."""
    package = where.split("/")[0]
    return [
        slug
        for slug, game in GAME_TYPES.items()
        if package in ("common", game.engine.__name__.rsplit(".", 1)[-1])
    ]


RAISED_BY_GAME = [
    (code, names, where, game) for code, names, where in RAISED for game in _games_raising(where)
]


def test_every_raise_site_belongs_to_a_registered_game():
    assert {where for _, _, where, _ in RAISED_BY_GAME} == {where for _, _, where in RAISED}


def _param_id(value) -> str:
    """A parameter's part of a test's id; a set's names in order, so that every run and
    every xdist worker (each with its own string hashing) names the test alike."""
    return "+".join(sorted(value)) if isinstance(value, frozenset) else str(value)


@pytest.mark.parametrize(("code", "names", "where", "game"), RAISED_BY_GAME, ids=_param_id)
@pytest.mark.parametrize("language", ["en", "es", "pt", "pl"])
def test_every_sentence_renders_with_the_params_of_its_raise_site(
    code, names, where, game, language
):
    assert names <= SAMPLES.keys(), f"{where}: give the test a sample of {names - SAMPLES.keys()}"
    params = {name: SAMPLES[name] for name in names}
    with translation.override(language):
        text = str(RULES_ERRORS[code] % words(params, game))
    assert text and "%(" not in text and "{" not in text, where
    assert not text.startswith(code)


def test_an_illegal_move_is_said_in_words_of_the_game():
    error = IllegalMove("source_lacks_colour", source=2, colour=2)
    with translation.override("en"):
        assert illegal_move_text(error, "azul") == (
            "illegal move: factory display 3 holds no red tiles"
        )
        assert rules_error_text(error, "summer-pavilion") == (
            "factory display 3 holds no orange tiles"
        )
        centre = IllegalMove("source_lacks_colour", source=None, colour=0)
        assert rules_error_text(centre, "azul") == "the centre holds no blue tiles"


def test_plural_sentences_choose_by_their_count():
    with translation.override("en"):
        assert rules_error_text(IllegalMove("bonus_due", count=1)) == (
            "first choose 1 bonus tile from the supply"
        )
        assert rules_error_text(IllegalMove("bonus_due", count=3)) == (
            "first choose 3 bonus tiles from the supply"
        )


def test_a_code_without_a_sentence_is_never_said_in_the_engines_words():
    with translation.override("en"):
        text = rules_error_text(IllegalMove("brand_new_rule", line=3))
        unreadable = rules_error_text(InvalidNotation("xyz", "brand_new_notation"))
    assert "brand_new" not in text and "brand_new" not in unreadable
