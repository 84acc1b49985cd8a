"""Scripted tables with a known truth: detection streams (and bare motion images) for tests and benches.

A :class:`Scene` holds the true piles (face-down count and face-up cards per zone) and plays scripted
actions (moving cards, turning a card face up, turning stock cards onto the waste). For every frame it
gives what a corner-index detector would report (jittered, with misses, duplicates and misreadings),
a gray image where the hand shows as a moving blob (so the motion meter has something to see), and the
true *visible* table state. Cards being carried move with the hand; cards under the hand are hidden.
Not a renderer of card faces: see the truth-video renderer (issue #5, item 4) for that.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np
import numpy.typing as npt

from calibration.homography import TableHomography
from calibration.zones import ZoneLayout
from vision.detections import BACK, Detection

CARD_W, CARD_H = 63.0, 88.0
INDEX_AT = (7.0, 12.0)  # centre of the top-left index from the card's top-left corner, mm
INDEX_SIZE = (10.0, 22.0)
FACE_STEP, BACK_STEP, WASTE_STEP = 22.0, 16.0, 18.0
HAND_RADIUS = 55.0


@dataclass
class Pile:
    backs: int = 0
    faces: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Noise:
    jitter_px: float = 0.8
    miss: float = 0.03
    duplicate: float = 0.02
    misread: float = 0.005
    confidence: tuple[float, float] = (0.55, 0.99)


@dataclass(frozen=True)
class Frame:
    t: float
    index: int
    detections: list[Detection]
    image: npt.NDArray[np.uint8] | None
    truth: dict[str, tuple[int, tuple[str, ...]]]
    """Zone -> (visible backs, visible face-up cards bottom to top) of the table at rest."""
    at_rest: bool
    """No hand over the table and nothing carried."""


@dataclass(frozen=True)
class Action:
    kind: str  # "move", "flip", "turn"
    src: str
    dst: str = ""
    count: int = 1
    cards: tuple[str, ...] = ()


def _down_vectors(layout: ZoneLayout) -> dict[int, tuple[float, float]]:
    if layout.players <= 2:
        return {0: (0.0, 1.0), 1: (0.0, 1.0), 2: (0.0, -1.0)}
    return {0: (0.0, 1.0), 1: (0.0, 1.0), 2: (-1.0, 0.0), 3: (0.0, -1.0), 4: (1.0, 0.0)}


class Scene:
    def __init__(
        self,
        layout: ZoneLayout,
        homography: TableHomography,
        piles: dict[str, Pile],
        *,
        fps: float = 30.0,
        noise: Noise = Noise(),
        seed: int = 1,
        images: bool = True,
        visible_waste: int = 3,
        image_width: int = 320,
        draw_cards: bool = False,
    ) -> None:
        """``image_width``: width of the motion images (the frame size is the homography's);
        ``draw_cards``: draw cards as white shapes on a textured table (for benches: realistic decoding)."""
        self.layout = layout
        self.h = homography
        self.zones = {z.name: z for z in layout.zones}
        self.piles = {z.name: Pile() for z in layout.zones}
        for name, pile in piles.items():
            self.zones[name]  # unknown zone names fail here
            self.piles[name] = Pile(pile.backs, list(pile.faces))
        self.fps = fps
        self.noise = noise
        self.rng = random.Random(seed)
        self.images = images
        self.visible_waste = visible_waste
        self.image_width = image_width
        self.draw_cards = draw_cards
        self._background: npt.NDArray[np.uint8] | None = None
        self.down = _down_vectors(layout)
        self.t = 0.0
        self.index = 0
        self.steady_truths: list[dict[str, tuple[int, tuple[str, ...]]]] = []
        self.rest_times: list[float] = []
        self._mark_rest()

    # -- the truth ------------------------------------------------------------------------------
    def _visible(self, name: str, pile: Pile) -> tuple[int, tuple[str, ...]]:
        zone = self.zones[name]
        if zone.fan is None:
            if pile.faces:
                return (0, (pile.faces[-1],))
            return (1 if pile.backs else 0, ())
        faces = pile.faces
        if zone.role == "waste":
            faces = faces[-self.visible_waste:]
        return (pile.backs, tuple(faces))

    def truth(self) -> dict[str, tuple[int, tuple[str, ...]]]:
        return {name: self._visible(name, p) for name, p in self.piles.items()}

    def _mark_rest(self) -> None:
        self.steady_truths.append(self.truth())
        self.rest_times.append(self.t)

    # -- geometry -------------------------------------------------------------------------------
    def _card_frames(self, name: str, pile: Pile) -> list[tuple[str, npt.NDArray[np.float64], bool]]:
        """(code or BACK, card centre mm, covered) for every visible card of a pile, bottom first."""
        zone = self.zones[name]
        poly = zone.polygon()
        centre = poly.mean(axis=0)
        d = np.asarray(self.down[zone.seat])
        if zone.fan is None:
            if pile.faces:
                return [(pile.faces[-1], centre, False)]
            return [(BACK, centre, False)] if pile.backs else []
        f = np.asarray(zone.fan)
        along_card = CARD_H if abs(float(f @ d)) > 0.5 else CARD_W
        rear = float((poly @ f).min())
        start = centre + f * (rear + 4.0 + along_card / 2.0 - float(centre @ f))
        faces = pile.faces[-self.visible_waste:] if zone.role == "waste" else pile.faces
        items = [BACK] * pile.backs + list(faces)
        out = []
        pos = start.copy()
        for i, code in enumerate(items):
            out.append((code, pos.copy(), i < len(items) - 1))
            step = BACK_STEP if code == BACK else (WASTE_STEP if zone.role == "waste" else FACE_STEP)
            pos = pos + f * step
        return out

    def _index_points(self, centre: npt.NDArray[np.float64], d: npt.NDArray[np.float64], covered: bool) -> list[npt.NDArray[np.float64]]:
        r = np.array([d[1], -d[0]])
        tl = centre + r * (-CARD_W / 2 + INDEX_AT[0]) + d * (-CARD_H / 2 + INDEX_AT[1])
        br = centre + r * (CARD_W / 2 - INDEX_AT[0]) + d * (CARD_H / 2 - INDEX_AT[1])
        return [tl] if covered else [tl, br]

    def _box(self, centre_mm: npt.NDArray[np.float64], d: npt.NDArray[np.float64], size: tuple[float, float]) -> tuple[float, float, float, float]:
        r = np.array([d[1], -d[0]])
        hw, hh = size[0] / 2, size[1] / 2
        corners = [centre_mm + r * sx * hw + d * sy * hh for sx in (-1, 1) for sy in (-1, 1)]
        px = self.h.to_image(np.asarray(corners))
        j = self.noise.jitter_px
        dx, dy = self.rng.gauss(0, j), self.rng.gauss(0, j)
        return (float(px[:, 0].min() + dx), float(px[:, 1].min() + dy), float(px[:, 0].max() + dx), float(px[:, 1].max() + dy))

    def _emit(self, code: str, centre: npt.NDArray[np.float64], d: npt.NDArray[np.float64], covered: bool,
              out: list[Detection], hand: npt.NDArray[np.float64] | None) -> None:
        n = self.noise
        if code == BACK:
            # a covered back is boxed where it shows, the strip at its top edge, as the detector boxes it
            points = [centre - d * (CARD_H / 2 - BACK_STEP / 2)] if covered else [centre]
            size = (CARD_W * 0.8, BACK_STEP * 0.8) if covered else (CARD_W * 0.8, CARD_H * 0.8)
        else:
            points = self._index_points(centre, d, covered)
            size = INDEX_SIZE
        for p in points:
            if hand is not None and float(np.linalg.norm(p - hand)) < HAND_RADIUS:
                continue
            if self.rng.random() < n.miss:
                continue
            label = code
            if code != BACK and self.rng.random() < n.misread:
                label = self.rng.choice(["8H", "6S", "10D", "QC", "3H"])
            conf = self.rng.uniform(*n.confidence)
            out.append(Detection(label, self._box(p, d, size), conf))
            if self.rng.random() < n.duplicate:
                out.append(Detection(label, self._box(p, d, size), conf * 0.9))

    # -- frames ---------------------------------------------------------------------------------
    def _frame(self, hand: npt.NDArray[np.float64] | None, carried: list[tuple[str, npt.NDArray[np.float64]]],
               at_rest: bool) -> Frame:
        dets: list[Detection] = []
        for name, pile in self.piles.items():
            d = np.asarray(self.down[self.zones[name].seat])
            for code, centre, covered in self._card_frames(name, pile):
                self._emit(code, centre, d, covered, dets, hand)
        for i, (code, centre) in enumerate(carried):
            self._emit(code, centre, np.array([0.0, 1.0]), i < len(carried) - 1, dets, None)
        self.rng.shuffle(dets)
        image = self._image(hand) if self.images else None
        frame = Frame(self.t, self.index, dets, image, self.truth(), at_rest)
        self.t += 1.0 / self.fps
        self.index += 1
        return frame

    def _image(self, hand: npt.NDArray[np.float64] | None) -> npt.NDArray[np.uint8]:
        import cv2

        fw, fh = self.h.image_size
        w = min(self.image_width, fw)
        h = max(1, int(round(fh * w / fw)))
        img = self._table_picture(w, h) if self.draw_cards else np.full((h, w), 90, np.uint8)
        if hand is not None:
            small = self.h.for_image_size((w, h))
            c = small.to_image(hand.reshape(1, 2))[0]
            rad = HAND_RADIUS / small.mm_per_pixel((float(hand[0]), float(hand[1])))
            cv2.circle(img, (int(c[0]), int(c[1])), max(2, int(rad)), 200, -1)
        return img

    def _table_picture(self, w: int, h: int) -> npt.NDArray[np.uint8]:
        import cv2

        if self._background is None or self._background.shape != (h, w):
            noise = np.random.default_rng(0).normal(90, 25, (h, w)).astype(np.float32)
            self._background = cv2.GaussianBlur(noise, (0, 0), 2.0).clip(0, 255).astype(np.uint8)
        img = self._background.copy()
        small = self.h.for_image_size((w, h))
        for name, pile in self.piles.items():
            d = np.asarray(self.down[self.zones[name].seat])
            r = np.array([d[1], -d[0]])
            for code, centre, _ in self._card_frames(name, pile):
                quad = [centre + r * sx * CARD_W / 2 + d * sy * CARD_H / 2 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
                px = np.round(small.to_image(np.asarray(quad))).astype(np.int32)
                cv2.fillConvexPoly(img, px, 60 if code == BACK else 235)
                cv2.polylines(img, [px], True, 30, 1)
        return img

    def hold(self, seconds: float) -> Iterator[Frame]:
        """The table at rest."""
        for _ in range(max(1, int(round(seconds * self.fps)))):
            yield self._frame(None, [], True)

    def _entry_point(self) -> npt.NDArray[np.float64]:
        return self.entry_for(1)

    # -- seats ----------------------------------------------------------------------------------
    def down_of(self, seat: int) -> npt.NDArray[np.float64]:
        """The direction from the table towards the player of ``seat`` (0, shared piles: player 1's)."""
        return np.asarray(self.down.get(seat or 1, (0.0, 1.0)), dtype=np.float64)

    def turn_deg(self, seat: int) -> float:
        """How far the cards of ``seat`` are turned from upright as the first player (the camera's
        side) sees them, counter-clockwise in the picture: 0, 180 opposite, +-90 at the sides."""
        d = self.down_of(seat)
        return math.degrees(math.atan2(float(d[0]), float(d[1])))

    def entry_for(self, seat: int) -> npt.NDArray[np.float64]:
        """Where the arm of the player of ``seat`` comes in: 150 mm beyond the layout on that side."""
        x0, y0, x1, y1 = self.layout.bounds_mm()
        if seat in (0, 1):
            return np.array([(x0 + x1) / 2, y1 + 150.0])
        d = self.down_of(seat)
        half = abs(float(d[0])) * (x1 - x0) / 2 + abs(float(d[1])) * (y1 - y0) / 2
        return np.array([(x0 + x1) / 2, (y0 + y1) / 2]) + d * (half + 150.0)

    def _path(self, a: npt.NDArray[np.float64], b: npt.NDArray[np.float64], seconds: float) -> list[npt.NDArray[np.float64]]:
        n = max(2, int(round(seconds * self.fps)))
        return [a + (b - a) * (0.5 - 0.5 * math.cos(math.pi * (i + 1) / n)) for i in range(n)]

    def _zone_centre(self, name: str) -> npt.NDArray[np.float64]:
        pile = self.piles[name]
        frames = self._card_frames(name, pile)
        if frames:
            return frames[-1][1]
        return np.asarray(self.zones[name].polygon().mean(axis=0), dtype=np.float64)

    def play(self, action: Action, reach_s: float = 0.25, carry_s: float = 0.35, leave_s: float = 0.25) -> Iterator[Frame]:
        """A hand comes in, does ``action``, and leaves; the table is at rest again at the end."""
        entry = self._entry_point()
        src_pt = self._zone_centre(action.src)
        for p in self._path(entry, src_pt, reach_s):
            yield self._frame(p, [], False)
        carried: list[str] = []
        src = self.piles[action.src]
        if action.kind == "move":
            carried = src.faces[-action.count:]
            del src.faces[-action.count:]
        elif action.kind == "turn":
            carried = list(action.cards)
            src.backs -= len(carried)
        elif action.kind == "flip":
            src.backs -= 1
            src.faces.append(action.cards[0])
        dst_name = action.dst or action.src
        dst_pt = self._zone_centre(dst_name) if action.kind != "flip" else src_pt
        path = self._path(src_pt, dst_pt, carry_s)
        if action.kind == "flip":  # a hand turning a card over moves about, it does not stand still
            path = [p + 25.0 * np.array([math.sin(i), math.cos(i)]) for i, p in enumerate(path)]
        for p in path:
            offsets = [p + np.array([0.0, FACE_STEP * (i - len(carried) + 1)]) for i in range(len(carried))]
            yield self._frame(p, list(zip(carried, offsets)), False)
        if carried:
            self.piles[dst_name].faces.extend(carried)
        for p in self._path(dst_pt, entry, leave_s):
            yield self._frame(p, [], False)
        self._mark_rest()
