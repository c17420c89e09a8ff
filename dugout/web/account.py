"""A signed-in coach's own account: his API tokens (listed, revoked one by one or all) and his password."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy

from dugout.web.auth import invalid
from dugout.web.forms import TokenRevokeForm
from league.tokens import token_revoke, token_revoke_all, user_tokens

#: How much of a token the page shows: enough to tell tokens apart, far too little to use one.
SHOWN_CHARACTERS = 8


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
