"""Verifying an exported game record: replaying it through the rules, checking that every
step is what the rules give (``manage.py verify_game``). Standard library only."""

import random

from games.rules.common import RulesError
from games.table import Begin, Record, Refused, Table, decide, evolve
from games.table_events import TABLE_EVENTS, Moved, Started


class VerificationError(Exception):
    """An exported record that does not follow the rules: says which event and why."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"event {seq}: {reason}")
        self.seq = seq
        self.reason = reason


def verify(table: Table, records: list[Record], seed: str | None = None) -> Table:
    """Replay a record through the rules, checking every step: the opening is what
    ``start`` produces, each move is legal where it was made and its rules events are
    exactly what ``decide`` returns — except draws (barriers), which must be of the same
    kind and possible from the bag at that point; with the game's ``seed`` (its secret, which
    a bot ladder publishes after its match, issue 55) the draws too must be exactly the
    seed's. Raises ``VerificationError``."""
    index = 0
    while index < len(records):
        head = records[index]
        batch = [head]
        index += 1
        while index < len(records) and not isinstance(records[index].event, TABLE_EVENTS):
            batch.append(records[index])
            index += 1
        try:
            table = _verify_batch(table, batch, seed)
        except VerificationError:
            raise
        except (RulesError, Refused, ValueError, KeyError, TypeError, IndexError) as error:
            raise VerificationError(head.seq, str(error) or type(error).__name__) from error
    return table


def _verify_batch(table: Table, batch: list[Record], seed: str | None) -> Table:
    head, rules = batch[0], batch[1:]
    # The site draws each act's randomness from the secret and the event before it
    # (``services.common.game_rng``).
    rng = random.Random(0) if seed is None else random.Random(f"{seed}:{table.last_seq}")
    if head.seq != table.last_seq + 1:
        raise VerificationError(head.seq, f"expected event {table.last_seq + 1} (a gap)")
    engine = table.engine
    match head.event:
        case Started(game=game, options=options, players=players):
            expected = decide(table, Begin(game, options, players), rng)[1:]
        case Moved(seat=seat, move=move):
            if not table.started or table.over:
                raise VerificationError(head.seq, "a move outside a game in play")
            if table.to_move() != seat:
                raise VerificationError(
                    head.seq,
                    f"player {seat + 1} moved, but player {table.to_move() + 1} was to move",
                )
            expected = engine.decide(table.state, engine.parse(move), rng)
        case event if not isinstance(event, TABLE_EVENTS):
            raise VerificationError(head.seq, "a rules event with no move or start before it")
        case _:
            if rules:
                raise VerificationError(rules[0].seq, "rules events without a move")
            return evolve(table, head)
    if len(rules) != len(expected):
        raise VerificationError(
            head.seq, f"{len(rules)} rules events recorded, the rules give {len(expected)}"
        )
    table = evolve(table, head)
    for record, wanted in zip(rules, expected, strict=True):
        if record.seq != table.last_seq + 1:
            raise VerificationError(record.seq, f"expected event {table.last_seq + 1} (a gap)")
        recorded = record.event
        if engine.is_barrier(wanted) and seed is None:
            if type(recorded) is not type(wanted):
                raise VerificationError(
                    record.seq,
                    f"recorded {type(recorded).__name__}, the rules give {type(wanted).__name__}",
                )
        elif recorded != wanted:
            raise VerificationError(
                record.seq,
                f"recorded {engine.encode(recorded)}, the rules give {engine.encode(wanted)}",
            )
        table = evolve(table, record)
    return table
