"""``cardref evaluate FOLDER``: per-class precision, recall and mAP50 on a YOLO-format folder.

FOLDER holds ``images/`` and ``labels/``; class names come from the nearest ``data.yaml`` (or
``--names``) and are mapped to card codes by name. Detections are collected down to a low threshold
for the AP; precision and recall are given at the operating threshold ``--conf``.
"""

from __future__ import annotations

import argparse
import json
import sys

from cardref.commands.detect import add_model_options


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("evaluate", help="precision/recall/mAP50 of the detector on a YOLO folder",
                              description=__doc__.splitlines()[0].strip("`"))
    p.add_argument("folder", metavar="FOLDER")
    p.add_argument("--names", help="comma-separated class names by index (default: data.yaml)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--stages", action="store_true",
                   help="also measure each stage alone: corner boxes the detector finds, true boxes the classifier reads right")
    add_model_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardref.commands.detect import make_detector
    from vision.detector import DetectorConfig, read_image
    from vision.evaluate import StageReport, evaluate
    from vision.yolo_folder import read_folder

    operating = args.conf if args.conf is not None else DetectorConfig().conf
    args.conf = min(0.05, operating)  # collect low-confidence detections too, for the AP
    try:
        det = make_detector(args)
        items = read_folder(args.folder, args.names.split(",") if args.names else None)
        stages = StageReport(det.find_boxes, det.read_boxes, operating) if args.stages else None
        rep = evaluate(items, det.detect, operating, read_image, also=stages.add if stages else None)
    except (OSError, ValueError) as e:  # a missing folder or model, no class names, an unreadable image
        print(f"cardref evaluate: {e}", file=sys.stderr)
        return 2
    if args.json:
        out = {"folder": args.folder, "conf": operating, "overall": rep.overall(), "per_class": rep.per_class()}
        if stages is not None:
            out["stages"] = stages.counts()
        print(json.dumps(out, indent=1))
    else:
        print(rep.text())
        if stages is not None:
            print(stages.text())
    return 0
