"""Each player's choice of channels per kind of notice (``PlayerSettings.channels``)."""

from games.models import PlayerSettings
from games.notify.channels import Channel, names


def wants(prefs: PlayerSettings | None, kind: str, channel: Channel) -> bool:
    """Whether the player wants notices of ``kind`` by ``channel``: a kind they have not
    chosen for goes by every channel that carries it, and a kind the channel does not let
    them turn off (an answer to what they asked for) always goes."""
    if prefs is None or kind not in channel.optional_kinds:
        return True
    chosen = prefs.channels.get(kind)
    return chosen is None or channel.name in chosen


def chosen(prefs: PlayerSettings, channel: Channel, kinds: list[str]) -> dict[str, list[str]]:
    """``prefs.channels`` after choosing ``kinds`` (of the channel's optional kinds) for
    ``channel``, the choices for other channels kept."""
    channels = dict(prefs.channels)
    for kind in channel.optional_kinds:
        others = [name for name in channels.get(kind, names()) if name != channel.name]
        channels[kind] = [*others, channel.name] if kind in kinds else others
    return channels
