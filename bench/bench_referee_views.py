"""Time the live referee takes to judge each table state of a recorded game (run by hand).

    cardref render zenuwen --seed 6 --players 4 --seconds 40 --out DIR
    cardref observe DIR/video.mp4 --game zenuwen --players 4 --calibration DIR/calibration.json --out DIR/states.jsonl
    python bench/bench_referee_views.py DIR/states.jsonl --game zenuwen --rules players=4

Feeds the states (``cardref observe``'s lines, or any file of ``TableState`` JSON lines) through
``cardref.live.LiveReferee`` in order and reports the time per state: the referee's share of "card at
rest -> verdict on screen" on a real table, where a four-player view with hands and unsure readings
may need several searches (the tracker's settle time comes on top). Several files are pooled.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    from cardref.live import LiveReferee
    from cardref.replay_tables import judge_line

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("states", type=Path, nargs="+", help="JSONL files of table states")
    ap.add_argument("--game", required=True, choices=("klondike", "stress", "zenuwen"))
    ap.add_argument("--rules", default="", help="rules spec, as cardref analyze takes it")
    args = ap.parse_args(argv)

    times: list[tuple[float, str, float]] = []
    for path in args.states:
        referee = LiveReferee(args.game, args.rules)
        for line in path.read_text().splitlines():
            data = json.loads(line)
            if "t" not in data:
                continue  # a header or summary line
            start = time.perf_counter()
            judge_line(referee, data)  # (a tables file's looks, quiet frames and slaps too: cardref.replay_tables)
            if "piles" in data:
                times.append((time.perf_counter() - start, f"{path.parent.name}/{path.name}", float(data["t"])))
    if not times:
        raise SystemExit("no table states in the files")
    times.sort()
    ms = [t * 1000 for t, _, _ in times]

    def at(q: float) -> float:
        return ms[min(len(ms) - 1, int(len(ms) * q))]

    slowest = times[-1]
    print(f"states judged: {len(ms)}")
    print(f"per state: median {at(0.5):.1f} ms, p90 {at(0.9):.0f} ms, p99 {at(0.99):.0f} ms, "
          f"max {ms[-1]:.0f} ms ({slowest[1]} at {slowest[2]:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
