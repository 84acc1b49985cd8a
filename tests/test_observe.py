"""``cardref observe``: a video of a scripted table through capture, an injected detector and the
tracker, to STATES.jsonl holding exactly the true steady states."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.store import LayoutSpec, make_calibration, save_calibration
from calibration.templates import template
from cardref.cli import main as cardref
from vision.synthetic_scenes import Action, Scene
from vision.table_state import TableState

SIZE = (640, 360)


def _scene() -> tuple[Scene, list]:  # type: ignore[type-arg]
    sys.path.insert(0, str(Path(__file__).parent))
    from test_tracking import camera_for, klondike_deal

    layout = template("klondike")
    piles, stock = klondike_deal()
    scene = Scene(layout, camera_for(layout, SIZE), piles, seed=31)
    frames = list(scene.hold(0.5))
    for action in [Action("turn", "stock", "waste", cards=tuple(stock[:3])), Action("move", "waste", "tableau2")]:
        frames += list(scene.play(action))
        frames += list(scene.hold(0.5))
    return scene, frames


def _write_video(frames: list, path: Path) -> None:  # type: ignore[type-arg]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, SIZE)
    for f in frames:
        writer.write(cv2.cvtColor(cv2.resize(f.image, SIZE, interpolation=cv2.INTER_NEAREST), cv2.COLOR_GRAY2BGR))
    writer.release()


@pytest.fixture()
def recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Scene, Path, Path]:
    scene, frames = _scene()
    video = tmp_path / "table.avi"
    _write_video(frames, video)
    (tmp_path / "detections.json").write_text(json.dumps([[d.to_json() for d in f.detections] for f in frames]))
    (tmp_path / "replay_detector.py").write_text(
        "import json, pathlib\n"
        "from vision.detections import Detection\n"
        "def make():\n"
        "    frames = json.loads((pathlib.Path(__file__).parent / 'detections.json').read_text())\n"
        "    calls = iter(frames)\n"
        "    return lambda image: [Detection(d['card'], tuple(d['box']), d['confidence']) for d in next(calls)]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    cal = tmp_path / "cal.json"
    save_calibration(make_calibration(scene.h, "points", layout=LayoutSpec(game="klondike")), cal)
    return scene, video, cal


def test_observe_writes_exactly_the_true_steady_states(recorded: tuple[Scene, Path, Path], tmp_path: Path) -> None:
    scene, video, cal = recorded
    out = tmp_path / "states.jsonl"
    rc = cardref(["observe", str(video), "--game", "klondike", "--calibration", str(cal), "--out", str(out),
                  "--detector", "replay_detector:make"])
    assert rc == 0
    states = [TableState.from_json(json.loads(line)) for line in out.read_text().splitlines()]
    got = [{z: (p.backs, p.codes) for z, p in s.piles.items()} for s in states]
    assert got == scene.steady_truths
    assert all(0.0 <= s.t - rest <= 0.3 for s, rest in zip(states, scene.rest_times))
    assert [s.frame for s in states] == sorted(s.frame for s in states)


def test_the_detections_written_out_give_the_same_states_back(recorded: tuple[Scene, Path, Path], tmp_path: Path) -> None:
    """``--detections-out`` keeps what the detector found in each frame; given back as ``--detections``,
    the tracking runs again without the detector and publishes the same states."""
    scene, video, cal = recorded
    common = [str(video), "--game", "klondike", "--calibration", str(cal)]
    found = tmp_path / "found.jsonl.gz"
    first, again = tmp_path / "first.jsonl", tmp_path / "again.jsonl"
    assert cardref(["observe", *common, "--out", str(first), "--detector", "replay_detector:make",
                    "--detections-out", str(found)]) == 0
    assert cardref(["observe", *common, "--out", str(again), "--detections", str(found)]) == 0
    states = [TableState.from_json(json.loads(line)) for line in again.read_text().splitlines()]
    assert [{z: (p.backs, p.codes) for z, p in s.piles.items()} for s in states] == scene.steady_truths
    assert again.read_text() == first.read_text()


def test_a_video_looked_at_fifteen_times_a_second_gives_the_same_states(
        recorded: tuple[Scene, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 30 fps recording looked at 15 times a second (``--max-fps``; ``cardref analyze``'s default):
    the same steady states, from half the frames, which keep the video's frame numbers (the detections
    of every frame, written by a run that looked at all of them, are found by number)."""
    scene, video, cal = recorded
    common = [str(video), "--game", "klondike", "--calibration", str(cal)]
    found, every, thinned = tmp_path / "found.jsonl.gz", tmp_path / "every.jsonl", tmp_path / "thinned.jsonl"
    assert cardref(["observe", *common, "--out", str(every), "--detector", "replay_detector:make",
                    "--detections-out", str(found)]) == 0
    assert cardref(["observe", *common, "--out", str(thinned), "--detections", str(found), "--max-fps", "15"]) == 0
    states = [TableState.from_json(json.loads(line)) for line in thinned.read_text().splitlines()]
    assert [{z: (p.backs, p.codes) for z, p in s.piles.items()} for s in states] == scene.steady_truths
    assert all(s.frame % 2 == 0 for s in states)
    # a card come to rest is still published within 300 ms (the video's first view waits for the
    # filter's first frames: 0.47 s)
    assert all(0.0 <= s.t - rest <= 0.3 for s, rest in zip(states[1:], scene.rest_times[1:]))
    said = capsys.readouterr().err.splitlines()[-1]
    assert "49 frames" in said and "passed over 48" in said  # of 97
    # cardref analyze looks at 15 a second unless told otherwise; 0: every frame
    for extra, said in (([], "more passed over: --max-fps 15"), (["--max-fps", "0"], None)):
        assert cardref(["analyze", *common, "--detections", str(found), "--out", str(tmp_path / "game.jsonl"),
                        "--games-dir", str(tmp_path / "games"), *extra]) == 0
        err = capsys.readouterr().err
        assert (said in err) if said else ("passed over" not in err)
    assert cardref(["analyze", *common, "--out", str(tmp_path / "g.jsonl"), "--max-fps", "-1"]) == 2
    assert "above 0" in capsys.readouterr().err


