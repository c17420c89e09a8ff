"""A signed-in coach's own account: `/account/` (his notification choices, this browser's pushes, his private
calendar and his Discord link), his API tokens (listed, revoked one by one or all) and his password."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.pages import refusals
from dugout.web.auth import invalid
from dugout.web.forms import TokenRevokeForm
from dugout.web.integrations import account_integrations
from dugout.web.notifications import NotificationSettingsForm, account_context
from league.tokens import token_revoke, token_revoke_all, user_tokens
from notifications.services import notification_settings_save

#: How much of a token the page shows: enough to tell tokens apart, far too little to use one.
SHOWN_CHARACTERS = 8


def account_page_render(request: HttpRequest, *, form: NotificationSettingsForm | None = None, status: int = 200):
    context = {**account_context(request, form), **account_integrations(request)}
    return render(request, "account/account.html", context, status=status)


@login_required
def account_page(request: HttpRequest) -> HttpResponse:
    """`/account/`: the notification choices (a kind × channel table of checkboxes and the digest, a plain form),
    this browser's pushes (static/js/push.js), then the optional sections and links to tokens and password."""
    return account_page_render(request)


@login_required
@require_POST
def account_notifications(request: HttpRequest) -> HttpResponse:
    """Save `/account/`'s notification form (it works without a script); a refused one is the page again, 400,
    the refusal next to what it names, nothing saved."""
    form = NotificationSettingsForm(request.POST)
    if form.is_valid():
        with refusals(request, form=form) as refused:
            notification_settings_save(user=request.user, kinds=form.kinds(), digest=form.cleaned_data["digest"])
        if not refused:
            messages.success(request, _("Your notification choices are saved."))
            return redirect(reverse("account") + "#notifications")
    return account_page_render(request, form=form, status=400)


@login_required
def account_tokens(request: HttpRequest) -> HttpResponse:
    """`/account/tokens/`: the coach's API tokens that still authenticate, newest first; revoke one or all."""
    if request.method == "POST":
        form = TokenRevokeForm(request.POST)
        if not form.is_valid():
            for error in form.non_field_errors() or ["That is not one of your tokens."]:
                messages.error(request, error)
        elif form.cleaned_data["everything"]:
            count = token_revoke_all(user=request.user)
            messages.success(request, f"All your API tokens are revoked ({count}).")
        elif token_revoke(user=request.user, digest=form.cleaned_data["digest"]):
            messages.success(request, "The token is revoked: it no longer works.")
        else:
            messages.error(request, "That token is not yours, or has already ended.")
        return redirect("account-tokens")
    tokens = [
        {
            "shown": token.token_key[:SHOWN_CHARACTERS],
            "created": token.created,
            "expiry": token.expiry,
            "digest": token.digest,
        }
        for token in user_tokens(user=request.user)
    ]
    return render(request, "account/tokens.html", {"tokens": tokens})


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change (old password, then the new one twice, checked by the validators). Saving it
    ends every API token of the coach (league/tokens.py); this browser session stays signed in."""

    template_name = "account/password_change.html"
    success_url = reverse_lazy("account-tokens")

    def form_invalid(self, form):
        return invalid(super().form_invalid(form))

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, "Your password is changed. Every API token you held has ended.")
        return response
