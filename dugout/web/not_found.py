"""The project's 404 page in DEBUG too.

With DEBUG on, Django answers a missing page with its technical 404 (the yellow page listing the URL patterns),
never the project's `404.html`: a newcomer under `make run` who mistypes an address sees a page no visitor ever
will. This middleware answers it with the project's page; adding `?technical-404` to the address still shows
Django's, for the developer who wants the patterns tried. Off DEBUG it takes itself out of the chain.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import Http404
from django.urls import Resolver404, get_urlconf, resolve
from django.views.defaults import page_not_found

#: The query parameter that asks for Django's technical 404 page instead (DEBUG only).
TECHNICAL = "technical-404"


class DebugNotFoundMiddleware:
    """Placed last in MIDDLEWARE, so every other middleware (the CSP header, CommonMiddleware's redirect of
    `/leagues` to `/leagues/`) still sees the answer."""

    def __init__(self, get_response):
        if not settings.DEBUG:
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request):
        # An unmatched address never reaches a view (nor process_exception): the handler turns it into the
        # technical page itself, so it is resolved here first.
        if TECHNICAL not in request.GET:
            try:
                resolve(request.path_info, getattr(request, "urlconf", None) or get_urlconf())
            except Resolver404 as missing:
                return page_not_found(request, missing)
        return self.get_response(request)

    def process_exception(self, request, exception):
        """A view's Http404 (a league that does not exist, say): the project's page, as in production."""
        if isinstance(exception, Http404) and TECHNICAL not in request.GET:
            return page_not_found(request, exception)
        return None
