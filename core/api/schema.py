"""The OpenAPI schema tells a generated client the truth: which lists are pages, and every error an operation
can answer, in the one error shape (api-v1: `{"field": ["message"]}` or `{"detail": "message"}`).

Set as REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"], so a new view is documented the same way without a decorator.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework.permissions import SAFE_METHODS, AllowAny

ERROR_COMPONENT = "Error"
ERROR_SCHEMA = {
    "type": "object",
    "description": (
        'The API\'s one error shape: `{"detail": "message"}`, or `{"field": ["message", ...]}` for a field '
        "(nested serializers nest the same shape)."
    ),
    "properties": {"detail": {"type": "string"}},
    "additionalProperties": {},
}

# Why each status can be answered; which operations answer it is decided in `_error_statuses`.
DESCRIPTIONS = {
    "400": "Invalid input: the body, a field, the query string or the address (NUL and control characters, "
    "a body too large or nested too deeply, a rule refused).",
    "401": "The credentials sent are missing or invalid (a write without them, or a wrong token on any call).",
    "403": "Not allowed to this user (not the coach, not the commissioner), or a session write without CSRF.",
    "404": "No such object (also any id that is not a positive integer), or a page past the last.",
    "409": "Conflicts with the current state (not the current step, changed at the same moment, a repeat of a "
    "request still running).",
    "415": "The body's Content-Type is not JSON, form-encoded or multipart.",
    "422": "This Idempotency-Key was used for a different request.",
    "429": "Too many failed attempts: wait and try again.",
}


class DugoutAutoSchema(AutoSchema):
    def _plain_action(self) -> bool:
        """A viewset's extra action answers its list as a plain array unless it declares its own paginator;
        only `list` pages (every `@action` here returns `Response([...])`)."""
        action = getattr(self.view, "action", None)
        if action is None or action == "list":
            return False
        handler = getattr(self.view, action, None)
        return "pagination_class" not in getattr(handler, "kwargs", {})

    def _get_paginator(self):
        if self._plain_action():
            return None
        return super()._get_paginator()

    def get_filter_backends(self):
        if self._plain_action():
            return []
        return super().get_filter_backends()

    def _error_statuses(self) -> list[str]:
        write = self.method not in SAFE_METHODS
        codes = ["400"]
        if self.view.get_authenticators():
            codes.append("401")
        if write:
            # 409 and 422 come from the Idempotency-Key middleware on every write; 403 only where a permission
            # can refuse or a session write can miss its CSRF token (an open door, e.g. the log-in, has neither).
            codes += ["409", "422"]
            if self.view.get_authenticators() or not all(
                isinstance(permission, AllowAny) for permission in self.view.get_permissions()
            ):
                codes.append("403")
        if "{" in self.path or (self._is_list_view() and self._get_paginator() is not None):
            codes.append("404")
        if self.method in ("POST", "PUT", "PATCH"):
            codes.append("415")
        if self.view.get_throttles():
            codes.append("429")
        return sorted(codes)

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        component = ResolvedComponent(
            name=ERROR_COMPONENT, type=ResolvedComponent.SCHEMA, object=ERROR_COMPONENT, schema=ERROR_SCHEMA
        )
        self.registry.register_on_missing(component)
        for code in self._error_statuses():
            responses.setdefault(
                code, {"description": DESCRIPTIONS[code], "content": {"application/json": {"schema": component.ref}}}
            )
        # An error documented by hand without a body (e.g. a 503's description) gets the shape too.
        for code, response in responses.items():
            if code >= "400" and "content" not in response:
                response["content"] = {"application/json": {"schema": component.ref}}
        return responses
