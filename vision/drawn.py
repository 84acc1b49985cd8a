"""Card faces drawn from fonts: extra deck designs whose index boxes are known exactly.

Training-time only (Pillow, from the training venv). Each style picks a font for the rank, a suit glyph
font, an index layout (rank above suit, or side by side), colours (two- or four-colour) and a paper
tint; pips or a framed court picture fill the middle. Written like the SVG decks:
``data/decks/<name>/<CODE>.png`` plus ``index.json`` with the two corner-index boxes of each card.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.decks import CARD_H, CARDS

FONTS = "/usr/share/fonts/truetype/"


@dataclass(frozen=True)
class Style:
    name: str
    rank_font: str
    suit_font: str
    index_h: float  # rank glyph height as a fraction of the card height
    side_by_side: bool
    four_colour: bool
    paper: tuple[int, int, int]


STYLES = [
    Style("drawn_dejavu_bold", "dejavu/DejaVuSans-Bold.ttf", "dejavu/DejaVuSans.ttf", 0.09, False, False, (250, 250, 250)),
    Style("drawn_serif", "dejavu/DejaVuSerif.ttf", "freefont/FreeSerif.ttf", 0.08, False, False, (245, 242, 232)),
    Style("drawn_liberation_serif", "liberation/LiberationSerif-Bold.ttf", "dejavu/DejaVuSans.ttf", 0.1, False, True, (252, 252, 248)),
    Style("drawn_mono", "freefont/FreeMonoBold.ttf", "freefont/FreeSerif.ttf", 0.085, False, False, (240, 240, 240)),
    Style("drawn_condensed", "dejavu/DejaVuSansCondensed-Bold.ttf", "dejavu/DejaVuSans.ttf", 0.12, False, False, (255, 255, 255)),
    Style("drawn_side", "liberation/LiberationSans-Bold.ttf", "freefont/FreeSerif.ttf", 0.075, True, False, (248, 248, 252)),
    Style("drawn_freesans", "freefont/FreeSans.ttf", "dejavu/DejaVuSans-Bold.ttf", 0.095, False, True, (250, 247, 240)),
    # fifth session: a big narrow index (as large as the penguins deck's), a condensed slab serif, an italic
    Style("drawn_narrow_big", "liberation/LiberationSansNarrow-Bold.ttf", "dejavu/DejaVuSans.ttf", 0.13, False, False, (252, 252, 252)),
    Style("drawn_serif_condensed", "dejavu/DejaVuSerifCondensed-Bold.ttf", "freefont/FreeSerif.ttf", 0.1, False, True, (246, 244, 236)),
    Style("drawn_italic", "freefont/FreeSerifBoldItalic.ttf", "dejavu/DejaVuSans.ttf", 0.09, True, False, (250, 250, 246)),
]

SUIT_GLYPH = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
TWO = {"S": (20, 20, 20), "C": (20, 20, 20), "H": (200, 20, 30), "D": (200, 20, 30)}
FOUR = {"S": (20, 20, 20), "C": (20, 120, 40), "H": (200, 20, 30), "D": (30, 60, 200)}

PIPS = {  # (x, y) fractions of the pip area
    1: [(0.5, 0.5)], 2: [(0.5, 0.0), (0.5, 1.0)], 3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)], 5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)],
}


def draw_card(style: Style, card: str, rng: random.Random) -> tuple[np.ndarray, list[list[int]]]:
    """One RGBA card face and its two corner-index boxes."""
    from PIL import Image, ImageDraw, ImageFont

    h = CARD_H
    w = int(h * 0.714)
    rank, suit = card[:-1], card[-1]
    colour = (FOUR if style.four_colour else TWO)[suit]
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([0, 0, w - 1, h - 1], radius=int(w * 0.06), fill=style.paper + (255,), outline=(90, 90, 90, 255))
    rf = ImageFont.truetype(FONTS + style.rank_font, int(h * style.index_h * 1.35))
    sf = ImageFont.truetype(FONTS + style.suit_font, int(h * style.index_h * 1.1))
    m = int(w * 0.05)
    rb = d.textbbox((0, 0), rank, font=rf)
    sb = d.textbbox((0, 0), SUIT_GLYPH[suit], font=sf)
    rw, rh = rb[2] - rb[0], rb[3] - rb[1]
    sw, sh = sb[2] - sb[0], sb[3] - sb[1]
    if rank == "10" and rw > w * 0.2:  # squeeze a wide "10" the way printed decks do
        rf = ImageFont.truetype(FONTS + style.rank_font, int(h * style.index_h * 1.35 * w * 0.2 / rw))
        rb = d.textbbox((0, 0), rank, font=rf)
        rw, rh = rb[2] - rb[0], rb[3] - rb[1]
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ld = ImageDraw.Draw(layer)
    if style.side_by_side:
        rx, ry = m, m
        sx, sy = m + rw + 2, m + (rh - sh) // 2
    else:
        rx, ry = m + max(0, (sw - rw) // 2), m
        sx, sy = m + max(0, (rw - sw) // 2), m + rh + int(h * 0.012)
    ld.text((rx - rb[0], ry - rb[1]), rank, font=rf, fill=colour + (255,))
    ld.text((sx - sb[0], sy - sb[1]), SUIT_GLYPH[suit], font=sf, fill=colour + (255,))
    box = [min(rx, sx), min(ry, sy), max(rx + rw, sx + sw), max(ry + rh, sy + sh)]
    img = Image.alpha_composite(img, layer)
    img = Image.alpha_composite(img, layer.rotate(180))
    boxes = [box, [w - box[2], h - box[3], w - box[0], h - box[1]]]
    # middle: pips or a framed court picture, kept clear of the index boxes
    d = ImageDraw.Draw(img)
    px1, py1, px2, py2 = int(w * 0.3), int(h * 0.17), int(w * 0.7), int(h * 0.83)
    if rank in ("J", "Q", "K"):
        fx1, fy1, fx2, fy2 = box[2] + 4, box[1] + 2, w - box[2] - 4, h - box[1] - 2
        d.rectangle([fx1, fy1, fx2, fy2], outline=colour + (255,), width=2)
        for _ in range(14):
            x, y = rng.randint(fx1 + 4, fx2 - 20), rng.randint(fy1 + 4, fy2 - 20)
            c = tuple(rng.randint(0, 255) for _ in range(3)) + (255,)
            d.ellipse([x, y, x + rng.randint(8, 30), y + rng.randint(8, 30)], fill=c)
        big = ImageFont.truetype(FONTS + style.rank_font, int(h * 0.3))
        d.text((w // 2, h // 2), rank, font=big, fill=colour + (255,), anchor="mm")
    else:
        n = 1 if rank == "A" else int(rank)
        pf = ImageFont.truetype(FONTS + style.suit_font, int(h * (0.32 if n == 1 else 0.12)))
        for fx, fy in PIPS[n]:
            x = px1 + fx * (px2 - px1) if n > 3 else w / 2
            y = py1 + fy * (py2 - py1) if n > 1 else h / 2
            d.text((x, y), SUIT_GLYPH[suit], font=pf, fill=colour + (255,), anchor="mm")
    arr = np.array(img)[..., [2, 1, 0, 3]]  # RGBA -> BGRA for OpenCV
    return arr, boxes


def draw_back(rng: random.Random) -> np.ndarray:
    """A card back: a border and a random pattern in one or two colours."""
    import cv2

    h = CARD_H
    w = int(h * 0.714)
    c1 = np.array([rng.randint(0, 200) for _ in range(3)], np.uint8)
    c2 = np.array([rng.randint(100, 255) for _ in range(3)], np.uint8)
    img = np.zeros((h, w, 4), np.uint8)
    img[..., :3] = 250
    img[..., 3] = 255
    b = int(w * rng.uniform(0.03, 0.08))
    img[b:h - b, b:w - b, :3] = c1
    kind = rng.randint(0, 2)
    yy, xx = np.mgrid[0:h, 0:w]
    s = rng.randint(6, 16)
    if kind == 0:
        mask = ((xx + yy) // s + (xx - yy + h) // s) % 2 == 0
    elif kind == 1:
        mask = ((xx // s) + (yy // s)) % 2 == 0
    else:
        mask = (np.sin(xx / s) + np.sin(yy / s)) > 0.3
    inner = np.zeros((h, w), bool)
    inner[b + 3:h - b - 3, b + 3:w - b - 3] = True
    img[mask & inner, :3] = c2
    r = int(w * 0.06)
    corner = np.zeros((h, w), np.uint8)
    cv2.rectangle(corner, (r, 0), (w - r, h), 255, -1)
    cv2.rectangle(corner, (0, r), (w, h - r), 255, -1)
    for cx, cy in ((r, r), (w - r, r), (r, h - r), (w - r, h - r)):
        cv2.circle(corner, (cx, cy), r, 255, -1)
    img[..., 3] = corner
    return img


def write_style(style: Style, root: Path, seed: int = 0) -> Path:
    import cv2

    rng = random.Random(seed)
    out = root / style.name
    out.mkdir(parents=True, exist_ok=True)
    index = {}
    for card in CARDS:
        img, boxes = draw_card(style, card, rng)
        cv2.imwrite(str(out / f"{card}.png"), img)
        index[card] = boxes
    cv2.imwrite(str(out / "BACK.png"), draw_back(rng))
    (out / "index.json").write_text(json.dumps(index))
    return out


if __name__ == "__main__":
    import sys

    root = Path(sys.argv[1] if len(sys.argv) > 1 else "data/decks")
    for i, st in enumerate(STYLES):
        write_style(st, root, seed=i)
        print("ok", st.name)
