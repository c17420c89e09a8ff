"""Result disputes and forfeits: a coach who did not enter a result disputes it with a reason instead
of confirming it; the commissioner rules — confirms it as is, corrects it, or rejects it — records forfeits for
overdue matches, and makes void a match that will not be played. Every ruling is in the league's audit
(league/audit.py)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns.errors import NotPermitted, RuleViolation
from league.audit import audit_record
from league.models import league_activity_changed, league_table_changed
from matches import lifecycle, notices, policy, schedules
from matches.locks import lock_teams
from matches.models import Dispute, Match, MatchTeam

#: A reason is words: long enough to say something, short enough for the queue.
REASON_MAX = 2000
RULINGS = ("confirm", "correct", "reject")


def _reason(reason: object, *, field: str = "reason") -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise RuleViolation("Give a reason, in words.", field=field)
    if len(text) > REASON_MAX:
        raise RuleViolation(f"A reason is at most {REASON_MAX} characters.", field=field)
    return text


def match_open_dispute(match: Match) -> Dispute | None:
    """The match's open dispute with who raised it, or None (one query)."""
    return Dispute.objects.filter(match=match, ruling="").select_related("raised_by").first()


def dispute_close(*, match: Match, ruling: str, user: AbstractBaseUser, reason: str = "") -> Dispute | None:
    """Close the match's open dispute with `ruling` (called by the service that moved the match out of
    `disputed`, in its transaction); None when it had none."""
    dispute = Dispute.objects.select_for_update().filter(match=match, ruling="").first()
    if dispute is None:
        return None
    dispute.ruling, dispute.ruled_by, dispute.ruled_at = ruling, user, timezone.now()
    dispute.ruling_reason = reason
    dispute.save(update_fields=["ruling", "ruled_by", "ruled_at", "ruling_reason"])
    return dispute


def match_dispute(*, user: AbstractBaseUser, match_id: int, reason: object) -> Match:
    """A coach of the match who did not enter its result disputes it, with a reason: the match waits for the
    commissioner's ruling (his queue shows it)."""
    text = _reason(reason)
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("league").get(pk=match_id)
        if not policy.may_dispute_result(user, match):
            raise NotPermitted("Only a coach of this match who did not enter its result can dispute it.")
        lifecycle.transition(match, lifecycle.Action.DISPUTE)
        match.save(update_fields=["status"])
        league_activity_changed(match.league_id)  # the fixture's status on the league page
        Dispute.objects.create(match=match, raised_by=user, reason=text)
        notices.result_disputed(match, actor=user)
    return match


def match_rule_dispute(
    *, user: AbstractBaseUser, match_id: int, ruling: str, reason: object, body: object = None
) -> Match:
    """The commissioner's ruling on a disputed result: `confirm` it as is, `correct` it (the corrected result
    `body` replaces it and is confirmed in the same transaction) or `reject` it (the match is to be played again).
    Both coaches are told of the ruling, once: the confirmation or rejection it makes tells nobody of its own.
    """
    from matches import services

    if ruling not in RULINGS:
        raise RuleViolation(f"A ruling is one of {', '.join(RULINGS)}.", field="ruling")
    text = _reason(reason)
    if ruling == "correct" and body is None:
        raise RuleViolation("A correction needs the corrected result.", field="result")
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("league").get(pk=match_id)
        if not policy.may_rule_on_dispute(user, match):
            raise NotPermitted("Only the commissioner rules on a disputed result.")
        if match.status != Match.Status.DISPUTED:
            raise lifecycle.TransitionRefused(
                "Only a disputed result can be ruled on.", status=match.status, action=lifecycle.Action.CONFIRM
            )
        before = match.result
        if ruling == "reject":
            match = services.match_reject(user=user, match_id=match_id, reason=text, tell=False)
        else:
            if ruling == "correct":
                # The corrected result stands in the disputed one's place (still entered by its coach: the
                # commissioner's confirmation below is the second pair of eyes), validated like any entry.
                match.result = services.parse_match_result(match, body)
                match.result_body = body
                lifecycle.transition(match, lifecycle.Action.SUBMIT)
                match.save(update_fields=["result", "result_body", "status"])
                dispute_close(match=match, ruling=Dispute.Ruling.CORRECTED, user=user, reason=text)
            else:
                dispute_close(match=match, ruling=Dispute.Ruling.CONFIRMED, user=user, reason=text)
            match = services.match_confirm(user=user, match_id=match_id, tell=False)
        audit_record(
            league=match.league,
            actor=user,
            action="dispute_ruling",
            target=f"match {match.pk}",
            before={"status": "disputed", "result": before},
            after={"ruling": ruling, "status": match.status, "result": match.result},
            reason=text,
        )
        notices.dispute_ruled(match, actor=user, ruling=ruling)  # the one line of this event (none of confirm's)
    return match


