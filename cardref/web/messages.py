"""Builders for the hub's messages (docs/web-api.md), so the live pipeline and the replay source
publish exactly the same shapes. Each returns a plain dict for :meth:`cardref.web.hub.Hub.publish`.

They read an engine's state only through ``to_json()`` and a few public attributes, so they work for
Klondike, Double Solitaire, Stress and Zenuwen states alike.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from referee.verdict import Event, Illegal, Legal


def frame_message(jpeg: bytes, width: int, height: int, cards: Iterable[Any] = (), *, t: float | None = None,
                  zones: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The live picture: JPEG bytes and the recognised cards, each ``{"card": "7H", "box": [x1, y1,
    x2, y2], "confidence": 0.97}`` in the JPEG's pixels (a :class:`vision.detections.Detection` or a
    dict). ``zones`` optionally outlines the calibrated zones as image polygons ``{"name", "points"}``."""
    listed: list[dict[str, Any]] = []
    for c in cards:
        item = c.to_json() if callable(getattr(c, "to_json", None)) else dict(c)
        listed.append(item)
    out: dict[str, Any] = {"type": "frame", "jpeg": jpeg, "width": int(width), "height": int(height), "cards": listed}
    if t is not None:
        out["t"] = t
    if zones is not None:
        out["zones"] = list(zones)
    return out


def _cards_left(game: str, state: Any) -> list[int]:
    seats = getattr(state, "seats", None)
    if seats is not None:
        return [int(getattr(s, "count", 0)) for s in seats]
    found = getattr(state, "foundation_count", None)
    if isinstance(found, int):
        return [52 - found]
    return []


def _scores(game: str, state: Any) -> list[int]:
    for name in ("score", "wins"):
        value = getattr(state, name, None)
        if isinstance(value, int):
            return [value]
        if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
            return list(value)
    return []


