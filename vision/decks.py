"""Card-face assets for the synthetic data: SVG decks from Debian packages rendered to PNG, one per card.

Training-time only (needs ``rsvg-convert`` from Debian's ``librsvg2-bin``; the decks come from
``gnome-cards-data`` and ``kdegames-card-data-kf5``). Each deck is rendered once into
``data/decks/<name>/<CODE>.png`` (RGBA, card height :data:`CARD_H`) plus ``BACK.png``; the printed
corner-index box of every face is found by :func:`index_boxes` inside a per-deck search region.
More designs come from npm packages with one SVG per card (:data:`NPM_DECKS`, ``--npm``).
"""

from __future__ import annotations

import json
import re
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
    return _opaque_crop(cv2.imread(str(out), cv2.IMREAD_UNCHANGED))

def _opaque_crop(img: np.ndarray | None) -> np.ndarray | None:
    """The opaque card cut out of an RGBA render (the SVG page may be larger than the card)."""
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        return None
    ys, xs = np.nonzero(img[..., 3] > 8)
    if len(xs) == 0:
        return None
    return img[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]

def render_deck(deck: SvgDeck, root: Path, cards: list[str] | None = None) -> Path:
    """Render every card of ``deck`` to ``root/<name>/<CODE>.png`` at height :data:`CARD_H`, and write
    where each card's corner indices lie (``index.json``)."""
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
    write_index_file(out, deck.region)
    return out

