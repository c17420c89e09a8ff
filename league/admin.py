from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from league.models import (
    IdempotencyRecord,
    Invitation,
    League,
    LoginAttempt,
    Membership,
    PasswordResetMail,
    SignupAttempt,
    Stadium,
    league_activity_changed,
)
from league.password_reset import password_reset_resend
from league.versioned_admin import LeagueVersionsAdmin


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


class StadiumInline(admin.TabularInline):
    model = Stadium
    extra = 0


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "ruleset", "created_by", "open_registration", "created_at"]
    list_filter = ["ruleset"]
    search_fields = ["name"]
    inlines = [MembershipInline, StadiumInline]

    # The league page's panels show its stadiums' names and its report settings: an edit here (the league, or
    # its stadiums inline) gives it a new activity version, as the services do (dugout/web/views.py).
    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        league_activity_changed(form.instance.pk)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Read here, answered only by the invited user (his consent): nothing is editable."""

    list_display = ["league", "user", "role", "state", "invited_by", "created_at", "answered_at"]
    list_filter = ["state", "role"]
    readonly_fields = ["league", "user", "role", "invited_by", "state", "created_at", "answered_at"]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["league", "user", "role"]
    list_filter = ["role"]


@admin.register(Stadium)
class StadiumAdmin(LeagueVersionsAdmin):
    list_display = ["name", "league", "special_attribute"]
    # Stadium names are in the league page's fixtures and results.
    league_changed = staticmethod(league_activity_changed)


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["key", "status_code", "created_at"]
    readonly_fields = [f.name for f in IdempotencyRecord._meta.fields]


@admin.register(LoginAttempt)
class LoginAttemptAdmin(admin.ModelAdmin):
    """Read-only: the log-in guard's own record (league/logins.py), pruned by age."""

    list_display = ["at", "username_norm", "address", "succeeded", "via_reset"]
    list_filter = ["succeeded", "via_reset"]
    search_fields = ["username_norm", "address"]
    readonly_fields = [f.name for f in LoginAttempt._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PasswordResetMail)
class PasswordResetMailAdmin(admin.ModelAdmin):
    """The password-reset outbox (league/password_reset.py), read-only: filter on `failed` to see the mails that
    did not go out and why; "send again" queues chosen failed ones once more (a new link each)."""

    list_display = ["created_at", "user", "email", "state", "sent_at", "error"]
    list_filter = ["state"]
    search_fields = ["email", "user__username"]
    readonly_fields = [f.name for f in PasswordResetMail._meta.fields]
    actions = ["send_again"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.action(description=_("Send the chosen failed mails again"), permissions=["view"])
    def send_again(self, request, queryset):
        count = password_reset_resend(mail_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(
            request,
            ngettext("%(count)d failed mail queued again.", "%(count)d failed mails queued again.", count)
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(SignupAttempt)
class SignupAttemptAdmin(admin.ModelAdmin):
    """Read-only: the sign-up throttle's own record (league/signups.py), pruned by age."""

    list_display = ["at", "address"]
    search_fields = ["address"]
    readonly_fields = [f.name for f in SignupAttempt._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
