"""Classifier training crops cut around the *detector's* boxes, not the labelled ones.

    python -m vision.detector_crops data/synth_c/full/train --detector X.onnx --out data/det_crops

At run time the classifier reads a crop around whatever box the detector drew, and a detector places
its boxes in its own way (a few pixels higher or tighter than the labels): a crop that reaches the pip
beside an index can tip the reading (run 7's boxes on the penguins court cards: an upside-down Q
beside a club read as 9C, models/MODEL_CARD.md). Crops made this way teach the classifier the boxes it
will be given. Each corner box the detector finds in a labelled YOLO folder (53 card classes, BACK,
UNREADABLE; ``vision.synth``'s ``full/`` split or a real train split) takes the class of the labelled
box it overlaps most (IoU >= ``--match``); a box over an UNREADABLE or BACK label is skipped; a box
overlapping no label at all (IoU < 0.1) is a ``NONE`` crop (a false box the classifier should reject).
Written as ``OUT/<CODE>/<image>_<k>.png``, the layout ``vision.train_classifier --data`` reads.

Never run it on a ``val`` folder: those are for measuring only.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.detections import BACK, box_iou
from vision.detector import CardDetector, DetectorConfig, crop_square
from vision.synth import CLS_SIZE
from vision.yolo_folder import UNREADABLE, read_folder


def classes_for(found: np.ndarray, labels: list[tuple[str, np.ndarray]], match: float) -> list[str | None]:
    """The class each found box stands for: the best-overlapping label's code (IoU >= ``match``),
    ``NONE`` where it overlaps no label, None (skip) where it overlaps an unreadable index, a back,
    or a label too little."""
    if not labels:
        return ["NONE"] * len(found)
    iou = np.array([[box_iou(f, box) for _, box in labels] for f in found]).reshape(len(found), len(labels))
    out: list[str | None] = []
    for row in iou:
        j = int(row.argmax())
        code = labels[j][0]
        if row[j] >= match and code not in (UNREADABLE, BACK):
            out.append(code)
        elif row.max() < 0.1:
            out.append("NONE")
        else:
            out.append(None)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", help="labelled YOLO folders (images/ + labels/, data.yaml near)")
    ap.add_argument("--detector", required=True, help="the detector ONNX whose boxes the crops follow")
    ap.add_argument("--out", required=True)
    ap.add_argument("--match", type=float, default=0.5, help="IoU a found box needs with its label")
    ap.add_argument("--none-per-image", type=int, default=2, help="most NONE crops kept per image (0 for folders "
                    "that label only some indices, like the real photos: a box on an unlabelled index is no NONE)")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    if any(Path(f).resolve().name == "val" for f in args.folders):
        raise SystemExit("refusing to make training crops from a 'val' folder")
    det = CardDetector(detector=args.detector, config=DetectorConfig(threads=args.threads))
    out = Path(args.out)
    counts: dict[str, int] = {}
    for folder in args.folders:
        for item in read_folder(folder):
            img = cv2.imread(str(item.image))
            if img is None:
                continue
            H, W = img.shape[:2]
            labels = [(code, np.array([(cx - w / 2) * W, (cy - h / 2) * H, (cx + w / 2) * W, (cy + h / 2) * H], np.float32))
                      for code, cx, cy, w, h in item.boxes]
            found = np.array([box for kind, box, _ in det.find_boxes(img) if kind == "corner"], np.float32).reshape(-1, 4)
            nones = 0
            for k, (box, code) in enumerate(zip(found, classes_for(found, labels, args.match))):
                if code is None or (code == "NONE" and nones >= args.none_per_image):
                    continue
                nones += code == "NONE"
                folder_out = out / code
                folder_out.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(folder_out / f"{item.image.stem}_{k}.png"), crop_square(img, box, CLS_SIZE))
                counts[code] = counts.get(code, 0) + 1
    total = sum(counts.values())
    print(f"{total} crops in {out} ({counts.get('NONE', 0)} NONE) from the boxes of {args.detector}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
