"""Reads of leagues and who may do what in them."""

from __future__ import annotations

import datetime as dt
import json

from django.contrib.auth.models import AbstractBaseUser
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import (
    Aggregate,
    BooleanField,
    Count,
    DateField,
    DateTimeField,
    Exists,
    JSONField,
    OuterRef,
    QuerySet,
    Subquery,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import JSONObject
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from league.models import League, LeagueReport, Membership, Stadium


def league_queryset() -> QuerySet[League]:
    return (
        League.objects.select_related("created_by")
        .annotate(team_count=Count("teams", distinct=True))
        .prefetch_related("memberships__user", "stadiums")
        .order_by("name", "id")
    )


def league_list() -> QuerySet[League]:
    """The home page's leagues: name, game, team count and commissioner in one query (no memberships nor
    stadiums: the list never shows them), in a stable order for its pages."""
    return League.objects.select_related("created_by").annotate(team_count=Count("teams")).order_by("name", "id")


class JsonRows(Aggregate):
    """The rows of a group as one JSON array (PostgreSQL `JSONB_AGG`, SQLite `JSON_GROUP_ARRAY`)."""

    function = "JSONB_AGG"
    output_field = JSONField()

    def as_sqlite(self, compiler, connection, **extra):
        return super().as_sql(compiler, connection, function="JSON_GROUP_ARRAY", **extra)


def json_rows(rows: QuerySet, group: str, **fields) -> Subquery:
    """A correlated subquery folding `rows` (already filtered on an OuterRef) into one JSON array of objects
    of `fields` ({key: column}), grouped on `group` — a few rows of a parent without a query of their own."""
    rows = rows.order_by().values(group).annotate(rows=JsonRows(JSONObject(**fields)))
    return Subquery(rows.values("rows")[:1], output_field=JSONField())


def compiled_once(model, **annotations) -> dict[str, RawSQL]:
    """`annotations` of `model`'s rows compiled to SQL now, on the default database, as `RawSQL` of the same
    output field: a query annotated with them is built again and again (a post-match step's reads), and
    compiling their correlated subqueries, every column of every folded row, was most of its CPU.

    Each must be correlated with `model`'s own columns only (`OuterRef("team_id")`): one correlated through a
    relation (`OuterRef("team__roster_id")`) joins a table to the outer query, which its SQL would name without
    the join; that is refused. The outer query names its table by the table's name, as the SQL does here."""
    connection = connections[DEFAULT_DB_ALIAS]
    out = {}
    for name, expression in annotations.items():
        query = model._base_manager.annotate(**{name: expression}).query
        joined = [alias for alias in query.alias_map if query.alias_refcount[alias]]
        if len(joined) > 1:
            raise ValueError(f"{name}: correlated through a join ({', '.join(joined)}), not compiled")
        annotation = query.annotations[name]
        sql, params = query.get_compiler(connection=connection).compile(annotation)
        out[name] = RawSQL(sql, tuple(params), output_field=annotation.output_field)  # noqa: S611 — Django's SQL
    return out


def _stadiums_json() -> Subquery:
    stadiums = Stadium.objects.filter(league=OuterRef("pk"))
    return json_rows(stadiums, "league", name="name", special_attribute="special_attribute")


def viewer_roles(*, user: AbstractBaseUser, league: str = "pk") -> dict[str, Exists]:
    """Annotations saying which roles `user` holds in the league at `league` (a path from the model
    annotated: "pk" on a league, "league_id" on a match) — none for a visitor, who holds none."""
    if not user.is_authenticated:
        return {}
    return {
        f"viewer_is_{role.value}": Exists(Membership.objects.filter(league=OuterRef(league), user=user, role=role))
        for role in Membership.Role
    }


def hold_viewer_roles(*, league: League, user: AbstractBaseUser, annotated) -> None:
    """Hand the roles `viewer_roles` annotated on `annotated` to `league` as its prefetched `memberships`,
    which the policy predicates answer from without a query (league/policy.py `_holds`).

    Iterated, `league.memberships.all()` is then the viewer's memberships only; filtered further, it is a
    query of the whole league's, as a prefetch's would be."""
    held = Membership.objects.filter(league=league)
    held._result_cache = [
        Membership(league=league, user_id=user.pk, role=role)
        for role in Membership.Role
        if getattr(annotated, f"viewer_is_{role.value}", False)
    ]
    held._prefetch_done = True
    vars(league).setdefault("_prefetched_objects_cache", {})["memberships"] = held


def league_for_viewer(*, pk: int, user: AbstractBaseUser) -> League | None:
    """The league page's league, in ONE query whatever the league's size: its commissioner, its stadiums
    (`stadium_list`, by name: a few rows folded into a JSON array rather than a query of their own) and the
    viewer's roles (`hold_viewer_roles`)."""
    league = (
        League.objects.select_related("created_by")
        .annotate(stadium_json=_stadiums_json(), **viewer_roles(user=user))
        .filter(pk=pk)
        .first()
    )
    if league is not None:
        league.stadium_list = sorted(league.stadium_json or [], key=lambda s: (s["name"], s["special_attribute"]))
        hold_viewer_roles(league=league, user=user, annotated=league)
    return league


def user_is_commissioner(*, user: AbstractBaseUser, league: League) -> bool:
    if not user.is_authenticated:
        return False
    return Membership.objects.filter(league=league, user=user, role=Membership.Role.COMMISSIONER).exists()


def user_is_coach(*, user: AbstractBaseUser, league: League) -> bool:
    if not user.is_authenticated:
        return False
    return Membership.objects.filter(league=league, user=user, role=Membership.Role.COACH).exists()


def league_members(*, league: League) -> QuerySet[Membership]:
    """The league's memberships with their users, by role then user (the model's order), for a page of them."""
    return Membership.objects.filter(league=league).select_related("user").order_by("role", "user")


def league_commissioners(*, league: League) -> list[str]:
    """Usernames of the league's commissioners (uses prefetched memberships)."""
    return sorted(m.user.username for m in league.memberships.all() if m.role == Membership.Role.COMMISSIONER)


def report_queryset(*, league: League) -> QuerySet[LeagueReport]:
    """The league's weekly reports, newest first, without their bodies."""
    fields = ("pk", "week", "season", "created_at", "updated_at", "league_id")
    return league.reports.order_by("-week_start", "-id").only(*fields)


def report_list(*, league: League, limit: int | None = None, season: int | None = None) -> list:
    """The league's weekly reports, newest first, without their bodies (one query); only `season`'s when given."""
    reports = report_queryset(league=league)
    if season is not None:
        reports = reports.filter(season=season)
    return list(reports[:limit] if limit else reports)


def invitations_pending(*, user: AbstractBaseUser) -> QuerySet:
    """The user's invitations still awaiting his answer, newest first, with their leagues (one query)."""
    from league.models import Invitation

    if not user.is_authenticated:
        return Invitation.objects.none()
    return (
        Invitation.objects.filter(user=user, state=Invitation.State.PENDING)
        .select_related("league", "user", "invited_by")
        .order_by("-created_at", "-id")
    )


def league_invitations_pending(*, league: League) -> QuerySet:
    """The league's invitations awaiting an answer (the commissioner's dashboard), with the invited users."""
    from league.models import Invitation

    return league.invitations.filter(state=Invitation.State.PENDING).select_related("user").order_by("created_at")


def json_fields(model, **nested) -> dict:
    """Every column of `model` by its attname, for `json_rows` to fold whole rows (`nested`: more keys, e.g. a
    related row's `json_fields` as a JSONObject); `json_instances` makes them model instances again."""
    return {**{f.attname: f.attname for f in model._meta.concrete_fields}, **nested}


def json_instances(model, rows: list[dict] | None, *, using: str = DEFAULT_DB_ALIAS) -> list:
    """`json_rows`' folded whole rows (`json_fields`) as the model instances a query would have made: JSON's
    text dates parsed (SQLite's naive UTC made aware), SQLite's 0/1 booleans and JSON-as-text decoded."""
    sqlite = connections[using].vendor == "sqlite"
    fields = model._meta.concrete_fields
    names = [f.attname for f in fields]
    return [model.from_db(using, names, [_from_json(f, row[f.attname], sqlite) for f in fields]) for row in rows or ()]


def _from_json(field, value, sqlite: bool):
    if value is None:
        return None
    if isinstance(field, JSONField):
        return json.loads(value) if sqlite and isinstance(value, str) else value
    if isinstance(field, DateTimeField):
        moment = parse_datetime(value)
        return moment if timezone.is_aware(moment) else timezone.make_aware(moment, dt.UTC)
    if isinstance(field, DateField):
        return parse_date(value)
    if isinstance(field, BooleanField):
        return bool(value)
    return value


def league_commissioner_ids(*, league_id: int) -> list[int]:
    """The user ids of the league's commissioners, in one query: who is told of what waits for the league's
    running (a dispute, a request to join)."""
    return list(
        Membership.objects.filter(league_id=league_id, role=Membership.Role.COMMISSIONER)
        .order_by("user_id")
        .values_list("user_id", flat=True)
    )
