from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Matches"

    def ready(self) -> None:
        # Matches sits above teams (dugout/layers.py): it lends the team reads a player's injuries, which are
        # facts of his matches, so teams never imports matches.
        from teams.selectors import player_injuries_source

        from .selectors import player_injuries, player_injuries_prefetch

        player_injuries_source(prefetch=player_injuries_prefetch, read=lambda p: player_injuries(player=p))

        from teams.history import team_history_source

        from .team_history import history_annotations

        team_history_source(annotations=history_annotations)
