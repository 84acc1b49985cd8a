"""The typed hand-over between the detector and the tracker."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

BACK = "BACK"


def box_iou(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over union of two ``(x1, y1, x2, y2)`` boxes."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    i = ix * iy
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - i
    return i / u if u > 0 else 0.0


@dataclass(frozen=True, slots=True)
class Detection:
    """One printed corner index (or a card back) seen in one frame.

    ``box`` is ``(x1, y1, x2, y2)`` in the pixels of the frame the detector was given; ``card`` is a
    card code such as ``10H`` or ``BACK``.
    """

    card: str
    box: tuple[float, float, float, float]
    confidence: float

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card,
            "box": [round(v, 1) for v in self.box],
            "confidence": round(self.confidence, 4),
        }
