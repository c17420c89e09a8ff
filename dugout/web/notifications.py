"""The signed-in user's notifications as pages: the list (`/notifications/`, newest first, paged, the unread ones
marked), opening one (marks it read and goes where it says), marking all read, the header's unread badge (a
fragment htmx fetches after the page, so no page pays its query), and the settings form of `/account/`."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from core.pages import refusals
from dugout.web.views import list_page
from notifications import selectors, services
from notifications.kinds import CHANNELS, DIGEST_DAILY, DIGEST_OFF, EMAIL, KINDS, PUSH
from notifications.models import Notification

#: Notifications a page of the list shows.
LIST_PAGE = 25
#: The words of each channel's column and of each digest choice.
CHANNEL_LABELS = {EMAIL: gettext_lazy("E-mail"), PUSH: gettext_lazy("Push")}
DIGEST_CHOICES = [
    (DIGEST_OFF, gettext_lazy("Each e-mail as it happens")),
    (DIGEST_DAILY, gettext_lazy("One e-mail a day with everything (a daily digest)")),
]


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    """`/notifications/` (`?unread=1`: only the unread ones): four queries for any page of any length."""
    unread = request.GET.get("unread") == "1"
    page = list_page(request, Paginator(selectors.notifications_of(request.user, unread=unread), LIST_PAGE))
    return render(request, "notifications/list.html", {"page": page, "unread_only": unread})


@login_required
@require_GET
def notification_open(request: HttpRequest, pk: int) -> HttpResponse:
    """Open one notification: it is marked read, and the browser goes to its page (a path on this site; anything
    else goes back to the list). Another user's notification is a 404. A link, not a form, so it opens in a new
    tab too; marking read twice keeps the first time."""
    note = get_object_or_404(Notification.objects.filter(user=request.user), pk=pk)
    services.notification_mark_read(user=request.user, notification_id=note.pk)
    target = note.url
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False):
        target = reverse("notifications")
    return redirect(target)


@login_required
@require_POST
def notifications_read_all(request: HttpRequest) -> HttpResponse:
    """Mark every unread notification read, then back to the list."""
    with refusals(request) as refused:
        marked = services.notifications_mark_all_read(user=request.user)
    if not refused:
        messages.success(request, _("Marked %(n)d notifications read.") % {"n": marked})
    return redirect("notifications")


@never_cache
@require_GET
def notification_count(request: HttpRequest) -> HttpResponse:
    """The header's badge: the unread count as a fragment (empty when none, or signed out), one indexed count.
    Fetched by htmx once the page has loaded and after a write the page made through htmx."""
    count = selectors.unread_count(request.user) if request.user.is_authenticated else 0
    return render(request, "notifications/_count.html", {"unread": count})


class NotificationSettingsForm(forms.Form):
    """`/account/`'s notification choices: a checkbox per kind and channel (`<kind>-<channel>`: unticked is off),
    and the digest. It only shapes the input; notifications/services.py decides."""

    digest = forms.ChoiceField(choices=DIGEST_CHOICES, widget=forms.RadioSelect, label=gettext_lazy("E-mails"))

    def __init__(self, *args, current: dict | None = None, **kwargs):
        if current is not None:
            kwargs.setdefault("initial", self.initial_of(current))
        super().__init__(*args, **kwargs)
        for kind in KINDS.values():
            for channel in CHANNELS:
                label = f"{kind.label}: {CHANNEL_LABELS[channel]}"
                self.fields[f"{kind.name}-{channel}"] = forms.BooleanField(required=False, label=label)

    @staticmethod
    def initial_of(current: dict) -> dict:
        initial = {"digest": current["digest"]}
        for kind, channels in current["kinds"].items():
            initial.update({f"{kind}-{channel}": on for channel, on in channels.items()})
        return initial

    def kinds(self) -> dict[str, dict[str, bool]]:
        return {k: {c: self.cleaned_data[f"{k}-{c}"] for c in CHANNELS} for k in KINDS}

    def rows(self) -> list[dict]:
        """The table's rows: each kind's words and its channels' checkboxes, in the columns' order."""
        return [
            {"label": kind.label, "name": kind.name, "fields": [self[f"{kind.name}-{c}"] for c in CHANNELS]}
            for kind in KINDS.values()
        ]


def account_context(request: HttpRequest, form: NotificationSettingsForm | None = None) -> dict:
    """What `/account/`'s notification and push sections show."""
    if form is None:
        form = NotificationSettingsForm(current=selectors.notification_settings_of(request.user))
    return {
        "settings_form": form,
        "channel_labels": [CHANNEL_LABELS[c] for c in CHANNELS],
        "push_devices": selectors.push_subscriptions_of(request.user).count(),
    }
