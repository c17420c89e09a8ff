"""What waits for whom on a match: who must act next and what — one answer read by the match API
(`waiting_for`), the match page's banner, the live sheet's warning, a user's list of what waits for him
(`dugout.actions`: `/me/`, `GET /api/v1/me/actions/`, the header's badge) and the `your_turn` notifications.

Built on the lifecycle (what the match's status opens) and the policy (who may take that step), over facts a
match carries as annotations (`matches.waiting_reads`): its sides with their coaches, the unfinished post-match
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
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse
from django.utils.translation import gettext as _

from league.models import Membership
from teams.models import Team

from . import lifecycle, policy
from .models import Match, MatchTeam, Prematch
from .sequences import prematch_actors, prematch_blocks_result, shopping_team
from .waiting_reads import user_matches, waiting_queryset

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
