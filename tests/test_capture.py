"""Capture: every source kind behind one interface, corrupt frames skipped and counted, a lost camera
reconnected without losing the consumer, slow consumers dropping the oldest frame."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.capture import Capture, CaptureSettings
from vision.frame_sources import (
    ImageFolderSource,
    LiveSource,
    Read,
    ReadStatus,
    SourceError,
    VideoFileSource,
    open_source,
)
from vision.watchdog import Action, CameraStatus, Health, StatusReporter, decide, is_stale, judge

FAST = CaptureSettings(reconnect_interval_s=0.05, stale_after_s=0.3, watchdog_period_s=0.05)


def _numbered(i: int, size: tuple[int, int] = (64, 48)) -> np.ndarray:
    """A frame whose gray level encodes its number (survives MJPEG)."""
    return np.full((size[1], size[0], 3), (i * 20) % 250, np.uint8)


def _level(frame: np.ndarray) -> int:
    return int(round(float(frame.mean()) / 20.0))


@pytest.fixture()
def video(tmp_path: Path) -> Path:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    for i in range(10):
        writer.write(_numbered(i))
    writer.release()
    return path


def test_video_file_every_frame_in_order_with_file_timestamps(video: Path) -> None:
    with Capture(VideoFileSource(video), CaptureSettings(queue_size=1)) as cap:
        frames = list(cap)
    assert [f.index for f in frames] == list(range(10))
    assert [_level(f.image) for f in frames] == list(range(10))
    assert [round(f.t, 3) for f in frames] == [round(i / 10.0, 3) for i in range(10)]
    assert cap.counters.dropped == 0
    assert cap.status is CameraStatus.ENDED


def test_image_folder_skips_and_counts_corrupt_files(tmp_path: Path) -> None:
    for i in range(6):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), _numbered(i))
    (tmp_path / "f002.png").write_bytes(b"\x89PNG not really")
    (tmp_path / "f004.png").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("not an image")
    with Capture(ImageFolderSource(tmp_path, fps=5.0)) as cap:
        frames = list(cap)
    assert [_level(f.image) for f in frames] == [0, 1, 3, 5]
    assert [f.t for f in frames] == [0.0, 0.2, 0.6, 1.0]
    assert cap.counters.corrupt == 2
    assert cap.counters.frames == 4


def test_open_source_picks_the_kind(tmp_path: Path, video: Path) -> None:
    assert isinstance(open_source("0"), LiveSource)
    assert isinstance(open_source("rtsp://user:secret@phone.local:8554/live"), LiveSource)
    assert "secret" not in open_source("http://user:secret@10.0.0.2:8080/video").name
    assert isinstance(open_source(str(tmp_path)), ImageFolderSource)
    assert isinstance(open_source(str(video)), VideoFileSource)
    with pytest.raises(SourceError):
        open_source(str(tmp_path / "missing.mp4"))


def test_video_file_that_does_not_exist_ends_the_capture(tmp_path: Path) -> None:
    with Capture(VideoFileSource(tmp_path / "nope.avi")) as cap:
        assert list(cap) == []
    assert cap.status is CameraStatus.ENDED


class FlakyCamera:
    """A live camera that gives ``per_life`` frames, then is unplugged; it cannot be opened for the next
    ``dead_opens`` tries, then comes back. Frames carry a running number."""

    live = True
    name = "flaky"

    def __init__(self, per_life: int, lives: int, dead_opens: int = 2, corrupt_every: int = 0) -> None:
        self.per_life, self.lives, self.dead_opens = per_life, lives, dead_opens
        self.corrupt_every = corrupt_every
        self.opens = self.failed_opens = 0
        self.given = 0
        self._left = 0
        self._dead_left = 0
        self._reads = 0

    def open(self) -> None:
        if self._dead_left > 0:
            self._dead_left -= 1
            self.failed_opens += 1
            raise SourceError("unplugged")
        self.opens += 1
        self._left = self.per_life if self.opens <= self.lives else 10**9

    def read(self) -> Read:
        time.sleep(0.002)
        if self._left <= 0:
            self._dead_left = self.dead_opens
            return Read(ReadStatus.LOST)
        self._reads += 1
        if self.corrupt_every and self._reads % self.corrupt_every == 0:
            return Read(ReadStatus.CORRUPT)
        self._left -= 1
        self.given += 1
        return Read(ReadStatus.FRAME, _numbered(self.given), float(self.given))

    def close(self) -> None:
        pass


def test_camera_unplugged_mid_stream_is_reported_and_reconnected() -> None:
    camera = FlakyCamera(per_life=5, lives=2, dead_opens=2)
    seen: list[CameraStatus] = []
    cap = Capture(camera, FAST.model_copy(update={"queue_size": 64}), on_status=seen.append).start()
    got = []
    deadline = time.monotonic() + 5.0
    while len(got) < 14 and time.monotonic() < deadline:
        frame = cap.get(timeout=0.1)
        if frame is not None:
            got.append(frame)
    cap.stop()
    assert len(got) == 14
    assert [f.index for f in got] == list(range(14))  # numbering goes on across reconnects
    assert cap.counters.reconnects == 2
    assert camera.failed_opens == 4
    assert seen[:5] == [CameraStatus.ONLINE, CameraStatus.OFFLINE, CameraStatus.ONLINE,
                        CameraStatus.OFFLINE, CameraStatus.ONLINE]


def test_corrupt_live_frames_are_counted_not_fatal() -> None:
    camera = FlakyCamera(per_life=10**9, lives=1, corrupt_every=4)
    cap = Capture(camera, FAST.model_copy(update={"queue_size": 64})).start()
    got = [cap.get(timeout=1.0) for _ in range(9)]
    cap.stop()
    assert all(f is not None for f in got)
    assert cap.counters.corrupt >= 2


class StuckCamera(FlakyCamera):
    """Hangs in ``read`` once (a frozen USB driver), until closed."""

    def __init__(self) -> None:
        super().__init__(per_life=10**9, lives=1)
        self.hang = threading.Event()
        self.released = threading.Event()
        self.hung_once = False

    def read(self) -> Read:
        if self.given == 3 and not self.hung_once:
            self.hung_once = True
            self.released.wait(5.0)
            return Read(ReadStatus.LOST)
        return super().read()

    def close(self) -> None:
        self.released.set()


def test_watchdog_replaces_a_stuck_worker() -> None:
    camera = StuckCamera()
    cap = Capture(camera, FAST.model_copy(update={"queue_size": 64})).start()
    got = []
    deadline = time.monotonic() + 5.0
    while len(got) < 8 and time.monotonic() < deadline:
        frame = cap.get(timeout=0.1)
        if frame is not None:
            got.append(frame)
    cap.stop()
    assert len(got) == 8
    assert cap.counters.restarts >= 1
    assert CameraStatus.OFFLINE in cap.status_history


def test_slow_consumer_gets_recent_frames_and_drops_are_counted() -> None:
    camera = FlakyCamera(per_life=10**9, lives=1)
    cap = Capture(camera, FAST.model_copy(update={"queue_size": 2})).start()
    time.sleep(0.3)
    frame = cap.get(timeout=1.0)
    cap.stop()
    assert frame is not None
    assert cap.counters.dropped > 10
    assert frame.index >= cap.counters.frames - 4


def test_watchdog_decisions() -> None:
    fresh = Health(worker_alive=True, ended=False, last_frame_at=10.0, started_at=0.0)
    assert judge(fresh, 11.0, 5.0) is CameraStatus.ONLINE
    assert is_stale(fresh, 16.0, 5.0)
    assert judge(fresh, 16.0, 5.0) is CameraStatus.OFFLINE
    assert decide(fresh, 16.0, 5.0, last_restart=15.0, reconnect_interval_s=2.0) is Action.NONE
    assert decide(fresh, 16.0, 5.0, last_restart=10.0, reconnect_interval_s=2.0) is Action.RESTART
    dead = Health(worker_alive=False, ended=False, last_frame_at=10.0, started_at=0.0)
    assert judge(dead, 10.5, 5.0) is CameraStatus.OFFLINE
    ended = Health(worker_alive=False, ended=True, last_frame_at=10.0, started_at=0.0)
    assert decide(ended, 100.0, 5.0, 0.0, 2.0) is Action.NONE
    waiting = Health(worker_alive=True, ended=False, last_frame_at=None, started_at=0.0)
    assert judge(waiting, 1.0, 5.0) is CameraStatus.STARTING

    calls: list[CameraStatus] = []
    reporter = StatusReporter(calls.append)
    for s in (CameraStatus.ONLINE, CameraStatus.ONLINE, CameraStatus.OFFLINE, CameraStatus.OFFLINE):
        reporter.report(s)
    assert calls == [CameraStatus.ONLINE, CameraStatus.OFFLINE]


def test_settings_forbid_unknown_fields() -> None:
    with pytest.raises(ValueError):
        CaptureSettings(queue_sise=3)  # type: ignore[call-arg]


def test_network_mjpeg_stream_that_drops_is_reconnected() -> None:
    """A phone-camera style HTTP MJPEG stream whose server hangs up after ten frames, every time."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Phone(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server name
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            for i in range(10):
                jpg = cv2.imencode(".jpg", _numbered(i))[1].tobytes()
                try:
                    self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                                     + str(len(jpg)).encode() + b"\r\n\r\n" + jpg + b"\r\n")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.01)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Phone)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/video"
    source = open_source(url)
    assert isinstance(source, LiveSource)
    cap = Capture(source, FAST.model_copy(update={"queue_size": 64, "stale_after_s": 5.0})).start()
    got = []
    deadline = time.monotonic() + 20.0
    while len(got) < 25 and time.monotonic() < deadline:
        frame = cap.get(timeout=0.2)
        if frame is not None:
            got.append(frame)
    cap.stop()
    server.shutdown()
    assert len(got) >= 25
    assert cap.counters.reconnects >= 2
    assert all(b.t >= a.t for a, b in zip(got, got[1:]))  # one clock across reconnects
    assert [f.index for f in got] == list(range(len(got)))
