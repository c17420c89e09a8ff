"""What waits for whom on a match: who must act next and what — one answer read by the match API
(`waiting_for`), the match page's banner, the live sheet's warning, a user's list of what waits for him
(`dugout.actions`: `/me/`, `GET /api/v1/me/actions/`, the header's badge) and the `your_turn` notifications.

Built on the lifecycle (what the match's status opens) and the policy (who may take that step), over facts a
match carries as annotations (`waiting_annotations`): its sides with their coaches, the unfinished post-match
sequences of its teams, its league's commissioners, its open time proposal, its pending request for more time
and its open dispute. A list of matches annotated so costs one query whatever its length, and a page that
already reads the match (the API's detail, the match report) pays no query of its own.

The kinds, per status:

- scheduled: `postmatch_step` (a team's earlier sequence holds the result up, as the result services refuse),
  `prematch_step` (a started sequence: the shopping team's coach in its turn, else either coach), `enter_result`
  (both coaches, unless a sequence holds it up), `agree_time` (the opponent of an open proposal);
- submitted: `confirm_result` (a coach who did not enter it), unless an earlier sequence holds it up;
- disputed: `rule_dispute` (the commissioners);
- final: `postmatch_step` for each team whose sequence is unfinished;
- any open status: `decide_extension` (the commissioners, while a request for more time is pending).
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.urls import reverse
from django.utils.translation import gettext as _

from league.models import League, Membership
from league.selectors import json_rows
from notifications.writer import notify
from teams.models import Team

from . import lifecycle, policy
from .models import Aftermath, Dispute, Extension, Match, MatchTeam, Prematch, TimeProposal
from .sequences import prematch_actors, prematch_blocks_result, shopping_team

ENTER_RESULT = "enter_result"
CONFIRM_RESULT = "confirm_result"
PREMATCH_STEP = "prematch_step"
POSTMATCH_STEP = "postmatch_step"
AGREE_TIME = "agree_time"
RULE_DISPUTE = "rule_dispute"
DECIDE_EXTENSION = "decide_extension"

#: Every kind a match waits for, most pressing first (what holds someone else up comes first).
KINDS: tuple[str, ...] = (
    POSTMATCH_STEP,
    PREMATCH_STEP,
    CONFIRM_RESULT,
    ENTER_RESULT,
    AGREE_TIME,
    RULE_DISPUTE,
    DECIDE_EXTENSION,
)
#: The kinds a `your_turn` notification tells of: a step (or a result entry a step held up) that starts to wait
#: for a coach because of someone else's act. (A result to confirm, a time, a dispute have events of their own.)
TURN_KINDS: frozenset[str] = frozenset({PREMATCH_STEP, POSTMATCH_STEP, ENTER_RESULT})


@dataclass(frozen=True)
class Waiting:
    """One user who must act on a match, and what."""

    user_id: int
    username: str
    kind: str  # one of KINDS
    match_id: int  # where he acts: an earlier match, for the sequence that holds this one up
    team_id: int | None  # his team the act is for (None: the commissioner's)
    league_id: int
    league_name: str
    what: str  # the step or the act, in a few words ("Inducements: the underdog", "the result")
    do: str  # what he can do, as a verb ("enter the result"): the match page's "you can … meanwhile"
    text: str  # what to do, in a sentence
    url: str  # where to do it
    since: dt.datetime | None
    deadline: dt.datetime | None

    @property
    def key(self) -> tuple[int, str, int, int | None]:
        return (self.user_id, self.kind, self.match_id, self.team_id)


def waiting_annotations() -> dict[str, Subquery]:
    """What `match_waiting` reads, as annotations of a `Match` queryset (select `league` and `prematch` with
    it): correlated subqueries, so any number of matches costs the one query that reads them."""
    sides = MatchTeam.objects.filter(match=OuterRef("pk"))
    in_match = MatchTeam.objects.filter(match=OuterRef(OuterRef("pk"))).values("team_id")
    # Grouped on `complete` (false for every row): one array of the sequences of every team of the match.
    unfinished = Aftermath.objects.filter(team_id__in=in_match, complete=False)
    commissioners = Membership.objects.filter(league=OuterRef("league_id"), role=Membership.Role.COMMISSIONER)
    proposal = TimeProposal.objects.filter(match=OuterRef("pk"), state=TimeProposal.State.OPEN)
    extension = Extension.objects.filter(match=OuterRef("pk"), state=Extension.State.PENDING)
    dispute = Dispute.objects.filter(match=OuterRef("pk"), ruling="").order_by("id")
    return {
        "w_sides": json_rows(
            sides,
            "match",
            team="team_id",
            name="team__name",
            order="order",
            coach="team__coach_id",
            username="team__coach__username",
        ),
        "w_unfinished": json_rows(
            unfinished,
            "complete",
            match="match_id",
            team="team_id",
            step="step_index",
            coach="team__coach_id",
            username="team__coach__username",
        ),
        "w_commissioners": json_rows(commissioners, "league", user="user_id", username="user__username"),
        "w_proposal_team": Subquery(proposal.values("team_id")[:1]),
        "w_proposal_at": Subquery(proposal.values("created_at")[:1]),
        "w_extension_at": Subquery(extension.values("created_at")[:1]),
        "w_dispute_at": Subquery(dispute.values("created_at")[:1]),
    }


def waiting_queryset() -> QuerySet[Match]:
    """Matches with what `match_waiting` reads: their league, pre-match sequence and the annotations."""
    return Match.objects.select_related("league", "prematch").annotate(**waiting_annotations())


def _prematch_of(match: Match) -> Prematch | None:
    """The match's started pre-match sequence, or None (a page may have held an unsaved one: not started)."""
    try:
        prematch = match.prematch
    except Prematch.DoesNotExist:
        return None
    return prematch if prematch.pk is not None else None


