"""Who may write what. Reads of public data are open; every write needs a signed-in user."""

from rest_framework.permissions import SAFE_METHODS, BasePermission

from league.selectors import user_is_commissioner


class IsCommissionerOrReadOnly(BasePermission):
    """League settings and memberships: only the league's commissioners change them."""

    message = "Only a commissioner of this league may do that."

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return user_is_commissioner(user=request.user, league=obj)


class IsTeamCoachOrReadOnly(BasePermission):
    """A coach changes only his own teams."""

    message = "Only this team's coach may do that."

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return request.user.is_authenticated and obj.coach_id == request.user.pk
