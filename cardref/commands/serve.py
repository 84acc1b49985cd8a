"""``cardref serve``: the web app (live table, referee screen, set-up, phone camera, review).

    cardref serve --camera 0 --calibration table.json --game zenuwen --players Ann,Bob,Cor

``--camera`` referees a real table: a webcam (its index; asked for 1920x1080 unless ``--camera-size``
says otherwise), a stream URL (a phone camera app), ``phone`` (the /phone page of this server, from
a phone's browser) or a video file. The calibration file is loaded if it exists; until the table is
calibrated the pages show the picture and the set-up page calibrates from it (saved to that file).
The game, rules and players given here start the first game; the set-up page starts the next ones.

Listens on 127.0.0.1 unless ``--host`` says otherwise; beyond this machine, control actions need the
token printed at start-up. ``--replay`` feeds the pages from a recorded game and ``--replay-video``
from a recorded table video with its truth (replays, not a camera).
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
    p.add_argument("--calibration", type=Path, default=None,
                   help="calibration file to load and to save to (with --camera, default ~/.config/cardref/calibration.json)")
    p.add_argument("--camera", default=None, metavar="SOURCE",
                   help="referee a real table seen by: a webcam index (0), a stream URL, 'phone' (the /phone page) or a video file")
    p.add_argument("--camera-size", default=None, metavar="WxH",
                   help="the frame size a webcam is asked for (default 1920x1080: far cards need the pixels)")
    p.add_argument("--game", default="klondike", choices=("klondike", "double_solitaire", "stress", "zenuwen"),
                   help="with --camera: the first game")
    p.add_argument("--rules", default="", help="with --camera: its rule options, e.g. draw=1,passes=3 (RULES.md)")
    p.add_argument("--players", default=None, metavar="N|NAMES",
                   help="with --camera: how many players, or their names from seat 1 on (Ann,Bob,Cor); default: the game's fewest")
    p.add_argument("--resume", default=None, metavar="GAME_ID|last",
                   help="with --camera: take up again a game cardref stopped without ending (a crash), from the "
                        "position its log last shows; its game, rules and players are the log's")
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


def _players(text: str | None, game: str) -> tuple[str, ...]:
    from cardref.web.session import GAMES

    low, high = GAMES[game]["players"]
    if text is None:
        return tuple(f"Player {i + 1}" for i in range(low))
    text = text.strip()
    if text.isdigit():
        names = tuple(f"Player {i + 1}" for i in range(int(text)))
    else:
        names = tuple(n.strip() for n in text.split(","))
        if any(not n or len(n) > 40 for n in names):
            raise ValueError(f"--players: names of 1 to 40 characters between commas, got {text!r}")
    if not low <= len(names) <= high:
        raise ValueError(f"--players: {game} is for {low}-{high} players, got {len(names)}")
    return names


def _table(args: argparse.Namespace) -> Callable[[Any], Any]:
    """The live table (``--camera``): the runner that refs the game on that source."""
    from calibration.store import load_calibration
    from cardref.table import TableConfig, TableRunner
    from cardref.web.session import seated_rules
    from vision.frame_sources import SourceError, checked_source, parse_size

    from .observe import other_shape

    size = parse_size(args.camera_size) if args.camera_size else None
    players = _players(args.players, args.game)
    seated_rules(args.game, args.rules, len(players))  # refused now, not when the first game starts
    calibration = None
    if args.calibration is not None and args.calibration.is_file():
        calibration = load_calibration(args.calibration)
    if args.camera == "phone":
        source: Any = None  # the app's phone camera, known once the services exist
    else:
        try:
            # made once: a camera keeps one clock across games and new calibrations; a recorded
            # video that is no video is refused now, not when the first game starts
            source = checked_source(args.camera, size=size)
        except SourceError as exc:
            raise ValueError(f"--camera: {exc}") from None
        if calibration is not None and (why := other_shape(source, calibration.homography())):
            # the pages calibrate it again (and save over the file) rather than referee wrong zones
            print(f"cardref serve: {args.calibration} does not fit --camera {args.camera}: {why} on the set-up page")
            calibration = None
    _resumed(args)
    config = TableConfig(source=source, calibration=calibration, game=args.game, rules=args.rules, players=players,
                         realtime=True, camera_size=size, resume=args.resume)

    def start(services: Any) -> TableRunner:
        if config.source is None:
            config.source = services.phone
        return TableRunner(services, config)

    return start


def _resumed(args: argparse.Namespace) -> None:
    """``--resume``: the game to take up again, checked now (``last``: the newest game), or else a word
    on the newest game when cardref stopped without ending it."""
    from cardref.gamelog.store import GameStore
    from cardref.live import resume_point

    store = GameStore(args.games_dir)
    if args.resume is None:
        newest = store.games(limit=1)
        if newest and not newest[0].finished:
            try:
                resume_point(store.read(newest[0].id))
            except (ValueError, OSError):
                return
            print(f"cardref serve: game {newest[0].id} ({newest[0].game}, {newest[0].moves} moves) was left unfinished: "
                  f"--resume {newest[0].id} takes it up again")
        return
    if args.resume == "last":
        newest = store.games(limit=1)
        if not newest:
            raise ValueError(f"--resume last: no game is recorded in {store.root}")
        args.resume = newest[0].id
    try:
        resume_point(store.read(args.resume))
    except FileNotFoundError:
        raise ValueError(f"--resume: no game {args.resume!r} in {store.root}") from None
    except ValueError as exc:
        raise ValueError(f"--resume {args.resume}: {exc}") from None


def _source(args: argparse.Namespace) -> Callable[[Any], Any] | None:
    """What feeds the pages: the live table (``--camera``), or a replay of a recorded game or video."""
    if args.camera is not None:
        if args.replay or args.replay_video is not None:
            raise ValueError("--camera and --replay/--replay-video: one source at a time")
        return _table(args)
    if args.resume is not None:
        raise ValueError("--resume takes a game up again at the table: give --camera too")
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

    if args.camera is not None and args.calibration is None:
        from calibration.store import default_calibration_file

        args.calibration = default_calibration_file()  # a table's calibration outlives the server
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
    if args.camera is not None:
        print(f"cardref serve: calibration file {args.calibration}"
              + ("" if args.calibration.is_file() else " (not there yet: calibrate on the set-up page)"))
    app = create_app(settings, source=source)
    serve(app, log_level=args.log_level, ssl_certfile=args.ssl_certfile, ssl_keyfile=args.ssl_keyfile)
    return 0
