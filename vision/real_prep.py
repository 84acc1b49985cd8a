"""Real photos (``shared/data/real-cards/train``) turned into training data for both stages.

- ``<out>/det/train/images|labels``: the photos with every card-code box as class 0 (corner index)
  and ``BACK`` as class 1, for the detector;
- ``<out>/cls/train/<CODE>/*.png``: several jittered crops per labelled index, for the classifier,
  plus ``NONE`` crops of places that are not an index.

Never run this on ``real-cards/val``: that folder is for measuring only.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import cv2
import numpy as np

from vision.detections import BACK
from vision.detector import crop_square
from vision.synth import CLS_SIZE, Label, _none_crops, jitter_box
from vision.yolo_folder import read_folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", help="a YOLO folder, e.g. ../shared/data/real-cards/train")
    ap.add_argument("--out", default="data/real")
    ap.add_argument("--crops", type=int, default=6, help="jittered crops per labelled index")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    if Path(a.src).resolve().name == "val":
        raise SystemExit("refusing to train on a 'val' folder")
    rng = np.random.default_rng(a.seed)
    out = Path(a.out)
    di, dl = out / "det/train/images", out / "det/train/labels"
    di.mkdir(parents=True, exist_ok=True)
    dl.mkdir(parents=True, exist_ok=True)
    n = 0
    for item in read_folder(a.src):
        img = cv2.imread(str(item.image))
        if img is None:
            continue
        H, W = img.shape[:2]
        shutil.copy(item.image, di / item.image.name)
        lines, labels = [], []
        for code, cx, cy, w, h in item.boxes:
            lines.append(f"{1 if code == BACK else 0} {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}\n")
            box = ((cx - w / 2) * W, (cy - h / 2) * H, (cx + w / 2) * W, (cy + h / 2) * H)
            labels.append(Label(code, box))
            if code == BACK:
                continue
            d = out / "cls/train" / code
            d.mkdir(parents=True, exist_ok=True)
            for j in range(a.crops):
                b = box if j == 0 else jitter_box(rng, box)
                cv2.imwrite(str(d / f"{item.image.stem}_{len(lines)}_{j}.png"), crop_square(img, b, CLS_SIZE))
                n += 1
        (dl / (item.image.stem + ".txt")).write_text("".join(lines))
        d = out / "cls/train/NONE"
        d.mkdir(parents=True, exist_ok=True)
        for j, c in enumerate(_none_crops(rng, img, labels, 3)):
            cv2.imwrite(str(d / f"{item.image.stem}_{j}.png"), c)
    print("crops", n)


if __name__ == "__main__":
    main()
