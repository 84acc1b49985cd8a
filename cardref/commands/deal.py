"""``cardref deal GAME --seed N``: print a shuffled deal as DEAL.json (same seed, same deal)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

from ..jsonl import write_line

# game name -> deal(seed, args) -> JSON-ready deal
Dealer = Callable[[int, argparse.Namespace], Any]


def _klondike(seed: int, args: argparse.Namespace) -> Any:
    from referee import klondike

    return klondike.deal(seed, columns=args.columns or 7).to_json()


def _double_solitaire(seed: int, args: argparse.Namespace) -> Any:
    from ..replay_double import deal

    return deal(seed)


def _stress(seed: int, args: argparse.Namespace) -> Any:
    from ..replay_speed import deal_stress

    return deal_stress(seed)


def _zenuwen(seed: int, args: argparse.Namespace) -> Any:
    from ..replay_speed import deal_zenuwen

    return deal_zenuwen(seed, args.players, getattr(args, "decks", None))


DEALERS: dict[str, Dealer] = {
    "klondike": _klondike,
    "double_solitaire": _double_solitaire,
    "stress": _stress,
    "zenuwen": _zenuwen,
}


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("deal", help="print a shuffled deal as DEAL.json")
    p.add_argument("game", choices=sorted(DEALERS))
    p.add_argument("--seed", type=int, required=True, help="the same seed gives the same deal")
    p.add_argument("--columns", type=int, choices=(7, 8), help="Klondike: tableau piles (K16)")
    p.add_argument("--players", type=int, choices=(2, 3, 4), help="Zenuwen: number of players")
    p.add_argument("--decks", type=int, choices=(1, 2), help="Zenuwen: decks (default: 1 for two players, 2 for more)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    write_line(sys.stdout, DEALERS[args.game](args.seed, args))
    return 0
