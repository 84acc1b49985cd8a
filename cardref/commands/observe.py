"""``cardref observe VIDEO --game G --calibration CAL.json --out STATES.jsonl``.

Runs capture -> detect -> track on a video file, a folder of images, a webcam index or a stream URL and
writes every published table state, one JSON object per line with its time (docs/states-format.md).
Files are read frame by frame (nothing dropped; ``--max-fps`` looks at fewer frames of a fast recording);
live sources drop old frames when the machine is slow.

The detector is injectable: :func:`observe` takes any ``frame -> list[Detection]``; on the command line
``--detector module:factory`` names a function that returns one. The default is the shipped ONNX
detector, :func:`vision.detector.default_detector`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable

import numpy as np
import numpy.typing as npt

from vision.detections import Detection

Detect = Callable[[npt.NDArray[np.uint8]], list[Detection]]
GAMES = ("klondike", "double_solitaire", "stress", "zenuwen")
TABLE_OF = {"double_solitaire": ("klondike", 2)}
"""Games played on another game's table: that game's zone template, for so many players."""


@dataclass
class ObserveStats:
    frames: int = 0
    published: int = 0
    seconds: float = 0.0
    detect_s: float = 0.0
    track_s: float = 0.0
    capture: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        fps = self.frames / self.seconds if self.seconds else 0.0

        def per(seconds: float) -> float:
            return 1000.0 * seconds / self.frames if self.frames else 0.0

        extra = ", ".join(f"{k} {v}" for k, v in self.capture.items() if k != "frames" and v)
        return (f"{self.frames} frames in {self.seconds:.1f} s ({fps:.1f} fps; detect {per(self.detect_s):.1f} ms, "
                f"track {per(self.track_s):.1f} ms per frame), {self.published} states published"
                + (f"; {extra}" if extra else ""))


def default_detect(table: Any = None) -> Detect:
    """The shipped detector (the one place where observe's default is wired); given the table (a
    :class:`~vision.tracking.TableTracker`), it also looks closer where the table's far cards are small."""
    from vision.detector import default_detector

    if table is None:
        return default_detector().detect
    from vision.fine_regions import TableDetector

    return TableDetector(table.homography, table.layout)


def load_detect(spec: str | None, table: Any = None) -> Detect:
    """``None`` -> the shipped detector; ``X.onnx`` -> other corner-detector weights with the shipped
    classifier (to measure a candidate model on videos); ``module:factory`` -> ``factory()``. ``table``:
    as :func:`default_detect` (not for a factory)."""
    if not spec:
        return default_detect(table)
    if spec.endswith(".onnx"):
        from vision.detector import CardDetector
        from vision.fine_regions import TableDetector

        if not Path(spec).is_file():
            raise FileNotFoundError(f"model file not found: {spec!r}")
        return TableDetector(table.homography, table.layout, detector=spec) if table is not None else CardDetector(detector=spec).detect
    module, _, name = spec.partition(":")
    if not module or not name:
        raise ValueError(f"--detector must be X.onnx or module:factory, got {spec!r}")
    factory = getattr(importlib.import_module(module), name)
    detect = factory()
    if not callable(detect):
        raise ValueError(f"{spec} did not return a callable frame -> detections")
    return detect  # type: ignore[no-any-return]


