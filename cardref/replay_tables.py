"""What the live referee was given, judged again: the lines of ``cardref analyze --tables-out``.

A tables file (docs/states-format.md) is written as the referee is given things
(:attr:`cardref.live.LiveReferee.on_input`): after a header line, every table state fed, every look
glimpsed before a zone settled, every quiet frame that concluded a view left waiting, every slap the
camera saw. Given back in order to a fresh referee, they bring the same verdicts as the analysis did,
without the video and without the detector: the way to study why the referee concluded what it did,
and to check a referee change on kept games in seconds.

Files written before the header existed (the kept matches of bench/matches/ up to the fifty-eighth
session) hold the fed table states only. For those the clock is ticked before each view, as the
frames before it ticked it, and the slaps (which the camera's reach watch or a key press gave) must
come from elsewhere: the game log's, or the true ones. The verdicts then mostly match: a stress
called from a look before the table settled, or a slap judged while the next view was waiting, is
where they part.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

from referee.observation import Finding
from vision.state_check import is_view
from vision.table_state import TableState

from .live import LiveReferee

__all__ = ["HEADER", "is_view", "judge_line", "replay_lines"]

HEADER: dict[str, Any] = {"tables": 2}
"""The first line of a tables file that holds every input, not only the table states."""


def judge_line(referee: LiveReferee, line: dict[str, Any]) -> list[Finding]:
    """One line given to ``referee`` as it was given live; what it found."""
    t = float(line["t"])
    if "piles" in line:
        table = TableState.from_json(line)
        return referee.glimpse(table) if line.get("glimpse") else referee.feed(table)
    if line.get("tick"):
        return referee.tick(t)
    if "act" in line:
        args = {k: v for k, v in line.items() if k not in ("t", "act", "seen")}
        if line.get("seen"):
            return referee.seen_slap(args["player"], t, args["pile"])
        return referee.act(str(line["act"]), t, **args)
    raise ValueError(f"not a line of a tables file: {sorted(line)}")


def replay_lines(referee: LiveReferee, lines: Iterable[dict[str, Any]],
                 slaps: Sequence[dict[str, Any]] = ()) -> Iterator[tuple[dict[str, Any], list[Finding]]]:
    """Each line of a tables file given to ``referee`` in turn, with what it found. For a file
    without :data:`HEADER` (table states only), the lines this makes up are given too: a tick
    (``{"t", "tick": true}``) before each view, and each of ``slaps`` (``{"t", "player", "pile"}``,
    keyed in) before the first view at or after its time."""
    given = iter(lines)
    first = next(given, None)
    if first is None:
        return
    if first == HEADER:
        for line in given:
            yield line, judge_line(referee, line)
        return
    keyed = sorted(slaps, key=lambda s: s["t"])
    for line in (first, *given):
        t = float(line["t"])
        while keyed and keyed[0]["t"] <= t:
            slap = keyed.pop(0)
            act = {"t": slap["t"], "act": "slap", "player": slap["player"], "pile": slap["pile"]}
            yield act, judge_line(referee, act)
        tick = {"t": t, "tick": True}
        yield tick, judge_line(referee, tick)
        yield line, judge_line(referee, line)
