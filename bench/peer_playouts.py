"""Random playouts of a public engine, for ``bench/engines.py`` (not part of the product).

Run by the peer engines' own Python (it needs numpy), never by the project's:

    ../peer-venv/bin/python bench/peer_playouts.py ../shared/peers/bench_sj.py

It loads the driver's ``play_plain(seed, players)`` and then answers one line per request on
stdin, ``<players> <games> <first seed>``, with ``<CPU seconds> <moves>`` on stdout, so that the
caller can interleave the peer's repetitions with its own in one run.
"""

import importlib.util
import sys
import time
from pathlib import Path


def load(driver: Path):
    sys.path.insert(0, str(driver.parent))
    spec = importlib.util.spec_from_file_location(driver.stem, driver)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.play_plain


def main() -> None:
    play = load(Path(sys.argv[1]).resolve())
    for line in sys.stdin:
        players, games, first = map(int, line.split())
        began = time.process_time()
        moves = sum(play(seed, players) for seed in range(first, first + games))
        print(f"{time.process_time() - began} {moves}", flush=True)


if __name__ == "__main__":
    main()
