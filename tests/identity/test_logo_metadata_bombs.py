"""A logo whose metadata is a decompression bomb: a small 64×64 PNG whose compressed text chunk (zTXt, iTXt) or
colour profile (iCCP) inflates to 200 MB. The upload is a 400 in words naming the logo (the API) or an error
beside the logo field (the team page's form), and nothing changes — in a fresh process, where Pillow itself refuses
the chunk with a ValueError, and after a PDF was printed, where WeasyPrint's import has set Pillow's
LOAD_TRUNCATED_IMAGES and Pillow would drop the chunk silently."""

from __future__ import annotations

import functools
import io
import os
import struct
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageFile

from league.models import AuditEntry
from teams.models import Team

pytestmark = pytest.mark.django_db

INFLATED = 200 * 1024 * 1024


@functools.cache
def inflating_to_200_mb() -> bytes:
    """200 MB of zeros, zlib-compressed (about 200 KB), built a megabyte at a time."""
    packer = zlib.compressobj(9)
    megabyte = b"\0" * (1024 * 1024)
    return b"".join(packer.compress(megabyte) for _ in range(INFLATED // len(megabyte))) + packer.flush()


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


#: The body of each compressed metadata chunk (PNG spec 11.3): its keyword/name, then the compressed payload.
BOMB_BODIES = {
    "zTXt": lambda payload: b"Comment\0\0" + payload,  # keyword, NUL, compression method 0
    "iCCP": lambda payload: b"ICC profile\0\0" + payload,  # profile name, NUL, compression method 0
    "iTXt": lambda payload: b"Comment\0\1\0\0\0" + payload,  # keyword, compressed, method 0, no language/translation
}


def png_with(kind: str, *, after_pixels: bool = False) -> bytes:
    """A valid 64×64 PNG with one bomb chunk, before its pixels (read on open) or after them (read on load)."""
    out = io.BytesIO()
    Image.new("RGB", (64, 64), (200, 30, 30)).save(out, format="PNG")
    png = out.getvalue()
    bomb = chunk(kind.encode(), BOMB_BODIES[kind](inflating_to_200_mb()))
    at = png.index(b"IEND") - 4 if after_pixels else 8 + 25  # after IDAT / after the signature and IHDR
    return png[:at] + bomb + png[at:]


def upload(data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("logo.png", data, content_type="image/png")


def stored_logos(settings) -> list[str]:
    root = os.path.join(settings.MEDIA_ROOT, "team-logos")
    return [name for _, _, names in os.walk(root) for name in names]


@pytest.fixture(params=["fresh-process", "after-a-pdf"])
def pillow_state(request, monkeypatch):
    """Pillow as a worker finds it: untouched, or as WeasyPrint's import leaves it (weasyprint/images.py)."""
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", request.param == "after-a-pdf")
    return request.param


BOMBS = [
    pytest.param("zTXt", False, id="zTXt"),
    pytest.param("iCCP", False, id="iCCP"),
    pytest.param("iTXt", False, id="iTXt"),
    pytest.param("zTXt", True, id="zTXt-after-the-pixels"),
]


@pytest.mark.parametrize(("kind", "after_pixels"), BOMBS)
def test_the_api_refuses_a_logo_whose_metadata_inflates_to_200_mb(
    api_as, coach, team, settings, pillow_state, kind, after_pixels
):
    response = api_as(coach).post(
        f"/api/v1/teams/{team.pk}/logo/",
        {"logo": upload(png_with(kind, after_pixels=after_pixels))},
        format="multipart",
    )

    assert response.status_code == 400, response.content[:300]
    message = " ".join(response.json()["logo"])
    assert "metadata" in message
    assert Team.objects.get(pk=team.pk).logo_key == ""
    assert stored_logos(settings) == []
    assert not AuditEntry.objects.filter(action="team_logo").exists()


@pytest.mark.parametrize(("kind", "after_pixels"), BOMBS)
def test_the_team_page_form_shows_the_error_by_the_logo_field_and_changes_nothing(
    client, coach, team, settings, pillow_state, kind, after_pixels
):
    client.force_login(coach)

    response = client.post(
        f"/teams/{team.pk}/identity/",
        {"primary_colour": "#123456", "logo": upload(png_with(kind, after_pixels=after_pixels))},
    )

    assert response.status_code == 400
    page = response.content.decode()
    field = page[page.index('name="logo"') - 200 : page.index('name="logo"') + 600]
    assert 'aria-invalid="true"' in field and "metadata" in field
    team.refresh_from_db()
    assert (team.primary_colour, team.logo_key) == ("#1f3a5f", "")
    assert stored_logos(settings) == []


def test_a_logo_with_small_compressed_metadata_is_still_accepted(api_as, coach, team, pillow_state):
    """The bound is Pillow's (MAX_TEXT_CHUNK): an ordinary compressed comment and colour profile pass."""
    small = zlib.compress(b"Made by the team's own artist. " * 100)
    data = png_with("zTXt")
    data = data.replace(
        chunk(b"zTXt", BOMB_BODIES["zTXt"](inflating_to_200_mb())), chunk(b"zTXt", b"Comment\0\0" + small)
    )

    response = api_as(coach).post(f"/api/v1/teams/{team.pk}/logo/", {"logo": upload(data)}, format="multipart")

    assert response.status_code == 200, response.content[:300]
    assert Team.objects.get(pk=team.pk).logo_key
