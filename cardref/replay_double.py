"""``cardref referee double_solitaire``: judge a JSONL move list, each move with its player, against two
deals (RULES.md K17), one verdict per line."""

from __future__ import annotations

from typing import Any, Iterable, TextIO

from referee import double_solitaire, klondike
from referee.double_solitaire import DoubleMove, DoubleRules, DoubleState
from referee.verdict import Illegal

from .jsonl import judge_lines, write_line


def deal(seed: int) -> dict[str, Any]:
    """Both players' deals, as ``cardref deal double_solitaire`` prints them."""
    a, b = double_solitaire.deal(seed)
    return {"players": [a.to_json(), b.to_json()]}


def deals_from_json(obj: Any) -> tuple[klondike.Deal, klondike.Deal]:
    players = obj.get("players") if isinstance(obj, dict) else None
    if not isinstance(players, list) or len(players) != 2:
        raise ValueError('a Double Solitaire deal is {"players": [DEAL, DEAL]}, one Klondike deal per player')
    a, b = (klondike.Deal.from_json(d) for d in players)
    if len(a.tableau) != 7 or len(b.tableau) != 7:
        raise ValueError("Double Solitaire deals lay out seven columns each (K17)")
    return a, b


def _standing(state: DoubleState) -> dict[str, Any]:
    return {"turn": state.turn, "cards_up": [state.cards_up(p) for p in range(2)]}


def run(spec: str, deal_json: Any, lines: Iterable[str], out: TextIO) -> int:
    """Judge every line; returns the exit code (1 if any line was malformed, 2 for a bad deal or rules)."""
    try:
        rules = DoubleRules.from_spec(spec)
        state = double_solitaire.new_game(deals_from_json(deal_json), rules.klondike)
    except ValueError as exc:
        write_line(out, {"ok": False, "error": str(exc)})
        return 2

    def judge(obj: Any) -> dict[str, Any]:
        nonlocal state
        move = DoubleMove.from_json(obj)
        verdict = double_solitaire.apply(state, move)
        if isinstance(verdict, Illegal):
            return {"ok": False, "player": move.player, "rule": verdict.rule, "reason": verdict.reason}
        state = verdict.state
        return {"ok": True, "player": move.player, **_standing(state), "events": [e.to_json() for e in verdict.events]}

    status = judge_lines(lines, out, judge)
    write_line(out, {"result": "playing" if state.winner is None else f"won by player {state.winner}", **_standing(state)})
    return status
