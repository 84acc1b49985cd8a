"""Timed events from several players at once: reading them and putting them in time order.

The speed games (Stress, Zenuwen) have no turns. Every event carries the player and the time ``t`` in
seconds (passed in: the engines have no clock). Events are judged in time order, so two plays that
land on the same centre pile 30 ms apart are judged one after the other: the later one against the
pile as the earlier one left it (it may become illegal). Ties keep their input order.

:func:`in_time_order` sorts a finished recording (the replay); :class:`ReorderBuffer` does the same
for a live feed, holding each event back for a short window in case an earlier one is still on its
way (two cameras, two detectors, different latencies).
"""

from __future__ import annotations

import heapq
import math
from typing import Any, Generic, Iterable, Mapping, TypeVar

from .cards import Card, CardError
from .verdict import NotationError

T = TypeVar("T")

DEFAULT_WINDOW = 0.25
"""Seconds a live event is held back before it is judged (generous for a 30 fps camera)."""


def adjacent(a: int, b: int, wrap: bool) -> bool:
    """Ranks exactly one apart; with ``wrap`` the king (13) and the ace (1) are neighbours too."""
    d = a - b if a > b else b - a
    return d == 1 or (wrap and d == 12)


def in_time_order(items: Iterable[tuple[float, T]]) -> list[T]:
    """The items sorted by time; items with the same time keep their order (a stable sort)."""
    keyed = list(items)
    order = sorted(range(len(keyed)), key=lambda i: keyed[i][0])
    return [keyed[i][1] for i in order]


class ReorderBuffer(Generic[T]):
    """Hold live events for ``window`` seconds (event time) and release them in time order.

    ``push(t, item)`` returns the items that can no longer be overtaken by a later arrival: those at
    least ``window`` older than the newest time seen. An item that arrives after items later than
    it were already released is released at once (it is late; the caller judges it as it comes).
    """

    def __init__(self, window: float = DEFAULT_WINDOW) -> None:
        if not window >= 0:
            raise ValueError(f"window must be >= 0 seconds, got {window!r}")
        self.window = window
        self._heap: list[tuple[float, int, T]] = []
        self._seq = 0
        self._newest = -math.inf
        self._released = -math.inf
        self.late = 0
        """How many items arrived after a later item had been released."""

    def push(self, t: float, item: T) -> list[T]:
        self._seq += 1
        if t < self._released:
            self.late += 1
            return [item]
        heapq.heappush(self._heap, (t, self._seq, item))
        self._newest = max(self._newest, t)
        out: list[T] = []
        while self._heap and self._heap[0][0] <= self._newest - self.window:
            t0, _, it = heapq.heappop(self._heap)
            self._released = t0
            out.append(it)
        return out

    def flush(self) -> list[T]:
        out: list[T] = []
        while self._heap:
            t0, _, it = heapq.heappop(self._heap)
            self._released = t0
            out.append(it)
        return out

    def __len__(self) -> int:
        return len(self._heap)


# --- reading the JSON of a timed event -------------------------------------------------------


def read_time(obj: Mapping[str, Any]) -> float:
    """The event's ``t`` (seconds, a number >= 0)."""
    t = obj.get("t")
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or t < 0:
        raise NotationError(f"event needs a time 't' in seconds (a number >= 0), got {t!r} in {dict(obj)!r}")
    return float(t)


def read_player(obj: Mapping[str, Any], players: int) -> int:
    """The event's ``player``: a seat number counted from 0 (``0 .. players-1``)."""
    p = obj.get("player")
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < players:
        raise NotationError(f"event needs a 'player' from 0 to {players - 1} (seats count from 0), got {p!r}")
    return p


def read_ref(obj: Mapping[str, Any], keys: tuple[str, ...], count: int, what: str, required: bool = True) -> int | Card | None:
    """A pile named by its position (an int ``0 .. count-1``) or by the card on top of it (a code).

    The first of ``keys`` present in ``obj`` is read; ``None`` when none is present and not required.
    """
    for key in keys:
        if key in obj:
            value = obj[key]
            break
    else:
        if required:
            raise NotationError(f"event needs {' or '.join(repr(k) for k in keys)} ({what})")
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool):
        raise NotationError(f"{keys[0]}: expected {what}, got {value!r}")
    if isinstance(value, int):
        if not 0 <= value < count:
            raise NotationError(f"{keys[0]}: {what} must be 0 to {count - 1} (counted from 0), got {value}")
        return value
    if isinstance(value, str):
        try:
            return Card.parse(value)
        except CardError as exc:
            raise NotationError(f"{keys[0]}: {exc}") from None
    raise NotationError(f"{keys[0]}: expected {what} (a number or a card code), got {value!r}")


def ref_json(ref: int | Card) -> int | str:
    return ref.code if isinstance(ref, Card) else ref


def ref_text(ref: int | Card, place: str) -> str:
    """A pile in notation: ``pile3`` / ``centre2`` (counted from 1, as the zones are named), or a card."""
    return f"{place}{ref + 1}" if isinstance(ref, int) else ref.code


def event_type(obj: Mapping[str, Any]) -> str:
    """The event's ``op`` (as in the Klondike move lines; ``type``, ``kind`` and ``event`` are read
    too), lower case."""
    for key in ("op", "type", "kind", "event"):
        value = obj.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip().lower()
    raise NotationError(f"event needs an 'op' (play, slap, ...), got {dict(obj)!r}")
