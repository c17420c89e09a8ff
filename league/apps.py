from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues"

    def ready(self) -> None:
        from league import checks  # noqa: F401  (registers the system checks)
