"""One frame's corner detections -> physical cards on the table (in table mm).

The detector reports each visible printed corner index as one :class:`Detection`. Two corners of one
card are one card; one corner seen twice (two overlapping boxes) is one card. Same-code detections
closer than ``card_span_mm`` (a little more than the distance between a card's opposite corner
indices) are joined; with one deck each code can only be one card, so only the ``decks`` strongest
groups of a code are kept (the rest are misreadings). With two decks, two copies of a card can lie
side by side (two aces on neighbouring foundations are about as far apart as the two corners of one
card), so a ``zone_of`` function is given and only same-code points in the same zone are joined; so
too where each card lies in a place of its own (Stress, Zenuwen: one code read in two neighbouring
places is a misreading). Card backs are joined when their centres lie within ``back_merge_mm``: each
remaining group is one face-down card showing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import numpy.typing as npt

from calibration.homography import TableHomography
from vision.detections import BACK, Detection


@dataclass(frozen=True, slots=True)
class PhysicalCard:
    """A card seen in one frame: its code (or ``BACK``), the table points (mm) of its detections and the
    best detector confidence among them."""

    card: str
    points_mm: tuple[tuple[float, float], ...]
    confidence: float

    @property
    def centre_mm(self) -> tuple[float, float]:
        n = len(self.points_mm)
        return (sum(p[0] for p in self.points_mm) / n, sum(p[1] for p in self.points_mm) / n)

    def rear_along(self, direction: tuple[float, float]) -> float:
        """The smallest position of its points along ``direction``: where its visible top edge lies in a fan."""
        pts = np.asarray(self.points_mm)
        return float((pts @ np.asarray(direction)).min())


def _clusters(points: npt.NDArray[np.float64], reach: float) -> list[list[int]]:
    """Single-linkage groups of points closer than ``reach`` (few points per code: O(n^2) is fine)."""
    n = len(points)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if n > 1:
        d = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2)
        for i in range(n):
            for j in range(i + 1, n):
                if d[i, j] <= reach:
                    parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def group_cards(
    detections: list[Detection],
    homography: TableHomography,
    *,
    min_confidence: float = 0.25,
    card_span_mm: float = 110.0,
    back_merge_mm: float = 12.0,
    decks: int = 1,
    zone_of: Callable[[tuple[float, float]], str] | None = None,
) -> list[PhysicalCard]:
    """The physical cards (faces and backs) of one frame."""
    kept = [d for d in detections if d.confidence >= min_confidence]
    if not kept:
        return []
    centres = homography.to_table(np.array([d.center for d in kept]))
    by_code: dict[tuple[str, str], list[int]] = {}
    for i, d in enumerate(kept):
        zone = zone_of((float(centres[i, 0]), float(centres[i, 1]))) if zone_of is not None else ""
        by_code.setdefault((d.card, zone), []).append(i)
    cards: list[PhysicalCard] = []
    kept_groups: dict[str, list[tuple[float, PhysicalCard]]] = {}
    for (code, _zone), idx in by_code.items():
        pts = centres[idx]
        reach = back_merge_mm if code == BACK else card_span_mm
        groups = []
        for members in _clusters(pts, reach):
            conf = [kept[idx[m]].confidence for m in members]
            points = tuple((float(pts[m, 0]), float(pts[m, 1])) for m in members)
            groups.append((sum(conf), PhysicalCard(code, points, max(conf))))
        if code == BACK:
            cards.extend(card for _, card in groups)
        else:
            kept_groups.setdefault(code, []).extend(groups)
    for groups in kept_groups.values():
        groups.sort(key=lambda g: -g[0])
        cards.extend(card for _, card in groups[:decks])
    return cards


def faint_readings(detections: list[Detection], homography: TableHomography, *, below: float, above: float
                   ) -> list[PhysicalCard]:
    """Each corner reading scoring at least ``above`` but under ``below`` (the grouping's threshold) as a
    card of its own. Too weak to stand for a card, such a reading may still be a card's other index read
    otherwise (:func:`vision.pile_assignment.join_split_readings`)."""
    weak = [d for d in detections if above <= d.confidence < below and d.card != BACK]
    if not weak:
        return []
    centres = homography.to_table(np.array([d.center for d in weak]))
    return [PhysicalCard(d.card, ((float(c[0]), float(c[1])),), d.confidence) for d, c in zip(weak, centres)]


def faint_cards(readings: list[PhysicalCard], span_mm: float) -> list[PhysicalCard]:
    """The ``faint_readings`` of one frame as cards: two readings of one code within ``span_mm`` of
    each other are one card's two indices (the nearest pairs first), placed between them, so that a
    card's zone is where the card lies and not where one corner reaches (a waste card's upper index
    lies over the foundations' edge)."""
    out: list[PhysicalCard] = []
    pairs = sorted(
        ((float(np.hypot(a.centre_mm[0] - b.centre_mm[0], a.centre_mm[1] - b.centre_mm[1])), i, j)
         for i, a in enumerate(readings) for j, b in enumerate(readings) if i < j and a.card == b.card),
    )
    used: set[int] = set()
    for d, i, j in pairs:
        if d > span_mm or i in used or j in used:
            continue
        used |= {i, j}
        a, b = readings[i], readings[j]
        out.append(PhysicalCard(a.card, a.points_mm + b.points_mm, max(a.confidence, b.confidence)))
    out += [r for k, r in enumerate(readings) if k not in used]
    return out
