"""Live referee latency: time to judge one steady observation (run by hand: python bench/bench_live.py).

Follows the recorded won games through klondike_live.observe and reports per-observation times
(the referee's share of "card at rest -> verdict on screen"; the tracker's settle time comes on top).
"""

from __future__ import annotations

import json
import pathlib
import statistics
import time

from referee import klondike, klondike_live
from referee.klondike import KlondikeRules, Move

DATA = pathlib.Path(__file__).parent.parent / "tests" / "data"


def main() -> None:
    times: list[float] = []
    for name, spec in [("klondike_won_draw1_seed1", "draw=1"), ("klondike_won_draw3_seed6", "draw=3")]:
        deal = klondike.Deal.from_json(json.loads((DATA / f"{name}.deal.json").read_text()))
        moves = [Move.from_json(json.loads(x)) for x in (DATA / f"{name}.moves.jsonl").read_text().splitlines()]
        rules = KlondikeRules.from_spec(spec)
        truth = klondike.new_game(deal, rules)
        live = klondike_live.start(klondike_live.expected_observation(truth), rules)
        for i, move in enumerate(moves):
            truth = klondike.replay(truth, [move])
            obs = klondike_live.expected_observation(truth, float(i + 1), waste_shown=rules.draw)
            start = time.perf_counter()
            live, findings = klondike_live.observe(live, obs)
            times.append(time.perf_counter() - start)
            assert findings and findings[0].kind == "move"
    times.sort()
    ms = [t * 1000 for t in times]
    print(f"observations judged: {len(ms)}")
    print(f"per observation: median {statistics.median(ms):.2f} ms, p95 {ms[int(len(ms) * 0.95)]:.2f} ms, max {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
