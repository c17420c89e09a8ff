"""The front door: the home page (every league), logging in through the log-in guard (landing on `/me/` when
something waits for the user), signing up (throttled per client address), and getting back in by a password
reset (league/password_reset.py)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse_lazy
from django.utils.translation import gettext

from dugout.actions import user_actions
from dugout.web.forms import GuardedAuthenticationForm, PasswordResetAskForm, SignUpForm
from dugout.web.views import list_page
from league.logins import login_client_address
from league.password_reset import ResetRefused, password_reset_complete, password_reset_request
from league.selectors import league_list
from league.signups import SignupWait, signup_abandon, signup_begin

#: Leagues a page of the home page lists.
HOME_PAGE = 50


def home(request: HttpRequest) -> HttpResponse:
    """Every league, `HOME_PAGE` a page (two queries whatever their number; a page that is not one is a 404)."""
    page = list_page(request, Paginator(league_list(), HOME_PAGE))
    return render(request, "home.html", {"leagues": page.object_list, "page": page})


def invalid(response: HttpResponse) -> HttpResponse:
    """A Django auth view's answer to a form with errors, answered 400 as every page's refused input is: the form
    again, its errors in words, nothing changed."""
    response.status_code = 400
    return response


class ThrottledLoginView(auth_views.LoginView):
    """Log in through the same log-in guard as the API's token endpoint (league/logins.py): a waiting attempt
    is answered 429, saying when to try again, before its password is checked."""

    authentication_form = GuardedAuthenticationForm

    def get_default_redirect_url(self):
        """Without an explicit `next`: his home (`/me/`) when anything waits for him — what to do first is
        there — else the usual landing page."""
        if user_actions(user=self.request.user):
            return resolve_url("me")
        return super().get_default_redirect_url()

    def form_invalid(self, form):
        if form.lockout is None:
            return invalid(super().form_invalid(form))
        response = render(self.request, "registration/throttled.html", {"lockout": form.lockout}, status=429)
        response["Retry-After"] = str(form.lockout.retry_after())
        return response


def signup(request: HttpRequest) -> HttpResponse:
    if not settings.OPEN_REGISTRATION:
        return render(request, "registration/closed.html", status=403)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        attempt = signup_begin(address=login_client_address(request))
        if isinstance(attempt, SignupWait):
            response = render(request, "registration/signup_throttled.html", {"wait": attempt}, status=429)
            response["Retry-After"] = str(attempt.retry_after())
            return response
        try:
            user = form.save()
        except BaseException:
            signup_abandon(attempt=attempt)
            raise
        login(request, user)
        messages.success(request, f"Welcome to Dugout, {user.username}!")
        return redirect("home")
    status = 400 if request.method == "POST" else 200  # the form again with its errors: no account was made
    return render(request, "registration/signup.html", {"form": form}, status=status)


def password_reset(request: HttpRequest) -> HttpResponse:
    """`/password-reset/`: ask for a link by e-mail. Whether or not an account has the address, the next page is
    the same (no account enumeration)."""
    form = PasswordResetAskForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        password_reset_request(email=form.cleaned_data["email"])
        return redirect("password_reset_done")
    status = 400 if request.method == "POST" else 200  # the form again with its errors: nothing was sent
    return render(request, "registration/password_reset_form.html", {"form": form}, status=status)


def password_reset_done(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/password_reset_done.html")


class PasswordResetConfirmPage(auth_views.PasswordResetConfirmView):
    """The mailed link: Django's page (the token moves from the address into the session, so it never leaks in a
    Referer), saved through the same service as the API's, which uses the token once and lifts the log-in
    guard's lock for the owner."""

    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("password_reset_complete")

    def form_invalid(self, form):
        return invalid(super().form_invalid(form))

    def form_valid(self, form):
        try:
            password_reset_complete(
                uidb64=self.kwargs["uidb64"],
                token=self.request.session.get(auth_views.INTERNAL_RESET_SESSION_TOKEN, ""),
                new_password=form.cleaned_data["new_password1"],
                address=login_client_address(self.request),
            )
        except ResetRefused as refused:
            for message in (m for messages_ in refused.errors.values() for m in messages_):
                form.add_error(None, message)
            return self.form_invalid(form)
        del self.request.session[auth_views.INTERNAL_RESET_SESSION_TOKEN]
        return HttpResponseRedirect(self.get_success_url())


def password_reset_complete_page(request: HttpRequest) -> HttpResponse:
    messages.success(request, gettext("Your password is set. Log in with it now."))
    return redirect("login")