class _Facts:
    """A match's annotated facts, turned into what the policy reads: a copy of the match holding light sides
    (teams with their coach ids) and a copy of its league holding its commissioners' memberships, so every
    predicate answers without a query, and the caller's match (and its league's held roles) stay as they were."""

    def __init__(self, match: Match) -> None:
        User = get_user_model()
        self.match = match
        self.sides = sorted(match.w_sides or [], key=lambda s: s["order"])
        self.users = {s["coach"]: User(pk=s["coach"], username=s["username"]) for s in self.sides if s["coach"]}
        self.teams = {s["team"]: Team(pk=s["team"], name=s["name"], coach_id=s["coach"]) for s in self.sides}
        self.commissioners = [User(pk=c["user"], username=c["username"]) for c in match.w_commissioners or []]
        self.unfinished = sorted(match.w_unfinished or [], key=lambda a: (a["match"], a["team"]))
        league = copy.copy(match.league)
        vars(league)["_prefetched_objects_cache"] = {}
        held = Membership.objects.filter(league=league)
        held._result_cache = [
            Membership(league=league, user_id=u.pk, role=Membership.Role.COMMISSIONER) for u in self.commissioners
        ]
        held._prefetch_done = True
        league._prefetched_objects_cache["memberships"] = held
        self.league = league
        probe = copy.copy(match)
        vars(probe)["_prefetched_objects_cache"] = {}
        probe.league = league
        sides = MatchTeam.objects.filter(match=probe)
        sides._result_cache = [MatchTeam(match=probe, team=self.teams[s["team"]], order=s["order"]) for s in self.sides]
        sides._prefetch_done = True
        probe._prefetched_objects_cache["sides"] = sides
        self.probe = probe  # what the policy is asked about

    @property
    def title(self) -> str:
        return " v ".join(s["name"] for s in self.sides)

    def coaches(self) -> list[tuple[int, AbstractBaseUser]]:
        """(team id, coach) of each side with a coach, in the sides' order."""
        return [(s["team"], self.users[s["coach"]]) for s in self.sides if s["coach"]]


