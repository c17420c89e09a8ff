"""Assertions shared by the API tests."""

from __future__ import annotations


def assert_refused(response, status, *fields) -> dict:
    """A refusal: the expected status, a JSON body, and a message in words: `detail`, or each named field
    (always for a 400; a 403 may name the field too)."""
    expected = status if isinstance(status, tuple) else (status,)
    assert response.status_code in expected, (response.status_code, response.content)
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    named = response.status_code == 400 or any(field in body for field in fields)
    for key in fields if fields and named else ("detail",):
        assert key in body, body
        message = body[key]
        text = " ".join(message) if isinstance(message, list) else message
        assert isinstance(text, str) and text.strip(), body
    return body
