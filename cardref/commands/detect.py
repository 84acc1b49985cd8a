"""``cardref detect IMAGE... [--json] [--annotate DIR]``: the cards seen in still images.

One line per image. With ``--json`` each line is
``{"image": PATH, "detections": [{"card": "10H", "box": [x1, y1, x2, y2], "confidence": 0.93}, ...]}``
with boxes around each printed corner index (``"card": "BACK"`` for a card back) in the input
image's pixels. An image that cannot be read gives ``{"image": PATH, "error": "..."}`` (and a message
on stderr); the exit code is then 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("detect", help="find cards (corner indices and backs) in images",
                              description=__doc__.splitlines()[0].strip("`"))
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="one JSON object per image")
    p.add_argument("--annotate", metavar="DIR", help="write each image with its boxes drawn into DIR")
    add_model_options(p)
    p.set_defaults(func=run)


def add_model_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--threads", type=int, default=2, help="ONNX Runtime threads (default 2)")
    p.add_argument("--imgsz", type=int, nargs="+", default=[384, 640],
                   help="detector input: longer side in pixels; several sizes are pooled (default 384 640)")
    p.add_argument("--conf", type=float, default=None, help="confidence threshold (default: the model's)")
    p.add_argument("--detector", default=None, help="corner detector ONNX file (default: shipped)")
    p.add_argument("--classifier", default=None, help="card classifier ONNX file (default: shipped)")
    p.add_argument("--read-once", action="store_true",
                   help="read each corner box once; by default a card read unsurely is read again from four "
                        "crops shifted around its box (the live pipeline only in Klondike's wastes and columns)")


def make_detector(args: argparse.Namespace):  # -> vision.detector.CardDetector
    from vision.detector import CLASSIFIER_ONNX, DETECTOR_ONNX, CardDetector, DetectorConfig

    cfg = DetectorConfig(threads=args.threads, imgsz=tuple(args.imgsz) if len(args.imgsz) > 1 else args.imgsz[0],
                         reread_all=not args.read_once)
    if args.conf is not None:
        cfg.conf = args.conf
    return CardDetector(args.detector or DETECTOR_ONNX, args.classifier or CLASSIFIER_ONNX, cfg)


def run(args: argparse.Namespace) -> int:
    from vision.annotate import draw
    from vision.detector import ImageError, read_image

    det = make_detector(args)
    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    status = 0
    for path in args.images:
        try:
            img = read_image(path)
        except ImageError as e:
            print(f"cardref detect: {e}", file=sys.stderr)
            if args.json:
                print(json.dumps({"image": path, "error": str(e)}), flush=True)
            status = 1
            continue
        dets = det.detect(img)
        if args.json:
            print(json.dumps({"image": path, "detections": [d.to_json() for d in dets]}), flush=True)
        else:
            seen = ", ".join(f"{d.card} {d.confidence:.2f}" for d in dets) or "nothing"
            print(f"{path}: {seen}", flush=True)
        if out_dir:
            import cv2

            cv2.imwrite(str(out_dir / (Path(path).stem + ".jpg")), draw(img, dets))
    return status
