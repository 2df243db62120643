"""What a player's bot streams say (issue 55, ``games.bot_streams``): the open challenges and
games in play of a player, and a game as its seat may see it. The streams compare two reads
of the world and tell what changed, so that a lost news costs nothing but a later line."""

from django.db.models import Q

from games import repository
from games.models import Challenge, ChatMessage, Game, Seat
from games.selectors.access import seat_of
from games.selectors.moves import legal_moves_of
from games.selectors.names import display_name, is_bot_account, players_of


def _player(user) -> dict:
    return {"id": user.pk, "name": display_name(user), "bot": is_bot_account(user)}


def challenge_json(challenge: Challenge) -> dict:
    """A challenge as the event stream and the challenge API give it."""
    return {
        "id": challenge.pk,
        "status": challenge.status,
        "challenger": _player(challenge.challenger),
        "opponent": _player(challenge.opponent),
        "game": challenge.game_type,
        "options": challenge.options,
        "seconds_per_move": challenge.seconds_per_move,
        "timeout_policy": challenge.timeout_policy,
        "decline_reason": challenge.decline_reason or None,
        "game_id": challenge.game_id,
    }


def world_of(user) -> dict:
    """``{"challenges": {id: challenge}, "games": {id: game}}``: the player's open
    challenges (made or received) and games in play, each game with whose turn it is."""
    rows = Challenge.objects.filter(
        Q(challenger=user) | Q(opponent=user), status=Challenge.Status.OPEN
    ).select_related("challenger", "opponent")
    games = {}
    seats = Seat.objects.filter(
        user=user, status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE
    ).select_related("game")
    for seat in seats:
        game = seat.game
        games[game.pk] = game_line(game, seat.position)
    return {"challenges": {row.pk: challenge_json(row) for row in rows}, "games": games}


def game_line(game: Game, position: int | None) -> dict:
    """A game in the event stream's lines (``gameStart``, ``gameFinish``)."""
    return {
        "id": game.pk,
        "game": game.game_type,
        "status": game.status,
        "seat": position,
        "to_move": game.to_move,
        "is_my_turn": game.status == Game.Status.ACTIVE and game.to_move == position,
        "last_seq": game.last_seq,
        "winners": game.winners,
        "scores": game.scores,
    }


def finished_line(game_id: int, position: int | None) -> dict:
    """A game that left the player's games in play, as it ended (or was cancelled)."""
    game = Game.objects.get(pk=game_id)
    return game_line(game, position)


def challenge_now(challenge_id: int) -> dict | None:
    row = Challenge.objects.filter(pk=challenge_id).select_related("challenger", "opponent").first()
    return challenge_json(row) if row else None


def token_alive(token) -> bool:
    """Whether the token a stream opened with still signs its player in."""
    model = type(token)
    found = model.objects.filter(pk=token.pk).values_list("user__is_active", flat=True).first()
    return bool(found)


def game_full(game: Game, user) -> dict:
    """The per-game stream's first line: the game's settings, players and state, as the
    player's seat may see it (the bag as a count: the draws to come never leave the
    server), with the legal moves when it is their turn."""
    seat = seat_of(game, user)
    position = seat.position if seat is not None else None
    clock = getattr(game, "move_clock", None)
    return {
        "type": "gameFull",
        "id": game.pk,
        "game": game.game_type,
        "options": game.options,
        "rated": game.rated,
        "timeout_policy": game.timeout_policy,
        "seconds_per_move": clock.seconds if clock else None,
        "players": players_of(game),
        "seat": position,
        "state": game_state(game, position),
    }


def game_state(game: Game, position: int | None) -> dict:
    """The per-game stream's line for each change: the position as ``position`` sees it,
    whose turn, the legal moves when it is theirs (in the notation moves are sent in)."""
    table = repository.game_table(game)
    started = bool(table.steps and table.steps[0].events)
    to_move = table.to_move() if started else None
    mine = position is not None and to_move == position and game.status == Game.Status.ACTIVE
    return {
        "type": "gameState",
        "status": game.status,
        "last_seq": table.last_seq,
        "to_move": to_move,
        "state": table.engine.view(table.state, position) if started else None,
        "scores": list(table.scores()) if started else [],
        "winners": list(table.winners()) if table.over else [],
        "over": table.over,
        "moves": [move["move"] for move in legal_moves_of(table)] if mine else [],
    }


def chat_lines(game_id: int, after: int) -> list[dict]:
    """The game's chat messages after message ``after`` that its players may read."""
    rows = (
        ChatMessage.objects.filter(
            game_id=game_id, pk__gt=after, hidden_at__isnull=True, erased_at__isnull=True
        )
        .select_related("author")
        .order_by("pk")
    )
    return [
        {"type": "chatLine", "id": row.pk, "username": display_name(row.author), "text": row.text}
        for row in rows
    ]


def last_chat(game_id: int) -> int:
    found = ChatMessage.objects.filter(game_id=game_id).order_by("-pk").values_list("pk", flat=True)
    return found.first() or 0
