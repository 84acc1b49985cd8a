"""The capture thread: frames from a :class:`FrameSource` into a small bounded queue, with a watchdog.

Like Frigate's ``capture_frames``: when the consumer is slower than a live camera, the oldest waiting
frame is dropped and counted, so the consumer always gets recent frames and never falls behind. Files
are not dropped (the reader waits for the consumer), so every frame of a video is processed.
A live camera that disappears is reported offline and reopened every ``reconnect_interval_s`` while
the consumer keeps its game; frames that cannot be decoded are skipped and counted.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from pydantic import BaseModel, ConfigDict, Field

from vision.frame_sources import Frame, FrameSource, ReadStatus, SourceError
from vision.watchdog import Action, CameraStatus, Health, StatusReporter, decide, judge


class CaptureSettings(BaseModel):
    """How the capture thread buffers and reconnects."""

    model_config = ConfigDict(extra="forbid", title="capture")

    queue_size: int = Field(default=2, ge=1, le=256, title="queue size", description="frames waiting for the consumer")
    drop_oldest: bool | None = Field(
        default=None, title="drop when full", description="null: drop for live sources, wait for files"
    )
    reconnect_interval_s: float = Field(default=2.0, gt=0, le=600, title="reconnect interval")
    stale_after_s: float = Field(default=5.0, gt=0, le=600, title="offline after", description="no live frame for this long")
    watchdog_period_s: float = Field(default=0.5, gt=0, le=60, title="watchdog period")


@dataclass
class CaptureCounters:
    frames: int = 0
    """Frames handed to the queue."""
    corrupt: int = 0
    """Frames that could not be decoded, skipped."""
    dropped: int = 0
    """Frames dropped because the consumer was slow (live sources only)."""
    reconnects: int = 0
    """Times the source was reopened after it was lost."""
    restarts: int = 0
    """Times the watchdog replaced a dead or stuck worker."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, name: str, n: int = 1) -> None:
        with self._lock:
            setattr(self, name, getattr(self, name) + n)

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in ("frames", "corrupt", "dropped", "reconnects", "restarts")}


_END = None


