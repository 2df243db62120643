from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import checks  # noqa: F401  (registers the system checks)
        from games.services import bots

        bots.connect()
