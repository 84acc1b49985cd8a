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
    ThinnedSource,
    VideoFileSource,
    checked_source,
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


def _thirty_fps(tmp_path: Path, frames: int = 30) -> Path:
    path = tmp_path / "phone.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (64, 48))
    for i in range(frames):
        writer.write(_numbered(i % 12))
    writer.release()
    return path


def test_a_thinned_video_keeps_its_frame_numbers_and_times(tmp_path: Path) -> None:
    source = checked_source(str(_thirty_fps(tmp_path)), max_fps=10.0)
    with Capture(source) as cap:
        frames = list(cap)
    # every third frame of 30 fps, numbered and timed as the video's frames (key frames, detections
    # files and truth files name frames by that number)
    assert [f.index for f in frames] == list(range(0, 30, 3))
    assert [round(f.t, 2) for f in frames] == [round(i / 30.0, 2) for i in range(0, 30, 3)]
    assert [_level(f.image) for f in frames] == [i % 12 for i in range(0, 30, 3)]
    assert cap.counters.frames == 10
    assert isinstance(source, ThinnedSource) and source.thinned == 20
    assert source.frame_size == (64, 48)


def test_thinning_keeps_frames_on_a_grid_not_every_nth() -> None:
    class Clock:
        """25 fps, times rounded to the millisecond as a file's clock is."""

        name, live = "clock", False

        def __init__(self) -> None:
            self.i = 0

        def open(self) -> None:
            self.i = 0

        def read(self) -> Read:
            if self.i == 50:
                return Read(ReadStatus.END)
            self.i += 1
            return Read(ReadStatus.FRAME, _numbered(0), round((self.i - 1) * 0.04, 3))

        def close(self) -> None:
            pass

    thinned = ThinnedSource(Clock(), 10.0)
    thinned.open()
    times = []
    while (read := thinned.read()).status is ReadStatus.FRAME:
        times.append(read.t)
    assert len(times) == 20  # ten a second, where every third frame would give 8.3
    assert times[:4] == [0.0, 0.12, 0.2, 0.32]
    with pytest.raises(ValueError):
        ThinnedSource(Clock(), 0.0)


def test_a_source_as_fast_as_its_limit_loses_nothing(video: Path) -> None:
    with Capture(checked_source(str(video), max_fps=10.0)) as cap:
        assert [f.index for f in cap] == list(range(10))


def test_live_sources_are_not_thinned() -> None:
    assert isinstance(checked_source("0", max_fps=5.0), LiveSource)
    with pytest.raises(ValueError):
        ThinnedSource(LiveSource(0), 5.0)
    for bad in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(SourceError):
            checked_source("0", max_fps=bad)
        with pytest.raises(ValueError):
            ThinnedSource(ImageFolderSource("."), bad)


def test_open_source_picks_the_kind(tmp_path: Path, video: Path) -> None:
    assert isinstance(open_source("0"), LiveSource)
    assert isinstance(open_source("rtsp://user:secret@phone.local:8554/live"), LiveSource)
    assert "secret" not in open_source("http://user:secret@10.0.0.2:8080/video").name
    assert isinstance(open_source(str(tmp_path)), ImageFolderSource)
    assert isinstance(open_source(str(video)), VideoFileSource)
    with pytest.raises(SourceError):
        open_source(str(tmp_path / "missing.mp4"))


class _Webcam:
    """What cv2.VideoCapture answers for a webcam with a few sizes: it takes the nearest one it has."""

    SIZES = ((640, 480), (1280, 720), (1920, 1080))

    def __init__(self) -> None:
        self.props: dict[int, float] = {cv2.CAP_PROP_FRAME_WIDTH: 640, cv2.CAP_PROP_FRAME_HEIGHT: 480}
        self.asked: dict[int, float] = {}

    def set(self, prop: int, value: float) -> bool:
        self.asked[prop] = value
        if prop in (cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT):
            w = self.asked.get(cv2.CAP_PROP_FRAME_WIDTH, self.props[cv2.CAP_PROP_FRAME_WIDTH])
            best = min(self.SIZES, key=lambda s: abs(s[0] - w))
            self.props[cv2.CAP_PROP_FRAME_WIDTH], self.props[cv2.CAP_PROP_FRAME_HEIGHT] = best
        return True

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)

    def read(self) -> tuple[bool, np.ndarray]:
        w, h = int(self.props[cv2.CAP_PROP_FRAME_WIDTH]), int(self.props[cv2.CAP_PROP_FRAME_HEIGHT])
        return True, np.zeros((h, w, 3), np.uint8)

    def release(self) -> None:
        pass


