"""Speed and delay of capture -> detect -> track at 1280x720 (run by hand: python bench/bench_tracking.py).

1. offline: a 1280x720 video of a scripted Klondike game (cards drawn on a textured table, a hand moving)
   read by vision.capture, detected, tracked: frames per second of the whole path, and per stage;
2. live: the same frames offered by a simulated 30 fps camera; when the consumer is slower, the capture
   queue drops the oldest frames. Reports frames processed per second, frames dropped and how old a
   frame is when tracking finishes with it (real time = bounded age, not growing);
3. delay from the table coming to rest to its state being published, over the scripted moves, at the
   camera's rate and at the rate the machine actually processes live.

The detector: the shipped ONNX models when present (vision.detector), else a stand-in that replays the
scene's detections after sleeping --detect-ms (default 15 ms: VISION-NOTES' yolo11n at 384x640 on 2 threads).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from calibration.templates import template  # noqa: E402
from vision.capture import Capture, CaptureSettings  # noqa: E402
from vision.frame_sources import Read, ReadStatus, VideoFileSource  # noqa: E402
from vision.synthetic_scenes import Action, Pile, Scene  # noqa: E402
from vision.synthetic_scenes import Frame as SceneFrame  # noqa: E402
from vision.tracking import TableTracker, TrackerSettings  # noqa: E402

SIZE = (1280, 720)
DECK = [r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]


def scripted_game(fps: float, moves: int, seed: int = 7, draw: bool = True) -> tuple[Scene, list[SceneFrame]]:
    from test_tracking import camera_for

    layout = template("klondike")
    cards = list(DECK)
    piles = {f"tableau{i + 1}": Pile(i, [cards.pop()]) for i in range(7)}
    piles["stock"] = Pile(len(cards))
    scene = Scene(layout, camera_for(layout, SIZE), piles, fps=fps, seed=seed, image_width=SIZE[0] if draw else 320,
                  draw_cards=draw)
    frames = list(scene.hold(0.6))
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if cards and rng.random() < 0.3:
            turned = tuple(cards.pop() for _ in range(min(3, len(cards))))
            action = Action("turn", "stock", "waste", cards=turned)
        else:
            full = [z for z, p in scene.piles.items() if p.faces and z.startswith(("tableau", "waste"))]
            src = str(rng.choice(full))
            dst = str(rng.choice([z for z in scene.piles if z.startswith("tableau") and z != src]))
            action = Action("move", src, dst)
        frames += list(scene.play(action))
        frames += list(scene.hold(float(rng.uniform(0.5, 1.0))))
    return scene, frames


def stand_in_detector(frames: list[SceneFrame], detect_ms: float) -> Callable[[Any], list[Any]]:
    """Replays the scene's detections for the frame it is given (found by its index tag), after a sleep."""
    by_index = {f.index: f.detections for f in frames}

    def detect(image: Any, index: int = -1) -> list[Any]:
        if detect_ms:
            time.sleep(detect_ms / 1000.0)
        return by_index.get(index, [])

    return detect


def real_detector() -> Callable[[Any], list[Any]] | None:
    try:
        from vision.detector import default_detector

        return default_detector().detect
    except (FileNotFoundError, ImportError, OSError):
        return None


def write_video(frames: list[SceneFrame], path: Path, fps: float) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, SIZE)
    for f in frames:
        assert f.image is not None
        writer.write(cv2.cvtColor(f.image, cv2.COLOR_GRAY2BGR))
    writer.release()


def offline(video: Path, scene: Scene, frames: list[SceneFrame], detect_ms: float, real: Any) -> None:
    tracker = TableTracker(scene.layout, scene.h, TrackerSettings())
    replay = stand_in_detector(frames, detect_ms)
    t_cap = t_det = t_trk = 0.0
    n = 0
    start = time.perf_counter()
    last = start
    with Capture(VideoFileSource(video)) as cap:
        for frame in cap:
            t0 = time.perf_counter()
            t_cap += t0 - last
            dets = real(frame.image) if real is not None else replay(frame.image, frame.index)
            t1 = time.perf_counter()
            tracker.update(frame.t, frame.index, dets, frame.image)
            t2 = time.perf_counter()
            t_det += t1 - t0
            t_trk += t2 - t1
            last = t2
            n += 1
    total = time.perf_counter() - start
    print(f"offline, {n} frames of {SIZE[0]}x{SIZE[1]} from an MJPG file: {n / total:.1f} fps end to end")
    print(f"  per frame: waiting for capture/decode {1000 * t_cap / n:.1f} ms, detect {1000 * t_det / n:.1f} ms"
          f" ({'ONNX models' if real is not None else f'stand-in, {detect_ms:.0f} ms sleep'}), track {1000 * t_trk / n:.1f} ms")


