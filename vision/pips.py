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

A number card's pips also show its suit, larger than the index's sign: their shape (how much of its
box and of its hull a pip fills, how wide it is) and their ink's colour are its :data:`Look`, and
:class:`SuitLooks` learns what each suit's look is in this deck, on this table, from the cards the
index reads surely.

What the count and the look are for: :class:`PipReader`, in the tracker.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from calibration.homography import TableHomography
from calibration.zones import Zone, ZoneLayout
from vision.pile_assignment import CardInZone, FrameView, ZoneView
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
    white_share: float = 97.0
    """The card's white is the 90th percentile of its middle, or this percentile of the zone and its
    surround (a card fills most of it) where that is brighter by more than ``min_contrast``."""
    min_contrast: float = 15.0
    """Grey levels between the card's white and the table around it: less, and the card's outline is
    not told (a light table) and nothing is counted."""
    size_tolerance: float = 0.12
    """The bright rectangle found is a card when its long side is within this share of a card's, ..."""
    card_width_mm: tuple[float, float] = (50.0, 70.0)
    """... its short side within these (poker cards are 63 mm wide, bridge cards 57, and the card's
    white may stop short of its edge) ..."""
    min_fill: float = 0.9
    """... and the bright shape's convex hull fills this share of it (the shape itself may be notched
    where a jumbo index reaches the card's edge, blurred into the cloth: kennard_4c_big's far seat at
    1920x1080, 0.85-0.88 of the rectangle, its pips never counted)."""
    outline_edges: tuple[float, float] = (10.0, 30.0)
    """Canny's thresholds for a card's outline where its white does not stand out (:func:`_outlined_quad`)."""
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
    band_aspect: float = 2.5
    """A blob along an end of the inner face this many times as wide as it is high is the cloth
    beyond a card cut out too long, not a pip."""
    picture_span: tuple[float, float] = (0.8, 0.45)
    """A blob spanning at least these shares of the inner face's width and height is a picture ..."""
    picture_area_mm2: float = 400.0
    """... and so is one this large, whatever its shape (a pip is 20-100 mm², an ace's big sign more),
    away from the inner face's edges (there, pips run together with a shadow or the cloth): a court
    picture drawn in a frame narrower than the face (kennard_4c_big: 0.67 of it)."""
    picture_middle_mm2: float = 250.0
    """... and one this large on the long middle line (its centre within ``picture_middle`` of it), also
    away from the edges, with at least as much ink around it: a number card's middle pips are single
    pips, and where its pips run together at a far seat they reach the face's sides (aguilar's 9 at
    1280x720: one blob the face's whole width); an ace's big sign stands alone. A court picture may
    fall apart into blobs that each reach an edge but for the one in the middle (kennard_4c at a far
    seat of 1280x720, Zenuwen 169: a KH and a KC cut into five of 150-380 mm², the middle one 270-300;
    their indices read 6H and 5C)."""
    picture_middle: float = 0.15
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
    looks_kept: int = 60
    """How many looks of each suit's pips (:class:`SuitLooks`) are kept, the latest ..."""
    looks_per_card: int = 1
    """A card lying on teaches its suit this many looks, however often it is read again: kennard at
    1280x720, Zenuwen seed 182, a centre 3C read 3S at 0.60-0.69 for a minute filled the spades' looks
    with its own, and clubs were told spades after (tops told a wrong suit, 182 and 183: 46 of 891
    before, 8 of 818 with one look a card and the reach below measured from the median gap; three
    looks a card, 31 of 866)."""
    looks_each: int = 2
    """... how many of every suit are needed before any suit is told by its look ..."""
    looks_near: int = 3
    """A look's distance to a suit: the mean over that many of the suit's nearest looks."""
    look_margin: float = 1.5
    """... and how much nearer (a ratio) a look must lie to one suit's than to any other's to be that suit;
    while one suit is not seen yet, ..."""
    look_reach: float = 1.5
    """... no farther from the index's suit's nearest look than this many times the median gap between
    that suit's looks and their nearest (:meth:`SuitLooks.suit_of`; the widest gap before the
    fifty-eighth session). 2.0 took a side seat's 7D, read 7H before any diamond was
    read surely, for a heart at 1.98 times (kennard_big, four players, Zenuwen seed 183: ten readings)."""
    reread_s: float = 0.5
    """A pile's count is kept at most this long while its index reads the same and nothing moves over
    it (:class:`PipReader`): the card is looked for beyond the zone, where what lies beside it (a light
    square of the cloth, in changing light) may be taken for part of it and counted in (simplistic,
    Stress at 30 fps, seed 127: a 4H counted 5 in one light was read 5H for four seconds after)."""
    picture_guess: float = 0.5
    """A number read where the pips say picture keeps this share of its score: a guess, below the
    picture card read there (kennard_4c_big, Zenuwen seed 186: a side seat's KD read KD at 0.17-0.18
    and 4D at 0.20-0.23 in turn, and published as a 4D for a minute)."""
    unread_score: float = 0.02
    """A squared pile whose top stopped being read while its face is still found holds a card at this
    score (:meth:`PipReader._unread_top`): under the live referee's floor for a guess that agrees
    (0.05), so the card is there but unread, never taken for the card last read there."""
    told_score: float = 0.35
    """A top whose rank the pips give and whose suit their look gives scores at least this: read,
    not surely (the live referee takes a card under 0.3 for unread, doubts one under 0.6)."""


