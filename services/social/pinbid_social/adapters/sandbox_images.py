"""Generated post images for the sandbox: deterministic per post id, rendered once and cached."""

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from ..domain.sandbox_world import palette

SIZE = 640


@lru_cache(maxsize=512)
def post_image(media_id: str, caption: str = "") -> bytes:
    (r1, g1, b1), (r2, g2, b2), pattern = palette(media_id)
    image = Image.new("RGB", (SIZE, SIZE))
    draw = ImageDraw.Draw(image)
    for y in range(SIZE):  # vertical gradient
        t = y / (SIZE - 1)
        draw.line([(0, y), (SIZE, y)], fill=(int(r1 + (r2 - r1) * t), int(g1 + (g2 - g1) * t), int(b1 + (b2 - b1) * t)))
    light = (255, 255, 255)
    if pattern == 0:
        for i in range(6):
            draw.ellipse([80 + i * 60, 120 + i * 40, 240 + i * 60, 280 + i * 40], outline=light, width=4)
    elif pattern == 1:
        for i in range(0, SIZE, 64):
            draw.line([(i, 0), (SIZE, SIZE - i)], fill=light, width=3)
    elif pattern == 2:
        draw.rectangle([140, 140, 500, 500], outline=light, width=10)
        draw.ellipse([240, 240, 400, 400], fill=light)
    else:
        draw.polygon([(320, 90), (560, 520), (80, 520)], outline=light, width=8)
    font = ImageFont.load_default(size=30)
    text = (caption or "pinbid sandbox")[:34]
    draw.rectangle([0, SIZE - 90, SIZE, SIZE], fill=(0, 0, 0))
    draw.text((24, SIZE - 68), text, fill=light, font=font)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
