"""The tracker on the truth videos' own scenes (run by hand: python bench/bench_tracking_truth.py --seeds 1 2 3).

cardref/truth_klondike.py films whole Klondike games (engine moves, an illegal move and its take-back, a
hand with arm and shadow, light changes, 10 fps). This feeds each filmed frame (for the motion meter)
and the scene's simulated corner detections (3 % missed, duplicates, misreadings) to the tracker, and
scores the published states against the video's per-frame truth (vision/state_check.py). It measures the
tracking on independently scripted games; the detector is not in the loop (see bench_tracking.py).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np


def run(seed: int, seconds: float) -> Any:
    import vision.render as render
    import cardref.truth_klondike as truth_klondike
    import cardref.truth_video as truth_video
    from vision.state_check import compare
    from vision.table_state import TableState
    from vision.tracking import TableTracker, TrackerSettings

    fed: dict[str, Any] = {"tracker": None, "truth": [], "states": [], "img": None}
    paint, truth_line = render.Painter.paint, truth_video.truth_line

    def painting(self: Any, scene: Any, frame: Any) -> Any:
        fed["img"] = paint(self, scene, frame)
        return fed["img"]

    def following(frame: Any, scene: Any) -> dict[str, Any]:
        line = truth_line(frame, scene)
        if fed["tracker"] is None:
            fed["tracker"] = TableTracker(scene.layout, scene.h, TrackerSettings.for_game("klondike"))
        state = fed["tracker"].update(frame.t, frame.index, frame.detections, fed["img"], scene.h.image_size)
        if state is not None:
            fed["states"].append(state)
        fed["truth"].append((TableState.from_json(line), bool(line["at_rest"])))
        return line

    render.Painter.paint = painting  # type: ignore[method-assign]
    truth_video.truth_line = following
    try:
        with tempfile.TemporaryDirectory() as folder:
            summary = truth_klondike.render_klondike(Path(folder), seed, settings=truth_klondike.RenderSettings(seconds=seconds))
    finally:
        render.Painter.paint = paint  # type: ignore[method-assign]
        truth_video.truth_line = truth_line
    return summary, compare(fed["states"], fed["truth"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    total = exact = false = late = 0
    delays: list[float] = []
    for seed in args.seeds:
        started = time.perf_counter()
        summary, report = run(seed, args.seconds)
        print(f"seed {seed}: {summary['frames']} frames at {summary['fps']:.0f} fps, {summary['moves']} moves, "
              f"{summary['illegal']} illegal ({time.perf_counter() - started:.0f} s): {report.line()}")
        total += report.steady
        exact += report.exact
        false += len(report.never_existed) + len(report.not_steady)
        late += report.late
        delays += report.delays_s
    delays.sort()
    print(f"all: {exact}/{total} steady states exact ({100 * exact / max(total, 1):.1f} %), {false} false, {late} late;"
          f" delay median {1000 * float(np.median(delays)):.0f} ms, max {1000 * delays[-1]:.0f} ms" if delays else "")


if __name__ == "__main__":
    main()
