"""Detections read back from a file instead of a detector: to run ``cardref observe`` on a truth video
with its true corner-index boxes (``boxes.jsonl[.gz]`` from ``cardref render --boxes``), so the tracking
can be measured end to end (decoding, motion, calibration) apart from the detector.

One JSON object per line: ``{"frame": N, "boxes": [{"card": "7H", "box": [x1, y1, x2, y2], "visible": 0.97}, ...]}``
(``"detections"`` is read as well as ``"boxes"``; ``confidence`` is used when given, else 1).
An index counts when at least ``min_visible`` of it shows (a detector labelled the same way, "less than
10 % covered"); a back when ``back_min_visible`` of the card shows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Callable

import numpy as np
import numpy.typing as npt

from vision.detections import BACK, Detection
from vision.jsonl_files import open_jsonl


def load_replay(path: str | Path, min_visible: float = 0.9, back_min_visible: float = 0.05) -> dict[int, list[Detection]]:
    out: dict[int, list[Detection]] = {}
    with open_jsonl(path) as fh:
        for number, line in enumerate(fh):
            if not line.strip():
                continue
            data = json.loads(line)
            frame = int(data.get("frame", number))
            dets = []
            for b in data.get("boxes", data.get("detections", [])):
                visible = float(b.get("visible", 1.0))
                if visible < (back_min_visible if b["card"] == BACK else min_visible):
                    continue
                x1, y1, x2, y2 = (float(v) for v in b["box"])
                dets.append(Detection(str(b["card"]), (x1, y1, x2, y2), float(b.get("confidence", 1.0))))
            out[frame] = dets
    return out


def write_detections(out: IO[str], index: int, detections: list[Detection]) -> None:
    """One frame's detections as a line :func:`load_replay` reads back (``--detections-out``)."""
    out.write(json.dumps({"frame": index, "detections": [d.to_json() for d in detections]}, separators=(",", ":")) + "\n")


def replay_detector(path: str | Path, min_visible: float = 0.9) -> Callable[[npt.NDArray[np.uint8], int], list[Detection]]:
    """``(image, frame_index) -> detections`` from the file."""
    frames = load_replay(path, min_visible)

    def detect(image: npt.NDArray[np.uint8], index: int) -> list[Detection]:
        return frames.get(index, [])

    return detect
