"""``fast_constructor``: the same frozen objects as the class itself builds, only faster."""

import dataclasses
import pickle

import pytest

from games.rules.common import fast_constructor


@dataclasses.dataclass(frozen=True, slots=True)
class Seat:
    score: int
    tiles: tuple[int, ...]
    passed: bool = False


FastSeat = fast_constructor(Seat)


def test_fast_constructor_builds_an_equal_instance_of_the_class_itself():
    built = FastSeat(score=3, tiles=(1, 2))
    assert type(built) is Seat
    assert built == Seat(3, (1, 2)) and hash(built) == hash(Seat(3, (1, 2), False))
    assert repr(built) == "Seat(score=3, tiles=(1, 2), passed=False)"
    assert FastSeat(3, (1, 2), True).passed is True


def test_fast_constructor_builds_frozen_objects_that_replace_and_pickle_as_usual():
    built = FastSeat(3, (1, 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.score = 4
    assert dataclasses.replace(built, score=4) == Seat(4, (1, 2))
    assert pickle.loads(pickle.dumps(built)) == built


def test_fast_constructor_refuses_classes_it_cannot_twin():
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        score: int

    @dataclasses.dataclass(slots=True)
    class NotFrozen:
        score: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        score: int

        def __post_init__(self):
            assert self.score >= 0

    for cls in (NoSlots, NotFrozen, Checked):
        with pytest.raises(TypeError):
            fast_constructor(cls)
