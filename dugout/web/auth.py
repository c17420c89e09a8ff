"""The front door: the home page (every league), logging in through the log-in guard, and signing up."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from dugout.web.forms import GuardedAuthenticationForm, SignUpForm
from dugout.web.views import list_page
from league.selectors import league_list

#: Leagues a page of the home page lists.
HOME_PAGE = 50


def home(request: HttpRequest) -> HttpResponse:
    """Every league, `HOME_PAGE` a page (two queries whatever their number; a page that is not one is a 404)."""
    page = list_page(request, Paginator(league_list(), HOME_PAGE))
    return render(request, "home.html", {"leagues": page.object_list, "page": page})


class ThrottledLoginView(auth_views.LoginView):
    """Log in through the same log-in guard as the API's token endpoint (league/logins.py): a waiting attempt
    is answered 429, saying when to try again, before its password is checked."""

    authentication_form = GuardedAuthenticationForm

    def form_invalid(self, form):
        if form.lockout is None:
            return super().form_invalid(form)
        response = render(self.request, "registration/throttled.html", {"lockout": form.lockout}, status=429)
        response["Retry-After"] = str(form.lockout.retry_after())
        return response


def signup(request: HttpRequest) -> HttpResponse:
    if not settings.OPEN_REGISTRATION:
        return render(request, "registration/closed.html", status=403)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, f"Welcome to Dugout, {user.username}!")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})
