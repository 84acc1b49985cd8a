"""Where frames come from: a USB webcam, a video file, a folder of images, a network stream.

All four answer one small interface (:class:`FrameSource`): ``open``, ``read`` -> :class:`Read`,
``close``. A read says what happened (:class:`ReadStatus`), so the capture loop can tell a frame that
could not be decoded (skip and count) from a file that ended (stop) from a camera that went away
(reconnect). Timestamps: a file's own clock (video position, or index / fps for an image folder); a live
source's time since it was first opened, which keeps running across reconnects.
"""

from __future__ import annotations

import enum
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
WEBCAM_SIZE = (1920, 1080)
"""What a webcam is asked for unless told otherwise (:class:`LiveSource`)."""


class SourceError(OSError):
    """A source that cannot be opened (no such camera, file or stream)."""


class ReadStatus(enum.Enum):
    FRAME = "frame"
    """A decoded frame."""
    CORRUPT = "corrupt"
    """Something came but could not be decoded: skip it and count it."""
    END = "end"
    """A file or folder has no more frames."""
    LOST = "lost"
    """A live source stopped giving frames: reconnect."""


@dataclass(frozen=True, slots=True)
class Read:
    status: ReadStatus
    image: Image | None = None
    t: float | None = None
    index: int | None = None
    """The frame's number among the source's decoded frames, from a source that passes frames over
    (:class:`ThinnedSource`), so that frame numbers still name the video's frames; None: the next."""


@dataclass(frozen=True, slots=True)
class Frame:
    """A decoded frame, its time in seconds on the source's clock, and its number (decoded frames only)."""

    image: Image
    t: float
    index: int


class FrameSource(Protocol):
    name: str
    live: bool
    """Live sources run at the camera's pace: when the consumer is slow, old frames are dropped."""

    def open(self) -> None: ...

    def read(self) -> Read: ...

    def close(self) -> None: ...


def _capture(target: Any, api: int | None = None) -> Any:
    import cv2

    cap = cv2.VideoCapture(target) if api is None else cv2.VideoCapture(target, api)
    if not cap.isOpened():
        cap.release()
        raise SourceError(f"cannot open {target!r}")
    return cap


class VideoFileSource:
    """A video file, read at its own pace; timestamps from the file.

    Opening decodes the first frame (kept for the first :meth:`read`): a file that is no video, or
    whose codec this OpenCV lacks, fails when it is opened, with a clear :class:`SourceError`, rather
    than looking like a video without frames."""

    live = False

    def __init__(self, path: str | Path, max_failures_in_a_row: int = 50) -> None:
        self.path = Path(path)
        self.name = str(path)
        self.max_failures = max_failures_in_a_row
        self._cap: Any = None
        self._fps = 30.0
        self._count = -1
        self._failures = 0
        self._read = 0
        self._first: list[Read] = []
        self.frame_size: tuple[int, int] | None = None
        """(width, height) of the first frame, once opened (kept after closing)."""

    def open(self) -> None:
        import cv2

        if not self.path.is_file():
            raise SourceError(f"no video file {self.name!r}")
        try:
            self._cap = _capture(str(self.path))
        except SourceError:
            raise SourceError(f"{self.name!r} is no video file OpenCV can read") from None
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self._fps = fps if 0.0 < fps < 1000.0 else 30.0
        self._count = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or -1)
        self._failures = self._read = 0
        self._first = []
        while not self._first or self._first[-1].status is ReadStatus.CORRUPT:
            self._first.append(self._decode())
        if self._first[-1].status is ReadStatus.END:
            self.close()
            raise SourceError(f"no frame could be decoded from {self.name!r}: not a video, or damaged")
        image = self._first[-1].image
        assert image is not None
        self.frame_size = (int(image.shape[1]), int(image.shape[0]))
        self._first.reverse()  # popped from the end: in the order they were read

    def read(self) -> Read:
        if self._first:
            return self._first.pop()
        if self._cap is None:
            return Read(ReadStatus.END)
        return self._decode()

    def _decode(self) -> Read:
        import cv2

        ok, image = self._cap.read()
        if ok and image is not None:
            self._failures = 0
            pos_ms = float(self._cap.get(cv2.CAP_PROP_POS_MSEC))
            t = _clock(pos_ms / 1000.0 if pos_ms > 0 or self._read == 0 else self._read / self._fps)
            self._read += 1
            return Read(ReadStatus.FRAME, image, t)
        position = int(self._cap.get(cv2.CAP_PROP_POS_FRAMES))
        self._failures += 1
        if 0 <= position < self._count - 1 and self._failures <= self.max_failures:
            self._cap.grab()
            return Read(ReadStatus.CORRUPT)
        return Read(ReadStatus.END)

    def close(self) -> None:
        self._first = []
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ImageFolderSource:
    """The images of a folder in name order, at ``fps`` (timestamps index / fps)."""

    live = False

    def __init__(self, folder: str | Path, fps: float = 30.0) -> None:
        self.folder = Path(folder)
        self.name = str(folder)
        self.fps = fps
        self._files: list[Path] = []
        self._next = 0

    def open(self) -> None:
        if not self.folder.is_dir():
            raise SourceError(f"no image folder {self.name!r}")
        self._files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        self._next = 0

    def read(self) -> Read:
        import cv2

        if self._next >= len(self._files):
            return Read(ReadStatus.END)
        path = self._files[self._next]
        t = _clock(self._next / self.fps)
        self._next += 1
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            return Read(ReadStatus.CORRUPT, t=t)
        return Read(ReadStatus.FRAME, np.asarray(image, dtype=np.uint8), t)

    def close(self) -> None:
        self._files = []


