"""``cardref demo``: cardref's main job on a built-in default, with no camera.

Plays the Klondike table video that ships with cardref (a rendered game with one illegal move that is
taken back) through the whole live path: detector, tracker, move inference, rules engine, game log,
and serves the live pages at http://127.0.0.1:8000 (the referee screen at /referee). The video loops;
each pass is recorded as a new game you can open on the review page.

The shipped detector reads the cards (the video's deck design was kept out of its training; its
figures are in models/MODEL_CARD.md). ``--boxes recorded`` feeds the corner boxes recorded with the
video in its place, to watch everything after the detector with perfect eyes, or on a machine too slow
for the models. ``--text`` referees a recorded move list in the terminal instead, without the web app.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("demo", help="the live referee on a built-in table video, served at http://127.0.0.1:8000")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    p.add_argument("--host", default="127.0.0.1", help="listen address (default: this machine only)")
    p.add_argument("--boxes", choices=("detector", "recorded"), default="detector",
                   help="corner boxes from the shipped detector (default) or as recorded with the video")
    p.add_argument("--games-dir", type=Path, default=None, help="where the demo games are recorded (default: a temporary folder)")
    p.add_argument("--once", action="store_true", help="play the video once instead of in a loop")
    p.add_argument("--text", action="store_true", help="referee a recorded move list in the terminal (no web app)")
    p.add_argument("--quiet", action="store_true", help="with --text: print only illegal moves, calls and the result")
    p.set_defaults(func=main)


def clip_folder() -> Path:
    return Path(str(resources.files("cardref") / "demo" / "clips" / "klondike"))


def recorded_boxes(folder: Path) -> Any:
    """The corner boxes recorded with the video, standing in for the detector. A corner counts where
    most of it shows (60 %: a fanned column covers part of each index), a back wherever a sliver shows."""
    from vision.detection_replay import replay_detector

    return replay_detector(folder / "boxes.jsonl.gz", min_visible=0.6)


def main(args: argparse.Namespace) -> int:
    if args.text:
        return _text_demo(args.quiet)
    import tempfile

    from calibration.store import load_calibration
    from cardref.table import TableConfig, TableRunner
    from cardref.web.app import create_app, serve
    from cardref.web.settings import WebSettings

    folder = clip_folder()
    try:
        render = json.loads((folder / "render.json").read_text())
    except (OSError, ValueError) as exc:
        print(f"cardref demo: the built-in table video is missing or damaged in this install ({exc})")
        return 2
    config = TableConfig(
        source=str(folder / render["video"]),
        calibration=load_calibration(folder / "calibration.json"),
        game=render.get("game", "klondike"),
        rules=render.get("rules", ""),
        players=("Demo player",),
        detector="corner boxes recorded with the video" if args.boxes == "recorded" else "the shipped detector",
        realtime=True,
        loop=not args.once,
    )
    games_dir = args.games_dir or Path(tempfile.mkdtemp(prefix="cardref-demo-"))

    def source(services: Any) -> TableRunner:
        replay = recorded_boxes(folder) if args.boxes == "recorded" else None
        return TableRunner(services, config, replay=replay)

    settings = WebSettings(host=args.host, port=args.port, games_dir=games_dir)
    app = create_app(settings, source=source)
    print(
        f"cardref demo: {render.get('moves', '?')} moves of Klondike ({config.rules or 'default rules'}) "
        f"from {folder.name}/{render['video']}; cards: {config.detector}\n"
        f"  live table     http://{args.host}:{args.port}/\n"
        f"  referee screen http://{args.host}:{args.port}/referee\n"
        f"  recorded games http://{args.host}:{args.port}/review   (kept in {games_dir})\n"
        "Ctrl-C stops.",
        flush=True,
    )
    serve(app)
    return 0


def _text_demo(quiet: bool) -> int:
    """Referee the built-in recorded game (draw 3) with one slip put in, printing each verdict."""
    from referee import klondike
    from referee.klondike import Move
    from referee.verdict import Illegal

    folder = resources.files("cardref") / "demo"
    deal = klondike.Deal.from_json(json.loads((folder / "klondike.deal.json").read_text()))
    moves = [Move.from_json(json.loads(line)) for line in (folder / "klondike.moves.jsonl").read_text().splitlines() if line.strip()]
    state = klondike.new_game(deal, klondike.KlondikeRules.make())
    moves.insert(1, Move.move("waste", "t1"))  # a typical slip: the waste card on the nearest pile
    print(f"cardref demo: Klondike, rules {state.rules.spec()}, {len(moves)} moves\n")
    for number, move in enumerate(moves, start=1):
        verdict = klondike.apply(state, move)
        if isinstance(verdict, Illegal):
            print(f"{number:4d}  {str(move):24s} ILLEGAL  {verdict}")
            continue
        state = verdict.state
        said = "; ".join(e.kind.replace("_", " ") + (f" {e.cards[0]}" if e.cards else "") for e in verdict.events)
        if not quiet:
            print(f"{number:4d}  {str(move):24s} ok       score {state.score:5d}  {said}")
        elif any(e.kind == "won" for e in verdict.events):
            print(f"{number:4d}  {str(move):24s} {said}")
    end = klondike.outcome(state)
    print(f"\nresult: {end.result if end else 'playing'}, score {state.score}")
    return 0
