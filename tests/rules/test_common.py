"""The shared pieces every engine relies on: drawing from the bag and the codec."""

import random
from dataclasses import dataclass
from enum import IntEnum

import pytest

from games.rules.common import Codec, Draw, apply_draw, draw_tiles, shared_winners


def test_draw_takes_tiles_from_the_bag_only_while_it_holds_some():
    bag, discard = (2, 1, 0), (0, 0, 5)
    draw = draw_tiles(bag, discard, 3, random.Random(1))
    assert sorted(draw.tiles) == [0, 0, 1]
    assert draw.refilled_after is None
    assert apply_draw(bag, discard, draw) == ((0, 0, 0), (0, 0, 5))


def test_empty_bag_is_refilled_from_the_discard_pile_once():
    bag, discard = (1, 0, 0), (0, 2, 0)
    draw = draw_tiles(bag, discard, 4, random.Random(3))
    assert draw.tiles[0] == 0 and draw.refilled_after == 1
    assert sorted(draw.tiles) == [0, 1, 1]
    assert apply_draw(bag, discard, draw) == ((0, 0, 0), (0, 0, 0))


def test_replaying_an_impossible_refill_is_refused():
    with pytest.raises(ValueError):
        apply_draw((1, 0), (0, 1), Draw((1,), refilled_after=0))


class Colour(IntEnum):
    RED = 1
    BLUE = 2


@dataclass(frozen=True)
class Spot:
    row: int
    colour: Colour


@dataclass(frozen=True)
class Placed:
    seat: int
    spots: tuple[Spot, ...]
    kept: tuple[tuple[int, ...], ...]
    note: str | None = None


def test_codec_round_trips_nested_tuples_enums_and_optionals():
    codec = Codec(Placed)
    event = Placed(1, (Spot(2, Colour.BLUE),), ((1, 2), (3,)), None)
    data = codec.encode(event)
    assert data == {
        "type": "Placed",
        "version": 1,
        "seat": 1,
        "spots": [{"row": 2, "colour": 2}],
        "kept": [[1, 2], [3]],
        "note": None,
    }
    assert codec.decode(data) == event


def test_codec_refuses_a_version_it_does_not_know():
    codec = Codec(Placed, versions={Placed: 2})
    old = {"type": "Placed", "version": 1, "seat": 0, "spots": [], "kept": []}
    with pytest.raises(ValueError, match="upcasting"):
        codec.decode(old)


def test_codec_upcasts_an_old_version_with_the_engines_own_upcaster():
    def with_note(data):
        return {**data, "note": "upcast"}

    codec = Codec(Placed, versions={Placed: 2}, upcasters={("Placed", 1): with_note})
    old = {"type": "Placed", "version": 1, "seat": 0, "spots": [], "kept": []}
    assert codec.decode(old) == Placed(0, (), (), "upcast")
    assert codec.encode(codec.decode(old))["version"] == 2


def test_ties_share_the_victory():
    assert shared_winners([(5, 1), (7, 0), (7, 0)]) == (1, 2)


def test_only_the_seats_still_playing_can_win():
    keys = [(9, 0), (7, 1), (7, 0), (3, 0)]
    assert shared_winners(keys, {1, 2, 3}) == (1,)
    assert shared_winners(keys, [3]) == (3,)
    with pytest.raises(ValueError):
        shared_winners(keys, ())
    with pytest.raises(ValueError):
        shared_winners(keys, {4})
