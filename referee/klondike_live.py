"""Following a real Klondike game from what the camera sees (issue 6: move inference).

In a real game the referee does not know the face-down cards or the stock order. The engine still
works on a full :class:`~referee.klondike.KlondikeState`: cards nobody has seen yet stand in as
placeholders (an arbitrary order of the unseen cards), and when the camera shows one of them (a card
turned up, a card drawn) it is swapped with the placeholder that stood where it appeared. Only cards
that were seen face up are ever compared, so a placeholder's identity never decides a verdict.

From the previous confirmed position and a new steady observation:

1. the table as expected: nothing happened (unseen cards it shows are learned; but where such a card
   had been shown unread and the camera's guess at it was another card, one legal move that explains
   the view comes first: a card drawn onto an unread one is not that card read at last);
2. exactly one legal move explains it: that move (ambiguity waits for a clearer view);
3. only a move that breaks a rule explains it: an illegal move, named with its rule; the game waits
   until the table is back as it was (``taken_back``) or a legal move explains it;
4. nothing explains it: an unrecognised change, reported, never turned into an invented move.

Face-down cards are counted by the rules, not by the camera: the deal puts i face-down cards under
column i's (K2) and only K6 turns one up, so the referee always knows how many lie in each column. A
camera sees the edges of a tightly fanned stack of backs as one or two, or misses the sliver of one
back under a face-up card, so the observed count is not compared. What matters is asked of the face-up
cards: a column the position says is empty must show neither cards nor backs (a king may only go to an
empty column).

A column that shows its backs but none of the face-up cards the position puts on them says nothing
about those cards: the top of a column with face-down cards is face up (K6), so they are there, unseen
(a card the detector stopped finding would otherwise make every later view unrecognised). A move that
takes them away is still found from where they land.

Observations use the zone names of the calibration templates: ``stock``, ``waste``,
``foundation1`` .. ``foundation4`` and ``tableau1`` .. ``tableau8``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Iterator, Literal, Mapping, NamedTuple, Sequence

from . import klondike
from .cards import DECK, Card, card_of
from .klondike import KlondikeRules, KlondikeState, Move
from .observation import DOUBT_BELOW, EXPLAINED, HAND_WAIT, MAX_READS_TO_DOUBT, Finding, Observation, SeenPile, count_reads, guess_apart, one_misread
from .observation import last_looks, parse_seen, pile_size, stands, stirred_after, stirred_since, surely_read
from .verdict import Event, Illegal, Legal

FOUNDATION_ZONES = tuple(f"foundation{i + 1}" for i in range(4))


def tableau_zone(i: int) -> str:
    return f"tableau{i + 1}"


@dataclass(frozen=True, slots=True)
class _View:
    """What a position should look like: per tableau pile the face-down count and the face-up cards;
    the waste bottom to top; the foundation tops; whether the stock holds cards."""

    tableau: tuple[tuple[int, tuple[Card, ...]], ...]
    waste: tuple[Card, ...]
    foundation_tops: tuple[Card, ...]
    stock: bool


def _view(state: KlondikeState) -> _View:
    tops = tuple(card_of(r, s) for s, r in zip("SHDC", state.foundations) if r)
    return _View(
        tuple((h, p[h:]) for p, h in zip(state.tableau, state.hidden)),
        state.waste,
        tops,
        bool(state.stock),
    )


class Fanned(NamedTuple):
    """A waste's top as the views taken since it came showed it (:func:`waste_top_lost`)."""

    top: Card | None = None
    under: frozenset[str] = frozenset()
    """The cards read under it: a draw-3 fan's older cards."""
    faint: bool = False
    """The last view taken did not read it there."""


@dataclass(frozen=True, slots=True)
class LiveKlondike:
    """The referee's running picture of a real game: the position, which cards have been seen, and
    the illegal move it is waiting to see taken back (if any)."""

    state: KlondikeState
    known: frozenset[Card]
    pending: Move | None = None
    pending_view: _View | None = field(default=None, compare=False)
    moves: int = 0
    guessed: Mapping[Card, str] = field(default_factory=dict, compare=False)
    """Unread cards that a view showed on a pile's top -> what the camera made of them (``_guessed``)."""
    reads: Mapping[str, int] = field(default_factory=dict, compare=False)
    """Card code -> how many of the views the referee took read it (:func:`observe_misread`)."""
    ranks_guessed: Mapping[Card, frozenset[int]] = field(default_factory=dict, compare=False)
    """Unread cards -> every rank the camera guessed them as, in the views taken (``_ranks_guessed``)."""
    undo: tuple[LiveKlondike, Legal[KlondikeState]] | None = field(default=None, compare=False)
    """The running picture before the last legal move, and that move (:func:`observe_undone`)."""
    deferred: tuple[Legal[KlondikeState], dict[Card, str]] | None = field(default=None, compare=False)
    """The one move the last view showed laid on a card nobody has read, still shown unread there: the
    referee waited for a clearer view to judge it (:func:`observe_deferred`)."""
    stirred: frozenset[str] = field(default=frozenset(), compare=False)
    """Zones the camera saw something move over in the views since the last one whose guesses the
    referee kept (:attr:`SeenPile.still` counts from there: :func:`stirred_since`)."""
    fanned: Fanned = field(default=Fanned(), compare=False)
    """The waste's top and the cards read under it since it came (:func:`waste_top_lost`)."""


MAX_UNREAD_AT_START = 4
"""Deal cards the first view may show without reading them: they are learned when a later view reads
them, and no move that involves them is judged before that."""

READ_AT_START = 2
"""Deal cards the first view must read where it shows the deal's shape, every column but one with the
face-down cards K2 lays there: then all the others may go unread. Often only the first view shows the
fresh deal (the first move comes two seconds later), and a layout the camera reads badly may stay
unread all game; a game that never starts is lost whole (Double Solitaire, kennard_4c_big, draw 3, seed
71: player 1's deal read at 0.06-0.27 but for two cards, every view refused for five unread, 0/57
found). A view of a table calibrated wrong shows no such shape (a test in tests/test_table.py)."""


def start(observation: Observation, rules: KlondikeRules | None = None) -> LiveKlondike:
    """A new game from the first steady view of a fresh deal: the face-up tableau cards are read,
    everything else is unseen; column i holds i face-down cards (K2), whatever count the camera made.
    Up to ``MAX_UNREAD_AT_START`` of the face-up cards may go unread (all but ``READ_AT_START`` where
    the columns show the deal's face-down counts): seen but not read; not seen at
    all, or only the column's backs (K6: the card is there, unseen); seen with more cards on it than
    the deal lays face up (the readings under the top are of nothing, and the top's is then no surer:
    a far player's 6H read 5H over a "QC" at 0.3); or read as a card another column shows too."""
    rules = rules or KlondikeRules.make()
    layout: list[Card | None] = []
    for i in range(rules.columns):
        pile = observation.piles.get(tableau_zone(i), SeenPile())
        layout.append(Card.parse(pile.cards[0]) if len(pile.cards) == 1 and pile.cards[0] is not None else None)
    twice = {c for c in layout if c is not None and layout.count(c) > 1}
    layout = [None if c in twice else c for c in layout]
    unread = [tableau_zone(i) for i, c in enumerate(layout) if c is None]
    dealt = sum(observation.piles.get(tableau_zone(i), SeenPile()).backs == i for i in range(rules.columns))
    if len(unread) > (rules.columns - READ_AT_START if dealt >= rules.columns - 1 else MAX_UNREAD_AT_START):
        raise ValueError(f"cannot start: the face-up cards of {', '.join(unread)} cannot be read")
    seen = [c for c in layout if c is not None]
    unseen = [c for c in DECK if c not in set(seen)]
    tableau = []
    for backs, c in enumerate(layout):
        below = tuple(unseen[:backs])
        del unseen[:backs]
        tableau.append(below + (c if c is not None else unseen.pop(0),))
    state = KlondikeState(rules, tuple(tableau), tuple(range(rules.columns)), tuple(unseen))
    if rules.scoring.startswith("vegas"):
        state = replace(state, score=-52)
    known = frozenset(seen)
    guessed = _guessed({}, {}, state, known, observation)
    return LiveKlondike(state, known, guessed=guessed, reads=count_reads({}, observation),
                        ranks_guessed=_ranks_guessed({}, guessed, {}, known))


# --- a game taken up again ----------------------------------------------------------------------------


def resume(picture: Mapping[str, Any], rules: KlondikeRules | None = None, t: float = 0.0) -> LiveKlondike:
    """The running picture of a game taken up again from the referee's last picture of it
    (:func:`public_state`, as a game log's last position has it: cardref stopped without ending the
    game). The cards it shows read are known; the face-down and stock cards, and those shown unread,
    stand in as placeholders, as at the start. ValueError: not a position of this game."""
    rules = rules or KlondikeRules.make()
    try:
        state, known = layout_from_picture(picture, rules, t)
        moves = int(picture.get("moves", 0))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"not a position of this Klondike game: {exc}") from None
    return LiveKlondike(state, known, moves=moves, reads={c.code: 1 for c in known})


def picture_as_seen(picture: Mapping[str, Any], obs: Observation, played_up: int | None = None,
                    elsewhere: Iterable[str] = ()) -> dict[str, Any] | None:
    """A layout's picture (:func:`public_state`'s) redrawn as one view shows the table, for a referee
    that has lost the game (:func:`rejoin`): each column's face-up cards as the view reads them (unread
    ones as ``None``), its face-down count as it was, one fewer where none of its face-up cards is left
    and the view counts fewer backs (the column was cleared and a card turned: the camera's count of
    backs alone is too unsure to go by); the waste's top cards as read, the stock and the cards under
    them what is left of the deck, the waste as long as it was where the view shows both; each suit's
    foundation count from a top the view reads, or, given ``played_up``, that many of the deck's cards
    off the layout (on Double Solitaire's shared piles, which are not the layout's; ``elsewhere``: those
    of them read). A card read twice, or read on the layout and up on a foundation, is taken as not
    read. None: a hand over the layout, a column of backs with no card on them, or more cards than a
    deck holds."""
    zones = [tableau_zone(i) for i in range(len(picture["tableau"]))] + ["waste", "stock"]
    if any(obs.piles.get(z, SeenPile()).held for z in zones + (list(FOUNDATION_ZONES) if played_up is None else [])):
        return None
    tableau: list[tuple[int, list[str | None]]] = []
    for column, zone in zip(picture["tableau"], zones):
        seen = obs.piles.get(zone, SeenPile())
        down = pile_size(column["down"])
        if not seen.cards:
            if seen.backs:
                return None
            down = 0
        elif down and (seen.backs or 0) < down and seen.top is not None and not set(column["up"]) & set(seen.cards):
            down -= 1
        tableau.append((down, _column_as_seen(list(column["up"]), list(seen.cards))))
    counts = {s: int(n) for s, n in dict(picture.get("foundations", {})).items()}
    if played_up is None:
        for z in FOUNDATION_ZONES:
            top = parse_seen(obs.piles.get(z, SeenPile()).top)
            if top is not None:
                counts[top.suit] = top.rank
    waste = list(obs.piles.get("waste", SeenPile()).cards)
    stock = obs.piles.get("stock", SeenPile())
    rest = 52 - sum(down + len(up) for down, up in tableau) - (sum(counts.values()) if played_up is None else played_up)
    if stock.backs == 0 and not stock.cards:
        under = rest - len(waste)
    elif not waste:
        under = 0
    else:
        under = min(max(pile_size(picture.get("waste", [])) - len(waste), 0), rest - len(waste) - 1)
    if under < 0 or rest - len(waste) - under < 0:
        return None
    # (one of the two readings is a misread, and nothing says which)
    founded = set(elsewhere) | ({c.code for c in foundation_cards(counts)} if played_up is None else set())
    shown = Counter(c for _, cards in tableau for c in cards if c is not None) + Counter(c for c in waste if c is not None)
    twice = {c for c, n in shown.items() if n > 1 or c in founded}
    tableau = [(down, [None if c in twice else c for c in cards]) for down, cards in tableau]
    waste = [None if c in twice else c for c in waste]
    return {**picture, "tableau": [{"down": down, "up": up} for down, up in tableau], "foundations": counts,
            "waste": [None] * under + waste, "stock": rest - len(waste) - under}


