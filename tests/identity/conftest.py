import io

import pytest
from PIL import Image

from tests.matches.conftest import full_team


def image_bytes(fmt: str = "PNG", size=(300, 200), colour=(200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format=fmt)
    return out.getvalue()


@pytest.fixture
def home(league, coach):
    return full_team(league, coach, "Home")


@pytest.fixture
def away(league, other_coach):
    return full_team(league, other_coach, "Away")
