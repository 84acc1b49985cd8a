"""Klondike engine throughput on random positions (run by hand: python bench/bench_klondike.py).

Builds a pool of positions by random legal play from many deals, then times
- validations: apply() of a random candidate move (legal or not) to a random position,
- listings: legal_moves() of a random position, exhausted,
- outcome(): the K13 check, on the same positions.
Figures go into the README's performance table.
"""

from __future__ import annotations

import argparse
import random
import time

from referee import klondike


def positions(count: int, seed: int) -> list[klondike.KlondikeState]:
    rng = random.Random(seed)
    pool = []
    while len(pool) < count:
        rules = klondike.KlondikeRules.make(draw=rng.choice([1, 3]))
        state = klondike.new_game(klondike.deal(rng.randrange(10**6)), rules)
        for _ in range(rng.randrange(0, 120)):
            moves = list(klondike.legal_moves(state))
            verdict = klondike.apply(state, rng.choice(moves))
            assert verdict.ok
            state = verdict.state  # type: ignore[union-attr]
        pool.append(state)
    return pool


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    rng = random.Random(1)
    pool = positions(args.positions, 2)
    work = [(s, m) for s in pool for m in klondike._candidates(s)]
    rng.shuffle(work)
    legal_share = sum(klondike.is_legal(s, m) for s, m in work) / len(work)

    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for s, m in work[:5000]:
            klondike.apply(s, m)
        n += 5000
    rate = n / (time.perf_counter() - start)
    print(f"move validations (apply), all candidates: {rate:,.0f}/s  ({legal_share:.0%} of them legal)")

    legal_work = [(s, m) for s, m in work if klondike.is_legal(s, m)]
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for s, m in legal_work:
            klondike.apply(s, m)
        n += len(legal_work)
    print(f"move validations (apply), legal moves only: {n / (time.perf_counter() - start):,.0f}/s")

    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for s in pool:
            for _ in klondike.legal_moves(s):
                pass
        n += len(pool)
    print(f"legal-move listings: {n / (time.perf_counter() - start):,.0f} positions/s")

    start = time.perf_counter()
    for s in pool:
        klondike.outcome(s)
    print(f"outcome (K13 check): {len(pool) / (time.perf_counter() - start):,.0f} positions/s")


if __name__ == "__main__":
    main()
