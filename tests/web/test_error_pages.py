"""The small things a visitor notices: styled 403, 404 and 500 pages with a way back (the 500 rendered as
Django does, with no request context), the favicon (linked and at /favicon.ico) and the skip link."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import include, path

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def forbidden(request):
    raise PermissionDenied("Only the commissioner can do that.")


def broken(request):
    raise RuntimeError("a bug")


# The project's URLs plus two views that fail on purpose (this module is the test's ROOT_URLCONF).
urlpatterns = [
    path("test-errors/403/", forbidden),
    path("test-errors/500/", broken),
    path("", include("dugout.urls")),
]


def test_a_missing_page_is_a_styled_404_with_a_way_back(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Nothing here</h1>" in page
    assert '<a class="button" href="/">Back to the leagues</a>' in page
    assert 'class="skip-link"' in page  # it extends base.html: header, footer and all


def test_a_missing_page_offers_a_signed_in_coach_his_home(client, coach):
    client.force_login(coach)
    assert '<a href="/me/">Your home</a>' in client.get("/no-such-page/").content.decode()


def test_a_refusal_is_a_styled_403_that_says_why(client):
    response = client.get("/test-errors/403/")

    assert response.status_code == 403
    page = response.content.decode()
    assert "<h1>Not yours to do</h1>" in page and "Only the commissioner can do that." in page
    assert '<a class="button" href="/">Back to the leagues</a>' in page


def test_a_server_error_is_a_styled_500_rendered_without_a_request_context(client, coach):
    client = Client(raise_request_exception=False)
    client.force_login(coach)  # the 500 must not try to read the user, the session or the database

    response = client.get("/test-errors/500/")

    assert response.status_code == 500
    page = response.content.decode()
    assert "<h1>Something broke on our side</h1>" in page
    assert '<a class="button" href="/">Back to the leagues</a>' in page
    assert "My home" not in page  # no context processors ran: the anonymous header


def test_every_page_links_the_favicon_and_favicon_ico_answers(client):
    page = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page

    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"
    icon = client.get(response["Location"])
    assert icon.status_code == 200 and b"<svg" in b"".join(icon.streaming_content)


def test_the_skip_link_leads_to_the_main_content(client):
    page = client.get("/").content.decode()
    assert '<a class="skip-link" href="#main">Skip to content</a>' in page
    assert '<main id="main" tabindex="-1">' in page
    assert page.index("skip-link") < page.index('<header class="top">')  # the first thing a keyboard reaches
