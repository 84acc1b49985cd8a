"""Squared pile tops counted by their pips, against the truth, on rendered videos (run by hand).

    python bench/bench_pips.py DIR [DIR ...] [--every 7]

Every ``--every``-th frame of each folder (a ``cardref render`` of Stress or Zenuwen: video.mp4,
truth.jsonl, calibration.json), each pile and centre pile whose true top is a face-up card is counted
by ``vision.pips.count_pips``: right (its rank's pips; a picture for J, Q, K; an ace may be either), wrong,
or not counted, apart for frames at rest with no hand over the table and the others. Wrong counts are
what matters: the tracker takes a count over the index's reading. Also the milliseconds per count.
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from pathlib import Path

import cv2


def main(argv: list[str] | None = None) -> int:
    from calibration.store import load_calibration
    from vision.pips import PICTURE, count_pips

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="+")
    ap.add_argument("--every", type=int, default=7, help="look at every n-th frame")
    args = ap.parse_args(argv)
    total: collections.Counter[tuple[str, str]] = collections.Counter()
    spent, counts = 0.0, 0
    for folder in args.folders:
        cal = load_calibration(folder / "calibration.json")
        layout = cal.layout.build()
        truth = [json.loads(line) for line in (folder / "truth.jsonl").read_text().splitlines()]
        zones = [z for z in layout.zones if z.fan is None and z.role in ("pile", "centre")]
        cap = cv2.VideoCapture(str(folder / "video.mp4"))
        seen: collections.Counter[tuple[str, str]] = collections.Counter()
        wrong = []
        for index, line in enumerate(truth):
            ok, image = cap.read()
            if not ok:
                break
            if index % args.every:
                continue
            kind = "rest" if line["at_rest"] and not line["held"] else "busy"
            h = cal.homography().for_image_size((image.shape[1], image.shape[0]))
            for zone in zones:
                cards = line["piles"][zone.name]["cards"]
                if not cards:
                    continue
                rank = cards[-1]["card"][:-1]
                started = time.perf_counter()
                got = count_pips(image, h, zone)
                spent += time.perf_counter() - started
                counts += 1
                want = {1, PICTURE} if rank == "A" else {PICTURE} if rank in ("J", "Q", "K") else {int(rank)}
                verdict = "none" if got is None else "right" if got in want else "wrong"
                seen[(kind, verdict)] += 1
                if verdict == "wrong":
                    wrong.append(f"{index}:{zone.name}:{cards[-1]['card']}->{got}")
        cap.release()
        total.update(seen)
        print(f"{folder}: " + ", ".join(f"{k} {v} {n}" for (k, v), n in sorted(seen.items())) + (f"; wrong: {' '.join(wrong[:10])}" if wrong else ""))
    print("all: " + ", ".join(f"{k} {v} {n}" for (k, v), n in sorted(total.items())) + f"; {1000 * spent / max(counts, 1):.2f} ms per count")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
