"""The broadcast hub: the one seam between the live pipeline and the web pages.

The pipeline (camera -> detector -> tracker -> move inference -> rules engine -> game log) calls
:meth:`Hub.publish` from its own thread with a plain dict; every connected WebSocket viewer gets it.
The contract (docs/web-api.md):

* ``publish`` is thread-safe and never blocks: the message is checked and encoded once and handed
  to the web server's event loop, which puts it on each viewer's bounded queue (so the publisher's
  work does not grow with the number of viewers). A viewer that reads too slowly loses its *oldest* messages (counted
  in :attr:`Subscription.dropped`); the publisher never waits for a viewer.
* Frames do not queue at all: each viewer holds only the newest frame not yet sent, so frames never
  push verdicts out of a queue, and a slow viewer simply sees fewer frames (the skipped ones are
  counted as dropped).
* Message types: ``frame``, ``state``, ``verdict``, ``call``, ``status`` (from the pipeline) and
  ``session`` (the set-up and phase, from the web app itself). The hub adds ``hub_seq`` (its own
  counter) and ``sent`` (Unix time of the publish, for latency measurements).
* ``status`` messages may be partial (only the fields that changed); the hub merges them, so every
  status a viewer gets is the whole picture.
* A viewer that connects late gets a snapshot first: the latest ``status``, ``session``, ``state``
  and ``frame`` and the verdicts and calls of the current game (cleared when a ``state`` message
  names another ``game_id``).

The reverse direction is :attr:`Hub.commands`: what people do on the pages (start, pause, a slap, a
correction, a phone frame's arrival is *not* one: see :mod:`cardref.web.phone`) is queued there for
the pipeline to take with :meth:`CommandQueue.get`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import queue
import threading
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

logger = logging.getLogger(__name__)

PIPELINE_TYPES = ("frame", "state", "verdict", "call", "status")
"""Message types the pipeline publishes."""
MESSAGE_TYPES = PIPELINE_TYPES + ("session",)
"""Every type a viewer may receive (``session`` comes from the web app)."""
VERDICT_KINDS = ("legal", "illegal", "unrecognised", "ambiguous", "taken_back", "correction", "slap", "rejoined", "withdrawn")
VERDICT_ALIASES = {"move": "legal"}
"""The live referee's finding kinds that mean the same as a verdict kind (``move`` is a legal move)."""
CALL_KINDS = ("stress", "stuck", "round_over", "match_over", "won", "no_moves_left", "false_slap", "turn_over")
HISTORY_TYPES = ("verdict", "call")
JPEG_MAGIC = b"\xff\xd8"


class MessageError(ValueError):
    """A message the hub refuses: unknown type, missing or malformed fields, not JSON."""


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One message ready to send: its JSON text and, for a frame, the JPEG sent right after it."""

    type: str
    text: str
    jpeg: bytes | None = None
    sent: float = 0.0


@dataclass(frozen=True, slots=True)
class Command:
    """Something a person asked for on a page, for the pipeline: ``kind`` is one of ``setup``,
    ``start``, ``pause``, ``resume``, ``end``, ``slap``, ``correction``, ``calibration``; ``data`` is
    the request body as JSON; ``at`` the Unix time it arrived."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    at: float = 0.0


class CommandQueue:
    """A bounded, thread-safe queue of :class:`Command`; when full the oldest command is dropped."""

    def __init__(self, maxsize: int = 256) -> None:
        self._q: queue.Queue[Command] = queue.Queue(maxsize)
        self.dropped = 0
        self._listeners: list[Callable[[Command], None]] = []

    def put(self, command: Command) -> None:
        for listener in list(self._listeners):
            listener(command)
        while True:
            try:
                self._q.put_nowait(command)
                return
            except queue.Full:
                try:
                    self._q.get_nowait()
                    self.dropped += 1
                except queue.Empty:  # pragma: no cover - emptied meanwhile
                    pass

    def get(self, timeout: float | None = 0.0) -> Command | None:
        """The next command, waiting up to ``timeout`` seconds (``None``: forever); ``None`` if none."""
        try:
            if timeout == 0.0:
                return self._q.get_nowait()
            return self._q.get(timeout=timeout)
        except queue.Empty:
            return None

    def listen(self, callback: Callable[[Command], None]) -> None:
        """Call ``callback(command)`` (on the web server's thread; keep it short) for every command put."""
        self._listeners.append(callback)


