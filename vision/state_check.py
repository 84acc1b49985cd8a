"""Published table states against the truth of a truth video (issue #5's targets, measured).

The truth is one line per frame (``truth.jsonl``: a table state in STATES.jsonl's shape plus
``at_rest``). Its *steady states* are the runs of frames at rest; consecutive runs showing the same table
are one steady state (a hand that came and went without changing anything). Each steady state should be
published exactly once, at most ``max_delay_s`` after the table came to rest; nothing else should be
published. A published state that matches no frame's table at all *never existed*; one that matches a
frame in motion only (a card in a hand) was *not steady*.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from vision.jsonl_files import open_jsonl
from vision.table_state import Key, TableState


@dataclass(frozen=True)
class SteadySpan:
    key: Key
    start_t: float
    """When the table came to rest in this state (the first frame at rest)."""
    start_frame: int
    end_t: float
    """When the next different steady state began (or the end of the clip)."""


@dataclass
class StatesReport:
    steady: int = 0
    published: int = 0
    exact: int = 0
    missed: list[float] = field(default_factory=list)
    """Rest times of steady states never published."""
    never_existed: list[float] = field(default_factory=list)
    not_steady: list[float] = field(default_factory=list)
    repeated: list[float] = field(default_factory=list)
    """Times of published states equal to a steady state already published for the same span."""
    first_delay_s: float | None = None
    delays_s: list[float] = field(default_factory=list)
    """Rest -> published, for every steady state after the first."""
    max_delay_s: float = 0.3

    @property
    def exact_share(self) -> float:
        return self.exact / self.steady if self.steady else 1.0

    @property
    def late(self) -> int:
        return sum(1 for d in self.delays_s if d > self.max_delay_s)

    def meets_targets(self) -> bool:
        return self.exact_share >= 0.99 and not self.never_existed and not self.not_steady and self.late == 0

    def to_json(self) -> dict[str, Any]:
        d = sorted(self.delays_s)
        return {
            "steady_states": self.steady, "published": self.published, "published_exactly": self.exact,
            "exact_share": round(self.exact_share, 4), "missed_at": self.missed,
            "never_existed_at": self.never_existed, "not_steady_at": self.not_steady, "repeated_at": self.repeated,
            "first_delay_s": self.first_delay_s,
            "delay_median_s": d[len(d) // 2] if d else None, "delay_max_s": d[-1] if d else None,
            "late": self.late, "max_delay_s": self.max_delay_s, "meets_targets": self.meets_targets(),
        }

    def line(self) -> str:
        d = sorted(self.delays_s)
        delays = (f"; rest -> published median {1000 * d[len(d) // 2]:.0f} ms, max {1000 * d[-1]:.0f} ms, "
                  f"{self.late} over {1000 * self.max_delay_s:.0f} ms") if d else ""
        return (f"{self.exact}/{self.steady} steady states published exactly ({100 * self.exact_share:.1f} %), "
                f"{self.published} published, {len(self.never_existed)} never existed, {len(self.not_steady)} not steady, "
                f"{len(self.repeated)} repeated{delays}")


def _lines(path: str | Path) -> list[str]:
    """The lines of a JSONL file, gzipped or not (the shipped clips' truths are: ``truth.jsonl.gz``)."""
    with open_jsonl(path) as fh:
        return fh.read().splitlines()


def is_view(row: dict[str, Any]) -> bool:
    """Whether a line of a STATES.jsonl or of a tables file (``cardref analyze --tables-out``) is a table
    state the referee was fed: not the header, a look glimpsed before a zone settled, a quiet frame or
    an input (docs/states-format.md)."""
    return "piles" in row and not row.get("glimpse")


def read_states(path: str | Path) -> list[TableState]:
    """The table states of a STATES.jsonl, or the ones a tables file's referee was fed (its other lines
    passed over: :func:`is_view`)."""
    rows = (json.loads(line) for line in _lines(path) if line.strip())
    return [TableState.from_json(row) for row in rows if is_view(row)]


def read_truth(path: str | Path) -> list[tuple[TableState, bool]]:
    out = []
    for line in _lines(path):
        if line.strip():
            data = json.loads(line)
            out.append((TableState.from_json(data), bool(data.get("at_rest", False))))
    return out


def steady_spans(truth: Iterable[tuple[TableState, bool]]) -> list[SteadySpan]:
    spans: list[SteadySpan] = []
    resting = False
    for state, at_rest in truth:
        if at_rest and not resting:
            key = state.key()
            if not spans or spans[-1].key != key:
                if spans:
                    spans[-1] = SteadySpan(spans[-1].key, spans[-1].start_t, spans[-1].start_frame, state.t)
                spans.append(SteadySpan(key, state.t, state.frame, float("inf")))
        resting = at_rest
    return spans


def compare(published: list[TableState], truth: list[tuple[TableState, bool]], max_delay_s: float = 0.3) -> StatesReport:
    spans = steady_spans(truth)
    report = StatesReport(steady=len(spans), published=len(published), max_delay_s=max_delay_s)
    any_keys = {s.key() for s, _ in truth}
    times = [s.t for s, _ in truth]
    matched: set[int] = set()
    frame_s = (times[1] - times[0]) if len(times) > 1 else 0.0
    for state in published:
        key = state.key()
        found = _span_for(state, key, spans, truth, times, frame_s)
        if found is None:
            (report.not_steady if key in any_keys else report.never_existed).append(round(state.t, 4))
            continue
        if found in matched:
            report.repeated.append(round(state.t, 4))
            continue
        matched.add(found)
        delay = max(0.0, state.t - spans[found].start_t)
        if found == 0:
            report.first_delay_s = round(delay, 4)
        else:
            report.delays_s.append(round(delay, 4))
    report.exact = len(matched)
    report.missed = [round(s.start_t, 4) for i, s in enumerate(spans) if i not in matched]
    return report


def _span_for(state: TableState, key: Key, spans: list[SteadySpan], truth: list[tuple[TableState, bool]],
              times: list[float], frame_s: float) -> int | None:
    """The steady state a published state stands for: the one the table is in (or, when the cards
    already lie as published while the hand is still withdrawing, the one it is coming to), or an earlier
    one with the same table when it was published late."""
    import bisect

    at = bisect.bisect_right(times, state.t + frame_s / 2) - 1
    if at >= 0 and truth[at][0].key() == key:
        for i, span in enumerate(spans):
            if span.key == key and span.end_t > state.t:
                between = [s for s in spans if state.t < s.start_t < span.start_t]
                return i if not between else None
        return None
    for i in range(len(spans) - 1, -1, -1):
        if spans[i].key == key and spans[i].start_t <= state.t + frame_s / 2:
            return i
    return None
