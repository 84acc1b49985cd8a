"""A recorded game as the review page steps through it: the game as corrected
(:meth:`cardref.gamelog.GameLog.effective`), one step per record, with the state where the log has
one (move records carry the position after the move) and the dealt position to start from."""

from __future__ import annotations

from typing import Any

from cardref.gamelog import GameLog, RecordKind


def initial_state(game: str, rules: str, deal: Any) -> dict[str, Any] | None:
    """The dealt position as the engine draws it, or ``None`` when the header cannot give one."""
    try:
        if game == "klondike":
            from referee import klondike

            return klondike.new_game(klondike.Deal.from_json(deal), klondike.KlondikeRules.from_spec(rules)).to_json()
        if game == "stress":
            from referee import stress

            return stress.new_game(stress.StressDeal.from_json(deal), stress.StressRules.from_spec(rules)).state.to_json()
        if game == "zenuwen":
            from referee import zenuwen

            return zenuwen.new_game(zenuwen.ZenuwenDeal.from_json(deal), zenuwen.ZenuwenRules.from_spec(rules)).state.to_json()
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return None


def _step(index: int, entry: Any, game_id: str, number: int | None) -> dict[str, Any]:
    r = entry.record
    d = r.data
    step: dict[str, Any] = {"index": index, "seq": r.seq, "t": r.t, "kind": r.kind.value}
    if number is not None:
        step["number"] = number
    for key in ("text", "rule", "reason", "detail", "why", "result", "score_delta", "player", "cards", "by"):
        if key in d:
            step[key] = d[key]
    if r.kind is RecordKind.CALL:
        step["call"] = d.get("type")
    if r.kind is RecordKind.NOTE:
        step["text"] = d.get("text", "")
    if isinstance(d.get("state"), dict):
        step["state"] = d["state"]
    if r.frame:
        step["frame"] = f"/api/games/{game_id}/frames/{r.frame}"
    if entry.correction is not None:
        c = entry.correction.data
        step["correction"] = {"seq": entry.correction.seq, "action": c.get("action"), "by": c.get("by", ""),
                              "reason": c.get("reason", "")}
        if entry.original is not None:
            step["original"] = {"kind": entry.original.kind.value, "text": entry.original.data.get("text")}
    return step


def review(log: GameLog) -> dict[str, Any]:
    """Everything the review page needs for one game."""
    if log.header is None:
        raise ValueError("the log has no readable header")
    h = log.header
    steps = []
    number = 0
    retracted = [r.target for r in log.records if r.kind is RecordKind.CORRECTION
                 and r.data.get("action") == "retract"]
    for i, entry in enumerate(log.effective()):
        n = None
        if entry.record.kind is RecordKind.MOVE:
            number += 1
            n = number
        steps.append(_step(i, entry, h.id, n))
    return {
        "id": h.id,
        "game": h.game,
        "rules": h.rules,
        "players": list(h.players),
        "started": h.started,
        "finished": log.finished,
        "result": log.result,
        "initial_state": initial_state(h.game, h.rules, h.deal),
        "steps": steps,
        "retracted": [t for t in retracted if t is not None],
        "errors": [str(e) for e in log.errors],
    }
