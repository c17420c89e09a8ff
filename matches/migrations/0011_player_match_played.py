"""Every player who played a final match gets his per-match row, a stat line or not.

Rows used to be written only for the players a result named (a stat line, an MVP), so a player who played and
scored nothing did not count the match in his career, seasons, history or season tally. The services now write
a row for every player the ruleset says played (`Ruleset.match_players`); this backfills the final matches
confirmed before, from what each side kept of its team as it stood before the match (its snapshot's players
and their statuses) and the result line (a Bone Cruncher squad), asking the league's ruleset the same question.
A side without a snapshot of its players (none is known to exist) is left as it is. The rows added are the
ruleset's row of a player with no stat line; the leagues changed have their season tallies summed again from
their rows, as `matches.tally.tally_rebuild` does.
"""

from django.db import migrations, models

CHUNK = 500


def _rules_of(league, cache):
    """(the league's ruleset, its effective house rules), read once per league."""
    if league.pk not in cache:
        from campaigns import house_rules
        from campaigns.rulesets import get_ruleset

        rules = get_ruleset(league.ruleset)
        cache[league.pk] = (rules, house_rules.merge(rules.default_house_rules(), league.house_rules_overrides))
    return cache[league.pk]


def played_rows(apps, schema_editor):
    from campaigns.rulesets.base import PlayerState

    Match = apps.get_model("matches", "Match")
    MatchTeam = apps.get_model("matches", "MatchTeam")
    PlayerMatch = apps.get_model("matches", "PlayerMatch")
    PlayerSeason = apps.get_model("matches", "PlayerSeason")
    Player = apps.get_model("teams", "Player")

    leagues = {}
    changed_leagues = set()
    ids = list(Match.objects.filter(status="final").order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        matches = {m.pk: m for m in Match.objects.filter(pk__in=chunk).select_related("league")}
        sides = list(MatchTeam.objects.filter(match_id__in=chunk).order_by("match_id", "order"))
        have = set(PlayerMatch.objects.filter(match_id__in=chunk).values_list("match_id", "player_id"))
        wanted = []
        for side in sides:
            match = matches[side.match_id]
            snapshot_players = (side.snapshot or {}).get("players")
            if not isinstance(snapshot_players, list):
                continue
            rules, hr = _rules_of(match.league, leagues)
            states = tuple(
                PlayerState(id=p["id"], position="", status=p.get("status", "active"), value=p.get("value") or 0)
                for p in snapshot_players
                if isinstance(p, dict) and isinstance(p.get("id"), int)
            )
            lines = (match.result or {}).get("teams", [])
            line = next((t for t in lines if isinstance(t, dict) and t.get("team") == side.team_id), {})
            for player_id in sorted(rules.match_players(states, line=line, hr=hr)):
                if (match.pk, player_id) not in have:
                    have.add((match.pk, player_id))
                    wanted.append((match, side.team_id, player_id))
        existing = set(Player.objects.filter(pk__in={w[2] for w in wanted}).values_list("pk", flat=True))
        rows = []
        for match, team_id, player_id in wanted:
            if player_id not in existing:
                continue  # a player deleted since (he can have no row)
            rules, hr = _rules_of(match.league, leagues)
            row = rules.player_match_row({}, mvp=False, hr=hr)
            rows.append(PlayerMatch(match_id=match.pk, team_id=team_id, player_id=player_id, **row))
            changed_leagues.add(match.league_id)
        PlayerMatch.objects.bulk_create(rows, batch_size=1000)

    for league_id in sorted(changed_leagues):
        PlayerSeason.objects.filter(league_id=league_id).delete()
        sums = (
            PlayerMatch.objects.filter(match__league_id=league_id, match__status="final")
            .order_by()
            .values("player_id", season=models.F("match__season"))
            .annotate(
                matches=models.Count("id"),
                touchdowns=models.Sum("touchdowns"),
                casualties=models.Sum("casualties"),
                goal_points=models.Sum("goal_points"),
            )
        )
        PlayerSeason.objects.bulk_create(
            (PlayerSeason(league_id=league_id, **row) for row in sums.iterator()), batch_size=1000
        )


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0010_player_season_tally"),
    ]

    operations = [
        migrations.RunPython(played_rows, migrations.RunPython.noop),
    ]
