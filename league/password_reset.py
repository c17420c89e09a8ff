"""Getting back into an account: a password reset by e-mail (api-v1 v1.2 "Accounts"), for the API and the pages.

Asking (`password_reset_request`) answers the same whether or not an account has the address (no account
enumeration): each active account with that address gets one outbox row (`PasswordResetMail`), at most
`per_address` (3) an hour per address, so nobody can flood a mailbox through the form. After the request commits
a Celery task mails each row at most once, as the weekly report's outbox does (dugout/reports/services.py): the row is
claimed by one worker with a conditional update, mailed, then marked sent; a refused mail is marked failed with
its reason, and a row a dead worker left `sending` is marked failed by the sweep, never resent by itself (it may
have gone out). The admin lists failed mails and can send one again.

The link is made when the mail is sent (Django's PasswordResetTokenGenerator, valid `PASSWORD_RESET_TIMEOUT`, one
hour): no token is stored. It works once: the token is a hash over the password, which the reset changes, and
completing it locks the user's row, so two racing uses cannot both succeed. Completing a reset
(`password_reset_complete`) sets the password (every API token ends, league/tokens.py) and, being proof of the
mailbox, lets the owner past the log-in guard's account lock (league/logins.py).
"""

from __future__ import annotations

import logging
import unicodedata
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext

from league.logins import login_reset_completed
from league.models import PasswordResetMail

log = logging.getLogger(__name__)
State = PasswordResetMail.State

TASK = "dugout.tasks.password_reset_send"
MAIL_SUBJECT, MAIL_BODY = "registration/password_reset_subject.txt", "registration/password_reset_email.txt"
DEFAULTS = {
    "per_address": 3,
    "window": timedelta(hours=1),
    # A row still pending this long after it was written was missed by the queue: the sweep queues it.
    "queue_missed_after": timedelta(minutes=2),
    # A row no worker has mailed within this long is failed instead (the link would surprise a day later).
    "give_up_after": timedelta(days=1),
    # A row `sending` this long lost its worker (well above the task's time limit).
    "stuck_after": timedelta(minutes=15),
}


def _config() -> dict:
    return {**DEFAULTS, **getattr(settings, "PASSWORD_RESET_THROTTLE", {})}


class ResetRefused(Exception):
    """A reset that cannot complete, in the API's error shape: `{field: [message, ...]}`."""

    def __init__(self, errors: dict[str, list[str]]):
        super().__init__(errors)
        self.errors = errors


def email_norm(email: str) -> str:
    """The key an address is throttled under: NFKC and case-folded, as Django compares addresses for a reset."""
    return unicodedata.normalize("NFKC", email).casefold()[:254]


def password_reset_request(*, email: str) -> int:
    """Write a pending mail for each active account with `email` (within the address's hourly limit) and queue
    them after the caller's transaction commits. How many were written; the caller answers the same anyway."""
    config, now, norm = _config(), timezone.now(), email_norm(email)
    written = []
    for user in PasswordResetForm().get_users(email):
        mail = PasswordResetMail.objects.create(user=user, email=user.email, email_norm=norm)
        # Counted after the write, racing requests' rows included: none can slip past the limit.
        counted = (
            PasswordResetMail.objects.filter(email_norm=norm, created_at__gt=now - config["window"])
            .exclude(state=State.FAILED)  # a mail that never arrived does not use up the address's allowance
            .count()
        )
        if counted > config["per_address"]:
            mail.delete()
            log.info("password reset for user %s not mailed: %s mails to that address this hour", user.pk, counted)
            continue
        written.append(mail.pk)
    if written:
        transaction.on_commit(lambda: password_reset_queue(written))
    return len(written)


def password_reset_queue(mail_ids: list[int]) -> bool:
    """Queue the mailing task for these rows; with the broker down they stay pending for the sweep."""
    try:
        current_app.send_task(TASK, args=[mail_ids], retry=False)
    except Exception:  # any broker failure: the rows are kept, the sweep queues them
        log.warning("password reset mails %s not queued", mail_ids, exc_info=True)
        return False
    return True