def _item(
    facts: _Facts, user, kind: str, *, what: str, do: str, text: str, url: str, since, team_id=None, match_id=None
):
    match = facts.match
    return Waiting(
        user_id=user.pk,
        username=user.username,
        kind=kind,
        match_id=match_id or match.pk,
        team_id=team_id,
        league_id=match.league_id,
        league_name=match.league.name,
        what=what,
        do=do,
        text=text,
        url=url,
        since=since,
        deadline=match.deadline,
    )


def _postmatch(facts: _Facts, sequence: dict) -> Waiting | None:
    """The post-match sequence `sequence` (a row of `w_unfinished`) waits for its team's coach."""
    if not sequence["coach"]:
        return None
    User = get_user_model()
    coach = facts.users.get(sequence["coach"]) or User(pk=sequence["coach"], username=sequence["username"])
    team = facts.teams.get(sequence["team"]) or Team(pk=sequence["team"], coach_id=sequence["coach"])
    if not policy.may_act_for_side(coach, facts.probe, team):
        return None
    steps = facts.match.league.rules.postmatch_steps
    step = steps[sequence["step"]].title if sequence["step"] < len(steps) else ""
    own = sequence["match"] == facts.match.pk
    return _item(
        facts,
        coach,
        POSTMATCH_STEP,
        what=_("the post-match sequence: %(step)s") % {"step": step} if step else _("the post-match sequence"),
        do=_("walk the post-match sequence"),
        text=_("Walk the post-match sequence of match #%(match)s: %(step)s")
        % {"match": sequence["match"], "step": step},
        url=reverse("match-aftermath", args=[sequence["match"], sequence["team"]]),
        since=facts.match.confirmed_at if own else None,
        team_id=sequence["team"],
        match_id=sequence["match"],
    )


def _scheduled(facts: _Facts) -> list[Waiting]:
    match, probe, items = facts.match, facts.probe, []
    earlier = [a for a in facts.unfinished if a["match"] != match.pk]
    items.extend(filter(None, (_postmatch(facts, a) for a in earlier)))
    blocked = bool(earlier)
    prematch = _prematch_of(match)
    steps = match.league.rules.prematch_steps
    if prematch is not None and not prematch.complete and steps:
        step = steps[prematch.step_index]
        shopper = shopping_team(prematch, steps)
        for team_id in prematch_actors(prematch, steps, [s["team"] for s in facts.sides]):
            coach = facts.users.get(facts.teams[team_id].coach_id)
            if coach is None:
                continue
            if shopper is not None:
                if not policy.may_act_for_side(coach, probe, facts.teams[team_id]):
                    continue
                url = reverse("match-inducements", args=[match.pk, team_id])
            else:
                if not policy.may_run_prematch(coach, probe):
                    continue
                url = reverse("match-prematch", args=[match.pk])
            text = _("Pre-match sequence of %(match)s: %(step)s") % {"match": facts.title, "step": step.title}
            items.append(
                _item(
                    facts,
                    coach,
                    PREMATCH_STEP,
                    what=step.title,
                    do=_("shop for inducements") if shopper is not None else _("roll %(step)s") % {"step": step.title},
                    text=text,
                    url=url,
                    since=prematch.updated_at,
                    team_id=team_id,
                )
            )
        blocked = blocked or prematch_blocks_result(match, prematch)
    if not blocked and lifecycle.allowed(match.status, lifecycle.Action.SUBMIT):
        since = max(match.created_at, prematch.updated_at) if prematch is not None else match.created_at
        for team_id, coach in facts.coaches():
            if policy.may_enter_result(coach, probe):
                text = _("Enter the result of %(match)s") % {"match": facts.title}
                url = reverse("match-result", args=[match.pk])
                items.append(
                    _item(
                        facts,
                        coach,
                        ENTER_RESULT,
                        what=_("the result"),
                        do=_("enter the result"),
                        text=text,
                        url=url,
                        since=since,
                        team_id=team_id,
                    )
                )
    if match.w_proposal_team is not None:
        for team_id, coach in facts.coaches():
            if team_id != match.w_proposal_team and policy.may_accept_time(coach, probe, match.w_proposal_team):
                text = _("Answer the time proposed for %(match)s") % {"match": facts.title}
                url = reverse("match-times", args=[match.pk])
                items.append(
                    _item(
                        facts,
                        coach,
                        AGREE_TIME,
                        what=_("the proposed time"),
                        do=_("answer the proposed time"),
                        text=text,
                        url=url,
                        since=match.w_proposal_at,
                        team_id=team_id,
                    )
                )
    return items


