from django.apps import AppConfig


class DugoutConfig(AppConfig):
    """The project as an app, so Django finds its management commands and its admin site settings."""

    name = "dugout"
    verbose_name = "Dugout"
