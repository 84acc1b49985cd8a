"""Which player's hand reached a centre pile, and when: the camera's side of a Stress slap.

A hand slapping a centre pile comes in from its player's side of the table with the arm behind it. Per
frame the image is compared with the one before (small and grey, as :mod:`vision.motion` does); a seat
*reaches* a centre zone when the zone's pixels change and, within ``memory_s`` before, so did the
corridor of table between that zone and the seat's own cards (the path of the arm). Each seat is
reported once per :meth:`ReachWatch.arm` (the referee arms it when it calls a stress, or while centre
tops nobody read may be one), in the order the hands arrived, and only after its side of the table has
been still once since the call (the hand that played the card that made the stress is often still on
its way back). A hand that lands on a pile while another hand still moves there changes little of it:
an arm that came in during such a run of change reached that pile once the run has ended and the arm
lies still.

Which pile it reached is told once the hand has come to rest (``settle_s`` later; the report keeps
the time it arrived): its arm then lies across the strip of table off that pile on the seat's side,
which differs from the table as it last lay still before any hand came and from the table as the
seat's arm set off (what other hands covered already). The picture's changes from frame to frame
cannot tell two piles side by side apart when hands overlap. A seat at the end of the row of centre
piles (Zenuwen's side seats, three and four players) looks along it: its arm comes over the table off
the row's end and lies over the nearer piles, its fingers over the next; it reached the pile a hand's
length back from as far along the row as its arm and hand newly cover without a break.

It knows nothing of the rules: it says "seat 2 reached centre1 at 13.6 s"; whether that is a slap is
the referee's to judge.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.homography import TableHomography
from calibration.zones import Zone, ZoneLayout
from vision.motion import polygon_pixels, small_grey


BIN_MM = 10.0
"""The steps in which a side seat's reach along the row is measured."""
LANE_END_MM = 120.0
"""How far a side seat's lane reaches beyond the row of centre piles: a hand on the farthest pile
has its fingers off the row."""


@dataclass(frozen=True, slots=True)
class Reach:
    t: float
    zone: str
    seat: int


def corridor(centre: Zone, seat_zones: list[Zone], length_mm: float, side_mm: float) -> npt.NDArray[np.float64]:
    """The table between ``centre`` and the seat's zones that an arm crosses (a rectangle in mm)."""
    c = np.asarray(centre.polygon_mm, dtype=np.float64)
    mid = c.mean(axis=0)
    home = np.mean([np.asarray(z.polygon_mm, dtype=np.float64).mean(axis=0) for z in seat_zones], axis=0)
    d = home - mid
    d /= max(float(np.linalg.norm(d)), 1e-9)
    n = np.array([-d[1], d[0]])
    near = float(((c - mid) @ d).max())  # the centre zone's edge facing the seat
    half = float(np.abs((c - mid) @ n).max()) + side_mm
    a, b = mid + d * near, mid + d * (near + length_mm)
    return np.array([a - n * half, b - n * half, b + n * half, a + n * half])


def approach(centre: Zone, toward: npt.NDArray[np.float64], gap_mm: float, length_mm: float) -> npt.NDArray[np.float64]:
    """The strip of table off ``centre``'s edge facing ``toward`` (a unit vector in mm), as wide as the
    pile, from ``gap_mm`` beyond the edge (the fingers of a hand on a pile reach over its edge; an arm
    lies across the whole strip) to ``length_mm`` further on."""
    c = np.asarray(centre.polygon_mm, dtype=np.float64)
    mid = c.mean(axis=0)
    n = np.array([-toward[1], toward[0]])
    near = float(((c - mid) @ toward).max()) + gap_mm
    lo, hi = float(((c - mid) @ n).min()), float(((c - mid) @ n).max())
    a, b = mid + toward * near, mid + toward * (near + length_mm)
    return np.array([a + n * lo, b + n * lo, b + n * hi, a + n * hi])


