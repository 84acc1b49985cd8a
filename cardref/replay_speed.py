"""``cardref referee stress|zenuwen``: judge a JSONL event list against a deal.

Events are judged in time order (a stable sort on ``t``: ties keep their input order), so two plays
30 ms apart on one centre pile are judged one after the other whatever order the lines came in.
Output, one JSON object per line (docs/stress-zenuwen-format.md):

- one verdict per event line: ``{"line": 3, "t": 1.5, "player": 0, "op": "play", "ok": true,
  "events": [...]}`` or ``{..., "ok": false, "rule": "S6", "reason": "..."}``; a line that cannot be
  read gives ``{"line": 3, "ok": false, "error": "..."}`` (and exit status 1 at the end);
- the calls the referee makes, as their own lines right after the event that caused them:
  ``{"call": "stress", "t": 1.5, "rule": "S8", ...}`` (also ``stuck``, ``round_over``, ``match_over``);
  calls the deal itself needs come first, at ``t`` 0;
- a summary: ``{"result": ..., "rounds_played": 1, "cards_left": [..], "winner": 0, ...}``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterable, TextIO, TypeVar

from referee import stress, zenuwen
from referee.options import OptionError, split_spec
from referee.simultaneous import in_time_order
from referee.verdict import Event, Illegal, Legal, NotationError

from .jsonl import read_lines, write_line

S = TypeVar("S")


@dataclass(frozen=True)
class _Game(Generic[S]):
    """What the replay needs from one engine."""

    calls: frozenset[str]
    read: Callable[[object], Any]
    apply: Callable[[S, Any], "Legal[S] | Illegal"]
    summary: Callable[[S], dict[str, Any]]


@dataclass
class _Item:
    line: int
    key: float
    move: Any = None
    error: str | None = None


def call_json(e: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"call": e.kind, "t": e.t}
    for key, value in e.data:
        out[key] = value
    if e.cards:
        out["cards"] = [c.code for c in e.cards]
    if e.detail:
        out["detail"] = e.detail
    return out


def _echo(item: _Item) -> dict[str, Any]:
    m = item.move
    out: dict[str, Any] = {"line": item.line, "t": m.t}
    if getattr(m, "player", None) is not None:
        out["player"] = m.player
    out["op"] = m.kind
    return out


def _judge(game: _Game[S], start: Legal[S], lines: Iterable[str], out: TextIO) -> int:
    state = start.state
    for e in start.events:
        write_line(out, call_json(e))
    items: list[_Item] = []
    last = 0.0
    for number, obj, error in read_lines(lines):
        if error is None:
            try:
                move = game.read(obj)
                last = move.t
                items.append(_Item(number, move.t, move))
                continue
            except (NotationError, ValueError) as exc:
                error = f"line {number}: {exc}"
        items.append(_Item(number, last, error=error))
    status = 0
    counts: Counter[str] = Counter()
    for item in in_time_order((it.key, it) for it in items):
        if item.error is not None:
            write_line(out, {"line": item.line, "ok": False, "error": item.error})
            status = 1
            counts["errors"] += 1
            continue
        try:
            verdict = game.apply(state, item.move)
        except (NotationError, ValueError) as exc:
            write_line(out, {**_echo(item), "ok": False, "error": f"line {item.line}: {exc}"})
            status = 1
            counts["errors"] += 1
            continue
        if isinstance(verdict, Illegal):
            counts["illegal"] += 1
            write_line(out, {**_echo(item), "ok": False, "rule": verdict.rule, "reason": verdict.reason})
            continue
        state = verdict.state
        plain = [e.to_json() for e in verdict.events if e.kind not in game.calls]
        write_line(out, {**_echo(item), "ok": True, "events": plain})
        for e in verdict.events:
            if e.kind in game.calls:
                write_line(out, call_json(e))
    summary = game.summary(state)
    summary["illegal"] = counts["illegal"]
    summary["errors"] = counts["errors"]
    write_line(out, summary)
    return status


# --- Stress ------------------------------------------------------------------------------------


def stress_summary(state: stress.StressState) -> dict[str, Any]:
    finished = state.round if state.phase in (stress.Phase.ROUND_OVER, stress.Phase.MATCH_OVER) else state.round - 1
    best = max(state.score)
    leaders = [i for i, s in enumerate(state.score) if s == best]
    winner = leaders[0] if best > 0 and len(leaders) == 1 else None
    return {
        "result": {stress.Phase.LAY: "playing", stress.Phase.PLAY: "playing", stress.Phase.STRESS: "playing"}.get(state.phase, state.phase.value),
        "game": "stress",
        "rounds_played": state.round,
        "rounds_finished": finished,
        "cards_left": list(state.cards_left()),
        "stock_left": [len(s.stock) for s in state.seats],
        "score": list(state.score),
        "winner": winner,
        "round_winner": state.winner,
        "centre": [len(p) for p in state.centre],
    }


def run_stress(spec: str, deal_json: Any, lines: Iterable[str], out: TextIO) -> int:
    """Judge every line of a Stress recording; returns the exit code (1: a line was unreadable)."""
    try:
        rules = stress.StressRules.from_spec(spec)
        start = stress.new_game(stress.StressDeal.from_json(deal_json), rules)
    except (OptionError, NotationError, ValueError) as exc:
        write_line(out, {"ok": False, "error": str(exc)})
        return 2
    game: _Game[stress.StressState] = _Game(stress.CALLS, stress.move_from_json, stress.apply, stress_summary)
    return _judge(game, start, lines, out)


# --- Zenuwen -----------------------------------------------------------------------------------


def zenuwen_summary(state: zenuwen.ZenuwenState) -> dict[str, Any]:
    over = state.phase in (zenuwen.Phase.CHOOSE, zenuwen.Phase.NEXT, zenuwen.Phase.MATCH_OVER)
    result = {
        zenuwen.Phase.TURN: "playing",
        zenuwen.Phase.PLAY: "playing",
        zenuwen.Phase.CHOOSE: "round_over",
        zenuwen.Phase.NEXT: "round_over",
        zenuwen.Phase.MATCH_OVER: "match_over",
    }[state.phase]
    w = state.match_winner
    nxt = {"next_round_cards": list(zenuwen.next_round_counts(state))} if state.phase is zenuwen.Phase.NEXT else {}
    return {
        "result": result,
        "game": "zenuwen",
        "rounds_played": state.round,
        "rounds_finished": state.round if over else state.round - 1,
        "cards_left": list(state.cards_left()),
        "pile_cards_left": [s.pile_cards for s in state.seats],
        "stock_left": [len(s.stock) for s in state.seats],
        "wins": list(state.wins),
        "winner": w,
        "gejast": [p for p in range(state.players) if p != w] if w is not None else [],
        "round_winner": state.winner,
        "centre": [len(p) for p in state.centre],
        **nxt,
    }


def zenuwen_rules(spec: str, deal: zenuwen.ZenuwenDeal) -> zenuwen.ZenuwenRules:
    """The rules as given; ``players`` and ``decks`` not given are read from the deal."""
    given = split_spec(spec)
    if "players" not in given:
        given["players"] = str(deal.players)
    if "decks" not in given:
        if deal.decks is not None:
            given["decks"] = str(deal.decks)
        elif max(Counter(deal.first.all_cards()).values(), default=0) > 1:
            given["decks"] = "2"
    return zenuwen.ZenuwenRules.from_spec(given)


def run_zenuwen(spec: str, deal_json: Any, lines: Iterable[str], out: TextIO) -> int:
    """Judge every line of a Zenuwen recording; returns the exit code (1: a line was unreadable)."""
    try:
        zenuwen.ZenuwenRules.from_spec(spec)  # unknown options fail before the deal is read
        the_deal = zenuwen.ZenuwenDeal.from_json(deal_json)
        rules = zenuwen_rules(spec, the_deal)
        start = zenuwen.new_game(the_deal, rules)
    except (OptionError, NotationError, ValueError) as exc:
        write_line(out, {"ok": False, "error": str(exc)})
        return 2
    players = rules.players

    def read(obj: object) -> zenuwen.Move:
        return zenuwen.move_from_json(obj, players)

    game: _Game[zenuwen.ZenuwenState] = _Game(zenuwen.CALLS, read, zenuwen.apply, zenuwen_summary)
    return _judge(game, start, lines, out)


def deal_stress(seed: int) -> dict[str, Any]:
    return stress.deal(seed).to_json()


def deal_zenuwen(seed: int, players: int | None = None, decks: int | None = None) -> dict[str, Any]:
    return zenuwen.deal(seed, players or 2, decks or 0).to_json()