def _card_quad(grey: Image, s: PipSettings) -> npt.NDArray[np.float32] | None:
    """The card's four corners in the patch (pixels), or None when no card-sized shape is told: a
    bright one, or where the card is about as light as the table, one its outline's edges close."""
    ring = max(int(3 * s.px_per_mm), 2)
    border = np.concatenate([grey[:ring].ravel(), grey[-ring:].ravel(), grey[:, :ring].ravel(), grey[:, -ring:].ravel()])
    table = float(np.median(border))
    cy, cx = grey.shape[0] // 2, grey.shape[1] // 2
    r = int(15 * s.px_per_mm)
    white = float(np.percentile(grey[cy - r:cy + r, cx - r:cx + r], 90))
    # a court card's middle is no white (kennard at 1280x720, Zenuwen seed 182: a QD on a light check
    # cloth, its middle's 185 against the table's 171, was cut out with the checks around it); its
    # border is, the brightest of the zone by far
    border_white = float(np.percentile(grey, s.white_share))
    if border_white - white > s.min_contrast:
        white = border_white
    if white - table < s.min_contrast:
        return _outlined_quad(grey, s)
    # a light check or a white cloth around the card joins it at the halfway grey: then brighter cuts
    for share in s.cut_shares:
        bright = (grey > table + share * (white - table)).astype(np.uint8)
        # the pips are holes in the card; what matters is the outline
        mask = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if contours and (quad := _card_shaped(max(contours, key=cv2.contourArea), s)) is not None:
            return quad
    return None


def _card_shaped(contour: Image, s: PipSettings) -> npt.NDArray[np.float32] | None:
    """The corners of ``contour``'s smallest rectangle where that is a card's size and the shape fills it."""
    (mx, my), (a, b), angle = cv2.minAreaRect(contour)
    short, long_ = sorted((a / s.px_per_mm, b / s.px_per_mm))
    if (s.card_width_mm[0] <= short <= s.card_width_mm[1] and abs(long_ / CARD_MM[1] - 1) <= s.size_tolerance
            and cv2.contourArea(cv2.convexHull(contour)) >= s.min_fill * a * b):
        return cv2.boxPoints(((mx, my), (a, b), angle)).astype(np.float32)
    return None


def _outlined_quad(grey: Image, s: PipSettings) -> npt.NDArray[np.float32] | None:
    """A card as light as the table around it (a white cloth, or any light one under a brighter lamp:
    kennard_4c_big on linen, Zenuwen seed 186, its last minute): told by its outline, the edges where
    its printed border or its shadow meets the table, closed into a shape of a card's size."""
    edges = cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), s.outline_edges[0], s.outline_edges[1])
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    shaped = [q for c in contours if cv2.contourArea(c) > 0 and (q := _card_shaped(c, s)) is not None]
    # the ring of edges has an outer and an inner contour: the inner one is the card's own
    return min(shaped, key=lambda q: cv2.contourArea(q)) if shaped else None


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