def _column_as_seen(was: list[str | None], seen: list[str | None]) -> list[str | None]:
    """A column's face-up cards as a view shows them (:func:`picture_as_seen`), the cards it leaves
    unread taken from the column as it was where the view fits it: the same top with cards under it
    unread or missed (the small indices of a cascade), cards taken off its top, or cards laid on it."""

    def fits(shown: list[str | None], cards: list[str | None]) -> bool:
        return all(s is None or s == c for s, c in zip(shown, cards))

    def filled(shown: list[str | None], cards: list[str | None]) -> list[str | None]:
        return [c if s is None else s for s, c in zip(shown, cards)]

    n = len(seen)
    if not seen or not was:
        return seen
    if n <= len(was) and seen[-1] is not None and seen[-1] == was[-1] and fits(seen, was[-n:]):
        return was[:-n] + filled(seen, was[-n:])
    if n <= len(was) and seen[-1] is not None and fits(seen, was[:n]):
        return filled(seen, was[:n])  # cards taken off its top
    if n > len(was) and fits(seen, was):
        return filled(seen, was) + seen[len(was):]  # cards laid on it
    return seen


def rejoin(live: LiveKlondike, obs: Observation) -> LiveKlondike | None:
    """The running picture taken afresh from one view of the table (:func:`picture_as_seen`), for a
    referee that has lost the game (nothing explained several views in a row,
    ``cardref.live.REJOIN_AFTER``): one misread, or a move the camera missed, would otherwise leave
    every later view unrecognised. The cards the view reads are known, every other one a placeholder,
    as for a game taken up again (:func:`resume`). None: the view does not show enough."""
    picture = picture_as_seen(public_state(live), obs)
    if picture is None:
        return None
    try:
        again = resume(picture, live.state.rules, obs.t)
    except ValueError:
        return None  # a card read twice: a misread in this view
    return again if _match(_view(again.state), obs, again.known) is not None else None


def _read_cards(codes: Sequence[object]) -> list[Card | None]:
    return [None if c is None else Card.parse(str(c)) for c in codes]


def picture_reads(picture: Mapping[str, Any]) -> list[Card]:
    """The cards a layout's picture shows read: the columns' face-up cards and the waste."""
    shown = [c for p in picture["tableau"] for c in _read_cards(p["up"])] + _read_cards(picture.get("waste", []))
    return [c for c in shown if c is not None]


def foundation_cards(counts: Mapping[str, int]) -> list[Card]:
    """The cards up on the foundations, by how many of each suit (the ace up)."""
    return [card_of(r, suit) for suit, n in counts.items() for r in range(1, n + 1)]


