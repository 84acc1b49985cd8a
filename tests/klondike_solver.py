"""A small depth-first Klondike solver, used to record won games for the golden tests.

Not part of cardref: the referee judges moves, it does not play. Moves are tried in a sensible order
(foundation first, then moves that turn a card, then the rest) with a visited set, so easy deals solve
in well under a second.
"""

from __future__ import annotations

from referee import klondike
from referee.klondike import KlondikeState, Move
from referee.verdict import Legal


def _priority(state: KlondikeState, move: Move) -> int:
    if move.dst == "foundation":
        return 0
    if move.src.startswith("t"):
        i = int(move.src[1:]) - 1
        up = len(state.tableau[i]) - state.hidden[i]
        if move.count == up and state.hidden[i] > 0:
            return 1
        if move.count == up and len(state.tableau[i]) == move.count and move.dst != "foundation":
            # a whole pile moving into an empty space only shuffles kings around
            return 9
        return 4
    if move.src == "waste":
        return 2
    if move.op in ("draw", "recycle"):
        return 5
    return 8


def _key(state: KlondikeState) -> tuple[object, ...]:
    return (state.tableau, state.stock, state.waste, state.foundations, state.recycles if state.rules.passes else 0)


def solve(state: KlondikeState, limit: int = 200_000) -> list[Move] | None:
    """A list of legal moves that wins from ``state``, or None if none was found within ``limit`` nodes."""
    seen: set[tuple[object, ...]] = set()
    path: list[Move] = []
    nodes = 0

    def dfs(s: KlondikeState) -> bool:
        nonlocal nodes
        if s.won:
            return True
        nodes += 1
        if nodes > limit:
            return False
        moves = sorted(klondike.legal_moves(s), key=lambda m: _priority(s, m))
        for move in moves:
            if move.src.startswith("foundation:"):
                continue
            verdict = klondike.apply(s, move)
            assert isinstance(verdict, Legal)
            nxt = verdict.state
            key = _key(nxt)
            if key in seen:
                continue
            seen.add(key)
            path.append(move)
            if dfs(nxt):
                return True
            path.pop()
        return False

    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        return list(path) if dfs(state) else None
    finally:
        sys.setrecursionlimit(old)
