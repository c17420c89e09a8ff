import io

from PIL import Image


def image_bytes(fmt: str = "PNG", size=(300, 200), colour=(200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format=fmt)
    return out.getvalue()
