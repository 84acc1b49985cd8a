"""Suits told by the look of a card's pips, against the truth, on kept renders (run by hand).

    python bench/bench_suit_looks.py DIR/seed-168 [DIR/seed-169 ...]

Each folder is one ``bench/bench_referee_truth.py --keep`` kept of Stress or Zenuwen (video.mp4, the
detector's recorded ``detections.jsonl.gz``, truth.jsonl, calibration.json, render.json). Its frames
go through the tracker as in ``cardref analyze``, and wherever the tracker's pip check
(``vision.pips.PipReader``) told a top's suit from its pips' look (a top the index read unsurely, or
only faintly, whose rank the pips give), the card it made is held against the true top: right, or
wrong; and apart, how many of those the index had read in another suit. Each told pile is counted
once per reading (the check keeps a pile's reading while nothing moves there, and reads it again at
least every ``reread_s``: alike, it is the same reading), so the figures are readings, not frames. Wrong suits are what matters: the referee takes a told card as read.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

import cv2


def main(argv: list[str] | None = None) -> int:
    from calibration.store import load_calibration
    from vision.detection_replay import replay_detector
    from vision.pips import PipReader
    from vision.tracking import TableTracker, TrackerSettings

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="+")
    args = ap.parse_args(argv)
    total: collections.Counter[str] = collections.Counter()
    for folder in args.folders:
        cal = load_calibration(folder / "calibration.json")
        render = json.loads((folder / "render.json").read_text())
        layout = cal.layout_for(render["game"], render.get("players"), None)
        tracker = TableTracker(layout, cal.homography(), TrackerSettings.for_game(render["game"], layout.players))
        assert tracker.pips is not None, "a game whose tops lie squared (Stress, Zenuwen)"
        pips: PipReader = tracker.pips
        detect = replay_detector(folder / "detections.jsonl.gz", min_visible=0.6)
        truth = [json.loads(line) for line in (folder / "truth.jsonl").read_text().splitlines()]
        seen: collections.Counter[str] = collections.Counter()
        wrong: list[str] = []
        told_before: dict[str, tuple[str, str]] = {}
        cap = cv2.VideoCapture(str(folder / "video.mp4"))
        index = 0
        while index < len(truth):
            ok, image = cap.read()
            if not ok:
                break
            tracker.update(index / render["fps"], index, detect(image, index), image)
            view = tracker.previous
            assert view is not None
            for zone in pips.zones:
                zv = view.zones.get(zone.name)
                reading = pips.told.get(zone.name)
                if zv is None or reading is None:
                    told_before.pop(zone.name, None)
                    continue
                read, told = reading
                if told_before.get(zone.name) == reading:
                    continue  # the same reading kept
                told_before[zone.name] = reading
                cards = truth[index]["piles"][zone.name]["cards"]
                true = cards[-1]["card"] if cards else None
                verdict = "right" if told == true else "wrong"
                seen[verdict] += 1
                if true is not None and read[-1] != true[-1]:
                    seen[f"{verdict}, index's suit wrong"] += 1
                if verdict == "wrong":
                    wrong.append(f"{index}:{zone.name}:{true}<-{told}(read {read})")
            index += 1
        cap.release()
        total.update(seen)
        print(f"{folder}: " + ", ".join(f"{k} {n}" for k, n in sorted(seen.items())) + (f"; wrong: {' '.join(wrong[:10])}" if wrong else ""))
    print("all: " + ", ".join(f"{k} {n}" for k, n in sorted(total.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
