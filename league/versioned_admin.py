"""The admin's side of the exact caches: a model admin whose rows a league's cached documents show gives the
league a new version when it saves, moves or deletes one (matches/standings.py, dugout/web/views.py). Below the
wiring, so every app's admin can use it."""

from __future__ import annotations

from django.contrib import admin

from league.models import league_table_changed


class LeagueVersionsAdmin(admin.ModelAdmin):
    """The admin of a model whose rows a league's cached documents show: saving, moving or deleting one calls
    `league_changed` with its league(s) (`league_table_changed` or `league_activity_changed`), as the services
    do, in the admin's own transaction."""

    league_changed = staticmethod(league_table_changed)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        for league_id in {obj.league_id, form.initial.get("league")} - {None}:
            self.league_changed(league_id)

    def delete_queryset(self, request, queryset):
        league_ids = set(queryset.values_list("league_id", flat=True))
        super().delete_queryset(request, queryset)
        for league_id in league_ids:
            self.league_changed(league_id)

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        self.league_changed(obj.league_id)
