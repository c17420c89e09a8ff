"""Who may write a league. Reads of public data are open; every write needs a signed-in user. The answer
comes from league/policy.py, the predicate the league services enforce. Team permission classes live with the
teams API (teams/permissions.py), so this toolkit module imports no domain above the league's."""

from rest_framework.permissions import SAFE_METHODS, BasePermission

from league.policy import may_run_league


class IsCommissionerOrReadOnly(BasePermission):
    """League settings and memberships: only the league's commissioners change them."""

    message = "Only a commissioner of this league may do that."

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return may_run_league(request.user, obj)
