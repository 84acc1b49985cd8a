"""Stress call latency through the whole camera referee (run by hand: python bench/bench_stress_call.py).

On a Stress truth video made with ``--boxes`` (default: the shipped clip, cardref/demo/clips/stress_slap)
the camera referee runs as ``cardref analyze --detections`` would: every frame through the pipeline
(decoding, image motion, tracking with Stress's zone-by-zone publishing, stress_live, the live referee),
the recorded corner boxes in place of the detector (indices at least 60 % visible), the slaps given as
inputs at their true times. For every play that makes both centre tops the same rank (``calls``:
``stress`` in moves.jsonl) it measures, in video time:

- from the second matching card coming to rest (the first frame whose truth shows both centre tops of
  one rank: the hand has let go of the card; a stress from new centre cards: both land at once) to the
  ``stress`` call emitted by the referee;
- from the table at rest again (the hand gone: ``t`` of the move line) to the call.

The engine's own share (microseconds) is in bench_speed_games.py; what dominates here is the frame
rate: the call comes from a first look at the centre piles (``StabilityFilter.glimpse``: the new top
read still in two frames, 0.1 s apart at the clips' 10 fps), not from the steady table, which waits for
the playing hand to refill its row (docs/truth-videos.md). A stress that is never called is printed as
NOT CALLED.

``--seeds`` also renders fresh Stress clips (1280x720, about 40 s of CPU each at ``--fps`` 10, the
default; a webcam gives 30, where a frame is 33 ms, not 100) and measures them too;
``--keep DIR`` keeps those renders (and measures a clip already there without rendering it again), so
two versions of the referee can be measured on the same clips.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

CLIP = Path(__file__).resolve().parent.parent / "cardref" / "demo" / "clips" / "stress_slap"


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _matching(line: dict[str, Any]) -> bool:
    """Both centre piles show a card of the same rank (in this frame, hands or not)."""
    tops = [p["cards"][-1]["card"][:-1] for z, p in sorted(line["piles"].items()) if z.startswith("centre") and p["cards"]]
    return len(tops) == 2 and tops[0] == tops[1]


def measure(folder: Path) -> list[dict[str, float]]:
    """One entry per stress the clip shows: the card's landing and rest times, the call's time."""
    from cardref.truth_speed import referee_video

    truth = _lines(folder / "truth.jsonl")
    moves = _lines(folder / "moves.jsonl")
    started = time.perf_counter()
    referee = referee_video(folder)
    wall = time.perf_counter() - started
    calls = [h["t"] for h in referee.history if h["type"] == "call" and h["call"] == "stress"]
    stressed = [m for m in moves if "stress" in m.get("calls", [])]
    landings = [next(t["t"] for t in truth[m["frame_start"]:] if _matching(t)) for m in stressed]
    out = []
    for k, (m, landed) in enumerate(zip(stressed, landings)):
        until = landings[k + 1] if k + 1 < len(landings) else float("inf")  # a call after that is the next one's
        call = next((c for c in calls if landed - 1e-6 <= c < until), None)
        out.append({"landed": landed, "rest": m["t"], "call": float("nan") if call is None else call,
                    "op": m["op"], "frames": len(truth), "wall_s": wall})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip", type=Path, nargs="*", default=[CLIP], help="Stress truth videos made with --boxes")
    parser.add_argument("--seeds", type=int, nargs="*", default=[], help="also render and measure these seeds")
    parser.add_argument("--max-moves", type=int, default=12, help="legal moves in each rendered clip")
    parser.add_argument("--fps", type=float, default=10.0, help="frame rate of the rendered clips (a webcam: 30)")
    parser.add_argument("--keep", type=Path, help="render the --seeds clips into this folder and keep them (a clip "
                        "already there is measured again, not rendered again)")
    args = parser.parse_args()
    folders = list(args.clip)
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            from cardref.truth_speed import render_stress
            from cardref.truth_video import RenderSettings

            out = (args.keep or Path(tmp)) / (f"stress_{seed}" if args.fps == 10.0 else f"stress_{seed}_{args.fps:g}fps")
            if not (out / "render.json").exists():
                render_stress(out, seed, illegal=1, max_moves=args.max_moves,
                              settings=RenderSettings(boxes=True, fps=args.fps))
            folders.append(out)
        from_landing: list[float] = []
        from_rest: list[float] = []
        for folder in folders:
            found = measure(folder)
            for x in found:
                if x["call"] != x["call"]:
                    print(f"{folder.name}: stress by a {x['op']} at {x['landed']:.1f} s (table at rest {x['rest']:.1f} s): "
                          f"NOT CALLED")
                else:
                    print(f"{folder.name}: stress by a {x['op']}: card at rest {x['landed']:.1f} s, table at rest "
                          f"{x['rest']:.1f} s, called {x['call']:.1f} s: {1000 * (x['call'] - x['landed']):.0f} ms after "
                          f"the card, {1000 * (x['call'] - x['rest']):.0f} ms after the table")
                from_landing.append(x["call"] - x["landed"])
                from_rest.append(x["call"] - x["rest"])
            if found:
                print(f"{folder.name}: {found[0]['frames']} frames referee'd in {found[0]['wall_s']:.1f} s wall clock")
    if not from_landing:
        print("no stress in these clips")
        return
    missed = sum(1 for v in from_landing if v != v)
    ok = sorted(v for v in from_landing if v == v)
    rest = sorted(v for v in from_rest if v == v)
    print(f"stress calls: {len(ok)} of {len(from_landing)} made ({missed} missed)")
    if ok:
        print(f"card at rest -> stress call (video time): median {1000 * statistics.median(ok):.0f} ms, "
              f"max {1000 * ok[-1]:.0f} ms; table at rest -> call: median {1000 * statistics.median(rest):.0f} ms, "
              f"max {1000 * rest[-1]:.0f} ms")


if __name__ == "__main__":
    main()