def state_message(game: str, state: Any, *, game_id: str | None, rules: str = "", players: Sequence[str] = (),
                  t: float = 0.0, moves: int = 0, phase: str = "playing", timers: dict[str, float] | None = None,
                  extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole table after a verdict: ``state`` is the engine's ``to_json()`` picture.

    ``scores`` is the Klondike score (one number) or rounds won per player (Stress, Zenuwen);
    ``cards_left`` is per player (Klondike: cards not yet on the foundations); ``standings`` carries
    the round and the rounds won where the game has rounds.
    """
    picture = state.to_json() if callable(getattr(state, "to_json", None)) else state
    out: dict[str, Any] = {
        "type": "state",
        "game_id": game_id,
        "game": game,
        "rules": rules,
        "players": list(players),
        "state": picture,
        "scores": _scores(game, state),
        "cards_left": _cards_left(game, state),
        "timers": {"game_s": round(t, 3), **(timers or {})},
        "moves": moves,
        "phase": phase,
        "t": t,
    }
    rnd = getattr(state, "round", None)
    if isinstance(rnd, int):
        out["standings"] = {"round": rnd, "rounds_won": out["scores"]}
    if extra:
        out.update(extra)
    return out


def klondike_cards_involved(state: Any, move: Any) -> list[str]:
    """The moving card (the top of a moved run) and the card it was put on, for a Klondike move;
    empty for draw/recycle. Used to draw an illegal move's cards."""
    if getattr(move, "op", None) != "move":
        return []
    out: list[str] = []
    src, dst, count = move.src, move.dst, max(1, int(getattr(move, "count", 1) or 1))
    moving = None
    if src == "waste" and state.waste:
        moving = state.waste[-1]
    elif src.startswith("t") and src[1:].isdigit():
        pile = state.tableau[int(src[1:]) - 1] if int(src[1:]) - 1 < len(state.tableau) else ()
        if len(pile) >= count:
            moving = pile[-count]
    elif src.startswith("foundation:"):
        from referee.cards import SUITS, card_of

        suit = src.split(":", 1)[1]
        if suit in SUITS and state.foundations[SUITS.index(suit)]:
            moving = card_of(state.foundations[SUITS.index(suit)], suit)
    if moving is not None:
        out.append(moving.code)
    if dst.startswith("t") and dst[1:].isdigit() and int(dst[1:]) - 1 < len(state.tableau):
        pile = state.tableau[int(dst[1:]) - 1]
        if pile:
            out.append(pile[-1].code)
    elif dst == "foundation" and moving is not None:
        from referee.cards import SUITS, card_of

        top = state.foundations[SUITS.index(moving.suit)]
        if top:
            out.append(card_of(top, moving.suit).code)
    return out


def _move_json(move: Any) -> Any:
    to_json = getattr(move, "to_json", None)
    return to_json() if callable(to_json) else (None if move is None else str(move))


def verdict_message(verdict: Legal[Any] | Illegal, *, t: float, number: int | None = None, seq: int | None = None,
                    player: int | None = None, cards: Sequence[str] = ()) -> dict[str, Any]:
    """A rules-engine verdict: ``legal`` (with score change and events) or ``illegal`` (rule, reason,
    the cards involved). ``number`` is the move's place in the move list, ``seq`` its game-log record."""
    move = verdict.move
    out: dict[str, Any] = {
        "type": "verdict",
        "kind": "legal" if isinstance(verdict, Legal) else "illegal",
        "t": t,
        "move": _move_json(move),
        "text": "" if move is None else str(move),
        "cards": list(cards),
    }
    if player is None:
        p = getattr(move, "player", None)
        player = p if isinstance(p, int) else None
    if player is not None:
        out["player"] = player
    if number is not None:
        out["number"] = number
    if seq is not None:
        out["seq"] = seq
    if isinstance(verdict, Illegal):
        out["rule"] = verdict.rule
        out["reason"] = verdict.reason
    else:
        out["score_delta"] = verdict.score_delta
        out["events"] = [e.to_json() for e in verdict.events]
    return out


def unrecognised_message(detail: str, *, t: float, seq: int | None = None, cards: Sequence[str] = (),
                         pile: str | None = None) -> dict[str, Any]:
    """A change the camera saw but could not explain: shown as such, never counted as a move."""
    out: dict[str, Any] = {"type": "verdict", "kind": "unrecognised", "t": t, "detail": detail, "cards": list(cards)}
    if pile is not None:
        out["pile"] = pile
    if seq is not None:
        out["seq"] = seq
    return out


def correction_message(action: str, *, t: float, target: int | None, reason: str = "", by: str = "",
                       seq: int | None = None) -> dict[str, Any]:
    """A person corrected the referee (``retract``/``replace``/``insert`` of log record ``target``)."""
    out: dict[str, Any] = {"type": "verdict", "kind": "correction", "t": t, "action": action, "target": target,
                           "reason": reason, "by": by, "cards": []}
    if seq is not None:
        out["seq"] = seq
    return out


CALL_EVENTS = frozenset({"stress", "stuck", "round_over", "match_over", "won", "no_moves_left", "false_slap"})
"""Event kinds that the pages show as calls (the rest are details of a move, e.g. ``turned_up``)."""


def call_message(event: Event, *, t: float | None = None, seq: int | None = None,
                 text: str | None = None) -> dict[str, Any]:
    """A call the referee makes itself, from an engine :class:`Event` (``stress``, ``stuck`` ...)."""
    body = event.to_json()
    out: dict[str, Any] = {"type": "call", "call": event.kind, **{k: v for k, v in body.items() if k != "type"}}
    if t is not None:
        out["t"] = t
    if seq is not None:
        out["seq"] = seq
    if text is not None:
        out["text"] = text
    return out


def status_message(camera: str, *, fps: float = 0.0, dropped: int = 0, source: str = "", detail: str = "",
                   **extra: Any) -> dict[str, Any]:
    """Camera health: ``online``/``offline``/``replay``/``starting``, frames per second, frames dropped."""
    return {"type": "status", "camera": camera, "fps": round(fps, 2), "dropped": dropped, "source": source,
            "detail": detail, **extra}
