"""``cardref serve``: the web app (live table, referee screen, set-up, phone camera, review).

Listens on 127.0.0.1 unless ``--host`` says otherwise; beyond this machine, control actions need the
token printed at start-up. ``--replay`` feeds the pages from a recorded game and ``--replay-video``
from a recorded table video with its truth (replays, not a camera) until the live pipeline is
connected.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Callable


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="serve the web pages and API (live table, referee, set-up, review)")
    p.add_argument("--host", default="127.0.0.1", help="listen address (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    p.add_argument("--games-dir", type=Path, default=None, help="recorded games (default $CARDREF_GAMES or ~/.local/share/cardref/games)")
    p.add_argument("--token", default=None, help="control token for other machines (default: a new random one)")
    p.add_argument("--calibration", type=Path, default=None, help="calibration file to load and to save to")
    p.add_argument("--max-upload", type=int, default=4_000_000, help="largest request body, bytes (default 4 MB)")
    p.add_argument("--replay", action="store_true", help="feed the pages from the built-in recorded Klondike game (no camera)")
    p.add_argument("--replay-video", nargs="?", const="", default=None, metavar="FOLDER",
                   help="feed the pages from a recorded table video and its truth (default: the shipped Klondike clip)")
    p.add_argument("--replay-speed", type=float, default=None, help="replay speed factor (default 4 for --replay, 1 for --replay-video)")
    p.add_argument("--replay-loop", action="store_true", help="start the replay again when it ends")
    p.add_argument("--ssl-certfile", default=None, help="serve HTTPS (a phone's browser allows the camera only over HTTPS)")
    p.add_argument("--ssl-keyfile", default=None)
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=main)


def _source(args: argparse.Namespace) -> Callable[[Any], Any] | None:
    """What feeds the pages when no live pipeline does: a replay of a recorded game or video."""
    loop = args.replay_loop
    if args.replay_video is not None:
        from cardref.web.clip import ClipSource, clip_info, default_clip

        folder = args.replay_video or None
        clip_info(Path(folder) if folder else default_clip())  # a wrong folder is said now, not at start-up
        video_speed = args.replay_speed or 1.0
        return lambda services: ClipSource(services.hub, folder, speed=video_speed, loop=loop)
    if args.replay:
        from cardref.web.replay import ReplaySource

        game_speed = args.replay_speed or 4.0
        return lambda services: ReplaySource(services.hub, services.store, speed=game_speed, loop=loop)
    return None


def main(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from cardref.web.app import create_app, serve
    from cardref.web.settings import WebSettings

    try:
        settings = WebSettings(host=args.host, port=args.port, games_dir=args.games_dir, token=args.token,
                               calibration_file=args.calibration, max_upload_bytes=args.max_upload)
    except ValidationError as exc:
        print(f"cardref serve: {exc}")
        return 2
    try:
        source = _source(args)
    except ValueError as exc:
        print(f"cardref serve: {exc}")
        return 2
    app = create_app(settings, source=source)
    serve(app, log_level=args.log_level, ssl_certfile=args.ssl_certfile, ssl_keyfile=args.ssl_keyfile)
    return 0