def match_forfeit(*, user: AbstractBaseUser, match_id: int, team_id: object, reason: object) -> Match:
    """The commissioner records a forfeit: the match is final as a loss for `team_id` (the team at fault) and a
    win for the others — league points as a loss and a win, no score, no player rows, no post-match sequence."""
    text = _reason(reason)
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("league").get(pk=match_id)
        if not policy.may_forfeit_match(user, match):
            raise NotPermitted("Only the commissioner records a forfeit.")
        lifecycle.next_status(match.status, lifecycle.Action.FORFEIT)
        sides = list(MatchTeam.objects.filter(match=match).order_by("order"))
        if not isinstance(team_id, int) or isinstance(team_id, bool) or team_id not in {s.team_id for s in sides}:
            raise RuleViolation("The team at fault must be one of this match's teams.", field="team")
        forfeit_record(
            match,
            sides,
            losers={team_id},
            user=user,
            result={"forfeit": {"team": team_id, "reason": text}},
            audit_after={"loser": team_id},
            reason=text,
        )
    return match


def forfeit_record(
    match: Match,
    sides: list[MatchTeam],
    *,
    losers: set[int],
    user: AbstractBaseUser | None,
    result: dict,
    audit_after: dict,
    reason: str,
) -> None:
    """What every forfeit writes, the commissioner's (one team at fault) and the league clock's (`user` None:
    both teams, `matches.clock`): the match (locked by the caller, still to be played) final as a loss for the
    `losers` and a win for the others, each side's league points as the ruleset gives them, no score, no player
    rows, no post-match sequence and no gil; the bracket's next round, the table's version and the audit entry,
    all in the caller's transaction."""
    lock_teams([s.team_id for s in sides])
    rules, hr = match.league.rules, match.league.house_rules
    for side in sides:
        side.outcome = MatchTeam.Outcome.LOSS if side.team_id in losers else MatchTeam.Outcome.WIN
        side.league_points = rules.league_points(
            outcome=side.outcome, kind=match.kind, hr=hr, event=match.event, placing=side.placing
        )
    MatchTeam.objects.bulk_update(sides, ["outcome", "league_points"])
    lifecycle.transition(match, lifecycle.Action.FORFEIT)
    match.result = result
    match.confirmed_by, match.confirmed_at = user, timezone.now()
    match.save(update_fields=["status", "result", "confirmed_by", "confirmed_at"])
    schedules.schedule_round_final(match)  # a knockout round closed: the bracket's next round
    league_table_changed(match.league_id)
    audit_record(
        league=match.league,
        actor=user,
        action="forfeit",
        target=f"match {match.pk}",
        before={"status": lifecycle.Status.SCHEDULED},
        after={"status": match.status, **audit_after},
        reason=reason,
    )


def match_void(*, user: AbstractBaseUser, match_id: int, reason: object) -> Match:
    """The commissioner makes a match still to be played void: it will not be played (a team of it was rebuilt,
    or left the league), takes no result, counts in no table and waits for no one. The season's turn does the
    same for the unplayed matches of the teams a redraft rebuilds (dugout/seasons.py); this is the door for one
    match, e.g. one carried into a new season before that. A knockout's match is not voided: its winner goes on
    (a forfeit decides it). A reason is required, kept in the audit."""
    text = _reason(reason)
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("league").get(pk=match_id)
        if not policy.may_void_match(user, match.league):
            raise NotPermitted("Only the commissioner makes a match void.")
        before = match.status
        lifecycle.next_status(before, lifecycle.Action.VOID)
        if match.kind in (Match.Kind.PLAYOFF, Match.Kind.FINAL):
            raise RuleViolation("A knockout match decides who goes on: record a forfeit rather than voiding it.")
        lifecycle.transition(match, lifecycle.Action.VOID)
        match.save(update_fields=["status"])
        league_activity_changed(match.league_id)  # the league page's fixtures
        audit_record(
            league=match.league,
            actor=user,
            action="void",
            target=f"match {match.pk}",
            before={"status": before},
            after={"status": match.status},
            reason=text,
        )
    return match
