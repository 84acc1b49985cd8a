"""Face-down cards of Klondike and Double Solitaire columns counted from single frames of truth videos (run by hand).

    cardref render klondike --seed 501 --deck simplistic --rules draw=1 --seconds 40 --out DIR
    python bench/bench_back_counts.py DIR... [--every 6] [--cache FOLDER] [--show]

Every ``--every``-th frame where the truth says the table is at rest goes through the shipped detector
and one frame of the tracker (`TableTracker.view`, backs from their edges: vision/back_edges.py); for
each column whose first face-up index the detector read, the count is compared with the truth's:
right, over or under. The stability filter is not in the loop: this is what one frame gives it.
``--cache`` keeps each frame's detections, so that changes to the counting can be measured again in
seconds. ``--recorded`` takes each frame's detections from the folder's ``detections.jsonl.gz`` where
there is one (``cardref analyze --detections-out``, which ``bench_referee_truth.py --keep`` keeps): what
the live pipeline's detector found, its re-reads of fanned piles included, which the shipped detector
alone does not reproduce (a Double Solitaire column whose first index it misses is not scored).
"""

from __future__ import annotations

import argparse
import json
import pickle
from collections import Counter
from pathlib import Path

import cv2


def count(folder: Path, every: int, cache: Path | None, show: bool, recorded: bool = False) -> Counter[str]:
    from calibration.store import load_calibration
    from vision.detector import default_detector
    from vision.tracking import TableTracker, TrackerSettings

    render = json.loads((folder / "render.json").read_text())
    cal = load_calibration(folder / "calibration.json")
    layout = cal.layout_for("klondike", None, 8 if "columns=8" in render["rules"] else 7)
    truth = [json.loads(line) for line in (folder / "truth.jsonl").read_text().splitlines() if line.strip()]
    frames = set([i for i, t in enumerate(truth) if t["at_rest"]][::every])
    kept = cache / f"{folder.parent.name}_{folder.name}_{every}.pkl" if cache else None
    detections = pickle.loads(kept.read_bytes()) if kept and kept.exists() else {}
    replayed = recorded and (folder / "detections.jsonl.gz").exists()
    if replayed:
        from vision.detection_replay import load_replay

        detections, kept = dict(load_replay(folder / "detections.jsonl.gz")), None  # (nothing to cache)
    result: Counter[str] = Counter()
    video = cv2.VideoCapture(str(folder / "video.mp4"))
    for i in range(max(frames, default=-1) + 1):
        ok, image = video.read()
        if not ok:
            break
        if i not in frames:
            continue
        if i not in detections:
            detections[i] = [] if replayed else default_detector().detect(image)  # (a frame the analysis skipped)
        tracker = TableTracker(layout, cal.homography(), TrackerSettings.for_game(render["game"]))
        view = tracker.view(truth[i]["t"], i, detections[i], image)
        for zone in layout.zones:
            pile, seen = truth[i]["piles"][zone.name], view.zones[zone.name]
            if zone.role != "tableau" or not pile["cards"] or not seen.cards:
                continue
            got, want = len(seen.back_places), pile["backs"]
            verdict = "right" if got == want else "over" if got > want else "under"
            result[verdict] += 1
            if show and verdict != "right":
                print(f"  frame {i} {zone.name}: {got} backs, truth {want}")
    if kept:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_bytes(pickle.dumps(detections))
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="+", help="cardref render klondike folders")
    ap.add_argument("--every", type=int, default=6, help="look at every n-th frame at rest")
    ap.add_argument("--cache", type=Path, help="folder to keep detections in between runs")
    ap.add_argument("--show", action="store_true", help="print every miscounted column")
    ap.add_argument("--recorded", action="store_true", help="the folder's detections.jsonl.gz where there is one")
    args = ap.parse_args(argv)
    for folder in args.folders:
        missing = [n for n in ("render.json", "truth.jsonl", "calibration.json", "video.mp4") if not (folder / n).is_file()]
        if missing:
            ap.error(f"{folder}: not a cardref render folder (missing {', '.join(missing)})")
    total: Counter[str] = Counter()
    for folder in args.folders:
        result = count(folder, args.every, args.cache, args.show, args.recorded)
        render = json.loads((folder / "render.json").read_text())
        n = sum(result.values())
        print(f"{folder}: {render['deck']} on {render['texture']}: {result['right']}/{n} right, "
              f"{result['under']} under, {result['over']} over", flush=True)
        total.update(result)
    n = sum(total.values())
    print(f"all: {total['right']}/{n} right ({100 * total['right'] / max(n, 1):.1f} %), "
          f"{total['under']} under, {total['over']} over")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
