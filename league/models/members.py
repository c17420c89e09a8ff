"""Who belongs to a league: memberships, invitations and requests to join."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from league.models.league import League


class Membership(models.Model):
    class Role(models.TextChoices):
        COACH = "coach", "Coach"
        COMMISSIONER = "commissioner", "Commissioner"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "role", "user"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user", "role"], name="membership_unique_role"),
            models.CheckConstraint(condition=Q(role__in=["coach", "commissioner"]), name="membership_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.league}"


class Invitation(models.Model):
    """A commissioner asks a user to become a coach or commissioner of his league; the membership exists only
    once that user accepts (consent). At most one invitation per league and user is pending at a time."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=20, choices=Membership.Role.choices)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "user"], condition=Q(state="pending"), name="invitation_one_pending_per_user"
            ),
            models.CheckConstraint(condition=Q(role__in=["coach", "commissioner"]), name="invitation_role_known"),
            models.CheckConstraint(
                condition=Q(state__in=["pending", "accepted", "declined"]), name="invitation_state_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} invited as {self.role} to {self.league} ({self.state})"

    @property
    def status(self) -> str:
        """The API's word: "invited" while the user has not answered."""
        return "invited" if self.state == self.State.PENDING else self.state


class JoinRequest(models.Model):
    """A signed-in user asks to coach in an invite-only league; the commissioner
    approves (he becomes a coach member) or refuses. At most one request per league and user waits at a time."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="join_requests")
    message = models.CharField(max_length=500, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "user"], condition=Q(state="pending"), name="join_request_one_pending_per_user"
            ),
            models.CheckConstraint(
                condition=Q(state__in=["pending", "approved", "refused"]), name="join_request_state_known"
            ),
        ]
        indexes = [models.Index(fields=["league", "state", "created_at"], name="join_request_league_queue")]

    def __str__(self) -> str:
        return f"{self.user} asks to join {self.league} ({self.state})"


class MemberRemoval(models.Model):
    """`user` was removed from `league` by `removed_by` at `removed_at` (the latest removal, one row a pair)."""

    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="member_removals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    removed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    removed_at = models.DateTimeField()

    class Meta:
        app_label = "league"
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="member_removal_once_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id} removed from {self.league_id}"
