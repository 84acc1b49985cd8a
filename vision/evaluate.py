"""Per-class precision, recall and mAP50 of the detector on a YOLO-format folder.

Ground-truth class names are mapped to ours by name (:mod:`vision.yolo_folder`); jokers are dropped.
A detection is a true positive when it names the right card and overlaps an unmatched ground-truth
box of that card by IoU >= 0.5 (greedy, most confident first). AP50 is the area under the
all-point-interpolated precision/recall curve of each class (VOC/COCO style); mAP50 is its mean over
the classes present in the ground truth. Precision and recall are reported at the operating threshold
(the detector's ``conf``), computed from the same matches. Boxes of class
:data:`~vision.yolo_folder.UNREADABLE` are don't-care regions: a detection on one that matches no real
label is dropped, not counted as false.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from vision.detections import Detection, box_iou
from vision.yolo_folder import CLASSES, UNREADABLE, Labelled


@dataclass
class ClassStats:
    n_gt: int = 0
    scores: list[float] = field(default_factory=list)
    hits: list[bool] = field(default_factory=list)

    def at(self, conf: float) -> tuple[int, int]:
        """(true positives, detections) at threshold ``conf``."""
        s = np.array(self.scores)
        h = np.array(self.hits, bool)
        keep = s >= conf
        return int(h[keep].sum()), int(keep.sum())

    def ap50(self) -> float:
        if self.n_gt == 0:
            return float("nan")
        if not self.scores:
            return 0.0
        order = np.argsort(-np.array(self.scores), kind="stable")
        tp = np.cumsum(np.array(self.hits, float)[order])
        fp = np.cumsum(1 - np.array(self.hits, float)[order])
        rec = tp / self.n_gt
        prec = tp / np.maximum(tp + fp, 1e-9)
        mrec = np.concatenate([[0.0], rec, [1.0]])
        mpre = np.concatenate([[1.0], prec, [0.0]])
        mpre = np.flip(np.maximum.accumulate(np.flip(mpre)))
        i = np.nonzero(mrec[1:] != mrec[:-1])[0]
        return float(np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1]))


def match_image(stats: dict[str, ClassStats], gt: list[tuple[str, tuple[float, float, float, float]]],
                dets: Sequence[Detection], iou: float = 0.5) -> None:
    ignore = [box for code, box in gt if code == UNREADABLE]
    gt = [(code, box) for code, box in gt if code != UNREADABLE]
    used = [False] * len(gt)
    for code, _ in gt:
        stats[code].n_gt += 1
    for d in sorted(dets, key=lambda d: -d.confidence):
        best, bi = iou, -1
        for k, (code, box) in enumerate(gt):
            if not used[k] and code == d.card:
                v = box_iou(d.box, box)
                if v >= best:
                    best, bi = v, k
        if bi >= 0:
            used[bi] = True
        elif any(box_iou(d.box, box) >= iou for box in ignore):
            continue  # on an unreadable index: neither a hit nor a false alarm
        stats[d.card].scores.append(d.confidence)
        stats[d.card].hits.append(bi >= 0)


@dataclass
class Report:
    stats: dict[str, ClassStats]
    conf: float
    images: int

    def overall(self) -> dict[str, float]:
        tp = sum(s.at(self.conf)[0] for s in self.stats.values())
        nd = sum(s.at(self.conf)[1] for s in self.stats.values())
        ngt = sum(s.n_gt for s in self.stats.values())
        aps = [s.ap50() for s in self.stats.values() if s.n_gt > 0]
        return {"images": self.images, "labels": ngt, "detections": nd, "true_positives": tp,
                "precision": tp / nd if nd else 0.0, "recall": tp / ngt if ngt else 0.0,
                "mAP50": float(np.mean(aps)) if aps else 0.0, "classes": len(aps)}

    def per_class(self) -> list[dict[str, object]]:
        rows = []
        for code in CLASSES:
            s = self.stats.get(code)
            if s is None or (s.n_gt == 0 and not s.scores):
                continue
            tp, nd = s.at(self.conf)
            rows.append({"class": code, "labels": s.n_gt, "detections": nd,
                         "precision": tp / nd if nd else 0.0, "recall": tp / s.n_gt if s.n_gt else 0.0,
                         "AP50": None if s.n_gt == 0 else s.ap50()})
        return rows

    def text(self) -> str:
        lines = [f"{'class':>6} {'labels':>6} {'dets':>5} {'P':>6} {'R':>6} {'AP50':>6}"]
        for r in self.per_class():
            ap = r["AP50"]
            lines.append(f"{r['class']:>6} {r['labels']:>6} {r['detections']:>5} {r['precision']:6.3f} "
                         f"{r['recall']:6.3f} {'  -   ' if ap is None else f'{ap:6.3f}'}")
        o = self.overall()
        lines.append(f"{'all':>6} {o['labels']:>6} {o['detections']:>5} {o['precision']:6.3f} {o['recall']:6.3f} "
                     f"{o['mAP50']:6.3f}   ({o['images']} images, mAP50 over {o['classes']} classes, conf {self.conf})")
        return "\n".join(lines)


Box = tuple[float, float, float, float]


def evaluate(items: list[Labelled], detect: Callable[[np.ndarray], list[Detection]], conf: float,
             read: Callable[[str], np.ndarray],
             also: Callable[[np.ndarray, list[tuple[str, Box]]], None] | None = None) -> Report:
    """The report over ``items``; ``also`` is given each image and its labels in pixels too (one read
    of each image serves both, e.g. :meth:`StageReport.add`)."""
    stats: dict[str, ClassStats] = defaultdict(ClassStats)
    for it in items:
        img = read(str(it.image))
        H, W = img.shape[:2]
        gt = [(c, ((cx - w / 2) * W, (cy - h / 2) * H, (cx + w / 2) * W, (cy + h / 2) * H))
              for c, cx, cy, w, h in it.boxes]
        match_image(stats, gt, detect(img))
        if also is not None:
            also(img, gt)
    return Report(dict(stats), conf, len(items))


@dataclass
class StageReport:
    """Where the end-to-end loss is: how many labelled corner indices (and backs) the detector finds
    (a candidate of the right kind at IoU >= 0.5 scoring at least ``conf``), and how many labelled corner
    boxes the classifier reads right when given the true box."""

    find: Callable[[np.ndarray], list[tuple[str, Box, float]]]
    read_boxes: Callable[[np.ndarray, list[Box]], list[tuple[str, float]]]
    conf: float
    corners: int = 0
    corners_found: int = 0
    backs: int = 0
    backs_found: int = 0
    read_right: int = 0
    read_none: int = 0

    def add(self, img: np.ndarray, labels: list[tuple[str, Box]]) -> None:
        """One image with its labels in pixels (``UNREADABLE`` ones are left out)."""
        gt = [(code, box) for code, box in labels if code != UNREADABLE]
        found = [(kind, box) for kind, box, score in self.find(img) if score >= self.conf]
        for code, box in gt:
            kind = "BACK" if code == "BACK" else "corner"
            hit = any(k == kind and box_iou(b, box) >= 0.5 for k, b in found)
            if kind == "BACK":
                self.backs += 1
                self.backs_found += hit
            else:
                self.corners += 1
                self.corners_found += hit
        corners = [(code, box) for code, box in gt if code != "BACK"]
        for (code, _), (said, _) in zip(corners, self.read_boxes(img, [box for _, box in corners])):
            self.read_right += said == code
            self.read_none += said == "NONE"

    def counts(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in ("corners", "corners_found", "backs", "backs_found", "read_right", "read_none")}

    def text(self) -> str:
        def share(a: int, b: int) -> str:
            return f"{a}/{b} ({a / b:.1%})" if b else "-"

        return (f"detector finds corner indices: {share(self.corners_found, self.corners)}, backs: "
                f"{share(self.backs_found, self.backs)}\nclassifier reads true corner boxes right: "
                f"{share(self.read_right, self.corners)} (said NONE: {self.read_none})")