def observe(source: Any, detect: Detect, tracker: Any, out: IO[str], capture_settings: Any = None,
            on_state: Callable[[Any], None] | None = None,
            replay: Callable[[Any, int], list[Detection]] | None = None,
            on_detections: Callable[[int, list[Detection]], None] | None = None) -> ObserveStats:
    """Run one source (a spec for :func:`open_source`, or a :class:`FrameSource`) to its end (or Ctrl-C)
    through ``detect`` and ``tracker``, writing states to ``out``. A live camera that is lost is
    reconnected by the capture thread while the tracker keeps the game. ``replay``, when given, takes
    the place of ``detect`` and also gets the frame's number (detections read from a file);
    ``on_detections`` gets each frame's number and detections (``--detections-out``)."""
    from vision.capture import Capture
    from vision.frame_sources import open_source

    stats = ObserveStats()
    started = time.perf_counter()
    frames = open_source(source) if isinstance(source, str) else source

    def report(status: Any) -> None:
        if status.value in ("offline", "online") and (status.value == "offline" or stats.frames):
            print(f"cardref observe: camera {status.value} after {stats.frames} frames", file=sys.stderr)

    with Capture(frames, capture_settings, on_status=report) as capture:
        for frame in capture:
            t0 = time.perf_counter()
            detections = replay(frame.image, frame.index) if replay is not None else detect(frame.image)
            t1 = time.perf_counter()
            if on_detections is not None:
                on_detections(frame.index, detections)
            state = tracker.update(frame.t, frame.index, detections, frame.image)
            t2 = time.perf_counter()
            stats.frames += 1
            stats.detect_s += t1 - t0
            stats.track_s += t2 - t1
            if state is not None:
                stats.published += 1
                out.write(json.dumps(state.to_json(), separators=(",", ":")) + "\n")
                out.flush()
                if on_state is not None:
                    on_state(state)
        stats.capture = capture.counters.as_dict()
        thinned = getattr(frames, "thinned", 0)
        if thinned:
            stats.capture["passed over"] = thinned
    stats.seconds = time.perf_counter() - started
    return stats


def other_shape(source: Any, homography: Any) -> str | None:
    """Why a recorded source's frames do not fit the calibration (another shape than its picture:
    :meth:`calibration.homography.TableHomography.other_shape`); None when they do, or when the size is
    not known before the frames come (a camera)."""
    size = getattr(source, "frame_size", None)
    return homography.other_shape(size) if size is not None else None


def coarse_warning(source: Any, layout: Any, homography: Any) -> str | None:
    """A warning when the source films some piles too coarsely for their indices to be read surely
    (:meth:`calibration.zones.ZoneLayout.coarse_warning`); None when it does not, or when its frame
    size is not known before the frames come (a camera: the live pipeline says it then)."""
    size = getattr(source, "frame_size", None)
    if size is None:
        return None
    said = layout.coarse_warning(homography.for_image_size(size), size)
    return None if said is None else f"warning: {said}"


def build_tracker(args: argparse.Namespace) -> Any:
    """The tracker for the game and calibration the arguments name."""
    from calibration.store import load_calibration
    from calibration.templates import template
    from vision.tracking import TableTracker, TrackerSettings

    game, players = args.game, args.players
    if game in TABLE_OF:
        game, seats = TABLE_OF[game]
        if players not in (None, seats):
            raise ValueError(f"{args.game} is played by {seats}, not {players}")
        players = seats
    if args.calibration == "markers":
        layout = template(game, players, args.columns or 7)
        homography = calibrate_from_video(args.source, layout)
    else:
        cal = load_calibration(args.calibration)
        if cal.layout is not None and cal.layout.game != game:
            raise ValueError(f"{args.calibration} lays out {cal.layout.game!r}, not {game!r}")
        # the file's layout for as many players and columns as asked (a Klondike table calibrated for
        # one serves Double Solitaire's two), as cardref analyze and serve place the game's template
        layout = cal.layout_for(game, players, args.columns)
        homography = cal.homography()
    changes: dict[str, object] = {}
    if args.settle is not None:
        changes["settle_s"] = args.settle
    if args.scope is not None:
        changes["scope"] = args.scope
    settings = TrackerSettings.for_game(game, layout.players, **changes)
    return TableTracker(layout, homography, settings)


