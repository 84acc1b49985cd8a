"""Double Solitaire followed from scripted table states (run by hand): how many moves the live referee
finds and how long it takes to judge a view.

    python bench/bench_double.py [--games 8] [--moves 150] [--unread 0.2]

Random legal games of both players (:mod:`referee.double_solitaire`); each move is seen in two views
with a share of the piles showing a card not read (``--unread``), then in a clear one, as the tracker
publishes a table while the camera reads it better. Prints moves found and invented, and the time per
view (median, p90, max). No camera, no detector: the referee alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee import double_live, double_solitaire  # noqa: E402
from referee.double_solitaire import DoubleMove  # noqa: E402
from referee.observation import Observation  # noqa: E402


def unread_some(obs: Observation, rng: random.Random, share: float) -> Observation:
    piles = {}
    for zone, pile in obs.piles.items():
        if pile.cards and rng.random() < share:
            cards = list(pile.cards)
            cards[rng.randrange(len(cards))] = None
            pile = replace(pile, cards=tuple(cards))
        piles[zone] = pile
    return replace(obs, piles=piles)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--unread", type=float, default=0.2)
    a = ap.parse_args()
    made = found = invented = 0
    times: list[float] = []
    for seed in range(1, a.games + 1):
        rng = random.Random(seed)
        truth = double_solitaire.new_game(double_solitaire.deal(seed))
        live = double_live.start(double_live.expected_observation(truth, 0.0))
        t = 0.0
        for _ in range(a.moves):
            options = list(double_solitaire.legal_moves(truth))
            if not options:
                break
            move = rng.choice(options)
            t += 1.0
            truth = double_solitaire.apply(truth, DoubleMove(move.player, replace(move.move, t=t))).state
            made += 1
            views = [unread_some(double_live.expected_observation(truth, t + 0.1 * k), rng, a.unread) for k in range(2)]
            for obs in views + [double_live.expected_observation(truth, t + 0.3)]:
                start = time.perf_counter()
                live, findings = double_live.observe(live, obs)
                times.append(time.perf_counter() - start)
                for f in findings:
                    if f.kind != "move":
                        continue
                    same = (f.move.player, f.move.move.op, f.move.move.src, f.move.move.dst) == (
                        move.player, move.move.op, move.move.src, move.move.dst)
                    found += same
                    invented += not same
    times.sort()
    print(f"{a.games} games: moves found {found}/{made}, invented {invented}")
    print(f"per view ({len(times)}): median {statistics.median(times) * 1e3:.1f} ms, "
          f"p90 {times[int(0.9 * len(times))] * 1e3:.1f} ms, max {times[-1] * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
