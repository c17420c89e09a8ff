"""A team logo upload made safe: the type read from the image itself (PNG, JPEG or WebP, never the file's name),
the bytes and the pixels bounded by settings before any pixel is decoded (a decompression bomb is refused from
its header), then re-encoded as square PNGs of fixed sizes — so what the site serves is always a PNG it wrote."""

from __future__ import annotations

import hashlib
import io
import struct
import warnings
import zlib

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, PngImagePlugin, UnidentifiedImageError

from campaigns.errors import RuleViolation

ALLOWED_FORMATS = ("PNG", "JPEG", "WEBP")


def metadata_too_large_message() -> str:
    """Why a logo whose compressed text chunk (zTXt, iTXt) or colour profile (iCCP) unpacks to hundreds of MB is
    refused (translated when raised, in the request's language)."""
    return _(
        "The logo's metadata (its text or colour profile) is too large to unpack. "
        "Save the image again without metadata and upload it."
    )


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


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _compressed_metadata(kind: bytes, body: bytes) -> bytes | None:
    """The zlib stream of a compressed PNG metadata chunk (zTXt, a compressed iTXt, iCCP), else None."""
    rest = body.partition(b"\0")[2]  # after the keyword or profile name
    if kind in (b"zTXt", b"iCCP"):
        return rest[1:]  # compression method, then the stream
    if kind == b"iTXt" and rest[:1] == b"\1":  # compressed flag, method, language\0, translated keyword\0, text
        return rest[2:].split(b"\0", 2)[-1]
    return None


def png_metadata_too_large(data: bytes) -> bool:
    """True when a PNG's compressed metadata would inflate past Pillow's own bounds (MAX_TEXT_CHUNK per chunk,
    MAX_TEXT_MEMORY in all): a metadata bomb. Checked here, each stream inflated at most one byte past the bound,
    because Pillow only refuses one while ImageFile.LOAD_TRUNCATED_IMAGES is off — and WeasyPrint (the PDFs)
    turns that on for the whole process when it is imported, after which Pillow drops the chunk silently."""
    if not data.startswith(PNG_SIGNATURE):
        return False
    chunk_limit, total_limit = PngImagePlugin.MAX_TEXT_CHUNK, PngImagePlugin.MAX_TEXT_MEMORY
    total, at = 0, len(PNG_SIGNATURE)
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + length]
        at += 12 + length  # length, type, body, CRC
        stream = _compressed_metadata(kind, body)
        if stream is None:
            if kind == b"IEND":
                break
            continue
        try:
            inflated = len(zlib.decompressobj().decompress(stream, chunk_limit + 1))
        except zlib.error:
            continue  # a damaged stream is Pillow's to judge, not a bomb
        total += inflated
        if inflated > chunk_limit or total > total_limit:
            return True
    return False


def logo_renditions(data: bytes) -> dict[int, bytes]:
    """The upload's PNG renditions by size, or a RuleViolation saying what is wrong with it (nothing stored)."""
    limit, side = settings.TEAM_LOGO_MAX_BYTES, settings.TEAM_LOGO_MAX_SIDE
    if not data:
        raise RuleViolation("The logo file is empty.", field="logo")
    if len(data) > limit:
        raise RuleViolation(f"The logo is larger than {limit} bytes.", field="logo")
    if png_metadata_too_large(data):
        raise RuleViolation(metadata_too_large_message(), field="logo")
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
        # Pillow's own bound on metadata (png_metadata_too_large's, while no PDF has been printed in the process).
        raise RuleViolation(metadata_too_large_message(), field="logo") from exc
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
