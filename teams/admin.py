from django.contrib import admin

from league.models import league_table_changed
from league.versioned_admin import LeagueVersionsAdmin

from .models import LedgerEntry, Player, Position, Roster, Sponsorship, Team, Transfer


class PositionInline(admin.TabularInline):
    model = Position
    extra = 0


@admin.register(Roster)
class RosterAdmin(admin.ModelAdmin):
    """The commissioner extends and edits the rulesets' rosters here."""

    list_display = ["name", "ruleset", "key"]
    list_filter = ["ruleset"]
    inlines = [PositionInline]


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["number", "name", "position", "status", "role", "value"]
    raw_id_fields = ["position"]


@admin.register(Team)
class TeamAdmin(LeagueVersionsAdmin):
    """Team names are in the league table and the league page's fixtures and results: a rename, move or deletion
    here gives the league(s) a new table version (and with it a new activity version), as the services do
    (matches/standings.py)."""

    list_display = ["name", "league", "coach", "roster", "rerolls", "fan_factor"]
    list_filter = ["league"]
    search_fields = ["name"]
    inlines = [PlayerInline]
    league_changed = staticmethod(league_table_changed)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "position", "status", "value"]
    list_filter = ["status"]
    search_fields = ["name"]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    """Read-only: gil moves through services only, never by editing history."""

    list_display = ["team", "account", "sequence", "amount", "balance_after", "reason", "created_at"]
    list_filter = ["account", "kind"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


admin.site.register(Sponsorship)


@admin.register(Transfer)
class TransferAdmin(admin.ModelAdmin):
    list_display = ["player", "from_team", "to_team", "price", "status", "created_at"]
    list_filter = ["status"]
