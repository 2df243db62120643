"""System checks (``manage.py check``, shown at every ``runserver`` and ``migrate``)."""

from importlib import import_module
from types import ModuleType

from django.conf import settings
from django.core import checks

from games.registry import GAME_TYPES, PARTS, GameType, required_names


@checks.register(checks.Tags.security)
def inbound_webhook_secret(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """The inbound-mail webhook refuses every post while it has no secret: say so."""
    if settings.ANYMAIL.get("WEBHOOK_SECRET"):
        return []
    return [
        checks.Warning(
            "the inbound-mail webhook (/mail/anymail/<provider>/inbound/) refuses every post: "
            "ANYMAIL_WEBHOOK_SECRET is not set",
            hint="set ANYMAIL_WEBHOOK_SECRET=user:password and give the provider "
            "https://user:password@<host>/mail/anymail/<provider>/inbound/; replies by "
            "receive_email or mail_server do not need it",
            id="games.W001",
        )
    ]


def missing_parts(game: GameType, parts: dict[str, type] = PARTS) -> list[str]:
    """What the registration of ``game`` lacks, each piece in a sentence naming it
    ("miyabi: games.boards.miyabi lacks draw_board"): a module named in its ``GameType``
    that cannot be imported, or a name of its part's protocol (``parts``: the registry's
    ``PARTS``) that the module does not define."""
    missing = []
    for part, protocol in parts.items():
        named = getattr(game, part)
        if isinstance(named, ModuleType):
            module, path = named, named.__name__
        else:
            path = named
            try:
                module = import_module(path)
            except ImportError as error:
                missing.append(
                    f"{game.slug}: its {part} module {path} cannot be imported ({error})"
                )
                continue
        missing += [
            f"{game.slug}: {path} lacks {name}"
            for name in required_names(protocol)
            if not hasattr(module, name)
        ]
    if getattr(game.engine, "NAME", game.slug) != game.slug:
        missing.append(f"{game.slug}: {game.engine.__name__}.NAME is {game.engine.NAME!r}")
    return missing


@checks.register()
def games_registered(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """Every registered game has every part its registration names."""
    return [
        checks.Error(
            problem,
            hint="a game's parts and what each provides: games/registry.py, and "
            'docs/engines.md, "Adding a game"',
            id="games.E001",
        )
        for game in GAME_TYPES.values()
        for problem in missing_parts(game)
    ]