def password_reset_send(*, mail_ids: list[int], base_url: str) -> int:
    """Mail each pending row among `mail_ids`, never twice: claimed with a conditional update (one winner among
    any number of workers), committed, mailed, then marked sent or failed. How many were sent now."""
    sent = 0
    for mail in PasswordResetMail.objects.filter(pk__in=mail_ids, state=State.PENDING).select_related("user"):
        claimed = PasswordResetMail.objects.filter(pk=mail.pk, state=State.PENDING).update(
            state=State.SENDING, claimed_at=timezone.now()
        )
        if not claimed:
            continue  # another worker has it
        try:
            _message(mail, base_url).send()
        except TimeoutError:
            # The server may have taken it: left `sending`, the sweep marks it failed without resending.
            log.error("password reset mail %s timed out: it may or may not have gone out", mail.pk)
            continue
        except Exception as exc:
            PasswordResetMail.objects.filter(pk=mail.pk).update(state=State.FAILED, error=f"refused: {exc!r}"[:2000])
            log.error("password reset mail %s to user %s failed", mail.pk, mail.user_id, exc_info=True)
            continue
        PasswordResetMail.objects.filter(pk=mail.pk).update(state=State.SENT, sent_at=timezone.now())
        sent += 1
    return sent


def _message(mail: PasswordResetMail, base_url: str) -> EmailMessage:
    user = mail.user
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    link = base_url + reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
    context = {
        "user": user,
        "link": link,
        "uid": uid,
        "token": token,
        "hours": settings.PASSWORD_RESET_TIMEOUT // 3600,
        "base_url": base_url,
    }
    subject = "".join(render_to_string(MAIL_SUBJECT, context).splitlines())
    return EmailMessage(subject=subject, body=render_to_string(MAIL_BODY, context), to=[mail.email])


def password_reset_sweep() -> dict[str, int]:
    """Queue the rows the broker missed; fail the ones no worker mailed in time and the ones a dead worker left
    `sending` (they may have gone out: not resent, but visible in the admin)."""
    config, now = _config(), timezone.now()
    stale = PasswordResetMail.objects.filter(state=State.PENDING, created_at__lt=now - config["give_up_after"])
    expired = stale.update(state=State.FAILED, error=gettext("Not sent: no worker took it within a day."))
    stuck = PasswordResetMail.objects.filter(state=State.SENDING, claimed_at__lt=now - config["stuck_after"]).update(
        state=State.FAILED,
        error=gettext("A worker claimed it and never recorded the send: it may or may not have gone out."),
    )
    missed = list(
        PasswordResetMail.objects.filter(state=State.PENDING, created_at__lt=now - config["queue_missed_after"])
        .order_by("pk")
        .values_list("pk", flat=True)[:1000]
    )
    if missed:
        password_reset_queue(missed)
    return {"queued": len(missed), "expired": expired, "stuck": stuck}


def password_reset_resend(*, mail_ids: list[int]) -> int:
    """The admin's "send again" for failed rows: pending again, and queued. How many."""
    ids = list(PasswordResetMail.objects.filter(pk__in=mail_ids, state=State.FAILED).values_list("pk", flat=True))
    PasswordResetMail.objects.filter(pk__in=ids, state=State.FAILED).update(
        state=State.PENDING, claimed_at=None, error=""
    )
    if ids:
        transaction.on_commit(lambda: password_reset_queue(ids))
    return len(ids)


def password_reset_user(uidb64: str):
    """The user a link's `uid` names, or None."""
    try:
        pk = int(force_str(urlsafe_base64_decode(uidb64)))
    except (TypeError, ValueError, OverflowError, UnicodeDecodeError):
        return None
    return get_user_model().objects.filter(pk=pk).first()


def password_reset_complete(*, uidb64: str, token: str, new_password: str, address: str):
    """Set the password of the user the link names if the token is still good (once: it is checked under the
    user's row lock and the new password ends it), lift the log-in guard's lock for him, and return him.
    Raises ResetRefused, changing nothing, for a bad or used link or a password the validators refuse."""
    user = password_reset_user(uidb64)
    invalid = ResetRefused(
        {"token": [gettext("This reset link is invalid, expired or used already. Ask for a new one.")]}
    )
    if user is None or not user.is_active:
        raise invalid
    with transaction.atomic():
        user = type(user).objects.select_for_update().get(pk=user.pk)
        if not default_token_generator.check_token(user, token):
            raise invalid
        try:
            password_validation.validate_password(new_password, user)
        except ValidationError as exc:
            raise ResetRefused({"new_password": list(exc.messages)}) from exc
        user.set_password(new_password)
        user.save(update_fields=["password"])  # ends every API token of the user (league/tokens.py)
        login_reset_completed(username=user.get_username(), address=address)
    return user
