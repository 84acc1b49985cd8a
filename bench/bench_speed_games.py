"""Stress and Zenuwen engine speed (run by hand: python bench/bench_speed_games.py).

Measures
- events judged per second: apply() over recorded event streams of whole simulated games (legal
  events, plus one illegal attempt in four), engine only;
- the same through the replay command's code path (JSON lines in, JSON lines out);
- stress-call latency: the time from handing the engine the play that makes both centre tops equal
  to having the verdict with the ``stress`` call in it (median, p99, max over many positions).
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import random
import statistics
import time
from typing import Any, Callable

from cardref.replay_speed import run_stress, run_zenuwen
from referee import stress as S
from referee import zenuwen as Z
from referee.verdict import Legal


def stress_stream(seed: int) -> tuple[S.StressState, list[S.Move]]:
    rng = random.Random(seed)
    start = S.new_game(S.deal(seed), S.StressRules(rounds=3)).state
    state, t = start, 0.0
    moves: list[S.Move] = []
    for _ in range(3000):
        legal = list(S.legal_moves(state))
        if not legal:
            break
        t += 0.05
        if rng.random() < 0.25:  # an illegal attempt: judged, changes nothing
            p = rng.randrange(2)
            bad = S.Play(p, rng.randrange(4), rng.randrange(2), t)
            moves.append(bad)
        m = dataclasses.replace(rng.choice(legal), t=t)
        v = S.apply(state, m)
        assert isinstance(v, Legal)
        state = v.state
        moves.append(m)
    return start, moves


def zenuwen_stream(seed: int, players: int) -> tuple[Z.ZenuwenState, list[Z.Move]]:
    rng = random.Random(seed)
    start = Z.new_game(Z.deal(seed, players), Z.ZenuwenRules(players=players)).state
    state, t = start, 0.0
    moves: list[Z.Move] = []
    for _ in range(6000):
        legal = list(Z.legal_moves(state))
        if not legal:
            break
        t += 0.05
        plays = [m for m in legal if isinstance(m, Z.Play)]
        m = rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(legal)
        m = dataclasses.replace(m, t=t)
        v = Z.apply(state, m)
        assert isinstance(v, Legal)
        state = v.state
        moves.append(m)
    return start, moves


def engine_rate(streams: list[tuple[Any, list[Any]]], apply: Callable[[Any, Any], Any], seconds: float) -> float:
    n, begin = 0, time.perf_counter()
    while time.perf_counter() - begin < seconds:
        for start, moves in streams:
            state = start
            for m in moves:
                v = apply(state, m)
                if v.ok:
                    state = v.state
            n += len(moves)
    return n / (time.perf_counter() - begin)


def replay_rate(run: Callable[..., int], deal: Any, moves: list[Any], seconds: float) -> float:
    text = "".join(json.dumps(m.to_json()) + "\n" for m in moves)
    n, begin = 0, time.perf_counter()
    while time.perf_counter() - begin < seconds:
        run("", deal, io.StringIO(text), io.StringIO())
        n += len(moves)
    return n / (time.perf_counter() - begin)


def stress_positions(count: int) -> list[tuple[S.StressState, S.Play]]:
    """Positions where a legal play makes both centre tops the same rank."""
    out: list[tuple[S.StressState, S.Play]] = []
    seed = 0
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        state = S.new_game(S.deal(seed)).state
        for i in range(400):
            legal = list(S.legal_moves(state))
            if not legal:
                break
            for m in legal:
                if isinstance(m, S.Play):
                    card = state.seats[m.player].row[m.source][-1]  # type: ignore[index]
                    other = state.centre[1 - m.to][-1]  # type: ignore[operator]
                    play = dataclasses.replace(m, t=state.t + 0.01)
                    made = S.apply(state, play)
                    if card.rank == other.rank and any(e.kind == "stress" for e in made.events):  # type: ignore[union-attr]
                        out.append((state, play))
                        break
            v = S.apply(state, dataclasses.replace(rng.choice(legal), t=float(i)))
            assert isinstance(v, Legal)
            state = v.state
    return out[:count]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--games", type=int, default=6)
    args = ap.parse_args()

    streams_s = [stress_stream(seed) for seed in range(args.games)]
    n_s = sum(len(m) for _, m in streams_s)
    print(f"Stress: {args.games} three-round matches, {n_s} events (1 in 5 illegal)")
    print(f"  events judged (engine apply): {engine_rate(streams_s, S.apply, args.seconds):,.0f}/s")
    deal_s = S.deal(0).to_json()
    print(f"  events judged (replay, JSON in/out): {replay_rate(run_stress, deal_s, streams_s[0][1], args.seconds):,.0f}/s")

    for players in (2, 4):
        streams_z = [zenuwen_stream(seed, players) for seed in range(args.games)]
        n_z = sum(len(m) for _, m in streams_z)
        print(f"Zenuwen, {players} players: {args.games} matches, {n_z} events")
        print(f"  events judged (engine apply): {engine_rate(streams_z, Z.apply, args.seconds):,.0f}/s")
        deal_z = Z.deal(0, players).to_json()
        print(f"  events judged (replay, JSON in/out): {replay_rate(run_zenuwen, deal_z, streams_z[0][1], args.seconds):,.0f}/s")

    cases = stress_positions(300)
    lat: list[float] = []
    for _ in range(20):
        for state, play in cases:
            t0 = time.perf_counter_ns()
            v = S.apply(state, play)
            t1 = time.perf_counter_ns()
            assert isinstance(v, Legal) and any(e.kind == "stress" for e in v.events)
            lat.append((t1 - t0) / 1000)
    lat.sort()
    p99 = lat[int(len(lat) * 0.99)]
    print(
        f"stress call latency (play that matches the tops -> verdict with the call), {len(lat)} samples: "
        f"median {statistics.median(lat):.1f} us, p99 {p99:.1f} us, max {lat[-1]:.1f} us"
    )


if __name__ == "__main__":
    main()
