"""One frame's corner detections -> physical cards on the table (in table mm).

The detector reports each visible printed corner index as one :class:`Detection`. Two corners of one
card are one card; one corner seen twice (two overlapping boxes) is one card. Same-code detections
closer than ``card_span_mm`` (a little more than the distance between a card's opposite corner
indices) are joined; with one deck each code can only be one card, so only the ``decks`` strongest
groups of a code are kept (the rest are misreadings). Card backs are joined when their centres lie
within ``back_merge_mm``: each remaining group is one face-down card showing.
"""

from __future__ import annotations

from dataclasses import dataclass

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
        pts = np.asarray(self.points_mm)
        return (float(pts[:, 0].mean()), float(pts[:, 1].mean()))

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
) -> list[PhysicalCard]:
    """The physical cards (faces and backs) of one frame."""
    kept = [d for d in detections if d.confidence >= min_confidence]
    if not kept:
        return []
    centres = homography.to_table(np.array([d.center for d in kept]))
    by_code: dict[str, list[int]] = {}
    for i, d in enumerate(kept):
        by_code.setdefault(d.card, []).append(i)
    cards: list[PhysicalCard] = []
    for code, idx in by_code.items():
        pts = centres[idx]
        reach = back_merge_mm if code == BACK else card_span_mm
        groups = []
        for members in _clusters(pts, reach):
            conf = [kept[idx[m]].confidence for m in members]
            points = tuple((float(pts[m, 0]), float(pts[m, 1])) for m in members)
            groups.append((sum(conf), PhysicalCard(code, points, max(conf))))
        if code != BACK:
            groups.sort(key=lambda g: -g[0])
            groups = groups[:decks]
        cards.extend(card for _, card in groups)
    return cards
