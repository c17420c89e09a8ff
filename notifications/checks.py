"""System checks for the notification channels: a VAPID key that cannot sign, or a public key that is not the
private key's, is refused at start-up (every push would fail, or every browser would subscribe to a key whose
pushes the push services reject); `check --deploy` says when Web Push is off and when the push services would be
given the development contact address."""

from django.conf import settings
from django.core.checks import Error, Info, Warning, register

from .vapid import public_key_of

DEFAULT_SUBJECT = "mailto:dugout@localhost"


@register()
def vapid_keys_check(app_configs, **kwargs):
    if not settings.VAPID_PRIVATE_KEY:
        return []
    try:
        public = public_key_of(settings.VAPID_PRIVATE_KEY)
    except ValueError as exc:
        return [Error(f"VAPID_PRIVATE_KEY cannot sign: {exc}", id="notifications.E001")]
    if public != settings.VAPID_PUBLIC_KEY:
        return [
            Error(
                "VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY.",
                hint="Leave VAPID_PUBLIC_KEY unset to have it derived from the private key.",
                id="notifications.E002",
            )
        ]
    if not settings.VAPID_SUBJECT.startswith(("mailto:", "https:")):
        return [Error("VAPID_SUBJECT must be a mailto: or https: address.", id="notifications.E003")]
    return []


@register(deploy=True)
def push_deploy_check(app_configs, **kwargs):
    if not settings.VAPID_PRIVATE_KEY:
        return [
            Info(
                "Web Push is off: VAPID_PRIVATE_KEY is not set (push deliveries fail with that reason).",
                hint="Set VAPID_PRIVATE_KEY (docs/deploy.md, Settings).",
                id="notifications.I001",
            )
        ]
    if settings.VAPID_SUBJECT == DEFAULT_SUBJECT:
        return [
            Warning(
                "VAPID_SUBJECT is the development address: push services may refuse it.",
                hint="Set VAPID_SUBJECT to mailto:<the operator's address>.",
                id="notifications.W001",
            )
        ]
    return []