class SimulatedCamera:
    """A live 30 fps camera showing the scene's pictures in real time, frame index in the timestamp."""

    live = True
    name = "simulated camera"

    def __init__(self, frames: list[SceneFrame], fps: float) -> None:
        self.frames = frames
        self.period = 1.0 / fps
        self.started = 0.0
        self.next = 0

    def open(self) -> None:
        self.started = time.monotonic()

    def read(self) -> Read:
        if self.next >= len(self.frames):
            time.sleep(0.05)
            return Read(ReadStatus.LOST)
        due = self.started + self.next * self.period
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        f = self.frames[self.next]
        self.next += 1
        assert f.image is not None
        return Read(ReadStatus.FRAME, cv2.cvtColor(f.image, cv2.COLOR_GRAY2BGR), f.t)

    def close(self) -> None:
        pass


def live(scene: Scene, frames: list[SceneFrame], fps: float, detect_ms: float, real: Any) -> float:
    tracker = TableTracker(scene.layout, scene.h, TrackerSettings())
    replay = stand_in_detector(frames, detect_ms)
    by_t = {round(f.t, 6): f.index for f in frames}
    camera = SimulatedCamera(frames, fps)
    cap = Capture(camera, CaptureSettings(queue_size=1, stale_after_s=60))
    ages: list[float] = []
    published: list[float] = []
    done = 0
    start = time.perf_counter()
    cap.start()
    try:
        while camera.next < len(frames) or cap._queue.qsize():
            frame = cap.get(timeout=0.5)
            if frame is None:
                continue
            index = by_t[round(frame.t, 6)]
            dets = real(frame.image) if real is not None else replay(frame.image, index)
            state = tracker.update(frame.t, index, dets, frame.image)
            age = time.monotonic() - (camera.started + frame.t)
            ages.append(age)
            if state is not None:
                published.append(state.t + age)  # on the camera's clock: when it was published, not its frame
            done += 1
    finally:
        cap.stop()
    seconds = time.perf_counter() - start
    ages.sort()
    rate = done / seconds
    print(f"live, a {fps:.0f} fps camera for {len(frames) / fps:.1f} s: processed {done} frames ({rate:.1f} fps),"
          f" dropped {cap.counters.dropped}")
    print(f"  frame age when tracked: median {1000 * statistics.median(ages):.0f} ms,"
          f" p95 {1000 * ages[int(0.95 * len(ages))]:.0f} ms, max {1000 * ages[-1]:.0f} ms (bounded: real time)")
    if real is not None:
        print("  (the bench's frames show blank card shapes: the real detector's states say nothing here)")
        return rate
    delays = [p - r for p, r in zip(published, scene.rest_times)]
    exact = len(published) == len(scene.rest_times)
    print(f"  published {len(published)} states for {len(scene.rest_times)} steady tables"
          + (f"; rest -> published (wall clock): median {1000 * statistics.median(delays):.0f} ms, max {1000 * max(delays):.0f} ms" if exact else ""))
    return rate


def delays_at(fps: float, moves: int) -> None:
    scene, frames = scripted_game(fps, moves, seed=3, draw=False)
    tracker = TableTracker(scene.layout, scene.h, TrackerSettings())
    published = []
    for f in frames:
        s = tracker.update(f.t, f.index, f.detections, f.image, SIZE)
        if s is not None:
            published.append(s)
    truths = scene.steady_truths
    got = [{z: (p.backs, p.codes) for z, p in s.piles.items()} for s in published]
    exact = sum(1 for g in got if g in truths)
    delays = sorted(s.t - r for s, r in zip(published, scene.rest_times)) if got == truths else []
    line = f"rest -> published at {fps:.0f} fps: {len(truths)} steady states, {exact} published exactly, {len(got) - exact} never existed"
    if delays:
        line += (f"; delay median {1000 * statistics.median(delays[1:]):.0f} ms, max {1000 * max(delays[1:]):.0f} ms"
                 f" (the first state, all piles at once: {1000 * (published[0].t - scene.rest_times[0]):.0f} ms)")
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--detect-ms", type=float, default=15.0, help="stand-in detector's time per frame")
    parser.add_argument("--detector", choices=("auto", "onnx", "stand-in"), default="auto",
                        help="auto: the ONNX models when present (speed only), else the stand-in")
    args = parser.parse_args()
    real = None if args.detector == "stand-in" else real_detector()
    if args.detector == "onnx" and real is None:
        raise SystemExit("no ONNX models in models/")
    scene, frames = scripted_game(args.fps, args.moves)
    print(f"scripted Klondike: {args.moves} moves, {len(frames)} frames at {args.fps:.0f} fps, "
          f"{statistics.mean(len(f.detections) for f in frames):.0f} detections per frame")
    with tempfile.TemporaryDirectory() as tmp:
        video = Path(tmp) / "bench.avi"
        write_video(frames, video, args.fps)
        offline(video, scene, frames, args.detect_ms, real)
    rate = live(scene, frames, args.fps, args.detect_ms, real)
    for fps in sorted({args.fps, float(max(5, round(rate))), 15.0, 10.0}, reverse=True):
        delays_at(fps, args.moves)


if __name__ == "__main__":
    main()