def layout_from_picture(picture: Mapping[str, Any], rules: KlondikeRules, t: float = 0.0,
                        elsewhere: Sequence[Card] = ()) -> tuple[KlondikeState, frozenset[Card]]:
    """A layout from its picture (:func:`resume`) and the cards read on it and on its foundations (a
    count per suit: the ace up to it). ``elsewhere``: the deck's cards off the layout (on Double
    Solitaire's shared foundations), which no placeholder stands for."""
    columns = [(pile_size(p["down"]), _read_cards(p["up"])) for p in picture["tableau"]]
    if len(columns) != rules.columns:
        raise ValueError(f"{len(columns)} columns, where the rules lay {rules.columns}")
    waste = _read_cards(picture.get("waste", []))
    up = picture.get("foundations", {})
    counts = [int(up.get(s, 0)) if isinstance(up, Mapping) else 0 for s in "SHDC"]
    read = picture_reads(picture) + foundation_cards(dict(zip("SHDC", counts)))
    twice = sorted({c.code for c, k in Counter([*read, *elsewhere]).items() if k > 1})
    if twice:
        raise ValueError(f"{', '.join(twice)} shown twice")
    pool = iter([c for c in DECK if c not in set(read) | set(elsewhere)])
    tableau = tuple(tuple(next(pool) for _ in range(down)) + tuple(c if c is not None else next(pool) for c in cards)
                    for down, cards in columns)
    waste_cards = tuple(c if c is not None else next(pool) for c in waste)
    stock = tuple(pool)
    if len(stock) != pile_size(picture.get("stock", 0)):
        raise ValueError(f"the stock holds {pile_size(picture.get('stock', 0))} cards, where the rest of the deck is {len(stock)}")
    score = int(picture.get("score", 0))
    carry = score + 52 - 5 * sum(counts) if rules.scoring.startswith("vegas") else 0
    state = KlondikeState(rules, tableau, tuple(d for d, _ in columns), stock, waste_cards,
                          (counts[0], counts[1], counts[2], counts[3]), int(picture.get("recycles", 0)), score, t,
                          int(t) // 10 if rules.timed else 0, carry)
    return state, frozenset(read)


# --- matching a view against an observation --------------------------------------------------------


class _Mismatch(Exception):
    pass


def _fits(e: Card, s: str | None, known: frozenset[Card]) -> str | None:
    """Whether expected card ``e`` may be shown as ``s``: ``""`` (yes, nothing learned), the code learned
    for an unseen slot, or None (no)."""
    if s is None:
        return ""  # seen but not read: any card fits
    if e in known:
        return "" if e.code == s else None
    # an unseen slot: the card shown there is learned, unless it is a card seen elsewhere
    try:
        c = Card.parse(s)
    except ValueError:
        return None
    return None if c in known else s


def _match_cards(
    expected: tuple[Card, ...], seen: tuple[str | None, ...], known: frozenset[Card], bind: dict[Card, str]
) -> None:
    """``seen`` shows ``expected`` (bottom to top). The top card must be seen. Cards under it may be
    missing from the view (glare, a covering card's shadow, the small indices of a long cascade). A card
    the camera has never shown is learned from where it is seen, never assumed: where one is missing
    too (a card covered before it was ever read clearly, whose index the detector keeps missing: the
    penguins 10s and queens), the view still fits, but then nothing in that column is learned, since
    which slot a seen card stands for is no longer sure. The seen cards must be the expected ones in
    their order; where several alignments fit, the one that matches the most cards from the top down
    wins."""
    under = sum(1 for c in seen[:-1] if c is None)
    if len(seen) - under > len(expected) or (expected and not seen):
        raise _Mismatch
    found = _align(expected, seen, known, learn=True)
    if found is None:
        found = _align(expected, seen, known, learn=False)
    if found is None:
        raise _Mismatch
    for e, code in found.items():
        if bind.get(e, code) != code:
            raise _Mismatch
    bind.update(found)


def _align(expected: tuple[Card, ...], seen: tuple[str | None, ...], known: frozenset[Card], learn: bool
           ) -> dict[Card, str] | None:
    """What ``seen`` teaches about ``expected`` if it shows it, else None. ``learn``: unseen cards are
    learned where they show and only known cards may be missing; else no card is learned and any card
    under the top may be missing."""
    failed: set[tuple[int, int]] = set()

    def align(i: int, j: int) -> dict[Card, str] | None:
        # expected[:i] against seen[:j], from the top down
        if j == 0:
            return {} if not learn or all(e in known for e in expected[:i]) else None
        if (i, j) in failed or i + unread_under[j] < j:
            return None
        if i > 0:
            e = expected[i - 1]
            code = _fits(e, seen[j - 1], known)
            if code is not None and (learn or not code):
                rest = align(i - 1, j - 1)
                if rest is not None:
                    return {**rest, e: code} if code else rest
            if (e in known or not learn) and i < len(expected):  # missed by the camera (never the top)
                rest = align(i - 1, j)
                if rest is not None:
                    return rest
        if seen[j - 1] is None and j < len(seen):
            # an unread card under the top that no card of the pile explains: a weak reading of nothing
            # (a back's edge, a shadow), kept covered by the tracker (Double Solitaire, penguins, seed 4:
            # a "KC" at 0.19 under a 3D held every later view of the game unrecognised). Cards are laid
            # on a column's top, so a card that is really there under the top is one the position has.
            rest = align(i, j - 1)
            if rest is not None:
                return rest
        failed.add((i, j))
        return None

    # how many unread cards under the top lie in seen[:j]: the most the alignment may pass over
    unread_under = [sum(1 for x in range(k) if seen[x] is None and x < len(seen) - 1) for k in range(len(seen) + 1)]

    return align(len(expected), len(seen))


WASTE_FAN = 3
"""The most cards a waste shows fanned: a draw-3 turn's (K9); older cards lie squared under them."""


def _match_waste(
    expected: tuple[Card, ...], seen: tuple[str | None, ...], known: frozenset[Card], bind: dict[Card, str]
) -> None:
    """The waste's top must be the expected top (or is learned there). The cards a fan shows under it
    are only checked for belonging: a known card there must be one of the :data:`WASTE_FAN` cards the
    fan can show. Their order is not learned: when a draw-3 fan shows two of its three new cards,
    nothing says which slot the gap is in, and a guess would make the next view, once the top is
    played, match no position."""
    if len(seen) > len(expected):
        raise _Mismatch
    _match_cards(expected[-1:], seen[-1:], known, bind)
    # (a known card deeper down showing means the fan is older than the position says: a misread top
    # on a fan of two read cards was otherwise a draw of three new cards, one of them read as that)
    under = set(expected[-WASTE_FAN:-1])
    new: set[Card] = set()
    for code in seen[:-1]:
        if code is None:
            continue
        try:
            c = Card.parse(code)
        except ValueError:
            raise _Mismatch from None
        if c in known and c not in under:
            raise _Mismatch
        if c not in known:
            new.add(c)
    if len(new) > sum(1 for e in under if e not in known):
        # each card never read that the fan shows stands for one of the waste's unread cards: more of
        # them than there are is a new fan (penguins Double Solitaire seed 13: a draw of 8D 3D KC, the
        # KC on top too faint to read, was taken for the old waste, every card under its top known)
        raise _Mismatch


def _match(view: _View, obs: Observation, known: frozenset[Card], faint: frozenset[Card] = frozenset()
           ) -> dict[Card, str] | None:
    """The placeholders the observation reveals (placeholder -> seen code), or None if it does not fit.
    ``faint``: unread cards the camera took for backs (:func:`_faint`)."""
    bind: dict[Card, str] = {}
    try:
        for i, (_, up) in enumerate(view.tableau):
            pile = obs.piles.get(tableau_zone(i))
            if pile is None or pile.held:
                continue
            if not up and pile.backs:
                raise _Mismatch  # an empty column, or backs left unturned
            if up and _backs_only(pile):
                continue  # the face-up cards on the backs are there, unseen (the module's docstring)
            if len(up) == 1 and up[0] in faint and not pile.cards and not pile.backs:
                continue  # a column the camera has never found (lone_unseen): it cannot be checked
            _match_cards(up, pile.cards, known, bind)
        waste = obs.piles.get("waste")
        if waste is not None and not waste.held:
            if len(waste.cards) > len(view.waste) or (view.waste and not waste.cards and view.waste[-1] not in faint):
                # (the waste's top is as visible as a column's; only a top the camera took for a back
                # may go unseen: penguins seed 9's QC, later not found at all)
                raise _Mismatch
            if waste.cards:
                _match_waste(view.waste, waste.cards, known, bind)
        stock = obs.piles.get("stock")
        if stock is not None and not stock.held and stock.backs is not None:
            if stock.backs > 0 and not view.stock:
                raise _Mismatch
            # A stock seen empty while it holds cards is a back the camera missed (Double Solitaire,
            # seed 11: player 1's far stock was never found, and every view of the game matched no
            # position). What the rules need of it, the draws say: the waste shows each of them.
        seen_tops = [obs.piles[z].top for z in FOUNDATION_ZONES if z in obs.piles and obs.piles[z].cards]
        if not any(obs.piles.get(z, SeenPile()).held for z in FOUNDATION_ZONES):
            if len(seen_tops) != len(view.foundation_tops):
                raise _Mismatch
            want = Counter(c.code for c in view.foundation_tops if c in known)
            unseen = [c for c in view.foundation_tops if c not in known]  # a card played up unseen
            for code in seen_tops:
                if code is None:
                    continue
                if want[code] > 0:
                    want[code] -= 1
                elif unseen and _fits(unseen[0], code, known):
                    bind[unseen.pop(0)] = code
                else:
                    raise _Mismatch
    except _Mismatch:
        return None
    codes = list(bind.values())
    if len(set(codes)) != len(codes):
        return None
    return bind


def _learn(state: KlondikeState, bind: dict[Card, str]) -> KlondikeState:
    """Put each revealed card where its placeholder stood, all at once.

    The unseen cards that stood where the revealed cards were take the placeholders' old places, so
    the position stays a full deck. Swapping one pair after another would go wrong when a revealed
    card is itself the placeholder of another revealed slot.
    """
    swap = swaps(bind)
    if all(k == v for k, v in swap.items()):
        return state
    return replace(
        state,
        tableau=tuple(tuple(swap.get(c, c) for c in p) for p in state.tableau),
        stock=tuple(swap.get(c, c) for c in state.stock),
        waste=tuple(swap.get(c, c) for c in state.waste),
    )


def swaps(bind: Mapping[Card, str]) -> dict[Card, Card]:
    """Card -> the card that takes its place when ``bind`` (placeholder -> seen code) is learned: each
    placeholder becomes its card, and the unseen cards that stood where those cards were take the
    placeholders' old places (:func:`_learn`)."""
    swap = {placeholder: Card.parse(code) for placeholder, code in bind.items()}
    arriving = set(swap.values())
    leaving = set(swap)
    spare = sorted(leaving - arriving, key=DECK.index)
    displaced = sorted(arriving - leaving, key=DECK.index)
    swap.update(zip(displaced, spare))
    return swap


def _read(bind: dict[Card, str]) -> frozenset[Card]:
    """The cards a view read for the first time (a match binds every card it reads that was not known).
    A card face up but not read stays unknown: a deal card or a card turned up that the camera has
    only seen, never read, keeps a placeholder's identity, which must never decide a verdict."""
    return frozenset(Card.parse(code) for code in bind.values())


def _visible(state: KlondikeState) -> set[Card]:
    up = {c for p, h in zip(state.tableau, state.hidden) for c in p[h:]}
    if state.waste:
        up.add(state.waste[-1])
    return up


def turned_up_elsewhere(before: KlondikeState, after: KlondikeState, card: Card) -> bool:
    """Is ``card``, read in an earlier view, read again in ``after`` as the card just turned up on
    another column? Then the card read earlier was another, misread (Double Solitaire, kennard, draw 1,
    seed 70: a 10D read 5D at 0.30 once and learned so; the 5D turned up where a QD left another column
    was taken for the "5D" laid on the QD against K4). Read again where it lay, or come by a draw or a
    move, it is no such evidence: the game may be lost, and a misread that explains it keeps it lost
    (seed 68)."""
    for i, (pile, hidden) in enumerate(zip(after.tableau, after.hidden)):
        if hidden < before.hidden[i] and pile[hidden:hidden + 1] == (card,):
            return card not in before.tableau[i][before.hidden[i]:]
    return False


def read_as_another_suit(layout: KlondikeState, obs: Observation, known: frozenset[Card] | set[Card],
                         prefix: str = "", reads: Mapping[str, int] | None = None) -> set[Card]:
    """The learned column tops and waste top that the view, where they lie, reads as another suit of
    their rank, a card not learned anywhere: one of the two readings is wrong, and the one learned may
    be it however many views read it so (Double Solitaire, penguins seed 34: a deal's 2S read 2D in
    three views, 2S at 0.38-0.45 in the views after; with another move in one of them, every view was
    unrecognised, and the illegal move in it was missed). With ``reads`` (code -> views that read it),
    a reading of any other card that earlier views gave too counts as well: the camera wavers between
    the two there (Double Solitaire, simplistic seed 63: a 10D read 6D, 10D, 6D; the 10D doubted when a
    view read 6D, the 6D read in three views was past doubting when the next read 10D, and a move
    against the rules was made up of it). ``prefix`` names a Double Solitaire seat's zones."""
    tops = [(tableau_zone(i), pile[-1]) for i, (pile, h) in enumerate(zip(layout.tableau, layout.hidden)) if len(pile) > h]
    tops += [("waste", layout.waste[-1])] if layout.waste else []
    found = set()
    for zone, card in tops:
        seen = obs.piles.get(prefix + zone)
        read = parse_seen(seen.top) if seen is not None and not seen.held else None
        wavered = reads is not None and read is not None and reads.get(read.code, 0) > 0
        if card in known and read is not None and (read.rank == card.rank or wavered) and read != card and read not in known:
            found.add(card)
    return found


# --- what a move that breaks the rules would look like ------------------------------------------------


def _physical_views(state: KlondikeState) -> Iterator[tuple[Move, _View]]:
    """Every card move a hand could make (rules ignored) with the view it would leave."""
    view = _view(state)
    columns = state.rules.columns
    sources: list[tuple[Move, tuple[Card, ...], _View]] = []
    if state.waste:
        rest = replace(view, waste=view.waste[:-1])
        sources.append((Move.move("waste", "t1"), (state.waste[-1],), rest))
    for i in range(columns):
        backs, up = view.tableau[i]
        for count in range(1, len(up) + 1):
            remaining = up[:-count]
            new_backs = backs
            if not remaining and backs:
                # the card beneath would be turned up: unseen, so any card may show there
                remaining = (state.tableau[i][backs - 1],)
                new_backs = backs - 1
            tab = view.tableau[:i] + ((new_backs, remaining),) + view.tableau[i + 1 :]
            sources.append((Move.move(f"t{i + 1}", "t1", count), up[-count:], replace(view, tableau=tab)))
    for k, top in enumerate(view.foundation_tops):
        below = () if top.rank == 1 else (card_of(top.rank - 1, top.suit),)
        tops = view.foundation_tops[:k] + below + view.foundation_tops[k + 1 :]
        sources.append((Move.move(f"foundation:{top.suit}", "t1"), (top,), replace(view, foundation_tops=tops)))
    for template, moving, lifted in sources:
        for j in range(columns):
            if template.src == f"t{j + 1}":
                continue
            backs, up = lifted.tableau[j]
            tab = lifted.tableau[:j] + ((backs, up + moving),) + lifted.tableau[j + 1 :]
            yield replace(template, dst=f"t{j + 1}"), replace(lifted, tableau=tab)
        if len(moving) == 1 and not template.src.startswith("foundation"):
            c = moving[0]
            yield replace(template, dst="foundation", count=1), replace(
                lifted, foundation_tops=lifted.foundation_tops + (c,)
            )
            for k, top in enumerate(lifted.foundation_tops):
                tops = lifted.foundation_tops[:k] + (c,) + lifted.foundation_tops[k + 1 :]
                yield replace(template, dst="foundation", count=1), replace(lifted, foundation_tops=tops)


# --- the referee's step ------------------------------------------------------------------------------


def observe(live: LiveKlondike, obs: Observation, pairs: bool = True) -> tuple[LiveKlondike, list[Finding]]:
    """Judge one steady observation; returns the new running picture and what was concluded.
    ``pairs``: when no single move explains it, try two (:func:`observe_pairs`)."""
    obs = stirred_since(live.stirred, obs)
    after, findings = _observe(live, obs, pairs)
    taken = not any(f.kind in ("unrecognised", "ambiguous") for f in findings)
    fanned = fanned_after(live.fanned, after.state.waste, obs) if taken else live.fanned
    # (stillness counts from the view whose guesses are kept: guesses and stillness are weighed together)
    return replace(after, stirred=stirred_after(live.stirred, obs, after.guessed is not live.guessed), fanned=fanned), findings


def moved_over(piles: Iterable[str], obs: Observation, foundations: Sequence[str] = FOUNDATION_ZONES) -> frozenset[str]:
    """Of ``piles`` (``waste``, ``t3``, ``foundation``; on a Double Solitaire table ``p1.waste``, ``p2.t3``
    and its eight ``foundations``), those the camera may have seen something move over: a reading that
    changed where nothing moved is the camera's (penguins, draw 3, seed 775: a QC drawn, never read,
    guessed 6C, 9C, then AS, taken for two draws nobody made)."""
    def zones(pile: str) -> list[str]:
        if pile == "foundation":
            return list(foundations)
        seat, _, name = pile.rpartition(".")
        prefix = seat + "." if seat else ""
        return [prefix + (tableau_zone(int(name[1:]) - 1) if name.startswith("t") else name)]
    return frozenset(p for p in piles if not all((seen := obs.piles.get(z)) is not None and seen.still for z in zones(p)))


def _observe(live: LiveKlondike, obs: Observation, pairs: bool) -> tuple[LiveKlondike, list[Finding]]:
    t, frame = max(obs.t, live.state.time), obs.frame
    live = replace(live, deferred=None) if live.deferred is not None else live
    state, known = live.state, live.known
    obs = waste_top_lost(misread_twins(obs, state, known), "waste", state.waste, known, live.fanned)
    back_on_waste = waste_seen_as_back(obs)
    if back_on_waste:
        obs = unread_face_on(obs, "waste")

    faint = _faint(live)
    bind = _match(_view(state), obs, known, faint)
    if bind is not None:
        state = _learn(state, bind)
        learned = tuple((p.code, c) for p, c in bind.items() if p.code != c)
        seen = known | _read(bind)
        guessed = _guessed(live.guessed, bind, state, seen, obs)
        after = replace(live, state=state, known=seen, pending=None, pending_view=None, guessed=guessed,
                        reads=count_reads(live.reads, obs), ranks_guessed=_ranks_guessed(live.ranks_guessed, guessed, bind, seen))
        if live.pending is not None:
            if under_hand(live.pending, obs):
                return live, []  # the piles the illegal move touched are not seen: nothing is taken back yet
            return after, [Finding("taken_back", t, move=live.pending, frame=frame, learned=learned)]
        columns = moved_over(_columns_guessed_over(state, known, live.guessed, obs), obs)
        over = moved_over(_guessed_over(state, known, live.guessed, obs) | reread_over(live.state, bind, live.guessed) | (
            {"waste"} if back_on_waste and state.waste and state.waste[-1] in known else set()), obs)
        covered = _covered_from(live.state, known, bind, obs)
        if over or columns or covered:
            # An unread top the camera took for one card now reads as another: a new card may lie there
            # (penguins seed 12: a drawn 10C guessed at 0.29, then the 6D drawn onto it read at 0.47 was
            # taken for the 10C read at last, and the draw was lost). So too where a card read on the
            # waste's top is now a back (a drawn card taken for one). One legal move that explains the
            # view beats nothing happened; anything less leaves it at nothing happened. And so where the
            # waste's top, read before, shows unread with the camera's guess another card (penguins seed
            # 15: a 10H drawn on a 5H, read at 0.17-0.33, published as a card not read). A column's top
            # guessed so only says that a card nobody has read was laid on it or taken off it
            # (:func:`_columns_guessed_over`, :func:`_covered_from`; penguins jumbo seed 603: a QC taken
            # for a back, laid from the waste on a KH guessed 9C, was taken for a draw, the back left
            # where the waste lay; in Double Solitaire from 1280x720, guesses wavering at far columns
            # made moves of read cards and their reverses out of nothing). A guess at the waste or a
            # foundation speaks for a move there only (Double Solitaire draw 3 at 1280x720, seed 27: an AH
            # up, unread and guessed AD, set off a far column's 10D, read one view in two, laid to and
            # fro onto a column top never read: fourteen moves nobody made).
            moved, findings = _explain(live, obs, pairs=False)
            if [f.kind for f in findings] == ["move"] and (changed_piles(findings[0].move) & over or (
                    _moved_unread(live.state, findings[0].move, known)
                    and ({findings[0].move.src, findings[0].move.dst} & columns
                         or (findings[0].move.src, findings[0].move.dst) in covered))):
                return moved, findings
            if "waste" in over:
                run, findings = observe_stock_run(live, obs)
                if findings and all(f.kind == "move" for f in findings):
                    return run, findings
        return after, []
    if live.pending_view is not None and _match(live.pending_view, obs, known, faint) is not None:
        return live, []  # still the same illegal move on the table: said once already
    after, findings = _explain(live, obs, pairs)
    if live.pending is not None and findings and all(f.kind == "move" for f in findings) and not under_hand(live.pending, obs):
        # taken back and another move made before the table was still long enough to be published
        return after, [Finding("taken_back", t, move=live.pending, frame=frame), *findings]
    return after, findings


def let_stand(live: LiveKlondike, t: float) -> tuple[LiveKlondike, list[Finding]] | None:
    """The illegal move waiting to be taken back, let stand (:func:`~referee.observation.stands`): the
    game goes on with the cards where the move left them, scored as if it were legal. None: nothing
    waits, or Klondike's position cannot hold the move (a card laid up out of order: the foundations
    keep only their suit's cards from the ace up; it must be taken back)."""
    if live.pending is None:
        return None
    move = replace(live.pending, t=max(t, live.state.time))
    state, known = live.state, live.known
    verdict = klondike.apply_by_hand(state, move)
    if verdict is None and live.pending_view is not None:
        # laid up out of order: the camera misread the card, which is the one that fits where it lies
        # (a 4H read 5H), unless that card is read elsewhere
        misread, fits = _laid_up(state, move, live.pending_view)
        if misread is not None and fits is not None and fits not in known:
            state, known = _learn(state, {misread: fits.code}), (known - {misread}) | {fits}
            verdict = klondike.apply_by_hand(state, move)
    if verdict is None:
        return None
    before = replace(live, state=state, known=known, pending=None, pending_view=None, undo=None, deferred=None)
    after = replace(before, state=verdict.state, moves=live.moves + 1, undo=(before, verdict))
    return after, [stands(t, verdict)]


def _laid_up(state: KlondikeState, move: Move, view: _View) -> tuple[Card | None, Card | None]:
    """For a card laid up on a foundation (``view``: the table it left), the card moved and the card
    that fits where it lies: the next of the pile it covered, or an ace (of its own suit if that
    foundation is empty) on a pile of its own."""
    moved = moved_and_under(state, move)[:1]
    if move.dst != "foundation" or move.count != 1 or not moved:
        return None, None
    card = moved[0]
    before = _view(state).foundation_tops
    after = view.foundation_tops
    if len(after) == len(before) + 1:
        empty = [s for s, n in zip("SHDC", state.foundations) if not n]
        suit = card.suit if card.suit in empty else (empty[0] if empty else None)
        return card, None if suit is None else card_of(1, suit)
    covered = [old for old, new in zip(before, after) if old != new]
    if len(covered) != 1 or covered[0].rank == 13:
        return card, None
    return card, card_of(covered[0].rank + 1, covered[0].suit)


def under_hand(move: Move, obs: Observation, prefix: str = "", foundations: Sequence[str] = FOUNDATION_ZONES) -> bool:
    """Is a pile the move took a card from or laid one on held (a hand over it) in the view? Such a view
    matches the position before the move whatever lies there: it shows no take-back (penguins, draw 3,
    seed 702: an 8D laid on a 9H against K4, the hand still over both columns, was taken back at once
    and called again half a second later). ``prefix``: the seat's, on its own piles' zones;
    ``foundations``: the zones a foundation move (``foundation``, ``foundation:S``, Double Solitaire's
    ``fK``) may touch."""
    zones = _zones_of(move.src, prefix, foundations) | _zones_of(move.dst, prefix, foundations)
    return any((seen := obs.piles.get(z)) is not None and seen.held for z in zones)


def _lands_under_hand(move: Move, obs: Observation) -> bool:
    """Does the move lay its cards on a pile held (a hand over it) in the view?"""
    return any((seen := obs.piles.get(z)) is not None and seen.held for z in _zones_of(move.dst, "", FOUNDATION_ZONES))


def lands_where_still(move: Move, obs: Observation, prefix: str = "", foundations: Sequence[str] = FOUNDATION_ZONES) -> bool:
    """Does the move lay its cards on a pile the camera saw nothing move over (:attr:`SeenPile.still`)?
    No hand laid a card there (Double Solitaire, penguins, draw 3, seed 42: a 3H laid on a 4H, both
    unfound, the 5S under them read; the 4H was judged laid on column 7's 9S against K4, a column
    nothing had come near)."""
    zones = _zones_of(move.dst, prefix, foundations) if move.op == "move" else set()
    return bool(zones) and all((seen := obs.piles.get(z)) is not None and seen.still is True for z in zones)


def lifts_where_still(move: Move, obs: Observation, prefix: str = "", foundations: Sequence[str] = FOUNDATION_ZONES) -> bool:
    """Does the move take its cards from a pile the camera saw nothing move over (a draw: its stock and
    waste both)? No hand lifted a card there. Asked only of a move against the rules, where it is the
    difference between a call and none (Double Solitaire, kennard, seed 70 at 94 s: a 2C never touched
    read 2S, and a QS read 6S at 0.17 on a column a hand had passed over; the 2C was called laid on the
    QS out of turn). A legal move is not refused on it: the tie between two of them may be all that keeps
    a misreading from being taken (simplistic, draw 3, seed 69 at 18.9 s)."""
    if move.op == "draw":
        return all((seen := obs.piles.get(prefix + z)) is not None and seen.still is True for z in ("stock", "waste"))
    zones = _zones_of(move.src, prefix, foundations) if move.op == "move" else set()
    return bool(zones) and all((seen := obs.piles.get(z)) is not None and seen.still is True for z in zones)


def _zones_of(pile: str, prefix: str, foundations: Sequence[str]) -> set[str]:
    """The zones of one of a move's piles (``waste``, ``tN``, a foundation)."""
    if pile == "waste":
        return {prefix + "waste"}
    if pile[:1] == "t" and pile[1:].isdigit():
        return {prefix + tableau_zone(int(pile[1:]) - 1)}
    if pile[:1] == "f":
        return set(foundations)
    return set()


def _explain(live: LiveKlondike, obs: Observation, pairs: bool) -> tuple[LiveKlondike, list[Finding]]:
    """The move, illegal move or pair of moves that explains a view the position does not show."""
    t, frame = max(obs.t, live.state.time), obs.frame
    state, known, faint_before = live.state, live.known, _faint(live)

    found: list[tuple[Move, Legal[KlondikeState], dict[Card, str]]] = []
    refused: list[tuple[Move, Illegal, _View, dict[Card, str]]] = []
    unread = False
    unjudged: list[tuple[Move, Legal[KlondikeState], dict[Card, str]]] = []
    waiting: list[tuple[Move, Legal[KlondikeState], dict[Card, str]]] = []
    deferred: list[tuple[Move, Legal[KlondikeState], dict[Card, str]]] = []  # laid on a card shown unread
    hidden: list[Move] = []  # against the rules, laid on a pile a hand covers
    notes: dict[Move, str] = {}  # what a move waited on says in the log, where not the usual

    def judge(move: Move, view: _View, turned: frozenset[Card] = frozenset()) -> None:
        """Sort a candidate move whose result ``view`` is: legal, refused or not judged yet. ``turned``:
        cards the move turns up alone on a column that the view may show as nothing (:func:`lone_unseen`)."""
        nonlocal unread
        faint = faint_before | turned
        if _from_unseen(state, move, obs, known) or lands_where_still(move, obs):
            return
        b = _match(view, obs, known, faint)
        if b is None:
            return
        judged = _judged(state, move, t, known, b, live.guessed)
        if judged is None:
            unread = True
            onto = _onto_unread(state, move, t, known, b, obs)
            later = onto or _onto_unread(state, move, t, known, b, obs, "moved")
            sort = unjudged if onto is not None else waiting
            if later is None:
                later, sort = _onto_unread(state, move, t, known, b, obs, "shown"), deferred
            if later is not None and all(m != move for m, _, _ in sort):
                after_b = _match(_view(later.state), obs, known, faint)
                if after_b is not None:
                    sort.append((move, later, after_b))
        elif isinstance(judged, Illegal) and (unsure := _first_read_unsurely(live, move, b, obs)) is not None:
            # the card lifted, never read before, read here less surely than DOUBT_BELOW as a card the
            # move cannot lay there, guessed as another rank before: the rules settle the unsure
            # reading, as for a card not read (penguins, draw 3, seed 774: a deal QC guessed QC, then
            # 6C, read 6C at 0.31 on the KD it went onto; the legal move was called against K4, and
            # every later move of the game missed). A card whose every guess had the rank read is
            # judged on the reading (penguins seed 7: a 2S guessed 2C, put up against K7).
            rest = {c: code for c, code in b.items() if c != unsure}
            later = _onto_unread(state, move, t, known, rest, obs, "moved")
            if later is not None and all(m != move for m, _, _ in waiting):
                after_b = _match(_view(later.state), obs, known, faint)
                if after_b is not None:
                    unread = True
                    waiting.append((move, later, {c: code for c, code in after_b.items() if code != b[unsure]}))
                    notes[move] = (f"{move}: the card moved, read {b[unsure]} only unsurely, cannot lie there "
                                   f"({judged.rule}): taken as not read, so not judged")
        elif isinstance(judged, Illegal) and _lands_under_hand(move, obs):
            hidden.append(move)
        elif isinstance(judged, Illegal):
            if not lifts_where_still(move, obs):
                refused.append((move, judged, view, b))
        elif all(m != move for m, _, _ in found):
            after_b = _match(_view(judged.state), obs, known, faint)
            if after_b is not None:
                found.append((move, judged, after_b))

    for move in klondike.legal_moves(state):
        verdict = klondike.apply(state, replace(move, t=t))
        assert isinstance(verdict, Legal)
        # the card a move turns up may be one the detector never finds (penguins, draw 3, seed 781: the
        # QS under the first ace played up, not found at all; every view of the game was unrecognised)
        judge(move, _view(verdict.state), lone_unseen(verdict.state, known, live.reads))
    if found:
        agreed = _fewest_guess_conflicts(found, obs, known)
        if agreed is not None:
            move, verdict, b = agreed
            if (two := _pair_as_guessed(live, obs, verdict)) is not None:
                return two
            after, finding = _moved(live, verdict, b, obs)
            return after, [finding]
        names = ", ".join(str(m) for m, _, _ in found)
        return live, [Finding("ambiguous", t, frame=frame, detail=f"several moves fit: {names}")]

    # every card move a hand could make: illegal ones, and ones legal only with a card the view has
    # just read (the rules assumed another before)
    for move, view in _physical_views(state):
        judge(move, view)
    agreed = _fewest_guess_conflicts(found, obs, known) if found and not refused else None
    if agreed is not None:
        move, verdict, b = agreed
        after, finding = _moved(live, verdict, b, obs)
        return after, [finding]
    if found:
        names = ", ".join([str(m) for m, _, _ in found] + [str(m) for m, _, _, _ in refused])
        return live, [Finding("ambiguous", t, frame=frame, detail=f"several moves fit: {names}")]
    held = any(p.held for p in obs.piles.values())
    if refused and len(unjudged) != 1 and len(waiting) != 1 and (not held or not _two_moves(state, obs, known, t)):
        # the first refused move (a card moved against the rules, or one the view has just shown to be
        # another card than the rules could assume); not where a move the rules cannot judge, with a card
        # nobody has read, explains the view as well (only a move against the rules is an illegal
        # move), nor while a hand covers a pile and two legal moves explain the view: the hand may hide
        # the first (penguins, eight columns, draw 3, seed 54: a 2H played up from the column under the
        # hand, the 3H up on it from another, judged laid on the AH against K7). Where none do, the hand
        # hides nothing that matters (penguins, draw 3, eight columns, seed 790: a 4S laid on a 5S
        # against K4 while the camera saw a hand over column 8, its QS never found, all along)
        move, illegal, view, b = refused[0]
        after = replace(live, state=_learn(state, _before_move(state, b)), pending=move, pending_view=view)
        return after, [Finding("illegal", t, move=move, rule=illegal.rule, reason=illegal.reason, frame=frame)]
    if hidden and not refused and not unjudged and not waiting:
        # a move against the rules onto a pile a hand covers fits only because that pile is not seen:
        # what lies there is told once the hand is gone (kennard_4c_big, draw 3, seed 808: the waste's
        # 3S laid on column 4's 4D, read nowhere, was called laid on column 1's 5H under a hand, K4)
        return live, [Finding("ambiguous", t, frame=frame, detail=HAND_WAIT)]
    if len(unjudged) == 1:
        # laid on a card nobody has read, which it now covers: no clearer view of that card will come
        # while it lies there, so the game goes on with the move not judged (penguins seed 8 with the
        # run-7 detector: a JD laid on a deal QC guessed 9C stopped the game for good)
        move, verdict, b = unjudged[0]
        after, finding = _moved(live, verdict, b, obs)
        onto = state.tableau[int(move.dst[1:]) - 1][-1:]
        how = "laid on" if onto and onto[0] not in known else "moved with"
        return after, [replace(finding, detail=f"{move}: {how} a card not read, so not judged")]
    if len(waiting) > 1:
        # of several cards nobody has read, the one whose move leaves the backs the view counts
        # (penguins, draw 3, seed 781: a QC never read moved onto a KD, or the lone QS never found
        # beside it; the QC's column showed a back fewer, the 6H turned up under it)
        counts = [columns_miscounted(verdict.state, obs) for _, verdict, _ in waiting]
        fewest = [w for w, n in zip(waiting, counts) if n == min(counts)]
        waiting = fewest if len(fewest) == 1 else waiting
    if len(waiting) == 1 and not any(p.held for p in obs.piles.values()):
        # a card nobody has read, moved where the view shows it still unread: the one explanation. A
        # clearer view seldom comes before the next move (penguins, draw 3, seed 701: a QC never read,
        # guessed 9C wherever it lay, moved onto a KH; the view was taken for the 4H turned up under it
        # as the column's card at last, and the next move of the KH with the QC lost the game)
        move, verdict, b = waiting[0]
        after, finding = _moved(live, verdict, b, obs)
        return after, [replace(finding, detail=notes.get(move, f"{move}: moved a card not read, so not judged"))]
    if unread:
        # (the one move laid on a card shown unread is kept: if the next change comes before a clearer
        # view, it is taken unjudged with it, :func:`observe_deferred`)
        wait = replace(live, deferred=deferred[0][1:]) if len(deferred) == 1 and not waiting and not unjudged else live
        return wait, [Finding("ambiguous", t, frame=frame,
                              detail="a card that moved has not been read yet: waiting for a clearer view")]

    if pairs:
        return observe_pairs(live, obs)
    return _unexplained(live, obs)


def columns_miscounted(state: KlondikeState, obs: Observation) -> int:
    """How many columns the view shows with another number of backs, or with more face-up cards (read or
    not), than ``state`` leaves there: the camera's counts are too unsure to rule a position out (the
    module's docstring), but they tell two apart (Double Solitaire, penguins, draw 3, seed 39: a QC never
    read moved onto a KD or onto a JS, both columns' tops read unsurely; the KD's column showed two
    cards). Fewer face-up cards tell nothing: the cards under a column's top often go unfound."""
    n = 0
    for i, (pile, h) in enumerate(zip(state.tableau, state.hidden)):
        seen = obs.piles.get(tableau_zone(i))
        if seen is None or seen.held:
            continue
        n += (seen.backs is not None and seen.backs != h) or len(seen.cards) > len(pile) - h
    return n


def _first_read_unsurely(live: LiveKlondike, move: Move, b: dict[Card, str], obs: Observation) -> Card | None:
    """The card ``move`` lifts from the waste or a column when the view reads it for the first time
    (``b``: the match's bindings; no view taken read it before, even one doubted now), nowhere at
    least ``DOUBT_BELOW``, and the camera guessed it as another rank than read before; None otherwise."""
    state = live.state
    lifted = moved_and_under(state, move)[:1] if move.src == "waste" or move.src.startswith("t") else []
    if not lifted or lifted[0] not in b or live.reads.get(lifted[0].code) or b[lifted[0]] in surely_read(frozenset(), obs):
        return None
    return lifted[0] if live.ranks_guessed.get(lifted[0], frozenset()) - {Card.parse(b[lifted[0]]).rank} else None


def _fewest_guess_conflicts(
    found: list[tuple[Move, Legal[KlondikeState], dict[Card, str]]], obs: Observation, known: frozenset[Card]
) -> tuple[Move, Legal[KlondikeState], dict[Card, str]] | None:
    """Of the legal moves that explain a view (one: that one), the one that leaves fewest pile tops the
    view shows unread with the camera's guess another card than the known card it would put there, if
    only one does (penguins, draw 3, seed 48: a draw, or the waste's 5D, read at 0.72 before, laid on the first
    column's unread card with the next waste card unread under it; the column's top, unread, guessed
    6S as before), a guess of another rank counting more than one of another suit (seed 53: a 3S
    played up onto the 2S, guessed 3C there). A guess never decides a card, but it may tell two
    explanations apart; where the guesses do not, the backs and face-up cards the columns are seen
    with may (:func:`columns_miscounted`; kennard_big, draw 3, seed 817: a 5H 4S laid on a card nobody
    read, or that card moved onto the 4S, the 3H turned up read alike in both)."""
    counts = [_guess_conflicts(verdict.state, obs, known) for _, verdict, _ in found]
    fewest = [x for x, n in zip(found, counts) if n == min(counts)]
    if len(fewest) > 1:
        counts = [columns_miscounted(verdict.state, obs) for _, verdict, _ in fewest]
        fewest = [x for x, n in zip(fewest, counts) if n == min(counts)]
    return fewest[0] if len(fewest) == 1 else None


def _known_tops(state: KlondikeState, known: frozenset[Card]) -> dict[str, Card]:
    """The known cards on top of the columns and the waste, by zone."""
    view = _view(state)
    tops = {tableau_zone(i): up[-1] for i, (_, up) in enumerate(view.tableau) if up}
    if view.waste:
        tops["waste"] = view.waste[-1]
    return {zone: card for zone, card in tops.items() if card in known}


def _guess_conflicts(state: KlondikeState, obs: Observation, known: frozenset[Card]) -> int:
    """How far the camera's guesses at the pile tops it could not read are from the known cards
    ``state`` puts there (:func:`guess_apart`, summed)."""

    def guess_at(zone: str) -> Card | None:
        return parse_seen(_top_guess(obs, zone))

    n = sum(guess_apart(g, card) for zone, card in _known_tops(state, known).items() if (g := guess_at(zone)) is not None)
    # a foundation shows its top wherever it lies: the nearest known top is the one guessed at
    up = [c for c in _view(state).foundation_tops if c in known]
    return n + sum(min(guess_apart(g, c) for c in up) for zone in FOUNDATION_ZONES if up and (g := guess_at(zone)) is not None)


def _pair_as_guessed(live: LiveKlondike, obs: Observation, one: Legal[KlondikeState]
                     ) -> tuple[LiveKlondike, list[Finding]] | None:
    """Where the one move that explains a view leaves a known card on a pile top that the camera,
    unable to read it, guesses as another rank, and the one pair of legal moves of known cards, one
    after the other, that explains the view leaving no top guessed otherwise puts the very card
    guessed there: the two moves. Unsure readings fit any card, so the fewer moves fit a view with a
    move missed (kennard_big, draw 3, seed 807: the waste's 9C laid on column 3's 10D and the stock
    recycled in one view, every card of the column read under 0.5, its top guessed 9C at 0.34; taken
    for the recycle alone, the 9C left in the stock, the game was lost at the next pass). A guess of
    another suit is too weak to add a move for."""
    state, known = live.state, live.known
    wrong = {zone for zone, card in _known_tops(one.state, known).items()
             if (g := parse_seen(_top_guess(obs, zone))) is not None and g.rank != card.rank}
    if not wrong:
        return None
    t = max(obs.t, state.time)
    pairs = []
    for m1 in klondike.legal_moves(state):
        if any(c not in known for c in _involved(state, m1)):
            continue
        v1 = klondike.apply(state, replace(m1, t=t))
        assert isinstance(v1, Legal)
        for m2 in klondike.legal_moves(v1.state):
            if any(c not in known for c in _involved(v1.state, m2)):
                continue
            v2 = klondike.apply(v1.state, replace(m2, t=t))
            assert isinstance(v2, Legal)
            tops = _known_tops(v2.state, known)
            if _guess_conflicts(v2.state, obs, known) or not any(tops.get(z) == parse_seen(_top_guess(obs, z)) for z in wrong):
                continue
            b2 = _match(_view(v2.state), obs, known)
            if b2 is not None:
                pairs.append((v1, v2, b2))
    if len({_view(v2.state) for _, v2, _ in pairs}) != 1:
        return None
    first, second, b = pairs[0]
    middle, a = _moved(live, first, {}, obs)
    after, c = _moved(middle, second, b, obs)
    return after, [a, c]


def _guessed_over(state: KlondikeState, known: frozenset[Card], guessed: Mapping[Card, str], obs: Observation
                  ) -> frozenset[str]:
    """The piles (``waste``, ``foundation``) where a new card may lie unread: does the view show the
    waste's top unread with the camera's guess another card than the top was
    read as, or guessed as when it was not read (one drawn on it, too unsure to read; fresh penguins
    seed 17: a QH drawn on a card taken for a back), or a foundation's top unread with a guess that is
    none of the known foundation tops (penguins, eight columns, draw 3, seed 53: the waste's 3S played
    up onto the 2S, read 3C at 0.38 there and the JS left on the waste read JC at 0.32; with the two
    unsure readings left unread, nothing happened fitted the view)? A guess at the waste's top of the
    same rank in another suit counts too where the view says something moved over the waste (penguins,
    draw 1, seed 809: a QH drawn onto a QS read at 0.21, guessed QH at 0.13, was taken for the QS
    wavering, and the waste was a card short from there); an unsure reading wavering where nothing
    moved, or in views that do not say, is no new card (penguins at 1280x720, seed 7: a drawn 2S
    guessed 2C at 0.05-0.17 for fifteen seconds, then 2S at 0.21, was taken for a draw nobody made)."""
    top = state.waste[-1] if state.waste else None
    waste = obs.piles.get("waste")
    # (another suit only where the camera saw something move over the waste: views that do not say so,
    # penguins seed 7's among them, keep the rank rule)
    apart = 1 if waste is not None and waste.still is False else 2
    over = {"waste"} if _top_guessed_over(obs, "waste", top, known, guessed, apart=apart) else set()
    if foundation_guessed_over(obs, FOUNDATION_ZONES, {c.code for c in _view(state).foundation_tops if c in known}):
        over.add("foundation")
    return frozenset(over)


def reread_over(state: KlondikeState, bind: Mapping[Card, str], guessed: Mapping[Card, str]) -> frozenset[str]:
    """The piles (``waste``, ``t1`` ..., ``foundation``) where a card nobody had read reads now as another
    card than the camera guessed it before: a new card may lie there, the one guessed under it (penguins
    seed 12: a drawn 10C guessed at 0.29, then the 6D drawn onto it, read at 0.47, was taken for the
    10C read at last, and the draw was lost)."""
    return frozenset(_pile_of(state, card) for card, code in bind.items() if guessed.get(card, code) != code)


def _pile_of(state: KlondikeState, card: Card) -> str:
    if card in state.waste:
        return "waste"
    column = next((i for i, pile in enumerate(state.tableau) if card in pile), None)
    return "foundation" if column is None else f"t{column + 1}"


def changed_piles(move: Move) -> frozenset[str]:
    """The piles a move changes, named as :func:`_guessed_over` names them (``waste``, ``foundation``)
    and as moves name columns (``t1`` ...)."""
    if move.op != "move":
        return frozenset({"waste"})  # a draw or a recycle
    return frozenset("foundation" if end.startswith("f") else end for end in (move.src, move.dst))


def _top_guessed_over(obs: Observation, zone: str, top: Card | None, known: frozenset[Card], guessed: Mapping[Card, str],
                      apart: int = 2) -> bool:
    """Does the view show ``zone``'s top unread, with the camera's guess a card of another rank than the
    position's ``top`` was read as, or guessed as when it was not read (``apart`` 1: or another suit)?"""
    guess = _top_guess(obs, zone)
    before = None if top is None else top.code if top in known else guessed.get(top)
    if before is None or guess is None or guess in (before, TAKEN_FOR_A_BACK):
        return False
    g, b = parse_seen(guess), parse_seen(before)
    return g is None or b is None or guess_apart(g, b) >= apart


def _columns_guessed_over(state: KlondikeState, known: frozenset[Card], guessed: Mapping[Card, str], obs: Observation
                          ) -> set[str]:
    """The columns (``t1`` ...) whose top the view shows unread with the camera's guess a card of another
    rank than it was read or guessed as: a card may have been laid there, too unsure to read (penguins,
    draw 3, seed 701: a QC never read, guessed 9C wherever it lay, moved onto a KH read before; the view
    fitted the position with the 4H turned up under the QC taken for that column's card at last)."""
    return {f"t{i + 1}" for i, pile in enumerate(state.tableau)
            if _top_guessed_over(obs, tableau_zone(i), pile[-1] if pile else None, known, guessed)}


def _moved_unread(state: KlondikeState, move: Move, known: frozenset[Card]) -> bool:
    """Does ``move`` move a card nobody has read (the bottom card of a run moved from a column, the
    waste's top)?"""
    if move.src == "waste":
        return bool(state.waste) and state.waste[-1] not in known
    if move.src.startswith("t"):
        pile = state.tableau[int(move.src[1:]) - 1]
        return len(pile) >= move.count and pile[-move.count] not in known
    return False


def _covered_from(state: KlondikeState, known: frozenset[Card], bind: Mapping[Card, str], obs: Observation
                  ) -> set[tuple[str, str]]:
    """(source, destination) column pairs where a card nobody has read may have gone: a column whose top
    was never read shows a card read at last (it may be the card turned up under it), while another
    column's top, read before, shows unread (something may cover it). Penguins, draw 3, seed 701 with
    the twenty-second session's tracking: a QC never found laid on a KH, whose reading fell from 0.42 to
    0.21, the 4H turned up under the QC taken for its column's card at last."""
    sources = [f"t{i + 1}" for i, pile in enumerate(state.tableau) if pile and pile[-1] not in known and pile[-1] in bind]
    covered = [f"t{i + 1}" for i, pile in enumerate(state.tableau)
               if pile and pile[-1] in known and (seen := obs.piles.get(tableau_zone(i))) is not None and not seen.held
               and seen.cards and seen.top is None]
    return {(a, b) for a in sources for b in covered}


def foundation_guessed_over(obs: Observation, zones: Sequence[str], tops: set[str]) -> bool:
    """Does one of the foundation ``zones`` show its top unread, with the camera's guess a card that is
    none of the known ``tops`` (codes)? A card may have been played up there, unread."""
    guesses = (_top_guess(obs, zone) for zone in zones)
    return any(g is not None and parse_seen(g) is not None and g not in tops for g in guesses)


def _top_guess(obs: Observation, zone: str) -> str | None:
    """The camera's guess at a zone's top card that it could not read (None: read, none, or under a hand)."""
    pile = obs.piles.get(zone)
    return pile.top_guess if pile is not None and not pile.held else None


def _unexplained(live: LiveKlondike, obs: Observation) -> tuple[LiveKlondike, list[Finding]]:
    """The view nothing explains: the position as it was, and what differs from it."""
    t = max(obs.t, live.state.time)
    return live, [Finding("unrecognised", t, frame=obs.frame, detail=_difference(_view(live.state), obs))]


def observe_further(live: LiveKlondike, obs: Observation) -> tuple[LiveKlondike, list[Finding]]:
    """The last looks at a view nothing else explains: the move the last view was waited on taken
    (:func:`observe_deferred`), columns the camera lost taken as they were (:func:`observe_lost`: no
    move empties a column with backs, so that is sure), then one card misread earlier
    (:func:`observe_misread`), then two moves in one view (:func:`observe_pairs`), then the stock run
    through further (:func:`observe_stock_run`), then the last move taken back (:func:`observe_undone`)."""
    obs = stirred_since(live.stirred, obs)
    after, findings = last_looks(live, obs, observe_deferred, observe_lost, observe_misread, observe_pairs, observe_stock_run,
                                 observe_undone)
    # (as :func:`observe`: a view these looks leave unexplained keeps what moved in it, for the next)
    return replace(after, stirred=stirred_after(live.stirred, obs, after.guessed is not live.guessed)), findings


STOCK_RUN_GUESS = 0.15
"""The least score of the camera's guess at the waste's top that names the card a run of the stock
(:func:`observe_stock_run`) ends on: :data:`referee.speed_live.GUESS_FLOOR`'s reasoning, a guess that
decides."""


def observe_stock_run(live: LiveKlondike, obs: Observation) -> tuple[LiveKlondike, list[Finding]]:
    """Draws and recycles, two or more, that bring the waste's top to the card the camera reads or
    guesses there, read in an earlier pass, nothing else moved: the views between them were never
    published (kennard_big, draw 3, seed 807: a draw and the recycle after it were never seen steady,
    the next draw's top JD guessed at 0.30 where the position had the 3S; the 3S's place fitted every
    unsure reading, and the pass's four draws were lost). Only stock moves follow each other so: one
    chain, in which a card is the waste's top once a pass, and the first place on it is taken."""
    t = max(obs.t, live.state.time)
    waste = obs.piles.get("waste")
    if waste is None or waste.held or not waste.guesses:
        return _unexplained(live, obs)
    code, score = waste.guesses[-1], waste.confidences[-1] if waste.confidences else 0.0
    if waste.cards and waste.cards[-1] is not None:
        code, score = waste.cards[-1], 1.0
    if code is None or score < STOCK_RUN_GUESS:
        return _unexplained(live, obs)
    faint = _faint(live)
    state, run = live.state, []
    for _ in range(2 * (len(state.stock) + len(state.waste)) + 2):  # (a pass and more, draw 1)
        move = next((m for m in klondike.legal_moves(state) if m.op in ("draw", "recycle")), None)
        if move is None:
            break
        verdict = klondike.apply(state, replace(move, t=t))
        assert isinstance(verdict, Legal)
        state = verdict.state
        run.append(verdict)
        top = state.waste[-1] if state.waste else None
        if len(run) < 2 or top is None or top not in live.known or top.code != code:
            continue
        b = _match(_view(state), obs, live.known, faint)
        if b is None:
            break  # (the card's one place in the pass: the rest of the view is not as it leaves it)
        after, findings = live, []
        for i, step in enumerate(run):
            after, finding = _moved(after, step, b if i == len(run) - 1 else {}, obs)
            findings.append(finding)
        return after, findings
    return _unexplained(live, obs)


def observe_deferred(live: LiveKlondike, obs: Observation) -> tuple[LiveKlondike, list[Finding]]:
    """The move the referee waited on (``deferred``: laid on a card nobody has read, shown unread there),
    taken unjudged when the next view, which no move from the position explains, is explained after it
    (penguins draw 1, seed 710: a JD and 10S laid on a drawn QC never read; the next draw came before
    any clearer view, and every view after it was unrecognised)."""
    if live.deferred is None or live.pending is not None:
        return _unexplained(live, obs)
    verdict, b = live.deferred
    moved, finding = _moved(replace(live, deferred=None), verdict, b, obs)
    after, findings = observe(moved, obs, pairs=False)
    if [f.kind for f in findings] not in ([], ["move"]):
        return _unexplained(live, obs)
    move = finding.move
    return after, [replace(finding, detail=f"{move}: laid on a card not read, so not judged"), *findings]


def observe_undone(live: LiveKlondike, obs: Observation) -> tuple[LiveKlondike, list[Finding]]:
    """A view no move from the position explains that shows the position before the last legal move,
    or one move on from it: that move was taken back on the table (a draw put back, a card returned
    where no legal move takes it), and maybe another made before the table was still long enough to be
    published. The referee goes back with it rather than wait for good (Double Solitaire, 1280x720,
    seed 15: a stock turned by the other player while the turn was open, put back when the first said
    it was still his, and his next move made, left every later view unrecognised)."""
    if live.undo is None or live.pending is not None:
        return _unexplained(live, obs)
    before, verdict = live.undo
    after, findings = observe(before, obs, pairs=False)
    if [f.kind for f in findings] not in ([], ["move"]):
        return _unexplained(live, obs)
    move = replace(verdict.move, t=None)
    return after, [Finding("taken_back", max(obs.t, live.state.time), move=move, verdict=verdict, frame=obs.frame,
                           detail=f"{move} was taken back: the table is as it was before it"), *findings]


def columns_as_they_were(state: KlondikeState, known: frozenset[Card], obs: Observation, prefix: str = "",
                         backless: bool = False) -> tuple[Observation, list[int]]:
    """``obs`` with each column seen wholly empty (no card, no back) that the position says holds backs
    (no move empties such a column: K6 turns its top up) shown as the position has it: its backs, its
    known cards, its unknown ones unread; and the columns so shown. ``backless``: columns without backs
    too (a move may have emptied them: a king laid on an empty column, an ace played up), where they
    hold more than a card never read (that fits as it is: :func:`lone_unseen`). ``prefix``: a seat's
    (Double Solitaire)."""
    piles = dict(obs.piles)
    lost = []
    for i, (pile, hidden) in enumerate(zip(state.tableau, state.hidden)):
        zone = prefix + tableau_zone(i)
        seen = obs.piles.get(zone)
        up = pile[hidden:]
        if seen is None or seen.held or seen.cards or seen.backs or not up or (not hidden and not backless):
            continue
        if len(up) == 1 and up[0] not in known:
            continue
        piles[zone] = SeenPile(tuple(c.code if c in known else None for c in up), hidden)
        lost.append(i)
    return replace(obs, piles=piles), lost


def observe_lost(live: LiveKlondike, obs: Observation) -> tuple[LiveKlondike, list[Finding]]:
    """A view that matches no position while a column the position says holds backs shows nothing at
    all, no card and no back: the camera lost that column (a Double Solitaire truth video's far 3H and
    2S on an unread 4S, not found for half a minute while the rest of the table was played). It is
    taken as it was and the view judged again; no move from it is taken (the view says nothing of it).
    Then so with the columns without backs that show nothing too (penguins seed 705: a KD and the QS on
    it, both court cards the detector does not find, lost for 20 s while three cards were drawn and an
    ace played up)."""
    tried: list[int] = []
    for backless in (False, True):
        view, lost = columns_as_they_were(live.state, live.known, obs, backless=backless)
        if not lost or lost == tried:
            continue
        tried = lost
        after, findings = observe(live, view, pairs=False)
        if [f.kind for f in findings] not in EXPLAINED or any(f.move.src in {f"t{i + 1}" for i in lost}
                                                                for f in findings if f.move is not None):
            continue
        if after.reads is not live.reads:
            after = replace(after, reads=count_reads(live.reads, obs))  # (the cards shown as they were were not read)
        zones = ", ".join(tableau_zone(i) for i in lost)
        return after, [replace(f, detail=f"{zones} not found in this view: taken as it was") for f in findings]
    return _unexplained(live, obs)


def observe_misread(live: LiveKlondike, obs: Observation) -> tuple[LiveKlondike, list[Finding]]:
    """A view that matches no position once one card the referee learned is taken as not read after
    all: a misread that got past the thresholds and was learned (penguins seed 7 with a candidate
    detector: a drawn 2S read 2C at 0.35, then played up against K7; the view showed a 2S on the
    foundation, and every later view was unrecognised). Each card on show (a column's face-up card, the
    waste's top, a foundation's top) read in no more than ``MAX_READS_TO_DOUBT`` views, or read here
    as another suit of its rank (:func:`read_as_another_suit`), is forgotten in turn; when exactly one
    of them makes the view explained (nothing happened but that card read anew, a move, an illegal
    move, a take-back), that is the answer, the card learned again from this view. Otherwise the view
    stays unrecognised."""
    state = live.state
    on_show = _visible(state) | set(_view(state).foundation_tops)
    doubtful = [c for c in on_show & live.known if live.reads.get(c.code, 0) <= MAX_READS_TO_DOUBT]
    doubtful += read_as_another_suit(state, obs, live.known, reads=live.reads) - set(doubtful)

    def look(card: Card) -> tuple[LiveKlondike, list[Finding]] | None:
        after, findings = observe(replace(live, known=live.known - {card}), obs, pairs=False)
        if [f.kind for f in findings] not in EXPLAINED or (card in after.known and not turned_up_elsewhere(state, after.state, card)):
            return None
        return after, [replace(f, detail=f"the card read {card.code} earlier was misread") for f in findings]

    return one_misread(sorted(doubtful, key=lambda c: c.code), look) or _unexplained(live, obs)


def observe_pairs(live: LiveKlondike, obs: Observation) -> tuple[LiveKlondike, list[Finding]]:
    """The last resort for a view no single move explains: two legal moves, one after the other (a view
    between them was never published). The live referee tries it after looking again past doubtful
    readings: a simple explanation with one card misread beats two moves."""
    t, frame, state = max(obs.t, live.state.time), obs.frame, live.state
    pairs = _two_moves(state, obs, live.known, t)
    if not pairs:
        return _unexplained(live, obs)
    ends = {_view(second.state) for _, _, second, _ in pairs}
    if len(ends) > 1:
        names = "; ".join(f"{a.move}, {b.move}" for a, _, b, _ in pairs)
        return live, [Finding("ambiguous", t, frame=frame, detail=f"several pairs of moves fit: {names}")]
    first, b1, second, b2 = pairs[0]
    middle, one = _moved(live, first, b1, obs)
    after, two = _moved(middle, second, b2, obs)
    return after, [one, two]


TAKEN_FOR_A_BACK = "back"
"""The camera's guess at a face-up card it took for a card back (no card's code: it matches no reading,
so a card read there later is taken for a new card laid on it where a draw explains that, and it never
clears a move as :func:`_judged` does). The detector that takes a card for a back does so again and
again: penguins seed 9's QC showed as a back or as nothing in every view until the game's end, while
three cards were drawn onto it and played away. So a card once taken for a back and read in place later
is counted as a draw: the price of following such games."""


def _faint(live: LiveKlondike) -> frozenset[Card]:
    """The unread cards the camera took for backs, and those it has never read where a view that shows
    nothing there still fits (:func:`lone_unseen`, :func:`unread_waste`)."""
    taken = {c for c, g in live.guessed.items() if g == TAKEN_FOR_A_BACK}
    return frozenset(taken) | lone_unseen(live.state, live.known, live.reads) | unread_waste(live.state, live.known, live.reads)


def lone_unseen(state: KlondikeState, known: frozenset[Card], reads: Mapping[str, int] | None = None) -> frozenset[Card]:
    """The cards alone face up on a column that no view has read (``reads``: card code -> views that
    read it; a card read once and later doubted is not one). A view that shows such a column empty,
    no card and no back, still fits: the column is there, never found (a penguins QS dealt on a Double
    Solitaire player's first column was never seen, and no view of the game fitted a position; a far
    player's last column of blue backs on a purple check cloth, under a penguins QC, was never seen
    either)."""
    return frozenset(p[-1] for p, h in zip(state.tableau, state.hidden)
                     if len(p) == h + 1 and p[-1] not in known and (reads is None or not reads.get(p[-1].code)))


def unread_waste(state: KlondikeState, known: frozenset[Card], reads: Mapping[str, int] | None = None) -> frozenset[Card]:
    """The waste's top, and the card under it (the top once that leaves), when no view has read it:
    a view that shows the waste empty still fits, as with a lone card never read on a column (penguins
    draw 1, seed 713: a QS drawn and guessed 9S at 0.12, found no more once the JD drawn onto it was
    laid on a column; every view after was unrecognised). Such a card was seen when it was drawn (a
    draw is found only where the waste shows its card)."""
    return frozenset(c for c in state.waste[-2:] if c not in known and (reads is None or not reads.get(c.code)))


def misread_twins(obs: Observation, state: KlondikeState, known: frozenset[Card], prefix: str = "") -> Observation:
    """``obs`` with an unsure reading (under ``DOUBT_BELOW``) of a known face-up card taken as not read
    where the view reads that card in its own place too, and more surely: one deck holds it once, so the
    reading away from it is another card misread (aguilar, Double Solitaire seed 61 at 1280x720: player
    1's waste top 10S read 8S at 0.32 while column 3's 8S read 8S at 0.55; no view fitted, and player
    2's QH laid on a KC in it was lost, and the game with it). Not where the reading at home is the less
    sure: the card known there may be the misread one (kennard, seed 60: a far 10S read 8S at 0.31-0.38
    all game, learned as the 8S; the 8S drawn later read 8S at 0.49-0.58). ``prefix``: the seat's, on
    its own piles' zones."""
    home: dict[str, str] = {c.code: prefix + tableau_zone(i) for i, (p, h) in enumerate(zip(state.tableau, state.hidden))
                            for c in p[h:] if c in known}
    home.update({c.code: prefix + "waste" for c in state.waste if c in known})
    zones = {z: p for z, p in obs.piles.items() if z.startswith(prefix) and not p.held}
    at_home = {c: max((zones[z].confidence(k) for k, code in enumerate(zones[z].cards) if code == c), default=None)
               for c, z in home.items() if z in zones}
    changed = {}
    for z, pile in zones.items():
        cards = tuple(None if c is not None and home.get(c, z) != z and (sure := at_home.get(c)) is not None
                      and pile.confidence(k) < min(DOUBT_BELOW, sure) else c for k, c in enumerate(pile.cards))
        if cards != pile.cards:
            changed[z] = replace(pile, cards=cards)
    return replace(obs, piles={**obs.piles, **changed}) if changed else obs


def waste_seen_as_back(obs: Observation, zone: str = "waste") -> bool:
    """Whether the camera sees a back and no face on the waste (``zone``). Nothing lies face down there,
    so it is a face-up card it cannot read: penguins seed 9's QC, whose court picture the detector takes
    for a card back, made every view after its draw unrecognised (the waste looked empty)."""
    waste = obs.piles.get(zone)
    return waste is not None and not waste.held and not waste.cards and bool(waste.backs)


def fanned_after(was: Fanned, waste: Sequence[Card], obs: Observation, zone: str = "waste") -> Fanned:
    """``was`` after one more view taken, the waste now ``waste``."""
    top = waste[-1] if waste else None
    seen = obs.piles.get(zone)
    if seen is None or seen.held:
        return was if top == was.top else Fanned(top)
    under = frozenset(c for c in seen.cards[:-1] if c is not None)
    return Fanned(top, (was.under if top == was.top else frozenset()) | under, top is not None and seen.top != top.code)


def waste_top_lost(obs: Observation, zone: str, waste: Sequence[Card], known: frozenset[Card] | set[Card],
                   fanned: Fanned) -> Observation:
    """``obs`` with an unread card put back on ``zone``'s top where the view shows, as the waste's top,
    a card that the views taken since the waste's top came read under it (``fanned``), and that top, a
    known card that the last view taken showed unread already, nowhere: the camera lost the fan's top,
    not a card drawn onto it, nor the top played where it goes unread (penguins Double Solitaire, draw
    3, seed 67: a 6S fanned over an AH, read at 0.33 and then ever less surely, dropped from the view;
    the AH left alone was taken for a draw out of turn, and the game was lost)."""
    seen = obs.piles.get(zone)
    top = waste[-1] if waste else None
    if (seen is None or seen.held or top is None or top != fanned.top or not fanned.faint or top not in known
            or seen.top is None or not {c for c in seen.cards if c is not None} <= fanned.under):
        return obs  # (a card read there that was not under the top is a new fan's)
    if any(pile.held or top.code in (pile.top, pile.top_guess) for z, pile in obs.piles.items() if z != zone):
        return obs  # the top is seen, or guessed, elsewhere, or may lie under a hand: it may have moved
    guesses = seen.guesses + (None,) if len(seen.guesses) == len(seen.cards) else ()
    confidences = seen.confidences + (0.0,) if len(seen.confidences) == len(seen.cards) else ()
    return replace(obs, piles={**obs.piles, zone: replace(seen, cards=seen.cards + (None,), guesses=guesses, confidences=confidences)})


def unread_face_on(obs: Observation, zone: str) -> Observation:
    """``obs`` with ``zone`` showing one face-up card not read, that the camera took for a back."""
    return replace(obs, piles={**obs.piles, zone: SeenPile((None,), 0, guesses=(TAKEN_FOR_A_BACK,))})


def _backs_only(pile: SeenPile) -> bool:
    """A column seen with its backs and no face-up card: by K6 its top card is face up, so its face-up
    cards are there, unseen (not read at the deal, lost by the detector, or not turned up yet)."""
    return bool(pile.backs) and not pile.cards


def _from_unseen(state: KlondikeState, move: Move, obs: Observation, known: frozenset[Card]) -> bool:
    """A move of cards nobody has read from a column that shows only its backs: nothing in the view says
    they left (the column is not judged) nor what they are but where they land, so it would explain
    any new card anywhere (penguins seed 15: a QD drawn and played onto a KC was taken for the unread
    card of a column showing only its backs). Such a move is never a candidate."""
    if not move.src.startswith("t"):
        return False
    i = int(move.src[1:]) - 1
    pile = obs.piles.get(tableau_zone(i))
    # (a column seen wholly empty over its backs has not been found at all: it says no more)
    if pile is None or pile.held or not (_backs_only(pile) or (state.hidden[i] and not pile.cards and not pile.backs)):
        return False
    return any(c not in known for c in state.tableau[i][-move.count:])


def _involved(state: KlondikeState, move: Move) -> list[Card]:
    """The cards whose identity decides a move: the cards moved and the card they go onto."""
    out: list[Card] = []
    if move.src == "waste" and state.waste:
        out.append(state.waste[-1])
    elif move.src.startswith("t"):
        out.extend(state.tableau[int(move.src[1:]) - 1][-move.count:])
    if move.dst.startswith("t"):
        pile = state.tableau[int(move.dst[1:]) - 1]
        out.extend(pile[-1:])
    return out


def _before_move(state: KlondikeState, b: dict[Card, str]) -> dict[Card, str]:
    """Of what a view revealed, what concerns cards face up before the move (read there now)."""
    up = _visible(state) | set(state.waste)
    return {p: c for p, c in b.items() if p in up}


def _judged(state: KlondikeState, move: Move, t: float, known: frozenset[Card], b: dict[Card, str],
            guessed: Mapping[Card, str] = {}) -> Legal[KlondikeState] | Illegal | None:
    """The rules' verdict on ``move`` given what the view reads; None while a card it involves has never
    been read (a deal card or a drawn card seen but not read): its rank and suit would be guessed.

    The camera's guess at such a card may still clear a move: when the move is legal with every unread
    card it involves taken as guessed (a card laid on a deal card that the camera took for the right
    card, too unsure to read it, before it was covered), it is that move, and the guessed card stands in
    the position, still unread (a later reading replaces it). A guess never makes a move illegal."""
    unread = [c for c in _involved(state, move) if c not in known and c not in b]
    if unread:
        taken = set(b.values()) | {c.code for c in known}
        guesses = {c: g for c in unread if (g := guessed.get(c)) is not None and parse_seen(g) is not None and g not in taken}
        if len(guesses) < len(unread) or len(set(guesses.values())) < len(guesses):
            return None
        verdict = _judged(state, move, t, known | frozenset(unread), {**b, **guesses})
        return verdict if isinstance(verdict, Legal) else None
    first = _before_move(state, b)
    real = _learn(state, first) if first else state
    return klondike.apply(real, replace(move, t=t))


def _onto_unread(state: KlondikeState, move: Move, t: float, known: frozenset[Card], b: dict[Card, str],
                 obs: Observation, which: StandIn = "lost") -> Legal[KlondikeState] | None:
    """``move`` as a legal move when the one card it involves that nobody has read is no longer shown by
    the view at all (:func:`lost_unread`), and some card not seen anywhere yet would make it legal: that
    card stands there, still unread (a later reading replaces it). (Penguins, eight columns, seed 42: a
    JD laid on a QS nobody had read, both moved onto a KH, and the fan showed the KH and the JD, the QS's
    index missed: the JD alone on the KH was judged against K4, and the game stopped for good.)
    ``which``: the unread card a stand-in may take the place of (:func:`stand_in_for`)."""
    lost = stand_in_for(state, move, [c for c in _involved(state, move) if c not in known and c not in b], obs,
                        which=which)
    if lost is None:
        return None
    taken = {c.code for c in known} | set(b.values())
    for card in DECK:
        if card.code not in taken:
            verdict = _judged(state, move, t, known | {lost}, {**b, lost: card.code})
            if isinstance(verdict, Legal):
                return verdict
    return None


StandIn = Literal["lost", "moved", "shown"]
"""Which card nobody has read a stand-in may take the place of (:func:`stand_in_for`)."""


def stand_in_for(layout: KlondikeState, move: Move, unread: Sequence[Card], obs: Observation, prefix: str = "",
                 which: StandIn = "lost") -> Card | None:
    """The card of ``unread`` (the cards ``move`` involves that nobody has read) that a card making the
    move legal may stand in for: ``lost``, the one the view no longer shows (:func:`lost_unread`);
    ``moved``, the one card moved, wherever it shows (not the card it lands on, which a clearer view may
    read to judge the move); ``shown``, the one such card, wherever it shows. ``prefix``: the seat's,
    on its own columns' zones. None otherwise."""
    if which == "lost":
        return lost_unread(layout, move, unread, obs, prefix)
    onto = layout.tableau[int(move.dst[1:]) - 1][-1:] if move.dst.startswith("t") else ()
    return unread[0] if len(unread) == 1 and (which == "shown" or unread[0] not in onto) else None


def lost_unread(layout: KlondikeState, move: Move, unread: Sequence[Card], obs: Observation, prefix: str = "") -> Card | None:
    """The card of ``unread`` (the cards ``move`` involves that nobody has read) that the view no longer
    shows at all, if it is the only one: the column top the move is laid on (a fan shows a covered
    card's index: while the camera sees it, unread, a clearer view may still read it), or the bottom
    card of a run moved. ``prefix``: the seat's, on its own columns' zones. None otherwise."""
    if not move.dst.startswith("t") or not unread:
        return None
    i = int(move.dst[1:]) - 1
    column, seen = layout.tableau[i], obs.piles.get(prefix + tableau_zone(i), SeenPile())
    up = len(column) - layout.hidden[i]
    if list(unread) == list(column[-1:]):
        if len(seen.cards) > up:
            return None  # the view still shows it, unread: a clearer view may read it
    elif not (move.src.startswith("t") and list(unread) == list(layout.tableau[int(move.src[1:]) - 1][-move.count:][:1])
              and move.count > 1 and len(seen.cards) < up + move.count):
        return None
    return unread[0]


def _moved(live: LiveKlondike, verdict: Legal[KlondikeState], b: dict[Card, str], obs: Observation
           ) -> tuple[LiveKlondike, Finding]:
    """The running picture after a legal move whose view ``obs`` revealed the cards ``b`` binds, and its
    finding. (The first of a pair of moves takes the guesses of the view after both: its own tops that
    the second covers or takes away are guessed anew by the second.)"""
    new_state = _learn(verdict.state, b)
    learned = tuple((p.code, c) for p, c in b.items() if p.code != c)
    # K6: the event names the card as the camera read it, not the placeholder.
    events = tuple(replace(e, cards=tuple(Card.parse(b.get(c, c.code)) for c in e.cards)) for e in verdict.events)
    verdict = Legal(verdict.move, new_state, verdict.score_delta, events)
    known = live.known | _read(b)
    guessed = _guessed(live.guessed, b, new_state, known, obs)
    after = LiveKlondike(new_state, known, None, None, live.moves + 1, guessed, count_reads(live.reads, obs),
                         _ranks_guessed(live.ranks_guessed, guessed, b, known), undo=(replace(live, undo=None), verdict),
                         fanned=live.fanned)
    t = verdict.move.t if verdict.move.t is not None else new_state.time
    return after, Finding("move", t, move=replace(verdict.move, t=None), verdict=verdict, frame=obs.frame,
                          learned=learned)


def _guessed(before: Mapping[Card, str], bind: dict[Card, str], state: KlondikeState, known: frozenset[Card],
             obs: Observation) -> dict[Card, str]:
    """What the camera made of the unread cards on the piles' tops (the waste's, the columns'), with the
    earlier guesses of cards still unread. A guess never decides what a card is: a reading that differs
    from it only makes the referee look for a move before it learns the card (``observe``). The guesses
    of placeholders ``bind`` revealed go: ``_learn`` moved them to other slots."""
    out = {c: g for c, g in before.items() if c not in known and c not in bind}
    tops = [("waste", state.waste[-1:])] + [
        (tableau_zone(i), p[h:][-1:]) for i, (p, h) in enumerate(zip(state.tableau, state.hidden))
    ]
    for zone, top in tops:
        pile = obs.piles.get(zone)
        if not top or top[0] in known or pile is None or pile.held or pile.top_guess is None:
            continue
        out[top[0]] = pile.top_guess
    return out


def _ranks_guessed(before: Mapping[Card, frozenset[int]], guessed: Mapping[Card, str], bind: dict[Card, str],
                   known: frozenset[Card]) -> dict[Card, frozenset[int]]:
    """``before`` with the ranks of the camera's guesses now (``guessed``: :func:`_guessed`'s), for the
    cards still unread (placeholders ``bind`` revealed go, as in :func:`_guessed`)."""
    out = {c: r for c, r in before.items() if c not in known and c not in bind}
    for c, code in guessed.items():
        card = parse_seen(code)
        if card is not None:
            out[c] = out.get(c, frozenset()) | {card.rank}
    return out


def _two_moves(state: KlondikeState, obs: Observation, known: frozenset[Card], t: float
               ) -> list[tuple[Legal[KlondikeState], dict[Card, str], Legal[KlondikeState], dict[Card, str]]]:
    """Two legal moves, one after the other, that the view shows (a view between them was never
    published: a hand stayed over the table, a reading flickered). A card the first move reveals (a
    draw, a card turned up) is known only from where the view shows it, so the second move is found
    among all card moves a hand could make and judged once the view has said what the card is (never,
    as for a single move, on a card no view has read)."""
    out = []
    for m1 in klondike.legal_moves(state):
        if _from_unseen(state, m1, obs, known):
            continue
        v1 = klondike.apply(state, replace(m1, t=t))
        assert isinstance(v1, Legal)
        for m2, view in _physical_views(v1.state):
            if _from_unseen(v1.state, m2, obs, known):
                continue
            b1 = _match(view, obs, known)
            if b1 is None:
                continue
            if any(c not in known and c not in b1 for c in _involved(v1.state, m2)):
                continue  # a card it involves never read: its verdict would be a guess
            v2 = klondike.apply(_learn(v1.state, b1), replace(m2, t=t))
            if not isinstance(v2, Legal):
                continue
            b2 = _match(_view(v2.state), obs, known)
            if b2 is None:
                continue
            out.append((v1, b1, v2, b2))
    return out


def _difference(view: _View, obs: Observation) -> str:
    """Which piles do not look as expected, for the unrecognised-change report."""
    differ = differing_piles(view, obs)
    tops = sorted(obs.piles[z].top or "?" for z in FOUNDATION_ZONES if z in obs.piles and obs.piles[z].cards)
    if tops != sorted(c.code for c in view.foundation_tops):
        differ.append(f"foundations show {' '.join(tops) or 'nothing'}")
    return "; ".join(differ) or "the table does not match the game"


def differing_piles(view: _View, obs: Observation, prefix: str = "") -> list[str]:
    """What the columns and the waste that do not look as expected show, each named with ``prefix``
    (a seat's, where ``obs`` is that seat's zones with the prefix taken off)."""
    differ = []
    for i, (_, up) in enumerate(view.tableau):
        pile = obs.piles.get(tableau_zone(i))
        if pile is None or pile.held:
            continue
        if (not up and pile.backs) or tuple(c.code for c in up) != tuple(pile.cards):
            seen = " ".join(c or "?" for c in pile.cards)
            differ.append(f"{prefix}{tableau_zone(i)} shows [{seen}] over {pile.backs} backs")
    waste = obs.piles.get("waste")
    if waste is not None and not waste.held and (waste.top or None) != (view.waste[-1].code if view.waste else None):
        differ.append(f"{prefix}waste shows {waste.top or 'nothing'}")
    return differ


def expected_observation(state: KlondikeState, t: float = 0.0, waste_shown: int = 1) -> Observation:
    """The observation a perfect camera would publish for ``state`` (tests and rendering use it)."""
    piles: dict[str, SeenPile] = {}
    for i, (p, h) in enumerate(zip(state.tableau, state.hidden)):
        piles[tableau_zone(i)] = SeenPile(tuple(c.code for c in p[h:]), h)
    piles["waste"] = SeenPile(tuple(c.code for c in state.waste[-waste_shown:]) if state.waste else ())
    piles["stock"] = SeenPile((), 1 if state.stock else 0)
    tops = _view(state).foundation_tops
    for k, zone in enumerate(FOUNDATION_ZONES):
        piles[zone] = SeenPile((tops[k].code,) if k < len(tops) else ())
    return Observation(t, piles)


# --- what the live referee shows and announces ---------------------------------------------------------


def public_state(live: LiveKlondike) -> dict[str, object]:
    """The position as players may see it: face-down and unseen cards are counts or ``None``, never
    the placeholders the engine carries for them."""
    state, known = live.state, live.known
    picture = state.to_json()
    picture["tableau"] = [{"down": h, "up": [c.code if c in known else None for c in p[h:]]}
                          for p, h in zip(state.tableau, state.hidden)]
    picture["stock"] = len(state.stock)
    picture["waste"] = [c.code if c in known else None for c in state.waste]
    picture["moves"] = live.moves
    picture["waiting_for_take_back"] = None if live.pending is None else str(live.pending)
    return picture


def ending(live: LiveKlondike, t: float) -> tuple[str, Event] | None:
    """K13: ``(result, call)`` once the game is won or no useful move is left. "No useful move" is
    called only when no card it rests on is a placeholder: a stock or waste card nobody has read (it may
    fit somewhere; drawing brings it) or a face-up card not read yet. The face-down cards do not count:
    turning one up is progress whatever it is."""
    end = klondike.outcome(live.state)
    if end is None:
        return None
    state = live.state
    if end.result == "lost" and any(c not in live.known for c in (*state.stock, *state.waste, *_visible(state))):
        return None
    kind = "won" if end.result == "won" else "no_moves_left"
    return end.result, Event(kind, t=t, detail=end.reason)


def involved_cards(live: LiveKlondike, finding: Finding) -> list[str]:
    """The cards an illegal move involves (the moved card and what it landed on), for the big screen."""
    move = finding.move
    return [c.code for c in moved_and_under(live.state, move)] if isinstance(move, Move) else []


def moved_and_under(state: KlondikeState, move: Move) -> list[Card]:
    """The card a move lifts from the waste or a column (a run's bottom card) and the column card it
    lands on, where there are such cards."""
    out: list[Card] = []
    if move.src == "waste" and state.waste:
        out.append(state.waste[-1])
    elif move.src[:1] == "t" and move.src[1:].isdigit():
        pile = state.tableau[int(move.src[1:]) - 1]
        out.extend(pile[len(pile) - move.count :][:1])
    if move.dst[:1] == "t" and move.dst[1:].isdigit():
        out.extend(state.tableau[int(move.dst[1:]) - 1][-1:])
    return out
