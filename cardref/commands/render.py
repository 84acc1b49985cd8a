"""``cardref render klondike|double_solitaire|stress|zenuwen --seed N --out DIR``: a truth video of a game
(docs/truth-videos.md).

The referee engine plays (Klondike: or replays ``--moves``) a game with ``--illegal`` deliberately
illegal moves that are then taken back (Double Solitaire: both players in turn; Stress and Zenuwen: one
round, ``--players`` 2-4 for Zenuwen; every player's hand reaching in from the own side); the table is painted with a deck design the
detector never trained on, on a procedural table top, through a tilted camera, with hands carrying
the cards, lighting changes, blur, noise and compression. Next to the video: ``calibration.json`` (for ``--calibration``), ``truth.jsonl``
(the true table for every frame), ``moves.jsonl`` (the true moves), ``deal.json`` and ``render.json``.
The same arguments give the same files.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("render", help="make a truth video of a game: frames, true table states and moves")
    p.add_argument("game", choices=sorted(RENDERERS))
    p.add_argument("--seed", type=int, required=True, help="deal, moves, table, camera, light and noise")
    p.add_argument("--out", required=True, help="output folder (created)")
    p.add_argument("--deal", help="DEAL.json to play instead of the seed's deal (Double Solitaire: both players')")
    p.add_argument("--moves", help="Klondike: replay file (JSON lines) of legal moves to play instead of the built-in player")
    p.add_argument("--rules", default="", help='the game\'s options, e.g. "draw=1" (Klondike, default draw 3), '
                                               '"stress_penalty=slapped_pile" (Stress), "empty_stock=turn_none" (Zenuwen)')
    p.add_argument("--players", type=int, help="Zenuwen: 2 to 4 players (default 2; Stress is for two)")
    p.add_argument("--illegal", type=int, default=1, help="deliberately illegal moves, each taken back (default 1)")
    p.add_argument("--hovers", type=int, default=0, help="Klondike: visits of the hand that touch nothing (default 0)")
    p.add_argument("--rounds", type=int, default=1, help="Stress, Zenuwen: rounds to play, each new deal filmed (default 1)")
    p.add_argument("--seconds", type=float, help="about how long the video runs (default: the whole game)")
    p.add_argument("--max-moves", type=int, default=1000, help="at most this many legal moves")
    p.add_argument("--size", default="1280x720", help="frame size WxH (default 1280x720)")
    p.add_argument("--fps", type=float, default=10.0, help="frames per second (default 10)")
    p.add_argument("--px-per-mm", type=float, default=3.0, help="resolution of the painted table (default 3)")
    p.add_argument("--deck", default="simplistic", help="held-out deck design: simplistic or penguins (plain: tests only)")
    p.add_argument("--decks-root", help="folder of rendered decks (default $CARDREF_DECKS or data/decks)")
    p.add_argument("--texture", help="table top: felt, wood, linen, check, laminate (default: from the seed)")
    p.add_argument("--crf", type=int, default=27, help="H.264 quality: 18 (fine, big) .. 32 (coarse, small); default 27")
    p.add_argument("--boxes", action="store_true", help="also write boxes.jsonl.gz: each frame's corner-index boxes (px)")
    p.add_argument("--video", default="video.mp4", help="video file name: .mp4 (H.264 with PyAV, else mp4v) or .avi (MJPEG)")
    p.set_defaults(func=main)


def _size(text: str) -> tuple[int, int]:
    from vision.frame_sources import parse_size

    w, h = parse_size(text)
    if w < 64 or h < 64 or w % 2 or h % 2:
        raise ValueError(f"--size needs even sides of at least 64 px, got {text!r}")
    return (w, h)


def command_line(args: argparse.Namespace) -> str:
    """The ``cardref render`` command that makes the same files (options left at their defaults omitted)."""
    import shlex

    defaults = {"deal": None, "moves": None, "rules": "", "players": None, "illegal": 1, "hovers": 0, "rounds": 1, "seconds": None,
                "max_moves": 1000, "size": "1280x720", "fps": 10.0, "px_per_mm": 3.0, "deck": "simplistic",
                "decks_root": None, "texture": None, "crf": 27, "boxes": False, "video": "video.mp4"}
    parts = ["cardref", "render", args.game, "--seed", str(args.seed)]
    for key, default in defaults.items():
        value = getattr(args, key, default)
        if value == default:
            continue
        flag = "--" + key.replace("_", "-")
        parts += [flag] if value is True else [flag, str(value)]
    parts += ["--out", str(args.out)]
    return " ".join(shlex.quote(p) for p in parts)


def _settings(args: argparse.Namespace) -> Any:
    from cardref.truth_video import RenderSettings

    return RenderSettings(
        size=_size(args.size), fps=args.fps, px_per_mm=args.px_per_mm, deck=args.deck,
        decks_root=args.decks_root, texture=args.texture, seconds=args.seconds, crf=args.crf, boxes=args.boxes,
    )


def _klondike(args: argparse.Namespace, progress: Any) -> dict[str, Any]:
    from referee.klondike import Deal, KlondikeRules, Move

    from ..jsonl import load_json_file, read_lines
    from cardref.truth_klondike import render_klondike

    _one_round(args)
    rules = KlondikeRules.from_spec(args.rules)
    the_deal = Deal.from_json(load_json_file(args.deal, "deal")) if args.deal else None
    moves = None
    if args.moves:
        with open(args.moves, encoding="utf-8") as fh:
            moves = []
            for number, obj, error in read_lines(fh):
                if error:
                    raise ValueError(f"{args.moves}: {error}")
                moves.append(Move.from_json(obj))
    if the_deal is not None and len(the_deal.tableau) != rules.columns:
        rules = KlondikeRules.from_spec(",".join(filter(None, [args.rules, f"columns={len(the_deal.tableau)}"])))
    return render_klondike(Path(args.out), args.seed, rules, the_deal, moves, args.illegal, args.max_moves, args.hovers,
                           _settings(args), args.video, progress, command=command_line(args))


def _one_round(args: argparse.Namespace) -> None:
    if args.rounds != 1:
        raise ValueError("--rounds is for Stress and Zenuwen only")


def _speed(args: argparse.Namespace, progress: Any) -> dict[str, Any]:
    from referee import stress, zenuwen

    from ..jsonl import load_json_file
    from ..replay_speed import zenuwen_rules
    from cardref.truth_speed import StressScript, ZenuwenScript, render_speed

    for flag, value, default in (("--moves", args.moves, None), ("--hovers", args.hovers, 0)):
        if value != default:
            raise ValueError(f"{flag} is for Klondike only")
    if args.rounds < 1:
        raise ValueError(f"--rounds must be 1 or more, not {args.rounds}")
    deal_json = load_json_file(args.deal, "deal") if args.deal else None
    script: Any
    if args.game == "stress":
        if args.players not in (None, 2):
            raise ValueError(f"Stress is for two players (S1), not --players {args.players}")
        the_deal = stress.StressDeal.from_json(deal_json) if deal_json is not None else stress.deal(args.seed)
        script = StressScript(stress.StressRules.from_spec(args.rules), the_deal, args.rounds)
    else:
        if args.players is not None and not 2 <= args.players <= 4:
            raise ValueError(f"Zenuwen is for 2 to 4 players (Z1), not --players {args.players}")
        zd = zenuwen.ZenuwenDeal.from_json(deal_json) if deal_json is not None else zenuwen.deal(args.seed, args.players or 2)
        if args.players is not None and zd.players != args.players:
            raise ValueError(f"the deal is for {zd.players} players, not --players {args.players}")
        script = ZenuwenScript(zenuwen_rules(args.rules, zd), zd, args.rounds)
    return render_speed(script, Path(args.out), args.seed, args.illegal, args.max_moves, _settings(args), args.video,
                        progress, command=command_line(args))


def _double(args: argparse.Namespace, progress: Any) -> dict[str, Any]:
    from referee import double_solitaire
    from referee.double_solitaire import DoubleRules

    from ..jsonl import load_json_file
    from ..replay_double import deals_from_json
    from cardref.truth_double import render_double

    for flag, value, default in (("--moves", args.moves, None), ("--hovers", args.hovers, 0)):
        if value != default:
            raise ValueError(f"{flag} is for Klondike only")
    if args.players not in (None, 2):
        raise ValueError(f"Double Solitaire is for two players (K17), not --players {args.players}")
    _one_round(args)
    deals = deals_from_json(load_json_file(args.deal, "deal")) if args.deal else double_solitaire.deal(args.seed)
    return render_double(Path(args.out), args.seed, DoubleRules.from_spec(args.rules), deals, args.illegal,
                         args.max_moves, _settings(args), args.video, progress, command=command_line(args))


RENDERERS: dict[str, Callable[[argparse.Namespace, Any], dict[str, Any]]] = {
    "double_solitaire": _double,
    "klondike": _klondike,
    "stress": _speed,
    "zenuwen": _speed,
}


def main(args: argparse.Namespace) -> int:
    from referee.options import OptionError
    from referee.verdict import NotationError

    def progress(frames: int, t: float) -> None:
        if frames % 50 == 0:
            print(f"  {frames} frames, {t:.1f} s", file=sys.stderr, flush=True)

    try:
        summary = RENDERERS[args.game](args, progress)
    except (ValueError, OSError, OptionError, NotationError, RuntimeError) as exc:
        print(f"cardref render: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary))
    return 0
