"""Face-down cards of a fanned pile counted from their top edges in the image.

The detector boxes a tightly fanned stack of backs as one or two backs (its slivers look alike and run
together), so a Klondike column's face-down count cannot come from the boxes. It can come from the
picture: looking down the fan over the middle of the cards, every card's top edge is a step from the
darker card (or shadow) above it to the bright margin of the next card. The strip of table between the
top of the pile and the index of its first face-up card is cut out straight (the calibration's
homography), averaged across, and the steps along it are counted: one per back, then the face-up
card's own edge, which is not a back.

Whether a card is a back or the face is judged from the darker part of each row across the strip (a
back's lattice or checks are half white, and a row's mean hides them). Counting stops at the first
face-up card, except that a bright step above the zone followed by a back is the table (a white check
of a cloth, a light laminate), not a face. The steps between backs are measured against the second
strongest step: on a dark table the pile's own top edge is far stronger than any of them.

Backs printed to their edges (no white margin, as the npm deck aguilar's lattice) show no step onto
a margin: every back of a fan shows the same top slice of the design, so they are counted from the
step at which the strip above the face-up card repeats itself (120 of 371 columns of the first
aguilar render counted right before, 368 after). A lone one, with nothing to repeat, is told by its
pattern across the strip, which the table above the pile does not show (:func:`_lone_back`). Backs with
no pattern showing at all (a tight fan of wide-margin backs) are the known weak case.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from calibration.homography import TableHomography
from calibration.zones import Zone
from vision.straighten import straightened


@dataclass(frozen=True)
class EdgeSettings:
    px_per_mm: float = 4.0
    """Resolution of the straightened strip."""
    band_mm: float = 24.0
    """Width of the strip, along the middle of the zone: inside the cards (no side margins, no
    index) even when they lie 15 mm off the zone's middle."""
    above_mm: float = 10.0
    """How far above the zone's start the pile's top may lie."""
    face_edge_mm: float = 3.0
    """The face-up card's top edge lies at least this far above its index's centre..."""
    face_index_mm: float = 16.0
    """... and at most this far above it (aguilar's JS at 1920x1080: 13.8-14.0 mm, so that 14 took its
    edge for a back's in one frame and not the next; a back's edge lies a back's step further up)."""
    min_gap_mm: float = 2.5
    """Two steps closer than this are one edge."""
    min_share: float = 0.4
    """A card's edge is a step of at least this share of the strongest one..."""
    min_step: float = 4.0
    """... and at least this many grey levels per pixel of the strip, in a picture of
    ``sharp_mm_per_pixel`` or finer ..."""
    sharp_mm_per_pixel: float = 0.6
    """... a coarser picture spreads an edge over more of the strip's pixels, and its step per pixel
    shrinks with it: the floor does too, inside the zone (simplistic's light checked back at 0.97 mm per
    pixel, Double Solitaire at 1280x720, seed 63: a margin 25-30 grey levels brighter than the back
    above it, 3.2-4.1 a pixel, four backs counted none); above it, where a table's grain or check may
    lie, it stays (aguilar on wood, Double Solitaire seed 58 at 0.77 mm per pixel: a grain at 3-4 a
    pixel above a pile of two counted as a third back)."""
    margin_mm: float = 2.0
    margin_share: float = 0.85
    """Within ``margin_mm`` after a card's edge the strip is at least this share as bright as after the
    brightest edge."""
    max_mm_per_pixel: float = 1.4
    """Coarser pictures (a margin of a few mm is a pixel) give no count. (At 0.8 the far player's
    last columns of a Double Solitaire table filmed from its end at 1920x1080, 0.8-0.9 mm per pixel,
    were left to the back boxes, one short: the shipped clip's states were published exactly 0/10
    times with the true boxes, 10/10 at 1.0; the Klondike clips the same, 10/10 and 8/8. At 1.0 the
    far half of a Double Solitaire table filmed at 1280x720, 1.0-1.26 mm per pixel, was left to them
    too: of two such renders' columns at rest, single frames over the recorded detections, 473 of 794
    counted right; 699 at 1.4, 725 with the floor below (``bench/bench_back_counts.py --recorded``).)"""
    look_mm: float = 8.0
    face_share: float = 0.94
    """From ``margin_mm`` to ``look_mm`` after its edge a face-up card is on average at least this share
    as bright as its margin; a back's pattern is darker."""
    max_back_step_mm: float = 25.0
    """The most of a back a fan shows: a stretch above the first face-up card longer than this per back
    told apart holds backs whose edges could not be told (backs printed to their edges, with no white
    margin), which are counted from how the strip repeats (:func:`_repeated_backs`)."""
    min_back_step_mm: float = 8.0
    repeat_shift_mm: float = 3.0
    repeat_min_corr: float = 0.2
    repeat_extend_corr: float = 0.35
    repeat_tie: float = 0.05
    repeat_tolerance: float = 0.3
    """Backs without a margin (:func:`_repeated_backs`) are counted from a step of ``min_back_step_mm``
    to ``max_back_step_mm`` (shifted up to ``repeat_shift_mm`` across) at which the strip repeats with a
    correlation of at least ``repeat_min_corr`` (the longest of those within ``repeat_tie`` of the best);
    a step's length above the first strong edge that correlates ``repeat_extend_corr`` with the one
    below it is one more back; as many backs as steps fit above the face-up card, the last one showing
    up to ``1 + (1 - repeat_tolerance)`` steps."""
    lone_pattern_ratio: float = 3.0
    lone_pattern_min: float = 8.0
    """A lone back printed to its edges (:func:`_lone_back`) shows a pattern across the strip: the rows'
    spread of grey there at least this many times the table's above the pile, and at least this much."""
    row_percentile: float = 25.0
    """Each row's brightness, for judging margins and patterns: this percentile across the strip."""


