"""Team identity (issue 14, "Team identity"; docs/decisions/ 2026-12-02 "Team logos"): a logo is checked by
opening it (PNG, JPEG, WebP only), bounded in bytes and pixels before decoding (a bomb is refused), re-encoded
to 256 and 64 px square PNGs in the default storage; two #rrggbb colours. Only the coach or the commissioner
(audited)."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from league.models import AuditEntry
from teams.models import Team

from .conftest import image_bytes

pytestmark = pytest.mark.django_db


def upload(data: bytes, name: str = "logo.png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/png")


def bomb_png(side: int = 60000) -> bytes:
    """A tiny PNG whose header claims side×side pixels (a decompression bomb: 3.6 G pixels)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_a_coach_uploads_a_logo_and_it_is_stored_as_square_pngs_of_the_fixed_sizes(api_as, coach, team, fmt):
    response = api_as(coach).post(
        f"/api/v1/teams/{team.pk}/logo/", {"logo": upload(image_bytes(fmt), "x.bin")}, format="multipart"
    )

    assert response.status_code == 200, response.content
    logo = response.json()["logo"]
    assert set(logo) == {"256", "64"}
    for size in (256, 64):
        got = api_as(None).get(logo[str(size)])
        assert got.status_code == 200 and got["Content-Type"] == "image/png"
        image = Image.open(io.BytesIO(b"".join(got.streaming_content) if got.streaming else got.content))
        assert image.format == "PNG" and image.size == (size, size)


def test_a_file_that_is_not_an_image_is_refused_whatever_its_name(api_as, coach, team):
    response = api_as(coach).post(
        f"/api/v1/teams/{team.pk}/logo/", {"logo": upload(b"GIF89a not really", "logo.png")}, format="multipart"
    )

    assert response.status_code == 400
    assert Team.objects.get(pk=team.pk).logo_key == ""


def test_a_gif_is_refused_it_is_an_image_but_not_one_of_the_three(api_as, coach, team):
    response = api_as(coach).post(
        f"/api/v1/teams/{team.pk}/logo/", {"logo": upload(image_bytes("GIF"), "logo.png")}, format="multipart"
    )

    assert response.status_code == 400
    assert "PNG, JPEG or WebP" in str(response.json())


def test_a_logo_over_the_byte_limit_is_refused(api_as, coach, team, settings):
    settings.TEAM_LOGO_MAX_BYTES = 500
    response = api_as(coach).post(
        f"/api/v1/teams/{team.pk}/logo/",
        {"logo": upload(image_bytes(size=(400, 400)) + b"\0" * 600)},
        format="multipart",
    )

    assert response.status_code == 400
    assert "larger than 500 bytes" in str(response.json())


def test_a_logo_over_the_pixel_limit_is_refused(api_as, coach, team, settings):
    settings.TEAM_LOGO_MAX_SIDE = 100
    response = api_as(coach).post(
        f"/api/v1/teams/{team.pk}/logo/", {"logo": upload(image_bytes(size=(101, 50)))}, format="multipart"
    )

    assert response.status_code == 400
    assert "100×100" in str(response.json())


def test_a_decompression_bomb_is_refused_from_its_header(api_as, coach, team):
    response = api_as(coach).post(f"/api/v1/teams/{team.pk}/logo/", {"logo": upload(bomb_png())}, format="multipart")

    assert response.status_code == 400
    assert Team.objects.get(pk=team.pk).logo_key == ""


def test_another_coach_may_not_change_the_logo_or_colours(api_as, team, other_coach, other_team):
    client = api_as(other_coach)

    posted = client.post(f"/api/v1/teams/{team.pk}/logo/", {"logo": upload(image_bytes())}, format="multipart")

    assert posted.status_code == 403
    assert client.patch(f"/api/v1/teams/{team.pk}/", {"primary_colour": "#000000"}, format="json").status_code == 403
    assert api_as(None).delete(f"/api/v1/teams/{team.pk}/logo/").status_code == 401
    assert Team.objects.get(pk=team.pk).primary_colour == "#1f3a5f"


