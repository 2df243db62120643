"""Azul: Summer Pavilion engine speed: random and default-command playouts, 2 and 4 players, every
option; moves/s, games/s and replay time of a finished game (see ``bench/playouts.py``).

    .venv/bin/python bench/engine_sp.py [--games 200] [--seed 1]
"""

import playouts

from games.rules import summer_pavilion

if __name__ == "__main__":
    playouts.main(summer_pavilion)
