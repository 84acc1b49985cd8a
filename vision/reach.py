"""Which player's hand reached a centre pile, and when: the camera's side of a Stress slap.

A hand slapping a centre pile comes in from its player's side of the table with the arm behind it. Per
frame the image is compared with the one before (small and grey, as :mod:`vision.motion` does); a seat
*reaches* a centre zone when the zone's pixels change and, within ``memory_s`` before, so did the
corridor of table between that zone and the seat's own cards (the path of the arm). Each seat is
reported once per :meth:`ReachWatch.arm` (the referee arms it when it calls a stress), in the order the
hands arrived, and only after its side of the table has been still once since the call (the hand that
played the card that made the stress is often still on its way back).

Which pile it reached is told once the hand has come to rest (``settle_s`` later; the report keeps
the time it arrived): its arm then lies across the strip of table off that pile on the seat's side,
which differs from the table as it last lay still before any hand came. The picture's changes from
frame to frame cannot tell two piles side by side apart when hands overlap. A seat at the end of the
row of centre piles (Zenuwen's side seats) looks along it, and an arm to the far pile crosses the
near ones: it reached the pile that began changing last.

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
    ) -> None:
        self.homography = homography
        self.width = width
        self.pixel_threshold = pixel_threshold
        self.zone_fraction = zone_fraction
        self.corridor_fraction = corridor_fraction
        self.memory_s = memory_s
        self.settle_s = settle_s
        self.centres = [z for z in layout.zones if z.role == "centre"]
        seats = sorted({z.seat for z in layout.zones if z.seat > 0})
        self.corridors = {
            (c.name, s): corridor(c, [z for z in layout.zones if z.seat == s], corridor_mm, side_mm)
            for c in self.centres for s in seats
        }
        middle = np.mean([np.asarray(c.polygon_mm, dtype=np.float64).mean(axis=0) for c in self.centres], axis=0)
        self.approaches: dict[tuple[str, int], npt.NDArray[np.float64]] = {}
        for s in seats:
            home = np.mean([np.asarray(z.polygon_mm, dtype=np.float64).mean(axis=0) for z in layout.zones if z.seat == s], axis=0)
            toward = (home - middle) / max(float(np.linalg.norm(home - middle)), 1e-9)
            strips = {c.name: approach(c, toward, approach_gap_mm, approach_mm) for c in self.centres}
            # Strips side by side tell the piles apart: a seat facing the row of centre piles. A seat at
            # the end of the row (Zenuwen's side seats) looks along it: each pile's strip lies on its
            # neighbour, and an arm to the far pile crosses them all.
            along = [point for strip in strips.values()
                     for point in ((strip[0] + strip[3]) / 2, strip.mean(axis=0), (strip[1] + strip[2]) / 2)]
            if not any(other.contains(point) for point in along for other in self.centres):
                self.approaches.update({(name, s): strip for name, strip in strips.items()})
        self._masks: dict[object, tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]] = {}
        self._size: tuple[int, int] | None = None
        self._previous: npt.NDArray[np.uint8] | None = None
        self._corridor_seen: dict[tuple[str, int], deque[float]] = {k: deque() for k in self.corridors}
        # the table as it last lay still (no hand moving over the watched regions) since arm()
        self._still: npt.NDArray[np.uint8] | None = None
        # seats seen arriving, not yet reported: since when, how much of each pile's strip on the seat's
        # side their arm has covered in the frames since, and the pile if already told (a side seat)
        self._settling: dict[int, tuple[float, dict[str, float], str | None]] = {}
        self._arrived = False  # a hand has reached a centre pile since arm(): the still table is kept
        self._waiting: set[int] = set()
        self._ready: set[int] = set()
        self._since = float("inf")
        # per centre: the seats whose arm was on its way before the zone's current run of change began
        self._came: dict[str, set[int]] = {c.name: set() for c in self.centres}
        self._changing: set[str] = set()
        self._change_start: dict[str, tuple[float, float]] = {}

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
        # a hand already on its way (the player who just played, withdrawing) must go away first
        self._ready = set()
        self._changing = set()

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
        # not made that change, even when its corridor and the pile change in the same frame.
        for centre in self.centres:
            if self._changed(changed, centre.name, self.zone_fraction):
                if centre.name not in self._changing:
                    self._came[centre.name] = {s for (c, s), seen in self._corridor_seen.items() if c == centre.name and seen}
                    self._changing.add(centre.name)
                    self._change_start[centre.name] = (t, self._share(changed, centre.name))
            else:
                self._changing.discard(centre.name)
        moving = bool(self._changing)
        for key, seen in self._corridor_seen.items():
            if self._changed(changed, key, self.corridor_fraction):
                seen.append(t)
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
            reached = [c.name for c in self.centres if c.name in self._changing and seat in self._came[c.name]]
            if not reached:
                continue
            self._waiting.discard(seat)
            self._arrived = True
            # Looking along the row, an arm to the far pile passes over the near ones: the pile that
            # began changing last (of two that began together, the one more of whose picture changed).
            # Told after settle_s all the same, so that the reports keep the order the hands came in.
            facing = (self.centres[0].name, seat) in self.approaches
            told = None if facing else max(reached, key=lambda name: self._change_start[name])
            self._settling[seat] = (t, {c.name: 0.0 for c in self.centres}, told)
        # Which pile, for a seat facing the row: its arm lies across the strip of table off the pile it
        # slapped, on its side, in the frames until the hand has come to rest. The picture's changes
        # from frame to frame cannot tell: a hand landing on a pile the other hand still covers changes
        # little of it (skin on skin) while its fingers over the neighbouring pile change that one
        # (Stress seeds 51, 53 and 56: the second slap credited to the neighbour), and an arm that
        # has stopped moving changes nothing. The table as it last lay still shows where the arm is.
        assert self._still is not None
        if self._settling:
            lying = cv2.absdiff(small, self._still) > self.pixel_threshold
        for seat, (since, cover, told) in sorted(self._settling.items()):
            for c in self.centres:
                cover[c.name] += self._share(lying, ("approach", c.name, seat))
            if t >= since + self.settle_s - 1e-9:
                found.append(Reach(since, told or max(cover, key=lambda name: cover[name]), seat))
                del self._settling[seat]
        return sorted(found, key=lambda r: (r.t, r.seat))
