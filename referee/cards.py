"""Cards and their text notation (RULES.md: rank ``A 2 .. 10 J Q K`` + suit ``S H D C``).

There are exactly 52 :class:`Card` objects; :func:`card` and :meth:`Card.parse` hand out the same
instances, so cards compare by identity as well as by value and are cheap to keep in tuples.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Sequence

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RED_SUITS = frozenset("HD")

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


class CardError(ValueError):
    """A card code that names no card."""


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``rank`` is 1 (ace) .. 13 (king); ``suit`` one of ``S H D C``."""

    rank: int
    suit: str

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def code(self) -> str:
        """The card code, e.g. ``10H`` or ``QS``."""
        return RANKS[self.rank - 1] + self.suit

    @property
    def name(self) -> str:
        """Plain English, as the referee says it: ``the 8 of hearts``."""
        rank = RANK_NAMES.get(self.rank, str(self.rank))
        return f"the {rank} of {SUIT_NAMES[self.suit]}"

    @staticmethod
    def parse(text: str) -> "Card":
        """Read a card code; ``T`` for ten and lower case are accepted."""
        found = _BY_CODE.get(text.strip().upper()) if isinstance(text, str) else None
        if found is None:
            raise CardError(f"not a card: {text!r} (expected rank A,2..10,J,Q,K and suit S,H,D,C, e.g. '10H')")
        return found

    def __hash__(self) -> int:
        # searches hash millions of positions made of cards: no tuple built per call (equal cards, equal hashes)
        return self.rank * 128 + ord(self.suit)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"card({self.code!r})"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
"""One 52-card deck in a fixed order (spades, hearts, diamonds, clubs; ace to king)."""

_BY_CODE: dict[str, Card] = {}
for _c in DECK:
    _BY_CODE[_c.code] = _c
    if _c.rank == 10:
        _BY_CODE["T" + _c.suit] = _c
_BY_RANK_SUIT = {(c.rank, c.suit): c for c in DECK}


def card(code: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(code)


def cards(codes: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several codes: ``cards("AS 2H 10D")`` or ``cards(["AS", "2H"])``."""
    if isinstance(codes, str):
        codes = codes.split()
    return tuple(Card.parse(c) for c in codes)


def card_of(rank: int, suit: str) -> Card:
    """The card with this rank (1..13) and suit."""
    try:
        return _BY_RANK_SUIT[(rank, suit)]
    except KeyError:
        raise CardError(f"no card of rank {rank!r} and suit {suit!r}") from None


def codes(seq: Sequence[Card]) -> list[str]:
    return [c.code for c in seq]


def rank_name(rank: int) -> str:
    """``ace``, ``2`` .. ``10``, ``jack``, ``queen``, ``king``."""
    return RANK_NAMES.get(rank, str(rank))


def shuffled_decks(seed: int, decks: int = 1) -> list[Card]:
    """``decks`` full decks shuffled with a seeded generator: the same seed, the same order."""
    pack = list(DECK) * decks
    random.Random(seed).shuffle(pack)
    return pack


def parse_card_list(value: object, what: str) -> tuple[Card, ...]:
    """Read a JSON list of card codes, naming ``what`` in the error."""
    if not isinstance(value, list):
        raise CardError(f"{what}: expected a list of card codes, got {value!r}")
    return tuple(Card.parse(v) if isinstance(v, str) else _bad(v, what) for v in value)


def _bad(value: object, what: str) -> Card:
    raise CardError(f"{what}: not a card code: {value!r}")
