"""What move inference shares between the two speed games (:mod:`referee.stress_live`,
:mod:`referee.zenuwen_live`). Each game's file says where its cards lie, which zone shows what, which
moves a view may hide and which moves break a rule; this module does the rest the same way for both.

- **Stand-ins**: every card nobody has seen is an :class:`Unseen` card object of its own whose rank
  fits nothing, so the rules engine never judges a move or makes a call on a card the camera has
  not shown. What a view reveals is bound by a :class:`Binder` (stand-in -> card, each card no more
  often than the decks hold); cards that go face down again become new stand-ins (:func:`hide_cards`).
- **Matching a view**: :func:`fits` and :func:`differing` run the game's check of one zone over a
  view (held zones are not judged); :func:`difference` says what differs, for an ``unrecognised``
  finding; :func:`seat_zone`, :func:`pile_number` and the ``*_zone`` functions read and write the
  zone names of ``calibration.templates``.
- **Search**: :class:`Node` and :func:`breadth_first` find the shortest move series that make the
  position look like the view (:func:`targets`: with a pending illegal move, also the view with that
  move still on the table); :func:`best_explanations` keeps those that assume the fewest cards
  nobody had seen, then spread the moves most evenly. :func:`search_budget` bounds the positions
  all the searches of one view may look at together, so a view is judged in bounded time.
- **The running picture** (:class:`Live`, one subclass per game): :func:`explained` (a pending
  illegal move stays, or is taken back), :func:`deferred` (a view left unused), :func:`moved`.
- **The game's engine** (:class:`Engine`) and the steps that need it: judging the series again with
  the revealed cards in place (``replay``) and turning the verdicts into ``move`` and ``call``
  findings, stuck calls that wait until every top is seen (``settle_calls``), an illegal move as the
  only explanation (``illegal_explanation``), an input the camera cannot give (``judge_input``), a
  new round laid out as seen (``round_started``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any, Callable, ClassVar, Collection, Generic, Iterable, Iterator, Mapping, Protocol, Sequence, TypeVar

from .cards import Card
from .observation import Finding, Observation, SeenPile, parse_seen, stands
from .verdict import Event, Illegal, Legal

# --- stand-ins for cards nobody has seen ---------------------------------------------------------

_ids = itertools.count()


@dataclass(frozen=True, slots=True)
class Unseen(Card):
    """A card nobody has seen (face down, or laid but not yet in view). Its rank is far outside 1-13
    and differs from every other stand-in's by a multiple of 20, so it never fits, stacks or matches
    anything: the engine cannot judge a move or make a call on a card the camera has not shown."""

    n: int = 0

    @property
    def code(self) -> str:
        return "??"

    @property
    def name(self) -> str:
        return "an unseen card"

    def __hash__(self) -> int:
        # as Card's: no tuple per call (the searches hash stand-ins tens of millions of times); each
        # stand-in's rank is its own, and no real card's rank * 128 reaches it
        return self.rank * 128


def unseen() -> Unseen:
    """A fresh stand-in."""
    n = next(_ids)
    return Unseen(1000 + 20 * n, "?", n)


def is_unseen(c: Card | None) -> bool:
    return isinstance(c, Unseen)


def seen_code(c: Card) -> str | None:
    """The card's code for the screens, None for a card nobody has seen."""
    return None if is_unseen(c) else c.code


def from_code(code: object) -> Card:
    """The card a picture of a position names (``seen_code``'s), a new stand-in for None."""
    return unseen() if code is None else Card.parse(str(code))


def shown_codes(*cards: Card | None) -> list[str]:
    """The codes of the cards that are there and have been seen, for the screens."""
    return [c.code for c in cards if c is not None and not is_unseen(c)]


def swap_cards(cards: tuple[Card, ...], subs: Mapping[Unseen, Card]) -> tuple[Card, ...]:
    """The cards with the stand-ins in ``subs`` replaced by the real ones."""
    return tuple(subs.get(c, c) if isinstance(c, Unseen) else c for c in cards)


