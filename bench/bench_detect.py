"""Frames per second of ``cardref detect``'s pipeline on a 1280x720 frame (CPU, ONNX Runtime).

    python bench/bench_detect.py [--threads 2] [--imgsz 640 960] [--frames 50] [--image PATH]

End to end per frame: letterbox, corner detector, NMS, a crop per corner index, the classifier,
de-duplication. The default frame is ``tests/data/vision/klondike_holdout.jpg`` (a rendered Klondike
table in a held-out deck design, many cards), resized to 1280x720.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    import cv2

    from vision.detector import CardDetector, DetectorConfig, read_image

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, nargs="+", default=[2, 1])
    ap.add_argument("--imgsz", nargs="+", default=["384,640", "384", "640"],
                    help="input sizes to time; '384,640' runs both and pools them (the shipped default)")
    ap.add_argument("--frames", type=int, default=50)
    ap.add_argument("--image", default=str(ROOT / "tests/data/vision/klondike_holdout.jpg"))
    a = ap.parse_args()
    frame = cv2.resize(read_image(a.image), (1280, 720))
    print(f"frame 1280x720 from {a.image}")
    for threads in a.threads:
        for imgsz in a.imgsz:
            sizes = tuple(int(v) for v in str(imgsz).split(","))
            det = CardDetector(config=DetectorConfig(threads=threads, imgsz=sizes if len(sizes) > 1 else sizes[0]))
            for _ in range(3):
                n = len(det.detect(frame))
            t0 = time.perf_counter()
            for _ in range(a.frames):
                det.detect(frame)
            dt = (time.perf_counter() - t0) / a.frames
            print(f"threads {threads} imgsz {imgsz}: {1000 * dt:6.1f} ms/frame  {1 / dt:5.1f} fps  ({n} detections)")


if __name__ == "__main__":
    main()
