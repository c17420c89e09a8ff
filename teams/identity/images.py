"""A team logo upload made safe: the type read from the image itself (PNG, JPEG or WebP, never the file's name),
the bytes and the pixels bounded by settings before any pixel is decoded (a decompression bomb is refused from
its header), then re-encoded as square PNGs of fixed sizes — so what the site serves is always a PNG it wrote."""

from __future__ import annotations

import hashlib
import io
import warnings

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from campaigns.errors import RuleViolation

ALLOWED_FORMATS = ("PNG", "JPEG", "WEBP")


def logo_sizes() -> tuple[int, ...]:
    return tuple(settings.TEAM_LOGO_SIZES)


def logo_name(team_id: int, key: str, size: int) -> str:
    """The storage name of one re-encoded logo (the key is the content's hash: a new logo is a new name)."""
    return f"team-logos/{team_id}/{key}-{size}.png"


def _square(image: Image.Image, size: int) -> bytes:
    fitted = ImageOps.fit(image, (size, size), method=Image.Resampling.LANCZOS)
    out = io.BytesIO()
    fitted.save(out, format="PNG", optimize=True)
    return out.getvalue()


def logo_renditions(data: bytes) -> dict[int, bytes]:
    """The upload's PNG renditions by size, or a RuleViolation saying what is wrong with it (nothing stored)."""
    limit, side = settings.TEAM_LOGO_MAX_BYTES, settings.TEAM_LOGO_MAX_SIDE
    if not data:
        raise RuleViolation("The logo file is empty.", field="logo")
    if len(data) > limit:
        raise RuleViolation(f"The logo is larger than {limit} bytes.", field="logo")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            if image.format not in ALLOWED_FORMATS:
                raise RuleViolation("The logo must be a PNG, JPEG or WebP image.", field="logo")
            # The header's size, checked before a pixel is decoded: a bomb never reaches load().
            if image.width > side or image.height > side:
                raise RuleViolation(f"The logo is larger than {side}×{side} pixels.", field="logo")
            image.load()
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning, OSError) as exc:
        raise RuleViolation("The logo must be a PNG, JPEG or WebP image.", field="logo") from exc
    except ValueError as exc:
        # Pillow's own bound on metadata: a compressed text chunk (zTXt, iTXt) or colour profile (iCCP) that would
        # inflate past PngImagePlugin.MAX_TEXT_CHUNK / MAX_TEXT_MEMORY is refused with a ValueError, on open or on
        # load (a metadata bomb: a few hundred KB that unpack to hundreds of MB).
        raise RuleViolation(
            _(
                "The logo's metadata (its text or colour profile) is too large to unpack. "
                "Save the image again without metadata and upload it."
            ),
            field="logo",
        ) from exc
    image = ImageOps.exif_transpose(image).convert("RGBA")
    return {size: _square(image, size) for size in logo_sizes()}


def logo_key(renditions: dict[int, bytes]) -> str:
    return hashlib.sha256(renditions[max(renditions)]).hexdigest()[:16]


def logo_store(team_id: int, renditions: dict[int, bytes]) -> str:
    """Save the renditions through the default storage; answers their key."""
    key = logo_key(renditions)
    for size, png in renditions.items():
        name = logo_name(team_id, key, size)
        if not default_storage.exists(name):
            default_storage.save(name, ContentFile(png))
    return key


def logo_discard(team_id: int, key: str) -> None:
    """Delete a replaced logo's files (after the commit: a rolled-back change keeps them)."""
    for size in logo_sizes():
        name = logo_name(team_id, key, size)
        if default_storage.exists(name):
            default_storage.delete(name)


def logo_read(team_id: int, key: str, size: int) -> bytes | None:
    name = logo_name(team_id, key, size)
    if not key or not default_storage.exists(name):
        return None
    with default_storage.open(name, "rb") as handle:
        return handle.read()
