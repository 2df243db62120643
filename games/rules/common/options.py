"""What every engine's ``start`` checks before it sets the table: the number of players
and the options, each refused with a sentence that says what is accepted."""

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
            f"{game} is played by {allowed_players[0]} to {allowed_players[-1]} players, "
            f"not {players!r}"
        )
    if not isinstance(options, Mapping):
        raise IllegalMove(f"the options of {game} are a mapping of names to values")
    unknown = sorted(map(str, set(options) - set(allowed)))
    if unknown:
        known = ", ".join(sorted(allowed)) or "none"
        raise IllegalMove(f"{game} has no option {', '.join(unknown)} (its options: {known})")
    chosen = {}
    for name, values in allowed.items():
        value = options.get(name, values[0])
        if value not in values:
            accepted = ", ".join(map(str, values))
            raise IllegalMove(f"{game}'s option {name} must be one of {accepted}, not {value!r}")
        chosen[name] = value
    return chosen
