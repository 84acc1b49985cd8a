"""The whole path for one table: capture -> detect -> track -> referee (-> log, -> web).

One worker thread pulls frames from :class:`vision.capture.Capture` (which has its own thread and a
bounded queue: a live camera drops old frames when we are slow, a file waits for us), runs the card
detector and the tracker, and hands every published table state to the :class:`~cardref.live.LiveReferee`.
A JPEG of the current frame goes to listeners a few times a second, and every published state
carries its key frame into the game log.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from calibration.store import CalibrationFile
from vision.detections import Detection
from vision.frame_sources import FrameSource
from vision.table_state import TableState

from .live import LiveReferee, Publish

log = logging.getLogger(__name__)

Detect = Callable[[np.ndarray], list[Detection]]
Replay = Callable[[np.ndarray, int], list[Detection]]
"""Detections read from a file (``vision.detection_replay``): the frame's number picks them."""


def encode_jpeg(image: np.ndarray, width: int = 960, quality: int = 80) -> bytes:
    """A JPEG of ``image`` scaled down to ``width`` (key frames and the live picture)."""
    import cv2

    h, w = image.shape[:2]
    if w > width:
        image = cv2.resize(image, (width, int(round(h * width / w))), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("could not encode a JPEG")
    return bytes(buf)


@dataclass
class PipelineStats:
    frames: int = 0
    published: int = 0
    detect_ms: float = 0.0
    started: float = field(default_factory=time.monotonic)

    def to_json(self) -> dict[str, Any]:
        elapsed = max(time.monotonic() - self.started, 1e-6)
        return {
            "frames": self.frames,
            "published_states": self.published,
            "fps": round(self.frames / elapsed, 1),
            "detect_ms": round(self.detect_ms, 1),
        }


class FrameLoop:
    """A source's frames, one at a time, to :meth:`step` (in a worker thread with :meth:`start`): a live
    camera through the capture thread, which drops old frames when we fall behind; a file at its own
    pace when ``realtime``. The camera's status and, a few times a second, the picture go to
    ``publish``. ``source`` is anything :func:`vision.frame_sources.open_source` takes, or a frame
    source itself (the phone page's camera); ``camera_size`` is what a webcam is asked for."""

    def __init__(
        self,
        source: str | FrameSource,
        publish: Publish | None = None,
        picture_every_s: float = 0.25,
        realtime: bool | None = None,
        camera_size: tuple[int, int] | None = None,
    ) -> None:
        self.source_spec = source
        self.camera_size = camera_size
        self.t0 = 0.0
        """Added to every frame's time: a game taken up again goes on from its log's last time."""
        self.publish = publish
        self.picture_every_s = picture_every_s
        self.realtime = realtime
        self.stats = PipelineStats()
        self._source: FrameSource | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_picture = -1e9

    def step(self, image: np.ndarray, t: float, index: int) -> Any:
        raise NotImplementedError

    def run(self) -> PipelineStats:
        """Process the source until it ends or :meth:`stop` is called."""
        from vision.capture import Capture
        from vision.frame_sources import open_source

        spec = self.source_spec
        source = open_source(spec, size=self.camera_size) if isinstance(spec, str) else spec
        self._source = source
        pace_start: float | None = None
        with Capture(source, on_status=self._camera_status) as capture:
            for frame in capture:
                if self._stop.is_set():
                    break
                if self.realtime:
                    # a recorded video played at its own speed, as if a camera were filming the table
                    now = time.monotonic()
                    pace_start = pace_start if pace_start is not None else now - frame.t
                    ahead = pace_start + frame.t - now
                    if ahead > 0:
                        time.sleep(ahead)
                self.step(frame.image, self.t0 + frame.t, frame.index)
            self._send({"type": "status", "camera": "ended", **self.stats.to_json(), **capture.counters.as_dict()})
        return self.stats

    def _picture(self, image: np.ndarray, t: float, detections: list[Detection], width: int = 960) -> bytes | None:
        """The picture (and the cards read in it) to the pages, at most every ``picture_every_s``."""
        if self.publish is None or t - self._last_picture < self.picture_every_s:
            return None
        self._last_picture = t
        picture = encode_jpeg(image, width=width)
        self._send({"type": "frame", "t": t, "jpeg": picture, "size": [image.shape[1], image.shape[0]],
                    "cards": [d.to_json() for d in detections], **self.stats.to_json()})
        return picture

    def start(self) -> "FrameLoop":
        self._thread = threading.Thread(target=self._run_logged, name=f"cardref-{type(self).__name__.lower()}", daemon=True)
        self._thread.start()
        return self

    def _run_logged(self) -> None:
        try:
            self.run()
        except Exception as exc:  # reported, never silent: the referee screen shows it
            log.exception("the %s stopped", type(self).__name__.lower())
            self._send({"type": "status", "camera": "error", "error": str(exc)})

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)

    def _camera_status(self, status: Any) -> None:
        message: dict[str, Any] = {"type": "status", "camera": getattr(status, "value", str(status))}
        got = getattr(self._source, "got", None)
        if got:  # a webcam gives the nearest size it has to what it was asked for: say which
            message["frame_size"] = list(got)
        self._send(message)

    def _send(self, message: dict[str, Any]) -> None:
        if self.publish is not None:
            try:
                self.publish(message)
            except Exception:
                log.exception("publishing a pipeline message failed")