def _inner(card: Image, s: PipSettings) -> Image:
    """The part of a straightened portrait card where pips lie (``inner_mm``)."""
    x0, y0, x1, y1 = (int(round(v * s.px_per_mm)) for v in s.inner_mm)
    return card[y0:y1, x0:x1]


def _ink(inner: Image, s: PipSettings) -> Image:
    """The inner face (:func:`_inner`) as 1 where there is ink: darker than the face's white, or
    strongly coloured (a red pip's grey is light)."""
    grey = cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY)
    white = float(np.percentile(grey, 95))
    ink = grey < white - s.ink_darker
    hsv = cv2.cvtColor(inner, cv2.COLOR_BGR2HSV)
    ink |= (hsv[..., 1] > s.ink_saturation) & (hsv[..., 2] > s.ink_value)
    return ink.astype(np.uint8)


class Blob(NamedTuple):
    """One blob of ink on the inner face: its size and place as shares of the inner face."""
    area_mm2: float
    width: float
    height: float
    x: float
    y: float
    label: int
    """Its label in the inner face's components (for :func:`_look`)."""


Look = tuple[float, float, float, float, float, float]
"""What a card's pips look like: (solidity, extent, width / height, L, a, b), medians over its pips.
The suit sign's shape: a club's lobes leave gaps its convex hull fills (solidity 0.75-0.91 on four
decks, against 0.87-0.97 for the other suits), a diamond fills little more than half its box (extent
0.53-0.67), a heart more (0.65-0.75); and the ink's colour (CIELAB), which tells red from black, or a
four-colour deck's suits apart. No one bound holds in every deck, so the looks are learned per game."""


@dataclass(frozen=True)
class FaceReading:
    """What a straightened face shows: its pips' count (1-10), :data:`PICTURE`, or None when neither is
    plain; and, for a number card (2-10), the look of its pips."""
    count: int | str | None
    look: Look | None = None
    found: bool = False
    """Whether a card face was found at all (:func:`read_patch`): a card lies there, read or not."""


