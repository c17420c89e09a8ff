"""Who may write a team through the API: the DRF permission classes over teams/policy.py, the same predicates
the team services enforce. Reads of public data are open; every write needs the team's coach."""

from rest_framework.permissions import SAFE_METHODS, BasePermission

from .policy import may_coach_team


class IsTeamCoachOrReadOnly(BasePermission):
    """A coach changes only his own teams."""

    message = "Only this team's coach may do that."

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return may_coach_team(request.user, obj)