def _ink_boxes(img: np.ndarray, region: tuple[float, float, float, float]) -> tuple[int, int, int, int] | None:
    """Bounding box of the ink lying wholly inside ``region`` (fractions of the card) of an RGBA card.

    Where a glyph touches the card's printed outline or a court picture's frame (penguins' K, Q, A and
    10; bellot's ranks, nicu_white's and ornamental's clubs), the two are one blot of ink that leaves
    the region, and only half the index was found: the ink is looked at again without a band along
    the card's edge, and without thin lines (a club's stem goes too, so the looks' boxes are joined)."""
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
    plain = _inside(ink, (x1, y1, x2, y2))
    if plain is None:
        return None  # (where nothing lies wholly inside, the other looks find only pieces of a glyph)
    band = max(2, round(0.02 * min(w, h)))
    inner = cv2.erode(opaque.astype(np.uint8), np.ones((2 * band + 1, 2 * band + 1), np.uint8), borderValue=0) > 0
    # thin lines (an outline, a picture's frame) gone, bold glyphs kept
    thin = max(3, round(0.03 * min(w, h)))
    bold = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, np.ones((thin, thin), np.uint8)) > 0
    boxes = [plain] + [b for b in (_inside(x, (x1, y1, x2, y2)) for x in (ink & inner, bold & inner)) if b is not None]
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def _inside(ink: np.ndarray, region: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    """Bounding box of the blots of ``ink`` that lie wholly inside ``region`` (pixels)."""
    import cv2

    x1, y1, x2, y2 = region
    h, w = ink.shape
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

# ---------------------------------------------------------------- decks from npm packages
#
# More face designs than Debian ships: npm packages that carry one SVG file per card. Fetched by hand
# (no install scripts run) into one folder, e.g.
#   mkdir -p /tmp/npmdecks && cd /tmp/npmdecks && npm pack @younestouati/playing-cards-standard-deck@3.0.0 \
#       @heruka_urgyen/react-playing-cards@0.5.0
# and rendered with ``python -m vision.decks --npm /tmp/npmdecks`` (the tarballs are unpacked there).

@dataclass(frozen=True)
class NpmDeck:
    """One deck folder inside an npm tarball; ``scheme`` says how card files are spelt.

    ``aguilar``: ``1c.svg .. 13s.svg`` (ace 1, jack 11, queen 12, king 13); ``kennard``: ``AC.svg ..
    TS.svg`` (ten is ``T``). ``back`` is a card-back file, or a tile (``back_tile``) to repeat over the
    card because the package ships only a CSS background pattern. ``region`` as in :class:`SvgDeck`.
    """

    name: str
    tarball: str
    folder: str
    scheme: str
    region: tuple[float, float, float, float]
    licence: str
    back: str | None = None
    back_tile: bool = False

_YOUNES = "younestouati-playing-cards-standard-deck-3.0.0.tgz"
_HERUKA = "heruka_urgyen-react-playing-cards-0.5.0.tgz"
_AGUILAR_RANKS = {"A": "1", "J": "11", "Q": "12", "K": "13"}
_KENNARD = "CC0 cards by Adrian Kennard; package MIT (npm @heruka_urgyen/react-playing-cards 0.5.0)"
_SMALL_INDEX, _BIG_INDEX = (0.0, 0.0, 0.14, 0.25), (0.0, 0.0, 0.26, 0.44)

NPM_DECKS: list[NpmDeck] = [
    # Chris Aguilar's "Vectorized Playing Cards" as optimised by Responsive Playing Cards (ace of
    # spades by Byron Knoll); English-pattern courts in other colours than anglo, serif indices.
    NpmDeck("aguilar", _YOUNES, "cards", "aguilar", (0.0, 0.0, 0.14, 0.27),
            "LGPL-3.0 (npm @younestouati/playing-cards-standard-deck 3.0.0)", "cards/back.svg", True),
    # Adrian Kennard's CC0 cards (www.me.uk/cards); "bf" = big-face variant with large corner
    # indices, "4color" = four-colour suits (clubs green, diamonds blue). @letele/playing-cards is the
    # same design again (as compiled JSX) and is not used.
    *(NpmDeck(name, _HERUKA, f"src/images/{folder}", "kennard", region, _KENNARD, "src/images/back.svg")
      for name, folder, region in (("kennard", "2color", _SMALL_INDEX), ("kennard_big", "2color-bf", _BIG_INDEX),
                                   ("kennard_4c", "4color", _SMALL_INDEX), ("kennard_4c_big", "4color-bf", _BIG_INDEX))),
]

def npm_file(deck: NpmDeck, card: str) -> str:
    """Path of ``card``'s SVG inside the unpacked package (``package/`` is npm's tarball root)."""
    if card == "BACK":
        return f"package/{deck.back}"
    rank, suit = card[:-1], card[-1]
    if deck.scheme == "aguilar":
        return f"package/{deck.folder}/{_AGUILAR_RANKS.get(rank, rank)}{suit.lower()}.svg"
    return f"package/{deck.folder}/{'T' if rank == '10' else rank}{suit}.svg"

def unpack_npm(npm_dir: Path, tarball: str) -> Path:
    """``npm_dir/<tarball stem>/``, unpacked once (data only: no links or devices out of the tree)."""
    import tarfile

    dest = npm_dir / tarball.removesuffix(".tgz")
    if not (dest / "package" / "package.json").exists():
        with tarfile.open(npm_dir / tarball) as tf:
            tf.extractall(dest, filter="data")
    return dest

def render_npm_deck(deck: NpmDeck, npm_dir: Path, root: Path, cards: list[str] | None = None) -> Path:
    """Render ``deck`` like :func:`render_deck` (one file per card, cropped, height :data:`CARD_H`),
    then write its ``index.json``."""
    import cv2

    src = unpack_npm(npm_dir, deck.tarball)
    out = root / deck.name
    out.mkdir(parents=True, exist_ok=True)
    tmp, tmp_svg = out / "_tmp.png", out / "_tmp.svg"
    size = None
    for card in (cards or CARDS) + (["BACK"] if deck.back else []):
        if card == "BACK" and deck.back_tile:
            if size is None:
                continue
            # a pattern tile, not a card: repeat it (about 5 tiles across) over a face-sized card
            subprocess.run(["rsvg-convert", "-h", str(size[0] // 5), str(src / npm_file(deck, card)),
                            "-o", str(tmp)], check=True, capture_output=True)
            tile = cv2.imread(str(tmp), cv2.IMREAD_UNCHANGED)
            if tile.ndim == 2 or tile.shape[2] == 3:  # an opaque tile comes back without alpha; faces have it
                tile = cv2.cvtColor(tile, cv2.COLOR_GRAY2BGRA if tile.ndim == 2 else cv2.COLOR_BGR2BGRA)
            reps = (size[1] // tile.shape[0] + 1, size[0] // tile.shape[1] + 1, 1)
            cv2.imwrite(str(out / "BACK.png"), np.tile(tile, reps)[: size[1], : size[0]])
            continue
        # Aguilar's 4s.svg still holds its small-size layout (a big "4" and pip over the face) that the
        # package's stripped CSS used to hide: keep only the full-size ("maxi-card") layout
        svg = re.sub(r'<g>(?:(?!</g>).)*</g>(?=<g class="maxi-card">)', "", (src / npm_file(deck, card)).read_text())
        tmp_svg.write_text(svg)
        # render a little larger than needed so the downscale after cropping is an INTER_AREA one
        subprocess.run(["rsvg-convert", "-h", str(round(CARD_H * 1.1)), str(tmp_svg), "-o", str(tmp)],
                       check=True, capture_output=True)
        img = _opaque_crop(cv2.imread(str(tmp), cv2.IMREAD_UNCHANGED))
        if img is None:
            continue
        h, w = img.shape[:2]
        img = cv2.resize(img, (round(w * CARD_H / h), CARD_H), interpolation=cv2.INTER_AREA)
        size = size or (img.shape[1], img.shape[0])
        cv2.imwrite(str(out / f"{card}.png"), img)
    tmp.unlink(missing_ok=True)
    tmp_svg.unlink(missing_ok=True)
    write_index_file(out, deck.region)
    return out

def pack_decks(root: Path, packed: Path) -> None:
    """The rendered decks as WebP (quality 95, alpha kept; a quarter of the PNGs' size), for carrying
    to a training machine that cannot render them (no rsvg-convert, no fonts); :func:`unpack_decks`
    turns them back. The faces are re-compressed more harshly in every synthetic scene anyway."""
    import cv2

    _convert_decks(root, packed, ".png", ".webp", [cv2.IMWRITE_WEBP_QUALITY, 95])


def unpack_decks(packed: Path, root: Path) -> None:
    _convert_decks(packed, root, ".webp", ".png", [])


def _convert_decks(src: Path, dst: Path, from_ext: str, to_ext: str, params: list[int]) -> None:
    """Every deck of ``src`` (a folder with an ``index.json``) into ``dst``, its images re-encoded."""
    import cv2

    for deck in sorted(p for p in src.iterdir() if (p / "index.json").exists()):
        out = dst / deck.name
        out.mkdir(parents=True, exist_ok=True)
        (out / "index.json").write_bytes((deck / "index.json").read_bytes())
        for f in deck.glob(f"*{from_ext}"):
            img = cv2.imread(str(f), cv2.IMREAD_UNCHANGED)
            if img.shape[2] == 3:  # WebP drops an alpha channel that is opaque everywhere; faces need one
                img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
            cv2.imwrite(str(out / f"{f.stem}{to_ext}"), img, params)


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="render the SVG decks to PNG")
    ap.add_argument("--root", default="data/decks")
    ap.add_argument("--cards", nargs="*")
    ap.add_argument("--decks", nargs="*")
    ap.add_argument("--npm", help="folder holding the `npm pack` tarballs of NPM_DECKS: render those decks "
                                  "(and write their index.json) instead of the Debian ones")
    ap.add_argument("--pack", metavar="DIR", help="write the rendered decks of --root to DIR as WebP, and stop")
    ap.add_argument("--unpack", metavar="DIR", help="turn WebP decks in DIR back into PNG decks in --root, and stop")
    a = ap.parse_args()
    if a.pack or a.unpack:
        pack_decks(Path(a.root), Path(a.pack)) if a.pack else unpack_decks(Path(a.unpack), Path(a.root))
        raise SystemExit(0)
    for d in (NPM_DECKS if a.npm else DECKS):
        if a.decks and d.name not in a.decks:
            continue
        try:
            if isinstance(d, NpmDeck):
                render_npm_deck(d, Path(a.npm), Path(a.root), a.cards)
            else:
                render_deck(d, Path(a.root), a.cards)
            print("ok", d.name, flush=True)
        except Exception as e:  # noqa: BLE001 - report and go on with the next deck
            print("FAIL", d.name, e, flush=True)