def test_a_webcam_is_asked_for_full_hd_in_mjpeg_and_says_what_it_gave(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.frame_sources as fs

    cams: list[_Webcam] = []
    monkeypatch.setattr(fs, "_capture", lambda target, api=None: cams.append(_Webcam()) or cams[-1])
    source = open_source("0")  # OpenCV alone would leave most webcams at 640x480
    source.open()
    assert cams[-1].asked[cv2.CAP_PROP_FOURCC] == cv2.VideoWriter_fourcc(*"MJPG")
    assert (cams[-1].asked[cv2.CAP_PROP_FRAME_WIDTH], cams[-1].asked[cv2.CAP_PROP_FRAME_HEIGHT]) == (1920, 1080)
    assert isinstance(source, LiveSource) and source.got == (1920, 1080)
    assert source.read().image.shape == (1080, 1920, 3)

    source = open_source("1", size=(1024, 576))  # asked for a size it does not have: the nearest one
    source.open()
    assert source.got == (1280, 720)

    stream = open_source("rtsp://phone.local:8554/live")  # a stream comes at the size its sender chose
    stream.open()
    assert cv2.CAP_PROP_FRAME_WIDTH not in cams[-1].asked and stream.got == (640, 480)


def test_frame_sizes_are_read_as_width_x_height() -> None:
    from vision.frame_sources import parse_size

    assert parse_size("1920x1080") == (1920, 1080) and parse_size(" 1280 X 720 ") == (1280, 720)
    for bad in ("1920", "x1080", "1920x", "axb", "1920x1080x3"):
        with pytest.raises(ValueError, match="1920x1080"):
            parse_size(bad)


def test_video_file_that_does_not_exist_ends_the_capture_with_its_error(tmp_path: Path) -> None:
    with Capture(VideoFileSource(tmp_path / "nope.avi")) as cap:
        with pytest.raises(SourceError, match="nope.avi"):
            list(cap)
    assert cap.status is CameraStatus.ENDED


def test_a_file_that_is_no_video_is_refused_when_it_is_opened(tmp_path: Path) -> None:
    bad = tmp_path / "holiday.mp4"
    bad.write_bytes(b"garbage, not a video")
    with pytest.raises(SourceError, match="no video file"):
        VideoFileSource(bad).open()
    with Capture(VideoFileSource(bad)) as cap:  # and a capture ends with that error, not as an empty video
        with pytest.raises(SourceError, match="holiday.mp4"):
            list(cap)


class FakeCapture:
    """What OpenCV gives for a file it opens: ``reads`` is each read's outcome (False: undecodable)."""

    def __init__(self, reads: list[bool]) -> None:
        self.reads, self.position = reads, 0

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's spelling
        return True

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_FPS: 10.0, cv2.CAP_PROP_FRAME_COUNT: float(len(self.reads)),
                cv2.CAP_PROP_POS_FRAMES: float(self.position),
                cv2.CAP_PROP_POS_MSEC: self.position * 100.0}.get(prop, 0.0)

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.position >= len(self.reads):
            return False, None
        ok = self.reads[self.position]
        self.position += 1
        return (True, _numbered(self.position - 1)) if ok else (False, None)

    def grab(self) -> bool:
        return True

    def release(self) -> None:
        pass


def test_a_video_whose_frames_all_fail_to_decode_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "damaged.mp4"
    path.write_bytes(b"opened by OpenCV in this test")
    monkeypatch.setattr("vision.frame_sources._capture", lambda target, api=None: FakeCapture([False] * 5))
    with pytest.raises(SourceError, match="no frame could be decoded"):
        VideoFileSource(path).open()


def test_undecodable_first_frames_are_skipped_and_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "scratched.mp4"
    path.write_bytes(b"opened by OpenCV in this test")
    monkeypatch.setattr("vision.frame_sources._capture", lambda target, api=None: FakeCapture([False, False, True, True]))
    with Capture(VideoFileSource(path)) as cap:
        frames = list(cap)
    assert [_level(f.image) for f in frames] == [2, 3]
    assert cap.counters.corrupt == 2 and cap.counters.frames == 2


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
