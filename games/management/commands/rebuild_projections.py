"""Rebuilds every game's read model from its events (the events are the truth), then the
ratings and the archive from the rebuilt games, then every tournament's row from its
stream; ``--analyses`` also analyses every finished
game again."""

from django.core.management.base import BaseCommand

from games.models import Game, Tournament
from games.services.analysis import analyses_rebuild
from games.services.ratings import ratings_rebuild
from games.services.tables import game_reproject
from games.services.tournaments.stream import tournament_reproject


class Command(BaseCommand):
    help = (
        "Rebuild the read model (status, seat to move, scores, winners) of every game, then "
        "every game's result and the ratings, in game-end order, then every tournament's row. "
        "With --analyses, drop every "
        "post-game analysis and ask the workers for a new one of each finished game."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--analyses",
            action="store_true",
            help="also analyse every finished game again (the workers run the analyses)",
        )

    def handle(self, *args, analyses: bool = False, **options) -> None:
        changed = 0
        games = Game.objects.exclude(status__in=[Game.Status.OPEN, Game.Status.CANCELLED])
        for game in games.iterator():
            changed += game_reproject(game=game)
        self.stdout.write(f"Rebuilt {games.count()} games; {changed} read models had drifted.")
        rated = ratings_rebuild()
        ladders = ", ".join(f"{game}: {count}" for game, count in rated.items()) or "none"
        self.stdout.write(f"Rebuilt the ratings; rated games per ladder: {ladders}.")
        tournaments = Tournament.objects.all()
        drifted = sum(tournament_reproject(tournament=t) for t in tournaments.iterator())
        self.stdout.write(f"Rebuilt {tournaments.count()} tournaments; {drifted} rows had drifted.")
        if analyses:
            asked = analyses_rebuild()
            self.stdout.write(f"Asked for the analysis of {asked} finished games.")
