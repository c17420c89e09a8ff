"""Idempotency-Key for API writes (api-v1: "a repeat with the same key returns the first answer and
changes nothing").

The record is inserted at the start of the request's transaction, so a concurrent repeat waits on the
unique index until the first request commits, then replays its answer. Only successful (2xx) answers
are kept: a refused request changed nothing, so repeating it simply asks again.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse

from .models import IdempotencyRecord

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _sha(*parts: str | bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


class IdempotencyKeyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get("Idempotency-Key")
        if not key or request.method not in WRITE_METHODS or not request.path.startswith("/api/"):
            return self.get_response(request)
        if len(key) > 255:
            return JsonResponse({"detail": "Idempotency-Key is at most 255 characters."}, status=400)
        # Scope keys to the caller's credentials (anonymous callers: their address), so two callers' keys
        # never collide.
        credentials = request.headers.get("Authorization", "") or request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
        scope = _sha(credentials or f"anonymous:{request.META.get('REMOTE_ADDR', '')}")
        fingerprint = _sha(request.method, request.get_full_path(), request.body)
        try:
            with transaction.atomic():
                record = IdempotencyRecord.objects.create(scope=scope, key=key, fingerprint=fingerprint)
                response = self.get_response(request)
                if not 200 <= response.status_code < 300:
                    transaction.set_rollback(True)
                    return response
                record.status_code = response.status_code
                record.content_type = response.get("Content-Type", "")
                record.body = response.content.decode("utf-8", errors="replace")
                record.save(update_fields=["status_code", "content_type", "body"])
                return response
        except IntegrityError:
            pass
        return self._replay(scope, key, fingerprint)

    @staticmethod
    def _replay(scope: str, key: str, fingerprint: str) -> HttpResponse:
        record = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
        if record is None or not record.status_code:
            return JsonResponse({"detail": "A request with this Idempotency-Key is still running."}, status=409)
        if record.fingerprint != fingerprint:
            return JsonResponse({"detail": "This Idempotency-Key was used for a different request."}, status=422)
        response = HttpResponse(record.body, status=record.status_code, content_type=record.content_type or None)
        response["Idempotent-Replayed"] = "true"
        return response