def test_the_commissioner_may_change_a_team_s_looks_and_it_is_audited(api_as, commissioner, team):
    client = api_as(commissioner)
    client.post(f"/api/v1/teams/{team.pk}/logo/", {"logo": upload(image_bytes())}, format="multipart")

    response = client.delete(f"/api/v1/teams/{team.pk}/logo/?reason=Offensive")

    assert response.status_code == 204
    assert Team.objects.get(pk=team.pk).logo_key == ""
    actions = list(AuditEntry.objects.filter(league=team.league).values_list("action", "reason"))
    assert ("team_logo", "Offensive") in actions


def test_colours_are_patched_validated_and_served_as_a_stylesheet(api_as, api, coach, team):
    client = api_as(coach)

    assert client.patch(f"/api/v1/teams/{team.pk}/", {"primary_colour": "red"}, format="json").status_code == 400
    assert client.patch(f"/api/v1/teams/{team.pk}/", {"primary_colour": 5}, format="json").status_code == 400
    response = client.patch(
        f"/api/v1/teams/{team.pk}/", {"primary_colour": "#AA0000", "secondary_colour": "#00ff00"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["primary_colour"] == "#aa0000"
    css = api.get(f"/teams/{team.pk}/colours.css")
    assert css["Content-Type"].startswith("text/css")
    assert f".team-{team.pk}{{--team-primary:#aa0000;--team-secondary:#00ff00}}" in css.content.decode()
    again = api.get(f"/teams/{team.pk}/colours.css", HTTP_IF_NONE_MATCH=css["ETag"])
    assert again.status_code == 304


def test_the_team_page_links_its_colours_and_shows_its_logo_and_share_tags(client, api_as, coach, team):
    api_as(coach).post(f"/api/v1/teams/{team.pk}/logo/", {"logo": upload(image_bytes())}, format="multipart")
    team.refresh_from_db()

    page = client.get(f"/teams/{team.pk}/").content.decode()

    assert f'href="/teams/{team.pk}/colours.css"' in page
    assert f"/teams/{team.pk}/logo/{team.logo_key}-64.png" in page
    assert '<meta property="og:title" content="Alice&#x27;s Humes">' in page
    image = f"http://testserver/teams/{team.pk}/logo/{team.logo_key}-256.png"
    assert f'<meta property="og:image" content="{image}">' in page
    assert 'name="twitter:card"' in page
    assert "style=" not in page


def test_the_team_page_form_saves_colours_and_a_logo_without_javascript(client, coach, team):
    client.force_login(coach)

    response = client.post(
        f"/teams/{team.pk}/identity/",
        {"primary_colour": "#123456", "secondary_colour": "#abcdef", "logo": upload(image_bytes("JPEG"), "a.jpg")},
    )

    assert response.status_code == 302
    team.refresh_from_db()
    assert (team.primary_colour, team.secondary_colour) == ("#123456", "#abcdef") and team.logo_key


def test_the_form_changes_nothing_when_the_logo_is_bad(client, coach, team):
    client.force_login(coach)

    client.post(f"/teams/{team.pk}/identity/", {"primary_colour": "#123456", "logo": upload(b"nope")})

    team.refresh_from_db()
    assert team.primary_colour == "#1f3a5f" and team.logo_key == ""


def test_the_commissioner_s_form_change_is_audited_and_a_stranger_is_refused(client, commissioner, stranger, team):
    client.force_login(stranger)
    refused = client.post(f"/teams/{team.pk}/identity/", {"primary_colour": "#000000"})
    assert refused.status_code == 403

    client.force_login(commissioner)
    page = client.get(f"/teams/{team.pk}/").content.decode()
    assert 'id="team-identity-form"' in page and 'name="reason"' in page
    client.post(f"/teams/{team.pk}/identity/", {"primary_colour": "#000000", "reason": "Clash with the ball"})

    team.refresh_from_db()
    assert team.primary_colour == "#000000"
    entry = AuditEntry.objects.get(league=team.league, action="team_colours")
    assert entry.reason == "Clash with the ball" and entry.after["primary_colour"] == "#000000"


def test_a_visitor_sees_no_identity_form(client, team):
    assert 'id="team-identity-form"' not in client.get(f"/teams/{team.pk}/").content.decode()