def hide_cards(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards face down again: their order is not seen, so each known one becomes a new stand-in."""
    return tuple(c if is_unseen(c) else unseen() for c in cards)


class Dealt(Protocol):
    def all_cards(self) -> list[Card]: ...


def real_counts(state: Dealt) -> Counter[Card]:
    """How many copies of each card the position knows (stand-ins left out)."""
    return Counter(c for c in state.all_cards() if not isinstance(c, Unseen))


def learned_pairs(subs: Mapping[Unseen, Card]) -> tuple[tuple[str, str], ...]:
    return tuple((f"unseen{u.n}", c.code) for u, c in subs.items())


# --- reading a view ------------------------------------------------------------------------------


def judged(obs: Observation, zone: str) -> SeenPile | None:
    """The pile as seen, or None when the zone is missing or held (not judged)."""
    pile = obs.piles.get(zone)
    if pile is None or pile.held:
        return None
    return pile


def bare(obs: Observation, zone: str) -> bool:
    """Does the view show the zone plainly bare: no hand over it, no card, no back?"""
    seen = judged(obs, zone)
    return seen is not None and not seen.cards and not seen.backs


def lost_as_unread(obs: Observation, zones: Iterable[str], absent: bool = False) -> Observation:
    """The view with each of ``zones`` (where the position holds cards) that shows nothing at all (no
    card, no back, no hand; with ``absent``, also one the view leaves out) taken as one card not read:
    a card the camera lost for a view (Zenuwen's ``_missed_piles``, Stress's ``_missed_places``)."""
    missed = {}
    for zone in zones:
        seen = obs.piles.get(zone)
        if seen is None and absent or seen is not None and not seen.held and not seen.cards and not seen.backs:
            missed[zone] = SeenPile((None,), backs=None, still=None if seen is None else seen.still)
    return replace(obs, piles={**obs.piles, **missed}) if missed else obs


def unread_unknown(obs: Observation, top_at: Callable[[str], Card | None]) -> bool:
    """Is a zone of the view under a hand, or unread where the position has no card it knows on top
    (``top_at``: the zone's top in the position, None where it has none or the game does not count the
    zone's top as known)? A known top the camera cannot read is that card still: had it left, the
    explanation would show where (Stress's ``_call_unseen``, Zenuwen's ``_unclear_for_calls``)."""
    return any(seen.held or None in seen.cards and ((top := top_at(zone)) is None or is_unseen(top))
               for zone, seen in obs.piles.items())


def unread_top(seen: SeenPile) -> SeenPile:
    """The pile with its top card taken as not read, the reading kept as the camera's guess of it."""
    guesses = seen.guesses if len(seen.guesses) == len(seen.cards) else (None,) * len(seen.cards)
    return replace(seen, cards=seen.cards[:-1] + (None,), guesses=guesses[:-1] + (seen.top,))


def read_anew_where_still(obs: Observation, tops: Iterable[tuple[str, Card]], stirred: frozenset[str] = frozenset(),
                          same_rank: bool = False) -> dict[str, SeenPile]:
    """Of ``tops`` (a zone, the card the position knows on top there), the zones ``obs`` reads less
    surely than ``DOUBT_BELOW`` as another card (``same_rank``: another suit of its rank) where the
    camera saw nothing move since the view taken (:attr:`SeenPile.still`, none of ``stirred``), each
    with that top taken as not read: a card does not change where no hand came."""
    return {zone: unread_top(seen) for zone, top in tops
            if zone not in stirred and (seen := obs.piles.get(zone)) is not None and seen.still is True and seen.top_weak
            and (read := parse_seen(seen.top)) is not None and read != top and (not same_rank or read.rank == top.rank)}


def laid_fits(centre: Sequence[Sequence[Card]], laid: Collection[Unseen], stand_ins: Callable[[Card], list[Card]]) -> dict[Unseen, list[Card]]:
    """Each centre top nobody has read that a play laid there (one of ``laid``, the players' own cards
    before it, not a card turned or laid from a stock) -> ``stand_ins`` of the card it covers: one card
    of each rank that fits that card (:meth:`Engine.settle_calls`)."""
    return {pile[-1]: stand_ins(pile[-2]) for pile in centre
            if len(pile) > 1 and isinstance(pile[-1], Unseen) and pile[-1] in laid and not is_unseen(pile[-2])}


def unjudged(obs: Observation) -> frozenset[str]:
    """Zones under a hand or with a card not read: they may have changed without looking different."""
    return frozenset(z for z, p in obs.piles.items() if p.held or None in p.cards)


def stock_as_seen(count: int, seen: SeenPile | None) -> int:
    """A stock the position says holds ``count`` cards, as a view taken up again after the referee lost
    the game shows it (``cardref.live.REJOIN_AFTER``): empty where the view shows it empty, one card
    where it shows one the position had emptied, else as counted (``seen.backs`` None: not counted)."""
    if seen is not None and not seen.cards and seen.backs == 0:
        return 0
    return 1 if seen is not None and count == 0 else count


def centre_reads(obs: Observation) -> frozenset[tuple[str, str]]:
    """(centre zone, card) for each centre top the view reads: what a view left unused glimpsed."""
    return frozenset((z, p.top) for z, p in obs.piles.items() if z.startswith("centre") and not p.held and p.top)


def centre_faces(obs: Observation, face_up: Callable[[str], bool] = lambda zone: zone.startswith("centre")) -> Observation:
    """The view with a back on a centre pile (or another zone where cards lie only ``face_up``) taken
    for the face it is. Centre cards lie face up (S4, Z5: turned as they are laid; piles taken away
    go to a stock), so a back the camera reports there, with no face read, is a face it took for a
    back: a card not read (Zenuwen, penguins deck, seed 112: a QC played onto a KS, boxed as a back,
    was unrecognised, and the JD laid on it next was called illegal on the KS, then the 9D after it,
    and nothing more was followed)."""
    piles = {z: replace(p, cards=(None,), backs=0, guesses=(), confidences=())
             for z, p in obs.piles.items() if face_up(z) and not p.cards and p.backs}
    return replace(obs, piles={**obs.piles, **piles}) if piles else obs


def unclear(obs: Observation) -> bool:
    """Is any zone of the view under a hand or showing a card not read?"""
    return any(p.held or None in p.cards for p in obs.piles.values())


class Binder:
    """Collects what an observation reveals: stand-in -> real card, with the deck count checked
    (a card can be learned only while fewer copies of it are known than the decks hold)."""

    __slots__ = ("bind", "_real", "_count", "decks")

    def __init__(self, real: Callable[[], Counter[Card]], decks: int) -> None:
        self.bind: dict[Unseen, Card] = {}
        self._count = real
        self._real: Counter[Card] | None = None
        self.decks = decks

    @property
    def real(self) -> Counter[Card]:
        """Known copies per card (counted when first needed: most views learn nothing)."""
        if self._real is None:
            self._real = self._count()
        return self._real

    def card(self, expected: Card | None, seen: str | None) -> bool:
        """Does the seen code fit the expected card (learning it when it is a stand-in)?"""
        if expected is None:
            return False
        if seen is None:
            return True
        if isinstance(expected, Unseen):
            got = self.bind.get(expected)
            c = parse_seen(seen)
            if c is None:
                return True  # not a card code: as unreadable
            if got is not None:
                return got is c
            if self.real[c] >= self.decks:
                return False
            self.real[c] += 1
            self.bind[expected] = c
            return True
        return expected.code == seen


ZoneCheck = Callable[[str, SeenPile, Binder], bool]
"""Does one seen zone fit the position (learning stand-ins through the binder)?"""


def fits(obs: Observation, zones: Iterable[str], check: ZoneCheck, binder: Binder) -> dict[Unseen, Card] | None:
    """What the view reveals if every judged zone (in the order given) fits, else None."""
    for zone in zones:
        seen = judged(obs, zone)
        if seen is not None and not check(zone, seen, binder):
            return None
    return binder.bind


def differing(obs: Observation, zones: Iterable[str], check: ZoneCheck, binder: Callable[[], Binder]) -> frozenset[str]:
    """The judged zones that do not look as the position says, each judged on its own."""
    out = set()
    for zone in zones:
        seen = judged(obs, zone)
        if seen is not None and not check(zone, seen, binder()):
            out.add(zone)
    return frozenset(out)


def difference(zones: Iterable[str], obs: Observation) -> str:
    """What the zones that differ show, for the unrecognised-change report."""
    parts = []
    for zone in sorted(zones):
        seen = obs.piles[zone]
        shown = " ".join(c or "?" for c in seen.cards) or (f"{seen.backs} backs" if seen.backs else "nothing")
        parts.append(f"{zone} shows {shown}")
    return "; ".join(parts) or "the table does not match the game"


# --- searching for the moves that explain a view ----------------------------------------------------

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Node(Generic[S]):
    """One hypothesis in the search: the position after ``moves``, with the stand-ins revealed on
    the way (``subs``) and the count of moves per player."""

    state: S
    moves: tuple[Any, ...] = ()
    subs: tuple[tuple[Unseen, Card], ...] = ()
    count: tuple[int, ...] = ()
    touched: frozenset[str] = frozenset()
    """Zones the moves so far changed: a later move may change them back (two decks)."""
    last: int = -1
    """The player of the last move (-1: none, a joint move, or one that made a call)."""
    last_touched: frozenset[str] = frozenset()
    parent: Any = None
    """The position before the last move."""
    guesses: tuple[Unseen, ...] = ()
    """Stand-ins given a stand-in value to be judged (a hand card covered at once by another card:
    Zenuwen); they stay unseen in what is concluded."""

    def then(
        self,
        state: S,
        move: Any,
        player: int | None,
        subs: tuple[tuple[Unseen, Card], ...] = (),
        touched: frozenset[str] = frozenset(),
        called: bool = False,
        guess: bool | tuple[Unseen, ...] = False,
    ) -> "Node[S]":
        """The node after ``move``; ``guess``: the stand-ins of ``subs`` judged on a guess (``guesses``),
        True for all of them."""
        count = self.count
        if player is not None:
            count = count[:player] + (count[player] + 1,) + count[player + 1 :]
        last = -1 if player is None or called else player
        guesses = self.guesses + (tuple(u for u, _ in subs) if guess is True else guess or ())
        return Node(
            state, self.moves + (move,), self.subs + subs, count, self.touched | touched, last, touched, self.state, guesses
        )

    def in_order(self, player: int | None, touched: frozenset[str], before_last: Callable[[], bool]) -> bool:
        """Moves of different players that touch different piles give the same table in either order:
        only one order is tried (players in seat order), unless the move depends on the last one (a
        shared pile), the last one made a call, or the move could not come before the last one
        (``before_last()``: it is illegal there or makes a call there, e.g. a stress)."""
        if player is None or player >= self.last or touched & self.last_touched:
            return True
        return before_last()


@dataclass(slots=True)
class SearchBudget:
    """The positions the searches judging one view may still look at, all of them together."""

    left: int
    spent: bool = False
    """The searches ran out: some gave up, so what the view was judged to show may be wrong."""
    outer: SearchBudget | None = None
    """The budget of the block this one is nested in: charged too, and spent with it."""
    lost: bool = False
    """Judging for a referee that has lost the game: the illegal moves tried are charged too (a
    verdict drawn from a position nothing has confirmed for a while is not worth the search), as in
    any block nested in this one."""

    def charge(self, positions: int = 1) -> bool:
        """Count ``positions`` looked at; False once this budget or an outer one is spent."""
        self.left -= positions
        outer_left = self.outer.charge(positions) if self.outer is not None else True
        self.spent = self.spent or self.left < 0 or not outer_left
        return not self.spent


# One view's judgement tries many looks (misreads, piles taken as not read, the view before it), each
# with searches of its own, nested several deep: each search's own limit does not bound their sum
# (four players at 1280x720, seed 36: one view took two minutes). The budget travels with the
# judgement in a context variable rather than through every look's signature.
_budget: ContextVar[SearchBudget | None] = ContextVar("search_budget", default=None)


@contextmanager
def search_budget(positions: int, lost: bool = False) -> Iterator[SearchBudget]:
    """The budget of the searches run inside the block: ``positions``, and inside another such block
    (a judgement nested in another; the several looks the app takes at one published state) no
    more than the outer one has left, which it is charged to as well. ``lost``: see
    :attr:`SearchBudget.lost`."""
    outer = _budget.get()
    budget = SearchBudget(positions, outer=outer, lost=lost or outer is not None and outer.lost)
    token = _budget.set(budget)
    try:
        yield budget
    finally:
        _budget.reset(token)


def breadth_first(
    start: Node[S],
    expand: Callable[[Node[S]], Iterable[Node[S]]],
    targets: Sequence[Callable[[S], dict[Unseen, Card] | None]],
    max_depth: int,
    budget: int = 20000,
    needs: Callable[[Node[S]], int] | None = None,
) -> list[tuple[Node[S], int, dict[Unseen, Card]]]:
    """The explanations with the fewest moves: ``(node, target index, what the view reveals)``.
    A position reached twice (the same moves in another order) is kept once, the first way found.
    At most ``budget`` positions are looked at (the search gives up: no explanation). ``needs``: the
    fewest moves a position still needs to look like the view (a position that cannot get there
    within ``max_depth`` is dropped). Inside :func:`search_budget`, every position generated is charged
    to it, and a spent budget gives up the same way."""
    shared = _budget.get()
    frontier = [start]
    seen: set[Any] = {start.state}
    for depth in range(max_depth + 1):
        hits = []
        for node in frontier:
            for k, target in enumerate(targets):
                b = target(node.state)
                if b is not None:
                    hits.append((node, k, b))
                    break
        if hits or depth == max_depth:
            return hits
        nxt = []
        for node in frontier:
            for child in expand(node):
                if shared is not None and not shared.charge():
                    return []
                if child.state not in seen:
                    seen.add(child.state)
                    if needs is None or depth + 1 + needs(child) <= max_depth:
                        nxt.append(child)
            if len(seen) > budget:
                return []
        frontier = nxt
        if not frontier:
            break
    return []


Explanation = tuple[S, Node[S], int, dict[Unseen, Card]]
"""A final position, the search node that reaches it, the target index (1: the pending illegal
move still on the table), and every stand-in the series and the view reveal."""


def best_explanations(
    hits: Sequence[tuple[Node[S], int, dict[Unseen, Card]]],
    substitute: Callable[[S, Mapping[Unseen, Card]], S],
    canon: Callable[[Node[S], S], Any] | None = None,
    rarity: Callable[[Explanation[S]], Any] | None = None,
) -> list[Explanation[S]]:
    """The explanations (fewest moves already) that assume the fewest cards nobody had seen, then
    the least rare by ``rarity`` (a sortable key: what the game counts as unlikely), then those that
    spread the moves most evenly over the players (two moves of one player between two steady views
    are rarer than one move each); one per distinct final position (``canon``: what makes two final
    positions the same, e.g. leaving out guessed cards nobody saw)."""
    finals: dict[Any, Explanation[S]] = {}
    for node, k, b in hits:
        subs = dict(node.subs)
        subs.update(b)
        final = substitute(node.state, subs)
        finals.setdefault(final if canon is None else canon(node, final), (final, node, k, subs))

    def cost(x: Explanation[S]) -> tuple[int, Any, int]:
        return len(x[3]), rarity(x) if rarity is not None else 0, max(x[1].count, default=0)

    if not finals:
        return []
    best = min(cost(x) for x in finals.values())
    return [x for x in finals.values() if cost(x) == best]


def targets(
    match: Callable[[S, Observation], dict[Unseen, Card] | None],
    obs: Observation,
    overlay: Callable[[S], S | None] | None,
) -> list[Callable[[S], dict[Unseen, Card] | None]]:
    """What a series must reach: the view (target 0) or, with an illegal move waiting to be taken
    back, the view with that move still on the table (target 1: ``overlay`` redoes it by hand)."""
    out: list[Callable[[S], dict[Unseen, Card] | None]] = [lambda s: match(s, obs)]
    if overlay is not None:

        def with_pending(s: S) -> dict[Unseen, Card] | None:
            after = overlay(s)
            return None if after is None else match(after, obs)

        out.append(with_pending)
    return out


# --- the engine's verdicts as findings --------------------------------------------------------------


class Timed(Protocol):
    @property
    def t(self) -> float: ...


class Position(Dealt, Timed, Protocol):
    @property
    def stuck(self) -> bool: ...


P = TypeVar("P", bound=Position)


def clean_events(events: Iterable[Event]) -> tuple[Event, ...]:
    """Events without unseen stand-ins in their card lists (a refill not yet seen names no card)."""
    out = []
    for e in events:
        if any(is_unseen(c) for c in e.cards):
            e = replace(e, cards=tuple(c for c in e.cards if not is_unseen(c)))
        out.append(e)
    return tuple(out)


def call_findings(events: Iterable[Event], calls: frozenset[str], t: float, frame: int | None) -> list[Finding]:
    out = []
    for e in events:
        if e.kind in calls:
            rule = dict(e.data).get("rule", "")
            out.append(Finding("call", t, verdict=e, rule=str(rule), detail=e.detail, frame=frame))
    return out


# --- the running picture ----------------------------------------------------------------------------


class Pending(Protocol):
    """An illegal move on the table, waiting to be taken back."""

    @property
    def move(self) -> Any: ...

    @property
    def verdict(self) -> Illegal: ...


Q = TypeVar("Q", bound=Pending)


@dataclass(frozen=True, slots=True)
class Live(Generic[P, Q]):
    """The referee's running picture of a real game (each game's is a subclass)."""

    state: P
    pending: Q | None = None
    """An illegal move on the table: the game waits for it to be taken back (others may go on)."""
    moves: int = 0
    last: Observation | None = field(default=None, compare=False)
    """The last view that did not match the position (judged again after an explicit input)."""
    waiting: str = ""
    """What the referee waits for, for the screens (a slap, a readable centre card, a take-back)."""
    deferred: int = 0
    """Views in a row not used: a hand (or an unread card) may hide a move, or they would make a call
    while a zone is not seen."""
    reads: Mapping[str, int] = field(default_factory=dict, compare=False)
    """Card code -> how many of the views the referee took read it (each game's ``observe``): a learned
    card read in few may be a misread, one read in none was taken from the camera's guesses
    (:func:`unread_centre`) and is put right by the first view that reads another card there surely
    (:func:`read_anew`; Zenuwen's ``_misread``)."""
    sure: frozenset[str] = field(default=frozenset(), compare=False)
    """Card codes some view the referee took read at least ``DOUBT_BELOW`` (:func:`surely_read`; kept
    by Stress, whose row cards read only unsurely may be doubted when the card is read surely
    elsewhere)."""
    centre_guesses: tuple[tuple[str, str | None], ...] = field(default=(), compare=False)
    """(centre zone, what the camera made of its new card) for each view left unused because that
    card could not be read (:func:`unread_centre`), in order."""
    stuck_at: int | None = field(default=None, compare=False)
    """``moves`` when the standing stuck call was made: a play from the table with no move between
    proves it wrong (:func:`stuck_refuted`)."""
    carried: ClassVar[tuple[str, ...]] = ()
    """The game's own fields that every picture after a judged view or input keeps (:func:`moved`):
    what the table says that the position cannot hold."""


L = TypeVar("L", bound=Live[Any, Any])


def stuck_since(live: Live[Any, Any], after: Live[Any, Any], findings: Sequence[Finding]) -> int | None:
    """:attr:`Live.stuck_at` after a view: the moves so far when the view made a stuck call, kept while
    the call stands."""
    if any(f.kind == "call" and f.verdict.kind == "stuck" for f in findings):
        return after.moves
    return live.stuck_at if getattr(after.state, "stuck", False) else None


def stuck_refuted(live: Live[Any, Any], findings: list[Finding], refutes: Callable[[Any], bool], rule: str) -> list[Finding]:
    """The view's findings, with a ``withdrawn`` finding before a move that ``refutes`` the stuck call
    standing (a card played from the table) when it is the first move since the call: a card could be
    played, so a card the call rested on was misread. After any other move first the call may have been
    right (Stress: a stack whose refill nobody read; Zenuwen: a hand card, which a call never counts)."""
    if not getattr(live.state, "stuck", False) or live.stuck_at != live.moves:
        return findings
    for k, f in enumerate(findings):
        if f.kind != "move":
            continue
        if refutes(f.move):
            detail = f"the stuck call was wrong: {f.move} is a play, so a card the call rested on was misread"
            call = Event("stuck", f.t, detail=detail, data=(("rule", rule),))
            return [*findings[:k], Finding("withdrawn", f.t, verdict=call, detail=detail, frame=f.frame), *findings[k:]]
        return findings  # (the first move of the view is another)
    return findings


Waiting = Callable[[Any], str]
"""What a game's position waits for, for the screens ("" for nothing)."""


def awaited(state: Any, pending: Pending | None, waiting: Waiting) -> str:
    """What the referee waits for: an illegal move to be taken back first, else what the position does."""
    if pending is not None:
        return f"the illegal move to be taken back ({pending.verdict.rule})"
    return waiting(state)


def moved(live: L, state: Any, pending: Any, findings: Sequence[Finding], waiting: Waiting, last: Observation | None = None) -> L:
    """The picture after a judged view or input: the new position, the moves found counted, nothing
    left unused (anything else a game's picture holds starts afresh, but the cards' reads and the
    game's ``carried`` fields)."""
    count = sum(1 for f in findings if f.kind == "move")
    kept = {name: getattr(live, name) for name in live.carried}
    return type(live)(state, pending, live.moves + count, last, awaited(state, pending, waiting), reads=live.reads,
                      sure=live.sure, **kept)


GUESS_VIEWS = 2
"""Views in a row, left unused because a new centre card cannot be read, that must all make the same
guess of it for the referee to take the guess (:func:`unread_centre`)."""


GUESS_FLOOR = 0.15
"""A guess scored under this counts for nothing in :func:`unread_centre` (four players, penguins,
seed 43: a QS turned was guessed 6S at 0.02-0.06 view after view)."""


AGREEING_GUESS_FLOOR = 0.05
"""A centre top the camera cannot read counts as read (:func:`read_where_guessed`) when its guess,
scoring at least this, is the very card the legal series leaves there (a card read in its place, seen
leaving it). :data:`GUESS_FLOOR` is for guesses that decide a card; this one only agrees with the
rules' one card in 52 (or 104). Stress, penguins, seed 59: a 10H read in its row place played onto
centre2 beside a 10D was guessed 10H at 0.10-0.14 there, so the stress call waited 2.4 s, until the
players' hands were over the centre, and the slaps were read wrong. Zenuwen, three players, penguins,
seed 132: a QH played onto a KH, guessed QH at 0.07-0.13 there, held every view for 8 s as a card
that might be under a hand, while the next player laid three cards on the next pile; the view that
ended the wait was four moves from the position, and took the wrong pile for one of them."""


UNSEEN_AFTER = GUESS_VIEWS + 1
"""Views in a row a new centre card that cannot be read is waited on (its guesses may agree in them)
before it is taken as laid unseen (:func:`unread_centre`): the players play on at once, and a view
may explain only so many moves (Stress, penguins, seed 54; Zenuwen, three players, penguins, seed
126: the first turn's QC, guessed 6C now and then, faintly, was waited on while three plays went on,
the last a JS onto the QC, and the JS read there was then taken for the card turned)."""


@dataclass(frozen=True, slots=True)
class Guessed:
    """New centre cards never read but guessed alike in :data:`GUESS_VIEWS` views: taken as guessed."""

    subs: dict[Unseen, Card]
    """Each new centre card's stand-in -> the card guessed."""
    cards: dict[str, Card]
    """Centre zone -> the card guessed there."""
    note: str
    """For the log: which cards were taken from guesses."""
    unseen: frozenset[str] = frozenset()
    """Centre zones whose new card is laid unseen, waited on long enough (``unseen_after``)."""

    def view(self, obs: Observation) -> Observation:
        """The view with the guessed cards read: what is judged further (a hand elsewhere may still
        hold it back) rests on them as on cards read."""
        read = {z: replace(obs.piles[z], cards=obs.piles[z].cards[:-1] + (c.code,)) for z, c in self.cards.items()}
        return replace(obs, piles={**obs.piles, **read})


def unread_centre(
    live: L, obs: Observation, final: Dealt, centre: Sequence[Sequence[Card]], t: float, how: str, decks: int,
    unseen_after: int | None = None,
) -> tuple[L, list[Finding]] | Guessed | None:
    """The view left unused while a new centre card (``how``: laid, turned) cannot be read yet, saying
    on which piles: the players can straighten the card or take a hand away. None: every new centre
    card of the explanation (``final`` position, its ``centre`` piles) is read.

    A card the camera reads below the referee's threshold view after view would hold the game for
    good (Zenuwen, penguins deck, seed 115: the first card turned, a QS, read at 0.21-0.30 in every
    view until it was covered; nothing after it was followed). So when the last :data:`GUESS_VIEWS`
    views waited on (this one included) all guessed each such card the same, scoring at least
    :data:`GUESS_FLOOR`, and fewer copies of that card are known than the ``decks`` hold, the guesses
    are taken (:class:`Guessed`); a view that guesses otherwise, or not at all, starts the count again.

    With ``unseen_after``, a card waited on in that many views before this one (a hand over its pile
    not counted) without a guess taken is laid unseen (a :class:`Guessed` that reads nothing): the
    series is taken with its stand-in, a later view that reads the card learns it, and a play onto
    it is judged as onto a card that fits
    (Stress, where the players play on at once: penguins, seed 54, a QS laid and guessed QS at 0.07,
    then 6S at 0.11-0.23, held the view while a 3S and a 2D were played onto the other new card;
    when the JC came onto the queen, four moves were more than one view may explain, and every view
    after it was unrecognised)."""
    unread = [(centre_zone(j), pile[-1]) for j, pile in enumerate(centre) if pile and is_unseen(pile[-1])]
    if unseen_after is not None:  # a card laid unseen before is not waited on again
        unread = [(z, u) for z, u in unread if not any(p and p[-1] is u for p in live.state.centre)]
    if not unread:
        return None
    # a view with a hand over the pile says nothing of the card: it is not counted
    history = live.centre_guesses + tuple((zone, guess_of(obs, zone)) for zone, _ in unread if judged(obs, zone) is not None)
    taken = _taken_guesses(history, [z for z, _ in unread], final, decks)
    if taken is not None:
        subs = {u: taken[z] for z, u in unread if isinstance(u, Unseen)}
        said = "; ".join(f"{z}'s new card, never read surely, was guessed {c.code}" for z, c in taken.items())
        return Guessed(subs, taken, f"{said} in {GUESS_VIEWS} views in a row: taken as guessed")
    waited = [sum(z == zone for z, _ in live.centre_guesses) for zone, _ in unread]
    if unseen_after is not None and min(waited) >= unseen_after:
        said = ", ".join(z for z, _ in unread)
        note = f"the new card on {said} could not be read in {min(waited) + 1} views: taken as laid unseen (name it on the referee screen)"
        return Guessed({}, {}, note, frozenset(z for z, _ in unread))
    where = ", ".join(z for z, _ in unread)
    return replace(live, last=obs, waiting=f"a clear view of the new card on {where}", centre_guesses=history), [
        Finding("ambiguous", t, frame=obs.frame, detail=f"new centre card {how} but not readable yet on {where}: waiting for a clearer view")
    ]


def read_anew(live: L, obs: Observation, retop: Callable[[Any, int, Card], Any], decks: int) -> L | None:
    """The picture with each centre top no view has read (``Live.reads``: taken from the camera's
    guesses) that the view reads surely as another card put right (``retop``: the position with
    centre pile j's top replaced), or None when there is none. The camera can guess a card wrong the
    same way view after view (Stress, penguins, seed 53: a QC guessed 9C and taken so; every view
    after it was unrecognised)."""
    state, fixed = live.state, False
    real: Counter[Card] | None = None
    for j, pile in enumerate(state.centre):
        seen = judged(obs, centre_zone(j))
        read = parse_seen(seen.top) if seen is not None and not seen.top_weak else None
        if not pile or is_unseen(pile[-1]) or live.reads.get(pile[-1].code) or read is None or read == pile[-1]:
            continue
        real = real if real is not None else real_counts(state)
        if real[read] >= decks:
            continue  # every copy of that card is known elsewhere: not this one
        state = retop(state, j, read)
        fixed = True
    return replace(live, state=state) if fixed else None


def read_where_guessed(obs: Observation, centre: Sequence[Sequence[Card]], floor: float = GUESS_FLOOR) -> Observation:
    """The view with each centre top it could not read taken as read where the camera's guess (scoring
    at least ``floor``) is the very card the explanation leaves there (its final ``centre``
    piles). The guess does not decide the card, the legal series does, and the
    guess agrees, so the view need not wait for a clearer one before concluding (penguins deck, seed
    115: the QC that ended a round, read at 0.22 on its centre pile, guessed QC, in the one view
    before the piles were taken up, was left unused as if a hand hid the pile, and the round's end
    was never followed). Pile tops are left out: taking a Zenuwen pile top guessed as the card the
    position knows there as read (three players, seed 111: a near-seat KH read at 0.08-0.29 in every
    view held a turn back) concluded views sooner, and the views after them, judged with fewer views
    left unused, went to explanations the tests' recorded games show wrong."""
    return read_as_guessed(obs, {centre_zone(j): pile[-1].code for j, pile in enumerate(centre)
                                 if pile and not is_unseen(pile[-1])}, floor)


def read_as_guessed(obs: Observation, expected: Mapping[str, str], floor: float = GUESS_FLOOR) -> Observation:
    """The view with each zone's unread top taken as read as the card ``expected`` there where the
    camera's guess (scoring at least ``floor``) is that card."""
    read = {}
    for zone, code in expected.items():
        seen = judged(obs, zone)
        if seen is not None and guess_of(obs, zone, floor) == code:  # a guess only where the top is unread
            read[zone] = replace(seen, cards=seen.cards[:-1] + (code,))
    return replace(obs, piles={**obs.piles, **read}) if read else obs


def noted(findings: list[Finding], note: str) -> list[Finding]:
    """The findings with ``note`` on the first move (the log notes how the referee got there)."""
    for i, f in enumerate(findings):
        if f.kind == "move":
            detail = f"{f.detail}; {note}" if f.detail else note
            return findings[:i] + [replace(f, detail=detail)] + findings[i + 1:]
    return findings


def best_in_place(
    before: Mapping[tuple[str, str], float], readings: Iterable[tuple[str, str, float]], kept: Callable[[str], bool]
) -> dict[tuple[str, str], float]:
    """``before`` after a view taken: (place, card) -> how surely at most the views taken read that
    card there, from ``readings`` (place, card read on top, how surely); a place whose card the
    position changed (``kept`` false) starts afresh. A card read surely in another place (its twin,
    or itself before it lay here) is no surer where it lies now."""
    out = {key: v for key, v in before.items() if kept(key[0])}
    for zone, code, sure in readings:
        out[(zone, code)] = max(out.get((zone, code), 0.0), sure)
    return out


def guess_of(obs: Observation, zone: str, floor: float = GUESS_FLOOR) -> str | None:
    """What the camera makes of the zone's top, read or not; None where it scores under ``floor``
    (or the zone is not judged)."""
    seen = judged(obs, zone)
    if seen is None or seen.top_confidence < floor:
        return None
    return seen.top_guess


STUCK_GUESS_FLOOR = 0.0
"""A guess of an unread top counts for a stuck call however faint (:func:`tops_guessed`): it only has to
say that the card is none of the few that fit (kept penguins Stress matches: calls 88 -> 95/97, no
false one added; a floor of 0.05 loses one, a queen guessed at 0.02-0.04: 94/97)."""


def tops_guessed(state: Dealt, obs: Observation, tops: Iterable[tuple[str, Card]], decks: int
                 ) -> dict[Unseen, Card] | None:
    """The camera's guesses of the tops nobody has read (``tops``: zone and card), every one, in a view
    no hand covers, for :meth:`Engine.settle_calls`; None otherwise, or where a guess names a card of
    which the decks hold no copy the position does not know already."""
    if any(p.held for p in obs.piles.values()):
        return None
    counts = real_counts(state)
    out: dict[Unseen, Card] = {}
    for zone, top in tops:
        if not isinstance(top, Unseen):
            continue
        card = parse_seen(guess_of(obs, zone, STUCK_GUESS_FLOOR))
        if card is None or counts[card] >= decks:
            return None
        counts[card] += 1
        out[top] = card
    return out


def _taken_guesses(
    history: Sequence[tuple[str, str | None]], zones: Sequence[str], final: Dealt, decks: int
) -> dict[str, Card] | None:
    """Zone -> the card guessed alike in the last views waited on, for every zone;
    None when a zone's last :data:`GUESS_VIEWS` guesses are not all the same card, or more copies of
    the cards would be known than the decks hold."""
    real = real_counts(final)
    out: dict[str, Card] = {}
    for zone in zones:
        guesses = [g for z, g in history if z == zone][-GUESS_VIEWS:]
        card = parse_seen(guesses[0]) if len(guesses) == GUESS_VIEWS and guesses[0] is not None else None
        if card is None or any(g != guesses[0] for g in guesses):
            return None
        real[card] += 1
        if real[card] > decks:
            return None
        out[zone] = card
    return out


def deferred(live: L, obs: Observation) -> L:
    """The view left unused: the next one (hands gone, one hopes) is judged from the same position."""
    return replace(live, last=obs, deferred=live.deferred + 1, waiting="a view without hands over the piles")


def explained(live: L, new_state: Any, findings: list[Finding], k: int, t: float, frame: int | None, waiting: Waiting) -> tuple[L, list[Finding]]:
    """The picture after a view a legal series explains: reaching target 1, the pending illegal move
    is still on the table; reaching target 0 with one pending, it was taken back (a finding)."""
    pend = live.pending
    new_pend = pend if k == 1 else None
    if pend is not None and k == 0:
        findings.append(Finding("taken_back", t, move=pend.move, frame=frame))
    return moved(live, new_state, new_pend, findings, waiting), findings


def public_picture(live: Live[Any, Any], players: list[dict[str, object]], text: Callable[[Any], str], **extra: object) -> dict[str, object]:
    """The position as players may see it, in the order both games show it: phase, round, the players
    (as the game shows them), the centre piles (unseen cards as None), the game's own ``extra``, the
    moves found, what the referee waits for, and the illegal move waiting to be taken back (``text``:
    how the game words a move)."""
    state = live.state
    return {
        "phase": state.phase.value,
        "round": state.round,
        "players": players,
        "centre": [[seen_code(c) for c in p] for p in state.centre],
        **extra,
        "moves": live.moves,
        "waiting_for": live.waiting or None,
        "waiting_for_take_back": None if live.pending is None else text(live.pending.move),
    }


def later_view(observation: Observation, t: float | None) -> Observation:
    """The view with the time an input was given, when that is later."""
    return replace(observation, t=t) if t is not None and t > observation.t else observation


# --- the per-game engine and the steps that use it ----------------------------------------------------


@dataclass(frozen=True)
class Engine(Generic[P]):
    """The per-game half of the shared steps: the rules engine and where the game's cards lie."""

    apply: Callable[[P, Any], Legal[P] | Illegal]
    calls: frozenset[str]
    """Event kinds that are the referee's own announcements (``call`` findings)."""
    finish: Callable[[P, float, list[Event]], tuple[P, list[Event]]]
    """The calls a position makes by itself (a stuck call made or let lapse)."""
    substitute: Callable[[P, Mapping[Unseen, Card]], P]
    face_down_unseen: Callable[[P], P]
    """The position with every face-down card a stand-in again (their order is not seen)."""
    tops: Callable[[P], Iterable[Card]]
    """Every card a stuck call looks at: the players' pile tops and the centre tops."""
    in_play: Callable[[P], bool]
    """Is play under way (a stuck call possible)?"""
    unsticks: Callable[[Any], bool] = lambda move: False
    """Is the move the one a stuck position waits for (Stress's new centre cards, Zenuwen's turn)?"""

    def called(self, v: Legal[Any]) -> bool:
        return any(e.kind in self.calls for e in v.events)

    def blocked(self, parent: P | None, move: Any) -> Callable[[], bool]:
        """Could ``move`` not have come first (before the last move of the series)?"""

        def check() -> bool:
            if parent is None:
                return True
            v = self.apply(parent, move)
            return not isinstance(v, Legal) or self.called(v)

        return check

    def move_findings(
        self, v: Legal[P], state: P, t: float, frame: int | None, learned: tuple[tuple[str, str], ...] = (), move: Any = None
    ) -> list[Finding]:
        """A legal move as found (``move``: as reported, default the verdict's; ``state``: the position
        after it, as the referee keeps it), followed by the calls the engine made on the way."""
        move = v.move if move is None else move
        plain = clean_events(e for e in v.events if e.kind not in self.calls)
        findings = [Finding("move", t, move=move, verdict=Legal(move, state, 0, plain), frame=frame, learned=learned)]
        return findings + call_findings(v.events, self.calls, t, frame)

    def decisive_unseen(self, state: P) -> bool:
        """Is a pile top or centre top not seen yet (a stuck call would be a guess)?"""
        return any(is_unseen(c) for c in self.tops(state))

    def settle_calls(self, state: P, t: float, frame: int | None,
                     guessed: Mapping[Unseen, Card] | None = None,
                     fits: Mapping[Unseen, Sequence[Card]] | None = None) -> tuple[P, list[Finding]]:
        """Calls that wait for cards to be seen (stuck), made once they are; a stuck call that a card
        learned since has made wrong lapses (as the engine lets it lapse after a move). ``guessed``:
        the camera's guesses of the tops nobody has read (every one): a stuck call they make is made,
        saying it rests on them (the cards may never be read: a penguins queen in a row place).
        ``fits``: for unread centre tops laid by a play, one card of each rank the play was legal with:
        a stuck call that every one of them makes is made as certain (:meth:`stuck_whatever`)."""
        if not self.in_play(state):
            return state, []
        if self.decisive_unseen(state):
            if getattr(state, "stuck", True):
                return state, []
            fits = fits or {}
            whatever = self.stuck_whatever(state, fits, t)
            if whatever is not None:
                return replace(state, stuck=True), call_findings([whatever], self.calls, t, frame)  # type: ignore[type-var]
            # (a guess of a card laid by a play that does not fit the card it covers is no card it may be:
            # Stress, penguins, seed 119, a QS played onto a JH guessed 6S there made a stuck call)
            guessed = {u: c for u, c in (guessed or {}).items() if u not in fits or any(c.rank == f.rank for f in fits[u])}
            if not guessed:
                return state, []
            as_guessed = self.substitute(state, guessed)
            if self.decisive_unseen(as_guessed):
                return state, []
            _, events = self.finish(as_guessed, t, [])
            stuck = [e for e in events if e.kind == "stuck"]
            if not stuck:
                return state, []
            named = sorted(c.code for c in guessed.values())
            call = replace(stuck[0], detail=f"{stuck[0].detail}; the camera could not read {', '.join(named)}, only guess it",
                           data=stuck[0].data + (("guessed", named),))
            return replace(state, stuck=True), call_findings([call], self.calls, t, frame)  # type: ignore[type-var]
        after, events = self.finish(state, t, [])
        return after, call_findings(events, self.calls, t, frame)

    def stuck_whatever(self, state: P, fits: Mapping[Unseen, Sequence[Card]], t: float) -> Event | None:
        """The stuck call the position makes whichever card of ``fits`` each unread top is, or None (a
        top not in ``fits`` unread, or one of the cards lets a player play). A card laid on a centre pile
        is one rank above or below the card it covers; which rank, and which of its cards, the camera
        may never say (two players, penguins, seed 155: p2's QC, read 9C in its place, played onto a JS
        and guessed 6C there, the 6C known elsewhere: no stuck call, and the turn after it was not
        followed). Where every rank it may be leaves nobody a play, the call does not rest on it."""
        if not fits or any(is_unseen(c) and c not in fits for c in self.tops(state)):
            return None
        unread = list(fits)
        call: Event | None = None
        for cards in itertools.product(*(fits[u] for u in unread)):
            _, events = self.finish(self.substitute(state, dict(zip(unread, cards))), t, [])
            stuck = next((e for e in events if e.kind == "stuck"), None)
            if stuck is None:
                return None
            call = call or stuck
        if call is None:
            return None
        ranks = " or ".join(dict.fromkeys(c.name.split(" of ")[0].removeprefix("the ")
                                          for c in sorted((c for u in unread for c in fits[u]), key=lambda c: c.rank)))
        return replace(call, detail=f"{call.detail}; the card laid unread is a {ranks}: stuck either way",
                       data=call.data + (("unread_fits", tuple(sorted(c.code for u in unread for c in fits[u]))),))

    def replay(
        self, start: P, moves: Sequence[Any], subs: Mapping[Unseen, Card], t: float, frame: int | None
    ) -> tuple[P, list[Finding]] | None:
        """Judge the explaining moves again from the start with every revealed card in place, so the
        verdicts and calls rest on the real cards; None if one of them is then not legal."""
        state = self.substitute(start, subs)
        findings: list[Finding] = []
        learned = learned_pairs(subs)
        answered: set[int] = set()  # (ids of) the stuck calls the series' next move answers
        for k, move in enumerate(moves):
            if getattr(state, "stuck", False) and self.unsticks(move):
                answered |= {id(f) for f in [f for f in findings if f.kind == "call" and f.verdict.kind == "stuck"][-1:]}
            v = self.apply(state, replace(move, t=t))
            if not isinstance(v, Legal):
                return None
            state = v.state
            findings += self.move_findings(v, state, t, frame, learned if k == 0 else ())
        state = self.face_down_unseen(state)  # after the last move: the cards learned here are all face up
        # A stuck call between two moves of the same view rests on an order nobody saw: only a
        # position still stuck at the end of the view is called (once), and one the next move
        # answered (new centre cards twice in one view: Stress, penguins, seed 112).
        stuck = [f for f in findings if f.kind == "call" and f.verdict.kind == "stuck"]
        if stuck:
            keep = stuck[-1] if state.stuck else None
            # (an answered call rests on nothing a later view could show: marked so, it holds no view)
            findings = [replace(f, verdict=replace(f.verdict, data=f.verdict.data + (("answered", True),)))
                        if id(f) in answered else f
                        for f in findings if f not in stuck or f is keep or id(f) in answered]
        return self.without_unseen_stuck(start, state, findings)

    def without_unseen_stuck(self, start: P, state: P, findings: list[Finding]) -> tuple[P, list[Finding]]:
        """A stuck call resting on a card not seen yet: withdrawn, made again once the card shows. (A
        call the series makes anew counts, the position before stuck or not: new centre cards may have
        answered that one first; Stress, penguins, seed 119: after a lay and two plays, a stuck call on
        a refill not laid yet, made when its held view was taken after all, though the view after it
        read the refill, a 2C that fitted.)"""
        anew = any(f.kind == "call" and f.verdict is not None and f.verdict.kind == "stuck" for f in findings)
        if state.stuck and (not start.stuck or anew) and self.decisive_unseen(state):
            findings = [f for f in findings if not (f.kind == "call" and f.verdict.kind == "stuck")]
            state = replace(state, stuck=False)  # type: ignore[type-var]
        return state, findings

    def illegal_explanation(
        self,
        live: L,
        obs: Observation,
        starts: Iterable[Node[P]],
        physical: Callable[[P], Iterable[tuple[Q, P, Mapping[Unseen, Card]]]],
        in_view: Callable[[Q, Observation], bool],
        match: Callable[[P, Observation], dict[Unseen, Card] | None],
        t: float,
        waiting: Waiting,
    ) -> tuple[L, list[Finding]] | None:
        """Only a move that breaks a rule explains the view, alone or after legal moves of others (each
        node of ``starts``): the first illegal move by hand (``physical``: the move, the table it
        leaves, the stand-ins it shows) whose card is in view where it landed (``in_view``) and whose
        table looks like the view. The game then waits for it to be taken back. None: no such move."""
        frame = obs.frame
        shared = _budget.get()
        for node in starts:
            for pending, table, shown in physical(node.state):
                if shared is not None and shared.lost and not shared.charge():
                    return None  # (as a search that gives up)
                if not in_view(pending, obs) or match(table, obs) is None:
                    continue
                replayed = self.replay(live.state, node.moves, {**dict(node.subs), **shown}, t, frame)
                if replayed is None:
                    continue
                new_state, findings = replayed
                verdict = pending.verdict
                findings.append(Finding("illegal", t, move=pending.move, rule=verdict.rule, reason=verdict.reason, frame=frame))
                return moved(live, new_state, pending, findings, waiting), findings
        return None

    def judge_input(
        self,
        live: L,
        move: Any,
        waiting: Waiting,
        observe: Callable[[L, Observation], tuple[L, list[Finding]]],
        again: Callable[[P], bool] = lambda state: True,
    ) -> tuple[L, list[Finding]]:
        """An input the camera cannot give (a key press, a screen tap). Illegal: an ``illegal`` finding
        with nothing to take back. Legal: the move and its calls; then the last view that did not fit
        is judged again, when ``again`` says the new position may explain it (else it is kept for
        later), its unrecognised changes left out (the table may still be in motion)."""
        v = self.apply(live.state, move)
        if isinstance(v, Illegal):
            return live, [Finding("illegal", move.t, move=v.move, rule=v.rule, reason=v.reason)]
        new_state = self.face_down_unseen(v.state)
        findings = self.move_findings(v, new_state, move.t, None)
        after = moved(live, new_state, live.pending, findings, waiting, live.last)
        if live.last is not None and again(new_state):
            after, more = observe(replace(after, last=None), replace(live.last, t=max(live.last.t, move.t)))
            findings += [f for f in more if f.kind != "unrecognised"]
        return after, findings

    def let_stand(self, live: L, table: P | None, t: float, waiting: Waiting) -> tuple[L, list[Finding]] | None:
        """The illegal move waiting to be taken back, let stand (:func:`~referee.observation.stands`):
        the game goes on from ``table``, the position with the move redone by hand, with the calls that
        position makes (a stress, a round won). None: nothing waits, or the move cannot be redone."""
        if live.pending is None or table is None:
            return None
        state, events = self.finish(table, t, [])
        verdict = Legal(live.pending.move, state, 0, clean_events(e for e in events if e.kind not in self.calls))
        findings = [stands(t, verdict), *call_findings(events, self.calls, t, None)]
        return moved(live, state, None, findings, waiting), findings

    def round_started(
        self, live: L, v: Legal[P], move: Any, subs: Mapping[Unseen, Card], t: float, frame: int | None, waiting: Waiting
    ) -> tuple[L, list[Finding]]:
        """A new round laid out as seen (``move``: the round as reported, without the unseen stocks):
        the cards of the layout the view showed are learned, the face-down ones are stand-ins."""
        new_state = self.face_down_unseen(self.substitute(v.state, subs))
        findings = self.move_findings(v, new_state, t, frame, learned_pairs(subs), move)
        return moved(live, new_state, None, findings, waiting), findings


# --- zone names (calibration.templates) -------------------------------------------------------------


def pile_zone(player: int, pile: int) -> str:
    """A player's pile: ``p{seat}.pile{K}``, seat and pile counted from 1 in the name, from 0 here."""
    return f"p{player + 1}.pile{pile + 1}"


def stock_zone(player: int) -> str:
    return f"p{player + 1}.stock"


def centre_zone(j: int) -> str:
    """Centre pile ``j`` (the one player ``j`` lays or turns cards onto): ``centre{j + 1}``."""
    return f"centre{j + 1}"


T = TypeVar("T")


def seat_zone(zone: str, seats: Sequence[T]) -> tuple[int, T, str] | None:
    """``p{seat}.{place}`` (seat counted from 1) as (engine player, their seat, place); None for a zone
    that is not a player's or a seat not in the game."""
    if not zone.startswith("p") or "." not in zone:
        return None
    seat, place = zone[1:].split(".", 1)
    if not seat.isdigit() or not 1 <= int(seat) <= len(seats):
        return None
    return int(seat) - 1, seats[int(seat) - 1], place


def centre_number(zone: str) -> int | None:
    """``centre{K}`` (counted from 1) as centre pile ``K-1``; None for another zone."""
    return int(zone[6:]) - 1 if zone.startswith("centre") and zone[6:].isdigit() else None


def pile_number(place: str) -> int | None:
    """``pile{K}`` (counted from 1) as pile ``K-1``; None for another place."""
    return int(place[4:]) - 1 if place.startswith("pile") and place[4:].isdigit() else None
