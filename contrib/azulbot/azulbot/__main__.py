"""``python -m azulbot --url URL --token KEY [--player random|site:LEVEL]``: run a bot."""

import argparse
import logging
import os

from azulbot import Bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default=os.environ.get("AZULBOT_URL", "http://localhost:8000"))
    parser.add_argument("--token", default=os.environ.get("AZULBOT_TOKEN"))
    parser.add_argument("--player", default="random", help="random, or site:easy|medium|hard")
    arguments = parser.parse_args()
    if not arguments.token:
        parser.error("give the bot's token (--token or AZULBOT_TOKEN)")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    if arguments.player == "random":
        from examples.random_mover import choose
    else:
        from examples.site_computer import computer_player

        choose = computer_player(arguments.url, arguments.token, arguments.player.partition(":")[2])
    Bot(arguments.url, arguments.token, choose).run()


if __name__ == "__main__":
    main()
