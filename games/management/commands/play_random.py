"""Plays a whole game between generated users, and computer players if asked, through the
services (demos and load)."""

import random
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games import repository
from games.errors import ServiceError
from games.registry import GAME_TYPES
from games.selectors.moves import legal_moves_of
from games.selectors.names import players_of
from games.services.bots import bot_move
from games.services.moves import move_submit
from games.services.tables import game_create, game_join


class Command(BaseCommand):
    help = (
        "Play a full game through the services between generated users (random legal "
        "moves, or the engine's default moves with --default-moves) and computer players "
        "(--bots LEVEL ..., one seat each: easy, medium or hard)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--game", choices=sorted(GAME_TYPES), default="summer-pavilion")
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a game option, e.g. --option board=grey",
        )
        parser.add_argument("--seed", type=int, default=None, help="seed for the move choice")
        parser.add_argument(
            "--default-moves",
            action="store_true",
            help="the generated users play the engine's default command instead",
        )
        parser.add_argument(
            "--bots",
            nargs="+",
            default=[],
            metavar="LEVEL",
            help="seat a computer player of each level (easy, medium, hard)",
        )

    def handle(
        self,
        *args,
        game: str,
        players: int,
        option: list[str],
        seed,
        default_moves: bool,
        bots: list[str],
        **kwargs,
    ) -> None:
        try:
            options = dict(item.split("=", 1) for item in option)
        except ValueError:
            raise CommandError("--option takes NAME=VALUE, e.g. --option board=grey") from None
        if len(bots) >= players:
            raise CommandError(f"--bots: at most {players - 1} computer players for {players}")
        User = get_user_model()
        users = []
        for index in range(players - len(bots)):
            email = f"player{index + 1}@random.example"
            user, created = User.objects.get_or_create(
                username=email, defaults={"email": email, "first_name": f"Player {index + 1}"}
            )
            users.append(user)
        chooser = random.Random(seed)
        started = time.perf_counter()
        try:
            table = game_create(
                creator=users[0], game=game, players=players, options=options, bots=bots
            )
            for user in users[1:]:
                game_join(game=table, user=user)
        except ServiceError as error:
            raise CommandError(error.message) from None
        table.refresh_from_db()
        by_seat = {seat.position: seat.user for seat in table.seats.all()}
        names = {p["seat"]: p["player"] for p in players_of(table)}
        moves = 0
        while table.status == table.Status.ACTIVE:
            if by_seat[table.to_move] is None:
                # A computer player's seat: played here as the worker's task would.
                moves += bot_move(game_id=table.pk)
                table.refresh_from_db()
                continue
            position = repository.game_table(table)
            if default_moves:
                engine = position.engine
                move = engine.format(engine.default_command(position.state))
            else:
                move = chooser.choice(legal_moves_of(position))["move"]
            move_submit(game=table, user=by_seat[table.to_move], move=move)
            table.refresh_from_db()
            moves += 1
        elapsed = time.perf_counter() - started
        scores = ", ".join(f"{names[s]} {p}" for s, p in enumerate(table.scores))
        winners = " and ".join(names[s] for s in table.winners)
        self.stdout.write(
            f"Game {table.pk} ({game}, {players} players): {moves} moves in {elapsed:.1f} s; "
            f"{scores}; won by {winners}."
        )
