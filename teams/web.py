"""Team sheet actions that live with the teams app (the sheet itself is league/web/views.py): cancelling a home
stadium. Same shape as the sheet's other coach-only forms: a plain POST (or htmx), answered with the sheet."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseForbidden

from campaigns.errors import RuleViolation
from league.web.views import _own_team, _sheet_response, team_write

from . import services


@team_write
def team_cancel_residency(request: HttpRequest, pk: int) -> HttpResponse:
    """R (Blitz Bowl): a home stadium can be cancelled at any time for 5,000 gil (H `residency.cancel_cost`)."""
    if _own_team(request, pk) is None:
        return HttpResponseForbidden("Only this team's coach may cancel its home stadium.")
    try:
        services.team_cancel_residency(team_id=pk, user=request.user)
    except RuleViolation as exc:  # includes Conflict: nothing to cancel any more, or the team owns the stadium
        return _sheet_response(request, pk, errors=[exc.message])
    return _sheet_response(request, pk, notice="The home stadium is cancelled.")
