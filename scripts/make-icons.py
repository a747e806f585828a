#!/usr/bin/env python3
"""Draws Public/icon-192.png and Public/icon-512.png, the web app manifest's home-screen icons,
from the shapes of Public/favicon.svg (redrawn here with Pillow: no SVG renderer is needed).

    .venv/bin/python scripts/make-icons.py   # the e2e venv has Pillow (Tests/e2e/requirements.txt)

Run it again after changing favicon.svg, and commit the PNGs.
"""
from pathlib import Path

from PIL import Image, ImageDraw

PUBLIC = Path(__file__).resolve().parent.parent / "Public"
BACKGROUND = "#faf7f2"  # --color-bg, the manifest's background_color
SUPERSAMPLE = 4


def draw(size: int) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), BACKGROUND)
    pen = ImageDraw.Draw(image, "RGBA")
    # The SVG's 64-unit box fills the middle 80%: room for launchers that round the corners.
    unit = big * 0.8 / 64
    left = big * 0.1 - 0.5 * unit  # the drawing spans x 9..55: centred

    def xy(x: float, y: float) -> tuple[float, float]:
        return (left + x * unit, big * 0.1 + y * unit)

    def rect(x, y, w, h, r, fill, stroke=None, width=0.0):
        if stroke:
            half = width / 2
            pen.rounded_rectangle([xy(x - half, y - half), xy(x + w + half, y + h + half)], radius=(r + half) * unit, fill=stroke)
            pen.rounded_rectangle([xy(x + half, y + half), xy(x + w - half, y + h - half)], radius=max(r - half, 0) * unit, fill=fill)
        else:
            pen.rounded_rectangle([xy(x, y), xy(x + w, y + h)], radius=r * unit, fill=fill)

    # pages, seen from the fore-edge
    rect(14, 9, 40, 50, 4, "#f7efe2", "#5c2012", 2)
    for y in (53, 56):
        pen.line([xy(20, y), xy(51, y)], fill="#c9bba5", width=round(1.5 * unit))
    # cover
    rect(10, 5, 40, 48, 4, "#8c2f1b", "#5c2012", 2)
    rect(15, 5, 3, 48, 0, "#6e2414")
    # title plate
    rect(22, 14, 22, 4, 2, "#f7efe2")
    rect(22, 22, 15, 3, 1.5, (0xF7, 0xEF, 0xE2, 191))
    # bookmark ribbon: the wish
    ribbon = [xy(36, 5), xy(46, 5), xy(46, 29), xy(41, 24), xy(36, 29)]
    pen.polygon(ribbon, fill="#e8b04a", outline="#7a5410", width=round(1.5 * unit))
    return image.resize((size, size), Image.LANCZOS).convert("RGB")


for size in (192, 512):
    path = PUBLIC / f"icon-{size}.png"
    draw(size).save(path, optimize=True)
    print(path, path.stat().st_size, "bytes")