class Preview(FrameLoop):
    """Only the picture: what the pages show while the table is not calibrated yet (the set-up page
    calibrates from it) and between games."""

    def step(self, image: np.ndarray, t: float, index: int) -> None:
        self.stats.frames += 1
        # at the camera's own resolution: the set-up page finds the markers in this picture
        self._picture(image, t, [], width=image.shape[1])


class Pipeline(FrameLoop):
    """Runs one table: detection, tracking and the referee on every frame (see the module doc)."""

    def __init__(
        self,
        source: str | FrameSource,
        calibration: CalibrationFile,
        referee: LiveReferee,
        detect: Detect | None = None,
        publish: Publish | None = None,
        picture_every_s: float = 0.25,
        realtime: bool | None = None,
        replay: Replay | None = None,
        watch_slaps: bool = True,
        detector_weights: str | None = None,
        camera_size: tuple[int, int] | None = None,
        on_detections: Callable[[int, list[Detection]], None] | None = None,
    ) -> None:
        from vision.reach import ReachWatch
        from vision.tracking import TableTracker, TrackerSettings

        super().__init__(source, publish, picture_every_s, realtime, camera_size)
        self.calibration = calibration
        self.referee = referee
        self._detect = detect
        self._weights = detector_weights
        self._replay = replay
        self._on_detections = on_detections
        """Gets each frame's number and detections (``cardref analyze --detections-out``)."""
        rules = referee.rules
        table = referee.follower.layout_game  # Double Solitaire is laid out as Klondike for two
        layout = calibration.layout_for(table, getattr(rules, "players", None), getattr(rules, "columns", None))
        # Stress and Zenuwen publish zone by zone and some tables hold two decks: per-game defaults.
        settings = TrackerSettings.for_game(table, layout.players)
        self.tracker = TableTracker(layout, calibration.homography(), settings)
        # whose hand reaches a centre pile first after a stress call: the camera's slaps (Stress S8)
        self.reach = ReachWatch(calibration.homography(), layout) if watch_slaps and "slap" in referee.follower.inputs else None
        self._quick_zones = referee.follower.quick_zones
        self._last_glimpse: Any = None
        self._slap_key: object = None
        self.states: list[TableState] = []
        self._size_seen: tuple[int, int] | None = None

    @property
    def detect(self) -> Detect:
        if self._detect is None:
            from vision.fine_regions import TableDetector

            # the shipped detector (or other weights), looking closer where this table's far cards are small
            self._detect = TableDetector(self.tracker.homography, self.tracker.layout, detector=self._weights)
        return self._detect

    def step(self, image: np.ndarray, t: float, index: int) -> TableState | None:
        """One frame through detection, tracking and (when a state is published) the referee."""
        size = (image.shape[1], image.shape[0])
        if size != self._size_seen:
            # a camera's frame size is known only now: piles it films too coarsely are said once
            self._size_seen = size
            coarse = self.tracker.layout.coarse_warning(self.tracker.homography.for_image_size(size), size)
            self._send({"type": "status", "warning": coarse or ""})
        started = time.perf_counter()
        detections = self._replay(image, index) if self._replay is not None else self.detect(image)
        self.stats.detect_ms = (time.perf_counter() - started) * 1000
        if self._on_detections is not None:
            self._on_detections(index, detections)
        self.stats.frames += 1
        table = self.tracker.update(t, index, detections, image=image)
        picture = self._picture(image, t, detections)
        if table is not None:
            self.stats.published += 1
            self.states.append(table)
            self.referee.feed(table, jpeg=picture or encode_jpeg(image))
            self._last_glimpse = None  # the referee moved on: a look it refused may now make the call
        elif (clearer := self.tracker.filter.take_clearer()) is not None:
            # the same table with hands gone from zones that were held: the referee may have been waiting for them
            self.referee.feed(clearer, jpeg=picture or encode_jpeg(image))
            self._last_glimpse = None
        else:
            self.referee.tick(t)  # a view left waiting on a table quiet since is concluded
            if self._quick_zones:
                self._glimpse(image, picture)
        if self.reach is not None:
            self._watch_slaps(image, t)
        return table

    def _glimpse(self, image: np.ndarray, picture: bytes | None) -> None:
        """The follower's quick zones looked at before they settle (a stress call must not wait for the
        playing hand to refill its row); the referee takes the look only if it makes a quick call."""
        partial = self.tracker.filter.glimpse(self._quick_zones)
        key = partial.key() if partial is not None else None
        if partial is None or key == self._last_glimpse:
            return
        self._last_glimpse = key
        self.referee.glimpse(partial, jpeg=picture or encode_jpeg(image))

    def _watch_slaps(self, image: np.ndarray, t: float) -> None:
        """While the game awaits slaps, each player's first hand on a centre pile is their slap. Seat
        ``pN`` is player ``N-1``, ``centreK`` pile ``K-1`` (calibration.templates)."""
        assert self.reach is not None
        awaited = self.referee.slappers()
        if not awaited:
            self.reach.disarm()
            return
        key = self.referee.slap_key()
        if not self.reach.armed or key != self._slap_key:
            # a stress called, or centre tops nobody read that may match: whose hands reach them from now
            self.reach.arm(t, {p + 1 for p in awaited})
            self._slap_key = key
        for reach in self.reach.update(image, t):
            # (a player who slapped by key press meanwhile is no longer awaited: the referee passes it over)
            self.referee.seen_slap(reach.seat - 1, reach.t, int(reach.zone.removeprefix("centre")) - 1)