def _strip(image: npt.NDArray[np.uint8], h: TableHomography, origin: npt.NDArray[np.float64],
           along: npt.NDArray[np.float64], across: npt.NDArray[np.float64], size: tuple[int, int],
           px_per_mm: float) -> npt.NDArray[np.float32]:
    """The table strip starting at ``origin`` (mm), ``size`` = (across, along) pixels, in grey."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return straightened(grey, h, origin, along, across, size, px_per_mm).astype(np.float32)


def _peaks(signal: npt.NDArray[np.float64], min_gap: int) -> list[int]:
    """Local maxima, strongest first, none within ``min_gap`` of a stronger one."""
    idx = [i for i in range(1, len(signal) - 1) if signal[i] >= signal[i - 1] and signal[i] > signal[i + 1]]
    kept: list[int] = []
    for i in sorted(idx, key=lambda k: -signal[k]):
        if all(abs(i - k) >= min_gap for k in kept):
            kept.append(i)
    return kept


def _repeated_backs(strip: npt.NDArray[np.float32], pile_top: float, face: float, start: float,
                    s: EdgeSettings) -> list[float] | None:
    """The backs above a face-up card at ``face`` whose edges could not be told, counted from how the
    strip repeats itself: every back of a fan shows the same top slice of the same design, so from the
    pile's top to the face-up card the picture repeats at the fan's step. The step is where the
    stretch from ``pile_top`` (the first strong edge above the face-up card) repeats best; above it,
    each slice a step long that looks like the one below it is one more back (a light table above the
    pile makes its top edge a weak step or none), compared by the rows' means, which do not change
    when a card lies a little to the side. None when no step repeats clearly."""
    px = s.px_per_mm
    i0, i1 = max(int(round((pile_top - start) * px)), 0), int(round((face - start) * px))
    if i1 - i0 < 2 * s.min_back_step_mm * px:
        return None  # not two backs' room: nothing can repeat

    # the stretch against itself a step on, the whole picture at a pixel a millimetre along the fan
    # and two across, with the best of small shifts across (a fan's cards do not lie exactly in line):
    # the correlation of each step and shift over the part both sides cover, all at once (products
    # from the Fourier transform, the sides' sums from integral images)
    seg = cv2.resize(strip[i0:i1], None, fx=2 / px, fy=1 / px, interpolation=cv2.INTER_AREA).astype(np.float64)
    rows, width = seg.shape
    lo, hi, shift = int(s.min_back_step_mm), min(int(s.max_back_step_mm), int(0.6 * rows)), int(s.repeat_shift_mm * 2)
    if hi < lo:
        return None
    seg -= seg.mean()
    spectrum = np.fft.rfft2(seg, s=(2 * rows, 2 * width))
    products = np.fft.irfft2(spectrum * np.conj(spectrum), s=(2 * rows, 2 * width))
    sums, squares = cv2.integral(seg), cv2.integral(seg * seg)

    k = np.arange(lo, hi + 1)[:, None]
    d = np.arange(-shift, shift + 1)[None, :]
    c0, c1 = np.maximum(0, -d), width - np.maximum(0, d)  # the upper side's columns; the lower's are d further
    area = (rows - k) * (c1 - c0)

    def over(table: npt.NDArray[Any], r0: npt.NDArray[Any], r1: npt.NDArray[Any], a: npt.NDArray[Any],
             b: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        # the sums of the rectangles rows r0..r1, columns a..b (integral image ``table``)
        return np.asarray(table[r1, b] - table[r0, b] - table[r1, a] + table[r0, a], dtype=np.float64)

    zero, end = np.zeros_like(k), np.full_like(k, rows)
    sa, sb = over(sums, zero, rows - k, c0, c1), over(sums, k, end, c0 + d, c1 + d)
    va = over(squares, zero, rows - k, c0, c1) - sa * sa / area
    vb = over(squares, k, end, c0 + d, c1 + d) - sb * sb / area
    corr = (products[k, d] - sa * sb / area) / (np.sqrt(np.maximum(va * vb, 0.0)) + 1e-9)
    per_step = corr.max(axis=1)
    # of the steps that repeat about as well as the best, the longest: a design's own pattern, shorter,
    # repeats within each back as well (aguilar's lattice: a fan of seven taken for eight, and more)
    best = float(per_step.max())
    if best < s.repeat_min_corr:
        return None
    lag_mm = lo + int(np.flatnonzero(per_step >= best - s.repeat_tie).max())
    lag = int(round(lag_mm * px))
    profile = strip.mean(axis=1).astype(np.float64)

    def alike(a: int, b: int, n: int) -> float:
        x, y = profile[a:a + n] - profile[a:a + n].mean(), profile[b:b + n] - profile[b:b + n].mean()
        return float((x * y).sum() / (np.sqrt((x * x).sum() * (y * y).sum()) + 1e-9))

    while i0 - lag >= 0 and alike(i0 - lag, i0, lag) >= s.repeat_extend_corr:
        i0 -= lag
    step, first = lag / px, start + i0 / px
    # the last back may show more than the step (the first face-up card laid a little lower)
    n = int((face - first) / step + s.repeat_tolerance)
    return [first + j * step for j in range(n)] if n >= 2 else None


def _lone_back(strip: npt.NDArray[np.float32], top: float, face: float, start: float, s: EdgeSettings) -> float | None:
    """The top edge of one back printed to its edges above a face-up card whose edge is at ``face``,
    where no edge was told (a back darker than the table has no bright step at its top): the stretch
    just above the face-up card shows a pattern across the strip that the table above the pile does
    not, from a place at least ``min_back_step_mm`` above the card (aguilar Double Solitaire at
    1920x1080, the far player's lone back under a KC, counted as none in every frame). None: no such
    pattern, or it begins further up than one back shows."""
    px = s.px_per_mm
    texture: npt.NDArray[np.float32] = np.asarray(strip.std(axis=1), dtype=np.float32)

    def rows(a_mm: float, b_mm: float) -> npt.NDArray[np.float32]:
        return texture[max(int((a_mm - start) * px), 0):max(int((b_mm - start) * px), 0)]

    table, below = rows(start, top - s.margin_mm), rows(face - s.min_back_step_mm + 1.0, face - 1.0)
    if len(table) < px or len(below) < px:
        return None
    plain, patterned = float(np.median(table)), float(np.median(below))
    if patterned < max(s.lone_pattern_ratio * plain, s.lone_pattern_min):
        return None
    # the pattern begins where the strip's rows turn from the table's to the back's, searched upwards
    # from the face-up card: the first row back up that looks like the table ends it
    threshold = (plain + patterned) / 2
    i = int((face - s.min_back_step_mm - start) * px)
    while i > 0 and float(np.median(texture[max(i - int(px), 0):i])) >= threshold:
        i -= 1
    pile_top = start + i / px
    return pile_top if s.min_back_step_mm <= face - pile_top <= s.max_back_step_mm else None


def back_edges(
    image: npt.NDArray[np.uint8],
    homography: TableHomography,
    zone: Zone,
    face_place: float,
    settings: EdgeSettings = EdgeSettings(),
    boxed: Sequence[float] = (),
) -> list[float] | None:
    """The places (mm along ``zone.fan``) of the top edges of the face-down cards of the pile in ``zone``,
    whose first face-up card shows an index at ``face_place`` along the fan; None when no face-up
    card's edge is found (the strip is covered, blurred or off the picture): the count is unknown.
    ``boxed``: the backs the detector boxed in the zone: where no edge is told and the face-up card
    lies low enough to leave room for a back, they count."""
    if zone.fan is None:
        return None
    s = settings
    along = np.asarray(zone.fan, dtype=np.float64)
    across = np.array([along[1], -along[0]])
    corners = np.asarray(zone.polygon_mm, dtype=np.float64)
    start = float((corners @ along).min()) - s.above_mm
    end = float(face_place)
    if end - start < s.face_edge_mm + 1.0:
        return None
    centre = float((corners @ across).mean())
    origin = along * start + across * (centre - s.band_mm / 2)
    width = int(round(s.band_mm * s.px_per_mm))
    length = int(round((end - start) * s.px_per_mm))
    h = homography.for_image_size((image.shape[1], image.shape[0]))
    middle = along * (start + end) / 2 + across * centre
    coarse = h.mm_per_pixel((float(middle[0]), float(middle[1])))
    if coarse > s.max_mm_per_pixel:
        return None
    strip = _strip(image, h, origin, along, across, (width, length), s.px_per_mm)
    profile = cv2.GaussianBlur(strip.mean(axis=1).reshape(-1, 1), (1, 0), sigmaX=0.1, sigmaY=0.5 * s.px_per_mm).ravel()
    steps = np.diff(profile.astype(np.float64))  # dark above, bright below: a card's top edge

    def place(i: int) -> float:
        return start + (i + 0.5) / s.px_per_mm

    last = end - s.face_edge_mm  # the first face-up card's edge lies above its index
    peaks = [i for i in _peaks(steps, max(1, int(s.min_gap_mm * s.px_per_mm))) if place(i) <= last]
    if not peaks:
        return None
    ranked = sorted((float(steps[i]) for i in peaks), reverse=True)
    share = s.min_share * ranked[min(1, len(ranked) - 1)]
    floor = max(s.min_step, share)
    # (in the zone, where the pile lies: a grain or check of the table above it keeps the full floor)
    inner = max(s.min_step * min(1.0, s.sharp_mm_per_pixel / coarse), share)
    top = start + s.above_mm  # the zone's start: above it lies table, unless a card was put down high
    kth = int(s.row_percentile / 100 * (strip.shape[1] - 1))
    rows = cv2.GaussianBlur(np.partition(strip, kth, axis=1)[:, kth].reshape(-1, 1), (1, 0),
                            sigmaX=0.1, sigmaY=0.5 * s.px_per_mm).ravel()
    margin = max(2, int(s.margin_mm * s.px_per_mm))
    look = max(margin + 1, int(s.look_mm * s.px_per_mm))
    # (a coarser picture's edge rises over more of the strip: its margin's white lies further on)
    ramp = int(round(2 * max(0.0, coarse - s.sharp_mm_per_pixel) * s.px_per_mm))
    white = {i: float(rows[i: i + margin + ramp].max()) for i in peaks}
    # every card's edge is followed by its bright margin; a step up from a shadow onto the table (the
    # pile above this one ends there) is not a card
    strong = [i for i in peaks if steps[i] >= (inner if place(i) >= top else floor)]
    if not strong:
        return None
    brightest = max(white[i] for i in strong)
    edges = sorted(i for i in strong if white[i] >= s.margin_share * brightest)

    def is_back(k: int) -> bool:
        # under a back's margin its pattern begins; a face stays about as white as its margin
        # (compared with its own margin, so that a lamp's gradient along the pile does not matter)
        i = edges[k]
        until = edges[k + 1] if k + 1 < len(edges) else len(rows)
        beneath = rows[i + margin: max(i + margin + 1, min(i + look, until))]
        return float(beneath.mean()) < s.face_share * white[i]

    verdicts = [is_back(k) for k in range(len(edges))]

    def above(k: int, backs: list[float]) -> list[float] | None:
        # the first face-up card's edge is edges[k]; the stretch above it must hold no more backs
        # than were told apart
        face = place(edges[k])
        pile_top = min([place(i) for i in strong if place(i) < face], default=top)
        if not backs and pile_top > top + s.min_back_step_mm / 2:
            # (the zone's start where the first step up lies well below it: the top of backs printed
            # to their edges on a lighter table is a step down, and a step up inside their pattern is
            # no pile top; aguilar Klondike on a checked cloth, seed 804: two backs under a 6C, a step
            # of the lattice 20 mm above it taken for the pile's top, counted from the back box alone)
            pile_top = top
        # (with backs told, half a back's room more than they fill is an untold one: a JH on two aguilar
        # backs on a checked cloth, the second one's edge a faint line, 38.5 mm from the first edge to
        # the face's; none told, the last back may show more than a step, the face-up card laid lower)
        if face - (backs[0] if backs else pile_top) > (len(backs) + (0.5 if backs else 1)) * s.max_back_step_mm:
            lone = _lone_back(strip, top, face, start, s) if not backs and pile_top < top else None
            if lone is not None and lone <= top + s.min_back_step_mm:
                # the first step up lay in the table above the zone (a wood grain running across the
                # fan), and the pattern begins where the pile does, within one back's room of the
                # face-up card: one back, not the lattice's own period repeating within it (aguilar
                # Double Solitaire on wood, seed 58: a JS on one back counted two in every frame).
                # (Beginning lower, it is the last of several backs, the pattern broken at its edge.)
                return [lone]
            return _repeated_backs(strip, pile_top, face, start, s)
        if not backs and boxed and face - top >= s.min_back_step_mm:
            # no edge told, a back boxed, and room for one above the face-up card: the back boxes
            # (one boxed above a face-up card that lies where the pile begins is the detector's mistake)
            return None
        if not backs and face - top >= s.min_back_step_mm:
            lone = _lone_back(strip, top, face, start, s)
            return backs if lone is None else [lone]
        return backs

    backs: list[float] = []
    for k, back in enumerate(verdicts):
        if back:
            backs.append(place(edges[k]))
        elif backs or place(edges[k]) >= top or k + 1 == len(edges) or not verdicts[k + 1]:
            return above(k, backs)  # the first face-up card
        # else a bright table above the pile (a white check of a cloth, a light laminate), not a face
    if edges and place(edges[-1]) >= end - s.face_index_mm:
        # every edge looked like a back's, the last one just above the face-up card's index: that
        # card's own, with its picture close under its margin (a court card) where no back's edge
        # below any margin was told apart (the npm deck aguilar's JS on five backs printed to the edge)
        return above(len(edges) - 1, backs[:-1])
    return None  # no face-up card's edge: the strip is covered or blurred
