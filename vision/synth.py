"""Synthetic table scenes with labelled corner indices and card backs.

Training-time only. Cards from the rendered decks (:mod:`vision.decks`, :mod:`vision.drawn`) are laid
out on a table plane the way the games lay them (Klondike cascades with face-down cards, foundations
and a draw-3 fan; Stress / Zenuwen rows and centre piles; loose overlapping cards; close-ups of one to
three cards), then seen through a tilted camera with lighting gradients, shadows, glare, hand-like
occluders, blur, noise and JPEG artefacts.

Labels follow geaxgx's rule: a corner index is labelled only if at least :data:`MIN_VISIBLE` of it is
uncovered and inside the frame; a back is labelled (box of its visible part) when enough of it shows.
Outputs, per split:

- ``det/<split>/images|labels``: YOLO detection data, class 0 = corner index, 1 = back, images scaled
  to at most :data:`DET_MAX_SIDE` pixels;
- ``cls/<split>/<CODE>/*.png``: classifier crops of each labelled index cut from the full-resolution
  frame with the crop rule of :func:`vision.detector.crop_square` (plus ``NONE`` crops of things that
  are not an index), jittered like a detector's boxes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.decks import CARDS
from vision.detections import box_iou
from vision.detector import crop_square
from vision.yolo_folder import UNREADABLE

MIN_VISIBLE = 0.9
# A corner index is labelled as readable only when its box's narrow side (rank and suit stacked make it
# about 2.5x taller than wide) keeps 12 px of real resolution after the webcam down-sampling and the blur
# is under 15% of that side. Below that the glyphs melt: people cannot read them in the frame either, and
# the evaluation ignores detections there (neither hit nor false alarm), as COCO does with crowd regions.
MIN_READABLE_SIDE = 12
MAX_BLUR = 0.15
DET_MAX_SIDE = 640
CLS_SIZE = 64
HOLDOUT_DECKS = ("penguins", "simplistic")


@dataclass
class Deck:
    name: str
    faces: dict[str, np.ndarray]  # CODE -> BGRA
    boxes: dict[str, list[list[int]]]
    backs: list[np.ndarray]


def load_decks(root: Path, names: list[str]) -> list[Deck]:
    import cv2

    decks = []
    all_backs = []
    for n in names:
        d = root / n
        faces = {c: cv2.imread(str(d / f"{c}.png"), cv2.IMREAD_UNCHANGED) for c in CARDS}
        faces = {c: f for c, f in faces.items() if f is not None}
        boxes = json.loads((d / "index.json").read_text())
        back = cv2.imread(str(d / "BACK.png"), cv2.IMREAD_UNCHANGED)
        backs = [back] if back is not None else []
        all_backs += backs
        decks.append(Deck(n, faces, boxes, backs))
    for dk in decks:
        if not dk.backs:
            dk.backs = all_backs[:1]
    return decks


# ---------------------------------------------------------------- table textures


def table_texture(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    import cv2

    kind = rng.integers(0, 5)
    base = rng.integers(20, 235, 3).astype(np.float32)
    if kind == 0:  # wood: stretched noise stripes
        n = rng.normal(0, 1, (max(2, h // 40), max(2, w // 2))).astype(np.float32)
        n = cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)
        wood = np.array([rng.uniform(90, 200), rng.uniform(120, 200), rng.uniform(150, 230)], np.float32)
        img = wood[None, None, :] * (1 + 0.12 * n[..., None])
        if rng.random() < 0.5:
            img = np.ascontiguousarray(np.rot90(cv2.resize(img, (h, w))))
    elif kind == 1:  # felt / cloth: fine noise
        img = base[None, None, :] + rng.normal(0, rng.uniform(3, 15), (h, w, 1)).astype(np.float32)
    elif kind == 2:  # blotchy
        n = rng.normal(0, 1, (8, 8, 3)).astype(np.float32)
        img = base[None, None, :] + 30 * cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)
    elif kind == 3:  # checks / stripes (table cloth)
        s = int(rng.integers(8, 60))
        yy, xx = np.mgrid[0:h, 0:w]
        m = ((xx // s + (yy // s if rng.random() < 0.5 else 0)) % 2).astype(np.float32)
        other = rng.integers(20, 235, 3).astype(np.float32)
        img = base[None, None, :] * (1 - m[..., None]) + other[None, None, :] * m[..., None]
    else:  # plain with a gradient
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    img = img + rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    if rng.random() < 0.3:  # clutter: random shapes and strokes on the table
        for _ in range(int(rng.integers(1, 6))):
            c = tuple(float(v) for v in rng.integers(0, 255, 3))
            p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            if rng.random() < 0.5:
                cv2.circle(img, p, int(rng.integers(5, 80)), c, -1)
            else:
                q = (int(rng.integers(0, w)), int(rng.integers(0, h)))
                cv2.line(img, p, q, c, int(rng.integers(1, 8)))
    return np.clip(img, 0, 255)


# ---------------------------------------------------------------- card backs


def procedural_back(rng: np.random.Generator, like: np.ndarray) -> np.ndarray:
    """A made-up card back the size and shape (alpha) of the face ``like``: a lattice, stripes, dots,
    plasma or a mirrored ornament in one to three colours, mostly inside a white margin. The rendered
    decks bring only about fifteen back designs, and a detector that learnt those few missed two
    thirds of the backs of the held-out decks: "a back" has to mean any pattern on a card."""
    import cv2

    h, w = like.shape[:2]
    cols = rng.integers(0, 256, (3, 3)).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    kind = int(rng.integers(0, 5))
    s = float(rng.uniform(0.03, 0.12)) * w
    if kind == 0:  # lattice (checks, diamonds)
        a = np.deg2rad(rng.choice([0.0, 45.0, float(rng.uniform(0, 90))]))
        u, v = xx * np.cos(a) + yy * np.sin(a), -xx * np.sin(a) + yy * np.cos(a)
        m = ((np.floor(u / s) + np.floor(v / s)) % 2)[..., None]
        img = cols[0] * (1 - m) + cols[1] * m
    elif kind == 1:  # stripes
        a = np.deg2rad(rng.uniform(0, 180))
        m = ((xx * np.cos(a) + yy * np.sin(a)) / s % 1.0 < rng.uniform(0.3, 0.7))[..., None]
        img = cols[0] * (1 - m) + cols[1] * m
    elif kind == 2:  # dots
        r = s * rng.uniform(0.15, 0.45)
        m = ((((xx % s) - s / 2) ** 2 + ((yy % s) - s / 2) ** 2) < r * r)[..., None]
        img = cols[0] * (1 - m) + cols[1] * m
    elif kind == 3:  # plasma
        n = cv2.resize(rng.normal(0, 1, (int(rng.integers(3, 12)),) * 2 + (3,)).astype(np.float32), (w, h),
                       interpolation=cv2.INTER_CUBIC)
        img = cols[0] + 60 * n
    else:  # an ornament: random strokes mirrored both ways, on a plain ground
        img = np.broadcast_to(cols[0], (h, w, 3)).copy()
        for _ in range(int(rng.integers(4, 16))):
            p1 = (int(rng.integers(0, w // 2 + 1)), int(rng.integers(0, h // 2 + 1)))
            p2 = (int(rng.integers(0, w // 2 + 1)), int(rng.integers(0, h // 2 + 1)))
            c = tuple(float(v) for v in cols[int(rng.integers(1, 3))])
            if rng.random() < 0.5:
                cv2.line(img, p1, p2, c, int(rng.integers(1, max(2, w // 40))))
            else:
                cv2.circle(img, p1, int(rng.integers(2, max(3, w // 6))), c, int(rng.choice([-1, 2, 4])))
        half = img[: h // 2 + 1, : w // 2 + 1]
        top = np.concatenate([half, half[:, ::-1][:, (w // 2 + 1) * 2 - w:]], 1)
        img = np.concatenate([top, top[::-1][(h // 2 + 1) * 2 - h:]], 0)
    img = img + rng.normal(0, rng.uniform(0, 8), (h, w, 1)).astype(np.float32)
    if rng.random() < 0.75:  # white margin, sometimes with a frame line
        mx = int(w * rng.uniform(0.04, 0.1))
        framed = np.full((h, w, 3), rng.uniform(225, 255), np.float32)
        framed[mx:h - mx, mx:w - mx] = img[mx:h - mx, mx:w - mx]
        if rng.random() < 0.4:
            cv2.rectangle(framed, (mx, mx), (w - mx - 1, h - mx - 1), tuple(float(v) for v in cols[2]), max(1, w // 80))
        img = framed
    out = np.empty((h, w, 4), np.uint8)
    out[..., :3] = np.clip(img, 0, 255).astype(np.uint8)
    out[..., 3] = like[..., 3] if like.ndim == 3 and like.shape[2] == 4 else 255
    return out


# ---------------------------------------------------------------- layouts (table units: card height = 1)


@dataclass
class Placed:
    deck: Deck
    card: str  # CODE or BACK
    x: float  # centre
    y: float
    angle: float  # degrees


ASPECT = 0.714


def _shuffled(rng: np.random.Generator) -> list[str]:
    cards = list(CARDS)
    rng.shuffle(cards)
    return cards


def layout_klondike(rng: np.random.Generator, deck: Deck) -> list[Placed]:
    cards = _shuffled(rng)
    out: list[Placed] = []
    gap = ASPECT * rng.uniform(1.08, 1.35)
    down_step, up_step = rng.uniform(0.06, 0.14), rng.uniform(0.17, 0.3)
    jit = lambda: rng.normal(0, 0.01)  # noqa: E731
    top = 0.0
    # stock, waste fan, foundations
    row_y = top
    out.append(Placed(deck, "BACK", 0.0, row_y, rng.normal(0, 1.5)))
    for k in range(int(rng.integers(0, 4))):
        out.append(Placed(deck, cards.pop(), gap + k * ASPECT * rng.uniform(0.18, 0.3), row_y + jit(), rng.normal(0, 1.5)))
    for f in range(4):
        if rng.random() < 0.6:
            for _ in range(int(rng.integers(1, 3))):
                out.append(Placed(deck, cards.pop(), (3 + f) * gap + jit(), row_y + jit(), rng.normal(0, 1.5)))
    col_top = row_y + rng.uniform(1.15, 1.4)
    ncols = 7 if rng.random() < 0.85 else 8
    for c in range(ncols):
        n_down = int(rng.integers(0, c + 1))
        n_up = int(rng.integers(1, 7)) if cards else 0
        y = col_top
        for _ in range(n_down):
            out.append(Placed(deck, "BACK", c * gap + jit(), y, rng.normal(0, 1.0)))
            y += down_step
        for _ in range(n_up):
            if not cards:
                break
            out.append(Placed(deck, cards.pop(), c * gap + jit(), y, rng.normal(0, 1.0)))
            y += up_step
    return out


def layout_rows(rng: np.random.Generator, deck: Deck) -> list[Placed]:
    """Stress / Zenuwen: each player has a row of four face-up cards; piles in the centre."""
    cards = _shuffled(rng)
    out: list[Placed] = []
    gap = ASPECT * rng.uniform(1.05, 1.5)
    players = int(rng.integers(2, 5))
    for p in range(players):
        ang = 360.0 * p / players
        rad = rng.uniform(1.4, 2.2)
        for k in range(4):
            off = (k - 1.5) * gap
            a = math.radians(ang)
            x = math.sin(a) * rad + math.cos(a) * off
            y = math.cos(a) * rad - math.sin(a) * off
            if rng.random() < 0.25:  # a stack on this place
                out.append(Placed(deck, cards.pop(), x + rng.normal(0, 0.03), y + rng.normal(0, 0.03), -ang + rng.normal(0, 8)))
            out.append(Placed(deck, cards.pop(), x, y, -ang + rng.normal(0, 3)))
        if rng.random() < 0.5:
            out.append(Placed(deck, "BACK", math.sin(math.radians(ang)) * (rad + 1.2), math.cos(math.radians(ang)) * (rad + 1.2), -ang + rng.normal(0, 5)))
    for c in range(int(rng.integers(1, 3))):
        x0 = (c - 0.5) * 0.9
        for _ in range(int(rng.integers(1, 5))):
            out.append(Placed(deck, cards.pop(), x0 + rng.normal(0, 0.05), rng.normal(0, 0.05), rng.uniform(0, 360)))
    return out


def layout_loose(rng: np.random.Generator, deck: Deck) -> list[Placed]:
    cards = _shuffled(rng)
    n = int(rng.integers(3, 14))
    spread = rng.uniform(1.2, 3.5)
    out = []
    for _ in range(n):
        card = "BACK" if rng.random() < 0.15 else cards.pop()
        out.append(Placed(deck, card, rng.uniform(0, spread * 1.6), rng.uniform(0, spread), rng.uniform(0, 360)))
    if rng.random() < 0.4:  # a hand-held style fan
        x0, y0 = rng.uniform(0, spread), rng.uniform(0, spread)
        a0 = rng.uniform(0, 360)
        for k in range(int(rng.integers(3, 8))):
            out.append(Placed(deck, cards.pop(), x0 + 0.12 * k, y0 + rng.normal(0, 0.02), a0 + 8 * k))
    return out


def layout_closeup(rng: np.random.Generator, deck: Deck) -> list[Placed]:
    cards = _shuffled(rng)
    out = []
    for k in range(int(rng.integers(1, 4))):
        out.append(Placed(deck, cards.pop(), k * rng.uniform(0.3, 0.9), rng.normal(0, 0.3), rng.normal(0, 25) if rng.random() < 0.7 else rng.uniform(0, 360)))
    return out


LAYOUTS = [(layout_klondike, 0.35), (layout_rows, 0.2), (layout_loose, 0.25), (layout_closeup, 0.2)]


# ---------------------------------------------------------------- rendering


@dataclass
class Label:
    cls: str  # CODE or BACK
    box: tuple[float, float, float, float]  # x1 y1 x2 y2 in frame pixels
    readable: bool = True  # False: visible, but too small or blurred in the final frame for anyone to read


@dataclass(frozen=True)
class Degradation:
    """What :func:`_effects` did to a frame's sharpness: the webcam down-sampling factor (1: none) and the
    blur in frame pixels (Gaussian sigma, or a motion kernel's length / 3)."""

    scale: float = 1.0
    blur: float = 0.0

    def readable(self, box: tuple[float, float, float, float]) -> bool:
        """Whether a printed index in ``box`` can still be read: its narrow side keeps at least
        ``MIN_READABLE_SIDE`` pixels of real resolution and is at least ``1 / MAX_BLUR`` times the blur."""
        side = min(box[2] - box[0], box[3] - box[1])
        return side * self.scale >= MIN_READABLE_SIDE and self.blur <= MAX_BLUR * side


def _card_to_table(p: Placed, w: int, h: int) -> np.ndarray:
    """3x3 from card-image pixels to table units (card height = 1)."""
    s = 1.0 / h
    a = math.radians(p.angle)
    ca, sa = math.cos(a), math.sin(a)
    t = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], np.float64)
    r = np.array([[ca * s, -sa * s, p.x], [sa * s, ca * s, p.y], [0, 0, 1]], np.float64)
    return r @ t


