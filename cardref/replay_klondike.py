"""``cardref referee klondike``: judge a JSONL move list against a deal, one verdict per line."""

from __future__ import annotations

from typing import Any, Iterable, TextIO

from referee import klondike
from referee.klondike import KlondikeRules, Move
from referee.options import parse_options
from referee.verdict import Illegal

from .jsonl import judge_lines, write_line


def verdict_json(verdict: klondike.Legal[klondike.KlondikeState] | Illegal, score: int) -> dict[str, Any]:
    if isinstance(verdict, Illegal):
        return {"ok": False, "rule": verdict.rule, "reason": verdict.reason}
    return {"ok": True, "score": score, "events": [e.to_json() for e in verdict.events]}


def rules_for_deal(spec: str, deal: klondike.Deal) -> KlondikeRules:
    """The rules as given; an 8-pile deal with no ``columns`` option means columns=8 (K16)."""
    given = parse_options(KlondikeRules, spec)
    if "columns" not in given and len(deal.tableau) == 8:
        given["columns"] = 8
    return KlondikeRules.make(**given)


def run(spec: str, deal_json: Any, lines: Iterable[str], out: TextIO) -> int:
    """Judge every line; returns the exit code (1 if any line was malformed)."""
    try:
        deal = klondike.Deal.from_json(deal_json)
        rules = rules_for_deal(spec, deal)
        state = klondike.new_game(deal, rules)
    except ValueError as exc:
        write_line(out, {"ok": False, "error": str(exc)})
        return 2

    def judge(obj: Any) -> dict[str, Any]:
        nonlocal state
        verdict = klondike.apply(state, Move.from_json(obj))
        if isinstance(verdict, Illegal):
            return verdict_json(verdict, state.score)
        state = verdict.state
        line = verdict_json(verdict, state.score)
        if not state.won and klondike.outcome(state) is not None:
            line["events"].append({"type": "no_moves_left", "detail": "K13: no useful move is left"})
        return line

    status = judge_lines(lines, out, judge)
    end = klondike.outcome(state)
    write_line(out, {"result": end.result if end else "playing", "score": state.score})
    return status
