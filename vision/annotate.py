"""Drawing detections onto a frame (for ``cardref detect --annotate`` and debugging)."""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.detections import BACK, Detection


def draw(img: np.ndarray, dets: Sequence[Detection]) -> np.ndarray:
    out = img.copy()
    thick = max(1, round(max(img.shape[:2]) / 640))
    for d in dets:
        x1, y1, x2, y2 = (int(round(v)) for v in d.box)
        red = d.card[-1] in "HD" and d.card != BACK
        colour = (255, 0, 255) if d.card == BACK else ((0, 0, 255) if red else (255, 128, 0))
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thick)
        label = f"{d.card} {d.confidence:.2f}"
        scale = 0.45 * thick
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        ty = y1 - 3 if y1 - th - 4 > 0 else y2 + th + 3
        cv2.rectangle(out, (x1, ty - th - 2), (x1 + tw + 2, ty + 2), colour, -1)
        cv2.putText(out, label, (x1 + 1, ty), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), thick, cv2.LINE_AA)
    return out
