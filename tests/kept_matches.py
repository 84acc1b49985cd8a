"""The table states of a kept match (bench/matches/, ``python bench/replay_referee.py --add``), for the
live referee tests that replay a recorded game's views."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

MATCHES = Path(__file__).resolve().parent.parent / "bench" / "matches"


def kept_tables(name: str) -> list[dict[str, Any]]:
    """Every line of kept match ``name``'s ``tables.jsonl.gz`` (table states, and in the newer files a
    header, the looks and the quiet frames), as ``cardref.replay_tables.replay_lines`` takes them."""
    text = gzip.decompress((MATCHES / name / "tables.jsonl.gz").read_bytes()).decode()
    return [json.loads(line) for line in text.splitlines()]


def kept_findings(name: str, game: str, rules: str, after: float, until: float,
                  kinds: tuple[str, ...] = ("move", "illegal", "ambiguous", "unrecognised")) -> list[Any]:
    """The findings of ``kinds`` a new referee (``game``, ``rules``) makes in the views of kept match
    ``name`` published after ``after`` and before ``until`` (every earlier view judged too)."""
    from cardref.live import LiveReferee
    from cardref.replay_tables import replay_lines

    ref = LiveReferee(game, rules)
    found = []
    for line, fs in replay_lines(ref, kept_tables(name)):
        if line.get("t", 0) >= until:
            break  # (the rest of the match is not judged: a long one costs a minute)
        if after < line.get("t", 0):
            found += [f for f in fs if f.kind in kinds]
    return found


def kept_rules(name: str) -> str:
    """The rules kept match ``name`` was played by (its ``render.json``)."""
    return str(json.loads((MATCHES / name / "render.json").read_text())["rules"])


def swapped_tops(tableau: tuple[tuple[Any, ...], ...], hidden: tuple[int, ...], known: frozenset[Any]) -> tuple[tuple[Any, ...], ...]:
    """A layout's columns with the tops of the first two whose face-up tops are known swapped: a
    position the referee got wrong, for the tests of a referee that has lost the game."""
    tops = [i for i, (column, h) in enumerate(zip(tableau, hidden)) if len(column) > h and column[-1] in known][:2]
    assert len(tops) == 2, "no two known column tops to swap"
    i, j = tops
    columns = list(tableau)
    columns[i], columns[j] = tableau[i][:-1] + tableau[j][-1:], tableau[j][:-1] + tableau[i][-1:]
    return tuple(columns)