class ReachWatch:
    def __init__(
        self,
        homography: TableHomography,
        layout: ZoneLayout,
        *,
        width: int = 320,
        pixel_threshold: int = 25,
        zone_fraction: float = 0.05,
        corridor_fraction: float = 0.02,
        memory_s: float = 0.4,
        corridor_mm: float = 160.0,
        side_mm: float = 40.0,
        approach_gap_mm: float = 20.0,
        approach_mm: float = 60.0,
        settle_s: float = 0.3,
        hand_mm: float = 100.0,
        pile_weight: float = 1.0,
        rest_s: float = 0.4,
    ) -> None:
        self.homography = homography
        self.width = width
        self.pixel_threshold = pixel_threshold
        self.zone_fraction = zone_fraction
        self.corridor_fraction = corridor_fraction
        self.memory_s = memory_s
        self.settle_s = settle_s
        self.hand_mm = hand_mm
        """From a flat hand's fingertips back to the middle of its palm."""
        self.pile_weight = pile_weight
        """A facing seat: how much the pile's own newly covered share counts beside its strip's."""
        self.rest_s = rest_s
        """How long an arm that came in while another hand moved on a pile lies still before it has
        landed (at most ``memory_s``: the corridor's changes are kept that long)."""
        self.centres = [z for z in layout.zones if z.role == "centre"]
        seats = sorted({z.seat for z in layout.zones if z.seat > 0})
        self.corridors = {
            (c.name, s): corridor(c, [z for z in layout.zones if z.seat == s], corridor_mm, side_mm)
            for c in self.centres for s in seats
        }
        middle = np.mean([np.asarray(c.polygon_mm, dtype=np.float64).mean(axis=0) for c in self.centres], axis=0)
        self.approaches: dict[tuple[str, int], npt.NDArray[np.float64]] = {}
        self.along: dict[int, npt.NDArray[np.float64]] = {}
        """The seats at an end of the row of centre piles, looking along it: the way from the seat
        along the row (a unit vector, mm)."""
        for s in seats:
            home = np.mean([np.asarray(z.polygon_mm, dtype=np.float64).mean(axis=0) for z in layout.zones if z.seat == s], axis=0)
            toward = (home - middle) / max(float(np.linalg.norm(home - middle)), 1e-9)
            strips = {c.name: approach(c, toward, approach_gap_mm, approach_mm) for c in self.centres}
            # Strips side by side tell the piles apart: a seat facing the row of centre piles. A seat at
            # the end of the row (Zenuwen's side seats) looks along it: each pile's strip lies on its
            # neighbour, and an arm to the far pile crosses them all.
            points = [point for strip in strips.values()
                      for point in ((strip[0] + strip[3]) / 2, strip.mean(axis=0), (strip[1] + strip[2]) / 2)]
            if not any(other.contains(point) for point in points for other in self.centres):
                self.approaches.update({(name, s): strip for name, strip in strips.items()})
            else:
                # a corridor along the row would lie on the nearer piles, where the other seats' hands
                # come down: an arm to any pile crosses the table off the row's end instead
                end = min(self.centres, key=lambda c: float(np.linalg.norm(np.asarray(c.polygon_mm).mean(axis=0) - home)))
                for c in self.centres:
                    self.corridors[(c.name, s)] = self.corridors[(end.name, s)]
                self.along[s] = -toward
        self._masks: dict[object, tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]] = {}
        self._size: tuple[int, int] | None = None
        self._previous: npt.NDArray[np.uint8] | None = None
        self._corridor_seen: dict[tuple[str, int], deque[float]] = {k: deque() for k in self.corridors}
        # the table as it last lay still (no hand moving over the watched regions) since arm()
        self._still: npt.NDArray[np.uint8] | None = None
        # seats seen arriving, not yet reported: since when, since when they are watched, and how much
        # of each pile's strip on the seat's side their arm has newly covered in the frames since (a
        # side seat: _fingertips)
        self._settling: dict[int, tuple[float, float, dict[str, float]]] = {}
        self._arrived = False  # a hand has reached a centre pile since arm(): the still table is kept
        # per seat, the table just before its arm first crossed its corridors since arm(): what other
        # hands already covered then is not its arm
        self._setting_off: dict[int, npt.NDArray[np.uint8]] = {}
        # per side seat settling: how far along the row its hand has newly covered (mm from its end)
        self._fingertips: dict[int, float] = {}
        # per side seat: the pixels of its lane (small picture), their BIN_MM steps from its start,
        # and how many pixels each step has
        self._lanes: dict[int, tuple[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]], npt.NDArray[np.intp], npt.NDArray[np.intp]]] = {}
        self._waiting: set[int] = set()
        self._ready: set[int] = set()
        self._since = float("inf")
        # per centre: the seats whose arm was on its way before the zone's current run of change began
        self._came: dict[str, set[int]] = {c.name: set() for c in self.centres}
        self._changing: set[str] = set()
        # per centre: the seats whose arm crossed its corridor during the current run of change, when
        # they were not on their way before it began (a hand landing on a pile another hand covers)
        self._joined: dict[str, set[int]] = {c.name: set() for c in self.centres}
        # seats whose arm came in during a run of change on a pile: when that run ended
        self._landed: dict[int, float] = {}

    def arm(self, t: float, seats: set[int]) -> None:
        """Report the first reach of each of ``seats`` from ``t`` on (frames are only needed while armed)."""
        self._waiting = set(seats)
        self._since = t
        self._previous = None
        for seen in self._corridor_seen.values():
            seen.clear()
        self._still = None
        self._arrived = False
        self._settling = {}
        self._setting_off = {}
        self._fingertips = {}
        # a hand already on its way (the player who just played, withdrawing) must go away first
        self._ready = set()
        self._changing = set()
        self._joined = {c.name: set() for c in self.centres}
        self._landed = {}

    def disarm(self) -> None:
        self._waiting = set()
        self._settling = {}

    @property
    def armed(self) -> bool:
        return bool(self._waiting or self._settling)

    def _build(self, frame_size: tuple[int, int], small: tuple[int, int]) -> None:
        h = self.homography.for_image_size(frame_size)
        scale = small[0] / frame_size[0]
        polygons: dict[object, npt.NDArray[np.float64]] = {c.name: c.polygon() for c in self.centres}
        for way, poly in self.corridors.items():
            polygons[way] = poly
        for way, poly in self.approaches.items():
            polygons[("approach", *way)] = poly
        self._masks = {}
        for key, poly_mm in polygons.items():
            ys, xs = polygon_pixels(h, poly_mm, scale, small)
            if len(ys):
                self._masks[key] = (ys, xs)
        self._lanes = {}
        for seat, direction in self.along.items():
            ys, xs = polygon_pixels(h, self._lane(direction), scale, small)
            if not len(ys):
                continue
            along = h.to_table(np.stack([(xs + 0.5) / scale, (ys + 0.5) / scale], axis=1)) @ direction
            bins = np.floor((along - along.min()) / BIN_MM).astype(np.intp)
            self._lanes[seat] = ((ys, xs), bins, np.bincount(bins))
        self._size = frame_size
        self._previous = None
        self._still = None

    def _changed(self, changed: npt.NDArray[np.bool_], key: object, fraction: float) -> bool:
        return self._share(changed, key) > fraction

    def _share(self, changed: npt.NDArray[np.bool_], key: object) -> float:
        """The share of the region ``key``'s pixels that changed (0 for a region off the picture)."""
        m = self._masks.get(key)
        return int(np.count_nonzero(changed[m])) / len(m[0]) if m is not None and len(m[0]) else 0.0

    def update(self, image: npt.NDArray[np.uint8], t: float) -> list[Reach]:
        """One frame; the seats (still awaited) whose hand reached a centre pile in it."""
        small = small_grey(image, self.width)
        fh, fw = image.shape[:2]
        if self._size != (fw, fh):
            self._build((fw, fh), (small.shape[1], small.shape[0]))
        previous, self._previous = self._previous, small
        if previous is None:
            return []
        changed = cv2.absdiff(small, previous) > self.pixel_threshold
        for key, seen in self._corridor_seen.items():
            while seen and seen[0] < t - self.memory_s:
                seen.popleft()
        # A hand reaching a pile has crossed its corridor before the pile starts to change; a hand that
        # only sets off while the pile is already changing (the other player's hand still on it) has
        # not made that change. A fast hand crosses its corridor and reaches the pile's edge between two
        # frames (Stress 91: the stress's first slap): when no arm was on its way, the arms crossing
        # the corridors in the frame the pile begins to change made it.
        crossing = {key for key in self._corridor_seen if self._changed(changed, key, self.corridor_fraction)}
        for centre in self.centres:
            if self._changed(changed, centre.name, self.zone_fraction):
                if centre.name not in self._changing:
                    came = {s for (c, s), seen in self._corridor_seen.items() if c == centre.name and seen}
                    self._came[centre.name] = came or {s for (c, s) in crossing if c == centre.name}
                    self._joined[centre.name] = set()
                    self._changing.add(centre.name)
                    for seat in self._came[centre.name]:
                        self._landed.pop(seat, None)
                else:
                    self._joined[centre.name] |= {s for (c, s) in crossing if c == centre.name} - self._came[centre.name]
            elif centre.name in self._changing:
                # The run of change has ended: the hands on the pile have come to rest. A hand that
                # landed on a pile another hand still covered changed little of it (skin on skin) while
                # that hand was still moving (Stress 135's second slap, credited 1.2 s later to the
                # other pile when the hand gathered both); an arm that came in while the pile changed
                # has landed once it lies still (not merely between two frames of its flight).
                self._changing.discard(centre.name)
                self._landed.update({seat: t for seat in self._joined[centre.name]})
                self._joined[centre.name] = set()
        moving = bool(self._changing)
        for key in crossing:
            self._corridor_seen[key].append(t)
            moving = True
        if self._still is None or (not moving and not self._arrived):
            self._still = small
        if (not self._waiting and not self._settling) or t < self._since:
            return []
        for seat in self._waiting - self._ready:
            if not any(self._corridor_seen[(c.name, seat)] for c in self.centres):
                # its side of the table still in every frame since the call (at most memory_s back)
                self._ready.add(seat)
        found: list[Reach] = []
        for seat in sorted(self._waiting & self._ready):
            if seat not in self._setting_off and any(self._corridor_seen[(c.name, seat)] for c in self.centres):
                # a side seat's corridor lies off the row's end, away from every pile: its arm entering it
                # covers none yet, while a hand landing in that frame is not its own
                self._setting_off[seat] = small if seat in self.along else previous
            if any(c.name in self._changing and seat in self._came[c.name] for c in self.centres):
                since = t
            elif seat in self._landed and all(
                    not seen or seen[-1] <= t - self.rest_s + 1e-9
                    for (c, s), seen in self._corridor_seen.items() if s == seat):
                since = self._landed[seat]
            else:
                continue
            self._landed.pop(seat, None)
            self._waiting.discard(seat)
            self._arrived = True
            self._settling[seat] = (since, t, {c.name: 0.0 for c in self.centres})
        # Which pile, for a seat facing the row: its arm lies across the strip of table off the pile it
        # slapped, on its side, in the frames until the hand has come to rest. The picture's changes
        # from frame to frame cannot tell: a hand landing on a pile the other hand still covers changes
        # little of it (skin on skin) while its fingers over the neighbouring pile change that one
        # (Stress seeds 51, 53 and 56: the second slap credited to the neighbour), and an arm that
        # has stopped moving changes nothing. The table as it last lay still shows where the arm is,
        # and the table as the seat's arm set off what other hands already lay there (Zenuwen's race:
        # a side seat's arm along the row, lying over the strips of a seat facing it). The pile itself
        # counts too: an arm coming in at a slant (a Zenuwen seat's hand entering beside the row) lies
        # over the neighbour's strip, while the palm newly covers its own pile.
        assert self._still is not None
        if self._settling:
            lying = cv2.absdiff(small, self._still) > self.pixel_threshold
        for seat, (since, watched, cover) in sorted(self._settling.items()):
            off = self._setting_off.get(seat)
            new = lying if off is None else lying & (cv2.absdiff(small, off) > self.pixel_threshold)
            if seat in self.along:
                self._fingertips[seat] = max(self._fingertips.get(seat, -np.inf), self._farthest(new, seat))
            else:
                for c in self.centres:
                    cover[c.name] += self._share(new, ("approach", c.name, seat)) + self.pile_weight * self._share(new, c.name)
            if t >= watched + self.settle_s - 1e-9:
                pile = self._palm_pile(seat) if seat in self.along else max(cover, key=lambda name: cover[name])
                found.append(Reach(since, pile, seat))
                del self._settling[seat]
        return sorted(found, key=lambda r: (r.t, r.seat))

    def _lane(self, way: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The row of centre piles as wide as it is, LANE_END_MM longer at both ends (a rectangle, mm)."""
        corners = np.concatenate([np.asarray(c.polygon_mm, dtype=np.float64) for c in self.centres])
        across = np.array([-way[1], way[0]])
        a, b = corners @ way, corners @ across
        lo, hi = a.min() - LANE_END_MM, a.max() + LANE_END_MM
        return np.array([way * lo + across * b.min(), way * hi + across * b.min(), way * hi + across * b.max(),
                         way * lo + across * b.max()])

    def _farthest(self, new: npt.NDArray[np.bool_], seat: int) -> float:
        """How far along the row from ``seat``'s end its arm and hand newly cover the lane without a
        break (mm from the lane's start; -inf when nothing in the lane's first half is): the fingertips.
        A hand come from the other end of the row lies beyond a stretch of bare table. (The part of the
        arm already in the lane as it set off is not new.)"""
        lane = self._lanes.get(seat)
        if lane is None:
            return -np.inf
        pixels, bins, total = lane
        covered = np.flatnonzero(np.bincount(bins[new[pixels]], minlength=len(total)) >= 0.1 * np.maximum(total, 1))
        if not len(covered) or covered[0] > len(total) // 2:
            return -np.inf
        gaps = np.flatnonzero(np.diff(covered) > 3)  # more than three bins bare: the arm has ended
        return float(covered[gaps[0] if len(gaps) else -1] + 1) * BIN_MM

    def _palm_pile(self, seat: int) -> str:
        """A side seat's pile: looking along the row, its arm lies over the nearer piles and its
        fingers over the next; the palm lies a hand's length back from the fingertips (none seen:
        the pile at its end of the row)."""
        way = self.along[seat]
        reach = self._fingertips.pop(seat, -np.inf)
        palm = float(self._lane(way)[0] @ way) + (reach - self.hand_mm if np.isfinite(reach) else 0.0)
        return min(self.centres, key=lambda c: abs(float(np.asarray(c.polygon_mm).mean(axis=0) @ way) - palm)).name
