"""What the camera saw, in the referee's own terms, and what the referee makes of a change.

The referee does not import the vision code: the app turns a published table state into an
:class:`Observation` (pile name -> :class:`SeenPile`), with unreadable cards as ``None``. Move
inference answers with :class:`Finding` values: a move, an illegal move, a move taken back, or an
unrecognised change that is reported and never turned into an invented move.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

from .cards import Card, CardError
from .verdict import Legal


def parse_seen(code: str | None) -> Card | None:
    """The card the camera read, or None (unreadable or not a card code)."""
    if code is None:
        return None
    try:
        return Card.parse(code)
    except CardError:
        return None


def guess_apart(guess: Card, card: Card) -> int:
    """How far the camera's guess is from a card, for telling explanations apart: 0 the card, 1 another
    suit of its rank (a suit misread is the likelier), 2 another rank."""
    return 0 if guess == card else 1 if guess.rank == card.rank else 2


MAX_READS_TO_DOUBT = 2
"""A learned card read in more of the views the referee took is not doubted when a view matches no
position: a reading that contradicts it is the misread (a card on show lies read in every view taken
until it is covered; the penguins 2S read 2C was read so in two)."""


DOUBT_BELOW = 0.6
"""A card read less surely than this may be a misread when the view it is in matches no position (right
reads of the small indices of a whole table score 0.3-0.8 with the shipped models; the misreads that
got through scored 0.31-0.53)."""


T = TypeVar("T")
L = TypeVar("L")

EXPLAINED: tuple[list[str], ...] = ([], ["move"], ["illegal"], ["taken_back"])
"""What a view forgetting one misread card may show to count as explained: nothing happened but the card
read anew, a move, an illegal move, a take-back."""


def one_misread(doubtful: Iterable[T], look: Callable[[T], tuple[L, list[Finding]] | None]
                ) -> tuple[L, list[Finding]] | None:
    """The answer when exactly one of the ``doubtful`` cards, forgotten (``look``: the view judged with
    that card taken as never read; None when that does not explain it, or the view reads the card as
    before), explains a view, or exactly one explains it without a move against the rules (a misread
    and a legal move are likelier than a misread and an illegal one: Klondike penguins, draw 3, seed
    752, a 10H read QH at 0.30 and moved onto a JC, the JC read once before taken for misread too,
    and moved illegally onto the 10H); None when none or several do (then nothing says which reading
    was wrong)."""
    answers = [answer for card in doubtful if (answer := look(card)) is not None]
    if len(answers) > 1:
        answers = [a for a in answers if not any(f.kind == "illegal" for f in a[1])]
    return answers[0] if len(answers) == 1 else None


HAND_WAIT = "a hand covers part of the table: waiting for a clearer view"
"""What the referee says of a view nothing explains while a hand covers part of the table: the hand
may hide what explains the rest."""


def last_looks(live: L, obs: "Observation", *looks: Callable[[L, "Observation"], tuple[L, list[Finding]]]
               ) -> tuple[L, list[Finding]]:
    """The last, costlier looks at a view nothing else explains (one card misread earlier, two moves in
    one view), in turn until one does."""
    after: L = live
    findings: list[Finding] = []
    for look in looks:
        after, findings = look(live, obs)
        if [f.kind for f in findings] != ["unrecognised"]:
            return after, findings
    return after, findings


def stirred_since(before: frozenset[str], obs: "Observation") -> "Observation":
    """``obs`` with every pile in ``before`` (zones something moved over in views the referee left
    unused since the last one it took) no longer still: stillness counts from the view taken."""
    if not before:
        return obs
    return replace(obs, piles={z: replace(p, still=False) if p.still and z in before else p for z, p in obs.piles.items()})


def stirred_after(before: frozenset[str], obs: "Observation", taken: bool) -> frozenset[str]:
    """The zones something moved over since the last view taken, after ``obs``: none once it is taken."""
    return frozenset() if taken else before | {z for z, p in obs.piles.items() if not p.still}


def count_reads(before: Mapping[str, int], obs: "Observation") -> dict[str, int]:
    """``before`` counting the cards ``obs`` reads (a view the referee took): card code -> views."""
    out = dict(before)
    for pile in obs.piles.values():
        if not pile.held:
            for code in pile.cards:
                if code is not None:
                    out[code] = out.get(code, 0) + 1
    return out


def surely_read(before: frozenset[str], obs: "Observation") -> frozenset[str]:
    """``before`` with the cards ``obs`` reads at least ``DOUBT_BELOW`` (a view the referee took; a
    pile given without confidences is read surely, as :attr:`SeenPile.top_weak` takes it)."""
    sure = {code for pile in obs.piles.values() if not pile.held
            for code, conf in zip(pile.cards, pile.confidences if len(pile.confidences) == len(pile.cards) else [1.0] * len(pile.cards))
            if code is not None and conf >= DOUBT_BELOW}
    return before | sure if sure - before else before


def reads_of_view(before: Mapping[str, int], obs: Observation, findings: Sequence[Finding], *, taken: bool) -> Mapping[str, int]:
    """``before``, counting the cards of ``obs`` when the referee took the view (it was not left
    unused) and it was clear (nothing unrecognised or ambiguous): only such a view vouches for what it
    read."""
    if taken and not any(f.kind in ("unrecognised", "ambiguous") for f in findings):
        return count_reads(before, obs)
    return before


@dataclass(frozen=True, slots=True)
class SeenPile:
    """One pile as seen: ``backs`` face-down cards (None: could not count), then the face-up cards
    bottom to top (``None`` for a card that was seen but not read). ``held``: a hand or a moving card
    covers the pile, so it is not judged. ``guesses``: per card, what the camera made of it however
    unsure (``None``: nothing; empty: not given), for cards too unsure to be read: such a guess alone
    does not decide what a card is, but a later reading that disagrees with it says a card may have
    changed, it may tell two explanations apart, and in Stress and Zenuwen a new centre card guessed
    alike in the views in a row that wait on it is taken as guessed
    (:func:`referee.speed_live.unread_centre`).
    ``confidences``: per card, how sure the camera was (empty: not given). ``still``: the camera saw
    nothing move over the pile (no hand, no card) since the view the referee last took: a reading
    that changed there is the camera's, not the table's (False: something moved; None: not known)."""

    cards: tuple[str | None, ...] = ()
    backs: int | None = 0
    held: bool = False
    guesses: tuple[str | None, ...] = ()
    confidences: tuple[float, ...] = ()
    still: bool | None = field(default=None, compare=False)

    @property
    def top_guess(self) -> str | None:
        """What the camera made of the top card when it could not read it."""
        if not self.cards or self.cards[-1] is not None or len(self.guesses) != len(self.cards):
            return None
        return self.guesses[-1]

    @property
    def top(self) -> str | None:
        return self.cards[-1] if self.cards else None

    def confidence(self, k: int) -> float:
        """How surely card ``k`` (bottom first; -1 the top) is read, or guessed where it is not (1.0 where
        no confidences are given, as in a view written by hand)."""
        return self.confidences[k] if len(self.confidences) == len(self.cards) else 1.0

    @property
    def top_confidence(self) -> float:
        """:meth:`confidence` of the top card (1.0 for an empty pile)."""
        return self.confidence(-1) if self.cards else 1.0

    @property
    def top_weak(self) -> bool:
        """Is the top card read, but less surely than ``DOUBT_BELOW``?"""
        return self.top is not None and self.top_confidence < DOUBT_BELOW

    @staticmethod
    def of(codes: str, backs: int | None = 0) -> "SeenPile":
        """Test shorthand: ``SeenPile.of("9D 8S", backs=2)``; ``?`` is an unreadable card."""
        return SeenPile(tuple(None if c == "?" else c.upper() for c in codes.split()), backs)


@dataclass(frozen=True, slots=True)
class Observation:
    """A steady table at time ``t`` (seconds); ``frame`` refers to the key frame it came from."""

    t: float
    piles: Mapping[str, SeenPile]
    frame: int | None = None
    second_look: bool = False
    """The view looked at again with its doubtful readings left unread, after it matched no position:
    what explains it must not rest on a guess as well (Double Solitaire's guesses telling two moves
    apart), one assumption is enough."""


@dataclass(frozen=True, slots=True)
class Finding:
    """What the referee concluded from one observation.

    ``kind``: ``move`` (a legal move; ``verdict`` holds its Legal verdict), ``illegal`` (only a move
    that breaks ``rule`` explains the change; the game waits for it to be taken back), ``taken_back``
    (the table is back as it was before the illegal move), ``unrecognised`` (no single move explains
    the change; ``detail`` says what differs), ``ambiguous`` (several moves explain it equally well:
    wait for a clearer view), ``rejoined`` (the referee had lost the game and took it up again from
    the table as it lies: ``cardref.live.REJOIN_AFTER``), ``call`` (a call the referee makes itself:
    ``verdict`` holds its Event), ``withdrawn`` (a call made before, ``verdict``, that the table has
    since proved wrong: ``detail`` says how).
    """

    kind: str
    t: float
    move: Any = None
    verdict: Any = None
    rule: str = ""
    reason: str = ""
    detail: str = ""
    frame: int | None = None
    learned: tuple[tuple[str, str], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "t": self.t}
        if self.move is not None:
            out["move"] = self.move.to_json() if hasattr(self.move, "to_json") else str(self.move)
        if self.rule:
            out["rule"] = self.rule
        if self.reason:
            out["reason"] = self.reason
        if self.detail:
            out["detail"] = self.detail
        if self.frame is not None:
            out["frame"] = self.frame
        if self.learned:
            out["learned"] = dict(self.learned)
        return out


def pile_size(value: object) -> int:
    """A pile's size in a picture of a position (``public_state``): a count, or the list of its cards
    (an engine's ``to_json``, as older game logs have it). For a game taken up again."""
    return len(value) if isinstance(value, list) else int(value)  # type: ignore[call-overload]


def stands(t: float, verdict: Legal[Any]) -> Finding:
    """The illegal move the game waited to see taken back, let stand: a person said the referee was
    wrong (a card misread, or the players play it so). A ``move`` finding: the game goes on from the
    table with the move on it, and a review reads the illegal verdict's retraction, then this."""
    return Finding("move", t, move=verdict.move, verdict=verdict, detail=f"{verdict.move}: the referee was overruled, so the move stands")
