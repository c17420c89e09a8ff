"""The match share card: a 1200×630 PNG (OpenGraph's size) with the teams, their colours and logos, the score
and the league — drawn by Pillow from plain values (`CardSide`), so the drawing is testable without a database.
Its cache key is the hash of every value drawn (`card_key`): a correction, a new logo or colour is a new card."""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import asdict, dataclass
from functools import lru_cache

from PIL import Image, ImageColor, ImageDraw, ImageFont

SIZE = (1200, 630)
FONT_DIR = "/usr/share/fonts/truetype/dejavu/"


@dataclass(frozen=True)
class CardSide:
    name: str
    primary: str
    secondary: str
    score: int | None  # None until the result is final
    logo_key: str = ""


@lru_cache(maxsize=16)
def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans (Debian's fonts-dejavu-core), else Pillow's own scalable default font."""
    try:
        return ImageFont.truetype(FONT_DIR + ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"), size)
    except OSError:
        return ImageFont.load_default(size=size)


def card_key(*, match_id: int, headline: str, status: str, sides: list[CardSide]) -> str:
    payload = json.dumps([match_id, headline, status, [asdict(s) for s in sides]], sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int, size: int) -> tuple[str, ImageFont.ImageFont]:
    """The text in the largest font up to `size` that fits `width` (shortened with … at the smallest)."""
    for s in range(size, 23, -4):
        f = font(s)
        if draw.textlength(text, font=f) <= width:
            return text, f
    f = font(24)
    while text and draw.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text + "…", f


def _text_colour(background: str) -> str:
    r, g, b = ImageColor.getrgb(background)[:3]
    return "#111111" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#ffffff"


def draw_card(*, headline: str, status: str, sides: list[CardSide], logos: dict[str, bytes]) -> bytes:
    """The PNG bytes. Two sides face each other left and right; three or more (a Bone Cruncher brawl) are rows."""
    width, height = SIZE
    image = Image.new("RGB", SIZE, "#20232a")
    draw = ImageDraw.Draw(image)
    shown = sides[:6] or [CardSide("—", "#444444", "#888888", None)]
    if len(shown) == 2:
        for i, side in enumerate(shown):
            x0 = i * width // 2
            draw.rectangle([x0, 0, x0 + width // 2, height], fill=side.primary)
            draw.rectangle([x0, height - 24, x0 + width // 2, height], fill=side.secondary)
            ink = _text_colour(side.primary)
            centre = x0 + width // 4
            logo = logos.get(side.logo_key)
            if logo:
                mark = Image.open(io.BytesIO(logo)).convert("RGBA").resize((200, 200))
                image.paste(mark, (centre - 100, 110), mark)
            name, f = _fit(draw, side.name, width // 2 - 60, 52)
            draw.text((centre, 350), name, font=f, fill=ink, anchor="mm")
            score = "–" if side.score is None else str(side.score)
            draw.text((centre, 470), score, font=font(120), fill=ink, anchor="mm")
        draw.ellipse([width // 2 - 48, 232, width // 2 + 48, 328], fill="#20232a")
        draw.text((width // 2, 280), "v", font=font(48), fill="#ffffff", anchor="mm")
    else:
        row = (height - 140) // len(shown)
        for i, side in enumerate(shown):
            y0 = 90 + i * row
            draw.rectangle([0, y0, width, y0 + row - 6], fill=side.primary)
            draw.rectangle([0, y0, 18, y0 + row - 6], fill=side.secondary)
            ink = _text_colour(side.primary)
            name, f = _fit(draw, side.name, width - 300, min(48, row - 20))
            draw.text((40, y0 + (row - 6) // 2), name, font=f, fill=ink, anchor="lm")
            score = "–" if side.score is None else str(side.score)
            draw.text((width - 40, y0 + (row - 6) // 2), score, font=font(min(64, row - 16)), fill=ink, anchor="rm")
    band = Image.new("RGBA", (width, 72), (0, 0, 0, 170))
    image.paste(band, (0, 0), band)
    title, f = _fit(draw, headline, width - 360, 34)
    draw.text((28, 36), title, font=f, fill="#ffffff", anchor="lm")
    draw.text((width - 28, 36), f"{status} · Dugout", font=font(28, bold=False), fill="#ffffff", anchor="rm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
