"""What every engine answers: a verdict per move, events, calls and outcomes.

All three games share these shapes so the live referee, the game log and the web app handle them
alike. A verdict is data: the reason is written from the cards involved and never parsed back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .cards import Card

S = TypeVar("S")


class NotationError(ValueError):
    """Input that cannot be read at all: a malformed move, pile name or event."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened as a result of a move, or a call the referee makes by itself.

    ``kind`` is a short name (``turned_up``, ``won``, ``no_moves_left``, ``stress``, ``stuck``,
    ``round_over``, ``match_over``, ``turn_over`` ...); the other fields are filled as they apply.
    """

    kind: str
    t: float | None = None
    player: int | None = None
    pile: str | None = None
    cards: tuple[Card, ...] = ()
    detail: str = ""
    data: tuple[tuple[str, Any], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        if self.t is not None:
            out["t"] = self.t
        if self.player is not None:
            out["player"] = self.player
        if self.pile is not None:
            out["pile"] = self.pile
        if self.cards:
            out["cards"] = [c.code for c in self.cards]
        if self.detail:
            out["detail"] = self.detail
        for key, value in self.data:
            out[key] = value
        return out


@dataclass(frozen=True, slots=True)
class Legal(Generic[S]):
    """The move is allowed: the position after it, the score change and what followed."""

    move: Any
    state: S
    score_delta: int = 0
    events: tuple[Event, ...] = ()

    ok = True


@dataclass(frozen=True, slots=True)
class Illegal:
    """The move breaks ``rule`` (a RULES.md id); ``reason`` says how, naming the cards."""

    move: Any
    rule: str
    reason: str

    ok = False

    def __str__(self) -> str:
        return f"{self.rule}: {self.reason}"


Verdict = Legal[S] | Illegal
