"""``cardref referee GAME --rules ... --deal DEAL.json < MOVES.jsonl``: replay and judge a game."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Iterable, TextIO

from ..jsonl import load_json_file, write_line

# game name -> run(rules_spec, deal_json, input_lines, out) -> exit code
Replay = Callable[[str, Any, Iterable[str], TextIO], int]


def _klondike(spec: str, deal: Any, lines: Iterable[str], out: TextIO) -> int:
    from ..replay_klondike import run

    return run(spec, deal, lines, out)


def _double_solitaire(spec: str, deal: Any, lines: Iterable[str], out: TextIO) -> int:
    from ..replay_double import run

    return run(spec, deal, lines, out)


def _stress(spec: str, deal: Any, lines: Iterable[str], out: TextIO) -> int:
    from ..replay_speed import run_stress

    return run_stress(spec, deal, lines, out)


def _zenuwen(spec: str, deal: Any, lines: Iterable[str], out: TextIO) -> int:
    from ..replay_speed import run_zenuwen

    return run_zenuwen(spec, deal, lines, out)


GAMES: dict[str, Replay] = {
    "klondike": _klondike,
    "double_solitaire": _double_solitaire,
    "stress": _stress,
    "zenuwen": _zenuwen,
}


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "referee",
        help="judge a recorded game: one JSON verdict per input line",
        description="Read moves as JSON lines on standard input and print one verdict per line, then a result line.",
    )
    p.add_argument("game", choices=sorted(GAMES), help="which game")
    p.add_argument("--rules", default="", help="rule options as key=value,key=value (defaults: RULES.md)")
    p.add_argument("--deal", required=True, help="DEAL.json, as printed by `cardref deal`")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    try:
        deal = load_json_file(args.deal, "deal")
    except ValueError as exc:
        write_line(sys.stdout, {"ok": False, "error": str(exc)})
        return 2
    return GAMES[args.game](args.rules, deal, sys.stdin, sys.stdout)