def calibrate_from_video(source: str, layout: Any, frames: int = 90) -> Any:
    """The homography from the ``corners`` markers around the game's play area, found in the first
    frames of the source (docs/calibration-format.md: lay the cut-out markers outside its corners)."""
    from calibration.homography import CalibrationError
    from calibration.markers import MarkerLayout, calibrate_from_markers
    from calibration.templates import template_size
    from vision.frame_sources import ReadStatus, open_source

    markers = MarkerLayout.corners(*template_size(layout))
    src = open_source(source)
    src.open()
    try:
        best = None
        for _ in range(frames):
            read = src.read()
            if read.status is ReadStatus.END:
                break
            if read.image is None:
                continue
            try:
                fit = calibrate_from_markers(read.image, markers)
            except CalibrationError:
                continue
            if best is None or len(fit.found_ids) > len(best.found_ids):
                best = fit
            if len(fit.found_ids) == 4:
                break
    finally:
        src.close()
    if best is None or len(best.found_ids) < 3:
        raise CalibrationError(f"{source}: fewer than three of the corner markers (ids 0-3) in the first {frames} frames")
    print(f"cardref observe: calibrated from markers {best.found_ids} (corner error {best.rms_error_mm:.2f} mm RMS)",
          file=sys.stderr)
    return best.homography


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("observe", help="write the steady table states seen in a video (STATES.jsonl)")
    p.add_argument("source", help="video file, image folder, webcam index or stream URL")
    p.add_argument("--game", required=True, choices=GAMES)
    p.add_argument("--calibration", required=True,
                   help="CAL.json (docs/calibration-format.md), or 'markers': find the corner markers in the video")
    p.add_argument("--out", required=True, help="STATES.jsonl to write ('-' for standard output)")
    p.add_argument("--players", type=int, help="players (default: klondike 1, double_solitaire 2, stress 2, zenuwen 2)")
    p.add_argument("--columns", type=int, choices=(7, 8), help="Klondike columns (K16: 8; default: the calibration's, or 7)")
    p.add_argument("--settle", type=float, help="seconds a state must be steady before it is published (0.25)")
    p.add_argument("--scope", choices=("table", "zone"), help="publish when the whole table / each zone is steady")
    p.add_argument("--detector", help="corner-detector weights X.onnx, or module:factory returning "
                                    "frame -> list[Detection] (default: shipped model)")
    p.add_argument("--detections", help="read each frame's detections from a file instead (boxes.jsonl[.gz] "
                                        "of cardref render --boxes: the tracking measured without the detector; "
                                        "or a --detections-out file)")
    p.add_argument("--detections-out", metavar="DETECTIONS.jsonl[.gz]",
                   help="also write what the detector found in each frame, to give back as --detections")
    p.add_argument("--max-fps", type=float, metavar="FPS",
                   help="a file: look at no more than FPS frames per second of it (default: every frame; "
                        "cardref analyze looks at 15)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from calibration.homography import CalibrationError
    from vision.frame_sources import SourceError, checked_source

    try:
        source = checked_source(args.source, max_fps=args.max_fps or None)
        tracker = build_tracker(args)
        shape = other_shape(source, tracker.homography)
        if shape is not None:
            raise ValueError(f"{args.source}: {shape}")
        if (coarse := coarse_warning(source, tracker.layout, tracker.homography)) is not None:
            print(f"cardref observe: {args.source}: {coarse}", file=sys.stderr)
        replay = None
        if args.detections:
            from vision.detection_replay import replay_detector

            replay = replay_detector(args.detections)
            detect: Detect = lambda image: []  # noqa: E731 - unused when replaying
        else:
            detect = load_detect(args.detector, tracker)
    except (ValueError, OSError, ImportError, AttributeError, CalibrationError) as exc:
        print(f"cardref observe: {exc}", file=sys.stderr)
        return 2
    from vision.detection_replay import write_detections
    from vision.jsonl_files import open_jsonl

    try:
        found = open_jsonl(args.detections_out, "w") if args.detections_out else None
    except OSError as exc:
        print(f"cardref observe: --detections-out: {exc}", file=sys.stderr)
        return 2
    on_detections = (lambda index, dets: write_detections(found, index, dets)) if found is not None else None
    out = sys.stdout if args.out == "-" else Path(args.out).open("w", encoding="utf-8")
    try:
        stats = observe(source, detect, tracker, out, replay=replay, on_detections=on_detections)
    except SourceError as exc:
        print(f"cardref observe: {exc}", file=sys.stderr)
        return 2
    finally:
        if out is not sys.stdout:
            out.close()
        if found is not None:
            found.close()
    print(f"cardref observe: {args.source}: {stats.line()}", file=sys.stderr)
    return 0
