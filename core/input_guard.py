"""The outermost middleware: no request reaches a view with a control character in its path or query string or a
body over the size limit, no parse error of a body escapes as a 500, and every API error is JSON.

The parsers (core/api/parsers.py) bound what the API decodes; this is the net under everything else: Django
raises RequestDataTooBig / TooManyFieldsSent / RawPostDataException / UnicodeDecodeError from `request.POST`,
`request.body` and the multipart parser, wherever a view or middleware first touches them, and a JSON body
that was not bounded can still recurse.
"""

from __future__ import annotations

import logging
from urllib.parse import unquote_plus

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.http.request import RawPostDataException
from rest_framework.exceptions import ParseError

from core.api.parsers import MAX_JSON_DEPTH, has_control_character, json_too_deep, max_body_bytes

log = logging.getLogger(__name__)

#: Exceptions that mean "this request could not be read", never "the server broke".
PARSE_ERRORS = (
    UnicodeDecodeError,
    RawPostDataException,
    SuspiciousOperation,  # RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent, DisallowedHost, ...
    MultiPartParserError,
    RecursionError,
    ParseError,
)
#: Paths whose body their view reads as a stream and bounds itself (the league import): a body past the general
#: size limit is theirs to refuse (size and depth); within it, the depth scan answers as on every door.
STREAMED_PATHS = frozenset({"/api/v1/leagues/import/"})
# Headers an error answer keeps when its body is rewritten as JSON.
_KEPT_HEADERS = ("Allow", "WWW-Authenticate", "Retry-After", "Vary")


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def bad_request(request: HttpRequest, message: str) -> HttpResponse:
    if is_api(request):
        return JsonResponse({"detail": message}, status=400)
    return HttpResponseBadRequest(f"Bad request: {message}", content_type="text/plain; charset=utf-8")


def _refusal(request: HttpRequest) -> str | None:
    if has_control_character(request.path_info) or has_control_character(request.path):
        return "The address may not contain NUL or other control characters."
    query = request.META.get("QUERY_STRING", "")
    if query and has_control_character(unquote_plus(query, errors="replace")):
        return "The query string may not contain NUL or other control characters."
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return "Content-Length is not a number."
    limit = max_body_bytes()
    if length > limit:
        if request.path_info in STREAMED_PATHS:
            return None  # read as a stream by its view, which bounds its size and depth (dugout/api/imports.py)
        return f"The request body is larger than {limit} bytes."
    if length and request.content_type.endswith("json") and _json_too_deep(request):
        # Also for the writes that never read their body: one answer for such a body on every door.
        return f"JSON nested deeper than {MAX_JSON_DEPTH} levels."
    return None


def _json_too_deep(request: HttpRequest) -> bool:
    try:
        text = request.body.decode(request.encoding or "utf-8", errors="replace")
    except RequestDataTooBig:
        return False  # answered by the size check of whoever reads it next
    return json_too_deep(text)


class InputGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        message = _refusal(request)
        if message:
            return bad_request(request, message)
        response = self.get_response(request)
        if is_api(request) and response.status_code >= 400 and not _is_json(response):
            response = _as_json(response)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, PARSE_ERRORS):
            return None
        log.info("unreadable request %s %s answered 400: %r", request.method, request.path, exception)
        if isinstance(exception, RecursionError):
            return bad_request(request, "The request body is nested too deeply.")
        if isinstance(exception, RequestDataTooBig):
            return bad_request(request, f"The request body is larger than {max_body_bytes()} bytes.")
        return bad_request(request, "The request could not be read.")


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip().endswith("json")


def _as_json(response: HttpResponse) -> HttpResponse:
    """Django's own error pages (the resolver's 404, a SuspiciousOperation's 400, a 500) in the API's shape."""
    messages = {400: "Bad request.", 403: "Forbidden.", 404: "Not found.", 405: "Method not allowed."}
    detail = messages.get(response.status_code) or response.reason_phrase or "Error."
    converted = JsonResponse({"detail": detail}, status=response.status_code)
    for header in _KEPT_HEADERS:
        if header in response:
            converted[header] = response[header]
    return converted