def test_double_solitaire_is_observed_on_a_klondike_calibration_for_two(recorded: tuple[Scene, Path, Path]) -> None:
    """A table calibrated for one Klondike player serves Double Solitaire: its template for two players,
    placed as the file says (each seat's zones named ``p1.`` and ``p2.``); a third player is refused."""
    import argparse

    from cardref.commands.observe import build_tracker

    _, video, cal = recorded
    args = argparse.Namespace(source=str(video), game="double_solitaire", calibration=str(cal), players=None,
                              columns=None, settle=None, scope=None)
    layout = build_tracker(args).layout
    assert layout.players == 2 and {"p1.tableau1", "p2.tableau7", "p1.waste", "p2.stock"} <= {z.name for z in layout.zones}
    assert len(build_tracker(argparse.Namespace(**{**vars(args), "game": "klondike"})).layout.zones) == 13
    with pytest.raises(ValueError, match="played by 2"):
        build_tracker(argparse.Namespace(**{**vars(args), "players": 3}))


def test_observe_refuses_a_calibration_for_another_game(recorded: tuple[Scene, Path, Path], tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    _, video, cal = recorded
    rc = cardref(["observe", str(video), "--game", "stress", "--calibration", str(cal), "--out", str(tmp_path / "x"),
                  "--detector", "replay_detector:make"])
    assert rc == 2
    assert "klondike" in capsys.readouterr().err


def test_observe_reports_a_missing_video(recorded: tuple[Scene, Path, Path], tmp_path: Path) -> None:
    _, _, cal = recorded
    rc = cardref(["observe", str(tmp_path / "none.mp4"), "--game", "klondike", "--calibration", str(cal),
                  "--out", str(tmp_path / "x"), "--detector", "replay_detector:make"])
    assert rc == 2


def test_observe_refuses_a_file_that_is_no_video(recorded: tuple[Scene, Path, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _, _, cal = recorded
    bad = tmp_path / "table.mp4"
    bad.write_bytes(b"garbage")
    rc = cardref(["observe", str(bad), "--game", "klondike", "--calibration", str(cal),
                  "--out", str(tmp_path / "states.jsonl"), "--detector", "replay_detector:make"])
    assert rc == 2
    assert "is no video file" in capsys.readouterr().err
    assert not (tmp_path / "states.jsonl").exists()


def test_observe_refuses_a_video_of_another_shape_than_the_calibration(recorded: tuple[Scene, Path, Path], tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    _, video, cal = recorded
    size = json.loads(cal.read_text())["image_size"]
    upright = tmp_path / "upright.avi"
    writer = cv2.VideoWriter(str(upright), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (size[1], size[0]))
    for _ in range(3):
        writer.write(np.zeros((size[0], size[1], 3), np.uint8))
    writer.release()
    rc = cardref(["observe", str(upright), "--game", "klondike", "--calibration", str(cal),
                  "--out", str(tmp_path / "states.jsonl"), "--detector", "replay_detector:make"])
    assert rc == 2
    assert "another shape" in capsys.readouterr().err
    assert not (tmp_path / "states.jsonl").exists()


class UnpluggedCamera:
    """A live camera showing the scene; unplugged after frame ``at`` for ``gap`` frames (those are never
    seen) and two failed reopenings, then plugged back in; it ends after the last frame."""

    live = True
    name = "unplugged"

    def __init__(self, frames: list, at: int, gap: int) -> None:  # type: ignore[type-arg]
        self.frames, self.at, self.gap = frames, at, gap
        self.next = 0
        self.failing_opens = 0
        self.unplugged = False
        self.shown: dict[int, object] = {}  # id(image) -> the scene frame it shows

    def open(self) -> None:
        from vision.frame_sources import SourceError

        if self.failing_opens:
            self.failing_opens -= 1
            raise SourceError("no such device")

    def read(self):  # type: ignore[no-untyped-def]
        from vision.frame_sources import Read, ReadStatus

        if self.next == self.at and not self.unplugged:
            self.unplugged = True
            self.failing_opens = 2
            self.next += self.gap
            return Read(ReadStatus.LOST)
        if self.next >= len(self.frames):
            return Read(ReadStatus.END)
        f = self.frames[self.next]
        self.next += 1
        image = cv2.cvtColor(cv2.resize(f.image, SIZE, interpolation=cv2.INTER_NEAREST), cv2.COLOR_GRAY2BGR)
        self.shown[id(image)] = (f, image)
        return Read(ReadStatus.FRAME, image, f.t)

    def close(self) -> None:
        pass


def test_a_camera_unplugged_mid_game_is_survived(capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from cardref.commands.observe import observe
    from vision.capture import CaptureSettings
    from vision.tracking import TableTracker, TrackerSettings

    scene, frames = _scene()
    moves_start = [i for i, f in enumerate(frames) if not f.at_rest][0]
    camera = UnpluggedCamera(frames, at=moves_start + 40, gap=20)  # unplugged while a move is going on
    tracker = TableTracker(scene.layout, scene.h, TrackerSettings())
    out = io.StringIO()
    settings = CaptureSettings(queue_size=8, drop_oldest=False, reconnect_interval_s=0.02, watchdog_period_s=0.05)
    stats = observe(camera, lambda image: camera.shown[id(image)][0].detections, tracker, out, settings)  # type: ignore[index]
    states = [TableState.from_json(json.loads(line)) for line in out.getvalue().splitlines()]
    assert stats.capture["reconnects"] == 1
    err = capsys.readouterr().err
    assert "camera offline" in err and "camera online" in err  # reported, then reconnected
    assert [{z: (p.backs, p.codes) for z, p in s.piles.items()} for s in states] == scene.steady_truths


def test_calibration_from_the_markers_in_the_video(tmp_path: Path) -> None:
    """``--calibration markers``: the corner markers around the play area, found in the first frames."""
    from calibration.markers import MarkerLayout
    from calibration.templates import template_size
    from cardref.commands.observe import calibrate_from_video

    sys.path.insert(0, str(Path(__file__).parent))
    from test_calibration import TILTED, _camera_view, _check_points, _table_canvas

    layout = template("klondike")
    width, height = template_size(layout)
    markers = MarkerLayout.corners(width, height)
    bounds = (-80.0, -80.0, width + 80.0, height + 80.0)
    image, truth = _camera_view(_table_canvas(markers, bounds), bounds, TILTED)
    video = tmp_path / "markers.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (1280, 720))
    writer.write(np.zeros((720, 1280, 3), np.uint8))  # a first frame without markers
    for _ in range(3):
        writer.write(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR))
    writer.release()
    homography = calibrate_from_video(str(video), layout)
    assert _check_points(homography, truth, (0.0, 0.0, width, height)) < 3.0


def test_observe_replays_detections_from_a_file(recorded: tuple[Scene, Path, Path], tmp_path: Path) -> None:
    """``--detections boxes.jsonl.gz``: the tracking measured on a video without the detector."""
    import gzip

    scene, video, cal = recorded
    frames = json.loads((tmp_path / "detections.json").read_text())
    boxes = tmp_path / "boxes.jsonl.gz"
    with gzip.open(boxes, "wt") as fh:
        for i, dets in enumerate(frames):
            fh.write(json.dumps({"frame": i, "boxes": [{**d, "visible": 1.0} for d in dets]}) + "\n")
    out = tmp_path / "states.jsonl"
    assert cardref(["observe", str(video), "--game", "klondike", "--calibration", str(cal), "--out", str(out),
                    "--detections", str(boxes)]) == 0
    states = [TableState.from_json(json.loads(line)) for line in out.read_text().splitlines()]
    assert [{z: (p.backs, p.codes) for z, p in s.piles.items()} for s in states] == scene.steady_truths


def test_piles_filmed_too_coarsely_to_read_are_warned_about() -> None:
    """A four-player Zenuwen table filmed at 1280x720 from where cardref render put the camera for
    aguilar seed 168 (whose side and far seats' tens were misread in every view: 12/55 moves): its far
    and side seats are named; the same camera at 1920x1080 (kennard seed 167 at that size: 55/55) is not."""
    from types import SimpleNamespace

    from cardref.commands.observe import coarse_warning
    from vision.render import make_camera

    layout = template("zenuwen", 4)
    said = {}
    for size in ((1280, 720), (1920, 1080)):
        camera = make_camera(layout.bounds_mm(), size, tilt_deg=26.45, roll_deg=0.33, yaw_deg=4.09, distance_mm=890.9)
        said[size] = coarse_warning(SimpleNamespace(frame_size=size), layout, camera.homography)
    assert said[(1920, 1080)] is None
    assert said[(1280, 720)] is not None and "p3" in said[(1280, 720)] and "p1" not in said[(1280, 720)]
    assert coarse_warning(SimpleNamespace(frame_size=None), layout, camera.homography) is None  # a camera: not known yet
