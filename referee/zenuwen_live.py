"""Following a real Zenuwen game from what the camera sees (issue 6: move inference, 2-4 players).

The same approach as :mod:`referee.stress_live` (read its docstring first): a full
:class:`~referee.zenuwen.ZenuwenState` with :class:`~referee.speed_live.Unseen` stand-ins for cards
nobody has seen (face-down pile cards, stocks, hand cards taken up face down); each steady view is
explained by the fewest legal single-player moves (at most ``MAX_PER_PLAYER`` per player and
``MAX_DEPTH`` or one per player, whichever is more, in all per view), by an illegal move that must be
taken back (a pile top or hand card laid where it does not fit, a join of different values; the
other players may go on meanwhile), or it is unrecognised. With three or four players the search
is bounded by the piles that still look wrong (a move changes at most two of a player's piles).
Calls (``stuck``, ``round_over``, ``match_over``) come out as ``call`` findings with the time of the
view that showed the position. With two decks (three or four players) a card may lie twice; a card is
learned only while fewer copies of it are known than the decks hold.

What the camera sees: the patience piles are squared, so each shows its top card and nothing of the
face-down cards under it (the tracker publishes ``backs: 0`` under a face-up top, ``backs: 1`` for a
face-down top, whatever the height). Face-down cards are counted by the rules, not by the camera (as
in :mod:`referee.klondike_live`): Z2 lays pile K with K cards and only a card leaving a pile turns
the next one up, so the referee always knows how many lie in each pile. The camera's count is not
compared; what matters is asked: a pile the position says is empty must show neither cards nor
backs, and a pile whose top the engine has turned up but nobody has seen shows a back (the card is
not turned yet) or its card. (Two decks: a pile that turned up another copy of the card that left it
looks unchanged; the search tries that play too.) The turned-up card is learned when it shows;
a ``stuck`` call waits until every pile top and centre top has been seen (or, in a view no hand
covers, guessed by the camera: the call then rests on the guesses and says so), and within one view
only a position still stuck at its end is called. Hand cards (Z9) are never
seen: a card that appears on a centre pile while no pile top left is a hand card (of the player who
holds it; when two players hold hand cards nobody saw, whose it was cannot be told: ``ambiguous``).
A hand card nobody saw that another card covered within the same view is found too (judged as a
card of a fitting rank, reported and kept as unseen), and so is a centre card turned while the view
was unclear and covered by a pile top before any view read it. A view in which a hand over a pile or a
centre pile (or an unread card) may hide moves, or that would make a call while some pile is not
seen, or in which a move would change a pile under a hand or with an unread card, is left unused,
up to ``MAX_DEFERRED`` views in a row. A clear view that several move series explain equally well
(whose was a hand card of which two players hold a copy, which of two hand cards went under another
card) is ``ambiguous``: the picture after each series is kept (``LiveZenuwen.undecided``, at most
``MAX_UNDECIDED``) and the later views are judged from each, so the moves they add need no deeper
search; the series they leave (or an explicit input leaves: a choice only the round's winner may
make) is reported then, each finding with the time of the view that showed it; a round that ends
alike in every series (the same winner, the same cards left to each) decides on the first, its
doubtful move noted, since only covered centre cards differ. Two decks: a centre
pile may look unchanged because the twin of its top came back on it, and a pile may look unchanged
because the twin of its top lay face up beneath it; both are searched, after an illegal move (a
series that needs such coincidences is less likely than a card laid against the rules).
New centre cards (Z5/Z7/Z8 ``turn``) that cannot be read are not accepted yet (``ambiguous``).

What the camera gets wrong (three and four players: the side seats' indices are read turned, the
far seat's small): an illegal verdict needs the card seen leaving its pile and read where it landed;
a card laid on a pile under a hand waits for the hand to go (``MAX_UNDER_HAND`` views); a legal
series that needs a play nobody saw (covered in the same view, from a pile not read or one whose
next card is its twin, and not read on the centre in a view left unused) gives way, once no later
view may show more, to a shorter explanation in which every card was seen; and a view nothing
explains gets two last looks, whose legal explanations alone are taken: the piles the camera shows
nothing on taken as not read, then one card learned from no more than ``MAX_READS_TO_DOUBT`` views
taken as misread where the view now reads another card (noted on the first move found).

**Inputs the camera cannot give** (the web app's key press / screen tap; each returns
``(live, findings)`` like :func:`observe`):

- :func:`choose` ``(live, player, t, pile)``: at the end of a round (Z10/Z11, ``winner_chooses``),
  ``player`` takes centre pile ``pile`` (0-based). Under ``winner_chooses`` a view in which one free
  centre pile has gone is also read as the choice of the player whose turn it is, when the table
  tells which pile that was (three or four players; with two, the other pile goes to the other
  player at once, so the camera cannot tell which the winner took: the referee waits for choose(),
  or for the next layout, whose cards tell which pile each player took: :func:`_new_layout`).
- :func:`slap` ``(live, player, t, pile)``: ``pile_choice=slap_race``: ``player`` slapped centre pile
  ``pile`` (the first gets it): a key press, or the camera seeing whose hand reached a centre pile
  first (:func:`slappers` says when it watches). After the race the others choose in the Z11 order,
  by :func:`choose` or as seen (as under ``winner_chooses``).
- :func:`new_round` ``(live, observation, t=None)``: start the next round (Z11) from a view of the new layout.
  Not needed in the normal case: once the round is over, a view showing a fresh layout (a readable
  top on every pile the Z11 layout gives each player, empty centre) starts the next round, with the
  choices nobody entered read from it.

Zone names (``calibration.templates``): ``p{seat}.pile1`` .. ``pile5``, ``p{seat}.stock``,
``centre1`` .. ``centreN``. Seat ``pS`` is engine player ``S-1``; ``pileK`` is patience pile ``K-1``
(laid with K cards); ``centreK`` is centre pile ``K-1`` (the one player ``K-1`` turns cards onto).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import permutations
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

from . import zenuwen
from .cards import RANKS, Card
from .observation import MAX_READS_TO_DOUBT, Finding, Observation, SeenPile, count_reads, guess_apart, parse_seen, pile_size, reads_of_view
from .observation import stirred_after, stirred_since, surely_read
from .options import to_spec
from .speed_live import (
    best_in_place, GUESS_FLOOR, guess_of, bare, tops_guessed,
    Binder, Engine, Explanation, centre_faces, centre_reads, Live, Node, Unseen, best_explanations, breadth_first, centre_number, centre_zone, deferred,
    difference, differing, explained, fits, from_code, hide_cards, is_unseen, judged, later_view, pile_number,
    pile_zone, public_picture, real_counts, search_budget, seat_zone, seen_code, shown_codes, stock_zone, swap_cards,
    targets, unclear, unjudged, unread_centre, unseen, Guessed, UNSEEN_AFTER, noted, read_where_guessed, read_as_guessed, AGREEING_GUESS_FLOOR,
    stock_as_seen, stuck_refuted, stuck_since, lost_as_unread, unread_unknown, laid_fits, read_anew_where_still,
)
from .verdict import Event, Illegal, Legal
from .zenuwen import PILES, Choose, Join, Layout, NewRound, Phase, Play, Slap, TakeHand, Turn, ZenuwenRules, ZenuwenState, ZPile, ZSeat

MAX_DEPTH = 3
"""Most moves one view may explain (all players together; a turn counts once); with more players,
one per player."""
MAX_DEFERRED = 3
"""Views in a row that may be left unused because a hand or an unread card may hide a move."""
MAX_UNDER_HAND = 10
"""Views in a row that may be left unused because a card of the explanation lands on a pile under a
hand: the card may still be in the hand (four players, seed 24: an 8D taken up to be laid on one
centre pile was judged laid on its neighbour, under the hand, once three views had been left unused
for piles not read)."""

SURE_IN_PLACE = 0.7
"""A pile top read surely in another place (its twin, or this card before it lay here) may still be
misread where it lies: one no view read there at least this surely is doubted when nothing else
explains a view (:func:`_misread`; four players at 1920x1080, kennard, seed 177: p3's far 10S, read
6S at 0.32-0.61 in its place, laid on a 9D and read 10S there at 0.69, left every view after it
unrecognised; the line between the sure and unsure reads, ``DOUBT_BELOW`` 0.6, is too low for a far
seat's reading of its own pile)."""

QUIET_MOVES = 2
"""Most moves a view left waiting may explain for a quiet table to conclude it (:func:`settle`): a
longer series concluded for want of a later view is a guess (four players at 1280x720, kennard, seed
172, its far seat misread from the deal on: four moves, two of them joins nobody made)."""

RELAXED_BUDGET = 4000
"""Positions the second, wider search (two decks) may look at before it gives up."""
VIEW_BUDGET = 10000
"""Positions all the searches judging one view may look at together (:func:`search_budget`): a view
that needs more is left unrecognised rather than judged on searches that gave up. The 1920x1080 truth
videos need at most about 5,000; at 1280x720 10,000 finds what 20,000 finds, 6,000 does not; about
10 s on the development machine at worst."""
FEED_BUDGET = 2 * VIEW_BUDGET
"""Positions all the looks the app takes at one published state may search together (a second look
past doubtful readings, a misread looked for: ``Follower.feed_budget``). Each look had a
``VIEW_BUDGET`` of its own before, so a referee lost in a four-player game spent up to a minute a
view and fell ever further behind the camera."""
LOST_BUDGET = VIEW_BUDGET // 5
"""The same for a referee that has lost the game (``Follower.lost_budget``): the way back is the table
as it was known, or a move or two from there, which 2,000 positions find; the seed 130 game lost on
purpose took 13-36 s a view with ``FEED_BUDGET``."""
MAX_PER_PLAYER = 3
"""Most moves of one player one view may explain. Two was too few: views left unused while a card
lands unread pile up moves (four players at 1280x720, seed 27: a 3C, then a 4S on it and the KH
turned up under the 4S laid on a QH, all by p1, came to one view)."""
SPENT = max(MAX_DEFERRED, MAX_UNDER_HAND)
"""As many views left unused as may be: a picture with this many concludes what it can."""
MAX_UNDECIDED = 4
"""Most move series an undecided view may keep open until a later view tells them apart."""


def substitute_cards(state: ZenuwenState, subs: Mapping[Unseen, Card]) -> ZenuwenState:
    """The position with stand-ins replaced by the real cards. What holds none of them is kept as it
    is, not copied: the searches substitute one card at a time, hundreds of thousands of times."""
    if not subs:
        return state

    def holds(cards: tuple[Card, ...]) -> bool:
        return any(c in subs for c in cards if isinstance(c, Unseen))

    seats = list(state.seats)
    for q, s in enumerate(state.seats):
        piles = tuple(ZPile(swap_cards(p.cards, subs), p.up) if holds(p.cards) else p for p in s.piles)
        stock = swap_cards(s.stock, subs) if holds(s.stock) else s.stock
        hand = swap_cards(s.hand, subs) if holds(s.hand) else s.hand
        if any(a is not b for a, b in zip(piles, s.piles)) or stock is not s.stock or hand is not s.hand:
            seats[q] = replace(s, piles=piles, stock=stock, hand=hand)
    centre = tuple(swap_cards(p, subs) if holds(p) else p for p in state.centre)
    if all(a is b for a, b in zip(seats, state.seats)) and all(a is b for a, b in zip(centre, state.centre)):
        return state
    return replace(state, seats=tuple(seats), centre=centre)


def _face_down_unseen(state: ZenuwenState) -> ZenuwenState:
    """Cards lying face down (stocks, covered pile cards) are stand-ins: their order is not seen."""

    def hidden(s: ZSeat) -> bool:
        return any(not is_unseen(c) for c in s.stock) or any(
            not is_unseen(c) for p in s.piles for c in p.cards[: len(p.cards) - p.up]
        )

    if not any(hidden(s) for s in state.seats):
        return state
    seats = []
    for s in state.seats:
        piles = tuple(ZPile(hide_cards(p.cards[: len(p.cards) - p.up]) + p.visible, p.up) for p in s.piles)
        seats.append(replace(s, piles=piles, stock=hide_cards(s.stock)))
    return replace(state, seats=tuple(seats))


def _tops(state: ZenuwenState) -> list[Card]:
    return [p.top for s in state.seats for p in s.piles if p.top is not None] + [p[-1] for p in state.centre if p]


ENGINE: Engine[ZenuwenState] = Engine(
    zenuwen.apply, zenuwen.CALLS, zenuwen._finish, substitute_cards, _face_down_unseen, _tops, lambda s: s.phase is Phase.PLAY,
    lambda move: isinstance(move, Turn),
)


def _zone_ok(state: ZenuwenState, zone: str, seen: SeenPile, b: Binder) -> bool:
    """Does one seen zone fit the position?"""
    ending = state.phase in (Phase.CHOOSE, Phase.NEXT, Phase.MATCH_OVER)
    if zone.startswith("centre"):
        j = centre_number(zone)
        if j is None:
            return True
        if not 0 <= j < len(state.centre):
            return not seen.cards
        cpile = state.centre[j]
        taken = ending and j in state.takes
        if not seen.cards:
            # empty, a turned card not down yet, or a pile taken at the end of the round
            return not cpile or isinstance(cpile[-1], Unseen) or taken
        if not cpile:
            return False
        return b.card(cpile[-1], seen.cards[-1])
    at = seat_zone(zone, state.seats)
    if at is None:
        return True
    p, seat, place = at
    if place == "stock":
        if ending or (seen.backs is None and not seen.cards):
            return True
        return (bool(seen.cards) or bool(seen.backs)) == bool(seat.stock)
    i = pile_number(place)
    if i is None or not 0 <= i < PILES:
        return True
    return _pile_ok(seat.piles[i], seen, b)


def _pile_ok(pile: ZPile, seen: SeenPile, b: Binder) -> bool:
    """Does one seen patience pile fit the pile of the position?"""
    if not seen.cards:
        # empty, or the card the engine turned up is not turned yet (a back shows); the camera's
        # count of a squared stack of backs is not compared, only whether backs show at all
        if pile.top is None:
            return not seen.backs
        return isinstance(pile.top, Unseen) and seen.backs != 0
    return b.card(pile.top, seen.cards[-1])


def match(state: ZenuwenState, obs: Observation) -> dict[Unseen, Card] | None:
    """What the observation reveals if it fits the position (stand-in -> card), else None."""

    def check(zone: str, seen: SeenPile, b: Binder) -> bool:
        return _zone_ok(state, zone, seen, b)

    return fits(obs, obs.piles, check, Binder(lambda: real_counts(state), state.rules.deck_count))


def _match_suits_aside(state: ZenuwenState, obs: Observation) -> dict[Unseen, Card] | None:
    """:func:`match`, a centre top read unsurely as another suit of the position's card taken for that
    card: Z6 ignores suits, so a move judged against it is judged the same whichever suit the card is
    (three players at 1280x720, kennard_4c, seed 190: p2's 2D, learned as 2S, laid on a 4C and read 2D
    at 0.52 there, was no move at all and its take-back none either). Not a card the pile held
    already: that is the pile as it was (190 again: a 2C read on top as before, taken for p2's 2D
    laid on it against Z6)."""
    piles = {}
    for j, cpile in enumerate(state.centre):
        seen = judged(obs, centre_zone(j))
        read = parse_seen(seen.top) if seen is not None else None
        top = cpile[-1] if cpile else None
        if (seen is not None and read is not None and top is not None and not is_unseen(top) and seen.top_weak
                and read != top and read.rank == top.rank and read not in cpile[:-1]):
            piles[centre_zone(j)] = replace(seen, cards=seen.cards[:-1] + (top.code,))
    return match(state, replace(obs, piles={**obs.piles, **piles}) if piles else obs)


def differing_zones(state: ZenuwenState, obs: Observation) -> frozenset[str]:
    real = real_counts(state)

    def check(zone: str, seen: SeenPile, b: Binder) -> bool:
        return _zone_ok(state, zone, seen, b)

    return differing(obs, obs.piles, check, lambda: Binder(lambda: Counter(real), state.rules.deck_count))


def _needs(obs: Observation, pending: PendingIllegal | None, players: int) -> Callable[[Node[ZenuwenState]], int]:
    """The fewest moves a position still needs to look like the view: each player's piles that do
    not look right take a move per two piles at least (a join changes two, a play one; taking the
    last cards into the hand changes all), and no player may go over ``MAX_PER_PLAYER``; 0 (no
    bound) with an illegal move on the table."""
    # the piles the view judges, looked up once per view rather than once per position
    shown = [(p, i, seen) for p in range(players) for i in range(PILES) if (seen := judged(obs, pile_zone(p, i))) is not None]

    def needs(node: Node[ZenuwenState]) -> int:
        if pending is not None:
            return 0
        state = node.state
        cache: list[Counter[Card]] = []

        def real() -> Counter[Card]:
            if not cache:
                cache.append(real_counts(state))
            return Counter(cache[0])

        per = [0] * state.players
        for p, i, seen in shown:
            if not _pile_ok(state.seats[p].piles[i], seen, Binder(real, state.rules.deck_count)):
                per[p] += 1
        total = 0
        for p, n in enumerate(per):
            k = (n + 1) // 2
            if k > 1 and sum(len(x.cards) for x in state.seats[p].piles) <= zenuwen.HAND_MAX:
                k = 1  # all into the hand at once (Z9)
            if k > MAX_PER_PLAYER - node.count[p]:
                return 10**6
            total += k
        return total

    return needs


def _touches(move: Any, state: ZenuwenState) -> frozenset[str]:
    n = state.players
    if isinstance(move, Play):
        assert isinstance(move.to, int)
        out = {centre_zone(move.to)}
        if not move.from_hand and isinstance(move.source, int):
            out.add(pile_zone(move.player, move.source))
        return frozenset(out)
    if isinstance(move, Join):
        assert isinstance(move.source, int) and isinstance(move.onto, int)
        return frozenset({pile_zone(move.player, move.source), pile_zone(move.player, move.onto)})
    if isinstance(move, TakeHand):
        return frozenset(pile_zone(move.player, i) for i in range(PILES))
    if isinstance(move, (Turn, Choose)):
        return frozenset(centre_zone(j) for j in range(n)) | {stock_zone(p) for p in range(n)}
    return frozenset()


def _stand_ins(state: ZenuwenState, top: Card) -> list[Card]:
    """One card of each rank that fits ``top`` and may still be unseen."""
    real = real_counts(state)
    out = []
    for rank in {top.rank % 13 + 1, (top.rank - 2) % 13 + 1}:
        for suit in "SHDC":
            c = Card.parse(RANKS[rank - 1] + suit)
            if real[c] < state.rules.deck_count:
                out.append(c)
                break
    return out


def _laid_fits(start: ZenuwenState, final: ZenuwenState) -> dict[Unseen, list[Card]]:
    """Each centre top of ``final`` nobody has read that was a pile or hand card in ``start`` (so laid
    by a play, Z6, not turned from a stock) -> one card of each rank that fits the card it covers
    (:meth:`~referee.speed_live.Engine.stuck_whatever`)."""
    laid = {c for seat in start.seats for c in seat.hand + tuple(x for pile in seat.piles for x in pile.cards) if isinstance(c, Unseen)}
    return laid_fits(final.centre, laid, partial(_stand_ins, final))


def _unguess(node: Node[ZenuwenState], final: ZenuwenState, findings: list[Finding] | None = None) -> ZenuwenState:
    """Guessed cards back to unseen: hand cards covered at once and pile tops played unread, in the
    centre piles, a pile top covered by a join as a card of its value, in the patience piles; and in
    the findings."""
    if not node.guesses:
        return final
    guessed = {u: c for u, c in node.subs if u in node.guesses}
    centre = list(final.centre)
    covered: dict[Unseen, Card] = {}
    hand = {u: c for u, c in guessed.items()
            if any(isinstance(m, Play) and m.from_hand and m.source == c for m in node.moves)}
    plays = [m for m in node.moves if isinstance(m, Play) and m.from_hand and m.source in hand.values()]
    places: dict[tuple[int, int], tuple[Unseen, Card]] = {}  # (centre pile, place) -> the guess made unseen there
    for (u, c), move in zip(hand.items(), plays):
        assert isinstance(move.to, int)
        pile = list(centre[move.to])
        for k in range(len(pile) - 2, -1, -1):  # under the top: a guess on top would have been seen
            if pile[k] == c:
                pile[k] = u
                covered[u] = c
                places[move.to, k] = (u, c)
                break
        centre[move.to] = tuple(pile)
    # a centre card nobody read, guessed under the pile top played onto it: unseen again
    onto = [m.to for m in node.moves if isinstance(m, Play) and not m.from_hand and isinstance(m.to, int)]
    # and a pile top nobody read, played as a card that fits where the camera shows a card unread
    # (:func:`_played_unread`): unseen on top
    played: dict[Unseen, Card] = {}
    for u, c in guessed.items():
        if u in hand:
            continue
        for j in onto:
            pile = list(centre[j])
            under = [k for k in range(len(pile) - 2, -1, -1) if pile[k] == c]
            if under:
                pile[under[0]] = u
                centre[j] = tuple(pile)
                places[j, under[0]] = (u, c)
                break
        else:
            for j in onto:
                if centre[j] and centre[j][-1] == c:
                    centre[j] = centre[j][:-1] + (u,)
                    played[u] = c
                    places[j, len(centre[j]) - 1] = (u, c)
                    break
    # and a pile top nobody read, covered by a join as a card of its value (:func:`_joins_onto_unread`):
    # under the cards of a pile a join of the series landed on, nowhere else
    joined = [(m.player, m.onto) for m in node.moves if isinstance(m, Join) and isinstance(m.onto, int)]
    if joined:
        seats = list(final.seats)
        for u, c in guessed.items():
            if u in hand or u in played or any(u == x for x, _ in places.values()):
                continue
            for p, i in joined:
                zpile = seats[p].piles[i]
                at = next((x for x in range(len(zpile.cards) - 1) if zpile.cards[x] == c), None)
                if at is not None:
                    cards = zpile.cards[:at] + (u,) + zpile.cards[at + 1:]
                    seats[p] = replace(seats[p], piles=_set(seats[p].piles, i, replace(zpile, cards=cards)))
                    break
        final = replace(final, seats=tuple(seats))
    if findings is not None:
        guessed_names = {f"unseen{g.n}" for g in node.guesses}
        for n, f in enumerate(findings):
            m = f.move
            if f.learned:
                f = findings[n] = replace(f, learned=tuple(x for x in f.learned if x[0] not in guessed_names))
            if f.kind == "move" and isinstance(m, Play) and not m.from_hand and any(
                e.kind == "play" and e.cards and e.cards[-1] in played.values() for e in f.verdict.events
            ):
                events = tuple(
                    replace(e, cards=(), detail="a card nobody read, judged as one that fits")
                    if e.kind == "play" else e
                    for e in f.verdict.events
                )
                findings[n] = replace(f, verdict=Legal(m, f.verdict.state, 0, events))
            if f.kind == "move" and isinstance(m, Play) and m.from_hand and m.source in covered.values():
                u = next(x for x, c in covered.items() if c == m.source)
                hidden = replace(m, source=u)
                events = tuple(
                    replace(e, cards=(), detail="a hand card nobody saw, covered at once") if e.kind == "play" else e
                    for e in f.verdict.events
                )
                findings[n] = replace(f, move=hidden, verdict=Legal(hidden, f.verdict.state, 0, events))
            if f.kind == "move" and isinstance(findings[n].verdict, Legal):
                findings[n] = _unguessed_finding(findings[n], places)
    return replace(final, centre=tuple(centre))


def _unguessed_finding(f: Finding, places: Mapping[tuple[int, int], tuple[Unseen, Card]]) -> Finding:
    """The finding with the guesses made unseen again (``places``) unseen in its position and unnamed in
    the turn that laid them: the log names no card nobody saw (three players, penguins, seed 126: a 6S
    turned and covered before any view read it, logged as an 8S turned, the stand-in of a rank that
    fits the 7D laid on it)."""
    verdict = f.verdict
    assert isinstance(verdict, Legal)
    state, centre = verdict.state, list(verdict.state.centre)
    events = list(verdict.events)
    for (j, k), (u, c) in places.items():
        if j < len(centre) and k < len(centre[j]) and centre[j][k] == c:
            centre[j] = centre[j][:k] + (u,) + centre[j][k + 1:]
        events = [replace(e, cards=(), detail="a card nobody read, covered at once")
                  if e.kind == "turn" and e.pile == f"centre{j}" and e.cards == (c,) else e for e in events]
    if tuple(centre) == state.centre and tuple(events) == verdict.events:
        return f
    return replace(f, verdict=replace(verdict, state=replace(state, centre=tuple(centre)), events=tuple(events)))


def _replayed(moves: Sequence[Any], state: ZenuwenState) -> Iterator[tuple[int, Any, ZenuwenState, ZenuwenState | None]]:
    """Each move of a series with its index, the position before it and the one after it (None: the
    move is not legal there, e.g. a stand-in played as it is; the next move is replayed from before)."""
    for k, m in enumerate(moves):
        v = zenuwen.apply(state, m)
        after = v.state if isinstance(v, Legal) else None
        yield k, m, state, after
        state = after if after is not None else state


def _left_pile(move: Any) -> str | None:
    """The patience pile a play or join takes its card from (None: a hand card, or another move)."""
    if isinstance(move, (Play, Join)) and isinstance(move.source, int) and not getattr(move, "from_hand", False):
        return pile_zone(move.player, move.source)
    return None


def _shows_still(seen: SeenPile | None, card: Card | None) -> bool:
    """Does the pile, as the view reads it, show the very card that left it (two decks: its twin turned
    up under it; or it never left)?"""
    return seen is not None and card is not None and seen.top is not None and seen.top == seen_code(card)


def _looks_unchanged(
    moves: Sequence[Any], changed: frozenset[str], state: ZenuwenState, revealed: Mapping[Unseen, Card] | None = None
) -> int:
    """How many coincidences of two decks ``moves`` (from ``state``) need: a card taken from a pile that
    looks as it did (the card under it its twin), a new centre card laid on its twin (three players,
    seed 21 with run 7: a turn whose new cards on two piles were the twins of the cards they covered
    explained a 7H played on the third). A turned card on a centre pile that looks as it did must be
    the twin; with ``revealed`` (what the stand-ins were learned or guessed as), one on a pile that
    looks different counts too when it was learned as the twin of the card it lies on."""
    count = 0
    for _, m, before, after in _replayed(moves, state):
        # joined onto a pile that looks as it did: the card joined is the twin of its top (three
        # players, penguins, seed 162: p3's 2S lifted to be played, read 2C at 0.34 before, taken
        # for joined onto the 2D beside it and learned as the other 2D; 40 views unrecognised)
        count += _joins_onto_twin(m, before, changed)
        left = _left_pile(m)
        if left is not None:
            # (a pile top nobody read has no twin to tell: the card the view reads there may be the next)
            count += left not in changed and not is_unseen(before.seats[m.player].piles[m.source].top)
        elif isinstance(m, Turn) and after is not None:
            for j, (a, b) in enumerate(zip(before.centre, after.centre)):
                if len(b) <= len(a):
                    continue
                if centre_zone(j) not in changed:
                    count += 1
                elif revealed is not None and a:
                    new, under = _known(b[-1], revealed), _known(a[-1], revealed)
                    count += not is_unseen(new) and new == under
    return count


def _joins_onto_twin(move: Any, before: ZenuwenState, changed: frozenset[str]) -> bool:
    """Does ``move`` (made from ``before``) join a card onto a pile that looks as it did, its known top
    the twin of the card joined? The pile it left shows the move (:func:`_looks_unchanged` counts it
    with the moves that nothing in the view shows)."""
    if not isinstance(move, Join) or not isinstance(move.onto, int) or pile_zone(move.player, move.onto) in changed:
        return False
    onto = before.seats[move.player].piles[move.onto].top
    return onto is not None and not is_unseen(onto)


def _joined_onto_twins(moves: Sequence[Any], changed: frozenset[str], state: ZenuwenState) -> int:
    """How many of ``moves`` (from ``state``) :func:`_joins_onto_twin`."""
    return sum(_joins_onto_twin(m, before, changed) for _, m, before, _ in _replayed(moves, state))


def _known(card: Card, revealed: Mapping[Unseen, Card]) -> Card:
    return revealed.get(card, card) if isinstance(card, Unseen) else card


def _guessed_onto_unchanged(moves: Sequence[Any], changed: frozenset[str], state: ZenuwenState) -> bool:
    """Does ``moves`` (from ``state``) lay a pile top nobody has seen onto a centre pile that looks as
    it did? Only the twin of the card it covered, laid after another play, leaves it so: a guess on
    a coincidence. (Two seen cards doing that can be told: both their piles show another card.)"""
    for _, m, before, after in _replayed(moves, state):
        if isinstance(m, Play) and not m.from_hand and isinstance(m.source, int) and isinstance(m.to, int):
            top = before.seats[m.player].piles[m.source].top
            if centre_zone(m.to) not in changed and top is not None and is_unseen(top):
                return True
        if after is None:
            return False
    return False


def _must_change(move: Any, state: ZenuwenState) -> tuple[str, ...]:
    """The piles that must look different in the view (or have changed earlier in the series) for
    the move to be part of an explanation: the pile a card leaves (another card shows), and the pile
    a join lands on (its top is another card now)."""
    if isinstance(move, Play) and isinstance(move.source, int) and not move.from_hand:
        pile = state.seats[move.player].piles[move.source]
        if pile.up > 1 and pile.cards[-2] == pile.top:  # two decks: the same card face up beneath
            return ()
        if _twin_may_turn_up(state, pile):
            return ()
        return (pile_zone(move.player, move.source),)
    if isinstance(move, Join) and isinstance(move.source, int) and isinstance(move.onto, int):
        piles = state.seats[move.player].piles
        if piles[move.source].top == piles[move.onto].top:  # two decks: the same card on the same card
            return (pile_zone(move.player, move.source),)
        if _twin_may_turn_up(state, piles[move.source]):
            return (pile_zone(move.player, move.onto),)
        return (pile_zone(move.player, move.source), pile_zone(move.player, move.onto))
    return ()


def _twin_may_turn_up(state: ZenuwenState, pile: ZPile) -> bool:
    """Two decks: the face-down card under the pile's only face-up card may be the other copy of it,
    turned up when the top leaves; the pile then looks unchanged (the camera does not count the
    face-down cards of a squared pile, so it cannot tell)."""
    return state.rules.deck_count > 1 and pile.up == 1 and len(pile.cards) > 1 and is_unseen(pile.cards[-2])


def _shows_under(pile: ZPile, obs: Observation, zone: str) -> bool:
    """May the card the view reads on a pile whose top nobody read be the one turned up under that
    top, played meanwhile? It may where a card lies under the top (four players, penguins, seed 127:
    a far QH never read, played onto a KS and read there at 0.31, its pile showing the KH under it; the
    KH was learned as the pile's top, the QH taken as misread, and the round's end after it was never
    followed)."""
    seen = judged(obs, zone)
    return seen is not None and seen.top is not None and len(pile.cards) > 1


def _expand(
    obs: Observation, diff: frozenset[str], t: float, strict: bool = True, depth: int = MAX_DEPTH,
    glimpsed: frozenset[tuple[str, str]] = frozenset(), joins: Sequence[HalfSeenJoin] = (), unread_joins: bool = False,
    guessed_tops: Mapping[str, str] = {},
) -> Callable[[Node[ZenuwenState]], Iterator[Node[ZenuwenState]]]:
    """Children of a search node. ``strict``: a card may leave only a pile that looks different in
    the view; not strict (the second try, two decks only): also a pile whose next card happens to be
    another copy of the card that left. ``glimpsed``: (centre zone, card) read in views left unused,
    which a pile top nobody read may have been (covered since). ``unread_joins``: also the joins of
    :func:`_unread_joins`. ``guessed_tops``: the camera's guesses of the pile tops (``LiveZenuwen.seen_tops``)."""

    hidden = unjudged(obs)  # a hand over it, or a card not read: it may have changed unseen
    # the cards that may have landed on each centre pile: the one the view reads on top, and those
    # views left unused read there (three players, seed 29: a 10H from a pile nobody read, read on
    # the centre pile while a hand hovered elsewhere, then covered by a JS)
    def centre_cards(seen: Iterable[tuple[str, str]]) -> list[tuple[int, Card]]:
        return [(j, c) for zone, code in seen if (j := centre_number(zone)) is not None and (c := parse_seen(code)) is not None]

    read = centre_cards(sorted(centre_reads(obs)))
    landed = list(dict.fromkeys(read + centre_cards(sorted(glimpsed))))

    def expand(node: Node[ZenuwenState]) -> Iterator[Node[ZenuwenState]]:
        state = node.state
        # two decks: a centre pile may look unchanged because the other copy of its top card came
        # back on it (a 6 on a 7 on the 6): allowed when that copy left a pile that looks different
        back: set[str] = set()
        if state.rules.deck_count > 1:
            tops = state.tops()
            for q, seat in enumerate(state.seats):
                for i, pile in enumerate(seat.piles):
                    if pile.top is not None and pile.top in tops and pile_zone(q, i) in diff | hidden:
                        back.update(centre_zone(j) for j, c in enumerate(tops) if c == pile.top)
        for move in zenuwen.legal_moves(state):
            if isinstance(move, (Slap, NewRound)):
                continue  # explicit inputs (a new layout is read from the view by observe)
            p = move.player
            if p is not None and node.count[p] >= MAX_PER_PLAYER:
                continue
            touched = _touches(move, state)
            changed = diff | node.touched

            if not touched & (changed | hidden | back) or (
                strict and any(z not in changed and z not in hidden for z in _must_change(move, state))
            ):
                continue
            v = zenuwen.apply(state, replace(move, t=t))
            if not isinstance(v, Legal):
                continue
            if strict and isinstance(move, Turn) and any(
                centre_zone(j) not in diff | hidden for j, (a, b) in enumerate(zip(state.centre, v.state.centre))
                if a != b and not (a and is_unseen(a[-1]))
            ):
                # each new card shows (two decks: one the twin of the card it covers: second try), unless
                # it covers a card nobody read, which any card read there may be taken for (seed 155)
                continue
            if node.in_order(p, touched, ENGINE.blocked(node.parent, v.move)):
                yield node.then(v.state, v.move, p, (), touched, ENGINE.called(v))
        if unread_joins and state.phase in (Phase.PLAY, Phase.TURN):
            yield from _unread_joins(node, obs, diff, t)
            yield from _joins_onto_unread(node, obs, diff, t)
        if state.phase is not Phase.PLAY:
            return
        # a join the camera half saw: the source's top its old guess, the target's its own (or known)
        for p, src, dst, card, under, guessed in joins:
            a, b = state.seats[p].piles[src].top, state.seats[p].piles[dst].top
            if node.count[p] >= MAX_PER_PLAYER or not isinstance(a, Unseen) or not isinstance(b, Unseen) and b != under:
                continue
            known = real_counts(state)
            if known[card] >= state.rules.deck_count or isinstance(b, Unseen) and known[under] >= state.rules.deck_count - (card == under):
                continue
            join = Join(p, src, dst, t)
            subs = ((a, card), (b, under)) if isinstance(b, Unseen) else ((a, card),)
            v = zenuwen.apply(substitute_cards(state, dict(subs)), join)
            if isinstance(v, Legal):
                yield node.then(v.state, v.move, p, subs, _touches(join, state), ENGINE.called(v), guess=guessed)
        # a card not seen before lands on a centre pile: a pile top turned up but not yet seen, or
        # a hand card taken up face down (Z9)
        real: Counter[Card] | None = None
        for j, laid in landed:
            zone = centre_zone(j)
            if zone not in diff | node.touched:
                continue
            real = real if real is not None else real_counts(state)
            if real[laid] >= state.rules.deck_count:
                continue
            for p, seat in enumerate(state.seats):
                if node.count[p] >= MAX_PER_PLAYER:
                    continue
                for i, pile in enumerate(seat.piles):
                    u = pile.top
                    if isinstance(u, Unseen) and (not strict or pile_zone(p, i) in diff | node.touched | hidden
                                                  or (j, laid) in read and _shows_under(pile, obs, pile_zone(p, i))):
                        move = Play(p, i, j, t)
                        v = zenuwen.apply(substitute_cards(state, {u: laid}), move)
                        if isinstance(v, Legal):
                            yield node.then(v.state, move, p, ((u, laid),), _touches(move, state), ENGINE.called(v))
                h = next((x for x in seat.hand if isinstance(x, Unseen)), None)
                if h is not None:
                    move = Play(p, laid, j, t, True)
                    v = zenuwen.apply(substitute_cards(state, {h: laid}), move)
                    if isinstance(v, Legal):
                        yield node.then(v.state, move, p, ((h, laid),), _touches(move, state), ENGINE.called(v))
        # a hand card nobody saw, covered at once by another card: judged as a card of a rank that
        # fits (its suit does not matter and is not claimed: it stays unseen in what is concluded)
        for p, seat in enumerate(state.seats):
            h = next((x for x in seat.hand if isinstance(x, Unseen)), None)
            if h is None or node.count[p] >= MAX_PER_PLAYER or len(node.moves) + 1 >= depth:
                continue  # (room is needed for the card that covers it)
            for j, cpile in enumerate(state.centre):
                if not cpile or is_unseen(cpile[-1]) or centre_zone(j) not in diff | node.touched | hidden | back:
                    continue
                for stand in _stand_ins(state, cpile[-1]):
                    move = Play(p, stand, j, t, True)
                    v = zenuwen.apply(substitute_cards(state, {h: stand}), move)
                    if isinstance(v, Legal):
                        yield node.then(v.state, move, p, ((h, stand),), _touches(move, state), ENGINE.called(v), guess=True)
        # a centre card nobody read (turned while a hand hid the view), covered at once by a pile top
        # the view reads there: judged as a card of a rank that fits it, and left unseen (zen4: the
        # first turn's cards were read only while a hand hovered elsewhere, and the 5C played onto
        # one of them before the next clear view left every later view unexplained)
        # The pile top may be one nobody read that the camera guessed as that card, gone from a pile
        # that looks different (three players at 1280x720, kennard_4c, seed 169: a far KC guessed at
        # 0.15-0.39 for a minute, laid on the QH of a turn whose JH nobody read; the QH was read in the
        # views that waited on the JH, and the KC on it was taken for some card laid on the KS before
        # the turn, the stuck call before it withdrawn).
        for j, cpile in enumerate(state.centre):
            seen = judged(obs, centre_zone(j))
            c = parse_seen(seen.top) if seen is not None else None
            u = cpile[-1] if cpile else None
            if c is None or not isinstance(u, Unseen):
                continue
            for p, seat in enumerate(state.seats):
                if node.count[p] >= MAX_PER_PLAYER:
                    continue
                for i, pile in enumerate(seat.piles):
                    top, zone = pile.top, pile_zone(p, i)
                    if isinstance(top, Unseen):
                        real = real if real is not None else real_counts(state)
                        if guessed_tops.get(zone) != c.code or zone not in diff or real[c] >= state.rules.deck_count:
                            continue
                        named: tuple[tuple[Unseen, Card], ...] = ((top, c),)
                    elif top != c:
                        continue
                    else:
                        named = ()
                    if centre_zone(j) not in diff and zone not in diff:
                        continue  # (two decks: the card read there may be the twin of a top that left)
                    move = Play(p, i, j, t)
                    for stand in _stand_ins(state, c):
                        v = zenuwen.apply(substitute_cards(state, {**dict(named), u: stand}), move)
                        if isinstance(v, Legal):
                            yield node.then(v.state, move, p, named + ((u, stand),), _touches(move, state),
                                            ENGINE.called(v), guess=(u,))

    return expand


def _unread_joins(
    node: Node[ZenuwenState], obs: Observation, diff: frozenset[str], t: float,
) -> Iterator[Node[ZenuwenState]]:
    """Joins (Z3) of a pile top nobody read onto a pile of a player's own whose top is known: the view
    reads there another card of that rank, which the top nobody read was (the rules cannot offer the
    join: they do not know that top's rank). Two players, penguins, seed 150: p2's QS, guessed faintly
    in its place, joined onto the QH while the hand still hid the pile it came from; the QS read on
    the QH at 0.38 was taken for the QH misread, the AS turned up under it for the unread top, and
    the next move left the views unexplained for a minute. Only from a pile the view saw something
    happen at (:func:`_stirred`): a card of that rank read as another suit is far commoner (three
    players, seed 26: a 3C read 3S unsurely in most views, next to a pile whose unread top lay still,
    was taken for that top joined onto it, and the take-back of an illegal play was lost)."""
    state = node.state
    real: Counter[Card] | None = None
    for p, seat in enumerate(state.seats):
        if node.count[p] >= MAX_PER_PLAYER:
            continue
        for dst, b in enumerate(seat.piles):
            zone = pile_zone(p, dst)
            seen = judged(obs, zone)
            c = parse_seen(seen.top) if seen is not None else None
            if (c is None or b.top is None or is_unseen(b.top) or c == b.top or c.rank != b.top.rank
                    or zone not in diff | node.touched):
                continue
            real = real if real is not None else real_counts(state)
            if real[c] >= state.rules.deck_count:
                continue
            for src, a in enumerate(seat.piles):
                u = a.top
                if src == dst or not isinstance(u, Unseen) or not _stirred(obs, pile_zone(p, src)):
                    continue
                join = Join(p, src, dst, t)
                v = zenuwen.apply(substitute_cards(state, {u: c}), join)
                if isinstance(v, Legal):
                    yield node.then(v.state, v.move, p, ((u, c),), _touches(join, state), ENGINE.called(v))


def _joins_onto_unread(
    node: Node[ZenuwenState], obs: Observation, diff: frozenset[str], t: float,
) -> Iterator[Node[ZenuwenState]]:
    """Joins (Z3) of a pile's face-up cards, their top known, onto a pile of the player's own whose top
    nobody read, where the view reads that known top now: the top nobody read was a card of its value,
    which suit no view tells (a stand-in, judged on a guess, unseen again once covered: :func:`_unguess`).
    The rules cannot offer the join: they do not know that top's value. Four players at 1280x720,
    aguilar, seed 168: p4's 10C and 10S joined onto a far pile's 10 never read (guessed KD at 0.10), the
    10S read there at 0.30 and the 7C turned up under them at 0.53; taken for nothing happening, the
    7C was played later from the wrong pile and the round's end was lost. Only from a pile the view saw
    something happen at (:func:`_stirred`) that the view shows changed."""
    state = node.state
    real: Counter[Card] | None = None
    if node.moves:
        return  # first in a series only: each one widens the search (four players, seed 57: too many ways to read a view)
    for p, seat in enumerate(state.seats):
        for dst, b in enumerate(seat.piles):
            u, zone = b.top, pile_zone(p, dst)
            if not isinstance(u, Unseen) or not _stirred(obs, zone):
                continue
            # (read, or guessed as the very card the join lays there: :func:`_joined_known`)
            seen = judged(obs, zone)
            c = None if seen is None else parse_seen(seen.top or (seen.top_guess if seen.top_confidence >= GUESS_FLOOR else None))
            if c is None:
                continue
            for src, a in enumerate(seat.piles):
                source = pile_zone(p, src)
                if src == dst or a.top != c or source not in diff | node.touched or not _stirred(obs, source):
                    continue
                real = real if real is not None else real_counts(state)
                stand = _of_rank(c, real, state.rules.deck_count)
                if stand is None:
                    continue
                join = Join(p, src, dst, t)
                v = zenuwen.apply(substitute_cards(state, {u: stand}), join)
                if isinstance(v, Legal):
                    yield node.then(v.state, v.move, p, ((u, stand),), _touches(join, state), ENGINE.called(v), guess=True)


def _stirred(obs: Observation, zone: str) -> bool:
    """Did the view see something happen at ``zone``: a hand over it, a hand passing over it since the
    last view taken (:attr:`SeenPile.still`), or its top gone, a back showing?"""
    seen = obs.piles.get(zone)
    return seen is None or seen.held or seen.still is False or (not seen.cards and bool(seen.backs))


@dataclass(frozen=True, slots=True)
class PendingIllegal:
    """An illegal move on the table (a pile top or hand card played, or a pile joined, where the
    rules forbid it)."""

    move: Play | Join
    verdict: Illegal
    card: Card | None = None
    """The pile top laid, when the referee knew it (None: a hand card, or a top known from its landing)."""


def _physical_move(state: ZenuwenState, move: Play | Join) -> ZenuwenState | None:
    """The table after ``move`` done by hand, rules ignored (None if it cannot be done)."""
    if isinstance(move, Play) and move.from_hand:
        c, seat, j = move.source, state.seats[move.player], move.to
        if not isinstance(c, Card) or c not in seat.hand or not isinstance(j, int):
            return None
        hand = list(seat.hand)
        hand.remove(c)
        seats = _set(state.seats, move.player, replace(seat, hand=tuple(hand)))
        return replace(state, seats=seats, centre=_set(state.centre, j, state.centre[j] + (c,)))
    assert isinstance(move.source, int)
    p, i = move.player, move.source
    seat = state.seats[p]
    pile = seat.piles[i]
    if pile.top is None:
        return None
    if isinstance(move, Play):
        assert isinstance(move.to, int)
        j = move.to
        left, _ = zenuwen._take_top(pile, 1)
        seats = _set(state.seats, p, replace(seat, piles=_set(seat.piles, i, left)))
        return replace(state, seats=seats, centre=_set(state.centre, j, state.centre[j] + (pile.top,)))
    assert isinstance(move.onto, int)
    k = move.onto
    moving = pile.visible
    left, _ = zenuwen._take_top(pile, len(moving))
    dst = seat.piles[k]
    piles = _set(_set(seat.piles, i, left), k, ZPile(dst.cards + moving, dst.up + len(moving)))
    return replace(state, seats=_set(state.seats, p, replace(seat, piles=piles)))


def _set(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return seq[:i] + (value,) + seq[i + 1 :]


def let_stand(live: LiveZenuwen, t: float) -> tuple[LiveZenuwen, list[Finding]] | None:
    """The illegal move waiting to be taken back, let stand (:meth:`Engine.let_stand`)."""
    table = None if live.pending is None else _physical_move(live.state, live.pending.move)
    return ENGINE.let_stand(live, table, t, _waiting)


def _physical(
    state: ZenuwenState, t: float, obs: Observation, unread_tops: bool = True
) -> Iterator[tuple[PendingIllegal, ZenuwenState, dict[Unseen, Card]]]:
    """Every single move a hand could make that the rules forbid, with the table it leaves and the
    hand card it shows (a hand card laid where it does not fit is the card the centre pile shows, as is
    a pile top nobody read played onto a centre pile, with ``unread_tops``: not the card a legal move
    of the same series would have turned up). Never a move onto a card nobody has read, nor
    a join of one: a stand-in fits nothing, so the rules would forbid any such move (zen4: a 5C played
    onto a centre card turned while the view was held and covered before it was read was called
    illegal)."""
    real: Counter[Card] | None = None
    read_on_centre: dict[int, Card] = {}
    for j in range(state.players):
        seen = judged(obs, centre_zone(j))
        c = parse_seen(seen.top) if seen is not None else None
        if c is None or not state.centre[j] or c is state.centre[j][-1] or is_unseen(state.centre[j][-1]):
            continue
        read_on_centre[j] = c
        for p, seat in enumerate(state.seats):
            subs: dict[Unseen, Card] = {}
            if c not in seat.hand:
                u = next((x for x in seat.hand if isinstance(x, Unseen)), None)
                real = real if real is not None else real_counts(state)
                if u is None or real[c] >= state.rules.deck_count:
                    continue
                subs = {u: c}
            before = substitute_cards(state, subs)
            hand_play = Play(p, c, j, t, True)
            v = zenuwen.apply(before, hand_play)
            after = _physical_move(before, hand_play)
            if isinstance(v, Illegal) and after is not None:
                yield PendingIllegal(hand_play, v), after, subs
    for p, seat in enumerate(state.seats):
        for i, pile in enumerate(seat.piles):
            if isinstance(pile.top, Unseen) and unread_tops:
                # a pile top nobody read, read where it landed on a centre pile (three players, seed 5:
                # a side seat's KH, read at 0.25 on its pile, laid on a JS and read there at 0.56)
                for j, c in read_on_centre.items():
                    real = real if real is not None else real_counts(state)
                    if real[c] >= state.rules.deck_count:
                        continue
                    before = substitute_cards(state, {pile.top: c})
                    play = Play(p, i, j, t)
                    v = zenuwen.apply(before, play)
                    after = _physical_move(before, play)
                    if isinstance(v, Illegal) and after is not None:
                        yield PendingIllegal(play, v), after, {pile.top: c}
                continue
            if pile.top is None or is_unseen(pile.top):
                continue
            # a card of the rank it would cover, from a pile that still shows it (its twin turned up
            # under it): the covered card's suit misread is far likelier (four players, fresh seed 57:
            # a centre 2C read 2S at 0.70 while p1's 2S still showed was called that 2S laid on the 2C
            # against Z6, and the KS laid there against Z6 a second later was never called)
            misread = pile.top.rank if _shows_still(judged(obs, pile_zone(p, i)), pile.top) else None
            moves: list[Play | Join] = [Play(p, i, j, t) for j in range(state.players) if state.centre[j]
                                        and not is_unseen(state.centre[j][-1]) and state.centre[j][-1].rank != misread]
            moves += [Join(p, i, k, t) for k in range(PILES) if k != i and (under := seat.piles[k].top) is not None
                      and not is_unseen(under) and under.rank != misread]
            for m in moves:
                v = zenuwen.apply(state, m)
                if isinstance(v, Illegal):
                    after = _physical_move(state, m)
                    if after is not None:
                        yield PendingIllegal(m, v, pile.top), after, {}


@dataclass(frozen=True, slots=True)
class LiveZenuwen(Live[ZenuwenState, PendingIllegal]):
    """The referee's running picture of a real Zenuwen game."""

    glimpsed: frozenset[tuple[str, str]] = frozenset()
    """(centre zone, card) read in the views left unused since the last view taken: a card laid and
    covered before a view was taken was seen all the same (:func:`_unseen_plays`)."""
    opened: tuple[Finding, ...] = ()
    """Moves made before the referee saw the layout that :func:`start` read from it (the first turn),
    not yet logged (:func:`opening`)."""
    undecided: tuple[tuple[LiveZenuwen, tuple[Finding, ...]], ...] = ()
    """A view that several move series explain (a card of which two players hold a copy in the hand,
    say): the picture after each series with what it concluded, until a later view or input fits only
    one of them. ``state`` stays the last position that is certain."""
    seen_tops: Mapping[str, str] = field(default_factory=dict)
    """Patience pile zone -> the card its top was last read as, or guessed as when it was too unsure to
    read (views with a hand over the pile left out): what a move series that takes that card off the
    pile is held against (:func:`_fewest_guess_conflicts`)."""
    shown: frozenset[str] = frozenset()
    """Patience pile zones whose top card some view the referee took has read, or guessed, since it came
    to the top (unlike ``seen_tops``, a view showing nothing there does not take a zone out): the
    others' cards nobody has seen (:func:`_never_read`)."""
    surest: Mapping[tuple[str, str], float] = field(default_factory=dict, compare=False)
    """(patience pile zone, card) -> how surely at most the views taken read that card there since the
    position's top there last changed (:func:`~referee.speed_live.best_in_place`, :func:`_misread`)."""
    risked: int = 0
    """The count of views left unused (``deferred``) when the last was left only because a pile not
    seen might hide a move under what it shows (:func:`_covered_risk`, :func:`_unconfirmed`, calls on
    unclear piles) or a card lands where the view guesses its rank without reading it
    (:func:`_landed_as_guessed`), its explanation otherwise whole and short (``QUIET_MOVES``): a table
    quiet since concludes that view (:func:`settle`); one left for a card not readable yet waits for a
    view that reads it."""
    recalled: Mapping[str, SeenPile] = field(default_factory=dict, compare=False)
    """Patience pile zone -> the latest reading of it, its top read at least ``DOUBT_BELOW``, in the
    views left unused since the last one taken (:func:`_recalled`)."""
    stirred: frozenset[str] = field(default=frozenset(), compare=False)
    """Zones the camera saw something move over in the views left unused since the last one taken
    (:attr:`SeenPile.still` counts from there)."""
    hands: frozenset[str] = field(default=frozenset(), compare=False)
    """Zones under a hand in the views left unused since the last one taken (:func:`_twin_joined`)."""


def _covered_risk(start: ZenuwenState, final: ZenuwenState, obs: Observation) -> bool:
    """Could a pile under a hand (or not read) have been played underneath what the view shows?
    Three plays on one centre pile can look like one (a 6 on a 5, then a 7, then a 6 looks like a 6
    on the 5): when a pile that is not seen holds a card that fits any card on the centre piles
    along the explanation, or a centre pile is not seen, the view may hide moves. A centre pile the
    explanation leaves as it was hides nothing in a one-deck game: a card played onto it would have
    to be covered by that very card again (penguins, seed 117: a far pile's QH, read at 0.04-0.24,
    fitted the KD on a centre pile nobody touched, and every view after was left unused as long as
    it could be). With two decks the other copy may have come (the tests' three- and four-player
    recordings go wrong without the wait). A pile the camera cannot read but still guesses as the card
    the position has there (at least ``GUESS_FLOOR``, no hand over it) was not played from at a
    round's end, where the views change fast and one left unused loses the order the centre piles were
    taken in (four players, penguins, seed 137: a 6S guessed at 0.26 fitted a 5D; the last card's view
    and the two after it, each with one more pile taken, were left unused, and the next round lost),
    and in a one-deck game in the middle of a round too (two players, seed 164: a turn left unused for
    a known QS guessed QS at 0.2 once a hand had passed over it, until the next turn blurred it; with
    two decks the card under it may be its twin: three players at 1280x720, seed 34, a join invented
    to match a far guess). Once the round is over no pile card is played at all."""
    if not any(final.centre) or start.phase in (Phase.CHOOSE, Phase.NEXT):
        return False
    ending = final.phase in (Phase.CHOOSE, Phase.NEXT)
    one_deck = start.rules.deck_count == 1  # (with two, the card under it may be its twin)
    tops: list[Card] = []
    for before, after in zip(start.centre, final.centre):
        if after != before or not one_deck:
            tops += list(after[max(len(before) - 1, 0) :])
    for j in range(start.players):
        seen = obs.piles.get(centre_zone(j))
        if seen is not None and (seen.held or (None in seen.cards and seen.still is not True)):
            # a card (a hand card, say) may have gone there unseen, and the order matters; not where
            # nothing moved over it since the view taken (three players, kennard_4c_big, seed 186: the
            # round's last card on centre2 said 3.4 s late, centre1's 2D read 2S at 0.22, untouched)
            return True
    # the piles as the explanation leaves them: a card it moved is where it put it (four players,
    # seed 32 at 1920x1080: a 6C joined onto a 6H and read there, its pile's next card not read, was
    # taken for maybe played unseen onto a 7H, and the views were left unused until the video ended)
    for p, seat in enumerate(final.seats):
        for i, pile in enumerate(seat.piles):
            seen = obs.piles.get(pile_zone(p, i))
            if pile.top is None or is_unseen(pile.top) or seen is None or not (seen.held or None in seen.cards):
                continue
            if seen.still:
                # nothing moved over it since the view taken: nothing was played from it (four players,
                # penguins, seed 141: far piles read at 0.1-0.2 held a join read at 0.50 back through
                # three views, until the card was lifted again for its next play)
                continue
            if (ending or one_deck) and not seen.held and guess_of(obs, pile_zone(p, i)) == pile.top.code:
                continue
            if any(zenuwen.fits(pile.top, c) for c in tops if not is_unseen(c)):
                return True
    return False


def _from_still(moves: Sequence[Any], obs: Observation, changed: frozenset[str] | None = None) -> int:
    """How many of the series' plays and joins take a pile card from a pile the camera saw nothing move
    over since the view taken (``SeenPile.still``): of several series, those with fewest (four players,
    penguins, seed 148: p2's 10H, never read, played onto a JD from a pile that then read its JC, or
    p4's top, never read either, guessed JS before and after, its pile still: the two were left
    undecided and the game lost eleven moves later). It weighs before a twin's coincidence (four
    players, penguins, seed 163: p1's 4D, played from a pile whose next card was the other deck's 4D,
    was taken for the far seat's card that never showed, though nothing had moved over that pile;
    five moves lost, eight invented). Not a rule that rules a series out: a view
    taken for nothing happening may have passed over a card gone from a pile (a lone card never read
    shows as nothing: :func:`_missed_piles`), and stillness counts from there. With ``changed`` (the
    zones the view shows otherwise), only piles that look as they did, a twin under the card taken:
    the rarest series of all (:meth:`_ViewJudgement.rarity`)."""
    return sum(1 for m in moves if (left := _left_pile(m)) is not None and (changed is None or left not in changed)
               and (seen := obs.piles.get(left)) is not None and seen.still is True)


def _round_end_seen(findings: Sequence[Finding], obs: Observation) -> bool:
    """Are the view's calls all a round's (or the match's) end whose winner's piles all show plainly
    bare? That rests on nothing else in view (Z10: a player has played every pile card; the hand is
    counted by the position), so a card not read elsewhere does not hold it back (four players,
    penguins, seed 130: the winner's last 6D, read on its centre pile, was left unused for a far pile
    read at 0.14; by the next view taken two centre piles had been taken, and who took which could
    no longer be told, nor the next layout followed)."""
    calls = [f.verdict for f in findings if f.kind == "call"]
    return bool(calls) and all(
        isinstance(c, Event) and c.kind in ("round_over", "match_over") and c.player is not None
        and all(bare(obs, pile_zone(c.player, i)) for i in range(PILES))
        for c in calls
    )


def _tops_guessed(state: ZenuwenState, obs: Observation) -> dict[Unseen, Card] | None:
    """The camera's guesses of the pile and centre tops nobody has read (:func:`tops_guessed`; three
    players, penguins, seed 147: a 6D turned up under a 10D played, guessed at 0.05-0.07, and nobody
    could play: no stuck call was made)."""
    tops = [(pile_zone(p, i), pile.top) for p, seat in enumerate(state.seats) for i, pile in enumerate(seat.piles) if pile.top is not None]
    tops += [(centre_zone(j), pile[-1]) for j, pile in enumerate(state.centre) if pile]
    return tops_guessed(state, obs, tops, state.rules.deck_count)


def _unclear_for_calls(final: ZenuwenState, obs: Observation) -> bool:
    """May the view hide what a call rests on: a zone under a hand, or a card not read anywhere but
    on a pile whose top the position knows? A known top read weakly is that card still: had it left,
    the explanation would show it where it went (three players at 1920x1080, seed 111: the near
    seat's KH, read at 0.08-0.29 in every view, kept every stuck call waiting; a play of an 8D that
    made one was left unused until the next turn covered the 8D, and was never found). Only the
    patience piles' tops count as known here."""
    def pile_top(zone: str) -> Card | None:
        at = seat_zone(zone, final.seats)
        i = pile_number(at[2]) if at is not None else None
        return at[1].piles[i].top if at is not None and i is not None and 0 <= i < PILES else None

    return unread_unknown(obs, pile_top)


def _twin_under_hand(state: ZenuwenState, pending: PendingIllegal, obs: Observation) -> bool:
    """Is the card of an illegal play read where it lands only as the other copy that lay there on top
    already, while a hand is over another centre pile? It may have gone there (four players, penguins,
    seed 141: p1's JD laid on a KS against Z6 under a hand was judged laid on the other JD, unchanged on
    its pile, and the verdict named the wrong pile). The next view shows where it went."""
    move = pending.move
    if not isinstance(move, Play) or not isinstance(move.to, int) or pending.card is None:
        return False
    pile = state.centre[move.to]
    return (bool(pile) and pile[-1] == pending.card
            and any((seen := obs.piles.get(centre_zone(j))) is not None and seen.held for j in range(len(state.centre)) if j != move.to))


def _landing(move: Any) -> str | None:
    """The zone where the card of a play or join lands (None for other moves)."""
    if isinstance(move, Play) and isinstance(move.to, int):
        return centre_zone(move.to)
    if isinstance(move, Join) and isinstance(move.onto, int):
        return pile_zone(move.player, move.onto)
    return None


def _under_hand(moves: Sequence[Any], obs: Observation) -> bool:
    """Does a card of the series land on a pile under a hand, or one whose top the view does not read
    (not seen where it lies; four players, seed 15: a KD read 6D on its pile, unsurely, taken for
    played onto a centre pile not read)?"""
    for m in moves:
        zone = _landing(m)
        seen = obs.piles.get(zone) if zone is not None else None
        if seen is not None and (seen.held or seen.top is None):
            return True
    return False


def _joined_on_weak(moves: Sequence[Any], state: ZenuwenState, obs: Observation) -> bool:
    """Does the series (from ``state``) join a card it turned up itself, which no view can have
    shown, onto a pile the view reads unsurely (``SeenPile.top_weak``)? A join lays a card of the
    rank that lay there (Z3), so only that suit read says a card came. (A top that lay on its pile
    before the view, never read, is joined in earnest: two players, penguins, seed 150, a QS joined
    onto a QH and read QS at 0.37 there.)"""
    turned: set[str] = set()
    for _, m, _, _ in _replayed(moves, state):
        left = _left_pile(m)
        if isinstance(m, Join) and left in turned and (zone := _landing(m)) is not None:
            seen = judged(obs, zone)
            if seen is not None and seen.top_weak:
                return True
        if left is not None:
            turned.add(left)
    return False


def _landed_as_guessed(moves: Sequence[Any], final: ZenuwenState, obs: Observation) -> bool:
    """Does each pile the series lays a card on show it, or, not read, guess it as a card of the rank
    the series leaves on top there (the rules look at ranks only), no hand over any? Such a view, left
    unused, has said what it can: a quiet table concludes it (:func:`settle`; four players, kennard,
    seed 177: p4's AC laid on a 2D, guessed AS at 0.11 there, and the 7H turned up under it laid on an
    8S waited for a clearer view through three more plays, until the series was too long to search
    and the rest of the game went unrecognised)."""
    for m in moves:
        zone = _landing(m)
        if zone is None:
            continue
        seen = obs.piles.get(zone)
        if seen is None or seen.held:
            return False
        top = _pile_at(final, zone)[-1:]
        guess = parse_seen(guess_of(obs, zone, AGREEING_GUESS_FLOOR))
        if seen.top is None and (not top or is_unseen(top[0]) or guess is None or guess.rank != top[0].rank):
            return False
    return True


def _from_under_hand(before: ZenuwenState, after: ZenuwenState, subs: Mapping[Unseen, Card], obs: Observation) -> bool:
    """Does the series learn a centre card nobody read before (a card turned up) as the top card of a
    pile under a hand? It may have been played from there onto the turned card, covering it before any
    view read it (three players, seed 26: the 8D turned up was never read, the 7H played onto it from
    the pile under the hand was taken for the card turned up, and that 7H, seen leaving its pile in the
    next view, was judged laid on itself against Z6)."""
    held = _held_tops(before, (obs,))
    return any(isinstance(cp[-1], Unseen) and subs.get(cp[-1]) in held for cp in after.centre if cp)


def _held_tops(state: ZenuwenState, views: Sequence[Observation]) -> set[Card]:
    """The pile tops of the position, seen before, whose piles are under a hand in one of ``views``."""
    return {pile.top for p, seat in enumerate(state.seats) for i, pile in enumerate(seat.piles)
            if pile.top is not None and not is_unseen(pile.top)
            and any((seen := view.piles.get(pile_zone(p, i))) is not None and seen.held for view in views)}


def _unconfirmed(moves: Sequence[Any], state: ZenuwenState, obs: Observation) -> bool:
    """Does a move of the explanation change a pile the view does not show (under a hand, or a card
    not read)? Then the move is a guess: a card laid under the hand could explain the view too."""
    hidden = unjudged(obs)
    if not hidden:
        return False
    for _, m, before, after in _replayed(moves, state):
        zones = {z for z in _touches(m, before) if not z.endswith(".stock")}
        left, landing = _left_pile(m), _landing(m)
        source = obs.piles.get(left) if left is not None else None
        if source is not None and not source.held and landing is not None:
            card = before.seats[m.player].piles[m.source].top
            seen = judged(obs, landing)
            if card is not None and not is_unseen(card) and seen is not None and seen.top == card.code:
                # read where it landed, it left its pile, which shows a card not read now but no hand
                # (four players, seed 32 at 1920x1080: a 6C joined onto a 6H and read there, the card
                # turned up under it not read, waited for a clearer view until the video ended)
                zones.discard(left)
        if zones & hidden:
            return True
        if after is None:
            break
    return False


def observe(live: LiveZenuwen, obs: Observation) -> tuple[LiveZenuwen, list[Finding]]:
    """Judge one steady observation; returns the new running picture and what was concluded. A view
    the referee takes (explained, not left unused or undecided) counts the cards it reads."""
    obs = _read_anew_where_still(live.state, stirred_since(live.stirred, centre_faces(obs)))
    with search_budget(VIEW_BUDGET) as budget:
        first = _blind_looked_past(live, obs)
        after, findings = first if first is not None else _judge(live, obs)
    if budget.spent:
        # some look gave up: what the others concluded may be what it would have ruled out
        t = max(obs.t, live.state.t)
        return replace(live, last=obs, stirred=stirred_after(live.stirred, obs, False), hands=live.hands | _held(obs)), [
            Finding("unrecognised", t, frame=obs.frame, detail=f"{_difference(live.state, obs)} (too many ways to read it)")]
    taken = after.last is None and not after.deferred and not after.undecided
    after = replace(after, reads=reads_of_view(live.reads, obs, findings, taken=taken), stirred=stirred_after(live.stirred, obs, taken),
                    hands=frozenset() if taken else live.hands | _held(obs),
                    sure=surely_read(live.sure, obs) if taken else live.sure, stuck_at=stuck_since(live, after, findings))
    # a pile card played as the first move since a stuck call (not a hand card, which a call never
    # counts): the call was wrong (two players, penguins, seed 153: p1's 10H, read QH at 0.30-0.33 in its
    # place and learned so, made the call, and was played onto a 9S next)
    findings = stuck_refuted(live, findings, lambda move: isinstance(move, Play) and not move.from_hand, "Z7")
    # the tops as the position the referee is sure of shows them: from the views it took
    if not taken:
        return replace(after, seen_tops=live.seen_tops, shown=live.shown), findings
    return _remember_tops(live, obs, after), findings


def _read_anew_where_still(state: ZenuwenState, obs: Observation) -> Observation:
    """``obs`` with each pile top the position knows, read less surely than ``DOUBT_BELOW`` as another
    suit of its rank where the camera saw nothing move since the view taken, taken as not read
    (:func:`~referee.speed_live.read_anew_where_still`; three players, kennard_big, seed 195: p2's KC,
    read KS at 0.38 where nothing moved, as p3 laid the JH on the QH beside it, was taken for the KC
    played onto the QH, a KS turned up under it, and the JH laid on it against Z6). Another rank stays
    with the looks that say so in the log (let through too, it lost a call there and found nothing)."""
    piles = read_anew_where_still(obs, ((pile_zone(p, i), pile.top) for p, seat in enumerate(state.seats)
                                        for i, pile in enumerate(seat.piles) if pile.top is not None and not is_unseen(pile.top)),
                                  same_rank=True)
    return replace(obs, piles={**obs.piles, **piles}) if piles else obs


def settle(live: LiveZenuwen, obs: Observation, quiet: bool = False) -> tuple[LiveZenuwen, list[Finding]]:
    """The game's last view judged as final (a recording ended): the views left unused for a hand
    that might hide a move are concluded, since no later view can show more (three players, seed
    26 at 1920x1080: the last two plays were made while a pile read unsurely might have hidden a
    third, and the video ended with both waiting). ``quiet``: the table has been still since the
    view, which no hand covers (``cardref.live.QUIET_AFTER``): a view left unused only for the moves
    a pile not seen might hide (``LiveZenuwen.risked``) is concluded, as no later view will show
    more of them; one left for a card not readable yet, or several explanations left open, wait on
    (four players, seed 143: the QC laid on a 10D against Z6, read 6C at 0.10 there, concluded so
    on a quiet table, was taken for a pile top nobody read laid on the 10D and the QC on it)."""
    waiting = 0 < live.deferred == live.risked and not live.undecided if quiet else live.deferred or live.undecided
    if not waiting:
        return live, []
    after, findings = observe(replace(live, deferred=SPENT), obs)
    return (after, findings) if after.deferred < SPENT else (live, [])


def _reread(state: ZenuwenState, obs: Observation, seen_tops: Mapping[str, str]) -> frozenset[str]:
    """The patience piles whose top nobody has read that the view reads surely as another card than
    the camera made of it before (:func:`_seen_tops`): as a pile that looks different, its card may
    have left and the next one turned up. (Unsure reads of far seats change from view to view; each
    pile taken as changed widens the search: four players at 1280x720, seed 36, 20 s a view.) A read
    under ``DOUBT_BELOW`` counts when it names another rank (penguins, seed 117: a pile guessed KC
    for a minute, then read AS at 0.55, its KC read on the centre pile it was laid on; the play was
    taken for a turn nobody made)."""
    tops = _pile_tops(state)
    out = set()
    for zone, before in seen_tops.items():
        seen = judged(obs, zone)
        top = tops.get(zone)
        if seen is None or seen.top is None or seen.top == before or top is None or not is_unseen(top):
            continue
        was = parse_seen(before)
        now = parse_seen(seen.top)
        if not seen.top_weak or was is not None and now is not None and was.rank != now.rank:
            out.add(zone)
    return frozenset(out)


class HalfSeenJoin(NamedTuple):
    """A join the camera half saw (:func:`_half_seen_joins`)."""

    player: int
    source: int
    target: int
    card: Card
    """The source's old guess: the card joined."""
    under: Card
    """The target's top: known, or its old guess, or (``guessed``) a stand-in of the joined card's rank."""
    guessed: bool = False


def _half_seen_joins(state: ZenuwenState, obs: Observation, seen_tops: Mapping[str, str], reread: frozenset[str],
                     diff: frozenset[str] = frozenset(), held: frozenset[str] = frozenset()) -> list[HalfSeenJoin]:
    """Joins the camera half saw: a pile whose top nobody read (:func:`_reread`: read now as another
    card than guessed before; or under a hand, or showing only backs) whose old guess the view now
    reads on another pile of the same player, one that showed another card of that rank before, its
    top nobody read either (penguins, seed 129: a QD joined onto a QC, neither ever read; the next
    view read the QD on the QC's pile and the JD under it in its own, and "nothing happened, the
    piles are the QD and the JD" explained that with no move), or known (three players at 1280x720,
    kennard, seed 182: p2's 8C, guessed so for a minute, joined onto the 8D, only guessed there),
    or guessed as another rank, the old guess read there (the same game: p3's JH read on the JS,
    guessed 5S at 0.01, while the hand was over the JH's pile; "nothing happened, the top nobody
    read there is the JH" was taken, and the round was lost when the JH left the JS showing). Two
    decks: also a join onto the twin of a known top, which leaves its pile looking as it did
    (:func:`_twin_joined`; ``diff``: the zones the view shows otherwise, ``held``: those under a hand
    since the last view taken)."""
    out: list[HalfSeenJoin] = []
    real: Counter[Card] | None = None
    # (a twin join only where no centre pile may have taken the card: three players, seed 178, p1's
    # QH played onto a KD and read there at 0.23, the 10H under it taken for a twin join's next card)
    centre_still = not any(z.startswith("centre") for z in diff | unjudged(obs))
    for p, seat in enumerate(state.seats):
        for src, a in enumerate(seat.piles):
            zone = pile_zone(p, src)
            old = parse_seen(seen_tops.get(zone))
            if zone not in reread and not _top_may_have_left(obs, zone) or old is None or not isinstance(a.top, Unseen):
                continue
            for dst, b in enumerate(seat.piles):
                there = judged(obs, pile_zone(p, dst))
                if centre_still and dst != src and b.top is not None and _twin_joined(state, obs, zone, pile_zone(p, dst), b.top, reread, held):
                    out.append(HalfSeenJoin(p, src, dst, b.top, b.top))
                    continue
                if dst == src or b.top is None or there is None or (there.top or there.top_guess) != old.code:
                    continue
                was = b.top if not isinstance(b.top, Unseen) else parse_seen(seen_tops.get(pile_zone(p, dst)))
                if was is not None and was != old and was.rank == old.rank:
                    out.append(HalfSeenJoin(p, src, dst, old, was))
                elif isinstance(b.top, Unseen) and there.top == old.code:
                    # read there surely enough to name, over a top guessed as another rank: the guess
                    # was wrong, its rank is the joined card's, its suit no view tells
                    real = real if real is not None else real_counts(state)
                    stand = _of_rank(old, real, state.rules.deck_count)
                    if stand is not None:
                        out.append(HalfSeenJoin(p, src, dst, old, stand, guessed=True))
    return out


def _twin_joined(state: ZenuwenState, obs: Observation, source: str, target: str, top: Card, reread: frozenset[str],
                 held: frozenset[str]) -> bool:
    """Two decks: may the top nobody read on ``source`` have been the twin of ``top``, joined onto it on
    ``target``? The source stirred (a hand went over it) and read now as another card than guessed
    before (:func:`_reread`: its next card turned up), the target under the hand that laid the card
    (``held``: in this view or those left unused since the last one taken), showing its known top as
    before, that card's other copy not known elsewhere. The join leaves the target looking as it did,
    so no view ever shows it (three players at 1280x720, kennard, seed 194: p3's JH, guessed 7H at
    0.1-0.2, joined onto the other JH; the 5S turned up under it was taken for the unread top, and the
    card the position kept under the 5S, played from its bare pile later, lost the rest of the round)."""
    if state.rules.deck_count < 2 or is_unseen(top) or source not in reread or not _stirred(obs, source):
        return False
    there = obs.piles.get(target)
    if there is None or target not in held or (there.top or there.top_guess) != top.code:
        return False
    return real_counts(state)[top] < state.rules.deck_count


def _held(obs: Observation) -> frozenset[str]:
    """The zones ``obs`` shows under a hand."""
    return frozenset(z for z, p in obs.piles.items() if p.held)


def _top_may_have_left(obs: Observation, zone: str) -> bool:
    """Does the view show the pile under a hand, or only by its backs (a top the camera saw as a face
    before has left then: the card under it is not turned yet)?"""
    seen = obs.piles.get(zone)
    return seen is not None and (seen.held or not seen.cards and bool(seen.backs))


def _of_rank(card: Card, real: Counter[Card], decks: int) -> Card | None:
    """Another suit of ``card``'s rank that the decks in play still hold a copy of, if any."""
    return next((x for suit in "SHDC" if (x := Card.parse(RANKS[card.rank - 1] + suit)) != card and real[x] < decks), None)


def _pile_tops(state: ZenuwenState) -> dict[str, Card | None]:
    return {pile_zone(p, i): pile.top for p, seat in enumerate(state.seats) for i, pile in enumerate(seat.piles)}


def _seen_tops(before: Mapping[str, str], obs: Observation, was: ZenuwenState | None = None, now: ZenuwenState | None = None) -> dict[str, str]:
    """``before`` with the tops of the patience piles ``obs`` shows (read, else the camera's guess;
    a pile showing no face-up card drops out, unless something moved over it and the position kept
    its top; piles under a hand keep what they had, unless the position went from ``was`` to ``now``
    with another top there)."""
    out = dict(before)
    kept: set[str] = set()
    if was is not None and now is not None:
        old = _pile_tops(was)
        for zone, card in _pile_tops(now).items():
            if old.get(zone) != card:
                out.pop(zone, None)
            else:
                kept.add(zone)
    for zone, pile in obs.piles.items():
        if ".pile" not in zone or pile.held:
            continue
        top = pile.top or pile.top_guess
        if top is None and pile.still is False and zone in kept:
            # a hand passing over a pile, not taken as held, may show it blank or as a back: three
            # players, penguins, seed 142: p2's third pile, guessed QC before and after, lost its
            # guess so, and an AH played from the pile beside it (its twin turned up there) was
            # taken for that pile's unread top
            continue
        if top is None:
            out.pop(zone, None)
        else:
            out[zone] = top
    return out


def _remember_tops(live: LiveZenuwen, obs: Observation, after: LiveZenuwen) -> LiveZenuwen:
    """``after`` (the picture ``obs`` led to from ``live``) with the pile tops as ``obs`` shows them
    remembered: what the camera made of each (``seen_tops``) and which were ever read (``shown``)."""
    old, new = _pile_tops(live.state), _pile_tops(after.state)
    return replace(after, seen_tops=_seen_tops(live.seen_tops, obs, live.state, after.state),
                   shown=_shown(live.shown, obs, live.state, after.state),
                   surest=best_in_place(live.surest, _pile_readings(obs), lambda z: old.get(z) == new.get(z)))


def _pile_readings(obs: Observation) -> Iterator[tuple[str, str, float]]:
    """The patience pile tops ``obs`` reads, not under a hand: (zone, card, how surely)."""
    return ((z, seen.top, seen.top_confidence) for z, seen in obs.piles.items() if ".pile" in z and not seen.held and seen.top is not None)


def _shown(before: frozenset[str], obs: Observation, was: ZenuwenState, now: ZenuwenState) -> frozenset[str]:
    """``before`` without the patience piles whose top the position changed from ``was`` to ``now``, with
    those whose top ``obs`` reads or guesses (not under a hand)."""
    old, new = _pile_tops(was), _pile_tops(now)
    kept = {zone for zone in before if old.get(zone) == new.get(zone)}
    return frozenset(kept | {zone for zone, pile in obs.piles.items()
                             if ".pile" in zone and not pile.held and (pile.top or pile.top_guess)})


def _fewest_guess_conflicts(
    best: list[Explanation[ZenuwenState]], state: ZenuwenState, seen_tops: Mapping[str, str], obs: Observation
) -> list[Explanation[ZenuwenState]]:
    """Of several move series that explain a view, those whose cards taken off the patience piles
    differ least from what the camera last made of those piles' tops before (a guess of another rank
    counting more than one of another suit): four players, seed 27, a 4H played from the far seat's
    pile read 4H at 0.39 before, and another pile of that seat guessed QD all along, also unread;
    either pile fitted the view, and no later view told them apart. So do the centre tops the series
    leave, against what the camera makes of the centre tops it cannot read now (penguins deck, seed
    115: the QC that ended a round, read at 0.22 on its centre pile in the one view before the piles
    were taken up, went there or into the player's hand as far as the rest of the view told; nothing
    after it was followed). A guess never decides a card, but it may tell two explanations apart."""

    counts = [_guess_conflicts(x, state, seen_tops) + _centre_guess_conflicts(x[0], obs) for x in best]
    return [x for x, n in zip(best, counts) if n == min(counts)]


def _guess_conflicts(x: Explanation[ZenuwenState], state: ZenuwenState, seen_tops: Mapping[str, str]) -> int:
    """How far the cards a series takes off the patience piles are from what the camera last made of
    those piles' tops (:func:`_fewest_guess_conflicts`)."""
    n = 0
    touched: set[str] = set()  # a pile the series changed before shows another top than was seen
    for _, m, now, after in _replayed(x[1].moves, substitute_cards(state, x[3])):
        zone = _left_pile(m)
        if zone is not None:
            top = now.seats[m.player].piles[m.source].top
            guess = parse_seen(seen_tops.get(zone)) if zone not in touched else None
            if top is not None and not is_unseen(top) and guess is not None:
                n += guess_apart(guess, top)
        touched |= _touches(m, now)
        if after is None:
            break
    return n


def _centre_guess_conflicts(final: ZenuwenState, obs: Observation) -> int:
    """How far the centre tops a series leaves are from the camera's guesses of the tops it cannot read."""
    n = 0
    for j, pile in enumerate(final.centre):
        seen = judged(obs, centre_zone(j))
        guess = parse_seen(seen.top_guess) if seen is not None else None
        if guess is not None and pile and not is_unseen(pile[-1]):
            n += guess_apart(guess, pile[-1])
    return n


Goal = Callable[[ZenuwenState], "dict[Unseen, Card] | None"]
"""What a series of moves must reach (:func:`referee.speed_live.targets`): in a position, the unread
cards the view reveals if it shows that position, else None."""


def _narrowed(goals: Sequence[Goal], ruled_out: Callable[[ZenuwenState], bool],
              keeps: Callable[[dict[Unseen, Card]], bool] = lambda found: True) -> list[Goal]:
    """Each goal, failing in the positions ``ruled_out`` says the table cannot be in, and where what it
    reveals is not what ``keeps`` accepts."""
    def narrowed(goal: Goal) -> Goal:
        def check(s: ZenuwenState) -> dict[Unseen, Card] | None:
            if ruled_out(s):
                return None
            found = goal(s)
            return found if found is None or keeps(found) else None
        return check
    return [narrowed(g) for g in goals]


Answer = tuple[LiveZenuwen, list[Finding]]
"""The picture after a view and the findings judging it gave."""
Hit = tuple[Node[ZenuwenState], int, dict[Unseen, Card]]
"""A series the search found to explain a view (:func:`~referee.speed_live.breadth_first`)."""


def _judge(
    live: LiveZenuwen, obs: Observation, doubt: bool = True, defer: bool = True, weak: bool = True, remember: bool = True,
    twin: bool = False, gone_from: frozenset[tuple[int, int]] = frozenset(),
) -> tuple[LiveZenuwen, list[Finding]]:
    """:func:`observe` without counting the reads; ``doubt``: a view that neither a legal series nor
    an illegal move explains gets the last looks, whose legal explanations alone are taken: the piles
    the camera shows nothing on taken as not read (:func:`_missed_piles`), then one learned card
    taken as misread (:func:`_misread`), then (``weak``) one card read unsurely taken as not read
    (:func:`_weak_read`). ``defer``: a view a hand may hide a move in may be left unused
    (:func:`_conclude`). ``remember``: a view that nothing happened explains only because it does
    not judge what the view left unused before it read is judged with those readings
    (:func:`_remembered`). A view looked at past a misread (``weak`` off) has spent its coincidence
    of two decks, unless ``twin``: then a join onto the twin of the card joined may still explain it.
    ``gone_from``: (player, pile) whose top has left (:func:`_turned_down_since`)."""
    if live.undecided:
        t = max(obs.t, live.state.t)
        return _decide(live, lambda alt: observe(alt, obs), lambda: observe(replace(live, undecided=()), obs), t, unclear(obs))
    state = live.state
    t = max(obs.t, state.t)
    if state.phase is Phase.MATCH_OVER:
        return (live if match(state, obs) is not None else replace(live, last=obs)), []
    if state.phase in (Phase.CHOOSE, Phase.NEXT) and match(state, obs) is None:
        started = _new_layout(live, obs, t)
        if started is not None:
            return started

    view = _ViewJudgement(live, obs, doubt, defer, weak, remember, twin, gone_from)
    hits = view.hits()
    if not hits and state.rules.deck_count > 1 and state.stuck:
        # a stuck position waits for the turn (Z7): a turned card the twin of the one it covers is
        # likelier than the misreadings that would make the view nothing happening (three players,
        # penguins, seed 138: after a stuck call the 3D, 6H and a QC on the QC were turned; with the
        # 2S under the 3D taken as misread and the 6H, read at 0.44, as not read, the turn was taken
        # for nothing, and the next play, a 2D on the 3D, was called against Z6)
        hits = view.relaxed()
    if not hits and state.rules.deck_count > 1:
        # an illegal move is likelier than the coincidences the relaxed search allows
        found = view.illegal_or_last_looks()
        if found is not None:
            return found
        hits = [] if state.stuck else view.relaxed()  # (searched already)
    if hits:
        return _choose(view, hits)

    found = view.other_looks()
    if found is not None:
        return found
    if state.phase in (Phase.CHOOSE, Phase.NEXT):
        # piles being taken, cards being gathered: wait for the choice or the next layout
        return replace(live, last=obs, waiting=_waiting(state)), []
    return replace(live, last=obs), [Finding("unrecognised", t, frame=obs.frame, detail=_difference(state, obs))]


class _ViewJudgement:
    """One view judged from the running picture (:func:`_judge`): what the searches need, worked out
    once, the searches, and the referee's looks at the view other than a legal series, each costlier
    one taken at most once however many weighings ask for it."""

    def __init__(
        self, live: LiveZenuwen, obs: Observation, doubt: bool, defer: bool, weak: bool, remember: bool, twin: bool,
        gone_from: frozenset[tuple[int, int]],
    ) -> None:
        self.live, self.obs = live, obs
        self.doubt, self.defer, self.weak, self.remember, self.twin, self.gone_from = doubt, defer, weak, remember, twin, gone_from
        state = self.state = live.state
        self.t, self.frame = max(obs.t, state.t), obs.frame
        pend = self.pend = live.pending
        goals = targets(match, obs, None if pend is None else lambda s: _physical_move(s, pend.move))
        diff = differing_zones(state, obs)
        self.reread = reread = _reread(state, obs, live.seen_tops)
        # (the piles under a hand in this view or those left unused since the last one taken)
        held = live.hands | _held(obs)
        self.joins = joins = _half_seen_joins(state, obs, live.seen_tops, reread, diff, held)
        if joins:
            # no position in which a half-seen join's source top is another card: the card read next
            # door left it (the search looks further than "nothing happened" then)
            sources = [(u, j.card) for j in joins if isinstance(u := state.seats[j.player].piles[j.source].top, Unseen)]
            # (a pile under a hand or shown by its backs fits a top nobody read that stayed)
            goals = _narrowed(goals, lambda s: any(s.seats[j.player].piles[j.source].top is u for j, (u, _) in zip(joins, sources)),
                              lambda found: all(found.get(u, card) == card for u, card in sources))
        if gone_from:
            places = [(p, i, state.seats[p].piles[i].cards) for p, i in gone_from]
            goals = _narrowed(goals, lambda s: any(s.seats[p].piles[i].cards == cards for p, i, cards in places))
        if pend is not None:
            diff |= _touches(pend.move, state)
        self.goals, self.diff = goals, diff
        self.start_node = Node(state, count=(0,) * state.players)
        self.depth = max(MAX_DEPTH, state.players)
        self.needs = _needs(obs, pend, state.players) if state.players > 2 else None  # pays off with many moves per view
        self.changed = diff | unjudged(obs) | reread
        self._taken: dict[tuple[str, bool], Answer | None] = {}

    def _once(self, look: str, take: Callable[[], Answer | None], suits_aside: bool = False) -> Answer | None:
        if (look, suits_aside) not in self._taken:
            self._taken[look, suits_aside] = take()
        return self._taken[look, suits_aside]

    def hits(self) -> list[Hit]:
        """The fewest legal moves that explain the view, searched strictly (:func:`_expand`)."""
        live, obs = self.live, self.obs
        return self._plausible(breadth_first(
            self.start_node, _expand(obs, self.diff | self.reread, self.t, depth=self.depth, glimpsed=live.glimpsed, joins=self.joins,
                                     unread_joins=True, guessed_tops=live.seen_tops), self.goals, self.depth, needs=self.needs))

    def relaxed(self) -> list[Hit]:
        """The wider search (two decks): a pile that looks unchanged may have turned up the twin of the
        card that left it."""
        return self._plausible(breadth_first(self.start_node, _expand(self.obs, self.diff, self.t, False, self.depth, self.live.glimpsed),
                                             self.goals, self.depth, RELAXED_BUDGET, self.needs))

    def _plausible(self, hits: list[Hit]) -> list[Hit]:
        return [h for h in hits if self.plausible(h[0], {**dict(h[0].subs), **h[2]})]

    def plausible(self, node: Node[ZenuwenState], revealed: Mapping[Unseen, Card]) -> bool:
        """At most one coincidence of two decks, no play from a pile that shows its twin covered
        at once (zen3 with run 7, seed 22: an 8S laid on a 10H was taken for a 9C, its twin turned
        up under it, then the 8S on it), no play onto a centre pile that looks as it did: a card
        laid there by a card nobody has seen, the twin of the card it covered (three players, seed
        26: a far pile's top, learned as 2C and read 2S later, taken for laid on an AD and covered by
        the other AD from under it; a misread is far likelier), counting as coincidences also a
        turned card read as the twin of the card it lies on (:func:`_looks_unchanged`) and a card turned
        in the series and covered in it before any view read it (:func:`_covered_turns`): a fast
        player may play onto a new centre card before the table is still, but a turn nobody made
        explains an illegal play with one such guess and a twin or two (three players at 1280x720,
        seed 34: a 2H laid on a 4S against Z6 was taken for a turn, the 2H laid on its unseen card
        and the turn's other cards read as the twins of the 8H and the 6C they covered). A view
        looked at with a card taken as misread (``weak`` off) has spent its coincidence: a misread
        and a twin together are rarer than a view left for the next (three players at 1280x720, seed
        34: a centre 8D read at 0.55 taken as misread, and a 3D played from a pile that showed its
        twin after, for a 3S joined onto a far pile that the camera guessed 3D)."""
        live, state, changed, moves = self.live, self.state, self.changed, node.moves
        # Two decks: a pile may look unchanged because the card under the one that left was its twin. Once
        # in a view is rare enough; twice (zen4: a 9H and a 10S played from piles that both turned up their
        # twins, for a 10S laid against Z6 from a pile under a hand) is not an explanation.
        coincidences = (_looks_unchanged(moves, changed, state, revealed) + _covered_turns(node, state, live.glimpsed)
                        + _guessed_as_covered(node.state, state, self.obs))
        allowed = 1 if self.weak else min(1, _joined_onto_twins(moves, changed, state)) if self.twin else 0
        return (not _guessed_onto_unchanged(moves, changed, state) and coincidences <= allowed
                and not _unseen_plays(moves, state, self.obs, live.glimpsed, changed).twins)

    def coincidences(self, x: Explanation[ZenuwenState]) -> int:
        """Cards the series takes from piles that look as they did, their twins under them."""
        return _looks_unchanged(x[1].moves, self.changed, self.state)

    def rarity(self, x: Explanation[ZenuwenState]) -> tuple[int, int, int]:
        """How many cards the series takes from piles that look as they did and that nothing moved
        over (:func:`_from_still`), then how far it is from the camera's guesses of the piles'
        tops, then its coincidences (:func:`_choose`)."""
        # (a turned card covered before any view read it is a guess too: penguins, seed 117, a
        # far pile's KC, never read, laid on an AD and read there, was taken for a turn nobody
        # made, the AC laid meanwhile judged laid on its unseen card)
        return (_from_still(x[1].moves, self.obs, self.changed), _guess_conflicts(x, self.state, self.live.seen_tops),
                self.coincidences(x) + _covered_turns(x[1], self.state, self.live.glimpsed))

    def illegal_in(self, view: Observation, fits: Callable[[ZenuwenState, Observation], dict[Unseen, Card] | None] = match
                   ) -> Answer | None:
        """One move against the rules (the other players' legal moves around it) that explains
        ``view`` as ``fits`` compares; None where no verdict may be drawn now."""
        live, state, t = self.live, self.state, self.t
        if self.pend is not None or state.phase not in (Phase.TURN, Phase.PLAY, Phase.CHOOSE, Phase.NEXT):
            return None
        # no guessed hand cards; a legal play whose card a view left unused read where it lands comes
        # first (zen4 seed 6: a JD played and read on a QC while a hand hovered, then a 9H laid on it
        # against Z6 with the JD's pile still under the hand was judged laid on the QC)
        kids = list(_expand(view, self.diff, t, depth=1)(self.start_node))
        seen_laid = [n for n in kids if _glimpsed_play(n.moves[-1], state, live.glimpsed)]
        starts = seen_laid + [self.start_node] + [n for n in kids if n not in seen_laid]
        return ENGINE.illegal_explanation(live, view, starts, lambda s: _physical(s, t, view, unread_tops=s is state),
                                          lambda pending, seen: _in_view(pending, seen, live.seen_tops) and not _twin_under_hand(state, pending, seen),
                                          fits, t, _waiting)

    def illegal_move(self, suits_aside: bool = False) -> Answer | None:
        """The illegal move in the view as read (``suits_aside``: a centre top read as another suit of
        the card laid is taken as that card)."""
        return self._once("illegal move", lambda: self._illegal_move(suits_aside), suits_aside)

    def _illegal_move(self, suits_aside: bool) -> Answer | None:
        live, obs, state = self.live, self.obs, self.state
        found = self.illegal_in(obs, _match_suits_aside if suits_aside else match)
        if found is not None and found[0].pending is not None and _read_only_landing(state, found[0].pending, obs):
            # a verdict on a card nobody read but unsurely where it landed waits for a clearer view,
            # and is not drawn if none comes (fresh seed 184 against seed 52's 8C, read surely next)
            return (_left_unused(live, obs), []) if self.defer and live.deferred < MAX_DEFERRED else None
        if found is not None and (on_guess := _laid_on_guessed(found[1], state, live.reads)) is not None:
            return _unguessed_look(live, obs, on_guess) or found
        if found is not None and _laid_on_its_twin(found[1], state):
            # a card laid on its twin leaves the centre pile looking as it did: all the view shows of
            # the play is its pile's new top, which a misread shows as well; nothing happening, an
            # unsure reading taken as not read, is likelier (three players, kennard, seed 194: p3's
            # QC, read 8C at 0.35 in the deal's view, read 5C at 0.30 later, was called laid on
            # centre3's 8C against Z6 twice, and the game was lost from 4.8 s)
            quiet = self.last_looks()
            if quiet is not None and not _moves(quiet[1]):
                return None
        return found

    def illegal_past_misreads(self) -> Answer | None:
        return self._once("illegal past misreads", lambda: _illegal_past_misreads(self.obs, self.diff, self.illegal_in))

    def missed_look(self) -> Answer | None:
        return self._once("missed look", lambda: _missed_looked_past(self.live, self.obs) if self.doubt else None)

    def weak_look(self) -> Answer | None:
        return self._once("weak look", lambda: _weak_read(self.live, self.obs, self.diff) if self.doubt and self.weak else None)

    def last_looks(self) -> Answer | None:
        """The last looks' answer (:func:`_judge`'s ``doubt``), weighed against a card read unsurely
        taken as not read and against one move against the rules past the unsure readings."""
        return self._once("last looks", self._last_looks)

    def _last_looks(self) -> Answer | None:
        if not self.doubt:
            return None
        live = self.live
        # the first look that explains the view, unless a later one assumes fewer cards nobody had seen
        # (three players, seed 22: a lone 2S taken as not found and a 2C from under a 10H played, or
        # the 2S a misread 2C, played where it is read 2C: the second)
        answers = [a for a in (self.missed_look(), _misread(live, self.obs, self.diff) if self.pend is None else None) if a is not None]
        found = _fewest_learned(answers) if answers else self.weak_look()
        moves = _moves(found[1]) if found is not None else 1
        unused = found is not None and found[0].deferred > live.deferred
        # a card read unsurely and misread is likelier than more moves to explain it, and an answer
        # beats a view left unused (three players, seed 26 at 1920x1080: a 3C read 3S at 0.48 in the
        # view an illegal 5H was taken back in was taken for two joins that turned up a 3S under it;
        # later, with a pile emptied by a play taken as not read, each view was left unused)
        weak = self._weak_rival(found, moves) if answers and (moves or unused) else None
        if weak is not None and self._weak_beats(weak, found, moves, unused):
            return weak
        # one move against the rules, every card of it seen, is likelier than a longer legal series
        # that needs a card misread and reads others however unsurely (three players, seed 26 at
        # 1920x1080: a 5H laid on a 7H while the view read a centre JD 5D at 0.30 and a 3C 3S at 0.42
        # was taken for a join, a turn nobody made and the 5H laid on a turned card)
        illegal = self.illegal_past_misreads() if moves else None
        if illegal is not None and _all_seen(illegal[1], self.state, self.obs, moves + (found is None)):
            return illegal
        return found

    def _weak_rival(self, found: Answer | None, moves: int) -> Answer | None:
        """The look with one card read unsurely taken as not read, where it may beat ``found``."""
        live, state = self.live, self.state
        weak = self.weak_look()
        if (weak is not None and not _moves(weak[1]) and weak[0].state == state and weak[0].deferred <= live.deferred
                and weak[0].last is None and match(state, _weak_unread(self.obs)) is None):
            # (not a "nothing happened" that learns nothing where the view, its unsure readings left
            # unread, still shows another card than the position: the misread look behind it doubted
            # a card and, as is its way with one read before, kept it; three players, kennard_4c_big,
            # seed 186: p2's 3S, read 2S at 0.32 in 23 views, played onto a 2C and read 3S there at
            # 0.60, its pile's KD read at 0.32, was taken for nothing, view after view, and the 4D
            # laid on the 3S next was called against Z6)
            return None
        doubts = _misreads(weak[1]) if weak is not None else 0
        if weak is not None and found is not None and doubts and _moves(weak[1]) + doubts + 1 >= moves + _misreads(found[1]):
            # the weak look doubted a learned card too: with the read it took as not read, two doubts;
            # one move more is likelier than the second (three players at 1280x720, kennard_4c, seed
            # 190: p2's 2D, learned 2S, played onto an AS read at 0.68, its pile's 6H read at 0.42
            # after; with the 6H not read, the AS was taken as misread for the 2D, and the play lost)
            return None
        return weak

    def _weak_beats(self, weak: Answer, found: Answer | None, moves: int, unused: bool) -> bool:
        """Is the weak look taken over ``found`` (``moves`` in it; ``unused``: it leaves the view unused)?"""
        live, state = self.live, self.state
        if weak[0].deferred <= live.deferred and (
                unused or _moves(weak[1]) < moves or (found is not None and _moves(weak[1]) == moves and _turned_twin(state, found[0].state))):
            # (as many moves, but the other look turned a card onto its twin: the unsure read is the
            # likelier mistake; three players at 1280x720, kennard, seed 182: p3's last card, a 7C
            # played onto an 8S while the AC beside it read AS at 0.52, was taken for a turn nobody
            # made, a 4C onto its twin, with p3's pile shown bare taken as not found, and the 7C
            # seen leaving it later was called laid on itself against Z6)
            return True
        if weak[0].deferred > live.deferred and moves and not unused:
            # the weak look waits for a clearer view (a hand over a pile): so does the view, when the
            # weak look, told to conclude, needs fewer moves (four players, seed 27 at 1920x1080: a
            # QH laid from a pile left empty, a 3C read 3S at 0.45 and a hand over a third pile, was
            # taken for that pile shown empty by mistake and four moves nobody made)
            final = _weak_read(replace(live, deferred=SPENT), self.obs, self.diff)
            if final is not None and final[0].deferred < SPENT and _moves(final[1]) < moves:
                return True
        return False

    def illegal_or_last_looks(self) -> Answer | None:
        """Where no legal series explains the view with two decks: the illegal move, unless it is laid
        on a card that only a legal move of it laid there and the last looks explain the view legally
        (:func:`_laid_on_unseen`), else the last looks."""
        found = self.illegal_move()
        if found is not None and _laid_on_unseen(found[1], self.live.glimpsed):
            found = _legal(self.live, self.last_looks()) or found
        return found or self.last_looks()

    def other_looks(self) -> Answer | None:
        """Where no legal series explains the view: the illegal move, the last looks, the view
        stepped through (``defer``), a misread card under a top, a centre top read as another suit."""
        live, obs, doubt, weak = self.live, self.obs, self.doubt, self.weak
        # (a centre top read as another suit of the card laid: only where nothing else explains the view; a
        # misread of another card there, with the card laid elsewhere, is the likelier)
        return (self.illegal_move() or self.last_looks() or (_stepped(live, obs, doubt, weak) if self.defer else None)
                or (_buried_misread(live, obs, self.diff) if doubt else None) or (self.illegal_move(True) if doubt else None))


def _fewest_learned(answers: Sequence[Answer]) -> Answer:
    """The first of the last looks' answers, or, where it moves a card, the answer with a move that
    learns the fewest cards."""
    moving = [a for a in answers if any(f.kind in ("move", "illegal") for f in a[1])]
    if moving and moving[0] is answers[0]:
        return min(moving, key=lambda a: sum(len(f.learned) for f in a[1]))
    return answers[0]


def _choose(view: _ViewJudgement, hits: list[Hit]) -> Answer:
    """Of the legal series that explain the view, the one taken, or another look where the series
    rests on more than it: a view left unused re-judged, a shorter explanation every card of which
    was seen, a card read unsurely taken as not read; or, where several series are left, the view
    left for the next or undecided."""
    live, obs, state, t = view.live, view.obs, view.state, view.t
    # a card taken from a pile that looks as it did, its twin under it, is a coincidence that a
    # series with as many cards nobody saw may do without, even with two moves of one player
    # when views were left unused since the last one taken (three players, seed 26 at 1920x1080:
    # a 2S laid from a pile never read, guessed 2S, then a 3H by the same player, was taken for
    # the 2S of another seat's pile that showed a 2S still), unless the camera's guesses of the
    # piles' tops say otherwise (seed 46: a 9D laid from a pile that then showed its twin, taken
    # for the top of a pile never read but guessed 3S before and after); between two views taken,
    # two moves of one player are as rare, and the coincidence tells apart only series spread alike
    best = best_explanations(hits, substitute_cards, lambda n, final: _unguess(n, final), view.rarity if live.deferred else None)
    if view.pend is None and len(best) == 1 and not best[0][1].moves:
        guessed = _guessed_play(live, obs, t) or _guessed_turn(live, obs, t)
        if guessed is not None:
            return guessed
        remembered = _remembered_look(view) if view.remember and live.deferred and live.last is not None else None
        if remembered is not None:
            return remembered
    if view.remember and len(best) == 1 and best[0][1].moves and live.recalled:
        recalled = _recalled_look(view, best[0])
        if recalled is not None:
            return recalled
    # (each series with the cards it reveals: a card nobody had read on its pile may have been
    # glimpsed where it landed, in a view left unused; three players, seed 29: a 10H read on the
    # centre pile in three views a hand elsewhere left unused, then covered by a JS)
    unseen = [_unseen_plays(x[1].moves, substitute_cards(state, x[3]), obs, live.glimpsed).from_hidden for x in best]
    # (a view that still guesses the played card in its place shows the card has not left: a later
    # view will not show more; four players, penguins, seed 148: p1's 8H laid on a 10H against Z6
    # was taken for laid on p4's 9C, guessed 9C at 0.26 in its place all the while, played unseen)
    last_chance = not view.defer or live.deferred >= MAX_DEFERRED or all(_still_guessed(x[1].moves, state, obs) for x in best)
    if last_chance and all(unseen):
        seen = _all_seen_look(view, best)
        if seen is not None:
            return seen
    best = _tie_broken(view, best)
    if len(best) > 1:
        return _several(view, best, all(unseen) and not last_chance)
    if view.doubt and view.weak and _joined_on_weak(best[0][1].moves, state, obs):
        # a join seen only as a card read unsurely on the pile it went onto, of the rank that lay
        # there: that card's suit misread is likelier than a join nobody saw (two players at
        # 1280x720, kennard_big, seed 171: p2's 7C, read 7S at 0.30-0.32 as the QC beside it was
        # played, made the card turned up under the QC a 7S joined onto it; the 5H turned up next)
        fewer = view.weak_look()
        if fewer is not None and _taken_legal(live, *fewer) and _moves(fewer[1]) < len(best[0][1].moves):
            return fewer
    return _conclude(live, obs, best[0], t, view.defer)


def _remembered_look(view: _ViewJudgement) -> Answer | None:
    """A view that nothing happened explains, judged again with what the views left unused since the
    last one taken showed; None where that explains nothing more."""
    live, obs = view.live, view.obs
    assert live.last is not None
    # a pile the view left unused showed turned down shows a card face up again: its top
    # left, which only that view showed; concluded now, as no later view will show it
    turned = _turned_down_since(view.state, obs, live.last)
    if turned:
        after, findings = _judge(live, obs, view.doubt, False, view.weak, remember=False, gone_from=turned)
        if _taken_legal(live, after, findings) and findings:
            return after, findings
    # a view left unused showed a change that this one, nothing happened as it looks, does
    # not show because it cannot: what it does not judge is as that view read it (zen3 seed
    # 21: a join left unused, its pile's new card read in the next view too faintly)
    merged = _remembered(obs, live.last)
    if merged != obs:
        after, findings = _judge(live, merged, view.doubt, view.defer, view.weak, remember=False)
        if _taken_legal(live, after, findings):
            return after, findings
    return None


def _recalled_look(view: _ViewJudgement, series: Explanation[ZenuwenState]) -> Answer | None:
    """The view judged with what views left unused read surely of the piles it does not judge, where
    that keeps every move of ``series`` and finds more."""
    live = view.live
    # the series leaves a pile this view does not judge as it was, where a view left unused
    # since the last one taken read it surely as another card: judged with those readings,
    # a longer series that keeps every move of this one is the whole story (four players at
    # 1280x720, kennard_4c, seed 181: p3's JH, laid on centre1 where no view read it surely,
    # its pile read JS under it at 0.63 in a view left unused, then at 0.17; the view with
    # p1's 2C was taken for the 2C alone, and the JH said six seconds late, after it)
    merged = _recalled(view.obs, live)
    if merged != view.obs:
        after, findings = _judge(live, merged, view.doubt, view.defer, view.weak, remember=False)
        said = [str(f.move) for f in findings if f.kind == "move"]
        if (_taken_legal(live, after, findings) and len(said) > len(series[1].moves)
                and all(str(m) in said for m in series[1].moves)):
            return after, findings
    return None


def _all_seen_look(view: _ViewJudgement, best: Sequence[Explanation[ZenuwenState]]) -> Answer | None:
    """Where every legal series needs a card nobody saw and no later view may show more: a shorter
    look at the view in which every card was seen, else None."""
    # every legal series needs a card nobody saw, and no later view may show more: a shorter
    # explanation in which every card was seen is the likelier, with a pile the camera did not
    # find taken as not read, or even with a card laid against the rules (zen4 with run 7: a
    # 9H laid on a JD was taken for a 10S from a pile not read, laid on the JD and covered by
    # the 9H at once)
    fewest = min(len(x[1].moves) for x in best)
    # (a missed look that plays a card nobody had read is no such explanation: four players at
    # 1280x720, seed 27: two lone cards laid, their piles taken as not found, and a far pile's
    # unread top laid instead, where the 3C laid was read 3S)
    for missed, weak, look in ((True, False, view.missed_look), (False, False, view.illegal_move), (False, True, view.weak_look)):
        found = look()
        if found is not None and _all_seen(found[1], view.state, view.obs, fewest) and not (missed and any(f.learned for f in found[1])):
            if weak and _from_still([f.move for f in found[1] if f.kind == "move"], view.obs):
                # a card taken from a pile nothing moved over, where a learned card read otherwise now
                # on a pile a hand was at may have been misread: the misread look, if it takes from no
                # still pile (three players at 1280x720, kennard, seed 194: p3's QC, learned 8C from a
                # read at 0.35, played onto a JH from under the hand; with the 10C turned up under it,
                # read 6C at 0.40, taken as not read, the QC was taken for p1's unread top, its pile
                # guessed AC and still before and after)
                doubted = _misread(view.live, view.obs, view.diff) if view.pend is None else None
                if (doubted is not None and _all_seen(doubted[1], view.state, view.obs, fewest)
                        and not _from_still([f.move for f in doubted[1] if f.kind == "move"], view.obs)):
                    return doubted
            return found
    return None


def _tie_broken(view: _ViewJudgement, best: list[Explanation[ZenuwenState]]) -> list[Explanation[ZenuwenState]]:
    """Of several series, those closest to the camera's guesses of the tops, then those that take the
    fewest cards from piles the camera saw still, then those with the fewest coincidences of two
    decks, then those that leave the fewest cards glimpsed unexplained."""
    live, state = view.live, view.state
    if len(best) > 1:
        best = _fewest_guess_conflicts(best, state, live.seen_tops, view.obs)
    if len(best) > 1:
        still = [_from_still(x[1].moves, view.obs) for x in best]
        best = [x for x, n in zip(best, still) if n == min(still)]
    if len(best) > 1:
        best = [x for x in best if view.coincidences(x) == min(map(view.coincidences, best))]
    if len(best) > 1 and live.glimpsed:
        left = [_glimpses_left(x, state, live.glimpsed) for x in best]
        best = [x for x, n in zip(best, left) if n == min(left)]
    return best


def _several(view: _ViewJudgement, best: Sequence[Explanation[ZenuwenState]], all_unseen: bool) -> Answer:
    """A view several series explain alike (``all_unseen``: each needs a card nobody saw, and a later
    view may show more)."""
    live, obs, state = view.live, view.obs, view.state
    if state.phase in (Phase.CHOOSE, Phase.NEXT):
        # which pile who took cannot be told from the table: wait for choose() / slap()
        return replace(live, last=obs, waiting=_waiting(state)), []
    if all_unseen:
        # every series fits only with a card nobody saw laid and covered: a later view may show
        # more (three players, seed 34 at 1920x1080: a 2H laid on a 4S against Z6 while hands were
        # over the centre, taken for an unread side-seat card covered by it; the three piles it
        # might have come from left the series undecided for the rest of the game)
        return _left_unused(live, obs), []
    names = "; ".join(", ".join(str(m) for m in x[1].moves) or "nothing" for x in best)
    ambiguous = Finding("ambiguous", view.t, frame=view.frame, detail=f"several move series fit: {names}")
    return _undecided(live, obs, [_conclude(live, obs, x, view.t, view.defer) for x in best], ambiguous)


def _turned_twin(before: ZenuwenState, after: ZenuwenState) -> bool:
    """Does ``after`` show a new centre card laid on its twin, which only a turn does (Z6 wants
    another rank): a coincidence of two decks."""
    for was, now in zip(before.centre, after.centre):
        fresh = now[len(was) - 1:] if was and now[:len(was)] == was else now
        if any(a == b and not is_unseen(a) for a, b in zip(fresh, fresh[1:])):
            return True
    return False


def _laid_on_unseen(findings: Sequence[Finding], glimpsed: frozenset[tuple[str, str]]) -> bool:
    """Is the illegal move of these findings laid on a card that a legal move of them laid on the same
    pile in the same view, where no view read it? The verdict then rests on a card nobody saw there:
    a pile top read as another card than the camera made of it before (a misread, then or now)
    explains the view as well (three players at 1280x720, seed 26: a far seat's 2S, read 2C at the
    deal and 2S now, was taken for a 2C laid on an AD and covered at once by a 2S against Z6, where a
    near player had laid that 2S on the AD)."""
    illegal = next((f for f in findings if f.kind == "illegal"), None)
    zone = _landing(illegal.move) if illegal is not None else None
    if zone is None:
        return False
    for f in findings:
        if f.kind == "move" and _landing(f.move) == zone:
            laid = [e for e in f.verdict.events if e.kind in ("play", "fill") and e.cards] if isinstance(f.verdict, Legal) else []
            if not any((zone, e.cards[-1].code) in glimpsed for e in laid):
                return True
    return False


def _illegal_play(findings: Sequence[Finding]) -> tuple[Play, int] | None:
    """The illegal move of these findings and the centre pile it lays on, where it is a play onto one."""
    illegal = next((f for f in findings if f.kind == "illegal"), None)
    if illegal is None or not isinstance(illegal.move, Play) or not isinstance(illegal.move.to, int):
        return None
    return illegal.move, illegal.move.to


def _laid_on_guessed(findings: Sequence[Finding], state: ZenuwenState, reads: Mapping[str, int]) -> str | None:
    """The centre zone the illegal move of these findings is laid on, where its top is a card the
    referee took from the camera's guesses and no view has read (``Live.reads``); else None. The
    verdict would rest on a guess (three players, penguins, seed 162: a turned QC guessed 9C in two
    views in a row, taken so; the KC played onto it was called against Z6)."""
    play = _illegal_play(findings)
    if play is None:
        return None
    pile = state.centre[play[1]]
    return centre_zone(play[1]) if pile and not is_unseen(pile[-1]) and not reads.get(pile[-1].code, 0) else None


def _laid_on_its_twin(findings: Sequence[Finding], state: ZenuwenState) -> bool:
    """Does the illegal move of these findings lay a card on a centre pile whose top is that card's
    twin (two decks)?"""
    play = _illegal_play(findings)
    if play is None:
        return False
    move, pile = play[0], state.centre[play[1]]
    card = move.source if isinstance(move.source, Card) else state.seats[move.player].piles[move.source].top
    return bool(pile) and card is not None and not is_unseen(card) and pile[-1] == card


def _unguessed_look(live: LiveZenuwen, obs: Observation, zone: str) -> tuple[LiveZenuwen, list[Finding]] | None:
    """The view judged again with the centre top of ``zone``, taken from a guess, a card nobody read
    (:func:`_laid_on_guessed`): the answer when legal moves explain it, with a note; else None."""
    pile = _pile_at(live.state, zone)
    after, findings = _judge(replace(live, state=_retop(live.state, zone, unseen())), obs, doubt=False)
    if not pile or _legal(live, (after, findings)) is None or not findings:
        return None
    guess = pile[-1]
    note = f"the {guess.code} on {zone}, taken from the camera's guesses, was never read: judged as a card nobody read"
    return after, noted(findings, note)


def _legal(live: LiveZenuwen, answer: tuple[LiveZenuwen, list[Finding]] | None) -> tuple[LiveZenuwen, list[Finding]] | None:
    """The answer when it explains the view by legal moves (or nothing) and takes it; else None."""
    if answer is None or answer[0].deferred > live.deferred or not _taken_legal(live, *answer):
        return None
    return answer


def _stepped(live: LiveZenuwen, obs: Observation, doubt: bool, weak: bool) -> tuple[LiveZenuwen, list[Finding]] | None:
    """A view nothing explains from the certain position, judged from the one the view left unused
    before it leads to, when legal moves explain that view: the moves made meanwhile may have left
    nothing in common with the position (four players, seed 32: a clear view showed the turn and a
    9S laid on a turned card at once, and was left unused for a side seat's card not read; the views
    after it, with two more plays, were unrecognised for six seconds)."""
    if not live.deferred or live.last is None or live.last is obs:
        return None
    before = replace(live, deferred=0, last=None)
    stepped, first = _judge(before, live.last, doubt, defer=False, weak=weak)
    if not any(f.kind == "move" for f in first) or not _taken_legal(before, stepped, first):
        return None
    if _twin_of_held(live.state, stepped.state, (live.last, obs)):
        # (three players at 1280x720, seed 26: the 8D turned onto a centre pile was never read; the
        # 7H played onto it from a pile under a hand, judged from the view before, was taken for the
        # turned card, the twin of the 7H still on its pile, and the 7H seen leaving it later was
        # called laid on itself against Z6)
        return None
    after, then = _judge(stepped, obs, doubt, weak=weak)
    landed = {z for f in first if f.kind == "move" and (z := _landing(f.move)) is not None}
    if any(_pile_at(after.state, z) and bare(obs, z) for z in landed):
        # a card the step laid under a hand must show once the hand is gone: a pile plainly bare
        # then is no card missed by the camera (four players, penguins, seed 130: a QS laid on an AC
        # against Z6, the AC's pile read faintly 6S, was taken for joined onto the player's bare
        # pile under the hand, that pile then for a card not found, and the QS put back for a join)
        return None
    onward = [f.move for f in then if f.kind == "move"]
    if onward and _looks_unchanged(onward, differing_zones(stepped.state, obs) | unjudged(obs), stepped.state):
        # a step through a view left unused and a coincidence of two decks after it are two rare
        # things at once (three players at 1920x1080, fresh seed 119: a 5D laid on a 7S against Z6
        # while hands hid the centre piles was taken, from that view, for laid on a 6H, and the next
        # view for a turn of the twins of the 6H, the 5D and the AC)
        return None
    if any(f.kind in ("unrecognised", "ambiguous", "illegal") for f in then) or after.undecided:
        # (legal moves only: fresh four-player seed 52 at 1920x1080, an 8C taken up to be laid against
        # Z6 while hands hid the centre piles was taken for laid on a 9D played unseen, its twin under
        # it, and the view after it for that 9D laid again against the rules)
        return None
    if after.deferred > stepped.deferred and any(p.held for p in live.last.piles.values()):
        # what a view with hands in it was taken for must be borne out by this view, not left unused
        # too (four players, seed 49 at 1920x1080: a KH taken up to be laid against Z6 while hands hid
        # the centre piles was taken, from that view, for joined onto a pile a QC had left unseen)
        return None
    return after, first + then


def _covered_turns(node: Node[ZenuwenState], start: ZenuwenState, glimpsed: frozenset[tuple[str, str]]) -> int:
    """How many of the cards the series turns onto centre piles it also covers, in the same view, with
    a play judged on a guess of the turned card (a rank that fits), on piles no view left unused read a
    card new to it. Nobody saw those turned cards, and each guess makes any play onto its pile legal."""
    stands = {c for _, c in _turned_guesses(node, start)}
    if not stands:
        return 0
    # piles a view left unused read a card on that was not there before
    seen_new = {zone for zone, code in glimpsed
                if (j := centre_number(zone)) is not None and j < len(start.centre)
                and code not in {c.code for c in start.centre[j]}}
    return sum(1 for j, (before, after) in enumerate(zip(start.centre, node.state.centre))
               if set(after[len(before):-1]) & stands and centre_zone(j) not in seen_new)


def _turned_guesses(node: Node[ZenuwenState], start: ZenuwenState) -> list[tuple[Unseen, Card]]:
    """The cards the series turns from the stocks that it judges on a guess (stand-in -> the guess)."""
    if not node.guesses:
        return []
    stocks = {c for seat in start.seats for c in seat.stock}
    return [(u, c) for u, c in node.subs if u in node.guesses and u in stocks]


def _twin_of_held(before: ZenuwenState, after: ZenuwenState, views: Sequence[Observation]) -> bool:
    """Does ``after`` have a card on a centre pile that ``before`` did not, the twin of a pile top that
    it still holds, the pile under a hand in one of ``views``? The card may have been played from under
    the hand onto a card nobody read, rather than be its twin (:func:`_from_under_hand`, for the cards
    a search learns)."""
    tops = _held_tops(after, views)
    return any(c in tops for a, b in zip(before.centre, after.centre) for c in b[len(a):])


def _remembered(obs: Observation, before: Observation) -> Observation:
    """The view with each pile it does not judge (under a hand, or its top not read) as the view left
    unused just before read it: nothing seen since says it changed."""
    piles = dict(obs.piles)
    for zone in unjudged(obs):
        was = judged(before, zone)
        if was is not None and was.top is not None:
            piles[zone] = was
    return obs if piles == obs.piles else replace(obs, piles=piles)


def _turned_down_since(state: ZenuwenState, obs: Observation, before: Observation) -> frozenset[tuple[int, int]]:
    """The patience piles whose face-up top the view left unused just before (``before``) showed
    face down, no hand over it, and this view shows face up again, not read as that top: its top
    left, and the card under it was turned up (three players at 1280x720, kennard_4c_big, seed 903:
    p2's 6H joined onto the other 6H, its pile showing a back in a view left unused for the turn,
    then the QC turned, guessed QS at 0.20: the view fitted nothing happened, a card nobody read
    taken for the 6H, and the join was said ten seconds late)."""
    out = set()
    for p, seat in enumerate(state.seats):
        for i, pile in enumerate(seat.piles):
            top, zone = pile.top, pile_zone(p, i)
            was, now = judged(before, zone), judged(obs, zone)
            if (top is None or was is None or now is None or was.cards or not was.backs or not now.cards
                    or now.cards[-1] is not None and not is_unseen(top) and now.cards[-1] == top.code):
                continue
            out.add((p, i))
    return frozenset(out)


def _guessed_play(live: LiveZenuwen, obs: Observation, t: float, gone_only: bool = False) -> tuple[LiveZenuwen, list[Finding]] | None:
    """A view that fits the position as it is, but shows a centre pile's top, read before, unread with
    the camera's guess another card: a card too unsure to read may have been laid there (zen3 seed
    21: an 8S played from a side seat's pile never read, read at 0.14 on the 7D it covered, and the
    pile's next card read for the first time; "nothing happened" learned that card as the pile's
    top, and the 7H laid on the 8S next was judged against Z6). With the guess taken as read, one
    play onto that pile from a pile that now reads another card (or guesses another, the centre
    guess naming the card that left it), and only one, is the answer; anything less leaves the view
    at nothing happened. ``gone_only``: only a play from a pile never read that shows nothing now
    (:func:`_blind_looked_past`)."""
    state = live.state
    for j, cpile in enumerate(state.centre):
        zone = centre_zone(j)
        seen = judged(obs, zone)
        guess = parse_seen(seen.top_guess) if seen is not None else None
        if seen is None or guess is None or not cpile or is_unseen(cpile[-1]) or guess == cpile[-1]:
            continue
        view = replace(obs, piles={**obs.piles, zone: replace(seen, cards=seen.cards[:-1] + (guess.code,))})

        def seen_leaving(move: Any) -> bool:
            if not isinstance(move, Play) or move.from_hand or move.to != j or not isinstance(move.source, int):
                return False
            source = judged(view, pile_zone(move.player, move.source))
            left = state.seats[move.player].piles[move.source].top
            if source is None or left is None:
                return False
            if is_unseen(left) and not source.cards:
                # a pile top never read, gone: the card guessed on the centre pile (penguins, seed 118:
                # a QC read 0.20-0.26 on the KC it covered, its pile now empty, was nothing happened,
                # and the next card from that pile was judged laid on the KC)
                return seen.confidences[-1:] >= (GUESS_FLOOR,)
            if gone_only:
                return False
            if source.top is None:
                # not read either: the camera guesses another card there, and the centre pile's guess
                # is the very card that left (penguins, seed 117: a QH guessed QH at 0.17 on the KS it
                # covered, its pile guessing a 6C, was nothing happened until two more plays came)
                return source.top_guess is not None and source.top_guess != left.code and guess == left
            # the pile shows a card read, and not the one that left (its twin turned up: a coincidence)
            return not _shows_still(source, left)

        best = _single_moves(state, view, t, seen_leaving)
        if len(best) == 1:
            return _conclude(live, view, best[0], t)
        if not gone_only and not best:
            unread = _played_unread(state, obs, j, t, covered_sure=cpile[-1].code in live.sure, seen_tops=live.seen_tops)
            if unread is not None:
                # not left for a clearer view: the card is unread there, and the next view has it
                # covered as often as not (seed 124: the JC played onto it)
                after, findings = _conclude(live, obs, unread, t, defer=False)
                play = unread[1].moves[0]
                note = (f"{pile_zone(play.player, play.source)}'s card, never read, played onto {zone} (the camera "
                        f"guessed {seen.top_guess} there, not the {cpile[-1].code}): not judged")
                return after, noted(findings, note)
    return None


def _guessed_turn(live: LiveZenuwen, obs: Observation, t: float) -> tuple[LiveZenuwen, list[Finding]] | None:
    """A view that fits the position as it is, but shows every centre pile's top, read before, unread
    with the camera's guess another card (at least ``GUESS_FLOOR``), something having moved over each
    since the view taken: the players may have turned cards too unsure to read (Z5/Z7). With the
    guesses taken as read, the one turn that explains the view is the answer (two players, kennard,
    seed 171 at 77.2 s: a turn's 9S read at 0.37 in a view left waiting for the other pile, then at
    0.28, its KD at 0.19; nothing happened fitted, and the turn after it was lost too)."""
    state = live.state
    piles = dict(obs.piles)
    for j, cpile in enumerate(state.centre):
        zone = centre_zone(j)
        seen = judged(obs, zone)
        guess = parse_seen(seen.top_guess) if seen is not None else None
        if (seen is None or guess is None or not cpile or is_unseen(cpile[-1]) or guess == cpile[-1] or seen.still is True
                or seen.confidences[-1:] < (GUESS_FLOOR,)):
            return None
        piles[zone] = replace(seen, cards=seen.cards[:-1] + (guess.code,))
    view = replace(obs, piles=piles)
    best = _single_moves(state, view, t, lambda move: isinstance(move, Turn))
    return _conclude(live, view, best[0], t) if len(best) == 1 else None


def _single_moves(state: ZenuwenState, view: Observation, t: float, keep: Callable[[Any], bool]) -> list[Explanation[ZenuwenState]]:
    """The best explanations of ``view`` by one move from ``state`` that ``keep`` accepts (none: no
    such move explains it)."""
    start = Node(state, count=(0,) * state.players)
    expand = _expand(view, differing_zones(state, view), t, strict=False, depth=1)
    hits = [h for h in breadth_first(start, expand, [lambda s: match(s, view)], 1) if len(h[0].moves) == 1 and keep(h[0].moves[0])]
    return best_explanations(hits, substitute_cards, lambda n, final: _unguess(n, final))


def _played_unread(state: ZenuwenState, obs: Observation, j: int, t: float, covered_sure: bool = False,
                   seen_tops: Mapping[str, str] = MappingProxyType({})) -> Explanation[ZenuwenState] | None:
    """Centre pile ``j``'s top, read before, shows unread, the camera guessing a card that no play
    explains, and a pile whose top nobody has read shows a card read now: its top was played there,
    judged as a card of a rank that fits and left unseen, and the card shown is the one turned up
    under it; only one such pile, or None (penguins, two players, seed 124: a QC never read in its
    place, played onto a KS and guessed 6C there at 0.16-0.23, its pile turning up a 9H read at
    0.67; nothing happened learned the 9H as the QC's card, the JC played onto the QC next was
    called illegal on the KS, and every view after it was unrecognised). As Stress does
    (:func:`referee.stress_live._played_unread`). ``covered_sure``: the centre top was read surely
    before (``Live.sure``), so a view in which the camera can make nothing of it, however faint its
    guess, no hand over it, shows another card there (two players, penguins, seed 153: p2's QS, guessed
    QS at 0.22 in its place, played onto a KH read at 0.66, guessed 6S at 0.01-0.02 there, its pile
    reading the 10S under it: taken for nothing happening and a stuck call, the JH played next onto
    the QS called illegal on the KH). ``seen_tops`` (``LiveZenuwen.seen_tops``): a pile whose top the
    camera last guessed as the very card it guesses on the centre pile now, however faintly, is the
    card's own look gone there (two players, penguins, seed 161: p2's 10H, guessed QH at 0.00-0.08 in
    its place, played onto a 9S read at 0.50, guessed QH at 0.01 there: nothing happened, and the rest
    of the round was lost)."""
    seen = judged(obs, centre_zone(j))
    cpile = state.centre[j]
    if seen is None or not seen.cards or seen.cards[-1] is not None:
        return None
    alike = {zone for zone, code in seen_tops.items() if code == seen.top_guess}
    weak = seen.confidences[-1:] < (AGREEING_GUESS_FLOOR,) and not covered_sure
    if weak and not alike:
        return None
    guessed = seen.confidences[-1:] >= (GUESS_FLOOR,)
    faint = not guessed and not covered_sure
    if _carried(state, obs, seen.top_guess):
        return None
    start = Node(state, count=(0,) * state.players)
    found: list[tuple[Node[ZenuwenState], int, dict[Unseen, Card]]] = []
    for p, seat in enumerate(state.seats):
        for i, pile in enumerate(seat.piles):
            u, source = pile.top, judged(obs, pile_zone(p, i))
            if not isinstance(u, Unseen) or source is None:
                continue
            # or a pile's last card, never read, gone from a pile something moved over; then a guess on
            # the centre pile however faint will do (four players, penguins, seed 148: p1's QC guessed
            # at 0.26 in its place, played onto a KH, guessed 6C at 0.10-0.16 there: nothing happened,
            # the QC taken as a card the camera had lost, until p1's last card ended the round unseen)
            bare = not source.cards and source.backs == 0 or source.cards == (None,) and source.backs is None and not source.guesses
            # (the second bare: as _missed_piles shows it). Where nothing moved over the pile since the
            # view taken, the camera may have lost the card, unless the centre top read surely before
            # shows another card guessed at least GUESS_FLOOR (two players, penguins, seed 155: p2's QC,
            # read 9C in its place, played onto a JS while a hand hovered over centre1, then guessed 6C
            # at 0.22 there; nothing happened was taken for the view with the hand, and the pile was
            # "still" after it)
            if weak and pile_zone(p, i) not in alike:
                continue
            gone = bare and len(pile.cards) == 1 and (source.still is False or covered_sure and guessed)
            if not gone and (source.top is None or faint and pile_zone(p, i) not in alike):
                continue
            move = Play(p, i, j, t)
            view = replace(obs, piles={**obs.piles, pile_zone(p, i): SeenPile((), 0, still=False)}) if gone else obs
            for stand in _stand_ins(state, cpile[-1]):
                v = zenuwen.apply(substitute_cards(state, {u: stand}), move)
                if not isinstance(v, Legal):
                    continue
                b = match(v.state, view)
                if b is not None:
                    found.append((start.then(v.state, v.move, p, ((u, stand),), _touches(move, state), ENGINE.called(v), guess=True), 0, b))
                    break
    if len(found) != 1:
        return None
    return best_explanations(found, substitute_cards, lambda n, final: _unguess(n, final))[0]


def _carried(state: ZenuwenState, obs: Observation, code: str | None) -> bool:
    """Is ``code`` the top of a pile a hand is over (the card being played, maybe carried across the
    centre pile where the camera guessed it)? Four players, penguins, seed 141: p2's 2H, carried over
    centre1 on its way to centre2, was guessed 2H there at 0.42; taken for a far pile's card nobody
    read played onto the 10C, and every view after was unrecognised."""
    return code is not None and any(
        (seen := obs.piles.get(pile_zone(p, i))) is not None and seen.held and pile.top is not None and pile.top.code == code
        for p, seat in enumerate(state.seats) for i, pile in enumerate(seat.piles))


class UnseenPlays(NamedTuple):
    """How many plays of a series nobody saw: plays onto a centre pile that a later play of the series
    covers (nothing shows the card arrived, nor did a view left unused meanwhile: ``glimpsed``) ..."""

    from_hidden: int
    """... from a pile the view does not read (under a hand, its card not read or read unsurely: a
    later view may show more)"""
    twins: int
    """... from a pile that reads the very card played (two decks: the other copy turned up under it;
    two coincidences at once, which no view will tell apart from none)"""


def _unseen_plays(
    moves: Sequence[Any], state: ZenuwenState, obs: Observation, glimpsed: frozenset[tuple[str, str]] = frozenset(),
    changed: frozenset[str] | None = None,
) -> UnseenPlays:
    """The plays of a series (from ``state``) nobody saw. A card covered at once whose pile shows it
    still is a twin's coincidence where it is read surely, or, with ``changed`` (the zones that look
    other than the position says), where the pile looks just as it did, however unsurely it is read
    (three and four players at 1920x1080, seeds 42 and 39: a QS laid against Z6 was taken for
    covering a KS, or a JS, from a pile still read so at about 0.5 in every view, its twin under it)."""
    hidden = unjudged(obs)
    from_hidden = twins = 0
    for k, m, before, after in _replayed(moves, state):
        if isinstance(m, Play) and not m.from_hand and isinstance(m.source, int):
            played = before.seats[m.player].piles[m.source].top
            covered = any(isinstance(later, Play) and later.to == m.to for later in moves[k + 1 :]) and (
                played is None or (centre_zone(m.to), played.code) not in glimpsed  # type: ignore[arg-type]
            )
            zone = pile_zone(m.player, m.source)
            seen = judged(obs, zone)
            as_it_was = changed is not None and zone not in changed
            if covered and _shows_still(seen, played) and (as_it_was or seen is not None and not seen.top_weak):
                twins += 1
            elif covered and (zone in hidden or seen is not None and seen.top_weak):
                from_hidden += 1
        if after is None:
            break
    return UnseenPlays(from_hidden, twins)


def _left_unused(live: LiveZenuwen, obs: Observation) -> LiveZenuwen:
    """The view left unused (:func:`_kept_from_unused`)."""
    return _kept_from_unused(deferred(live, obs), live, obs)


def _kept_from_unused(waiting: LiveZenuwen, live: LiveZenuwen, obs: Observation) -> LiveZenuwen:
    """``waiting`` (``live`` with ``obs`` left unused) remembering what ``obs`` read: its centre cards as
    glimpsed (:func:`_unseen_plays`), the patience piles it reads surely as recalled (:func:`_recalled`)."""
    sure = {z: p for z, p in obs.piles.items() if ".pile" in z and not p.held and p.top is not None and not p.top_weak}
    return replace(waiting, glimpsed=live.glimpsed | centre_reads(obs), recalled={**live.recalled, **sure} if sure else live.recalled)


def _recalled(obs: Observation, live: LiveZenuwen) -> Observation:
    """The view with each patience pile whose top it shows but does not read, guessing it the card the
    latest view left unused since the last one taken read there surely (``LiveZenuwen.recalled``), as
    that view read it. Not a pile under a hand (a card may be leaving it), nor one guessed as another
    card, nor a centre pile, where cards land (four players at 1920x1080, seed 57: a 6C laid on
    centre4's 7S, guessed 6C there; the 2C under it, read 2S at 0.70 in a view left unused: only
    patience piles are recalled)."""
    piles = dict(obs.piles)
    for zone, seen in obs.piles.items():
        was = live.recalled.get(zone)
        if was is not None and not seen.held and seen.cards and seen.top is None and seen.top_guess == was.top:
            piles[zone] = was
    return obs if piles == obs.piles else replace(obs, piles=piles)


def _glimpsed_first(live: LiveZenuwen, final: ZenuwenState) -> LiveZenuwen:
    """The picture with the one card a view left unused read on a pile (``LiveZenuwen.glimpsed``)
    whose new top the series turned and this view cannot read counted as the first view waited on
    (:func:`~referee.speed_live.unread_centre`): that view read it, so this one's guess alike makes
    two. Not a card some player could have played there instead (three players, penguins, seed 133:
    a QC turned, read at 0.31 in the view with the turning hands, guessed QC at 0.27 in the next,
    then covered by an AD against Z6: taken for a card that fits, the AD's play was legal, its
    take-back a card from nowhere, and the game was lost)."""
    first = []
    # a card a player could have played there instead (a pile top, a hand card: four players, seed
    # 57, a 6C played from p1's pile was glimpsed there, and taken for a card turned)
    playable = {c.code for seat in live.state.seats for c in (*(p.top for p in seat.piles if p.top is not None), *seat.hand)}
    for j, pile in enumerate(final.centre):
        zone = centre_zone(j)
        if (not pile or not is_unseen(pile[-1]) or any(p and p[-1] is pile[-1] for p in live.state.centre)
                or any(z == zone for z, _ in live.centre_guesses)):
            continue
        held = {c.code for c in pile}
        reads = {code for z, code in live.glimpsed if z == zone and code not in held}
        if len(reads) == 1 and not reads & playable:
            first.append((zone, reads.pop()))
    return replace(live, centre_guesses=tuple(first) + live.centre_guesses) if first else live


def _glimpsed_turns(node: Node[ZenuwenState], start: ZenuwenState, glimpsed: frozenset[tuple[str, str]]) -> dict[Unseen, Card]:
    """Turned cards the series covers, judged on a guess (a rank that fits the card laid on them),
    that a view left unused read on their pile: stand-in -> that card, where it is the one card those
    views read there that the pile does not hold otherwise, fits the card laid on it, and has a copy
    not known yet (three players, penguins, seed 126: the first turn's JC and 6S were read in every
    view that waited on the third pile's card, and covered before the turn was taken; the log's turn
    named neither)."""
    turned = _turned_guesses(node, start)
    if not turned or not glimpsed:
        return {}
    real = real_counts(start)
    out: dict[Unseen, Card] = {}
    for u, stand in turned:
        for j, (before, after) in enumerate(zip(start.centre, node.state.centre)):
            new = after[len(before):]
            if after[: len(before)] != before or stand not in new[:-1]:
                continue
            above = new[new.index(stand) + 1]
            held = {c.code for c in before + new if c != stand}
            seen = {card for zone, code in glimpsed if zone == centre_zone(j) and code not in held
                    and real[card := from_code(code)] < start.rules.deck_count and zenuwen.fits(above, card)}
            if len(seen) == 1:
                out[u] = seen.pop()
            break
    return out


def _glimpses_left(x: Explanation[ZenuwenState], start: ZenuwenState, glimpsed: frozenset[tuple[str, str]]) -> int:
    """How many cards read on a centre pile in views left unused since the last one taken a series
    never has on that pile (a card it guessed there, covered at once, may be one of them, if it fits
    under the card on it). Three players at 1920x1080, seed 121: all turned (9S, 10D, AS, each read
    in a view a hand left unused) and p2's 10D went on the 9S; the view showed 10D on two piles, and a
    10D laid on the other pile's turned card (a guess, covered at once) fitted as well: it leaves the
    9S read on the first pile unexplained."""
    final, node = x[0], x[1]
    guessed = {c for u, c in node.subs if u in node.guesses}
    left = 0
    for zone, code in glimpsed:
        j = centre_number(zone)
        if j is None or j >= len(final.centre):
            continue
        pile, was = final.centre[j], start.centre[j]
        # (the top the pile had and the cards laid since: one covered before the last view taken was
        # read in none left unused since; two decks, seed 186: a JD laid long before under a JD glimpsed
        # as the round's last card, which a series taking it into the hand then also explained)
        shown = was[-1:] + pile[len(was):] if pile[:len(was)] == was else pile
        if code in {c.code for c in shown if not is_unseen(c)} - {c.code for c in guessed}:
            continue
        seen = from_code(code)
        if not any(c in guessed and (i + 1 == len(pile) or zenuwen.fits(seen, pile[i + 1])) for i, c in enumerate(pile)):
            left += 1
    return left


def _glimpsed_play(move: Any, state: ZenuwenState, glimpsed: frozenset[tuple[str, str]]) -> bool:
    """Is ``move`` a play of a pile top (from ``state``) that a view left unused read where it lands?"""
    if not isinstance(move, Play) or move.from_hand or not isinstance(move.source, int) or not isinstance(move.to, int):
        return False
    played = state.seats[move.player].piles[move.source].top
    return played is not None and not is_unseen(played) and (centre_zone(move.to), played.code) in glimpsed


def _still_guessed(moves: Sequence[Any], state: ZenuwenState, obs: Observation) -> bool:
    """Does a play of the series take a card the position knows from a pile that the view, no hand
    over it nor over the centre pile it lands on, does not read but guesses as that very card still?"""
    for _, m, before, after in _replayed(moves, state):
        if isinstance(m, Play) and not m.from_hand and isinstance(m.source, int) and isinstance(m.to, int):
            top = before.seats[m.player].piles[m.source].top
            seen = obs.piles.get(pile_zone(m.player, m.source))
            landing = obs.piles.get(centre_zone(m.to))
            if (top is not None and not is_unseen(top) and seen is not None and not seen.held
                    and landing is not None and not landing.held and seen.top is None and seen.top_guess == top.code):
                return True
        if after is None:
            break
    return False


def _all_seen(findings: Sequence[Finding], state: ZenuwenState, obs: Observation, fewer_than: int) -> bool:
    """Are these the findings of a view explained by fewer than ``fewer_than`` moves from ``state``
    (an illegal one among them, or none), each of whose cards was seen?"""
    moves = [f.move for f in findings if f.kind in ("move", "illegal")]
    kinds_ok = all(f.kind in ("move", "call", "illegal") for f in findings)
    unseen = _unseen_plays(moves, state, obs)
    return kinds_ok and len(moves) < fewer_than and not unseen.from_hidden and not unseen.twins


def _missed_piles(state: ZenuwenState, obs: Observation, only: frozenset[str] | None = None) -> Observation:
    """The view with each patience pile or centre pile that shows nothing at all, where the position
    has a card, taken as a card not read: a last look at a view nothing else explains (zen3 with run 7:
    the left seat's 8C and the far seat's 9C not found for seconds, every view unrecognised meanwhile;
    three players, penguins, seed 196 at 48 s: centre1's QS, laid on a JD, not found for half a
    minute, and 39 of the 55 moves missed). Only a
    legal explanation is taken from it: a card that left unseen would have made a move the first
    look finds (a pile of several cards is never empty but after the last cards go into the hand,
    Z9; a card leaving turns the next one up, a back shows until then). ``only``: these zones alone."""
    if state.phase is not Phase.PLAY and state.phase is not Phase.TURN:
        return obs
    zones = [pile_zone(p, i) for p, seat in enumerate(state.seats) for i, pile in enumerate(seat.piles) if pile.cards]
    # a centre pile leaves the table only at a round's end, which needs a player with no pile card
    # left (Z10): while every player has one, a centre pile shown bare is one the camera lost (one the
    # view leaves out is not judged)
    out = any(not any(pile.cards for pile in seat.piles) for seat in state.seats)
    centre = [] if out else [centre_zone(j) for j, pile in enumerate(state.centre) if pile]
    obs = lost_as_unread(obs, [z for z in centre if only is None or z in only])
    return lost_as_unread(obs, [z for z in zones if only is None or z in only], absent=True)


def _never_read(live: LiveZenuwen) -> frozenset[str]:
    """The patience piles whose top card no view the referee took has read, or even guessed: a card
    nobody has seen since it was dealt or turned up (a far seat's index a few pixels high), not
    learned, and no reading of the camera's there since (``LiveZenuwen.shown``)."""
    return frozenset(
        pile_zone(p, i)
        for p, seat in enumerate(live.state.seats)
        for i, pile in enumerate(seat.piles)
        if pile.top is not None and is_unseen(pile.top) and pile_zone(p, i) not in live.shown
    )


def _guessed_as_covered(final: ZenuwenState, state: ZenuwenState, obs: Observation) -> int:
    """The centre piles a series leaves a new card on top of, not read, that the camera guesses as the
    very card it covers: the pile looks as it did (penguins, seed 118: a 5D laid on a 3S against Z6,
    while the players were due to turn, was taken for a turn and the 5D laid on the unseen turned
    card, the other pile's QC, guessed QC still, taken for covered by a turned card not read)."""
    count = 0
    for j, (before, after) in enumerate(zip(state.centre, final.centre)):
        zone = centre_zone(j)
        seen = judged(obs, zone)
        if not before or not after or after[-1] is before[-1] or seen is None or seen.top is not None:
            continue
        if not is_unseen(before[-1]) and guess_of(obs, zone) == before[-1].code:
            count += 1
    return count


def _blind_looked_past(live: LiveZenuwen, obs: Observation) -> tuple[LiveZenuwen, list[Finding]] | None:
    """The view judged first with the piles the camera has never read (:func:`_never_read`) that show
    nothing taken as not read, when legal moves (or nothing) then explain it, or an illegal move that
    none of those piles has a part in. Showing nothing is no news from a pile that never showed its
    card: that the card left it is an explanation of last resort, not the first one (three players at
    1280x720, seed 26: the far seat's lone JS, never found, taken for laid under a 2S that a near
    player laid, with a 3S from a pile showing its twin still between them)."""
    # unless the centre pile it may have gone to guesses that card, one too unsure to read (it would
    # be taken for a card not read where the pile shows none, and the play for nothing happened)
    gone = _guessed_play(live, obs, max(obs.t, live.state.t), gone_only=True)
    return gone if gone is not None else _missed_looked_past(live, obs, _never_read(live), doubt=True)


def _missed_looked_past(
    live: LiveZenuwen, obs: Observation, only: frozenset[str] | None = None, doubt: bool = False
) -> tuple[LiveZenuwen, list[Finding]] | None:
    """The view judged with the piles the camera did not find taken as not read
    (:func:`_missed_piles`; ``only``: of these zones), when legal moves (or nothing) then explain it,
    or an illegal move that none of those piles has a part in."""
    missed = _missed_piles(live.state, obs, only)
    if missed is obs:
        return None
    after, findings = _judge(live, missed, doubt=doubt)
    if _taken_legal(live, after, findings):
        return after, findings
    blank = frozenset(missed.piles) - frozenset(z for z, p in obs.piles.items() if p.cards or p.backs)
    illegal = [f for f in findings if f.kind == "illegal"]
    if illegal and after.pending is not None and not _touches(after.pending.move, live.state) & blank:
        return after, findings
    return None


def _taken_legal(live: LiveZenuwen, after: LiveZenuwen, findings: Sequence[Finding]) -> bool:
    """Did a second look explain the view by legal moves (or nothing), or leave it unused as any view
    a hand may hide a move in?"""
    if after.deferred > live.deferred:
        return not findings
    return after.last is None and not after.undecided and all(f.kind in ("move", "call", "taken_back") for f in findings)


def _misread(live: LiveZenuwen, obs: Observation, diff: frozenset[str]) -> tuple[LiveZenuwen, list[Finding]] | None:
    """A view no legal series explains, looked at with one learned card taken as misread: each pile top
    or centre top that the view reads as another card is doubted in turn; of the doubts that make the
    view explained by legal moves (or by nothing but the card read anew, or left unused as any view a
    hand may hide a move in), the one with the fewest moves is the answer if only one has that few,
    and the first move found says which card was misread. Two doubts are tried:

    - a card read in no more than ``MAX_READS_TO_DOUBT`` views is forgotten (a stand-in again) and must
      be read anew where it lies (zen3 with run 7: the left seat's 8C read 6C once, in the first view;
      when the next view read it 8C, a 6C joined against the rules onto a pile not read was the only
      explanation);
    - a card read in any number of views is taken for another card of its rank that the view reads,
      and the series must move it (zen3 seed 5: a side seat's 3H read 3D at 0.35 in every view, then
      played onto a 2H and read 3H there). The rules look at ranks only, so a suit misread changes no
      verdict."""
    answers = []
    real = real_counts(live.state)
    for zone in sorted(diff):
        top = _pile_at(live.state, zone)[-1:]
        seen = judged(obs, zone)
        now = parse_seen(seen.top) if seen is not None else None
        if seen is None or not top or is_unseen(top[0]) or now == top[0]:
            continue
        card = top[0]
        if seen.top_weak and now is not None and now.rank == card.rank:
            # another suit read unsurely where the card lies: a misread of this view, which the weak
            # look takes (three players, seed 26 at 1920x1080: a 3C read 3S at 0.42-0.48 in most
            # views was taken for joined away, a 3S turned up under it, two moves nobody made)
            continue
        # forgotten only where the camera now reads another card: a face-up card read once never turns
        # back; taken for another of its rank also where its pile shows no card now (three players,
        # seed 22: a side seat's lone 2C, read 2S, played onto an AS and read 2C there)
        # (or, read in any number of views, never surely, and gone from its pile: two players, penguins,
        # seed 153: p1's 10H, read QH at 0.30-0.33 and learned so, made a stuck call; played onto a 9S,
        # its pile showing the 2S under it, every view was unrecognised)
        weak_only = card.code not in live.sure
        # (or never read surely where it lies, now read there as another rank, and gone from its pile:
        # four players, kennard, seed 177: p3's 10S, read 6S at 0.32-0.61 where it lay and learned so,
        # laid on a 9D and read 10S there at 0.69, its pile showing the 8C under it; another 6S had
        # been read surely, and every view after was unrecognised)
        placed = live.surest.get((zone, card.code))
        weak_here = now is not None and now.rank != card.rank and placed is not None and placed < SURE_IN_PLACE
        doubtful = now is not None and (live.reads.get(card.code, 0) <= MAX_READS_TO_DOUBT or weak_only or weak_here)
        # a doubtful card forgotten (a stand-in again); any card taken for another of its rank read in the
        # view, of which the decks hold a copy not known elsewhere
        others = sorted((c for c in _same_rank_read(obs, card) if real[c] < live.state.rules.deck_count), key=lambda c: c.code)
        for instead in ([unseen()] if doubtful else []) + others:
            state = _retop(live.state, zone, instead)
            after, findings = _judge(replace(live, state=state), obs, doubt=False, defer=False, weak=False)
            if not _taken_legal(live, after, findings):
                continue
            if is_unseen(instead) and _top(after.state, zone) != (len(_pile_at(state, zone)), seen.top) and not (
                    (weak_only or weak_here) and _moved(findings, zone)):
                continue  # the card must be read anew where it lies: one covered now could be anything
            if is_unseen(instead) and not (weak_only or live.reads.get(card.code, 0) <= MAX_READS_TO_DOUBT) and not _moved(findings, zone):
                continue  # doubted only for how it was read where it lies: it must have left
            # taken for another of its rank: seen so where the series took it, or where it lies, read
            # surely in a view without hands, by a series that leaves its pile alone (four players,
            # seed 27 at 1920x1080: a far seat's 3C, read 3S at 0.69 from then on, was taken later for
            # the 3C played from another seat, whose pile showing nothing was taken as not read)
            unmoved = (now == instead and not seen.top_weak and not any(p.held for p in obs.piles.values())
                       and not any(zone in (_left_pile(f.move), _landing(f.move)) for f in findings if f.move is not None))
            if not is_unseen(instead) and not _moved(findings, zone) and not unmoved:
                continue
            # as any view a hand may hide a move in, it may be left unused: then the card is not doubted
            # yet (four players, seed 32 at 1920x1080: p1's 8D, gone from its pile while a hand hid the
            # centre, was taken for the 8C of another pile and kept so; the next view's 8D on the centre
            # pile was then judged played from p2's pile, whose 8D showed still)
            after, findings = _judge(replace(live, state=state), obs, doubt=False, weak=False)
            # (a card no view ever read, taken from the camera's guesses, is read anew as soon as a
            # view reads another card there surely: a penguins QC guessed 9C view after view, Stress
            # seed 53, would otherwise stay a 9C until a move bore the reading out)
            never_read = is_unseen(instead) and not live.reads.get(card.code, 0) and not seen.top_weak
            if not any(f.kind in ("move", "illegal") for f in findings) and not (unmoved and after.deferred <= live.deferred) and not never_read:
                after = replace(after, state=live.state)
            if findings:
                findings = [replace(findings[0], detail=f"the card read {card.code} {MISREAD}"), *findings[1:]]
            answers.append((after, findings))
    return _fewest_moves(answers)


def _buried_misread(live: LiveZenuwen, obs: Observation, diff: frozenset[str]) -> tuple[LiveZenuwen, list[Finding]] | None:
    """A view no look explains that reads a card, surely, of which the decks hold no copy not already
    known, one of them buried in a centre pile: a buried copy was misread when it was laid. Nothing
    under a centre top is read again, so a suit misread there would otherwise make the card's true
    copy impossible for the rest of the round (three players at 1280x720, simplistic, seed 174: p2's
    2C, read 2S at 0.62 on the centre pile it was laid on while its pile had read it 2C at 0.35, was
    learned as 2S; the real second 2S, laid 22 s later, explained no view, and nine moves of the round
    were lost). Which buried copy was misread no view tells, and none decides a verdict, so every
    buried copy of the card is forgotten (a stand-in again); the answer is a legal series that then
    explains the view, moving a card."""
    state = live.state
    real = real_counts(state)
    wanted = {card for zone in sorted(diff) if (seen := judged(obs, zone)) is not None and not seen.top_weak
              and (card := parse_seen(seen.top)) is not None and real[card] >= state.rules.deck_count}
    buried = [(j, i) for j, pile in enumerate(state.centre) for i, c in enumerate(pile[:-1]) if c in wanted]
    if not buried:
        return None
    centre = list(state.centre)
    for j, i in buried:
        centre[j] = _set(centre[j], i, unseen())
    after, findings = _judge(replace(live, state=replace(state, centre=tuple(centre))), obs, doubt=False, defer=False, weak=False)
    if not _taken_legal(live, after, findings) or not any(f.kind == "move" for f in findings):
        return None
    cards = " and ".join(sorted({state.centre[j][i].code for j, i in buried}))
    where = " or ".join(sorted({centre_zone(j) for j, _ in buried}))
    note = f"a {cards} laid earlier on {where} was misread"
    return after, [replace(findings[0], detail=f"{findings[0].detail}; {note}" if findings[0].detail else note), *findings[1:]]


MISREAD = "earlier was misread"
"""What the first finding of a misread look says (:func:`_misread`)."""


def _moves(findings: Sequence[Finding]) -> int:
    """How many moves, legal or not, the findings conclude."""
    return sum(f.kind in ("move", "illegal") for f in findings)


def _misreads(findings: Sequence[Finding]) -> int:
    """How many learned cards the findings take as misread."""
    return sum(MISREAD in f.detail for f in findings)


def _fewest_moves(
    answers: Sequence[tuple[LiveZenuwen, list[Finding]]], sureness: Sequence[float] = ()
) -> tuple[LiveZenuwen, list[Finding]] | None:
    """Of the answers of a last look, the one with the fewest moves (a learned card taken as misread
    counting as one more), if only one has that few, or (``sureness``: how surely each answer's
    doubted card was read) if its card was read least surely. A view explained beats one left unused
    (three players, seed 26 at 1920x1080: with a centre 7H read at 0.56 taken as not read the view
    was left unused, with a 3C read 3S at 0.48 so taken it showed an illegal move taken back; later,
    a 3H read at 0.55 where it was laid, taken as not read, made it a join onto the 3C, the 3S read
    at 0.43 a misread 3H, where the 3S taken as not read made it the 3H laid there)."""
    if not answers:
        return None
    # two doubts that come to the same findings are one answer (a card forgotten and read anew, or
    # taken for the card of its rank the view reads: the same card either way)
    said = [tuple((f.kind, f.move, f.detail) for f in findings) for _, findings in answers]
    keep = [n for n, x in enumerate(said) if x not in said[:n]]
    answers = [answers[n] for n in keep]
    sureness = [sureness[n] for n in keep] if sureness else sureness
    counts = [(after.deferred > 0, sum(f.kind == "move" for f in findings) + _misreads(findings)) for after, findings in answers]
    fewest = [n for n, c in enumerate(counts) if c == min(counts)]
    if len(fewest) > 1 and sureness:
        least = min(sureness[n] for n in fewest)
        fewest = [n for n in fewest if sureness[n] == least]
    return answers[fewest[0]] if len(fewest) == 1 else None


def _same_rank_read(obs: Observation, card: Card) -> set[Card]:
    """The other cards of ``card``'s rank that the view reads on top of a zone."""
    out = set()
    for zone in obs.piles:
        seen = judged(obs, zone)
        c = parse_seen(seen.top) if seen is not None else None
        if c is not None and c.rank == card.rank and c != card:
            out.add(c)
    return out


def _moved(findings: Sequence[Finding], zone: str) -> bool:
    """Does a move found take the top card of the pile ``zone``?"""
    return any(f.kind == "move" and _left_pile(f.move) == zone for f in findings)


def _weak_read(live: LiveZenuwen, obs: Observation, diff: frozenset[str]) -> tuple[LiveZenuwen, list[Finding]] | None:
    """A view nothing else explains, looked at with one card it reads unsurely (under ``DOUBT_BELOW``)
    where the position has another taken as not read: the camera misread it in this view (zen3 seed 5:
    a side seat's 8C, read in every view before, read 6C at 0.31 in the view where a 3H was played
    from the seat across; the 3H's own suit misread needed the misread look, which one wrong card
    more defeated). Of the cards that make legal moves (or nothing) explain the view, with every other
    look allowed, the one whose explanation has the fewest moves is the answer, if only one has, or
    else the one read least surely (:func:`_fewest_moves`)."""
    answers = []
    sureness = []
    for zone in sorted(diff):
        seen = judged(obs, zone)
        if seen is None or not seen.top_weak:
            continue
        unread = replace(obs, piles={**obs.piles, zone: _unread_top(seen)})
        # another suit of the card known there, read unsurely, is the commonest misread and changes
        # no verdict: a join onto a twin, which the pile it left shows, may still explain the view
        # (three players at 1280x720, kennard_4c, seed 190: p3's 4D joined onto its twin while p2's 2D,
        # learned 2S, read 2D at 0.40; taken for nothing, the 4D's pile read 10H after was taken later
        # for two plays nobody made). A card taken from a pile that shows its twin after, which nothing
        # shows, may not (seed 34: a centre 8D read at 0.55 where the 8H lay, and a 3D "joined" from a
        # pile that showed its 3D still, for a far guess)
        now, top = parse_seen(seen.top), _pile_at(live.state, zone)[-1:]
        suit_only = now is not None and bool(top) and not is_unseen(top[0]) and top[0].rank == now.rank
        after, findings = _judge(live, unread, weak=False, twin=suit_only)
        if _taken_legal(live, after, findings):
            answers.append((after, findings))
            sureness.append(seen.confidences[-1])
    return _fewest_moves(answers, sureness)


def _illegal_past_misreads(
    obs: Observation, diff: frozenset[str], illegal_in: Callable[[Observation], tuple[LiveZenuwen, list[Finding]] | None]
) -> tuple[LiveZenuwen, list[Finding]] | None:
    """A view no legal look explains, looked at with the cards it reads unsurely (under
    ``DOUBT_BELOW``) taken as not read on every changed zone but the one an illegal move lands on: the
    first such move (``illegal_in``, the view) that lands on that zone, read there, and explains
    everything the view reads surely. The landing stays read, however unsurely: a verdict is never
    drawn on a card nobody read where it lies."""
    weak = [z for z in sorted(diff) if (seen := judged(obs, z)) is not None and seen.top_weak]
    for landing in sorted(z for z in diff if (seen := judged(obs, z)) is not None and seen.top is not None):
        others = [z for z in weak if z != landing]
        if not others:
            continue
        view = replace(obs, piles={**obs.piles, **{z: _unread_top(obs.piles[z]) for z in others}})
        found = illegal_in(view)
        if found is not None and any(f.kind == "illegal" and _landing(f.move) == landing for f in found[1]):
            return found
    return None


def _weak_unread(obs: Observation) -> Observation:
    """``obs`` with every top it reads unsurely (under ``DOUBT_BELOW``) taken as not read."""
    return replace(obs, piles={z: _unread_top(p) if p.top_weak else p for z, p in obs.piles.items()})


def _unread_top(seen: SeenPile) -> SeenPile:
    """The pile with its top card taken as not read (the camera's guess of it kept, as for any card
    too unsure to read)."""
    return replace(seen, cards=seen.cards[:-1] + (None,))


def _top(state: ZenuwenState, zone: str) -> tuple[int, str | None]:
    """How many cards lie on a pile zone and the code of its top (None: none, or not seen)."""
    cards = _pile_at(state, zone)
    return len(cards), seen_code(cards[-1]) if cards else None


def _pile_at(state: ZenuwenState, zone: str) -> tuple[Card, ...]:
    j = centre_number(zone)
    if j is not None:
        return state.centre[j] if 0 <= j < len(state.centre) else ()
    at = seat_zone(zone, state.seats)
    i = pile_number(at[2]) if at is not None else None
    return at[1].piles[i].cards if at is not None and i is not None and 0 <= i < PILES else ()


def _retop(state: ZenuwenState, zone: str, card: Card) -> ZenuwenState:
    """The position with ``card`` (a stand-in: forgotten) instead of the top card of ``zone``."""
    cards = _pile_at(state, zone)
    j = centre_number(zone)
    if j is not None:
        return replace(state, centre=_set(state.centre, j, cards[:-1] + (card,)))
    at = seat_zone(zone, state.seats)
    assert at is not None
    p, seat, place = at
    i = pile_number(place)
    assert i is not None
    piles = _set(seat.piles, i, ZPile(cards[:-1] + (card,), seat.piles[i].up))
    return replace(state, seats=_set(state.seats, p, replace(seat, piles=piles)))


def _read_only_landing(state: ZenuwenState, pending: PendingIllegal, obs: Observation) -> bool:
    """Is the card of an illegal play one nobody had read on its pile (a stand-in there), read only
    unsurely where it landed? The unsure read may be a misread of the card it lies on (three players
    at 1920x1080, kennard, seed 184: p3's 4D played, the card turned up under it not read yet, and
    centre3's JS read 2D at 0.33 in view after view: that 2D was called laid on the JS from p3's pile
    against Z6); a clearer view may read it surely (four players at 1920x1080, seed 52: p1's 8C laid
    on a 6S against Z6, read surely in the next view). A hand card nobody has read either (three players
    at 1280x720, kennard, seed 182: centre2's 8C read 6C at 0.4-0.58 for 16 s, then p3's last pile
    cards judged taken into the hand and a 6C from it laid on the 9C against Z6)."""
    move = pending.move
    if not isinstance(move, Play):
        return False
    zone = _landing(move)
    seen = judged(obs, zone) if zone is not None else None
    if seen is None or not (seen.top is None or seen.top_weak):
        return False
    if move.from_hand:
        return True
    top = state.seats[move.player].piles[move.source].top if isinstance(move.source, int) else None
    return top is not None and is_unseen(top)


def _in_view(pending: PendingIllegal, obs: Observation, seen_tops: Mapping[str, str]) -> bool:
    """Was the card of an illegal move seen leaving and read where it landed? A card laid where the
    camera cannot read it is no ground for a verdict (zen3 with run 7: an AC taken up in a hand, its
    pile showing a back, was judged joined against the rules onto a pile whose top the view did not
    read), nor is one taken from a pile the camera does not read (zen4: the far seat's 6D read on a
    second pile while the pile it lay on showed a card not read, judged joined there against Z3).
    A card read where it lay, and guessed as that very card where it landed, too unsurely to read,
    was seen landing (four players, seed 27: a 2C laid on a 4H, guessed 2C there at 0.12-0.29, then
    read 2S), unless the camera made that of the pile before (``seen_tops``, :func:`_seen_tops`): the
    guess says nothing of a move then (four players at 1280x720, kennard, seed 172 as analysed in the
    sixty-second session: a far pile guessed 6H at 0.1-0.2 for a minute, and the 6H learned for the
    pile beside it, whose top read 6C at 0.38, was judged joined onto it against Z3). A card whose pile
    still shows it, read unsurely where it landed, was not seen leaving (three players, seed 26: a
    centre JD read 5D at 0.42, and a pile's 5D judged laid on it against Z6, its twin turned up under
    it)."""
    move = pending.move
    zone = _landing(move)
    seen = judged(obs, zone) if zone is not None else None
    guessed_before = zone is not None and pending.card is not None and seen_tops.get(zone) == pending.card.code
    if seen is None or seen.top is None and (pending.card is None or seen.top_guess != pending.card.code or guessed_before):
        return False
    if isinstance(move, Play) and move.from_hand or not isinstance(move.source, int):
        return True
    left = judged(obs, pile_zone(move.player, move.source))
    if _shows_still(left, pending.card) and seen.top_weak:
        return False  # its pile shows it still (a twin under it?), and it is read unsurely where it landed
    if left is None:
        return False
    # its pile shows another card, or nothing; or a card not read that the camera makes out as another
    # one, where the card read surely where it landed (four players, seed 74 at 1920x1080: a 5C laid on
    # a 3D against Z6, its pile's next card still face down and guessed 4D at 0.19, was unrecognised)
    guessed_other = left.top_guess is not None and (pending.card is None or left.top_guess != pending.card.code)
    return left.top is not None or not left.cards or (guessed_other and not seen.top_weak)


def _conclude(
    live: LiveZenuwen, obs: Observation, best: Explanation[ZenuwenState], t: float, defer: bool = True
) -> tuple[LiveZenuwen, list[Finding]]:
    """The picture after one explanation of the view (``best``: final position, search node, target
    index, what the view reveals), or the view left unused (new centre cards not readable yet, a hand
    that may hide a move) or unrecognised (the series is not legal with the revealed cards)."""
    state, frame = live.state, obs.frame
    final, node, k, subs = best
    unread = unread_centre(_glimpsed_first(live, final), obs, final, final.centre, t, "turned", state.rules.deck_count, UNSEEN_AFTER)
    if isinstance(unread, Guessed):
        subs, obs = {**subs, **unread.subs}, unread.view(obs)
    elif unread is not None:
        waiting, found = unread  # (what the other centre piles show meanwhile may be covered by the next view)
        return _kept_from_unused(waiting, live, obs), found
    glimpsed = _glimpsed_turns(node, state, live.glimpsed)
    if glimpsed:
        node = replace(node, subs=tuple((u, glimpsed.get(u, c)) for u, c in node.subs),
                       guesses=tuple(u for u in node.guesses if u not in glimpsed))
        subs = {**subs, **glimpsed}
    replayed = ENGINE.replay(state, node.moves, subs, t, frame)
    if replayed is None:
        return replace(live, last=obs), [Finding("unrecognised", t, frame=frame, detail=_difference(state, obs))]
    new_state, findings = replayed
    if isinstance(unread, Guessed):
        findings = noted(findings, unread.note)
    # (a card judged as one that fits, unseen again: a stuck call it made rests on nobody's card)
    new_state, findings = ENGINE.without_unseen_stuck(state, _unguess(node, new_state, findings), findings)
    new_state, later = ENGINE.settle_calls(new_state, t, frame, _tops_guessed(new_state, obs), _laid_fits(state, new_state))
    findings += later
    # (a stuck call made on the camera's guesses rests on them, not on a clearer view)
    calls = any(f.kind == "call" and not dict(f.verdict.data).get("guessed") and not dict(f.verdict.data).get("answered")
                for f in findings)
    seen = read_as_guessed(read_where_guessed(obs, final.centre, AGREEING_GUESS_FLOOR), _joined_known(node.moves, state))
    if isinstance(unread, Guessed) and unread.unseen:
        seen = replace(seen, piles={z: p for z, p in seen.piles.items() if z not in unread.unseen})
    risky = (_covered_risk(state, final, seen) or _unconfirmed(node.moves, state, seen)
             or (calls and not _round_end_seen(findings, seen) and _unclear_for_calls(final, seen)))
    # (a play read where it landed in a view left unused was seen there: seed 186, the round's last
    # JD read on centre2 while a hand hovered, the pile then taken by the winner, who chose it)
    landed_unseen = [m for _, m, before, _ in _replayed(node.moves, substitute_cards(state, subs))
                     if not _glimpsed_play(m, before, live.glimpsed)]
    hidden = _under_hand(landed_unseen, seen) or _from_under_hand(state, node.state, subs, seen)
    # (nothing happened is a guess too where it learns a centre card nobody read as the top of a pile
    # under a hand: seed 126, the JS played from there onto the card it was taken for)
    if defer and live.deferred < MAX_UNDER_HAND and hidden:
        left = _left_unused(live, obs)
        quiet = len(node.moves) <= QUIET_MOVES and _landed_as_guessed(node.moves, new_state, seen)
        return (replace(left, risked=left.deferred) if quiet else left), []
    if defer and node.moves and live.deferred < MAX_DEFERRED and risky:
        left = _left_unused(live, obs)
        return (replace(left, risked=left.deferred) if len(node.moves) <= QUIET_MOVES else left), []
    after, findings = explained(live, new_state, findings, k, t, frame, _waiting)
    if not node.moves and live.glimpsed:
        # nothing happened, as far as a view that hides the piles under hands can tell: what views
        # left unused read on those piles still stands (three players, kennard_4c_big, seed 186: the
        # round's last card, a JD read on centre2 in a view left unused, its pile and centre2 under
        # hands next; the glimpse gone, the JD played and the JD taken into the hand stayed undecided)
        covered = unjudged(obs)
        after = replace(after, glimpsed=frozenset(g for g in live.glimpsed if g[0] in covered))
    return after, findings


def _joined_known(moves: Sequence[Any], state: ZenuwenState) -> dict[str, str]:
    """Pile zone -> the card a join of the series lays there, for each card the referee knows: a view
    that guesses it there (at least ``GUESS_FLOOR``) shows it, as a read would (four players, penguins,
    seed 143: a QC joined onto a QD, guessed QC at 0.06-0.26 there, left every view unused until the
    next turn, when the join and two plays after it could no longer be told apart). Pile tops in
    general stay out (:func:`~referee.speed_live.read_where_guessed`): only the card just laid there."""
    out = {}
    for _, m, before, after in _replayed(moves, state):
        zone = _landing(m)
        if isinstance(m, Join) and zone is not None and isinstance(m.source, int):
            card = before.seats[m.player].piles[m.source].top
            if card is not None and not is_unseen(card):
                out[zone] = card.code
        if after is None:
            break
    return out


def _concluded(before: LiveZenuwen, after: LiveZenuwen, findings: Sequence[Finding]) -> bool:
    """Did judging a view (or an input) come to a conclusion (not unused, unrecognised or unclear)?"""
    return after.deferred <= before.deferred and not any(f.kind in ("unrecognised", "ambiguous", "illegal") for f in findings)


def _undecided(
    live: LiveZenuwen, obs: Observation, options: list[tuple[LiveZenuwen, list[Finding]]], ambiguous: Finding
) -> tuple[LiveZenuwen, list[Finding]]:
    """A view several move series explain: when the view is clear (no hand over a pile, every card
    read) and each series comes to a conclusion, each series' picture is kept (``undecided``) and a
    later view decides (:func:`_decide`); nothing is reported until then. An unclear view is left
    to a clearer one, judged from the certain position."""
    if unclear(obs):
        return replace(live, last=obs), [ambiguous]
    # each picture remembers the tops as this view shows them, as a view taken does (:func:`observe`)
    kept = tuple((_remember_tops(live, obs, after), tuple(found)) for after, found in options if _concluded(live, after, found))
    if len(kept) != len(options) or len(kept) > MAX_UNDECIDED:
        return replace(live, last=obs), [ambiguous]
    if _over_alike(kept):
        return _round_ended_undecided(kept)
    return replace(live, last=obs, undecided=kept, waiting="a view that tells the move series apart"), [ambiguous]


def _outline(live: LiveZenuwen) -> tuple[Any, ...]:
    """The picture without the covered centre cards: two pictures with the same outline cannot be
    told apart by any later view (two decks: which copy went onto which pile)."""
    state = live.state
    return replace(state, centre=tuple(p[-1:] for p in state.centre)), tuple(len(p) for p in state.centre), live.pending


def _decide(
    live: LiveZenuwen,
    step: Callable[[LiveZenuwen], tuple[LiveZenuwen, list[Finding]]],
    fallback: Callable[[], tuple[LiveZenuwen, list[Finding]]],
    t: float,
    unclear_view: bool = False,
) -> tuple[LiveZenuwen, list[Finding]]:
    """Judge a view (or an input: ``step``) from each picture an undecided view left open. Those it
    does not fit drop out; a picture that only waits on the view (a hand over a pile, a card not down
    yet) stays in unless the view is clear and fits another one; then, as within one view, the fewest
    moves since the certain position win. One left: what it concluded then and now is reported (each
    finding with the time of its own view). Pictures with the same outline (:func:`_outline`) cannot
    be told apart by any later view: the first is taken, and so it is once the round is over in
    each (:func:`_round_ended_undecided`). Still several: ``ambiguous`` again (``t``). None fits, or
    too many: ``fallback`` (the view judged from the certain position)."""
    fitting: list[tuple[LiveZenuwen, tuple[Finding, ...]]] = []
    unclear: list[tuple[LiveZenuwen, tuple[Finding, ...]]] = []
    for alt, found in live.undecided:
        after, more = step(alt)
        if after.undecided:
            fitting += [(a, found + f) for a, f in after.undecided]
        elif after.deferred > alt.deferred or any(f.kind == "ambiguous" for f in more):
            unclear.append((after, found + tuple(f for f in more if f.kind != "ambiguous")))
        elif after.last is None and not any(f.kind in ("unrecognised", "illegal") for f in more):
            fitting.append((after, found + tuple(more)))
    kept = fitting + unclear if unclear_view or not fitting else fitting
    if not kept or len(kept) > MAX_UNDECIDED:
        return fallback()
    fewest = min(sum(1 for f in found if f.kind == "move") for _, found in kept)
    kept = [(a, found) for a, found in kept if sum(1 for f in found if f.kind == "move") == fewest]
    if len(kept) == 1 or all(_outline(a) == _outline(kept[0][0]) for a, _ in kept):
        after, found = kept[0]
        return after, list(found)
    if _over_alike(kept):
        return _round_ended_undecided(kept)
    names = "; ".join(", ".join(str(f.move) for f in found if f.kind == "move") or "nothing" for _, found in kept)
    return replace(live, undecided=tuple(kept)), [Finding("ambiguous", t, detail=f"still several move series fit: {names}")]


def _over_alike(kept: Sequence[tuple[LiveZenuwen, tuple[Finding, ...]]]) -> bool:
    """Is the round over in every picture, won by the same player, with the same cards left to each?
    Then the pictures differ only in cards covered in the centre piles (who went out, or who laid a
    card, tells series apart: the winner chooses first, then the fewest pile cards)."""
    first = kept[0][0].state
    return all(a.state.phase not in (Phase.TURN, Phase.PLAY) and (a.state.winner, a.state.seats) == (first.winner, first.seats) for a, _ in kept)


def _round_ended_undecided(kept: Sequence[tuple[LiveZenuwen, tuple[Finding, ...]]]) -> tuple[LiveZenuwen, list[Finding]]:
    """Move series still undecided when the round ends in each of them: no later view can tell them
    apart (they differ in cards covered in the centre piles, which leave the table face down with the
    pile taken), and waiting on them would leave the slap race unwatched and the next layout
    unexplained (three players, seed 121 at 1920x1080: a 10D laid while the centre piles were turned,
    read on two of them, covered before a view told which one it went on; the wait outlived the round
    and the whole second round was unrecognised). The first series is taken, as the search found it
    (the fewest moves, the usual ones first); the first of its moves the others differ in says so."""
    after, found = kept[0]
    series = [[str(f.move) for f in fs if f.kind == "move"] for _, fs in kept]
    first = series[0]
    at = next((i for i in range(len(first)) if any(i >= len(other) or other[i] != first[i] for other in series[1:])), 0)
    others = sorted({other[at] for other in series[1:] if at < len(other) and other[at] != first[at]})
    note = "the round ended before any view told this apart from " + " or ".join(others) if others else "the round ended undecided"
    moves = [i for i, f in enumerate(found) if f.kind == "move"]
    i = moves[at] if at < len(moves) else len(found)
    return after, list(found[:i]) + noted(list(found[i:]), note)


def _waiting(state: ZenuwenState) -> str:
    if state.phase is Phase.TURN:
        return "all players to turn a card (Z5)"
    if state.phase is Phase.CHOOSE:
        order = zenuwen.choice_order(state)
        if state.rules.pile_choice == "slap_race" and not state.raced:
            return "the slaps for the centre piles (Z10)"
        # the next layout tells the choices too (:func:`_new_layout`): nobody has to enter them
        return f"player {order[0] + 1} to choose a centre pile, or the next layout (Z10/Z11)" if order else ""
    if state.phase is Phase.NEXT:
        return "the next layout (Z11)"
    return ""


def _difference(state: ZenuwenState, obs: Observation) -> str:
    return difference(differing_zones(state, obs), obs)


# --- starting, new rounds ----------------------------------------------------------------------------


def _dealt(rules: ZenuwenRules, p: int) -> int:
    total = 52 * rules.deck_count
    return total // rules.players + (1 if p < total % rules.players else 0)


MAX_UNREAD_AT_START = 1 / 3
"""The share of the patience piles whose top the first view may show unread (or not at all: Z2 lays a
face-up card on each, so it is there, unseen). A stand-in takes its place and is learned when a view
reads it, as a card turned up unseen is; no move or call rests on it before. With three or four
players the side and far seats' small indices are read one view in two or three: a table that
waits for all fifteen or twenty tops at once may never start (three players, seed 26: four of the
side seat's five tops read at 0.15-0.28 in the one view without hands before the first turn, and
with a quarter allowed the game was never followed)."""


def start(observation: Observation, rules: ZenuwenRules | None = None) -> LiveZenuwen:
    """A new game from the first steady view of the layout (Z2): every patience pile shows its top card
    (pile K laid with K cards), all but ``MAX_UNREAD_AT_START`` of them read (one under a hand is not);
    centre cards may already lie (all readable) or not (the first move is the turn, Z5). The cards are
    dealt evenly (Z1); the rest of each player's share, less the card it turned onto its own centre
    pile if one lies there, is the unseen stock (before the fifty-fourth session a centre already turned
    left every stock a card too deep)."""
    rules = rules or ZenuwenRules()
    n = rules.players
    seats = []
    seen: list[Card] = []
    unread: list[str] = []
    centre: list[tuple[Card, ...]] = []
    for j in range(n):
        pile = observation.piles.get(centre_zone(j), SeenPile())
        if pile.cards:
            c = parse_seen(pile.top)
            if c is None:
                raise ValueError(f"cannot start: {centre_zone(j)} shows a card that cannot be read")
            centre.append((c,))
            seen.append(c)
        else:
            centre.append(())
    for p in range(n):
        piles = []
        for i in range(PILES):
            zone = pile_zone(p, i)
            pile = observation.piles.get(zone, SeenPile())
            # a pile under a hand is taken as one not read: with four players some hand is over the
            # table in nearly every view (four players, seed 172: the deal was taken only in the view
            # at 11.5 s, after the turn and two joins)
            c = None if pile.held else parse_seen(pile.top)
            if len(pile.cards) > 1 and not pile.held:
                raise ValueError(f"cannot start: {zone} must show exactly one face-up card")
            if c is None:
                unread.append(zone)
            else:
                seen.append(c)
            piles.append(ZPile(tuple(unseen() for _ in range(i)) + (c or unseen(),), 1))
        # a centre card already turned came from its owner's stock (Z5: onto the own centre pile)
        stock = tuple(unseen() for _ in range(_dealt(rules, p) - 15 - len(centre[p])))
        seats.append(ZSeat(tuple(piles), stock, (), bool(stock)))
    if len(unread) > int(n * PILES * MAX_UNREAD_AT_START):
        raise ValueError(f"cannot start: the tops of {', '.join(unread)} cannot be read")
    over = [c.code for c, k in Counter(seen).items() if k > rules.deck_count]
    if over:
        raise ValueError(f"cannot start: seen more often than {rules.deck_count} deck(s) hold: {', '.join(over)}")
    layout = Layout(tuple(seats), tuple(centre) if any(centre) else None)
    v = zenuwen.new_game(layout, rules, observation.t)
    opened: tuple[Finding, ...] = ()
    if all(len(pile) == 1 for pile in centre):
        # every centre pile shows the card its owner turned: the turn (Z5) was made before the camera
        # saw the layout, and is the game's first move (four players, seed 183: the deal seen only
        # once the centre was turned, the turn missing from the log)
        before = Layout(tuple(replace(seat, stock=pile + seat.stock) for seat, pile in zip(seats, centre)), None)
        turned = zenuwen.apply(zenuwen.new_game(before, rules, observation.t).state, Turn(observation.t))
        if isinstance(turned, Legal) and turned.state.centre == v.state.centre:
            v = turned
            opened = (Finding("move", observation.t, move=turned.move, verdict=turned, frame=observation.frame),)
    tops = _seen_tops({}, observation)
    # (how surely the deal's view read each top counts too: three players, kennard, seed 194, p3's QC
    # read 8C at 0.35 there and never again was not doubted where it lay, having no reading in place)
    return LiveZenuwen(v.state, moves=len(opened), waiting=_waiting(v.state), reads=count_reads({}, observation),
                       sure=surely_read(frozenset(), observation), seen_tops=tops, shown=frozenset(tops), opened=opened,
                       surest=best_in_place({}, _pile_readings(observation), lambda z: True))


def opening(live: LiveZenuwen) -> tuple[LiveZenuwen, list[Finding]]:
    """The moves :func:`start` found made before the layout was seen (the first turn), to be logged
    once: the picture without them, and them."""
    return replace(live, opened=()), list(live.opened)


def _choices(state: ZenuwenState, t: float) -> list[tuple[list[Legal[ZenuwenState]], ZenuwenState]]:
    """The ways the centre piles still free may have gone at a round's end (Z10/Z11): each a series of
    choices as judged and the position after them, every pile taken. The usual way (each player in
    turn takes the smallest free pile, as the engine assumes) comes first. Nothing left to choose:
    the position as it is. (A slap race is read as decided: the caller says so.)"""
    if state.phase is not Phase.CHOOSE:
        return [([], state)]
    order, free = zenuwen.choice_order(state), zenuwen.free_piles(state)
    usual = sorted(free, key=lambda i: (len(state.centre[i]), i))
    out: list[tuple[list[Legal[ZenuwenState]], ZenuwenState]] = []
    seen_takes: set[tuple[int | None, ...]] = set()
    for piles in sorted(permutations(free, min(len(order), len(free))), key=lambda x: list(x) != usual[: len(x)]):
        now, verdicts = state, []
        for player, pile in zip(order, piles):
            if now.phase is not Phase.CHOOSE:
                break  # the last chooser was given what was left
            v = zenuwen.apply(now, Choose(player, pile, t))
            if isinstance(v, Illegal):
                break
            verdicts.append(v)
            now = v.state
        if now.phase is Phase.CHOOSE:  # more free piles than choosers: the rest go by size
            now = zenuwen._complete_choices(now, t, [], all_by_size=True)
        if now.phase is Phase.NEXT and now.takes not in seen_takes:
            seen_takes.add(now.takes)
            out.append((verdicts, now))
    return out or [([], zenuwen._complete_choices(state, t, [], all_by_size=True))]


UNREAD_TOP = unseen()
"""Stands in a next layout's row (:func:`_fresh_layout`) for a top that shows but cannot be read."""


def _fresh_layout(packets: Sequence[int], obs: Observation) -> list[list[Card | None]] | None:
    """A view of the next round's layout, each player holding ``packets`` cards
    (:func:`referee.zenuwen.next_round_counts`): each player's Z11 piles show one top, all but
    ``MAX_UNREAD_AT_START`` of them read (an unread one, or one under a hand, is :data:`UNREAD_TOP`,
    learned when a view reads it, as at the first deal), the piles Z11 leaves empty nothing, the
    centre nothing."""
    for j in range(len(packets)):
        seen = judged(obs, centre_zone(j))
        if seen is None or seen.cards:
            return None
    tops: list[list[Card | None]] = []
    laid = unread = 0
    for p, packet in enumerate(packets):
        sizes, _ = zenuwen.layout_sizes(packet)
        row: list[Card | None] = []
        for i, size in enumerate(sizes):
            seen = judged(obs, pile_zone(p, i))
            if seen is None and size and pile_zone(p, i) in obs.piles:
                # under a hand, its top one not read (three players, kennard_big, seed 195: the one
                # view of the second round's layout before the turn had a hand over a far pile; no
                # choice had been seen, and the whole round was waited out)
                laid, unread = laid + 1, unread + 1
                row.append(UNREAD_TOP)
                continue
            if seen is None:
                return None
            if size == 0:
                if seen.cards:
                    return None
                row.append(None)
                continue
            laid += 1
            c = parse_seen(seen.top)
            if len(seen.cards) > 1 or (c is None and not seen.cards and not seen.backs):
                return None  # not laid yet, or not one pile
            if c is None:
                unread += 1
            row.append(c if c is not None else UNREAD_TOP)
        tops.append(row)
    return tops if unread <= int(laid * MAX_UNREAD_AT_START) else None


class _LaidOut(NamedTuple):
    layout: Layout
    subs: dict[Unseen, Card]
    known: int
    """How many of the tops seen are cards known to be in that player's packet (the evidence that
    tells which centre pile each player took)."""


def _laid_out(state: ZenuwenState, tops: list[list[Card | None]], weak: frozenset[tuple[int, int]] = frozenset()) -> _LaidOut | str:
    """Z11: each player's packet (``state``: every centre pile taken) laid out as seen: the seen tops on
    the piles, the rest unseen; or why the view cannot be that layout. A top read unsurely (``weak``:
    player, pile) that cannot be one of the player's cards is taken as not read, as long as no more
    tops than at the first deal are (four players, penguins, seed 127: a 10H read QH at 0.31-0.32, both
    queens of hearts in other packets, and the next round was never followed)."""
    subs: dict[Unseen, Card] = {}
    real = real_counts(state)
    seats = []
    known = 0
    laid = sum(c is not None for row in tops for c in row)
    spare = int(laid * MAX_UNREAD_AT_START) - sum(c is UNREAD_TOP for row in tops for c in row)
    for p, (packet, row) in enumerate(zip(zenuwen._packets(state), tops)):
        pool = list(packet)
        sizes, _ = zenuwen.layout_sizes(len(packet))
        chosen: list[Card | None] = []
        for i, c in enumerate(row):
            if c is None:
                chosen.append(None)
                continue
            if c is UNREAD_TOP:  # any card of the packet nobody has seen: learned when read
                stand_in = next((x for x in pool if isinstance(x, Unseen)), None)
                if stand_in is None:
                    return f"player {p + 1}'s new layout shows a top that cannot be read, and every card they hold is known"
                pool.remove(stand_in)
                chosen.append(stand_in)
                continue
            obj = next((x for x in pool if x is c), None)
            if obj is None:
                u = next((x for x in pool if isinstance(x, Unseen)), None)
                if u is not None and real[c] >= state.rules.deck_count and (p, i) in weak and spare > 0:
                    spare -= 1  # read unsurely as a card that cannot be theirs: taken as not read
                    pool.remove(u)
                    chosen.append(u)
                    continue
                if u is None or real[c] >= state.rules.deck_count:
                    return f"the new layout shows {c.code} on player {p}'s piles: not one of the cards they hold (Z11)"
                assert isinstance(u, Unseen)
                subs[u] = c
                real[c] += 1
                obj = u
            else:
                known += 1
            pool.remove(obj)
            chosen.append(obj)
        piles = []
        for size, top in zip(sizes, chosen):
            if size == 0:
                piles.append(ZPile())
                continue
            assert top is not None
            under = tuple(pool[: size - 1])
            del pool[: size - 1]
            piles.append(ZPile(under + (top,), 1))
        seats.append(ZSeat(tuple(piles), tuple(pool), (), bool(pool)))
    return _LaidOut(Layout(tuple(seats)), subs, known)


def _best_layout(
    choices: list[tuple[list[Legal[ZenuwenState]], ZenuwenState]], obs: Observation
) -> tuple[tuple[list[Legal[ZenuwenState]], ZenuwenState, _LaidOut] | None, str]:
    """Of the ways the centre piles may have gone, the one whose layout the view shows with the most
    tops known to be in their player's packet (the first of equals); else why the view is no layout
    of any ("": not a layout at all)."""
    best: tuple[list[Legal[ZenuwenState]], ZenuwenState, _LaidOut] | None = None
    why = ""
    if not choices:
        return best, why
    weak = frozenset((p, i) for p in range(choices[0][1].players) for i in range(PILES)
                     if (seen := judged(obs, pile_zone(p, i))) is not None and seen.top_weak)
    known: list[int] = []
    for verdicts, after in choices:
        tops = _fresh_layout(zenuwen.next_round_counts(after), obs)
        if tops is None:
            continue
        laid = _laid_out(after, tops, weak)
        if isinstance(laid, str):
            why = why or laid
            continue
        known.append(laid.known)
        if best is None or laid.known > best[2].known:
            best = (verdicts, after, laid)
    # a pile under a hand may hold a top that tells the choices apart: a view with it decides only
    # where that many more tops could not (three players, seed 193: p1's three piles under a hand, the
    # pile p1 took told by one top more for the other; the next view, without the hand, told it right)
    hidden = sum(1 for p in range(choices[0][1].players) for i in range(PILES)
                 if (seen := obs.piles.get(pile_zone(p, i))) is not None and seen.held)
    if best is not None and hidden and len(known) > 1 and best[2].known - sorted(known)[-2] <= hidden:
        return None, ""
    return best, why


def _new_layout(live: LiveZenuwen, obs: Observation, t: float) -> tuple[LiveZenuwen, list[Finding]] | None:
    """The next round (Z11) from a view of its layout; None: the view is not one.

    Which centre pile each player took is told by the layout when nobody entered it (two players:
    both piles leave the table at once; a camera cannot tell whose hand took which): the cards the
    players laid out must be theirs, and a top seen in a centre pile during the round says whose
    packet it went to. The choices that explain the most tops so are reported as made (ties: the
    usual choice, the smallest pile). When no way the free piles may have gone fits, but the layout
    fits the piles taken otherwise than the camera saw or a person entered, the layout wins: the
    piles are reported taken as it shows, with a note."""
    state = live.state
    # a slap race nobody entered and the camera did not see (its hands over the centre while the
    # referee was not watching): the layout tells who took which pile, as it tells the choices
    unraced = state.phase is Phase.CHOOSE and state.rules.pile_choice == "slap_race" and not state.raced
    best, why = _best_layout(_choices(replace(state, raced=True) if unraced else state, t), obs)
    redone = "no slap for the centre piles was seen: the next layout shows who took which" if unraced else ""
    if best is None and why and any(x is not None for x in state.takes):
        # the layout fits the piles taken otherwise than seen or entered (a slap credited to the
        # neighbouring pile: two players, slap race, seed 116): the layout wins
        again = replace(state, phase=Phase.CHOOSE, takes=(None,) * state.players, raced=True)
        best, _ = _best_layout(_choices(again, t), obs)
        redone = "the next layout shows the centre piles went otherwise than entered or seen"
    if best is None:
        return (replace(live, last=None), [Finding("unrecognised", t, frame=obs.frame, detail=why)]) if why else None
    verdicts, after, laid = best
    v = zenuwen.apply(after, NewRound(t, laid.layout))
    if isinstance(v, Illegal):
        return live, [Finding("illegal", t, move=v.move, rule=v.rule, reason=v.reason, frame=obs.frame)]
    findings = [f for c in verdicts for f in ENGINE.move_findings(c, ENGINE.face_down_unseen(c.state), t, obs.frame)]
    if redone:
        findings = noted(findings, redone)
    live, started = ENGINE.round_started(replace(live, state=after), v, NewRound(t), laid.subs, t, obs.frame, _waiting)
    return live, findings + started


def new_round(live: LiveZenuwen, observation: Observation, t: float | None = None) -> tuple[LiveZenuwen, list[Finding]]:
    """Explicit input: the next round (Z11) starts from this view of the new layout; ``t``
    (default: the view's time) is when it was asked for."""
    if live.undecided:
        fresh = replace(live, undecided=())
        when = max(observation.t, t or 0.0, live.state.t)
        return _decide(live, lambda alt: new_round(alt, observation, t), lambda: new_round(fresh, observation, t), when)
    observation = later_view(observation, t)
    t = max(observation.t, live.state.t)
    if live.state.phase not in (Phase.CHOOSE, Phase.NEXT):
        v = zenuwen.apply(live.state, NewRound(t))
        assert isinstance(v, Illegal)
        return live, [Finding("illegal", t, move=v.move, rule=v.rule, reason=v.reason, frame=observation.frame)]
    started = _new_layout(live, observation, t)
    if started is None:
        detail = "new round: every pile of the new layout must show one readable card and the centre be empty"
        return live, [Finding("unrecognised", t, frame=observation.frame, detail=detail)]
    return started


# --- explicit inputs ---------------------------------------------------------------------------------


def _explicit(live: LiveZenuwen, move: Choose | Slap) -> tuple[LiveZenuwen, list[Finding]]:
    if live.undecided:
        return _decide(live, lambda alt: _explicit(alt, move), lambda: _explicit(replace(live, undecided=()), move), move.t)
    return ENGINE.judge_input(live, move, _waiting, observe)


def slappers(live: LiveZenuwen) -> frozenset[int]:
    """While a round's slap race for the centre piles is open (Z10 ``slap_race``): every player, so
    the camera reports the first hand on a centre pile as that player's slap (as a Stress slap is
    seen); none once the race is decided or under ``winner_chooses``. Move series still undecided
    (who went out, when two players held the card laid last): while the race is open in each."""
    pictures = [a.state for a, _ in live.undecided] or [live.state]
    if any(s.phase is not Phase.CHOOSE or s.rules.pile_choice != "slap_race" or s.raced for s in pictures):
        return frozenset()
    return frozenset(range(live.state.players))


def choose(live: LiveZenuwen, player: int, t: float, pile: int) -> tuple[LiveZenuwen, list[Finding]]:
    """Explicit input (Z10/Z11 ``winner_chooses``): ``player`` takes centre pile ``pile`` at ``t``. Out
    of turn, a taken or empty pile: an ``illegal`` finding (nothing to take back)."""
    return _explicit(live, Choose(player, pile, max(t, live.state.t)))


def slap(live: LiveZenuwen, player: int, t: float, pile: int, seen: bool = False) -> tuple[LiveZenuwen, list[Finding]]:
    """Explicit input (Z10 ``slap_race``): ``player`` slapped centre pile ``pile`` at ``t``; the first
    slap gets the pile, the others then choose in the Z11 order. (``seen``: by the camera, not a key
    press; judged alike, the race's centre cards all read.)"""
    return _explicit(live, Slap(player, pile, max(t, live.state.t)))


# --- what the live referee shows and announces -------------------------------------------------------


def public_state(live: LiveZenuwen) -> dict[str, object]:
    """The position as players may see it: face-down cards and hands as counts, unseen cards None."""
    state = live.state
    players: list[dict[str, object]] = [
        {
            "piles": [{"down": len(p.cards) - p.up, "up": [seen_code(c) for c in p.visible]} for p in s.piles],
            "stock": len(s.stock),
            "hand": len(s.hand),
        }
        for s in state.seats
    ]
    order = zenuwen.choice_order(state) if state.phase is Phase.CHOOSE else []
    choosing = order[0] if order and not (state.rules.pile_choice == "slap_race" and not state.raced) else None
    return public_picture(live, players, str, wins=list(state.wins), takes=list(state.takes),
                          choosing=choosing, free_piles=zenuwen.free_piles(state) if choosing is not None else [],
                          laid_out_stock=[s.laid_out_stock for s in state.seats])  # (Z12: a round won without one wins the match)


def rejoin(live: LiveZenuwen, obs: Observation) -> LiveZenuwen | None:
    """For a referee that has lost the game (nothing explained several views in a row;
    :data:`cardref.live.REJOIN_AFTER`), the next round taken up from a view of its layout: the centre
    empty while the position had cards there, no hand over the table, each pile showing one card (all
    but ``MAX_UNREAD_AT_START`` read), pile K laid with K cards (Z11). The round's end and the piles
    taken were not seen: the match's rounds won stay as they were; each player's packet is taken as
    the cards the position gave them and an even share of the centre piles, the stock what the piles
    leave (none where the view shows no stock). A lost game is not taken up in the middle of a round:
    how deep each pile is no view shows, and a position with the wrong depths is lost again at the
    next pile emptied (three players, penguins, seed 142, replayed without its fix: a rejoin in the
    middle of the round was lost again within a minute, then took the next layout for the same round).
    None: no such view."""
    state = live.state
    if state.phase not in (Phase.PLAY, Phase.TURN) or not any(state.centre) or any(p.held for p in obs.piles.values()):
        return None
    # (no backs where the centre was, nor a pile showing only its backs: as at the first deal, a layout
    # shows its tops; the rest a layout must show, _fresh_layout asks)
    zones = [centre_zone(j) for j in range(state.players)] + [pile_zone(p, i) for p in range(state.players) for i in range(PILES)]
    if any((seen := judged(obs, z)) is not None and not seen.cards and seen.backs for z in zones):
        return None
    share = sum(map(len, state.centre)) // state.players
    packets = [seat.count + share for seat in state.seats]
    laid = _fresh_layout(packets, obs)
    if laid is None:
        return None
    shown = [c for row in laid for c in row if c is not None and c is not UNREAD_TOP]
    if any(k > state.rules.deck_count for k in Counter(shown).values()):
        return None
    seats = []
    for p, (packet, row) in enumerate(zip(packets, laid)):
        sizes, _ = zenuwen.layout_sizes(packet)
        piles = tuple(ZPile(tuple(unseen() for _ in range(size - 1)) + (unseen() if top is None or top is UNREAD_TOP else top,), 1)
                      if size else ZPile() for size, top in zip(sizes, row))
        stock = stock_as_seen(max(packet - sum(sizes), 0), judged(obs, stock_zone(p)))
        seats.append(ZSeat(piles, tuple(unseen() for _ in range(stock)), (), bool(stock)))
    fresh = zenuwen.new_game(Layout(tuple(seats)), state.rules, obs.t).state
    again = replace(fresh, round=state.round + 1, wins=state.wins, t=max(state.t, obs.t))
    tops = _seen_tops({}, obs)
    return LiveZenuwen(again, moves=live.moves, waiting=_waiting(again), reads=count_reads(live.reads, obs), sure=surely_read(live.sure, obs), seen_tops=tops,
                       shown=frozenset(tops))


def resume(picture: Mapping[str, Any], rules: ZenuwenRules | None = None, t: float = 0.0) -> LiveZenuwen:
    """The running picture of a game taken up again from the referee's last picture of it
    (:func:`public_state`: a game log's last position): the cards it shows read are known; the
    face-down pile cards, stocks, hands and cards shown unread are stand-ins. The round's winner is the
    player without pile cards once it is over. ValueError: not a position of this game."""
    rules = rules or ZenuwenRules()

    try:
        phase = Phase(picture["phase"])
        stocked = picture.get("laid_out_stock") or [True] * rules.players
        seats = []
        for s, had in zip(picture["players"], stocked, strict=True):
            piles = tuple(ZPile(tuple(unseen() for _ in range(pile_size(p["down"]))) + tuple(from_code(c) for c in p["up"]),
                                len(p["up"])) for p in s["piles"])
            seats.append(ZSeat(piles, tuple(unseen() for _ in range(pile_size(s["stock"]))),
                               tuple(unseen() for _ in range(pile_size(s.get("hand", 0)))), bool(had)))
        centre = tuple(tuple(from_code(c) for c in p) for p in picture["centre"])
        if len(seats) != rules.players or len(centre) != rules.players or any(len(z.piles) != PILES for z in seats):
            raise ValueError(f"{rules.players} players, each with {PILES} piles, and as many centre piles")
        shown = [c for z in seats for p in z.piles for c in p.visible] + [c for p in centre for c in p]
        over = sorted({c.code for c, k in Counter(c for c in shown if not is_unseen(c)).items() if k > rules.deck_count})
        if over:
            raise ValueError(f"{', '.join(over)} shown more often than {rules.deck_count} deck(s) hold")
        takes = tuple(None if x is None else int(x) for x in picture.get("takes", [None] * rules.players))
        ended = phase in (Phase.CHOOSE, Phase.NEXT)
        winner = next((p for p, z in enumerate(seats) if z.pile_cards == 0), None) if ended else None
        state = ZenuwenState(rules, tuple(seats), centre, phase, t=t, round=int(picture.get("round", 1)), winner=winner,
                             takes=takes, raced=any(x is not None for x in takes),
                             wins=tuple(int(x) for x in picture.get("wins", [0] * rules.players)))
        moves = int(picture.get("moves", 0))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"not a position of this Zenuwen game: {exc}") from None
    tops = {pile_zone(p, i): pile.top.code for p, z in enumerate(seats) for i, pile in enumerate(z.piles)
            if pile.top is not None and not is_unseen(pile.top)}
    reads = dict(Counter(c.code for c in shown if not is_unseen(c)))
    return LiveZenuwen(state, moves=moves, waiting=_waiting(state), reads=reads, seen_tops=tops, shown=frozenset(tops))


def ending(live: LiveZenuwen, t: float) -> tuple[str, Event] | None:
    """Z12: once a player has won the match: ``(result, call)``."""
    end = zenuwen.outcome(live.state)
    if end is None or not end.match_over:
        return None
    gejast = ", ".join(f"player {p + 1}" for p in end.gejast)  # as the screens name seats: from 1
    winner = f"player {end.winner + 1}"
    return winner, Event("won", t=t, player=end.winner, detail=f"{winner} wins the match; {gejast} gejast")


def involved_cards(live: LiveZenuwen, finding: Finding) -> list[str]:
    """The cards an illegal move involves (the moved card and what it landed on)."""
    state, move = live.state, finding.move
    if isinstance(move, Play) and move.from_hand and isinstance(move.source, Card) and isinstance(move.to, int):
        centre = state.centre[move.to]
        return [move.source.code] + shown_codes(centre[-1] if centre else None)
    if not isinstance(move, (Play, Join)) or not isinstance(move.source, int):
        return []
    piles = state.seats[move.player].piles
    onto: Card | None = None
    if isinstance(move, Play) and isinstance(move.to, int) and state.centre[move.to]:
        onto = state.centre[move.to][-1]
    if isinstance(move, Join) and isinstance(move.onto, int):
        onto = piles[move.onto].top
    return shown_codes(piles[move.source].top, onto)


def rules_spec(rules: ZenuwenRules) -> str:
    return to_spec(rules)
