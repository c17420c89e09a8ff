"""System checks that refuse a bad configuration at start-up (the healthchecks way)."""

from django.conf import settings
from django.core.checks import Error, Warning, register

from campaigns.rulesets import REGISTRY


@register()
def ruleset_data_check(app_configs, **kwargs):
    """Every registered ruleset must ship readable house rules and rosters."""
    errors = []
    for ruleset in REGISTRY.values():
        try:
            ruleset.default_house_rules()
            if not ruleset.roster_data():
                raise ValueError("no rosters")
        except (OSError, ValueError, KeyError) as exc:
            errors.append(Error(f"Ruleset {ruleset.key} has unreadable data: {exc}", id="dugout.E001"))
    return errors


@register(deploy=True)
def broker_check(app_configs, **kwargs):
    """The embedded filesystem broker is for newcomers; production runs Redis."""
    if not settings.REDIS_URL:
        return [Warning("REDIS_URL is not set: Celery uses the embedded filesystem broker.", id="dugout.W001")]
    return []