def _camera(rng: np.random.Generator, placed: list[Placed], W: int, H: int, closeup: bool) -> np.ndarray:
    """3x3 from table units to frame pixels: fit the layout, rotate, then a random tilt."""
    import cv2

    pts = np.array([[p.x, p.y] for p in placed])
    x1, y1 = pts.min(0) - 0.7
    x2, y2 = pts.max(0) + 0.7
    rot = rng.normal(0, 8) if rng.random() < 0.8 else rng.uniform(0, 360)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    span = max(x2 - x1, y2 - y1) if abs(rot) > 20 else None
    fill = rng.uniform(0.8, 1.25) if not closeup else rng.uniform(0.7, 1.6)
    if span is None:
        s = fill * min(W / (x2 - x1), H / (y2 - y1))
    else:
        s = fill * min(W, H) / span
    a = math.radians(rot)
    m = np.array([[s * math.cos(a), -s * math.sin(a), 0], [s * math.sin(a), s * math.cos(a), 0], [0, 0, 1]])
    t0 = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]])
    t1 = np.array([[1, 0, W / 2 + rng.normal(0, W * 0.05)], [0, 1, H / 2 + rng.normal(0, H * 0.05)], [0, 0, 1]])
    aff = t1 @ m @ t0
    # tilt: move the frame corners by up to ``k`` of the frame size (perspective of an angled webcam)
    k = rng.uniform(0.0, 0.22)
    src = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
    top_shrink = rng.uniform(0, k) * W
    dst = src + np.float32([[top_shrink, 0], [-top_shrink, 0], [0, 0], [0, 0]])
    dst = dst + rng.normal(0, k * 0.25 * min(W, H), (4, 2)).astype(np.float32)
    persp = cv2.getPerspectiveTransform(src, dst)
    if rng.random() < 0.5:  # the far side at the bottom instead
        flip = np.array([[1, 0, 0], [0, -1, H], [0, 0, 1]], np.float64)
        persp = flip @ persp @ flip
    return persp @ aff


