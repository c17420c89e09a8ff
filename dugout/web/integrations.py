"""The account page's private calendar and Discord parts, and the commissioner's Discord panel.

The account page (`/account/`) includes `account/_calendar.html` and `account/_discord.html` with the context
`account_integrations(request)` gives; their forms post here: by htmx the part comes back in place (the new
calendar URL, the link code shown once), without a script back to the page they came from (`next`) with the
news in a message. The commissioner's panel (`league/_discord.html`, on his dashboard by htmx) takes the
application's id and public key and shows the interactions URL to paste in Discord's developer portal. Thin
views over league/calendar_feeds.py and league/discord.py (which ask the policy)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.pages import refusals
from dugout.api.calendar import feed_url
from dugout.api.discord import interactions_url
from dugout.web.desk import commissioner_page
from league.calendar_feeds import calendar_feed_rotate, calendar_feed_token
from league.discord import CODE_TTL, discord_code_create, discord_configure, discord_link_of, discord_unlink
from league.models import DiscordApplication, League


def _discord_context(request: HttpRequest, code: str | None = None) -> dict:
    """`account/_discord.html`'s context: the user's link (or None) and the code he just asked for (one query)."""
    minutes = int(CODE_TTL.total_seconds() // 60)
    return {"discord_link": discord_link_of(user=request.user), "discord_code": code, "discord_code_minutes": minutes}


def account_integrations(request: HttpRequest) -> dict:
    """The two account parts' context: the private calendar's URL (`account/_calendar.html`) and the user's Discord
    link (`account/_discord.html`). Two queries, no write (his feed's salt; his link)."""
    return {"calendar_url": feed_url(request, calendar_feed_token(user=request.user)), **_discord_context(request)}


def _back(request: HttpRequest) -> HttpResponse:
    """Back to the page the form was on (its `next`, when it is one of this site's), else `/account/`."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return redirect(target)
    return redirect("account")


@login_required
@require_POST
def account_calendar_rotate(request: HttpRequest) -> HttpResponse:
    """A new private calendar URL; the old one ends."""
    token = calendar_feed_rotate(user=request.user)
    if request.htmx:
        return render(request, "account/_calendar.html", {"calendar_url": feed_url(request, token)})
    messages.success(request, _("Your calendar has a new address: the old one no longer works."))
    return _back(request)


@login_required
@require_POST
def account_discord(request: HttpRequest) -> HttpResponse:
    """`action=code`: a new link code (shown once); `action=unlink`: end the tie with his Discord user."""
    code = None
    if request.POST.get("action") == "unlink":
        if discord_unlink(user=request.user):
            messages.success(request, _("Your Discord user no longer acts as you in Dugout."))
    else:
        code, _expires_at = discord_code_create(user=request.user)
    if request.htmx:
        return render(request, "account/_discord.html", _discord_context(request, code))
    if code is not None:
        messages.success(
            request, _("Send /link code:%(code)s in your league's Discord within 10 minutes.") % {"code": code}
        )
    return _back(request)


@commissioner_page
def desk_discord(request: HttpRequest, league: League) -> HttpResponse:
    """GET: the Discord panel (htmx) or page. POST `application_id`, `public_key`: connect the league, then the
    panel again (the refusal in words, 400, nothing changed) or the dashboard."""
    status, typed = 200, None
    if request.method == "POST":
        with refusals(request) as outcome:
            discord_configure(
                user=request.user,
                league_id=league.pk,
                application_id=request.POST.get("application_id", ""),
                public_key=request.POST.get("public_key", ""),
            )
            messages.success(request, _("The league answers its Discord application now."))
        if not request.htmx:
            return redirect("commissioner-dashboard", league_id=league.pk)
        status = outcome.status
        if outcome:  # the form again as he typed it, to correct
            typed = {
                "application_id": request.POST.get("application_id", ""),
                "public_key": request.POST.get("public_key", ""),
            }
    application = DiscordApplication.objects.filter(league=league).first()
    context = {
        "league": league,
        "application": application,
        "typed": typed
        or {
            "application_id": getattr(application, "application_id", ""),
            "public_key": getattr(application, "public_key", ""),
        },
        "interactions_url": interactions_url(request, league.pk),
        "dashboard_url": reverse("commissioner-dashboard", args=[league.pk]),
    }
    template = "league/_discord.html" if request.htmx else "league/discord.html"
    return render(request, template, context, status=status)
