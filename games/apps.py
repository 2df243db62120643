from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in
        from django.db.backends.signals import connection_created

        from games import checks  # noqa: F401  (registers the system checks)
        from games.closing_views import remember_sign_in
        from games.database import read_timestamps_faster

        connection_created.connect(read_timestamps_faster, dispatch_uid="read_timestamps_faster")
        user_logged_in.connect(remember_sign_in, dispatch_uid="remember_sign_in")
