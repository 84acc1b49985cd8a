"""A phone as the table camera: the phone page sends JPEG frames from the browser; this is the
:class:`vision.frame_sources.FrameSource` the capture thread reads them from.

The pages push frames (``POST /api/camera/frame`` or the ``/ws/camera`` WebSocket); :meth:`put`
keeps only the newest few (a slow consumer drops the oldest, counted, as the capture thread does)
and never blocks the web server. :meth:`read` waits up to ``timeout`` for a frame and reports
``LOST`` when none came, so the camera watchdog treats a phone that went away like a lost webcam.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

JPEG_MAGIC = b"\xff\xd8"


class FrameTooLarge(ValueError):
    pass


class PhoneCamera:
    """Frames from the phone page, newest kept; also a ``FrameSource`` (``name``, ``live``, ``open``,
    ``read``, ``close``)."""

    name = "phone camera (browser)"
    live = True

    def __init__(self, *, max_bytes: int = 2_000_000, keep: int = 2, timeout: float = 2.0) -> None:
        self.max_bytes = max_bytes
        self.timeout = timeout
        self._frames: deque[tuple[float, bytes]] = deque(maxlen=keep)
        self._cond = threading.Condition()
        self._t0 = time.monotonic()
        self.received = 0
        self.dropped = 0
        self.rejected = 0
        self.corrupt = 0
        self.last_at: float | None = None
        self._recent: deque[float] = deque(maxlen=30)

    # -- the web side -------------------------------------------------------------------------------

    def put(self, jpeg: bytes) -> None:
        """Accept one JPEG from the phone; :class:`FrameTooLarge` / :class:`ValueError` if refused."""
        if len(jpeg) > self.max_bytes:
            self.rejected += 1
            raise FrameTooLarge(f"frame of {len(jpeg)} bytes is over the limit of {self.max_bytes}")
        if jpeg[:2] != JPEG_MAGIC:
            self.rejected += 1
            raise ValueError("a camera frame must be JPEG data")
        now = time.monotonic()
        with self._cond:
            if len(self._frames) == self._frames.maxlen:
                self.dropped += 1
            self._frames.append((now - self._t0, bytes(jpeg)))
            self.received += 1
            self.last_at = time.time()
            self._recent.append(now)
            self._cond.notify()

    def latest_jpeg(self) -> bytes | None:
        with self._cond:
            return self._frames[-1][1] if self._frames else None

    def status(self) -> dict[str, Any]:
        with self._cond:
            recent = list(self._recent)
        fps = (len(recent) - 1) / (recent[-1] - recent[0]) if len(recent) > 1 and recent[-1] > recent[0] else 0.0
        return {"received": self.received, "dropped": self.dropped, "rejected": self.rejected,
                "corrupt": self.corrupt, "fps": round(fps, 2), "last_at": self.last_at}

    # -- the FrameSource side ----------------------------------------------------------------------

    def open(self) -> None:
        return None

    def read(self) -> Any:
        from vision.frame_sources import Read, ReadStatus

        with self._cond:
            if not self._frames:
                self._cond.wait(self.timeout)
            if not self._frames:
                return Read(ReadStatus.LOST, t=time.monotonic() - self._t0)
            t, jpeg = self._frames.popleft()
        import cv2
        import numpy as np

        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            self.corrupt += 1
            return Read(ReadStatus.CORRUPT, t=t)
        return Read(ReadStatus.FRAME, np.asarray(image, dtype=np.uint8), t)

    def close(self) -> None:
        return None
