"""Write the small images the vision tests use: rendered scenes in the held-out deck designs.

    .venv-train/bin/python -m vision.make_test_images     # -> tests/data/vision/

Each image comes with ``<name>.json``: ``[{"card": CODE, "box": [x1, y1, x2, y2]}, ...]`` in its
pixels (corner indices at least 90% visible, and backs).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.synth import HOLDOUT_DECKS, layout_closeup, layout_klondike, load_decks, render_scene

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "vision"


def write(name: str, img: np.ndarray, labels: list) -> None:
    cv2.imwrite(str(OUT / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 88])
    (OUT / f"{name}.json").write_text(json.dumps(
        [{"card": lb.cls, "box": [round(v, 1) for v in lb.box]} for lb in labels], indent=0))
    print(name, img.shape, len(labels), "labels")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    decks = load_decks(ROOT / "data" / "decks", list(HOLDOUT_DECKS))
    simplistic = [d for d in decks if d.name == "simplistic"]
    penguins = [d for d in decks if d.name == "penguins"]
    # a close-up of a few cards, non-square, clean
    for seed in range(100):
        img, labels = render_scene(np.random.default_rng(seed), simplistic, layout_closeup, (800, 600), effects=False, hands=False)
        if len({lb.cls for lb in labels}) >= 2 and len(labels) >= 3:
            write("closeup_holdout", img, labels)
            break
    # a Klondike table, 1280x720, with the usual camera effects
    for seed in range(100):
        img, labels = render_scene(np.random.default_rng(1000 + seed), penguins, layout_klondike, (1280, 720), effects=True, hands=False)
        if len(labels) >= 25:
            write("klondike_holdout", img, labels)
            break
    (OUT / "corrupt.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is not really a JPEG" + bytes(range(64)))


if __name__ == "__main__":
    main()
