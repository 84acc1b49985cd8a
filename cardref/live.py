"""The live referee: published table states in; moves, illegal moves, calls and a game log out.

This is the join between the camera side (``vision``: steady :class:`~vision.table_state.TableState`
values) and the rules side (``referee``: move inference and the engines). Each published state is
turned into the referee's own :class:`~referee.observation.Observation`, judged, written to the game
log as it happens (one fsync'd line per finding, with its key frame) and handed to listeners (the web
app's hub) as plain JSON messages.

Klondike is followed live; Stress and Zenuwen have engines and replays but no camera inference yet.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from referee import klondike, klondike_live
from referee.klondike import KlondikeRules
from referee.observation import Finding, Observation, SeenPile
from referee.verdict import Event, Illegal, Legal
from vision.table_state import TableState

log = logging.getLogger(__name__)

Publish = Callable[[dict[str, Any]], None]

LIVE_GAMES = ("klondike",)


def observation_from_table(table: TableState, min_confidence: float = 0.5) -> Observation:
    """The referee's view of a published table: cards read with less than ``min_confidence`` become
    unreadable (``None``) so the rules, not a guess, settle them; held zones are not judged."""
    piles = {
        name: SeenPile(
            tuple(c.card if c.confidence >= min_confidence else None for c in pile.cards),
            pile.backs,
            held=name in table.held,
        )
        for name, pile in table.piles.items()
    }
    return Observation(table.t, piles, table.frame)


def public_state(live: klondike_live.LiveKlondike) -> dict[str, Any]:
    """The position as players may see it: face-down and unseen cards are counts or ``null``, never
    the placeholders the engine carries for them."""
    state, known = live.state, live.known
    picture = state.to_json()
    picture["tableau"] = [{"down": h, "up": [c.code for c in p[h:]]} for p, h in zip(state.tableau, state.hidden)]
    picture["stock"] = len(state.stock)
    picture["waste"] = [c.code if c in known else None for c in state.waste]
    return picture


@dataclass
class LiveReferee:
    """Follows one game. Feed it every published table state with :meth:`feed`.

    ``writer`` is a :class:`cardref.gamelog.writer.GameWriter` (or None: no log); ``publish`` receives
    every message for the web app (or None).
    """

    game: str
    rules: KlondikeRules
    writer: Any = None
    publish: Publish | None = None
    min_confidence: float = 0.5
    live: klondike_live.LiveKlondike | None = None
    ended: str | None = None
    history: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.game not in LIVE_GAMES:
            raise ValueError(f"the live referee follows {', '.join(LIVE_GAMES)} for now, not {self.game!r}")

    def feed(self, table: TableState, jpeg: bytes | None = None) -> list[Finding]:
        """Judge one published table state; returns what was concluded (also logged and published)."""
        obs = observation_from_table(table, self.min_confidence)
        if self.live is None:
            try:
                self.live = klondike_live.start(obs, self.rules)
            except ValueError as exc:
                self._send({"type": "status", "t": table.t, "referee": f"waiting for the deal: {exc}"})
                return []
            self._send({"type": "state", "t": table.t, **self.state_message()})
            if self.writer is not None:
                self.writer.note(table.t, "deal seen: game starts", frame=jpeg)
            return []
        if self.ended is not None:
            return []
        self.live, findings = klondike_live.observe(self.live, obs)
        for finding in findings:
            self._record(finding, jpeg)
        if any(f.kind == "move" for f in findings):
            self._send({"type": "state", "t": table.t, **self.state_message()})
            self._check_end(table.t, jpeg)
        return findings

    def state_message(self) -> dict[str, Any]:
        assert self.live is not None
        state = self.live.state
        return {
            "game": self.game,
            "rules": self.rules.spec(),
            "state": public_state(self.live),
            "score": state.score,
            "moves": self.live.moves,
            "waiting_for_take_back": None if self.live.pending is None else str(self.live.pending),
        }

    def _record(self, finding: Finding, jpeg: bytes | None) -> None:
        t = finding.t
        message: dict[str, Any] = {"type": "verdict", **finding.to_json()}
        if finding.kind == "move":
            verdict = finding.verdict
            assert isinstance(verdict, Legal)
            message.update(
                ok=True,
                text=str(finding.move),
                score=verdict.state.score,
                events=[e.to_json() for e in verdict.events],
            )
            if self.writer is not None:
                self.writer.move(t, verdict, frame=jpeg)
        elif finding.kind == "illegal":
            message.update(ok=False, text=str(finding.move), cards=self._cards_of(finding))
            if self.writer is not None:
                self.writer.illegal(t, Illegal(finding.move, finding.rule, finding.reason), frame=jpeg)
        elif finding.kind == "taken_back":
            if self.writer is not None:
                self.writer.note(t, f"the illegal move {finding.move} was taken back", frame=jpeg)
        elif finding.kind in ("unrecognised", "ambiguous"):
            if self.writer is not None:
                self.writer.unrecognised(t, finding.detail, data={"why": finding.kind}, frame=jpeg)
        self.history.append(message)
        self._send(message)

    def _cards_of(self, finding: Finding) -> list[str]:
        """The cards an illegal move involves (the moved card and what it landed on), for the big screen."""
        assert self.live is not None
        state, move = self.live.state, finding.move
        out: list[str] = []
        if move.src == "waste" and state.waste:
            out.append(state.waste[-1].code)
        elif move.src.startswith("t"):
            pile = state.tableau[int(move.src[1:]) - 1]
            out.extend(c.code for c in pile[len(pile) - move.count :][:1])
        if move.dst.startswith("t"):
            pile = state.tableau[int(move.dst[1:]) - 1]
            if pile:
                out.append(pile[-1].code)
        return out

    def _check_end(self, t: float, jpeg: bytes | None) -> None:
        assert self.live is not None
        end = klondike.outcome(self.live.state)
        if end is None:
            return
        kind = "won" if end.result == "won" else "no_moves_left"
        event = Event(kind, t=t, detail=end.reason)
        self._send({"type": "call", "call": kind, **{k: v for k, v in event.to_json().items() if k != "type"}})
        if self.writer is not None:
            self.writer.call(t, event, frame=jpeg)
            self.writer.end(t, end.result, reason=end.reason, data={"score": self.live.state.score})
        self.ended = end.result

    def _send(self, message: dict[str, Any]) -> None:
        if self.publish is None:
            return
        try:
            self.publish(message)
        except Exception:  # a viewer's trouble must never stop the referee
            log.exception("publishing a referee message failed")
