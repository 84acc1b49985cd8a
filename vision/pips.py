"""A squared pile's top card counted by its pips: a second reading of its rank, from the picture.

The detector reads a card by its corner index, which at the far and side seats of a 1280x720 table is
a few pixels high: an unseen deck's thin index font is then read as a neighbouring rank (a 10S as 8S
in every view, an 8C as 6C at 0.62). The pips in the middle of the face are four to five times larger
than the index and lie in the same few layouts in every deck, so their number is still plain where
the index is not. A pile whose top lies squared (Stress, Zenuwen) shows the whole face: the table
patch around the zone is cut out straight (the calibration's homography), the card found in it as the
bright rectangle of a card's size, straightened to portrait, and the dark or coloured blobs in the
middle of its face, away from the corner indices, counted: blobs of one size, mirrored across the
card's long middle line, 1 to 10 of them, are that rank (1: an ace); a blob spanning most of the face
is a picture (J, Q, K, or an ace drawn as one); anything else is not told (None): a card not found, a
finger over a pip, a smudge.

On ten renders of Stress and Zenuwen (five decks the detector never trained on, six tables, 1280x720
and 1920x1080; ``bench/bench_pips.py``) no count was wrong; most tops of the rows and patience piles
are counted, few of the centre piles (their cards lie crooked over each other) or on a table nearly
as light as a card.

What the count is for: :class:`PipReader`, in the tracker.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.homography import TableHomography
from calibration.zones import Zone, ZoneLayout
from vision.pile_assignment import FrameView
from vision.straighten import straightened

Image = npt.NDArray[Any]
"""A BGR picture (or a part of one) as OpenCV gives it."""
CARD_MM = (63.0, 88.0)
"""A poker card, width x height: the shape every card found is straightened to."""
PICTURE = "picture"
"""The face shows a picture (J, Q, K, or an ace drawn as one): :func:`count_pips`'s answer besides a number."""
NUMBERS = frozenset(str(n) for n in range(2, 11))


@dataclass(frozen=True)
class PipSettings:
    px_per_mm: float = 4.0
    """Resolution of the straightened card."""
    around_mm: float = 6.0
    """How far beyond the zone the card may reach."""
    min_contrast: float = 15.0
    """Grey levels between the card's white and the table around it: less, and the card's outline is
    not told (a light table) and nothing is counted."""
    size_tolerance: float = 0.12
    """The bright rectangle found is a card when its long side is within this share of a card's, ..."""
    card_width_mm: tuple[float, float] = (50.0, 70.0)
    """... its short side within these (poker cards are 63 mm wide, bridge cards 57, and the card's
    white may stop short of its edge) ..."""
    min_fill: float = 0.9
    """... and the bright shape fills this share of it."""
    cut_shares: tuple[float, ...] = (0.5, 0.7, 0.85)
    """Where between the table's grey and the card's white the card is cut out, in turn."""
    inner_mm: tuple[float, float, float, float] = (10.5, 7.0, 52.5, 81.0)
    """(x0, y0, x1, y1) on the portrait card: where pips lie and the corner indices do not."""
    ink_darker: float = 60.0
    """Ink is this many grey levels darker than the face's white ..."""
    ink_saturation: int = 90
    ink_value: int = 60
    """... or at least this saturated and this bright (HSV, 0-255): a red or coloured pip, light in grey."""
    pip_area_mm2: float = 12.0
    """A blob smaller than this is a speck, not a pip."""
    pip_likeness: float = 0.5
    """A card's pips are one size: every blob is at least this share of the largest, or the count is
    unsure."""
    picture_span: tuple[float, float] = (0.8, 0.45)
    """A blob spanning at least these shares of the inner face's width and height is a picture."""
    mirror_tolerance: float = 0.08
    """How far (share of the inner face) a pip may lie from its mirror image's place."""
    max_mm_per_pixel: float = 2.0
    """Coarser pictures run a card's pips together: nothing is counted."""
    sure_read: float = 0.6
    """An index read at least this surely is what the pips are checked against (:class:`PipReader`) ..."""
    trust_after: int = 8
    """... and the pips are believed once they agreed with this many such reads ..."""
    trust_misses: float = 0.1
    """... and disagreed with no more than this share of them."""


