from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The toolkit as an app, so Django finds its template tags."""

    name = "core"
    verbose_name = "Toolkit"
