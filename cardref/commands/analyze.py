"""``cardref analyze VIDEO --game G --rules ... --calibration CAL.json --out GAME.jsonl``.

Runs the whole path offline on a recorded video and writes the game log. Nothing is dropped for
speed, but a video recorded faster than ``--max-fps`` (default 15) is looked at 15 times a second
(:class:`vision.frame_sources.ThinnedSource`): a phone's 30 fps give the referee nothing 15 do not
(the same moves, calls and slaps on 30 fps Klondike and Stress renders, docs/truth-videos.md) at
twice the detector's time; ``--max-fps 0`` looks at every frame.
The game is also kept in the games directory (with its key frames) so it shows up for review. When
the video ends, what the referee left waiting for a clearer view (a Zenuwen play made while a hand
hovered or a card was read unsurely) is concluded from the last view (``LiveReferee.settle``).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from functools import partial
from pathlib import Path
from typing import Any


DEFAULT_MAX_FPS = 15.0
"""Frames per second ``cardref analyze`` looks at unless told otherwise: at 10 a second slap on a
30 fps Stress render was credited to the wrong centre pile; at 15 nothing differed from every frame."""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("analyze", help="referee a recorded video and write its game log")
    p.add_argument("video", help="a video file or a folder of images")
    p.add_argument("--game", required=True, help="klondike, double_solitaire, stress or zenuwen")
    p.add_argument("--rules", default="", help="rule options key=value,... (RULES.md defaults)")
    p.add_argument("--calibration", required=True, help="CAL.json (docs/calibration-format.md)")
    p.add_argument("--out", required=True, help="where to write the game log (JSONL, docs/gamelog-format.md)")
    p.add_argument("--players", default="", help="players' names, comma-separated")
    p.add_argument("--games-dir", help="games directory to keep the game in (default: the user's)")
    p.add_argument("--detector", help="corner-detector weights X.onnx, or module:factory returning "
                                      "frame -> list[Detection] (default: shipped model)")
    p.add_argument("--detections", help="read each frame's corner boxes from a file (boxes.jsonl[.gz] of cardref "
                                        "render --boxes, or --detections-out) instead of running the detector")
    p.add_argument("--detections-out", metavar="DETECTIONS.jsonl[.gz]",
                   help="also write what the detector found in each frame: given back as --detections, the "
                        "tracking and the referee run again in seconds, without the detector")
    p.add_argument("--tables-out", metavar="TABLES.jsonl",
                   help="also write every table state the referee judged, as it got them (docs/states-format.md "
                        "lines), with the looks, quiet frames and slaps it judged between them: given back in order "
                        "(cardref.replay_tables) they bring the same verdicts without the video")
    p.add_argument("--max-fps", type=float, metavar="FPS", default=DEFAULT_MAX_FPS,
                   help=f"look at no more than FPS frames per second of video (default {DEFAULT_MAX_FPS:g}; "
                        "0: every frame)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from calibration.store import load_calibration
    from referee.followers import find_follower

    from ..gamelog.store import GameStore
    from ..jsonl import write_line
    from ..live import LiveReferee
    from ..replay_tables import HEADER
    from ..pipeline import Pipeline

    try:
        follower = find_follower(args.game)
        rules = follower.rules_from_spec(args.rules)
        calibration = load_calibration(args.calibration)
        if calibration.layout is not None and calibration.layout.game != follower.layout_game:
            raise ValueError(f"{args.calibration} lays out {calibration.layout.game!r}, not {follower.layout_game!r}")
    except (ValueError, OSError) as exc:
        print(f"cardref analyze: {exc}", file=sys.stderr)
        return 2
    if not Path(args.video).exists():
        print(f"cardref analyze: no such video: {args.video}", file=sys.stderr)
        return 2
    from vision.frame_sources import SourceError, checked_source

    try:
        source = checked_source(args.video, max_fps=args.max_fps or None)
    except SourceError as exc:
        print(f"cardref analyze: {exc}", file=sys.stderr)
        return 2
    from .observe import coarse_warning, other_shape

    shape = other_shape(source, calibration.homography())
    if shape is not None:
        print(f"cardref analyze: {args.video}: {shape}", file=sys.stderr)
        return 2
    replay = None
    detect = None
    # other weights go to the pipeline, which sizes the detector to the table; a factory is called here
    weights = args.detector if args.detector and args.detector.endswith(".onnx") else None
    if args.detections:
        from vision.detection_replay import replay_detector

        replay = replay_detector(args.detections, min_visible=0.6)
    elif weights is not None:
        if not Path(weights).is_file():
            print(f"cardref analyze: --detector: model file not found: {weights}", file=sys.stderr)
            return 2
    elif args.detector:
        from .observe import load_detect

        try:
            detect = load_detect(args.detector)
        except (ValueError, OSError, ImportError, AttributeError) as exc:
            print(f"cardref analyze: --detector: {exc}", file=sys.stderr)
            return 2
    try:
        tables = open(args.tables_out, "w", encoding="utf-8") if args.tables_out else None
    except OSError as exc:
        print(f"cardref analyze: --tables-out: {exc}", file=sys.stderr)
        return 2
    from vision.detection_replay import write_detections
    from vision.jsonl_files import open_jsonl

    try:
        found = open_jsonl(args.detections_out, "w") if args.detections_out else None
    except OSError as exc:
        print(f"cardref analyze: --detections-out: {exc}", file=sys.stderr)
        return 2
    store = GameStore(args.games_dir)
    seats = int(getattr(rules, "players", 1) or 1)
    players = [p.strip() for p in args.players.split(",") if p.strip()] or [f"Player {i + 1}" for i in range(seats)]
    writer = store.new_game(args.game, follower.rules_spec(rules), players, deal=None)
    # each line flushed at once: a crash keeps everything judged so far
    on_input = None
    if tables is not None:
        write_line(tables, HEADER)
        on_input = partial(write_line, tables)
    referee = LiveReferee(args.game, rules, writer=writer, on_input=on_input)
    on_detections = (lambda index, dets: write_detections(found, index, dets)) if found is not None else None
    pipeline = Pipeline(source, calibration, referee, detect=detect, realtime=False, replay=replay,
                        detector_weights=weights, on_detections=on_detections)
    # (the game's layout as the pipeline places it on the calibrated table)
    if (coarse := coarse_warning(source, pipeline.tracker.layout, pipeline.tracker.homography)) is not None:
        print(f"cardref analyze: {args.video}: {coarse}", file=sys.stderr)
    try:
        stats = pipeline.run()
        referee.settle()  # the video ended: nothing later will show what the last views left open
    except SourceError as exc:  # the video could be opened, then failed: the game so far stays in the store
        print(f"cardref analyze: {exc} (game {writer.id} in {store.root}, unfinished)", file=sys.stderr)
        return 2
    finally:
        last_t = pipeline.states[-1].t if pipeline.states else 0.0
        if referee.ended is None and not writer.ended:
            writer.end(last_t, "unfinished", reason=_why_unfinished(referee, pipeline))
        writer.close()
        if tables is not None:
            tables.close()
        if found is not None:
            found.close()
    shutil.copyfile(store.game_dir(writer.id) / "log.jsonl", args.out)
    moves = sum(1 for m in referee.history if m.get("kind") == "move")
    illegal = sum(1 for m in referee.history if m.get("kind") == "illegal")
    thinned = getattr(source, "thinned", 0)
    passed = f" ({thinned} more passed over: --max-fps {args.max_fps:g})" if thinned else ""
    print(
        f"{args.video}: {stats.frames} frames{passed}, {stats.published} steady states, {moves} moves, {illegal} illegal; "
        f"log {args.out} (game {writer.id} in {store.root})",
        file=sys.stderr,
    )
    if referee.live is None:
        print(f"cardref analyze: {_why_unfinished(referee, pipeline)}: check the calibration (cardref calibrate "
              f"preview) and --game", file=sys.stderr)
    return 0


def _why_unfinished(referee: Any, pipeline: Any) -> str:
    """What the log says of a video that ended before its game did."""
    if referee.live is not None:
        return "the video ended"
    if not pipeline.states:
        return "the video ended before the table was ever steady: no deal seen"
    why = referee.waiting_for_deal
    return "the video ended before the deal was seen" + (f" (the last steady table: {why})" if why else "")
