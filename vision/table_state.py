"""The published table state: which cards lie in which pile, in what order, and how sure that is.

This is what the tracker hands on (to ``cardref observe``'s STATES.jsonl and to the referee's
adapter); docs/states-format.md describes its JSON. Piles list their visible cards from the bottom up
(the last card is the top, the one that can be played); ``backs`` counts the face-down cards that show
under them (a squared face-down pile shows one back whatever its height).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Key = tuple[tuple[tuple[str, int, tuple[str, ...]], ...], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class SeenCard:
    """A card in a published state. ``confidence`` in [0, 1]: the detector's confidence averaged over
    the frames of the settle window, counting frames where the card was not seen as 0."""

    card: str
    confidence: float

    def to_json(self) -> dict[str, Any]:
        # Unrounded: a state read back from a file must be judged as it was live, and a confidence
        # rounded to a few decimals can land on the other side of a referee's threshold.
        return {"card": self.card, "confidence": float(self.confidence)}


@dataclass(frozen=True, slots=True)
class PileState:
    """One zone's pile: ``backs`` face-down cards showing, then ``cards`` face up, bottom to top."""

    backs: int = 0
    cards: tuple[SeenCard, ...] = ()
    backs_confidence: float = 1.0

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(c.card for c in self.cards)

    @property
    def top(self) -> str | None:
        return self.cards[-1].card if self.cards else None

    def to_json(self) -> dict[str, Any]:
        return {
            "backs": self.backs,
            "backs_confidence": float(self.backs_confidence),
            "cards": [c.to_json() for c in self.cards],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> "PileState":
        return PileState(
            backs=int(data.get("backs", 0)),
            cards=tuple(SeenCard(str(c["card"]), float(c.get("confidence", 1.0))) for c in data.get("cards", [])),
            backs_confidence=float(data.get("backs_confidence", 1.0)),
        )


@dataclass(frozen=True)
class TableState:
    """The whole table at time ``t`` (seconds on the source's clock), from frame ``frame``.

    ``piles`` has every zone of the layout (empty piles included); ``off`` lists cards lying steadily
    outside every zone; ``held`` names zones whose state was kept from before because something moved
    there (zone-by-zone publishing only). ``moved`` names the zones where the camera saw something move
    (a hand, a card) since the state published before this one; None where it cannot tell (no motion
    measured: states recorded before it was kept, a source that measures none).
    """

    t: float
    frame: int
    piles: dict[str, PileState]
    off: tuple[SeenCard, ...] = ()
    held: tuple[str, ...] = field(default=())
    moved: tuple[str, ...] | None = None

    def key(self) -> Key:
        """What two states must share to be the same table (times and confidences left out)."""
        return (
            tuple((name, p.backs, p.codes) for name, p in sorted(self.piles.items())),
            tuple(sorted(c.card for c in self.off)),
        )

    def same_table(self, other: "TableState | None") -> bool:
        return other is not None and self.key() == other.key()

    def codes(self) -> dict[str, tuple[str, ...]]:
        return {name: p.codes for name, p in self.piles.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "t": float(self.t),
            "frame": self.frame,
            "piles": {name: p.to_json() for name, p in self.piles.items()},
            "off": [c.to_json() for c in self.off],
            "held": list(self.held),
            **({} if self.moved is None else {"moved": list(self.moved)}),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> "TableState":
        return TableState(
            t=float(data["t"]),
            frame=int(data["frame"]),
            piles={str(k): PileState.from_json(v) for k, v in data["piles"].items()},
            off=tuple(SeenCard(str(c["card"]), float(c.get("confidence", 1.0))) for c in data.get("off", [])),
            held=tuple(str(h) for h in data.get("held", [])),
            moved=None if data.get("moved") is None else tuple(str(m) for m in data["moved"]),
        )
