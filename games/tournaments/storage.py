"""A folded tournament kept as a snapshot (``TournamentSnapshot``): its stored form and the
digest of the code that folded it. Standard library only."""

import hashlib
import pickle
from functools import cache
from pathlib import Path

from games.rules.common import codec
from games.tournaments import core

# A snapshot every this many events of a tournament's stream: a 200-player Swiss writes
# about a thousand, and a read folds fewer than this many after the latest snapshot.
SNAPSHOT_EVERY = 100


@cache
def code_version() -> str:
    """A digest of the code that folds a tournament: this package (the decider, pairing,
    standings, this module) and the codec of its events. A snapshot written by other code
    is not read."""
    package = Path(core.__file__).parent
    digest = hashlib.sha256()
    for source in [*sorted(package.glob("*.py")), Path(codec.__file__)]:
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def dumps(state: core.Tournament) -> bytes:
    """The folded tournament as stored."""
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def loads(data: bytes) -> core.Tournament:
    """The folded tournament a snapshot holds (written by this code: ``code_version``)."""
    return pickle.loads(data)  # noqa: S301 (written by this site, read back by it)


def crossed(before: int, after: int) -> bool:
    """Whether an append from seq ``before`` to ``after`` reached a multiple of
    ``SNAPSHOT_EVERY``: the moment a snapshot is written."""
    return after // SNAPSHOT_EVERY > before // SNAPSHOT_EVERY
