"""What every engine's ``start`` checks before it sets the table: the number of players
and the options, each refused with a code and the facts that say what is accepted."""

from collections.abc import Mapping

from games.rules.common.errors import IllegalMove


def chosen_options(
    game: str,
    players: int,
    allowed_players: range,
    options: object,
    allowed: Mapping[str, tuple],
) -> dict:
    """The options with every default filled in (an option's first allowed value), or
    ``IllegalMove`` for a player count, an option or a value the game does not know."""
    if type(players) is not int or players not in allowed_players:
        raise IllegalMove(
            "player_count",
            game=game,
            fewest=allowed_players[0],
            most=allowed_players[-1],
            players=players,
        )
    if not isinstance(options, Mapping):
        raise IllegalMove("options_not_mapping", game=game)
    unknown = sorted(map(str, set(options) - set(allowed)))
    if unknown:
        raise IllegalMove(
            "unknown_option", game=game, unknown=tuple(unknown), known=tuple(sorted(allowed))
        )
    chosen = {}
    for name, values in allowed.items():
        value = options.get(name, values[0])
        if value not in values:
            raise IllegalMove(
                "option_value", game=game, option=name, values=tuple(values), value=value
            )
        chosen[name] = value
    return chosen