def _submitted(facts: _Facts) -> list[Waiting]:
    match = facts.match
    earlier = [a for a in facts.unfinished if a["match"] != match.pk]
    if earlier:  # as confirming refuses: a team's earlier sequence comes first
        return list(filter(None, (_postmatch(facts, a) for a in earlier)))
    coaches = {s["team"]: s["coach"] for s in facts.sides}
    items = []
    for team_id, coach in facts.coaches():
        if policy.confirms_as_other_coach(user_id=coach.pk, submitted_by_id=match.submitted_by_id, coaches=coaches):
            text = _("Confirm the result of %(match)s") % {"match": facts.title}
            url = reverse("match-detail", args=[match.pk])
            items.append(
                _item(
                    facts,
                    coach,
                    CONFIRM_RESULT,
                    what=_("confirming the result"),
                    do=_("confirm the result"),
                    text=text,
                    url=url,
                    since=match.submitted_at,
                    team_id=team_id,
                )
            )
    return items


def _commissioners(facts: _Facts) -> list[Waiting]:
    match, items = facts.match, []
    for user in facts.commissioners:
        if match.status == Match.Status.DISPUTED and policy.may_rule_on_dispute(user, facts.probe):
            text = _("Rule on the disputed result of %(match)s") % {"match": facts.title}
            url = reverse("match-detail", args=[match.pk]) + "#dispute"
            since = match.w_dispute_at or match.submitted_at
            items.append(
                _item(
                    facts,
                    user,
                    RULE_DISPUTE,
                    what=_("a ruling on the dispute"),
                    do=_("rule on the dispute"),
                    text=text,
                    url=url,
                    since=since,
                )
            )
        if match.w_extension_at is not None and policy.may_rule_on_dispute(user, facts.probe):
            text = _("Decide on the request for more time for %(match)s") % {"match": facts.title}
            url = reverse("match-detail", args=[match.pk])
            since = match.w_extension_at
            items.append(
                _item(
                    facts,
                    user,
                    DECIDE_EXTENSION,
                    what=_("a decision on more time"),
                    do=_("decide on more time"),
                    text=text,
                    url=url,
                    since=since,
                )
            )
    return items


def match_waiting(match: Match) -> list[Waiting]:
    """Who must act on `match` next, and what, most pressing first — from `waiting_annotations` (no query)."""
    if match.status == Match.Status.VOID:
        return []
    facts = _Facts(match)
    if match.status == Match.Status.FINAL:
        mine = [a for a in facts.unfinished if a["match"] == match.pk]
        items = list(filter(None, (_postmatch(facts, a) for a in mine)))
    elif match.status == Match.Status.SCHEDULED:
        items = _scheduled(facts)
    elif match.status == Match.Status.SUBMITTED:
        items = _submitted(facts)
    else:
        items = []
    if match.status in lifecycle.OPEN:
        items.extend(_commissioners(facts))
    seen: set = set()
    unique = []
    for item in sorted(items, key=lambda i: (KINDS.index(i.kind), i.match_id, i.team_id or 0, i.user_id)):
        if (item.user_id, item.kind, item.match_id) not in seen:
            seen.add((item.user_id, item.kind, item.match_id))
            unique.append(item)
    return unique


