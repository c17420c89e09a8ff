"""Idempotency-Key for API writes, as draft-ietf-httpapi-idempotency-key-header says (api-v1: "a repeat with
the same key returns the first answer and changes nothing").

1. The key is *claimed* first, in a short transaction of its own that commits at once (a record with
   status_code 0). A repeat that finds the claim while the first request still runs answers 409 at once —
   it never waits on the first request's locks.
2. The request runs in a transaction, and a 2xx answer is stored in that same transaction: the replay and
   the request's writes commit together, so a replay never exists without its writes.
3. A refused (non-2xx) answer rolls back and releases the claim: it changed nothing, so asking again asks
   anew.
4. A claim left by a crashed process (still status 0 after IDEMPOTENCY_CLAIM_SECONDS, 120 s by default —
   longer than any request may run behind gunicorn's 30 s timeout) is taken over by the next request with
   the same key and body, which then runs.

A completed key is replayed for the same request and answers 422 for a different one (method, path, body).
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from rest_framework.exceptions import AuthenticationFailed

from league.models import IdempotencyRecord
from league.tokens import TokenAuthentication

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _sha(*parts: str | bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _refusal(status: int, detail: str) -> JsonResponse:
    return JsonResponse({"detail": detail}, status=status)


def in_flight() -> JsonResponse:
    return _refusal(409, "A request with this Idempotency-Key is still running: repeat it once it has answered.")


def caller_scope(request: HttpRequest) -> str:
    """Whose key it is, so two callers' keys never collide: the user, however he authenticates — each log-in
    issues a new token, and a coach who logs in again between two tries of one request is still the one
    paying — else the raw credentials (a token that does not authenticate: the request answers 401), else
    the address of an anonymous caller."""
    if request.headers.get("Authorization"):
        try:
            authenticated = TokenAuthentication().authenticate(request)
        except AuthenticationFailed:
            authenticated = None
        if authenticated is not None:
            return f"user:{authenticated[0].pk}"
        return f"credentials:{request.headers['Authorization']}"
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    return f"anonymous:{request.META.get('REMOTE_ADDR', '')}"


class IdempotencyKeyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get("Idempotency-Key")
        if not key or request.method not in WRITE_METHODS or not request.path.startswith("/api/"):
            return self.get_response(request)
        if len(key) > 255:
            return _refusal(400, "Idempotency-Key is at most 255 characters.")
        scope = _sha(caller_scope(request))
        fingerprint = _sha(request.method, request.get_full_path(), request.body)

        claim = self._claim(scope, key, fingerprint)
        if isinstance(claim, HttpResponse):
            return claim
        try:
            with transaction.atomic():
                response = self.get_response(request)
                if 200 <= response.status_code < 300:
                    # Only if the claim is still ours (a request slower than the claim's lifetime lost it).
                    stored = IdempotencyRecord.objects.filter(pk=claim.pk, status_code=0, created_at=claim.created_at)
                    if stored.update(
                        status_code=response.status_code,
                        content_type=response.get("Content-Type", ""),
                        body=response.content.decode("utf-8", errors="replace"),
                    ):
                        return response
                    transaction.set_rollback(True)
                    return in_flight()
                transaction.set_rollback(True)
        except BaseException:
            self._release(claim)
            raise
        self._release(claim)
        return response

    def _claim(self, scope: str, key: str, fingerprint: str) -> IdempotencyRecord | HttpResponse:
        """Our claim on the key (committed), or the answer for a repeat: 409 in flight, 422, or the replay."""
        # Look before inserting: a plain read never waits on the first request's transaction (an insert that
        # meets the unique index may, on PostgreSQL, while that transaction has the row locked).
        for _attempt in range(2):
            record = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
            if record is None:
                try:
                    with transaction.atomic():
                        return IdempotencyRecord.objects.create(scope=scope, key=key, fingerprint=fingerprint)
                except IntegrityError:
                    continue  # a repeat claimed it between our read and our insert: answer as to a repeat
            if record.fingerprint != fingerprint:
                return _refusal(422, "This Idempotency-Key was used for a different request.")
            if record.status_code:
                return self._replay(record)
            return self._take_over(record) or in_flight()
        return in_flight()

    @staticmethod
    def _take_over(record: IdempotencyRecord) -> IdempotencyRecord | None:
        """A stale claim (its request crashed) becomes ours; a fresh one is left to its request."""
        lifetime = timedelta(seconds=settings.IDEMPOTENCY_CLAIM_SECONDS)
        now = timezone.now()
        if record.created_at > now - lifetime:
            return None
        # Conditional on the claim we read: of two repeats racing for a stale claim, one wins.
        taken = IdempotencyRecord.objects.filter(pk=record.pk, status_code=0, created_at=record.created_at).update(
            created_at=now
        )
        if not taken:
            return None
        record.created_at = now
        return record

    @staticmethod
    def _release(claim: IdempotencyRecord) -> None:
        IdempotencyRecord.objects.filter(pk=claim.pk, status_code=0, created_at=claim.created_at).delete()

    @staticmethod
    def _replay(record: IdempotencyRecord) -> HttpResponse:
        response = HttpResponse(record.body, status=record.status_code, content_type=record.content_type or None)
        response["Idempotent-Replayed"] = "true"
        return response