def _hand(rng: np.random.Generator, W: int, H: int, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """A hand-like occluder: palm ellipse plus finger capsules. Returns (mask uint8, colour)."""
    import cv2

    mask = np.zeros((H, W), np.uint8)
    cx, cy = int(rng.uniform(0, W)), int(rng.uniform(0, H))
    r = scale * rng.uniform(0.4, 0.9)
    ang = rng.uniform(0, 2 * math.pi)
    cv2.ellipse(mask, (cx, cy), (int(r), int(r * 0.8)), math.degrees(ang), 0, 360, 255, -1)
    for f in range(int(rng.integers(2, 6))):
        fa = ang + (f - 2) * 0.3
        L = r * rng.uniform(1.0, 1.9)
        p2 = (int(cx + math.cos(fa) * L), int(cy + math.sin(fa) * L))
        cv2.line(mask, (cx, cy), p2, 255, max(2, int(r * 0.28)))
    r_ = rng.uniform(120, 240)
    g_ = r_ * rng.uniform(0.6, 0.85)
    skin = np.array([g_ * rng.uniform(0.7, 0.95), g_, r_], np.float32)  # BGR, R > G > B
    if rng.random() < 0.25:  # sleeve / other object
        skin = rng.uniform(0, 255, 3).astype(np.float32)
    return mask, skin


def _effects(rng: np.random.Generator, img: np.ndarray) -> tuple[np.ndarray, Degradation]:
    import cv2

    H, W = img.shape[:2]
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    # lighting gradient (lamp): linear or radial
    if rng.random() < 0.5:
        g = (xx * rng.normal() + yy * rng.normal()) / max(W, H)
        g = 1 + rng.uniform(0.1, 0.5) * (g - g.mean()) / (g.std() + 1e-6) * 0.5
    else:
        lx, ly = rng.uniform(0, W), rng.uniform(0, H)
        d = np.sqrt((xx - lx) ** 2 + (yy - ly) ** 2) / max(W, H)
        g = rng.uniform(1.0, 1.4) - rng.uniform(0.2, 0.8) * d
    img = img * np.clip(g, 0.25, 1.6)[..., None]
    # colour cast and exposure
    img = img * rng.uniform(0.8, 1.2, 3)[None, None, :].astype(np.float32) * rng.uniform(0.65, 1.3)
    # soft shadow polygon
    if rng.random() < 0.35:
        m = np.zeros((H, W), np.float32)
        pts = rng.uniform([0, 0], [W, H], (int(rng.integers(3, 6)), 2)).astype(np.int32)
        cv2.fillPoly(m, [pts], 1.0)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(5, 40))
        img = img * (1 - rng.uniform(0.2, 0.6) * m)[..., None]
    # glare
    if rng.random() < 0.35:
        m = np.zeros((H, W), np.float32)
        c = (int(rng.uniform(0, W)), int(rng.uniform(0, H)))
        ax = (int(rng.uniform(0.03, 0.2) * W), int(rng.uniform(0.02, 0.12) * H))
        cv2.ellipse(m, c, ax, rng.uniform(0, 180), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(3, 25))
        img = img + rng.uniform(60, 200) * m[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    # blur: defocus or motion
    r = rng.random()
    blur, scale = 0.0, 1.0
    if r < 0.3:
        blur = rng.uniform(0.5, 2.0)
        img = cv2.GaussianBlur(img, (0, 0), blur)
    elif r < 0.45:
        k = int(rng.integers(3, 9))
        blur = k / 3
        ker = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        ker = cv2.warpAffine(ker, rot, (k, k))
        img = cv2.filter2D(img, -1, ker / max(ker.sum(), 1e-6))
    # cheap webcam: down- and up-sampled
    if rng.random() < 0.3:
        f = scale = rng.uniform(0.35, 0.8)
        small = cv2.resize(img, (max(8, int(W * f)), max(8, int(H * f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (W, H), interpolation=cv2.INTER_LINEAR)
    # sensor noise, salt and pepper
    if rng.random() < 0.6:
        img = np.clip(img.astype(np.float32) + rng.normal(0, rng.uniform(2, 12), img.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.1:
        sp = rng.random((H, W)) < rng.uniform(0.001, 0.01)
        img[sp] = rng.integers(0, 2, (int(sp.sum()), 1)) * 255
    # JPEG round trip
    q = int(rng.integers(25, 96))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), Degradation(scale, blur)


def render_scene(rng: np.random.Generator, decks: list[Deck], layout=None, size: tuple[int, int] | None = None,
                 effects: bool = True, hands: bool = True, made_up_backs: float = 0.0) -> tuple[np.ndarray, list[Label]]:
    """One frame and its labels; ``layout``, ``size`` (W, H), ``effects`` and ``hands`` pin down
    what is otherwise drawn at random (the committed test images use them)."""
    import cv2

    W, H = [(1280, 720), (960, 720), (1024, 768), (640, 640), (720, 1280), (800, 600)][int(rng.integers(0, 6))]
    if size:
        W, H = size
    fns, ps = zip(*LAYOUTS)
    k = int(rng.choice(len(fns), p=np.array(ps) / sum(ps)))
    if layout is not None:
        k = list(fns).index(layout)
    deck = decks[int(rng.integers(0, len(decks)))]
    placed = fns[k](rng, deck)
    if rng.random() < 0.2:  # a second deck mixed in (two players' decks)
        other = decks[int(rng.integers(0, len(decks)))]
        for p in placed[int(len(placed) * 0.5):]:
            if p.card in other.faces or p.card == "BACK":
                p.deck = other
    Hc = _camera(rng, placed, W, H, fns[k] is layout_closeup)
    frame = table_texture(rng, W, H)
    owner = np.full((H, W), -1, np.int32)
    back_choice = int(rng.integers(0, 1 << 30))
    made_up = None  # one made-up back for the whole scene, as one deck has one back
    if made_up_backs and rng.random() < made_up_backs and deck.backs:
        made_up = procedural_back(rng, deck.backs[0])
    quads = []
    for i, p in enumerate(placed):
        face = (p.deck.faces.get(p.card) if p.card != "BACK"
                else made_up if made_up is not None else p.deck.backs[back_choice % len(p.deck.backs)])
        if face is None:
            quads.append(None)
            continue
        h, w = face.shape[:2]
        M = Hc @ _card_to_table(p, w, h)
        quads.append(M)
        corners = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), M)[0]
        bx1, by1 = np.floor(corners.min(0)).astype(int)
        bx2, by2 = np.ceil(corners.max(0)).astype(int)
        bx1, by1, bx2, by2 = max(bx1, 0), max(by1, 0), min(bx2, W), min(by2, H)
        if bx2 <= bx1 or by2 <= by1:
            continue
        sub = np.array([[1, 0, -bx1], [0, 1, -by1], [0, 0, 1]], np.float64) @ M
        warped = cv2.warpPerspective(face, sub, (bx2 - bx1, by2 - by1), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        a = warped[..., 3:4].astype(np.float32) / 255.0
        # a thin drop shadow under the card
        region = frame[by1:by2, bx1:bx2]
        region *= 1 - 0.25 * cv2.GaussianBlur(a[..., 0], (0, 0), 2.0)[..., None]
        region[:] = region * (1 - a) + warped[..., :3].astype(np.float32) * a
        owner[by1:by2, bx1:bx2][a[..., 0] > 0.5] = i
    # hand-like occluders
    card_px = None
    for p, M in zip(placed, quads):
        if M is not None:
            c = cv2.perspectiveTransform(np.float32([[[0, 0], [0, 100]]]), M)[0]
            card_px = float(np.linalg.norm(c[1] - c[0])) * (p.deck.faces["AS"].shape[0] if "AS" in p.deck.faces else 320) / 100
            break
    if hands and rng.random() < 0.35 and card_px:
        for _ in range(int(rng.integers(1, 3))):
            mask, colour = _hand(rng, W, H, card_px)
            sh = cv2.GaussianBlur(np.roll(mask, (int(card_px * 0.1), int(card_px * 0.1)), (0, 1)).astype(np.float32) / 255, (0, 0), card_px * 0.08)
            frame *= 1 - 0.4 * sh[..., None]
            shade = colour * (0.8 + 0.4 * cv2.GaussianBlur(np.random.default_rng(int(rng.integers(0, 1 << 30))).random((H, W)).astype(np.float32), (0, 0), 10))[..., None]
            mm = mask > 0
            frame[mm] = shade[mm]
            owner[mm] = -2
    labels = _labels(placed, quads, owner, W, H)
    img, seen = _effects(rng, frame) if effects else (np.clip(frame, 0, 255).astype(np.uint8), Degradation())
    for lb in labels:
        lb.readable = lb.cls == "BACK" or seen.readable(lb.box)
    return img, labels


def _labels(placed: list[Placed], quads: list, owner: np.ndarray, W: int, H: int) -> list[Label]:
    import cv2

    out = []
    for i, (p, M) in enumerate(zip(placed, quads)):
        if M is None:
            continue
        if p.card == "BACK":
            vis = owner == i
            n = int(vis.sum())
            h, w = p.deck.backs[0].shape[:2]
            corners = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), M)[0]
            area = cv2.contourArea(corners)
            if n > 0.06 * area and n > 60:
                # the main visible part only: slivers along the sides of a fanned pile don't count
                k = max(3, int(0.04 * math.sqrt(area)))
                opened = cv2.morphologyEx(vis.astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
                m, _, st, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
                if m < 2:
                    continue
                j = 1 + int(np.argmax(st[1:, cv2.CC_STAT_AREA]))
                x, y, bw, bh, a = st[j]
                if a > 0.05 * area:
                    out.append(Label("BACK", (float(x), float(y), float(x + bw), float(y + bh))))
            continue
        for b in p.deck.boxes.get(p.card, []):
            x1, y1, x2, y2 = b
            mx, my = 0.12 * (x2 - x1) + 1, 0.08 * (y2 - y1) + 1  # a little paper around the ink
            poly = np.float32([[[x1 - mx, y1 - my], [x2 + mx, y1 - my], [x2 + mx, y2 + my], [x1 - mx, y2 + my]]])
            q = cv2.perspectiveTransform(poly, M)[0]
            qx1, qy1 = q.min(0)
            qx2, qy2 = q.max(0)
            if qx2 - qx1 < 5 or qy2 - qy1 < 5:
                continue
            m = np.zeros((H, W), np.uint8)
            cv2.fillConvexPoly(m, np.round(q).astype(np.int32), 1)
            inside = int(m.sum())
            full = cv2.contourArea(q)
            if full <= 0 or inside < MIN_VISIBLE * full:
                continue  # cut by the frame edge
            seen = int((m.astype(bool) & (owner == i)).sum())
            if seen >= MIN_VISIBLE * inside:
                out.append(Label(p.card, (float(max(qx1, 0)), float(max(qy1, 0)), float(min(qx2, W)), float(min(qy2, H)))))
    return out


def _none_crops(rng: np.random.Generator, img: np.ndarray, labels: list[Label], n: int) -> list[np.ndarray]:
    """Crops that are not a readable index: random places, and shifted index boxes."""
    H, W = img.shape[:2]
    out = []
    idx = [lb for lb in labels if lb.cls != "BACK"]
    for _ in range(n):
        if idx and rng.random() < 0.4:  # half off an index: the detector's near misses
            lb = idx[int(rng.integers(0, len(idx)))]
            x1, y1, x2, y2 = lb.box
            bw, bh = x2 - x1, y2 - y1
            dx, dy = rng.choice([-1, 1]) * rng.uniform(0.7, 1.3) * bw, rng.choice([-1, 1]) * rng.uniform(0.7, 1.3) * bh
            if rng.random() < 0.5:
                dx = 0.0
            else:
                dy = 0.0
            box = (x1 + dx, y1 + dy, x2 + dx, y2 + dy)
        else:
            s = rng.uniform(15, 0.25 * min(W, H))
            x, y = rng.uniform(0, W - s), rng.uniform(0, H - s)
            box = (x, y, x + s * rng.uniform(0.5, 1.0), y + s)
        # skip crops that still hold most of a labelled index
        if any(box_iou(box, lb.box) > 0.3 for lb in idx):
            continue
        out.append(crop_square(img, box, CLS_SIZE))
    return out


def jitter_box(rng: np.random.Generator, box: tuple[float, float, float, float], amount: float = 0.12) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    return (x1 + rng.normal(0, amount) * w, y1 + rng.normal(0, amount) * h,
            x2 + rng.normal(0, amount) * w, y2 + rng.normal(0, amount) * h)




def write_split(out: Path, split: str, decks: list[Deck], n: int, seed: int, crops_per_scene: int = 8,
                cls_only: bool = False, made_up_backs: float = 0.0, full_frames: bool | None = None) -> None:
    import cv2

    rng = np.random.default_rng(seed)
    di, dl = out / "det" / split / "images", out / "det" / split / "labels"
    di.mkdir(parents=True, exist_ok=True)
    dl.mkdir(parents=True, exist_ok=True)
    cls_root = out / "cls" / split
    full = out / "full" / split  # full-resolution frames with card labels, for end-to-end evaluation
    (full / "images").mkdir(parents=True, exist_ok=True)
    (full / "labels").mkdir(parents=True, exist_ok=True)
    (full / "data.yaml").write_text(f"names: {ALL_CLASSES!r}\n")
    for k in range(n):
        name = f"{split}_{seed}_{k:05d}"
        img, labels = render_scene(rng, decks, made_up_backs=made_up_backs)
        H, W = img.shape[:2]
        # classifier crops from the full-resolution frame
        idx = [lb for lb in labels if lb.cls != "BACK" and lb.readable]
        rng.shuffle(idx)
        for j, lb in enumerate(idx[:crops_per_scene]):
            d = cls_root / lb.cls
            d.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(d / f"{name}_{j}.png"), crop_square(img, jitter_box(rng, lb.box), CLS_SIZE))
        d = cls_root / "NONE"
        d.mkdir(parents=True, exist_ok=True)
        for j, c in enumerate(_none_crops(rng, img, labels, max(1, crops_per_scene // 4))):
            cv2.imwrite(str(d / f"{name}_{j}.png"), c)
        if cls_only:
            continue
        # full-resolution frame with card codes (YOLO lines, our class order) for end-to-end evaluation
        if full_frames if full_frames is not None else split != "train":
            cv2.imwrite(str(full / "images" / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
            (full / "labels" / f"{name}.txt").write_text("".join(
                f"{ALL_CLASSES.index(lb.cls) if lb.readable else ALL_CLASSES.index(UNREADABLE)} {(lb.box[0] + lb.box[2]) / 2 / W:.6f} {(lb.box[1] + lb.box[3]) / 2 / H:.6f} "
                f"{(lb.box[2] - lb.box[0]) / W:.6f} {(lb.box[3] - lb.box[1]) / H:.6f}\n" for lb in labels))
        # detector image, scaled down
        f = min(1.0, DET_MAX_SIDE / max(W, H))
        small = cv2.resize(img, (round(W * f), round(H * f)), interpolation=cv2.INTER_AREA) if f < 1 else img
        cv2.imwrite(str(di / f"{name}.jpg"), small, [cv2.IMWRITE_JPEG_QUALITY, 90])
        lines = []
        for lb in labels:
            x1, y1, x2, y2 = lb.box
            c = 1 if lb.cls == "BACK" else 0
            lines.append(f"{c} {(x1 + x2) / 2 / W:.6f} {(y1 + y2) / 2 / H:.6f} {(x2 - x1) / W:.6f} {(y2 - y1) / H:.6f}\n")
        (dl / f"{name}.txt").write_text("".join(lines))
        if k % 100 == 0:
            print(split, seed, k, flush=True)


ALL_CLASSES = CARDS + ["BACK", UNREADABLE]  # the class names of the ``full`` splits' data.yaml


def deck_names(root: Path) -> tuple[list[str], list[str]]:
    names = sorted(p.name for p in root.iterdir() if (p / "index.json").exists())
    train = [n for n in names if n not in HOLDOUT_DECKS]
    return train, [n for n in names if n in HOLDOUT_DECKS]


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="render synthetic card scenes")
    ap.add_argument("--decks", default="data/decks")
    ap.add_argument("--out", default="data/synth")
    ap.add_argument("--split", choices=["train", "val", "holdout"], required=True)
    ap.add_argument("-n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--crops", type=int, default=8, help="classifier crops per scene")
    ap.add_argument("--cls-only", action="store_true", help="write only the classifier crops")
    ap.add_argument("--made-up-backs", type=float, default=0.0, help="share of scenes whose backs are made up (train only)")
    ap.add_argument("--full-frames", action="store_true", help="also write the full-resolution labelled frames of a "
                    "train split (for vision.detector_crops); the other splits always have them")
    ap.add_argument("--only", nargs="+", metavar="DECK", help="only these decks of the split (e.g. designs added "
                    "since the last training run)")
    a = ap.parse_args()
    tr, ho = deck_names(Path(a.decks))
    use = ho if a.split == "holdout" else tr
    if a.only:
        if unknown := sorted(set(a.only) - set(use)):
            ap.error(f"not decks of the {a.split} split: {', '.join(unknown)}")
        use = [n for n in use if n in a.only]
    print("decks:", use, flush=True)
    if a.made_up_backs and a.split != "train":
        ap.error("--made-up-backs is for training scenes: the other splits measure the real decks' backs")
    write_split(Path(a.out), a.split, load_decks(Path(a.decks), use), a.n, a.seed, a.crops, a.cls_only, a.made_up_backs,
                a.full_frames or None)
