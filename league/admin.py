from django.contrib import admin

from league.models import (
    IdempotencyRecord,
    Invitation,
    League,
    LoginAttempt,
    Membership,
    Stadium,
    league_activity_changed,
)
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

    list_display = ["at", "username_norm", "address", "succeeded"]
    list_filter = ["succeeded"]
    search_fields = ["username_norm", "address"]
    readonly_fields = [f.name for f in LoginAttempt._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