class Subscription:
    """One viewer's queue. Made by :meth:`Hub.subscribe` inside the event loop that will read it."""

    def __init__(self, hub: "Hub", loop: asyncio.AbstractEventLoop, size: int, frames: bool, types: frozenset[str]):
        self._hub = hub
        self.loop = loop
        self.frames = frames
        self.types = types
        self._queue: deque[Outgoing] = deque()
        self._size = size
        self._frame: Outgoing | None = None
        self._event = asyncio.Event()
        self.dropped = 0
        self.sent = 0
        self.closed = False

    def _offer(self, item: Outgoing) -> None:
        """Called with the hub lock held."""
        if item.type == "frame":
            if not self.frames:
                return
            if self._frame is not None:
                self.dropped += 1
            self._frame = item
            return
        if item.type not in self.types:
            return
        if len(self._queue) >= self._size:
            self._queue.popleft()
            self.dropped += 1
        self._queue.append(item)

    def pending(self) -> int:
        with self._hub._lock:
            return len(self._queue) + (self._frame is not None)

    def get_nowait(self) -> Outgoing | None:
        with self._hub._lock:
            self._hub._fan_out(self.loop)
            if self._queue:
                self.sent += 1
                return self._queue.popleft()
            if self._frame is not None:
                item, self._frame = self._frame, None
                self.sent += 1
                return item
            self._event.clear()
            return None

    async def get(self) -> Outgoing:
        """The next message: queued ones oldest first, then the newest frame."""
        while True:
            item = self.get_nowait()
            if item is not None:
                return item
            await self._event.wait()

    def close(self) -> None:
        self._hub._unsubscribe(self)


