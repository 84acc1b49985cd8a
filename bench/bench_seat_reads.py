"""Pile tops read right, seat by seat, on a rendered Stress or Zenuwen video (run by hand).

    cardref render zenuwen --seed 5 --players 3 --seconds 30 --out DIR
    python bench/bench_seat_reads.py DIR [--every 25]

Every ``--every``-th frame where the truth says the table is at rest and no hand is over it goes through
the shipped detector twice: with the far tile only (``vision.fine_regions.fine_regions``), with the
side seats turned up too (``sideways_regions``), and with far seats read from a top-down view
(``top_down_regions``). For each seat's patience piles it counts the frames in
which the surest detection located in the pile is its true top ("right"), another card ("wrong"), or
none. The tracker is not in the loop: this measures what a single frame gives it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2


def main(argv: list[str] | None = None) -> int:
    from calibration.store import load_calibration
    from vision.detector import CardDetector, DetectorConfig
    from vision.fine_regions import fine_regions, sideways_regions, top_down_regions

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="a cardref render folder (video.mp4, truth.jsonl, calibration.json)")
    ap.add_argument("--every", type=int, default=25, help="look at every n-th frame")
    args = ap.parse_args(argv)

    cal = load_calibration(args.folder / "calibration.json")
    homography, layout = cal.homography(), cal.layout.build()
    truth = [json.loads(line) for line in (args.folder / "truth.jsonl").read_text().splitlines()]
    frames = []
    cap = cv2.VideoCapture(str(args.folder / "video.mp4"))
    for i, line in enumerate(truth):
        ok, frame = cap.read()
        if not ok:
            break
        if i % args.every == args.every // 5 and line["at_rest"] and not line["held"]:
            frames.append((frame, line))
    if not frames:
        raise SystemExit("no steady frames in the video")
    size = (frames[0][0].shape[1], frames[0][0].shape[0])
    cam = homography.for_image_size(size)
    tiles, turned = fine_regions(homography, layout, size), sideways_regions(homography, layout, size)
    top_down = top_down_regions(homography, layout, size)
    print(f"{args.folder}: {len(frames)} frames; far tile {tiles or 'none'}; "
          f"side seats turned: {[(t.tile, t.turns) for t in turned] or 'none'}")
    for name, config in (("far tile only", DetectorConfig(tiles=tiles)),
                         ("side seats turned", DetectorConfig(tiles=tiles, turned=turned)),
                         ("far seats top-down", DetectorConfig(tiles=tiles, turned=turned, top_down=top_down))):
        detector = CardDetector(config=config)
        seats: dict[str, list[int]] = {}
        for frame, line in frames:
            best: dict[str, tuple[float, str]] = {}
            for d in detector.detect(frame):
                if d.card == "BACK":
                    continue
                x, y = (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2
                zone = layout.locate(cam.to_table([[x, y]])[0], 15)
                if zone is not None and d.confidence > best.get(zone.name, (0.0, ""))[0]:
                    best[zone.name] = (d.confidence, d.card)
            for zone, pile in line["piles"].items():
                if ".pile" not in zone or not pile["cards"]:
                    continue
                counts = seats.setdefault(zone.split(".")[0], [0, 0, 0])
                read = best.get(zone, (0.0, None))[1]
                counts[0] += 1
                counts[1] += read == pile["cards"][-1]["card"]
                counts[2] += read is not None and read != pile["cards"][-1]["card"]
        print(f"  {name:18s} " + "; ".join(f"{s} {r}/{n} right, {w} wrong" for s, (n, r, w) in sorted(seats.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
