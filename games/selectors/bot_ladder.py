"""The bot ladder's standings and matches, as its page and the API show them (issue 55)."""

from games.models import BotRating, LadderMatch
from games.selectors.names import display_name, players_of_games


def standings(game_type: str) -> list[dict]:
    """The bots rated on ``game_type``'s ladder, best conservative rating first."""
    rows = (
        BotRating.objects.filter(game_type=game_type, user__is_active=True)
        .select_related("user")
        .order_by("-display", "-games", "user_id")
    )
    return [
        {
            "rank": rank,
            "id": row.user_id,
            "name": display_name(row.user),
            "rating": row.display,
            "games": row.games,
            "wins": row.wins,
            "losses": row.losses,
        }
        for rank, row in enumerate(rows, start=1)
    ]


def matches(game_type: str, *, bot_id: int | None = None, most: int = 50) -> list[dict]:
    """The ladder's latest matches (of bot ``bot_id`` alone, if given): both games, and
    the deal's seed once both are over."""
    found = LadderMatch.objects.filter(game_type=game_type).select_related("first", "second")
    if bot_id is not None:
        found = found.filter(first_id=bot_id) | found.filter(second_id=bot_id)
    found = list(found.prefetch_related("games")[:most])
    games = [game for match in found for game in match.games.all()]
    seated = players_of_games(games)
    return [
        {
            "id": match.pk,
            "players": [display_name(match.first), display_name(match.second)],
            "games": [
                {
                    "id": game.pk,
                    "status": game.status,
                    "players": [seat["player"] for seat in seated[game.pk]],
                    "scores": game.scores,
                    "winners": [seated[game.pk][seat]["player"] for seat in game.winners],
                }
                for game in sorted(match.games.all(), key=lambda game: game.pk)
            ],
            "seed": match.secret if match.settled_at else None,
            "settled_at": match.settled_at,
        }
        for match in found
    ]
