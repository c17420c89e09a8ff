"""Shared by the home-stadium cancellation tests (test_residency_cancel.py, test_residency_cancel_page.py)."""

from __future__ import annotations

from league.models import Stadium
from teams import services
from teams.models import Team
from teams.selectors import team_treasury


def resident(team: Team, *, owned: bool = False) -> Team:
    """Make `team` resident at its league's Grand Coliseum — the state the Fortune step's residency roll (or a
    purchase in hire-and-fire, `owned`) leaves behind."""
    team.home_stadium, _ = Stadium.objects.get_or_create(
        league=team.league, name="Grand Coliseum", defaults={"special_attribute": "Astrogranite"}
    )
    team.owns_stadium = owned
    team.save(update_fields=["home_stadium", "owns_stadium"])
    return team


def spend_down_to(team: Team, balance: int) -> None:
    """Leave `balance` gil in the treasury, through the one ledger writer."""
    with services.team_locked(team_id=team.pk) as locked:
        services.ledger_post(
            team=locked, amount=balance - team_treasury(team=locked), kind="purchase", reason="Spent", user=team.coach
        )