def _look(inner: Image, labels: Image, stats: Image, pips: list[Blob]) -> Look:
    solidity, extent, aspect = [], [], []
    for blob in pips:
        contours, _ = cv2.findContours((labels == blob.label).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        outline = max(contours, key=cv2.contourArea)
        solidity.append(cv2.contourArea(outline) / max(cv2.contourArea(cv2.convexHull(outline)), 1.0))
        area, w, h = (int(stats[blob.label, c]) for c in (cv2.CC_STAT_AREA, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
        extent.append(area / (w * h))
        aspect.append(w / h)
    ink = np.isin(labels, [b.label for b in pips])
    lab = np.median(cv2.cvtColor(inner, cv2.COLOR_BGR2LAB)[ink].astype(np.float64), axis=0)
    return (float(np.median(solidity)), float(np.median(extent)), float(np.median(aspect)),
            float(lab[0]), float(lab[1]), float(lab[2]))


def read_face(card: Image, s: PipSettings | None = None) -> FaceReading:
    """A straightened portrait card's pips counted (1-10) or :data:`PICTURE`, and a number card's pips'
    look; a count of None when the face says neither plainly."""
    s = s or PipSettings()
    k = s.px_per_mm
    inner = _inner(card, s)
    ink = _ink(inner, s)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    hgt, w = ink.shape
    blobs = sorted((Blob(stats[i, cv2.CC_STAT_AREA] / k ** 2, stats[i, cv2.CC_STAT_WIDTH] / w,
                         stats[i, cv2.CC_STAT_HEIGHT] / hgt, centres[i][0] / w, centres[i][1] / hgt, i)
                    for i in range(1, n)), reverse=True)
    ink_mm2 = sum(b.area_mm2 for b in blobs if b.area_mm2 >= s.pip_area_mm2)
    if any(b.width >= s.picture_span[0] and b.height >= s.picture_span[1]
           or not _touches_edge(b, stats, (w, hgt)) and (
               b.area_mm2 >= s.picture_area_mm2
               or b.area_mm2 >= s.picture_middle_mm2 and abs(b.x - 0.5) <= s.picture_middle and ink_mm2 >= 2 * b.area_mm2)
           for b in blobs):
        return FaceReading(PICTURE)
    # (the index's parts before the specks are dropped: a jumbo index's sign may be cut to a speck's size)
    kept = _without_big_indices(blobs, stats, (w, hgt), s.mirror_tolerance)
    if len(kept) < len(blobs) and sum(b.area_mm2 >= s.pip_area_mm2 for b in kept) < 2:
        return FaceReading(None)  # an ace's sign, or a picture's middle with its corners taken for an index
    blobs = [b for b in kept if b.area_mm2 >= s.pip_area_mm2]
    # A card cut out together with a light square of the cloth beyond its end is stretched, and the
    # cloth's dark shows as a flat band along the inner face's end, lower than a pip (simplistic on
    # a check cloth, Stress seed 127: a 4H counted 5, an AH 2, in changing light). Pips run together
    # with a shadow there are as wide, but higher than a pip: those leave the count unsure.
    flat = {b.label for b in blobs
            if (stats[b.label, cv2.CC_STAT_TOP] == 0 or stats[b.label, cv2.CC_STAT_TOP] + stats[b.label, cv2.CC_STAT_HEIGHT] >= hgt)
            and stats[b.label, cv2.CC_STAT_WIDTH] >= s.band_aspect * stats[b.label, cv2.CC_STAT_HEIGHT]}
    others = [b.height for b in blobs if b.label not in flat]
    if flat and others:
        pip_height = float(np.median(others))
        blobs = [b for b in blobs if b.label not in flat or b.height >= pip_height]
    if not blobs:
        return FaceReading(None)
    largest = blobs[0].area_mm2
    pips = [b for b in blobs if b.area_mm2 >= s.pip_likeness * largest]
    # a blob between a speck and a pip (a pip cut in two, a smudge) makes the count unsure
    if any(s.pip_area_mm2 <= b.area_mm2 < s.pip_likeness * largest for b in blobs) or len(pips) > 10:
        return FaceReading(None)
    if not _mirrored(pips, s.mirror_tolerance):
        return FaceReading(None)
    # an ace's one sign is often drawn apart (a large, ornate spade): only number cards show the suit's pip
    look = _look(inner, labels, stats, pips) if len(pips) > 1 else None
    return FaceReading(len(pips), look)


def count_face(card: Image, s: PipSettings | None = None) -> int | str | None:
    """Pips (1-10) or :data:`PICTURE` on a straightened portrait card; None when the face says neither
    plainly."""
    return read_face(card, s).count


def _touches_edge(b: Blob, stats: Image, size: tuple[int, int]) -> bool:
    """Does the blob reach an edge of the inner face (``size``: its width and height in pixels)?"""
    left, top, bw, bh = (int(stats[b.label, c]) for c in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
    return left == 0 or top == 0 or left + bw >= size[0] or top + bh >= size[1]


INDEX_WIDTH = 0.15
"""A jumbo index's rank or suit sign reaching into the inner face is at most this share of its width
(9-10 % on kennard_big); a court picture's corner ornament is wider (27 % on simplistic's JH)."""

PIP_ALIKE = 0.7
"""A pip and its mirror image are this alike (area, width, height: the smaller over the larger) ..."""

INDEX_ALIKE = 0.4
"""... an index's sign and the other corner's, each cut where the inner face ends, only this alike: a
card found a pixel off moves the cut (kennard_4c_big's side seat at 1920x1080: a 7S's spade cut to 12
mm² at one corner, 23 mm² at the other, counted as a pip that broke the count in half the frames)."""


def _without_big_indices(blobs: list[Blob], stats: Image, size: tuple[int, int], tolerance: float) -> list[Blob]:
    """``blobs`` without a jumbo index's rank and suit sign: a deck whose corner index is large reaches
    into the inner face from two opposite corners (kennard_big, kennard_4c_big: nothing counted on
    either, a 5D's "5" and big diamond unmirrored across the long middle line). Such a blob is narrow
    (``INDEX_WIDTH``), touches the inner face's edge, has no partner across the long middle line (a
    pip column touching it does), and has one where the card turned half round puts it (the other
    corner's index, touching the edge too)."""

    def twin(a: Blob, b: Blob, x: float, y: float, likeness: float) -> bool:
        """Is ``b`` where ``a``'s mirror image lies (``x``, ``y``), and of its size and shape?"""
        alike = min(a.area_mm2, b.area_mm2) / max(a.area_mm2, b.area_mm2, 1e-9)
        wide = min(a.width, b.width) / max(a.width, b.width, 1e-9)
        high = min(a.height, b.height) / max(a.height, b.height, 1e-9)
        return abs(b.x - x) <= tolerance and abs(b.y - y) <= tolerance and min(alike, wide, high) >= likeness

    edge = [b for b in blobs if _touches_edge(b, stats, size) and b.width <= INDEX_WIDTH]
    index = {b.label for b in edge
             if not any(twin(b, o, 1 - b.x, b.y, PIP_ALIKE) for o in blobs if o is not b)
             and any(twin(b, o, 1 - b.x, 1 - b.y, INDEX_ALIKE) for o in edge if o is not b)}
    return [b for b in blobs if b.label not in index]


def _mirrored(pips: list[Blob], tolerance: float) -> bool:
    """Every layout of pips is its own mirror image across the card's long middle line: a pip off
    that line has a partner at the same height on the other side. A card partly covered (a finger,
    another card's corner) or cut out crooked breaks that, and its count is not trusted."""
    for pip in pips:
        if abs(pip.x - 0.5) <= tolerance:
            continue
        if not any(abs(p.x - (1 - pip.x)) <= tolerance and abs(p.y - pip.y) <= tolerance for p in pips):
            return False
    return True


def read_pips(image: Image, h: TableHomography, zone: Zone, s: PipSettings | None = None) -> FaceReading:
    """The top card of the squared pile in ``zone`` read by its pips (:func:`read_face`), from a frame
    whose size ``h`` is for; a count of None where the card is not found or too coarse to count."""
    s = s or PipSettings()
    poly = zone.polygon()
    x0, y0 = poly.min(axis=0) - s.around_mm
    x1, y1 = poly.max(axis=0) + s.around_mm
    if h.mm_per_pixel(((x0 + x1) / 2, (y0 + y1) / 2)) > s.max_mm_per_pixel:
        return FaceReading(None)
    w, hgt = int((x1 - x0) * s.px_per_mm), int((y1 - y0) * s.px_per_mm)
    patch = straightened(image, h, (float(x0), float(y0)), (0.0, 1.0), (1.0, 0.0), (w, hgt), s.px_per_mm, cv2.INTER_AREA)
    return read_patch(patch, s)


def read_patch(patch: Image, s: PipSettings | None = None) -> FaceReading:
    """:func:`read_face` on the card found in ``patch``, a squared pile's zone and the table around it
    straightened at ``px_per_mm``; a count of None where no card is found."""
    s = s or PipSettings()
    quad = _card_quad(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), s)
    if quad is None:
        return FaceReading(None)
    return replace(read_face(_portrait(patch, quad, s.px_per_mm), s), found=True)


def count_pips(image: Image, h: TableHomography, zone: Zone, s: PipSettings | None = None) -> int | str | None:
    """:func:`read_pips`' count alone."""
    return read_pips(image, h, zone, s).count


class SuitLooks:
    """What each suit's pips look like in this deck, on this table, in this light (:data:`Look`),
    learned from the cards the index read surely and the pips agreed with; a look is told to be a suit
    when it lies much nearer to that suit's nearest few looks than to any other suit's (each feature scaled
    by its spread over all looks kept, so that shape and colour weigh alike). The index's suit sign is
    as small as its rank, and a far seat's is misread too (kennard_4c, three players, seed 169: a 3D
    read 3C; aguilar seed 168: a 3H read 3D); its pips are not. On the 44 kept Stress and Zenuwen
    renders and a fresh four-player game (five decks, 1280x720 and 1920x1080;
    ``bench/bench_suit_looks.py``) 7,084 tops read unsurely were told a suit by their look, every one
    their true suit, 61 of them where the index had read another."""

    def __init__(self, settings: PipSettings | None = None) -> None:
        self.settings = settings or PipSettings()
        self._looks: dict[str, deque[Look]] = {}

    def learn(self, suit: str, look: Look) -> None:
        self._looks.setdefault(suit, deque(maxlen=self.settings.looks_kept)).append(look)

    def suit_of(self, look: Look, read: str | None = None) -> str | None:
        """The suit whose pips look like ``look``, or None when two suits' looks lie about as near, or
        while a suit has not been seen often enough. With one suit not seen yet a look of it would be
        taken for the nearest suit seen (168's first clubs were read surely 18 s into the game, its
        clubs read as spades before), so then only ``read`` (the index's suit) is told, and only for a
        look that lies as near that suit's looks as they lie to one another (``look_reach``)."""
        s = self.settings
        known = [suit for suit, v in self._looks.items() if len(v) >= s.looks_each]
        if len(known) < 3:
            return None
        every = np.array([x for v in self._looks.values() for x in v])
        spread = every.std(axis=0) + 1e-3
        target = np.array(look)
        # the mean of a suit's few nearest looks: one look learned from a sure but wrong reading (a 7D
        # read 7S at 0.6 on kennard seed 172) must not make its suit the nearest
        apart = {suit: np.sort(np.linalg.norm((np.array(v) - target) / spread, axis=1)) for suit, v in self._looks.items()}
        nearest = {suit: float(np.mean(d[:s.looks_near])) for suit, d in apart.items()}
        best, second = sorted(nearest, key=lambda suit: nearest[suit])[:2]
        if nearest[second] < s.look_margin * nearest[best]:
            return None
        if len(known) == 4:
            return best
        own = np.array(self._looks[best]) / spread
        if best != read or len(own) < s.looks_each + 1:
            return None
        spacing = np.linalg.norm(own[:, None] - own[None], axis=2)
        np.fill_diagonal(spacing, np.inf)
        # the median gap between a look and its nearest: a look or two far off the rest (another seat,
        # a blur) would widen the reach for every look (kennard_big seed 183: a 7D taken for a heart)
        return best if float(apart[best][0]) <= s.look_reach * float(np.median(spacing.min(axis=1))) else None


def _one_face(readings: list[CardInZone]) -> CardInZone:
    """Readings of one rank on a squared pile whose pips count that rank once are its one face read
    several ways (kennard_big, four players, Zenuwen seed 183: a side seat's 7D read 7D at both indices
    and 7H at a half of one, published as a 7H on a 7D for 30 s; the same card of two decks read
    twice). The reading found at more indices stands, then the surer; where the suits contradict each
    other only the margin between them is its confidence, as for a card whose two indices read two
    codes (:func:`vision.pile_assignment.join_split_readings`), so that a close call reaches the
    referee as unread and the rules settle it."""
    best = max(readings, key=lambda c: (len(c.points_mm), c.confidence))
    rival = max((c.confidence for c in readings if c.card != best.card), default=None)
    return best if rival is None else replace(best, confidence=abs(best.confidence - rival))


def _rank_of(count: int) -> str:
    return "A" if count == 1 else str(count)


class PipReader:
    """The tracker's pip check (``TrackerSettings.pips``): each frame, the squared piles' tops read by
    their index are checked against their pips (:func:`read_pips`). A rank the pips contradict is
    replaced by theirs, the suit and score kept (the index's suit is read far more surely than its
    rank: a 10S is read 8S, rarely 10H); a number read on a picture is no reading, only a guess (the
    zone's faint reading, which a referee takes for a card it cannot read).

    A top read unsurely (under ``sure_read``) whose pips also tell its suit (:class:`SuitLooks`) is
    that rank of that suit, whatever the index said, and scores at least ``told_score``: a far seat's
    ten read at 0.01-0.2 (aguilar, four players at 1280x720, seed 168) is then a card the referee takes.

    Not every deck has pips where a standard deck does (a deck with one large suit sign in the middle
    of every card reads as aces throughout), so the pips are believed only once they have agreed with
    the index on cards it read surely (``trust_after`` counts, at most ``trust_misses`` of them against
    it), and no longer when that stops being so. Reading costs about 2 ms a pile, so a pile's reading
    is kept while the index's stays and nothing moves there, for at most ``reread_s``."""

    def __init__(self, layout: ZoneLayout, settings: PipSettings | None = None) -> None:
        self.zones = [z for z in layout.zones if z.fan is None and z.role in ("pile", "centre")]
        self.settings = settings or PipSettings()
        self.looks = SuitLooks(self.settings)
        self._known: dict[str, tuple[str, FaceReading, float]] = {}
        self._taught: dict[str, tuple[str, int]] = {}
        """zone -> the card lying there and how many of its looks were learned (``looks_per_card``)."""
        self.told: dict[str, tuple[str, str]] = {}
        """The tops told by their pips' rank and look at the last check: zone -> (the index's reading, the card told)."""
        self.agreed = 0
        self.disagreed = 0

    @property
    def trusted(self) -> bool:
        """Whether the pips have agreed with the index often enough to be believed over it."""
        s = self.settings
        return self.agreed >= s.trust_after and self.disagreed <= s.trust_misses * (self.agreed + self.disagreed)

    def _read(self, zone: Zone, code: str, sure: bool, image: Image, h: TableHomography, moving: bool, t: float) -> FaceReading:
        known = self._known.get(zone.name)
        if known is not None and known[0] == code and not moving and t - known[2] < self.settings.reread_s:
            return known[1]
        reading = read_pips(image, h, zone, self.settings)
        self._known[zone.name] = (code, reading, t)
        count = reading.count
        if sure and count is not None:
            agrees = code[:-1] == _rank_of(count) if isinstance(count, int) else code[:-1] not in NUMBERS
            self.agreed += agrees
            self.disagreed += not agrees
            # a look the looks already tell as another suit is the index's misreading, not a lesson;
            # a card lying on is looks_per_card lessons, not one every read
            taught = self._taught.get(zone.name, ("", 0))
            lessons = taught[1] if taught[0] == code else 0
            if (agrees and reading.look is not None and lessons < self.settings.looks_per_card
                    and self.looks.suit_of(reading.look, code[-1]) in (None, code[-1])):
                self.looks.learn(code[-1], reading.look)
                self._taught[zone.name] = (code, lessons + 1)
        return reading

    def _one_top(self, zone: Zone, zv: ZoneView, view: FrameView, image: Image, h: TableHomography) -> None:
        """A squared pile read as several cards shows one face, its top: the readings its pips do not
        bear out are no card of the pile but its other index misread (kennard_4c_big, Zenuwen seed 186:
        an 8D's far index read 6D, published as a 6D under the 8D for ten seconds). Where the pips say
        that face is a picture, the numbers read there are guesses (kennard_4c_big, Stress seed 128: a
        QC's two big indices read QC at 0.42 and 10S at 0.34, published as a 10S lying on the QC,
        learned, and played on); where they count a number, readings of other ranks are, and of that
        rank, those of another suit than the pips' look. A count borne out by no reading leaves them
        all to the index (a card half laid on another)."""
        if not self.trusted:
            return  # (a reading of no sure card teaches no trust: not worth the 2 ms a pile)
        reading = self._read(zone, zv.cards[-1].card, False, image, h, zone.name in view.moving, view.t)
        if reading.count is None:
            return
        if reading.count == PICTURE:
            self._numbers_as_guesses(zone, zv, view)
            return
        kept = [c for c in zv.cards if c.card[:-1] == _rank_of(int(reading.count))]
        look = reading.look
        told = {self.looks.suit_of(look, c.card[-1]) for c in kept} - {None} if look is not None and len(kept) > 1 else set()
        if len(told) == 1 and any(c.card[-1] in told for c in kept):
            kept = [c for c in kept if c.card[-1] in told]
        if len(kept) > 1:
            kept = [_one_face(kept)]
        if kept:  # (one card left of the several read)
            others = [(c.card, c.confidence) for c in zv.cards if c.card != kept[0].card]
            if others:
                view.faint.setdefault(zone.name, []).extend(others)
            zv.cards[:] = kept

    def _unread_top(self, zone: Zone, view: FrameView, image: Image, h: TableHomography) -> None:
        """A pile whose top was read before and reads as nothing now: where a card's face is still
        found there, a card lies there that the index does not read, not an empty pile. It becomes the
        zone's faint reading at ``unread_score`` (kennard at 1280x720, Zenuwen seed 182: a centre QD
        the detector stopped reading for 2.6 s was published as an empty centre pile, and the referee,
        told a centre pile was gone, lost its thread). The code is the last read there (its rank the
        pips' count's): a reviewer's guess; the referee takes the card for unread."""
        known = self._known.get(zone.name)
        if known is None or not self.trusted:
            return
        # read again every frame, not kept: a card taken away must not stay for reread_s
        reading = read_pips(image, h, zone, self.settings)
        if not reading.found:
            if zone.name not in view.moving:  # (a hand over it finds no face either: the card may stay)
                self._known.pop(zone.name, None)
            return
        code = known[0]
        if isinstance(reading.count, int) and code[:-1] != _rank_of(reading.count):
            code = _rank_of(reading.count) + code[-1]
        view.faint[zone.name] = [(code, self.settings.unread_score)]

    def _numbers_as_guesses(self, zone: Zone, zv: ZoneView, view: FrameView) -> None:
        """Where the pips say picture, every number read on the pile, as a card or faintly, is a guess:
        a faint reading (so the pile is not taken for empty) at ``picture_guess`` of its score."""
        numbers = [c for c in zv.cards if c.card[:-1] in NUMBERS]
        zv.cards[:] = [c for c in zv.cards if c not in numbers]
        faint = view.faint.get(zone.name, []) + [(c.card, c.confidence) for c in numbers]
        if faint:
            view.faint[zone.name] = [(c, score * self.settings.picture_guess if c[:-1] in NUMBERS else score)
                                     for c, score in faint]

    def check(self, view: FrameView, image: Image, h: TableHomography) -> None:
        """Re-read ``view``'s squared pile tops in place from ``image`` (whose size ``h`` is for)."""
        s = self.settings
        self.told = {}
        for zone in self.zones:
            zv = view.zones.get(zone.name)
            if zv is None or zv.backs:
                continue
            faint = view.faint.get(zone.name, [])
            if len(zv.cards) > 1:
                self._one_top(zone, zv, view, image, h)
                continue
            if len(zv.cards) == 1:
                code, sure = zv.cards[0].card, zv.cards[0].confidence >= s.sure_read
            elif faint:
                code, sure = max(faint, key=lambda r: r[1])[0], False
            else:
                self._unread_top(zone, view, image, h)
                continue
            reading = self._read(zone, code, sure, image, h, zone.name in view.moving, view.t)
            count = reading.count
            if count is None or not self.trusted:
                continue
            if not isinstance(count, int):  # a picture
                self._numbers_as_guesses(zone, zv, view)
                continue
            rank = _rank_of(count)
            suit = self.looks.suit_of(reading.look, code[-1]) if reading.look is not None and not sure else None
            if suit is not None:
                self.told[zone.name] = (code, rank + suit)
            if zv.cards:
                card = zv.cards[0]
                if suit is not None:
                    zv.cards[0] = replace(card, card=rank + suit, confidence=max(card.confidence, s.told_score))
                elif code[:-1] != rank:
                    zv.cards[0] = replace(card, card=rank + code[-1])
            else:
                view.faint[zone.name] = [
                    (rank + suit, max(score, s.told_score)) if suit is not None and c == code
                    else (rank + c[-1] if c[:-1] != rank else c, score) for c, score in faint]
