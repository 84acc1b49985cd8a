"""Card-face assets for the synthetic data: SVG decks from Debian packages rendered to PNG, one per card.

Training-time only (needs ``rsvg-convert`` from Debian's ``librsvg2-bin``; the decks come from
``gnome-cards-data`` and ``kdegames-card-data-kf5``). Each deck is rendered once into
``data/decks/<name>/<CODE>.png`` (RGBA, card height :data:`CARD_H`) plus ``BACK.png``; the printed
corner-index box of every face is found by :func:`index_boxes` inside a per-deck search region.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["C", "D", "H", "S"]
CARDS = [r + s for s in SUITS for r in RANKS]
CARD_H = 320

_SUIT_NAMES = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_RANK_NAMES = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}

@dataclass(frozen=True)
class SvgDeck:
    """One SVG deck file; ``scheme`` says how card ids are spelt (``suit_rank`` or ``rank_suit``).

    ``region`` is where the top-left index lies, as fractions ``(x1, y1, x2, y2)`` of the card; the
    bottom-right index is the same region turned by 180 degrees.
    """

    name: str
    path: str
    scheme: str
    region: tuple[float, float, float, float]
    licence: str

AISLE = "/usr/share/aisleriot/cards/"
KDE = "/usr/share/carddecks/"

DECKS: list[SvgDeck] = [
    SvgDeck("anglo", AISLE + "anglo.svgz", "suit_rank", (0.0, 0.0, 0.2, 0.3), "GPL-3+ (gnome-cards-data)"),
    SvgDeck("anglo_modern", AISLE + "anglo_modern.svgz", "suit_rank", (0.0, 0.0, 0.2, 0.3), "GPL-3+ (gnome-cards-data)"),
    SvgDeck("bellot", AISLE + "bellot.svgz", "suit_rank", (0.0, 0.0, 0.2, 0.3), "GPL-3+ (gnome-cards-data)"),
    SvgDeck("gnomangelo", AISLE + "gnomangelo.svgz", "suit_rank", (0.0, 0.0, 0.2, 0.3), "GPL-3+ (gnome-cards-data)"),
    SvgDeck("neoclassical", AISLE + "neoclassical.svgz", "suit_rank", (0.0, 0.0, 0.2, 0.3), "GPL-3+ (gnome-cards-data)"),
    SvgDeck("ornamental", AISLE + "ornamental.svgz", "suit_rank", (0.0, 0.0, 0.27, 0.36), "GPL-3+ (gnome-cards-data)"),
    SvgDeck("paris", AISLE + "paris.svgz", "suit_rank", (0.0, 0.0, 0.2, 0.3), "GPL-3+ (gnome-cards-data)"),
    SvgDeck("plastic", AISLE + "plastic.svgz", "suit_rank", (0.0, 0.0, 0.2, 0.3), "GPL-3+ (gnome-cards-data)"),
    SvgDeck("simplistic", AISLE + "simplistic.svgz", "suit_rank", (0.0, 0.0, 0.2, 0.3), "GPL-3+ (gnome-cards-data)"),
    SvgDeck("tigullio", AISLE + "tigullio.svgz", "suit_rank", (0.0, 0.0, 0.2, 0.3), "GPL-3+ (gnome-cards-data)"),
    SvgDeck("atlasnye", AISLE + "atlasnye.svgz", "suit_rank", (0.0, 0.0, 0.2, 0.3), "GPL-3+ (gnome-cards-data)"),

    SvgDeck("nicu_white", KDE + "svg-nicu-white/white.svgz", "rank_suit", (0.0, 0.0, 0.27, 0.36), "GPL-2+ (kdegames-card-data-kf5)"),
    SvgDeck("jolly_royal", KDE + "svg-jolly-royal/jolly-royal.svgz", "rank_suit", (0.0, 0.0, 0.27, 0.36), "GPL-2+ (kdegames-card-data-kf5)"),
    SvgDeck("penguins", KDE + "svg-penguins/penguins.svgz", "rank_suit", (0.0, 0.0, 0.27, 0.36), "GPL-3+ (kdegames-card-data-kf5)"),
    SvgDeck("standard", KDE + "svg-standard/standard.svgz", "rank_suit", (0.0, 0.0, 0.2, 0.3), "GPL-2+ (kdegames-card-data-kf5)"),
    SvgDeck("tigullio_intl", KDE + "svg-tigullio-international/tigullio-international.svgz", "rank_suit", (0.0, 0.0, 0.2, 0.3), "LGPL-2+ (kdegames-card-data-kf5)"),
    SvgDeck("egyptians", KDE + "svg-ancient-egyptians/Ancient_Egyptians.svgz", "rank_suit", (0.0, 0.0, 0.27, 0.36), "GPL-2+ (kdegames-card-data-kf5)"),
]

def svg_id(deck: SvgDeck, card: str) -> str:
    if card == "BACK":
        return "back"
    rank, suit = card[:-1], card[-1]
    r, s = _RANK_NAMES.get(rank, rank), _SUIT_NAMES[suit]
    return f"{s}_{r}" if deck.scheme == "suit_rank" else f"{r}_{s}"

def _render_one(path: str, element: str, zoom: float, out: Path) -> np.ndarray | None:
    import cv2

    subprocess.run(["rsvg-convert", "-i", element, "-z", f"{zoom}", path, "-o", str(out)],
                   check=True, capture_output=True)
    img = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        return None
    ys, xs = np.nonzero(img[..., 3] > 8)
    if len(xs) == 0:
        return None
    return img[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]

def render_deck(deck: SvgDeck, root: Path, cards: list[str] | None = None) -> Path:
    """Render every card of ``deck`` to ``root/<name>/<CODE>.png`` at height :data:`CARD_H`."""
    import cv2

    out = root / deck.name
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / "_tmp.png"
    probe = _render_one(deck.path, svg_id(deck, "AS"), 1.0, tmp)
    if probe is None:
        raise ValueError(f"deck {deck.name!r}: no element {svg_id(deck, 'AS')!r} in {deck.path}")
    zoom = CARD_H * 1.02 / probe.shape[0]
    for card in (cards or CARDS + ["BACK"]):
        img = _render_one(deck.path, svg_id(deck, card), zoom, tmp)
        if img is None:
            continue
        h, w = img.shape[:2]
        img = cv2.resize(img, (round(w * CARD_H / h), CARD_H), interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(out / f"{card}.png"), img)
    tmp.unlink(missing_ok=True)
    return out

if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="render the SVG decks to PNG")
    ap.add_argument("--root", default="data/decks")
    ap.add_argument("--cards", nargs="*")
    ap.add_argument("--decks", nargs="*")
    a = ap.parse_args()
    for d in DECKS:
        if a.decks and d.name not in a.decks:
            continue
        try:
            render_deck(d, Path(a.root), a.cards)
            print("ok", d.name, flush=True)
        except Exception as e:  # noqa: BLE001 - report and go on with the next deck
            print("FAIL", d.name, e, flush=True)

def _ink_boxes(img: np.ndarray, region: tuple[float, float, float, float]) -> tuple[int, int, int, int] | None:
    """Bounding box of the ink lying wholly inside ``region`` (fractions of the card) of an RGBA card."""
    import cv2

    h, w = img.shape[:2]
    x1, y1, x2, y2 = int(region[0] * w), int(region[1] * h), int(region[2] * w), int(region[3] * h)
    rgb = img[..., :3].astype(np.int16)
    opaque = img[..., 3] > 128
    roi = rgb[y1:y2, x1:x2][opaque[y1:y2, x1:x2]]
    if len(roi) == 0:
        return None
    paper = np.median(roi, axis=0)
    ink = (np.abs(rgb - paper).sum(axis=2) > 90) & opaque
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    bx1, by1, bx2, by2 = w, h, 0, 0
    for i in range(1, n):
        cx, cy, cw, ch, area = stats[i]
        if area < 4 or cx < x1 or cy < y1 or cx + cw > x2 or cy + ch > y2:
            continue
        bx1, by1, bx2, by2 = min(bx1, cx), min(by1, cy), max(bx2, cx + cw), max(by2, cy + ch)
    if bx2 <= bx1:
        return None
    return bx1, by1, bx2, by2

def index_boxes(img: np.ndarray, region: tuple[float, float, float, float]) -> list[tuple[int, int, int, int]]:
    """Pixel boxes ``(x1, y1, x2, y2)`` of the two printed corner indices of one card image."""
    h, w = img.shape[:2]
    out = []
    a = _ink_boxes(img, region)
    if a:
        out.append(a)
    rot = img[::-1, ::-1]
    b = _ink_boxes(np.ascontiguousarray(rot), region)
    if b:
        out.append((w - b[2], h - b[3], w - b[0], h - b[1]))
    return out

def write_index_file(deck_dir: Path, region: tuple[float, float, float, float]) -> dict[str, list[list[int]]]:
    import cv2

    boxes: dict[str, list[list[int]]] = {}
    for card in CARDS:
        f = deck_dir / f"{card}.png"
        if f.exists():
            img = cv2.imread(str(f), cv2.IMREAD_UNCHANGED)
            boxes[card] = [list(map(int, b)) for b in index_boxes(img, region)]
    (deck_dir / "index.json").write_text(json.dumps(boxes))
    return boxes