class LiveSource:
    """A USB webcam (an index) or a network stream (RTSP / HTTP / MJPEG URL); times since first open.

    A webcam is asked for ``size`` (default 1920x1080, in MJPEG, which USB webcams deliver at full
    rate where raw frames would not fit the bus): OpenCV otherwise opens most webcams at 640x480,
    and a far seat's corner indices need every pixel (at 1280x720 they are 6-9 px high from a
    camera at the side of a four-player table). The camera gives the nearest size it has;
    :attr:`got` says which. A stream comes at the size its sender chose."""

    live = True

    def __init__(self, target: int | str, width: int | None = None, height: int | None = None) -> None:
        self.target = target
        self.name = f"camera {target}" if isinstance(target, int) else _hide_password(str(target))
        if isinstance(target, int) and not (width and height):
            width, height = WEBCAM_SIZE
        self.size = (width, height)
        self.got: tuple[int, int] | None = None
        """The frame size the camera agreed to (read back after opening)."""
        self._cap: Any = None
        self._t0: float | None = None

    def open(self) -> None:
        import cv2

        api = cv2.CAP_FFMPEG if isinstance(self.target, str) else None
        self._cap = _capture(self.target, api)
        if isinstance(self.target, int) and self.size[0] and self.size[1]:
            self._cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        w, h = int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0), int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
        self.got = (w, h) if w and h else None
        if self._t0 is None:
            self._t0 = time.monotonic()

    def read(self) -> Read:
        if self._cap is None:
            return Read(ReadStatus.LOST)
        ok, image = self._cap.read()
        t = time.monotonic() - (self._t0 or 0.0)
        if not ok or image is None:
            return Read(ReadStatus.LOST, t=t)
        return Read(ReadStatus.FRAME, image, t)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ThinnedSource:
    """A recorded source read at no more than ``max_fps`` frames per second of its own clock: the
    frames between are read and passed over (:attr:`thinned` counts them). A phone records at 30 fps
    where the referee needs a view every 70-100 ms (a card at rest is published after ``settle_s``,
    whatever the frame rate), and the detector costs 40-110 ms a frame: ``cardref analyze`` of a
    30 fps video would spend two thirds of its time on frames that change nothing. The frames kept
    lie on a grid of 1 / ``max_fps`` from the first one, so a 25 fps video thinned to 10 gives 10 a
    second, not every third frame. Live sources are never thinned: they drop frames when behind."""

    def __init__(self, source: FrameSource, max_fps: float) -> None:
        if source.live:
            raise ValueError("a live source drops frames by itself; only recorded ones are thinned")
        if not 0 < max_fps < float("inf"):
            raise ValueError(f"max_fps must be above 0 and finite, got {max_fps}")
        self.source = source
        self.name = source.name
        self.live = False
        self.period = 1.0 / max_fps
        self.thinned = 0
        self._slack = min(0.002, 0.25 * self.period)  # a file's clock rounds to the millisecond
        self._due: float | None = None
        self._decoded = 0

    @property
    def frame_size(self) -> tuple[int, int] | None:
        size: tuple[int, int] | None = getattr(self.source, "frame_size", None)
        return size

    def open(self) -> None:
        self.source.open()
        self._due = None
        self._decoded = 0

    def read(self) -> Read:
        while True:
            read = self.source.read()
            if read.status is not ReadStatus.FRAME or read.t is None:
                return read
            index = self._decoded
            self._decoded += 1
            if self._due is None or read.t >= self._due - self._slack:
                if self._due is None:
                    self._due = read.t
                while self._due <= read.t + self._slack:
                    self._due += self.period
                return Read(read.status, read.image, read.t, index)
            self.thinned += 1

    def close(self) -> None:
        self.source.close()


def _hide_password(url: str) -> str:
    return re.sub(r"//([^:/@]+):[^@/]*@", r"//\1:***@", url)


def open_source(spec: str, fps: float = 30.0, size: tuple[int, int] | None = None) -> FrameSource:
    """A source from a command-line spelling: ``0`` (webcam index), a URL, a folder or a video file.
    ``size``: what a webcam is asked for (default :data:`WEBCAM_SIZE`)."""
    if re.fullmatch(r"\d+", spec):
        return LiveSource(int(spec), *(size or (None, None)))
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", spec):
        return LiveSource(spec)
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, fps)
    if path.is_file():
        return VideoFileSource(path)
    raise SourceError(f"{spec!r} is no camera index, URL, folder or video file")


def checked_source(spec: str, fps: float = 30.0, size: tuple[int, int] | None = None,
                   max_fps: float | None = None) -> FrameSource:
    """:func:`open_source`, with a recorded source opened once and closed again, so that a file that is
    no video fails here, before a command has written anything. A camera is not tried: it may be
    unplugged now and come back (the capture thread reconnects). ``max_fps``: a recorded source is
    read at no more than that (:class:`ThinnedSource`); a live one drops frames by itself."""
    if max_fps is not None and not 0 < max_fps < float("inf"):
        raise SourceError(f"frames per second must be above 0 and finite, got {max_fps:g}")
    source = open_source(spec, fps, size)
    if not source.live:
        source.open()
        source.close()
        if max_fps is not None:
            return ThinnedSource(source, max_fps)
    return source


def parse_size(text: str) -> tuple[int, int]:
    """``1920x1080`` -> (1920, 1080); a clear error otherwise."""
    m = re.fullmatch(r"\s*(\d{2,5})\s*[xX]\s*(\d{2,5})\s*", text)
    if not m:
        raise ValueError(f"a frame size looks like 1920x1080, got {text!r}")
    return int(m.group(1)), int(m.group(2))


def _clock(t: float) -> float:
    """A file's timestamp to the microsecond: 300 ms is 0.3 s, not the 0.30000000000000004 that the
    division makes, in every state, verdict and game log that carries it."""
    return round(t, 6)
