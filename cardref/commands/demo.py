"""``cardref demo``: cardref's main job on a built-in game, with no camera.

Until the camera pipeline and the web app land, the demo referees a recorded Klondike game (draw 3,
standard scoring) that ships with cardref, with one deliberate mistake slipped in, and prints what the
referee says move by move.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from typing import Any

from referee import klondike
from referee.klondike import Move
from referee.verdict import Illegal


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("demo", help="referee a built-in recorded game (no camera needed)")
    p.add_argument("--quiet", action="store_true", help="print only illegal moves, calls and the result")
    p.set_defaults(func=main)


def _load() -> tuple[klondike.Deal, list[Move]]:
    folder = resources.files("cardref") / "demo"
    deal = klondike.Deal.from_json(json.loads((folder / "klondike.deal.json").read_text()))
    lines = (folder / "klondike.moves.jsonl").read_text().splitlines()
    return deal, [Move.from_json(json.loads(line)) for line in lines if line.strip()]


def main(args: argparse.Namespace) -> int:
    deal, moves = _load()
    state = klondike.new_game(deal, klondike.KlondikeRules.make())
    # A player's typical slip: put the first waste card on whatever pile is nearest.
    moves.insert(1, Move.move("waste", "t1"))
    print(f"cardref demo: Klondike, rules {state.rules.spec()}, {len(moves)} moves\n")
    for number, move in enumerate(moves, start=1):
        verdict = klondike.apply(state, move)
        if isinstance(verdict, Illegal):
            print(f"{number:4d}  {str(move):24s} ILLEGAL  {verdict}")
            continue
        state = verdict.state
        said = "; ".join(e.kind.replace("_", " ") + (f" {e.cards[0]}" if e.cards else "") for e in verdict.events)
        if not args.quiet:
            print(f"{number:4d}  {str(move):24s} ok       score {state.score:5d}  {said}")
        elif verdict.events and any(e.kind == "won" for e in verdict.events):
            print(f"{number:4d}  {str(move):24s} {said}")
    end = klondike.outcome(state)
    print(f"\nresult: {end.result if end else 'playing'}, score {state.score}")
    return 0
