"""Pure game logic for cardref: cards, rules, states, scoring, rounds and verdicts.

No OpenCV, no I/O and no clock: times are passed in with each move, so every engine is a pure
function from (state, move) to a verdict.
"""

from .cards import Card, CardError, card, cards
from .options import OptionError
from .verdict import Event, Illegal, Legal, NotationError, Verdict

__all__ = [
    "Card",
    "CardError",
    "Event",
    "Illegal",
    "Legal",
    "NotationError",
    "OptionError",
    "Verdict",
    "card",
    "cards",
]