def _card_quad(grey: Image, s: PipSettings) -> npt.NDArray[np.float32] | None:
    """The card's four corners in the patch (pixels), or None when no card-sized bright shape is told."""
    ring = max(int(3 * s.px_per_mm), 2)
    border = np.concatenate([grey[:ring].ravel(), grey[-ring:].ravel(), grey[:, :ring].ravel(), grey[:, -ring:].ravel()])
    table = float(np.median(border))
    cy, cx = grey.shape[0] // 2, grey.shape[1] // 2
    r = int(15 * s.px_per_mm)
    white = float(np.percentile(grey[cy - r:cy + r, cx - r:cx + r], 90))
    if white - table < s.min_contrast:
        return None
    # a light check or a white cloth around the card joins it at the halfway grey: then brighter cuts
    for share in s.cut_shares:
        bright = (grey > table + share * (white - table)).astype(np.uint8)
        # the pips are holes in the card; what matters is the outline
        mask = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            continue
        biggest = max(contours, key=cv2.contourArea)
        (mx, my), (a, b), angle = cv2.minAreaRect(biggest)
        short, long_ = sorted((a / s.px_per_mm, b / s.px_per_mm))
        if (s.card_width_mm[0] <= short <= s.card_width_mm[1] and abs(long_ / CARD_MM[1] - 1) <= s.size_tolerance
                and cv2.contourArea(biggest) >= s.min_fill * a * b):
            return cv2.boxPoints(((mx, my), (a, b), angle)).astype(np.float32)
    return None


