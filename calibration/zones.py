"""Zones: the places on the table where a pile lies, as polygons in table millimetres.

A zone's ``fan`` is the unit direction in which later (upper) cards of its pile lie when the pile is
fanned (a Klondike column fans towards the player: ``(0, 1)``); ``None`` means the cards lie squared, so
only the top card shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class Zone:
    """One pile's place. ``role`` is what kind of pile it is (``tableau``, ``stock``, ``waste``,
    ``foundation``, ``pile``, ``centre``); ``seat`` the player it belongs to (1-based), 0 for shared."""

    name: str
    role: str
    polygon_mm: tuple[tuple[float, float], ...]
    fan: tuple[float, float] | None = None
    seat: int = 0

    def __post_init__(self) -> None:
        if len(self.polygon_mm) < 3:
            raise ValueError(f"zone {self.name!r}: a polygon needs three or more corners, got {self.polygon_mm!r}")
        if self.fan is not None:
            n = math.hypot(*self.fan)
            if n < 1e-9:
                raise ValueError(f"zone {self.name!r}: fan direction {self.fan!r} has no length")
            object.__setattr__(self, "fan", (self.fan[0] / n, self.fan[1] / n))

    @staticmethod
    def rect(name: str, role: str, x: float, y: float, w: float, h: float,
             fan: tuple[float, float] | None = None, seat: int = 0) -> "Zone":
        return Zone(name, role, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)), fan, seat)

    def polygon(self) -> npt.NDArray[np.float64]:
        return np.asarray(self.polygon_mm, dtype=np.float64)

    def contains(self, point: Sequence[float]) -> bool:
        """Whether a table point lies inside (even-odd rule; points on the edge may go either way)."""
        x, y = float(point[0]), float(point[1])
        inside = False
        pts = self.polygon_mm
        j = len(pts) - 1
        for i in range(len(pts)):
            xi, yi = pts[i]
            xj, yj = pts[j]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                inside = not inside
            j = i
        return inside

    def distance(self, point: Sequence[float]) -> float:
        """0 inside, else the distance in mm to the nearest edge."""
        if self.contains(point):
            return 0.0
        px, py = float(point[0]), float(point[1])
        pts = self.polygon_mm
        best = math.inf
        for i in range(len(pts)):
            ax, ay = pts[i - 1]
            bx, by = pts[i]
            dx, dy = bx - ax, by - ay
            t = ((px - ax) * dx + (py - ay) * dy) / max(dx * dx + dy * dy, 1e-12)
            t = min(1.0, max(0.0, t))
            best = min(best, math.hypot(px - (ax + t * dx), py - (ay + t * dy)))
        return best

    def moved(self, dx: float, dy: float, turn_deg: float = 0.0, about: tuple[float, float] = (0.0, 0.0)) -> "Zone":
        """This zone turned by ``turn_deg`` about ``about`` and then shifted by ``(dx, dy)``."""
        c, s = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
        ax, ay = about

        def tf(p: tuple[float, float]) -> tuple[float, float]:
            x, y = p[0] - ax, p[1] - ay
            return (round(c * x - s * y + ax + dx, 3), round(s * x + c * y + ay + dy, 3))

        fan = None
        if self.fan is not None:
            fan = (round(c * self.fan[0] - s * self.fan[1], 6), round(s * self.fan[0] + c * self.fan[1], 6))
        return replace(self, polygon_mm=tuple(tf(p) for p in self.polygon_mm), fan=fan)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "role": self.role,
            "seat": self.seat,
            "polygon_mm": [[x, y] for x, y in self.polygon_mm],
            "fan": None if self.fan is None else [self.fan[0], self.fan[1]],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> "Zone":
        fan = data.get("fan")
        return Zone(
            name=str(data["name"]),
            role=str(data["role"]),
            polygon_mm=tuple((float(p[0]), float(p[1])) for p in data["polygon_mm"]),
            fan=None if fan is None else (float(fan[0]), float(fan[1])),
            seat=int(data.get("seat", 0)),
        )


READABLE_MM_PER_PIXEL = 1.2
"""The coarsest a pile may be filmed at for its cards' corner indices (about 10 mm high) to be read
surely. A four-player Zenuwen table filmed at 1280x720 has its far seat at 1.4 mm a pixel and a side
seat at 1.3: their tens were misread in every view and the game was lost within a minute (forty-eighth
session, aguilar seed 168: 12/55 moves); at 1920x1080 the far seat lies at 1.0 and every move was
found (kennard seed 167)."""


@dataclass(frozen=True)
class ZoneLayout:
    """All zones of one game on the table; names are unique."""

    game: str
    players: int
    zones: tuple[Zone, ...]

    def __post_init__(self) -> None:
        names = [z.name for z in self.zones]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"zone names must be unique, repeated: {dupes}")

    def names(self) -> list[str]:
        return [z.name for z in self.zones]

    def coarse(self, homography: Any, max_mm_per_pixel: float = READABLE_MM_PER_PIXEL) -> dict[str, float]:
        """The zones whose middle the camera films coarser than ``max_mm_per_pixel`` -> how many table
        mm one pixel spans there. ``homography``: a :class:`~calibration.homography.TableHomography`
        for the frames' size."""
        spans = {z.name: homography.mm_per_pixel(tuple(float(v) for v in z.polygon().mean(axis=0)))
                 for z in self.zones}
        return {name: span for name, span in spans.items() if span > max_mm_per_pixel}

    def coarse_warning(self, homography: Any, size: tuple[int, int]) -> str | None:
        """What to tell the players when frames of ``size`` (``homography`` for that size) film some
        piles too coarsely to read (:meth:`coarse`): whose piles, how coarse, what to do; None when
        none is."""
        coarse = self.coarse(homography)
        if not coarse:
            return None
        places = sorted({name.split(".")[0] for name in coarse})
        low, high = min(coarse.values()), max(coarse.values())
        span = f"{low:.2f}" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f}-{high:.2f}"
        return (f"the piles of {', '.join(places)} are filmed at {span} mm a pixel (readable: {READABLE_MM_PER_PIXEL:.2f} "
                f"at most), too coarse for their corner indices to be read surely: moves there may be missed. Film at "
                f"1920x1080 ({size[0]}x{size[1]} now) or from closer.")

    def by_name(self, name: str) -> Zone:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(f"no zone {name!r} in the {self.game} layout; zones: {self.names()}")

    def locate(self, point: Sequence[float], margin_mm: float = 0.0) -> Zone | None:
        """The zone that contains ``point``, else the nearest within ``margin_mm``, else ``None``."""
        for z in self.zones:
            if z.contains(point):
                return z
        best: Zone | None = None
        best_d = math.inf
        if margin_mm <= 0:
            return None
        for z in self.zones:
            d = z.distance(point)
            if d <= margin_mm and d < best_d:
                best, best_d = z, d
        return best

    def bounds_mm(self) -> tuple[float, float, float, float]:
        pts = np.vstack([z.polygon() for z in self.zones])
        return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))

    def moved(self, dx: float, dy: float, turn_deg: float = 0.0) -> "ZoneLayout":
        """The whole layout turned about its own top-left bound, then shifted (to adjust it by hand)."""
        x0, y0, _, _ = self.bounds_mm()
        return replace(self, zones=tuple(z.moved(dx, dy, turn_deg, (x0, y0)) for z in self.zones))

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "zones": [z.to_json() for z in self.zones]}

    @staticmethod
    def from_json(data: dict[str, Any]) -> "ZoneLayout":
        return ZoneLayout(
            game=str(data["game"]),
            players=int(data["players"]),
            zones=tuple(Zone.from_json(z) for z in data["zones"]),
        )