def waiting_for(match: Match | int) -> list[Waiting]:
    """Who must act on the match next: from its annotations when it carries them, else read (one query)."""
    if not hasattr(match, "w_sides"):
        match = waiting_queryset().get(pk=getattr(match, "pk", match))
    return match_waiting(match)


def user_matches(user: AbstractBaseUser) -> QuerySet[Match]:
    """The matches where something may wait for `user` (subqueries: no query of their own): the open matches
    his teams play in, those whose post-match sequence of his team is unfinished, and in the leagues he runs
    the disputed matches and those with a pending request for more time."""
    played = MatchTeam.objects.filter(team__coach=user).values("match_id")
    sequences = Aftermath.objects.filter(team__coach=user, complete=False).values("match_id")
    runs = Membership.objects.filter(user=user, role=Membership.Role.COMMISSIONER).values("league_id")
    asked = Extension.objects.filter(state=Extension.State.PENDING).values("match_id")
    return waiting_queryset().filter(
        Q(pk__in=played, status__in=lifecycle.OPEN)
        | Q(pk__in=sequences)
        | Q(league_id__in=runs, status=Match.Status.DISPUTED)
        | Q(league_id__in=runs, pk__in=asked, status__in=lifecycle.OPEN)
    )


def user_waiting(*, user: AbstractBaseUser) -> list[Waiting]:
    """Everything on matches that waits for `user`, oldest first (one query; none when anonymous). Each item is
    listed from its own match (an earlier sequence that holds another match up is listed once, as itself)."""
    if not user.is_authenticated:
        return []
    items = [
        item
        for match in user_matches(user)
        for item in match_waiting(match)
        if item.user_id == user.pk and item.match_id == match.pk
    ]
    return sorted(
        items, key=lambda i: (i.since or dt.datetime.min.replace(tzinfo=dt.UTC), i.match_id, KINDS.index(i.kind))
    )


# -- your turn: telling a coach that a step now waits for him ------------------------------------------------


def team_open_matches(*, match_id: int, team_id: int) -> QuerySet:
    """The ids of `match_id` and of the open matches `team_id` plays in, as a subquery (no query of its own):
    what a team's post-match sequence ending can change the waiting of."""
    return Match.objects.filter(Q(pk=match_id) | Q(status__in=lifecycle.OPEN, sides__team_id=team_id)).values("pk")


def turns(match_ids: Iterable[int] | QuerySet) -> dict[tuple, Waiting]:
    """What waits on these matches that a `your_turn` tells of, by key (one query)."""
    ids = match_ids if isinstance(match_ids, QuerySet) else list(match_ids)
    found = waiting_queryset().filter(pk__in=ids)
    return {item.key: item for match in found for item in match_waiting(match) if item.kind in TURN_KINDS}


def tell_turns(*, before: dict[tuple, Waiting], match_ids: Iterable[int], actor: AbstractBaseUser) -> int:
    """After an act, in its transaction: one `your_turn` notification to each user something now waits for that
    did not before (`before`: `turns` of the same matches before the act), never to the actor. Returns how
    many users were told."""
    after = turns(match_ids)
    new: dict[int, Waiting] = {}
    for key in sorted(after.keys() - before.keys(), key=lambda k: (KINDS.index(k[1]), k[2], k[3] or 0)):
        item = after[key]
        if item.user_id != actor.pk:
            new.setdefault(item.user_id, item)  # one notification per user and act: the most pressing
    groups: dict[tuple, list[Waiting]] = {}
    for item in new.values():
        groups.setdefault((item.text, item.url, item.match_id, item.team_id), []).append(item)
    for (text, url, match_id, team_id), items in groups.items():
        notify(
            "your_turn",
            recipients=[i.user_id for i in items],
            actor=actor,
            text=_("Your turn: %(what)s") % {"what": text},
            url=url,
            league=League(pk=items[0].league_id),
            match=Match(pk=match_id),
            team=Team(pk=team_id) if team_id else None,
        )
    return len(new)