def _portrait(patch: Image, quad: npt.NDArray[np.float32], px_per_mm: float) -> Image:
    """The card straightened, long side down the picture (which end is up does not matter here)."""
    pts = quad.astype(np.float64)
    # order the corners so that the first edge is a short side
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    w, hgt = int(round(CARD_MM[0] * px_per_mm)), int(round(CARD_MM[1] * px_per_mm))
    target = np.array([[0, 0], [w - 1, 0], [w - 1, hgt - 1], [0, hgt - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(pts.astype(np.float32), target)
    return cv2.warpPerspective(patch, m, (w, hgt), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _ink(card: Image, s: PipSettings) -> Image:
    """The inner face (``inner_mm``) as 1 where there is ink: darker than the face's white, or
    strongly coloured (a red pip's grey is light)."""
    k = s.px_per_mm
    x0, y0, x1, y1 = (int(round(v * k)) for v in s.inner_mm)
    inner = card[y0:y1, x0:x1]
    grey = cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY)
    white = float(np.percentile(grey, 95))
    ink = grey < white - s.ink_darker
    hsv = cv2.cvtColor(inner, cv2.COLOR_BGR2HSV)
    ink |= (hsv[..., 1] > s.ink_saturation) & (hsv[..., 2] > s.ink_value)
    return ink.astype(np.uint8)


Blob = tuple[float, float, float, float, float]
"""(area mm2, width share, height share, centre x share, centre y share) of one blob of ink."""


def _blobs(card: Image, s: PipSettings) -> list[Blob]:
    """The blobs of ink in the middle of a straightened card's face, largest first."""
    ink = _ink(card, s)
    n, _, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    k2 = s.px_per_mm ** 2
    hgt, w = ink.shape
    blobs = [(stats[i, cv2.CC_STAT_AREA] / k2, stats[i, cv2.CC_STAT_WIDTH] / w, stats[i, cv2.CC_STAT_HEIGHT] / hgt,
              centres[i][0] / w, centres[i][1] / hgt) for i in range(1, n)]
    return sorted(blobs, reverse=True)


def count_face(card: Image, s: PipSettings | None = None) -> int | str | None:
    """Pips (1-10) or :data:`PICTURE` on a straightened portrait card; None when the face says neither
    plainly."""
    s = s or PipSettings()
    blobs = _blobs(card, s)
    if any(w >= s.picture_span[0] and h >= s.picture_span[1] for _, w, h, _, _ in blobs):
        return PICTURE
    blobs = [b for b in blobs if b[0] >= s.pip_area_mm2]
    if not blobs:
        return None
    largest = blobs[0][0]
    pips = [b for b in blobs if b[0] >= s.pip_likeness * largest]
    # a blob between a speck and a pip (a pip cut in two, a smudge) makes the count unsure
    if any(s.pip_area_mm2 <= b[0] < s.pip_likeness * largest for b in blobs) or len(pips) > 10:
        return None
    if not _mirrored(pips, s.mirror_tolerance):
        return None
    return len(pips)


def _mirrored(pips: list[Blob], tolerance: float) -> bool:
    """Every layout of pips is its own mirror image across the card's long middle line: a pip off
    that line has a partner at the same height on the other side. A card partly covered (a finger,
    another card's corner) or cut out crooked breaks that, and its count is not trusted."""
    for _, _, _, x, y in pips:
        if abs(x - 0.5) <= tolerance:
            continue
        if not any(abs(x2 - (1 - x)) <= tolerance and abs(y2 - y) <= tolerance for _, _, _, x2, y2 in pips):
            return False
    return True


def count_pips(image: Image, h: TableHomography, zone: Zone, s: PipSettings | None = None) -> int | str | None:
    """The top card of the squared pile in ``zone``, counted by its pips (:func:`count_face`), from a
    frame whose size ``h`` is for; None where the card is not found or too coarse to count."""
    s = s or PipSettings()
    poly = zone.polygon()
    x0, y0 = poly.min(axis=0) - s.around_mm
    x1, y1 = poly.max(axis=0) + s.around_mm
    if h.mm_per_pixel(((x0 + x1) / 2, (y0 + y1) / 2)) > s.max_mm_per_pixel:
        return None
    w, hgt = int((x1 - x0) * s.px_per_mm), int((y1 - y0) * s.px_per_mm)
    patch = straightened(image, h, (float(x0), float(y0)), (0.0, 1.0), (1.0, 0.0), (w, hgt), s.px_per_mm, cv2.INTER_AREA)
    quad = _card_quad(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), s)
    if quad is None:
        return None
    return count_face(_portrait(patch, quad, s.px_per_mm), s)


def _rank_of(count: int) -> str:
    return "A" if count == 1 else str(count)


class PipReader:
    """The tracker's pip check (``TrackerSettings.pips``): each frame, the squared piles' tops read by
    their index are checked against their pips (:func:`count_pips`). A rank the pips contradict is
    replaced by theirs, the suit and score kept (the index's suit is read far more surely than its
    rank: a 10S is read 8S, rarely 10H); a number read on a picture is no reading, only a guess (the
    zone's faint reading, which a referee takes for a card it cannot read).

    Not every deck has pips where a standard deck does (a deck with one large suit sign in the middle
    of every card reads as aces throughout), so the pips are believed only once they have agreed with
    the index on cards it read surely (``trust_after`` counts, at most ``trust_misses`` of them against
    it), and no longer when that stops being so. Counting costs about 2 ms a pile, so a pile's count is
    kept while its reading stays and nothing moves there."""

    def __init__(self, layout: ZoneLayout, settings: PipSettings | None = None) -> None:
        self.zones = [z for z in layout.zones if z.fan is None and z.role in ("pile", "centre")]
        self.settings = settings or PipSettings()
        self._known: dict[str, tuple[str, int | str | None]] = {}
        self.agreed = 0
        self.disagreed = 0

    @property
    def trusted(self) -> bool:
        """Whether the pips have agreed with the index often enough to be believed over it."""
        s = self.settings
        return self.agreed >= s.trust_after and self.disagreed <= s.trust_misses * (self.agreed + self.disagreed)

    def _count(self, zone: Zone, code: str, sure: bool, image: Image, h: TableHomography, moving: bool) -> int | str | None:
        known = self._known.get(zone.name)
        if known is not None and known[0] == code and not moving:
            return known[1]
        count = count_pips(image, h, zone, self.settings)
        self._known[zone.name] = (code, count)
        if sure and count is not None:
            agrees = code[:-1] == _rank_of(count) if isinstance(count, int) else code[:-1] not in NUMBERS
            self.agreed += agrees
            self.disagreed += not agrees
        return count

    def check(self, view: FrameView, image: Image, h: TableHomography) -> None:
        """Re-read ``view``'s squared pile tops in place from ``image`` (whose size ``h`` is for)."""
        for zone in self.zones:
            zv = view.zones.get(zone.name)
            if zv is None or zv.backs:
                continue
            faint = view.faint.get(zone.name, [])
            if len(zv.cards) == 1:
                code, sure = zv.cards[0].card, zv.cards[0].confidence >= self.settings.sure_read
            elif not zv.cards and faint:
                code, sure = max(faint, key=lambda r: r[1])[0], False
            else:
                self._known.pop(zone.name, None)
                continue
            count = self._count(zone, code, sure, image, h, zone.name in view.moving)
            if count is None or not self.trusted:
                continue
            if not isinstance(count, int):  # a picture
                if code[:-1] in NUMBERS and zv.cards:
                    card = zv.cards.pop()
                    view.faint.setdefault(zone.name, []).append((card.card, card.confidence))
                continue
            rank = _rank_of(count)
            if zv.cards and code[:-1] != rank:
                zv.cards[0] = replace(zv.cards[0], card=rank + code[-1])
            elif not zv.cards:
                view.faint[zone.name] = [(rank + c[-1] if c[:-1] != rank else c, score) for c, score in faint]
