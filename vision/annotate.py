"""Drawing detections onto a frame (for ``cardref detect --annotate`` and debugging)."""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.detections import BACK, Detection

Rect = tuple[int, int, int, int]
"""x1, y1, x2, y2 in pixels."""

FONT = cv2.FONT_HERSHEY_SIMPLEX
STEPS = 6
"""How many label heights a label may move away from its box looking for room."""


def draw(img: np.ndarray, dets: Sequence[Detection]) -> np.ndarray:
    """The frame with each detection's box and a label (card, confidence) drawn. Boxes first, then the
    labels, surest first, each where it covers no label drawn before: a draw-3 waste's or a fanned
    column's indices lie a few pixels apart, and labels all put above their boxes hid each other."""
    out = img.copy()
    side = max(img.shape[:2])
    thick = max(1, round(side / 640))
    text_thick = max(1, round(side / 1280))
    scale = 0.4 * max(1.0, side / 960)
    colours = [_colour(d.card) for d in dets]
    boxes: list[Rect] = [(round(d.box[0]), round(d.box[1]), round(d.box[2]), round(d.box[3])) for d in dets]
    for (x1, y1, x2, y2), colour in zip(boxes, colours):
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thick)
    order = sorted(range(len(dets)), key=lambda i: -dets[i].confidence)
    labels = {i: f"{dets[i].card} {dets[i].confidence:.2f}" for i in order}
    sizes = []
    for i in order:
        (tw, th), _ = cv2.getTextSize(labels[i], FONT, scale, text_thick)
        sizes.append((tw + 2, th + 4))
    places = label_places([boxes[i] for i in order], sizes, (img.shape[0], img.shape[1]))
    for i, (lx1, ly1, lx2, ly2) in zip(order, places):
        box = boxes[i]
        if not _touches((lx1, ly1, lx2, ly2), box):
            # a label moved away from its box keeps a line to it
            cx = min(max((lx1 + lx2) // 2, box[0]), box[2])
            cy = min(max((ly1 + ly2) // 2, box[1]), box[3])
            cv2.line(out, ((lx1 + lx2) // 2, (ly1 + ly2) // 2), (cx, cy), colours[i], 1, cv2.LINE_AA)
        cv2.rectangle(out, (lx1, ly1), (lx2, ly2), colours[i], -1)
        cv2.putText(out, labels[i], (lx1 + 1, ly2 - 3), FONT, scale, (255, 255, 255), text_thick, cv2.LINE_AA)
    return out


def label_places(boxes: Sequence[Rect], sizes: Sequence[tuple[int, int]], shape: tuple[int, int]) -> list[Rect]:
    """Where each label (``sizes``: width, height) goes, in the order given: just above its box if there
    is room, else just below, right or left of it, then the same a label height further out each
    step, inside the frame (``shape``: height, width), on none of the labels placed before and, where
    such a spot is near, on no other box. Where every spot is taken, the first one (overlapping)."""
    h_img, w_img = shape
    placed: list[Rect] = []
    for n, ((x1, y1, x2, y2), (w, h)) in enumerate(zip(boxes, sizes)):
        others = [b for m, b in enumerate(boxes) if m != n]
        spots = []
        for k in range(STEPS + 1):
            out = k * (h + 1)
            spots += [(x1, y1 - h - out), (x1, y2 + out), (x2 + 1 + out, y1), (x1 - w - 1 - out, y1),
                      (x2 + 1, y1 + out), (x1 - w - 1, y1 + out)]
        rects = []
        for x, y in spots:
            x, y = min(max(x, 0), max(w_img - w, 0)), min(max(y, 0), max(h_img - h, 0))
            rects.append((x, y, x + w, y + h))
        free = [r for r in rects if not any(_overlap(r, p) for p in placed)]
        clear = [r for r in free if not any(_overlap(r, b) for b in others)]
        placed.append(clear[0] if clear else free[0] if free else rects[0])
    return placed


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _touches(a: Rect, b: Rect) -> bool:
    return a[0] <= b[2] + 1 and b[0] <= a[2] + 1 and a[1] <= b[3] + 1 and b[1] <= a[3] + 1


def _colour(card: str) -> tuple[int, int, int]:
    if card == BACK:
        return (255, 0, 255)
    return (0, 0, 255) if card[-1] in "HD" else (255, 128, 0)