class Hub:
    """Fans messages out from the pipeline's thread to every viewer's queue (see the module doc).

    ``queue_size`` bounds each viewer's queue of non-frame messages; ``max_frame_bytes`` refuses
    larger JPEGs (counted in ``stats()['rejected_frames']``, never raised, as a camera can misbehave);
    ``history`` bounds the verdicts and calls replayed to a viewer that joins mid-game.
    """

    def __init__(self, *, queue_size: int = 256, max_frame_bytes: int = 2_000_000, history: int = 2000,
                 clock: Callable[[], float] = time.time) -> None:
        if queue_size < 1:
            raise ValueError(f"queue_size must be at least 1, got {queue_size}")
        self.queue_size = queue_size
        self.max_frame_bytes = max_frame_bytes
        self._clock = clock
        self._lock = threading.Lock()
        self._subs: list[Subscription] = []
        self._pending: dict[asyncio.AbstractEventLoop, deque[Outgoing]] = {}
        """Per event loop (one per web server), what was published and not yet handed to its viewers."""
        self._wake_pending: set[asyncio.AbstractEventLoop] = set()
        self.loop_dropped = 0
        self._latest: dict[str, Outgoing] = {}
        self._history: deque[Outgoing] = deque(maxlen=history)
        self._game_id: object = None
        self._seq = 0
        self._status: dict[str, Any] = {}
        self.rejected_frames = 0
        self.commands = CommandQueue()
        self._delivery: deque[float] = deque(maxlen=5000)
        self._held = threading.local()

    # -- publishing (any thread) ----------------------------------------------------------------

    def publish(self, message: Mapping[str, Any]) -> int:
        """Send ``message`` to every viewer; returns the hub sequence number it got.

        Raises :class:`MessageError` for a message that breaks the contract (a programming error);
        an oversized or non-JPEG frame is dropped and counted instead (returns 0).
        """
        kind = message.get("type")
        if kind not in MESSAGE_TYPES:
            raise MessageError(f"unknown message type {kind!r}; types: {', '.join(MESSAGE_TYPES)}")
        jpeg: bytes | None = None
        body = dict(message)
        if kind == "frame":
            raw = body.pop("jpeg", None)
            if not isinstance(raw, (bytes, bytearray, memoryview)):
                raise MessageError("a frame message needs 'jpeg': the JPEG bytes")
            jpeg = bytes(raw)
            if len(jpeg) > self.max_frame_bytes or jpeg[:2] != JPEG_MAGIC:
                with self._lock:
                    self.rejected_frames += 1
                logger.debug("frame of %d bytes refused (limit %d or not JPEG)", len(jpeg), self.max_frame_bytes)
                return 0
            body["bytes"] = len(jpeg)
        _check_fields(kind, body)
        now = self._clock()
        with self._lock:
            self._seq += 1
            seq = self._seq
            if kind == "status":  # partial status updates add to what is known (camera, fps, referee ...)
                self._status.update({k: v for k, v in body.items() if k not in ("hub_seq", "sent")})
                body = dict(self._status)
        body["hub_seq"] = seq
        body["sent"] = now
        try:
            text = json.dumps(body, ensure_ascii=False, allow_nan=False, separators=(",", ":"), default=_jsonable)
        except (TypeError, ValueError) as exc:
            raise MessageError(f"{kind} message is not plain JSON: {exc}") from None
        item = Outgoing(kind, text, jpeg, now)
        wake: list[asyncio.AbstractEventLoop] = []
        with self._lock:
            if kind == "state" and body.get("game_id") != self._game_id:
                self._game_id = body.get("game_id")
                self._history.clear()
            if kind in HISTORY_TYPES:
                self._history.append(item)
            else:
                self._latest[kind] = item
            # O(event loops), not O(viewers): the viewers' queues are filled on their loop's thread
            for loop, pending in self._pending.items():
                if len(pending) == pending.maxlen:
                    self.loop_dropped += 1
                pending.append(item)
                if loop not in self._wake_pending:
                    self._wake_pending.add(loop)
                    wake.append(loop)
        held = getattr(self._held, "loops", None)
        if held is not None:
            held.extend(wake)
        else:
            self._wake_loops(wake)
        return seq

    def _wake_loops(self, loops: list[asyncio.AbstractEventLoop]) -> None:
        for loop in loops:
            try:
                loop.call_soon_threadsafe(self._wake, loop)
            except RuntimeError:  # the loop has closed; its viewers are gone
                with self._lock:
                    self._wake_pending.discard(loop)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Publish several messages as one: viewers are woken once, when the block ends, so the
        web server does not compete with the referee while it is still deciding. Optional; nests."""
        outer = getattr(self._held, "loops", None)
        if outer is not None:
            yield
            return
        self._held.loops = []
        try:
            yield
        finally:
            loops, self._held.loops = self._held.loops, None
            self._wake_loops(loops)

    def _fan_out(self, loop: asyncio.AbstractEventLoop) -> None:
        """With the lock held, in ``loop``'s thread: hand what was published to that loop's viewers."""
        pending = self._pending.get(loop)
        if not pending:
            return
        items = list(pending)
        pending.clear()
        for sub in self._subs:
            if sub.loop is loop:
                for item in items:
                    sub._offer(item)

    def _wake(self, loop: asyncio.AbstractEventLoop) -> None:
        """Runs in ``loop``: wake every viewer of that loop that has something to send."""
        with self._lock:
            self._wake_pending.discard(loop)
            self._fan_out(loop)
            ready = [s for s in self._subs if s.loop is loop and (s._queue or s._frame is not None)]
        for sub in ready:
            sub._event.set()

    # -- viewers (inside an event loop) ----------------------------------------------------------

    def subscribe(self, *, frames: bool = True, types: frozenset[str] | None = None,
                  snapshot: bool = True) -> Subscription:
        """A queue for one viewer, filled first with the snapshot (see the module doc).

        ``frames=False`` for pages that show no picture (the referee screen); ``types`` limits the
        other message types.
        """
        loop = asyncio.get_running_loop()
        sub = Subscription(self, loop, self.queue_size, frames, types or frozenset(MESSAGE_TYPES))
        with self._lock:
            self._fan_out(loop)  # earlier viewers first get what is pending; the snapshot covers it for this one
            self._pending.setdefault(loop, deque(maxlen=self.queue_size + 64))
            if snapshot:
                for kind in ("status", "session", "state"):
                    if kind in self._latest:
                        sub._offer(self._latest[kind])
                for item in list(self._history)[-self.queue_size:]:
                    sub._offer(item)
                if "frame" in self._latest:
                    sub._offer(self._latest["frame"])
                sub.dropped = 0
            self._subs.append(sub)
        if sub._queue or sub._frame is not None:
            sub._event.set()
        return sub

    def _unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subs:
                self._subs.remove(sub)
            if not any(s.loop is sub.loop for s in self._subs):
                self._pending.pop(sub.loop, None)
            sub.closed = True

    def latest(self, kind: str) -> dict[str, Any] | None:
        """The newest message of a non-history type as a dict (without frame bytes), or ``None``."""
        with self._lock:
            item = self._latest.get(kind)
        return None if item is None else dict(json.loads(item.text))

    def latest_frame(self) -> tuple[dict[str, Any], bytes] | None:
        """The newest frame message and its JPEG bytes (for calibration from the live picture)."""
        with self._lock:
            item = self._latest.get("frame")
        if item is None or item.jpeg is None:
            return None
        return dict(json.loads(item.text)), item.jpeg

    def history(self) -> list[dict[str, Any]]:
        """The verdicts and calls of the current game, oldest first."""
        with self._lock:
            items = list(self._history)
        return [dict(json.loads(i.text)) for i in items]

    def delivered(self, item: Outgoing) -> None:
        """Called by a viewer's socket once a verdict or call is handed to the network: keeps the
        publish-to-socket time (seconds), the server's share of the verdict-to-page latency."""
        if item.type in HISTORY_TYPES:
            self._delivery.append(self._clock() - item.sent)

    def delivery_ms(self) -> dict[str, float]:
        """Median, 95th percentile and worst publish-to-socket time of recent verdicts and calls, ms."""
        values = sorted(self._delivery)
        if not values:
            return {}
        return {"n": len(values), "median": round(values[len(values) // 2] * 1000, 2),
                "p95": round(values[max(0, int(len(values) * 0.95) - 1)] * 1000, 2), "max": round(values[-1] * 1000, 2)}

    def stats(self) -> dict[str, Any]:
        with self._lock:
            return {
                "viewers": len(self._subs),
                "published": self._seq,
                "dropped": sum(s.dropped for s in self._subs) + self.loop_dropped,
                "rejected_frames": self.rejected_frames,
                "commands_dropped": self.commands.dropped,
                "delivery_ms": self.delivery_ms(),
            }


def _jsonable(obj: object) -> Any:
    to_json = getattr(obj, "to_json", None)
    if callable(to_json):
        return to_json()
    code = getattr(obj, "code", None)
    if isinstance(code, str):
        return code
    if isinstance(obj, (tuple, set, frozenset)):
        return list(obj)
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")


def _check_fields(kind: str, body: dict[str, Any]) -> None:
    """The few fields each type must have, so a page never has to guess (docs/web-api.md). Also
    normalises the two spellings the live pipeline uses: a verdict ``kind`` of ``move`` becomes
    ``legal``, a frame's ``size: [w, h]`` becomes ``width``/``height``."""
    if kind == "verdict":
        body["kind"] = VERDICT_ALIASES.get(body.get("kind"), body.get("kind"))  # type: ignore[arg-type]
        if body.get("kind") not in VERDICT_KINDS:
            raise MessageError(f"verdict 'kind' must be one of {VERDICT_KINDS}, got {body.get('kind')!r}")
        if body["kind"] == "illegal" and not (body.get("rule") and body.get("reason")):
            raise MessageError("an illegal verdict needs 'rule' (a RULES.md id) and 'reason'")
    elif kind == "call":
        if not isinstance(body.get("call"), str) or not body["call"]:
            raise MessageError(f"a call message needs 'call' (e.g. {', '.join(CALL_KINDS[:4])})")
    elif kind == "state":
        if not isinstance(body.get("game"), str):
            raise MessageError("a state message needs 'game' (klondike, stress, zenuwen ...)")
    elif kind == "status":
        camera = body.get("camera")
        if camera is not None and not isinstance(camera, str):
            raise MessageError(f"status 'camera' is a word (online, offline, replay ...), got {camera!r}")
    elif kind == "frame":
        size = body.pop("size", None)
        if isinstance(size, (list, tuple)) and len(size) == 2:
            body.setdefault("width", size[0])
            body.setdefault("height", size[1])
        for key in ("width", "height"):
            value = body.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise MessageError(f"a frame message needs '{key}' (pixels) or 'size': [w, h], got {value!r}")
        cards = body.get("cards", [])
        if not isinstance(cards, list):
            raise MessageError("frame 'cards' must be a list of {card, box, ...}")
    t = body.get("t")
    if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t)):
        raise MessageError(f"'t' must be a finite number of seconds, got {t!r}")


__all__ = [
    "CALL_KINDS",
    "Command",
    "CommandQueue",
    "Hub",
    "MESSAGE_TYPES",
    "MessageError",
    "Outgoing",
    "PIPELINE_TYPES",
    "Subscription",
    "VERDICT_KINDS",
]
