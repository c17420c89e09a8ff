"""Forms of the web pages. They only shape input; the services decide."""

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from campaigns.rulesets import CHOICES as RULESET_CHOICES
from league.logins import Lockout, login_attempt_begin, login_attempt_succeeded, login_client_address
from league.models import League


class GuardedLoginMixin:
    """A log-in form asking the log-in guard (league/logins.py) before the password is checked: a waiting
    attempt leaves `lockout` set (the log-in page answers 429) and its password unread."""

    lockout: Lockout | None = None

    def clean(self):
        username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if not (username and password):
            return super().clean()
        attempt = login_attempt_begin(username=username, address=login_client_address(self.request))
        if isinstance(attempt, Lockout):
            self.lockout = attempt
            raise forms.ValidationError(attempt.message, code="throttled")
        cleaned = super().clean()  # a wrong password raises here, and the attempt stays a failure
        login_attempt_succeeded(attempt=attempt)
        return cleaned


class GuardedAuthenticationForm(GuardedLoginMixin, AuthenticationForm):
    """The `/login/` page's form."""


class GuardedAdminAuthenticationForm(GuardedLoginMixin, AdminAuthenticationForm):
    """The admin's log-in form: the same guard, so `/admin/login/` is no side door for a guesser."""


class PasswordResetAskForm(forms.Form):
    """The `/password-reset/` page's form: the address the link goes to."""

    email = forms.EmailField(label=_("Your e-mail address"), max_length=254)


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=False)

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=100)
    ruleset = forms.ChoiceField(choices=RULESET_CHOICES)


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=[("coach", "Coach"), ("commissioner", "Commissioner")])
    reason = forms.CharField(label="Reason (optional, kept in the audit)", max_length=500, required=False)


class HouseRulesForm(forms.Form):
    """Overrides as JSON: only the keys that differ from the ruleset's defaults."""

    overrides = forms.JSONField(
        widget=forms.Textarea(attrs={"rows": 12, "cols": 70, "spellcheck": "false"}),
        help_text='For example {"starting_treasury": 150000, "staff": {"cheerleader": {"price": 2000}}}',
    )
    reason = forms.CharField(label="Reason (optional, kept in the audit)", max_length=500, required=False)


class StadiumForm(forms.Form):
    name = forms.CharField(max_length=100)
    special_attribute = forms.CharField(max_length=100, required=False)


class ReportSettingsForm(forms.ModelForm):
    """When the weekly report is written: day and hour in the league's own time zone."""

    class Meta:
        model = League
        fields = ["reports_enabled", "report_weekday", "report_hour", "timezone"]
        labels = {"reports_enabled": "Write a weekly report", "report_weekday": "Day", "report_hour": "Hour (0–23)"}
        help_texts = {"timezone": "e.g. Europe/London, America/New_York, UTC"}


class TokenRevokeForm(forms.Form):
    """Which of his API tokens a coach ends: one (by its digest, knox's key for the row) or all."""

    digest = forms.CharField(max_length=128, required=False)
    everything = forms.BooleanField(required=False)

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("digest") and not cleaned.get("everything"):
            raise forms.ValidationError("Choose a token to revoke, or revoke them all.")
        return cleaned
