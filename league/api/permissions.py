"""Who may write what. Reads of public data are open; every write needs a signed-in user. The answers come
from the domain policies (league/policy.py, teams/policy.py), the same predicates the services enforce."""

from rest_framework.permissions import SAFE_METHODS, BasePermission

from league.policy import may_run_league
from teams.policy import may_coach_team


class IsCommissionerOrReadOnly(BasePermission):
    """League settings and memberships: only the league's commissioners change them."""

    message = "Only a commissioner of this league may do that."

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return may_run_league(request.user, obj)


class IsTeamCoachOrReadOnly(BasePermission):
    """A coach changes only his own teams."""

    message = "Only this team's coach may do that."

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return may_coach_team(request.user, obj)