class Capture:
    """Runs a source in a thread; iterate it (or call :meth:`get`) for frames."""

    def __init__(
        self,
        source: FrameSource,
        settings: CaptureSettings | None = None,
        on_status: Callable[[CameraStatus], None] | None = None,
    ) -> None:
        self.source = source
        self.settings = settings or CaptureSettings()
        self.counters = CaptureCounters()
        self._drop = source.live if self.settings.drop_oldest is None else self.settings.drop_oldest
        self._queue: queue.Queue[Frame | None] = queue.Queue(maxsize=self.settings.queue_size)
        self._reporter = StatusReporter(on_status)
        self._report_lock = threading.Lock()
        self._stop = threading.Event()
        self._ended = threading.Event()
        self._generation = 0
        self._worker: threading.Thread | None = None
        self._watchdog: threading.Thread | None = None
        self._last_frame_at: float | None = None
        self._worker_started = 0.0
        self._last_restart = 0.0
        self._index = 0
        self.error: SourceError | None = None
        """Why a recorded source ended before its end (it could not be opened or decoded): raised to
        the consumer when it reaches the end, so a file that is no video is an error, not an empty run."""

    # -- public -------------------------------------------------------------------------------
    @property
    def status(self) -> CameraStatus:
        return self._reporter.status

    @property
    def status_history(self) -> list[CameraStatus]:
        return list(self._reporter.history)

    def start(self) -> "Capture":
        self._start_worker()
        self._watchdog = threading.Thread(target=self._watch, name="capture-watchdog", daemon=True)
        self._watchdog.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for t in (self._worker, self._watchdog):
            if t is not None and t is not threading.current_thread():
                t.join(timeout=2.0)
        try:
            self.source.close()
        except Exception:  # noqa: BLE001 - closing a broken camera must not raise on shutdown
            pass

    def get(self, timeout: float | None = None) -> Frame | None:
        """The next frame; ``None`` when the source ended (or on timeout). Raises :attr:`error` at the
        end of a recorded source that failed."""
        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if item is _END:
            self._ended.set()
            self._queue.put_nowait(_END)  # later callers see the end too
            if self.error is not None:
                raise self.error
        return item

    def __iter__(self) -> Iterator[Frame]:
        while not self._stop.is_set():
            frame = self.get(timeout=0.2)
            if frame is not None:
                yield frame
            elif self._ended.is_set():
                return

    def __enter__(self) -> "Capture":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- worker -------------------------------------------------------------------------------
    def _start_worker(self) -> None:
        self._generation += 1
        self._worker_started = time.monotonic()
        self._last_frame_at = None
        gen = self._generation
        self._worker = threading.Thread(target=self._run, args=(gen,), name=f"capture-{gen}", daemon=True)
        self._worker.start()

    def _current(self, gen: int) -> bool:
        return gen == self._generation and not self._stop.is_set()

    def _report(self, status: CameraStatus) -> None:
        with self._report_lock:
            if self._reporter.status is not CameraStatus.ENDED:
                self._reporter.report(status)

    def _open(self, gen: int) -> bool:
        """Open the source, retrying every reconnect interval; False when stopped meanwhile."""
        while self._current(gen):
            try:
                self.source.open()
                return True
            except SourceError:
                if not self.source.live:
                    raise
                self._report(CameraStatus.OFFLINE)
                self._stop.wait(self.settings.reconnect_interval_s)
        return False

    def _run(self, gen: int) -> None:
        try:
            if not self._open(gen):
                return
            while self._current(gen):
                read = self.source.read()
                if not self._current(gen):
                    return
                if read.status is ReadStatus.FRAME and read.image is not None:
                    self._last_frame_at = time.monotonic()
                    self._report(CameraStatus.ONLINE)
                    index = self._index if read.index is None else read.index
                    self._push(Frame(read.image, float(read.t or 0.0), index), gen)
                    self._index = index + 1
                elif read.status is ReadStatus.CORRUPT:
                    self.counters.add("corrupt")
                elif read.status is ReadStatus.END:
                    self._finish()
                    return
                else:
                    self._lost(gen)
                    if not self._open(gen):
                        return
        except SourceError as exc:
            self.error = exc
            self._finish()

    def _lost(self, gen: int) -> None:
        self._report(CameraStatus.OFFLINE)
        self.source.close()
        self.counters.add("reconnects")
        self._stop.wait(self.settings.reconnect_interval_s)

    def _finish(self) -> None:
        self._report(CameraStatus.ENDED)
        if self._drop:
            self._put_dropping(_END)
            return
        while not self._stop.is_set():
            try:
                self._queue.put(_END, timeout=0.1)
                return
            except queue.Full:
                continue

    def _push(self, frame: Frame, gen: int) -> None:
        if self._drop:
            self._put_dropping(frame)
        else:
            while self._current(gen):
                try:
                    self._queue.put(frame, timeout=0.1)
                    break
                except queue.Full:
                    continue
        self.counters.add("frames")

    def _put_dropping(self, item: Frame | None) -> None:
        while True:
            try:
                self._queue.put_nowait(item)
                return
            except queue.Full:
                try:
                    old = self._queue.get_nowait()
                    if old is not None:
                        self.counters.add("dropped")
                except queue.Empty:
                    pass

    # -- watchdog -----------------------------------------------------------------------------
    def _health(self) -> Health:
        alive = self._worker is not None and self._worker.is_alive()
        ended = self._reporter.status is CameraStatus.ENDED
        last = self._last_frame_at
        if not self.source.live:
            last = time.monotonic()  # files wait for the consumer; they are never stale
        return Health(alive, ended, last, self._worker_started)

    def _watch(self) -> None:
        s = self.settings
        while not self._stop.wait(s.watchdog_period_s):
            now = time.monotonic()
            health = self._health()
            if health.ended:
                return
            status = judge(health, now, s.stale_after_s)
            if status is CameraStatus.OFFLINE:
                self._report(status)
            if self.source.live and decide(health, now, s.stale_after_s, self._last_restart, s.reconnect_interval_s) is Action.RESTART:
                self._restart(now)

    def _restart(self, now: float) -> None:
        self._last_restart = now
        self.counters.add("restarts")
        self._generation += 1  # the old worker stops at its next step
        try:
            self.source.close()
        except Exception:  # noqa: BLE001 - a stuck camera may fail to close; the new worker reopens it
            pass
        self._start_worker()
