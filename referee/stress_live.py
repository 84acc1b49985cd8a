"""Following a real Stress game from what the camera sees (issue 6: move inference for the speed games).

Stress has no turns: between two steady views both players may have played, a play and its refill may
be seen together or apart, and new centre cards are laid by both at once. The referee keeps a full
:class:`~referee.stress.StressState` in which every card nobody has seen yet (the stocks, a refill not
yet shown) is an :class:`Unseen` stand-in: a card object of its own whose rank fits nothing, so the
engine never lets an unseen card decide a verdict or a call. When the camera shows the card, the
stand-in is replaced by the real card (``learned`` on the finding). Cards that go back face down (a
stress penalty, S9 centre piles taken as stock) become stand-ins again: their order is not seen.

From the confirmed position and a new steady observation:

1. the table as expected: nothing happened (cards it shows for the first time are learned);
2. a short series of legal single-player moves explains it (breadth first: the fewest moves win; at
   most ``MAX_PER_PLAYER`` moves per player and ``MAX_DEPTH`` moves per view, engine time order):
   each is a ``move`` finding, and every call the engine makes on the way (``stress``, ``stuck``,
   ``round_over``, ``match_over``) follows as a ``call`` finding with the time of this view. Among
   series of equal length the one that assumes the fewest cards nobody had seen wins, then the one
   that spreads the moves most evenly over the players; moves of different players on different
   piles are tried in seat order only (the order cannot be seen and does not change the table,
   unless a call comes between: then both orders are tried). Several different explanations left:
   ``ambiguous`` (wait for a clearer view, nothing is concluded);
3. only a move that breaks a rule explains it (a play or stack by hand, with or without its refill,
   or new centre cards laid while someone can play; possibly after legal moves of the other player):
   an ``illegal`` finding with the rule and reason; the game waits for it to be taken back
   (``taken_back``) while the other player may go on playing (their moves are judged under it);
   while a stress is open, a view in which the centre piles were already taken (or new cards laid)
   waits silently for the slaps;
4. nothing explains it: ``unrecognised``, the position stays as it was; no move is invented.

The camera's reading is settled by the rules: an unreadable card (``None``) fits whatever the engine
expects there, and only the moves the engine allows are tried, so a card read as 6-or-8 is the one
that fits. A row place seen empty where the engine already refilled it with an unseen card is
accepted (the refill is not laid yet); its card is learned when it shows. Held zones are not judged.
A ``stuck`` call is made only when every row top and centre top has been seen (an unseen refill might
be playable); it is made on the first view that shows them. A card the camera never reads (a penguins
queen) would hold it back for good: in a view no hand covers, with every unread top guessed (however
faintly) as a card not known elsewhere, the guesses make the call, which says so (``guessed``); a
play as the next move proves it wrong, and it is withdrawn (``withdrawn``). Within one view only a
position still stuck at its end is called (a stuck moment between two moves of the view rests on an
unseen order).
A stress (S8) concerns only the two centre tops: it is called on the first view that shows both in
the clear (not under a hand, read), whatever hands are still over the rows or stocks (the playing
hand refilling its row, a hand leaving after the new centre cards). A view that would make any other
call (stuck: every row top counts), or a stress while a centre pile is under a hand or not read, is
left unused (the hand may hide another play), up to ``MAX_DEFERRED`` views in a row. So is a view whose
explanation takes a card from a row place under a hand and covers it with a later card (nothing in
the view shows that move: a 5H laid on a 7H, S6, is also "the 6D under the hand first, then the 5H");
it is judged again once that place shows its card still there (``LiveStress.held_back``). A view left
unused for a call is kept (``LiveStress.call_held``): taken after all when the next view follows only
from it, or follows from it through more moves than from the position before (what it showed was
covered since). New centre cards that cannot be read are
not accepted yet (``ambiguous``): the stress and stuck calls depend on them.

**Inputs the camera cannot give** (the web app's key press or screen tap calls them, through
``Follower.inputs`` and ``LiveReferee.act(name, t, **kwargs)``; each returns ``(live, findings)``
like :func:`observe`):

- :func:`slap` ``(live, player, t, pile=0)``: player ``player`` (0 or 1) slapped centre pile ``pile``
  at ``t`` (S8). The first slap is safe, the second settles the stress. A slap when the tops do not
  match is an ``illegal`` finding (S8 false slap) with nothing to take back. Steady table states
  cannot show a slap (a hand over a centre pile is only ``held``, from no side): whatever sees it
  first (a key press or tap, or a hand detector that knows the side) calls this, in time order.
  While a centre top nobody read may match the other, no stress can be called, but the players may
  see one: :func:`slappers` asks for their hands all the same, and what they did is kept until a view
  shows both centre piles taken (a stress, judged then) or a card played onto one (no slaps).
- :func:`new_round` ``(live, observation, t=None)``: start the next round (S11) from a view of the new deal.
  Not needed in the normal case: after ``round_over`` a view showing a fresh deal (four readable cards
  in each row, empty centre) starts the next round by itself.

Zone names (``calibration.templates``): ``p1.pile1`` .. ``p1.pile4``, ``p1.stock``, ``p2.pile1`` ..
``p2.pile4``, ``p2.stock``, ``centre1``, ``centre2``. Seat ``pN`` is engine player ``N-1``; ``pileK`` is
row place ``K-1``; ``centreK`` is centre pile ``K-1`` (the one player ``K-1`` lays on).

The start (:func:`start`) reads both rows (and the centre cards, if laid) and takes the stocks to be
the rest of 26-card halves (S1); a game joined later, or a deal that splits the deck otherwise, shows
up as unrecognised changes when a stock runs out earlier or later than counted.

What both speed games share (stand-ins, matching a view, the search, the replay, pending illegal
moves, inputs, new rounds) is in :mod:`referee.speed_live`; its names used here are importable from
this module too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from functools import partial
from types import MappingProxyType
from typing import Any, Callable, ClassVar, Iterable, Iterator, Mapping, Sequence

from . import stress
from .cards import SUITS, Card, card_of
from .observation import DOUBT_BELOW, Finding, Observation, SeenPile, count_reads, parse_seen, pile_size, reads_of_view, stirred_after, surely_read
from .options import to_spec
from .speed_live import (
    Binder, Engine, Explanation, GUESS_FLOOR, best_in_place, centre_faces, centre_reads, Live, Node, Unseen, best_explanations, breadth_first, centre_zone, deferred, difference, from_code,
    differing, explained, fits, hide_cards, is_unseen, judged, later_view, moved, pile_number,
    pile_zone, public_picture, real_counts, seat_zone, seen_code, shown_codes, stock_zone, swap_cards, targets,
    unclear, unjudged, unread_centre, unseen, Guessed, UNSEEN_AFTER, noted, read_anew, read_where_guessed,
    read_as_guessed, guess_of, bare, AGREEING_GUESS_FLOOR, call_findings, stock_as_seen, tops_guessed,
    stuck_refuted, stuck_since, lost_as_unread, unread_top, unread_unknown, laid_fits, read_anew_where_still,
)
from .stress import Lay, NewRound, Phase, Play, Seat, Slap, Stack, StressDeal, StressRules, StressState
from .verdict import Event, Illegal, Legal

MAX_DEPTH = 3
"""Most moves one view may explain (all players together; a lay counts once)."""
MAX_PER_PLAYER = 2
"""Most moves of one player one view may explain."""
MAX_DEFERRED = 3
"""Views in a row that may be left unused because they would make a call while a zone is not seen."""

CENTRE_ZONES = (centre_zone(0), centre_zone(1))
CARD_CALLS = frozenset({"stress", "stuck"})
"""The calls that rest on the cards on top (a round's end rests on the winner's places being empty)."""
Laid = Mapping[Unseen, tuple[str, float] | None]
"""Refills nobody has read, seen lying in their row places -> what the camera last guessed each as, and
how surely (from ``AGREEING_GUESS_FLOOR`` on; :func:`laid_guess`)."""
NOTHING_LAID: Laid = MappingProxyType({})
row_zone = pile_zone
"""Row place ``place`` of ``player``: ``p{seat}.pile{K}``."""


def laid_guess(laid: Laid, u: Unseen, floor: float = GUESS_FLOOR) -> str | None:
    """What the camera last guessed ``u`` as, lying in its place, if it scored at least ``floor``: a
    guess from ``GUESS_FLOOR`` on may say a card is another; a fainter one only agrees (the same
    card guessed where the refill went: :func:`_stacked_unread`)."""
    guess = laid.get(u)
    return guess[0] if guess is not None and guess[1] >= floor else None


def substitute_cards(state: StressState, subs: Mapping[Unseen, Card]) -> StressState:
    """The position with stand-ins replaced by the real cards."""
    if not subs:
        return state
    seats = tuple(Seat(swap_cards(s.stock, subs), tuple(swap_cards(p, subs) for p in s.row)) for s in state.seats)
    return replace(state, seats=seats, centre=tuple(swap_cards(p, subs) for p in state.centre))


def _face_down_unseen(state: StressState) -> StressState:
    """Cards back in a stock are face down again and their order is not seen: stand-ins."""
    if all(is_unseen(c) for s in state.seats for c in s.stock):
        return state
    return replace(state, seats=tuple(Seat(hide_cards(s.stock), s.row) for s in state.seats))


def _tops(state: StressState) -> list[Card]:
    return [p[-1] for s in state.seats for p in s.row if p] + [p[-1] for p in state.centre if p]


ENGINE: Engine[StressState] = Engine(
    stress.apply, stress.CALLS, stress._finish, substitute_cards, _face_down_unseen, _tops, lambda s: s.phase is Phase.PLAY,
    lambda move: isinstance(move, Lay),
)


@dataclass(frozen=True, slots=True)
class PendingIllegal:
    """An illegal move on the table: the move, its verdict, and how it changed the table physically
    (``refilled``: the player also took a refill from the stock)."""

    move: Play | Stack | Lay
    verdict: Illegal
    refilled: bool


@dataclass(frozen=True, slots=True)
class LiveStress(Live[StressState, PendingIllegal]):
    """The referee's running picture of a real Stress game."""

    held_back: Observation | None = field(default=None, compare=False)
    """A view left unused because its only explanation took a card from a row place under a hand and
    covered it (:func:`_unseen_and_covered`); judged again once that place shows what it held."""
    call_held: Observation | None = field(default=None, compare=False)
    """The last view left unused because a call it made rested on a zone not seen: when a later view
    nothing explains from the position before it, the held view is taken after all and the later
    view judged from there (:func:`_judge_call_held`)."""
    held_piles: tuple[int, ...] = field(default=(), compare=False)
    """How many cards each centre pile holds once ``call_held`` is taken (:func:`slap_key`)."""
    laid: Laid = field(default_factory=dict, compare=False)
    """Refills nobody has read that a view the referee took showed lying in their row places, each
    with what the camera last guessed it as: such a place seen empty again is a card gone, not a
    refill the player has yet to lay (:func:`_laid`)."""
    unlaid: frozenset[Unseen] = field(default=frozenset(), compare=False)
    """Refills nobody has read whose row place the last view the referee took showed bare: not laid
    yet. Such a card that leaves before any view shows it lying is the one the place shows next,
    not one laid, moved on and followed by another refill unseen (:func:`_unlaid`)."""
    played_unseen: frozenset[Unseen] = field(default=frozenset(), compare=False)
    """Row cards nobody read, played onto a centre pile and judged as a card that fits (not judged).
    A reading of one that would not fit on the card under it is taken as a card not read when less
    sure than ``DOUBT_BELOW`` (:func:`_fitting_reads`), else as another card come onto the pile (a
    lay after a stress nobody could call); nor is such a pile seen bare a new centre card not down
    yet (:func:`_zone_ok`)."""
    unread_tops: Mapping[Unseen, tuple[str, float]] = field(default_factory=dict, compare=False)
    """Centre tops nobody read -> what the camera last made of each, however unsure (read or
    guessed), and how sure: the cards a stress judged by the players' slaps is taken to be on
    (:func:`_taken_unread`)."""
    glimpsed: frozenset[tuple[str, str]] = field(default=frozenset(), compare=False)
    """(centre zone, card) read in the views left unused since the last one taken: of several series
    that explain a view, the one that plays a card where a view read it (:func:`_glimpses_kept`)."""
    surely_glimpsed: frozenset[tuple[str, str]] = field(default=frozenset(), compare=False)
    """Of ``glimpsed``, the centre tops read at least ``DOUBT_BELOW``: a series must keep them
    (:func:`_keeping_seen`)."""
    held_slaps: tuple[tuple[int, float, int], ...] = field(default=(), compare=False)
    """Slaps (player, time, pile) made while a view was held for a call it could not be sure of
    (``call_held``): the players saw the stress the referee could not read yet; judged once the held
    view is taken and its stress called (:func:`_slapped_while_held`)."""
    guessed: frozenset[Card] = field(default=frozenset(), compare=False)
    """New centre cards taken from the camera's guesses (:func:`unread_centre`) that no view the referee
    took has read since: a guess lets the game go on, it does not make the card (:func:`_doubt_guessed`)."""
    undo: tuple[LiveStress, Legal[StressState]] | None = field(default=None, compare=False)
    """The picture before the last move the referee took, while that move was a play of a card nobody
    had read (judged as a card that fits, so not judged) and no move has been taken since: a view
    showing the table as it was before it says the card was taken back (:func:`_undone`)."""
    slapped_unread: UnreadSlaps | None = field(default=None, compare=False)
    """Slaps made while a centre top nobody read might match the other, so no stress could be called:
    judged when a view shows both centre piles taken (:func:`_taken_unread`), forgotten once a centre
    top changes."""
    untold: int = field(default=0, compare=False)
    """Cards the referee knows went into a stock without knowing whose: centre piles seen taken after
    a stress it could not see (:func:`_taken_untold`), or what a game taken up again lacks of the whole
    deck (:func:`rejoin`). They are given to a stock the view shows holding cards where the position
    runs short, when nothing else explains the view (:func:`_judge_untold`); a new round forgets them."""
    stirred: frozenset[str] = field(default=frozenset(), compare=False)
    """Zones the camera saw something move over in the views since the last one the referee took
    (:func:`_from_still_places`)."""
    place_reads: Mapping[str, tuple[str, float]] = field(default_factory=dict, compare=False)
    """Row place -> the card the views the referee took read lying there, and how surely at most,
    while they read that card there (:func:`_doubt_in_place`)."""
    place_best: Mapping[tuple[str, str], float] = field(default_factory=dict, compare=False)
    """(row place, card) -> how surely at most the views the referee took read that card there, since
    the position's card there last changed (:func:`_suit_misread`)."""
    carried: ClassVar[tuple[str, ...]] = ("untold",)


@dataclass(frozen=True, slots=True)
class UnreadSlaps:
    """Slaps ``(player, t, pile)`` made on the centre tops ``tops`` while one of them was never read."""

    tops: tuple[Card | None, ...]
    slaps: tuple[tuple[int, float, int], ...]


def _centre_tops(state: StressState) -> tuple[Card | None, ...]:
    return tuple(p[-1] if p else None for p in state.centre)


def _may_be_stress(state: StressState) -> bool:
    """Might the centre tops match, unknown to the referee? Both piles hold cards and one top or both
    were never read (a stand-in's rank fits nothing, so the engine calls no stress on it)."""
    tops = _centre_tops(state)
    return state.phase is Phase.PLAY and None not in tops and any(is_unseen(c) for c in tops)


def _zone_ok(state: StressState, zone: str, seen: SeenPile, b: Binder, pending_refill: list[int],
             laid: Laid = NOTHING_LAID, played: frozenset[Unseen] = frozenset()) -> bool:
    """Does one seen zone fit the position? (``pending_refill`` counts refills not laid yet per player;
    ``laid``: refills seen lying in their places, which an empty place does not fit; ``played``: row
    cards nobody read, played onto a centre pile: such a top is no new centre card not down yet, nor
    a card read there that may not go on the card under it.)"""
    if zone in CENTRE_ZONES:
        j = CENTRE_ZONES.index(zone)
        pile = state.centre[j]
        if not seen.cards:
            # empty, or a new centre card the engine laid that is not down yet
            return not pile or isinstance(pile[-1], Unseen) and pile[-1] not in played
        if _misfits_played(pile, parse_seen(seen.cards[-1]), played, state.rules.wrap):
            return False  # judged as a card that fits: the pile has changed since (penguins, seed 70)
        return b.card(pile[-1] if pile else None, seen.cards[-1])
    at = seat_zone(zone, state.seats)
    if at is None:
        return True
    p, seat, place = at
    if place == "stock":
        if seen.backs is None and not seen.cards:
            return True
        has = bool(seen.cards) or bool(seen.backs)
        return has == bool(seat.stock) or (has and not seat.stock and pending_refill[p] > 0)
    i = pile_number(place)
    if i is None or not 0 <= i < len(seat.row):
        return True
    pile = seat.row[i]
    if not seen.cards:
        if not pile:
            return True
        if len(pile) == 1 and isinstance(pile[0], Unseen) and pile[0] not in laid:
            pending_refill[p] += 1  # refilled by the engine, the card is not laid yet
            return True
        return False
    return b.card(pile[-1] if pile else None, seen.cards[-1])


def _misfits_played(pile: Sequence[Card], read: Card | None, played: frozenset[Unseen], wrap: bool) -> bool:
    """Is ``read`` a card that may not go where the pile's top, a row card nobody read played there
    (``played``), went: on the known card under it?"""
    return (len(pile) > 1 and pile[-1] in played and not is_unseen(pile[-2]) and read is not None
            and not stress._fits(read, pile[-2], wrap))


def _zone_order(obs: Observation) -> list[str]:
    # rows before stocks: a stock seen non-empty may be excused by a refill not laid yet
    return sorted(obs.piles, key=lambda z: z.endswith(".stock"))


def match(state: StressState, obs: Observation, laid: Laid = NOTHING_LAID, played: frozenset[Unseen] = frozenset()) -> dict[Unseen, Card] | None:
    """What the observation reveals if it fits the position (stand-in -> card), else None."""
    pending = [0] * len(state.seats)

    def check(zone: str, seen: SeenPile, b: Binder) -> bool:
        return _zone_ok(state, zone, seen, b, pending, laid, played)

    return fits(obs, _zone_order(obs), check, Binder(lambda: real_counts(state), 1))


def differing_zones(state: StressState, obs: Observation, laid: Laid = NOTHING_LAID, played: frozenset[Unseen] = frozenset()) -> frozenset[str]:
    """The zones that do not look as the position says, each judged on its own."""
    pending = [0] * len(state.seats)
    real = real_counts(state)

    def check(zone: str, seen: SeenPile, b: Binder) -> bool:
        return _zone_ok(state, zone, seen, b, pending, laid, played)

    return differing(obs, _zone_order(obs), check, lambda: Binder(lambda: Counter(real), 1))


def _still_since_taken(obs: Observation, zone: str, stirred: frozenset[str]) -> bool:
    """Did the camera see nothing move over ``zone`` since the view the referee took last
    (``SeenPile.still`` in this view, and not among ``LiveStress.stirred``)?"""
    seen = obs.piles.get(zone)
    return seen is not None and seen.still is True and zone not in stirred


def _from_still_places(moves: Sequence[Any], obs: Observation, stirred: frozenset[str]) -> bool:
    """Does a move of the series take a card from a row place nothing moved over since the view the
    referee took last (:func:`_still_since_taken`)?"""
    return any(isinstance(m, (Play, Stack)) and isinstance(m.source, int)
               and _still_since_taken(obs, row_zone(m.player, m.source), stirred) for m in moves)


def _refill_stacked_onto_unsure(moves: Sequence[Any], state: StressState, live: LiveStress) -> bool:
    """Does the series stack the refill of a place it emptied earlier (a card no view has shown) onto a
    row top the position holds as a card no view read surely (``Live.sure``)?"""
    emptied: set[tuple[int, int]] = set()
    for m in moves:
        if not isinstance(m, (Play, Stack)) or not isinstance(m.source, int):
            continue
        if isinstance(m, Stack) and isinstance(m.onto, int) and (m.player, m.source) in emptied:
            onto = state.seats[m.player].row[m.onto]
            if onto and not is_unseen(onto[-1]) and onto[-1].code not in live.sure:
                return True
        emptied.add((m.player, m.source))
    return False


def _touches(move: Any) -> frozenset[str]:
    if isinstance(move, Play):
        assert isinstance(move.source, int) and isinstance(move.to, int)
        return frozenset({row_zone(move.player, move.source), CENTRE_ZONES[move.to], stock_zone(move.player)})
    if isinstance(move, Stack):
        assert isinstance(move.source, int) and isinstance(move.onto, int)
        p = move.player
        return frozenset({row_zone(p, move.source), row_zone(p, move.onto), stock_zone(p)})
    if isinstance(move, Lay):
        return frozenset(CENTRE_ZONES) | {stock_zone(0), stock_zone(1)}
    return frozenset()


def _must_change(move: Any) -> tuple[str, ...]:
    """Row places that always look different after the move (one deck: no card comes twice): the
    place a pile leaves (refilled or empty) and the pile a stack lands on (another card on top)."""
    if isinstance(move, Play) and isinstance(move.source, int):
        return (row_zone(move.player, move.source),)
    if isinstance(move, Stack) and isinstance(move.source, int) and isinstance(move.onto, int):
        return (row_zone(move.player, move.source), row_zone(move.player, move.onto))
    return ()


def _expand(
    obs: Observation, diff: frozenset[str], t: float, laid: Laid = NOTHING_LAID, unlaid: frozenset[Unseen] = frozenset(),
    played: frozenset[Unseen] = frozenset(), seen: frozenset[tuple[str, str]] = frozenset(),
) -> Callable[[Node[StressState]], Iterator[Node[StressState]]]:
    """Children of a search node. ``played``: centre cards nobody read that were played there
    (``LiveStress.played_unseen``), of a rank that fits the card they cover as well as the card that
    covers them. ``seen``: (centre zone, card) read surely in views left unused, which a series must
    keep (:func:`_keeping_seen`): a centre card nobody read, covered in the series and judged as a card
    of a rank that fits, is judged as that card where it is of such a rank."""
    read_before = {j: [c for z, code in sorted(seen) if z == zone and (c := parse_seen(code)) is not None]
                   for j, zone in enumerate(CENTRE_ZONES)}
    centre_seen = [parse_seen(p.top) if (p := judged(obs, z)) is not None else None for z in CENTRE_ZONES]
    row_seen = {z: parse_seen(p.top) for z in diff if not z.startswith("centre") and (p := judged(obs, z)) is not None}
    hidden = unjudged(obs)  # it may have changed without looking different
    # what a refill nobody read may have left and gone onto: row places shown bare, centre piles
    # showing a face not read
    bare_rows = {z for z in obs.piles if not z.startswith("centre") and bare(obs, z)} if laid or unlaid else set()
    faceless = [j for j, z in enumerate(CENTRE_ZONES) if (now := judged(obs, z)) is not None and now.cards[-1:] == (None,)]
    centre_guesses = [(now.top_guess if (now := judged(obs, z)) is not None else None) for z in CENTRE_ZONES]

    def expand(node: Node[StressState]) -> Iterator[Node[StressState]]:
        state = node.state
        for move in stress.legal_moves(state):
            if not isinstance(move, (Play, Stack, Lay)):
                continue  # slaps and new rounds are explicit inputs
            p = move.player
            if p is not None and node.count[p] >= MAX_PER_PLAYER:
                continue
            touched = _touches(move)
            changed = diff | node.touched
            if not touched & (changed | hidden) or any(z not in changed and z not in hidden for z in _must_change(move)):
                continue
            v = stress.apply(state, replace(move, t=t))
            if isinstance(v, Legal) and node.in_order(p, touched, ENGINE.blocked(node.parent, v.move)):
                yield node.then(v.state, v.move, p, (), touched, ENGINE.called(v))
        if state.phase is not Phase.PLAY:
            return
        # a refill played before the camera saw it on the row: it is the card now on that centre pile,
        # or, stacked, on top of the row pile it went onto (penguins, seed 59: a QH refill, read once
        # at 0.5, stacked on a QS at once; the stack was missed, the QH read there taken for a misread
        # of the QS, and two plays were invented later to bring a QH on top of that pile). Not a
        # refill not laid yet whose place shows a card now: that card is the refill (penguins, seed
        # 67: a pile stacked, its place seen bare, then its refill AH laid; the QC read on the pile
        # the stack went onto was taken for a first refill laid and stacked there unseen)
        real = None
        for p, seat in enumerate(state.seats):
            if node.count[p] >= MAX_PER_PLAYER:
                continue
            for i, pile in enumerate(seat.row):
                if not pile or not isinstance(pile[-1], Unseen) or pile[-1] in unlaid and row_zone(p, i) not in bare_rows:
                    continue
                # (a centre card played there unread matches any reading: a card read on it may have come)
                landings: list[tuple[Play | Stack, Card | None]] = [
                    (Play(p, i, j, t), c) for j, c in enumerate(centre_seen)
                    if CENTRE_ZONES[j] in diff or state.centre[j] and state.centre[j][-1] in played]
                landings += [(Stack(p, i, k, t), row_seen.get(row_zone(p, k))) for k in range(len(seat.row)) if k != i]
                for move2, c in landings:
                    if c is None:
                        continue
                    real = real if real is not None else real_counts(state)
                    if real[c]:
                        continue
                    u = pile[-1]
                    v = stress.apply(substitute_cards(state, {u: c}), move2)
                    if isinstance(v, Legal):
                        yield node.then(v.state, move2, p, ((u, c),), _touches(move2), ENGINE.called(v))
                    elif isinstance(move2, Play) and isinstance(move2.to, int) and isinstance(under := state.centre[move2.to][-1], Unseen):
                        # onto a centre card played there unread: judged as a rank that fits both
                        # (penguins, seed 107: a KC refill read at 0.43 in its place, never learned,
                        # played onto a QC that was never read either)
                        for stand in _played_stand_ins(state, move2.to, c, played):
                            v = stress.apply(substitute_cards(state, {u: c, under: stand}), move2)
                            if isinstance(v, Legal):
                                yield node.then(v.state, move2, p, ((u, c), (under, stand)), _touches(move2), ENGINE.called(v), guess=(under,))
                                break
        # a refill nobody read, seen lying in its place, gone from it now, and a centre top read before
        # that the camera cannot read now: played there, judged as a card that fits and left unseen
        # (:func:`_unguess`; penguins, seed 64: a QS refill, guessed at 0.20, played onto a JH and
        # boxed there as a back; its place, empty until the next refill, was taken for the refill
        # not laid yet, the stuck call made on the JH, and the KS played onto the QS called illegal)
        for p, i, refill in _lone_refills(state):
            if node.count[p] >= MAX_PER_PLAYER or refill not in laid or row_zone(p, i) not in bare_rows:
                continue
            for j in faceless:
                top = state.centre[j][-1] if state.centre[j] else None
                if top is None or is_unseen(top) or centre_guesses[j] == top.code:
                    # (the camera still makes the card it would cover of it: penguins, seed 104, a QS
                    # refill the camera lost again and again, taken for played onto a 4C that a second
                    # look left unread at 0.53, guessed 4C)
                    continue
                move = Play(p, i, j, t)
                for stand in _stand_ins(state, top):
                    # one card that makes no call resting on it (a stress, a stuck call); the round's
                    # end rests on the player's places, empty now (penguins, seed 79: the winner's
                    # last card, a QC never read, played onto a JC and read 6C at 0.33 there)
                    v = stress.apply(substitute_cards(state, {refill: stand}), move)
                    if isinstance(v, Legal) and not {e.kind for e in v.events} & CARD_CALLS:
                        yield node.then(v.state, move, p, ((refill, stand),), _touches(move), ENGINE.called(v), guess=True)
                        break
        # a centre card nobody read (laid unseen), covered by a row card (the one the view reads there,
        # or one another play covers in turn): judged as a card of a rank that fits, and left unseen
        # (:func:`_unguess`; penguins, seed 54: a 3S played onto a new card never read, then a 2D)
        for j, cpile in enumerate(state.centre):
            covered = cpile[-1] if cpile else None
            if not isinstance(covered, Unseen) or CENTRE_ZONES[j] not in diff:
                continue
            for p, seat in enumerate(state.seats):
                if node.count[p] >= MAX_PER_PLAYER:
                    continue
                for i, pile in enumerate(seat.row):
                    if not pile or is_unseen(pile[-1]) or row_zone(p, i) not in diff | hidden:
                        continue
                    move = Play(p, i, j, t)
                    for stand in _played_stand_ins(state, j, pile[-1], played, read_before[j]):
                        v = stress.apply(substitute_cards(state, {covered: stand}), move)
                        if isinstance(v, Legal):
                            yield node.then(v.state, move, p, ((covered, stand),), _touches(move), ENGINE.called(v), guess=True)
        # a known row card stacked onto a place whose top nobody read (S3), which the view reads as that
        # card or cannot read: the rules cannot offer the stack (they do not know that top's rank), so
        # it is judged as a card of the known card's rank, left unseen (penguins, seed 108: p2's 7D
        # stacked onto a 7S guessed at 0.19, the 7D read there and the refill 8S in its place: every
        # view unrecognised; seed 106: a QD onto a QH guessed 6D under it)
        for p, seat in enumerate(state.seats):
            if node.count[p] >= MAX_PER_PLAYER:
                continue
            for k, source in enumerate(seat.row):
                if not source or is_unseen(known := source[-1]) or row_zone(p, k) not in diff | node.touched | hidden:
                    continue
                for i, onto in enumerate(seat.row):
                    zone = row_zone(p, i)
                    if i == k or not onto or not isinstance(under_it := onto[-1], Unseen) or not (
                            row_seen.get(zone) == known or zone in hidden):
                        continue
                    real = real if real is not None else real_counts(state)
                    alike = next((c for c in _free_of_rank(real, known.rank) if c != known), None)
                    if alike is None:
                        continue
                    move3 = Stack(p, k, i, t)
                    v = stress.apply(substitute_cards(state, {under_it: alike}), move3)
                    if isinstance(v, Legal):
                        yield node.then(v.state, move3, p, ((under_it, alike),), _touches(move3), ENGINE.called(v), guess=True)

    return expand


def _played_unread(
    state: StressState, obs: Observation, t: float, laid: Laid = NOTHING_LAID, unlaid: frozenset[Unseen] = frozenset()
) -> tuple[Explanation[StressState], int, str] | None:
    """A view that fits the position as it is, but shows a centre top read before unread, the camera
    guessing another card there (at least ``GUESS_FLOOR``; or at least ``AGREEING_GUESS_FLOOR`` a
    card that may go on that top and that the position knows nowhere: the guess agrees with the
    play), and a row place whose card nobody has read showing a card read now: that card was played
    there, and the new one is its refill (penguins, seed 54: a QC refill, read at 0.05 in every view,
    played onto a KD that then showed a card guessed 6C; the QC's place read its refill 2H, learned
    as the QC's card, and the JD laid on the QC next was called illegal on the KD; seed 74: a QC
    refill guessed 9C at 0.06-0.10 in its place, played onto a KS guessed QC at 0.13 there, its
    refill 10C read: taken for the QC's card, a stuck call was made and the KD laid on the QC was
    called illegal on the KS). So too where the place shows a card still unread that the camera
    guesses as another card than it last guessed the one lying there (``laid``), and the centre top
    is guessed otherwise, however faintly, or not at all (penguins, seed 64: a QC refill guessed QC
    at 0.09-0.22, played onto a KC and boxed there as a back, its refill QD guessed at 0.33-0.36;
    taken for nothing, the stuck call never came and the new centre cards were unrecognised). The
    played card stays unseen (judged as a card that fits), with the centre pile and the place it
    came from; only one such play, or None. Not a refill no view has shown lying in its place
    (``unlaid``): the card its place shows now is that refill, laid (penguins, seed 82: a QH on a
    centre pile guessed 9H at 0.14-0.24 view after view; the 5S laid into a place seen bare was
    taken for a refill after the unseen one's play onto the QH: a play invented, the stock counted a
    card short, and 100 s later its last refill unrecognised and a stack missed)."""
    found: list[tuple[Explanation[StressState], int, str]] = []
    for j, cpile in enumerate(state.centre):
        top = cpile[-1] if cpile else None
        seen = judged(obs, CENTRE_ZONES[j])
        if top is None or is_unseen(top) or seen is None or not seen.cards or seen.cards[-1] is not None:
            continue
        # (a guess of the top's own rank is the top read in another suit, not a card laid on it, which
        # is a rank apart: kennard_4c_big, seed 133, a centre KC guessed KS at 0.22 was taken for an
        # unseen refill played there, and the QD laid on the KC next was called illegal on it)
        guessed_other = seen.top_guess not in (None, top.code) and seen.top_guess[:-1] != top.code[:-1] and (
            seen.confidences[-1:] >= (GUESS_FLOOR,) or seen.confidences[-1:] >= (AGREEING_GUESS_FLOOR,) and _may_go(state, seen.top_guess, top))
        if not guessed_other and seen.top_guess == top.code:
            continue
        for p, seat in enumerate(state.seats):
            for i, pile in enumerate(seat.row):
                u, row = (pile[-1] if pile else None), judged(obs, row_zone(p, i))
                if not isinstance(u, Unseen) or u in unlaid or row is None or not row.cards:
                    continue
                # (read: on a second look too, a card the first look read; penguins, seed 107, a QC guessed
                # QC at 0.26 then 0.01 in its place, played onto a JD, read 9C at 0.37 there, its refill KC
                # read at 0.44: taken for nothing happening, the KC learned as the QC's card)
                read = row.cards[-1] is not None or row.confidences[-1:] >= (REFILL_READ,)
                # (a centre top that shows no face at all, boxed as a back, in the very view its place
                # reads another card than it last guessed there, however faintly: penguins, seed 117, a
                # QC guessed at 0.06-0.11 in its place, played onto a KS read at 0.46 and boxed as a back
                # there, twice in one match; its refill 3C, then 5C, was learned as the QC's card, and
                # one of the two views made a stuck call)
                faceless = seen.top_guess is None and read and _guessed_anew(u, row, laid, 0.0)
                if not (guessed_other and read or _guessed_anew(u, row, laid) or faceless):
                    continue
                move = Play(p, i, j, t)
                for stand in _stand_ins(state, top):
                    v = stress.apply(substitute_cards(state, {u: stand}), move)
                    if not isinstance(v, Legal) or any(e.kind == "stress" for e in v.events):
                        # (a rank that fits and makes no stress: a stress resting on a card nobody read is
                        # a guess; penguins, seed 114: a QC played unread onto a KD judged as an ace,
                        # "both centre piles show an ace" with the AC beside it, and slaps for nothing)
                        continue
                    node = Node(state, count=(0,) * len(state.seats)).then(v.state, move, p, ((u, stand),), _touches(move), ENGINE.called(v), guess=True)
                    b = match(v.state, obs)
                    if b is not None:
                        subs = {**dict(node.subs), **b}
                        # why (the play itself is noted by _unguess)
                        note = (f"the camera guessed {seen.top_guess} on {CENTRE_ZONES[j]}, not the {top.code}" if guessed_other
                                else f"{CENTRE_ZONES[j]} showed no face where the {top.code} lay, and {row_zone(p, i)} "
                                     f"{row.top or row.top_guess} where the camera guessed {laid_guess(laid, u)} before")
                        found.append(((_unguessed(node, substitute_cards(node.state, subs)), node, 0, subs), j, note))
                        break
    return found[0] if len(found) == 1 else None


def _played_guessed(
    state: StressState, obs: Observation, t: float, laid: Laid = NOTHING_LAID
) -> tuple[Explanation[StressState], str] | None:
    """A view that fits the position as it is, but where the camera guesses (at least ``GUESS_FLOOR``)
    a centre top it cannot read as a row card known to the referee that may be played there, and that
    card's place, in the clear, no longer shows it (read or guessed): it was played there (penguins,
    seed 70: a QH played onto a KC at 176.0 s, guessed QH at 0.299 there, its refill guessed QC in
    its place; taken for nothing happening until the QH was read at 179.6 s, after p1's AS play at
    178.7 s, so the log had the two plays in the wrong order). The guess does not decide the card
    alone: the card is one the position holds in a row, the place it leaves agrees, and the play is
    legal. Only one such play, or None."""
    found: list[tuple[Explanation[StressState], str]] = []
    for j, cpile in enumerate(state.centre):
        guess = guess_of(obs, CENTRE_ZONES[j])
        seen = judged(obs, CENTRE_ZONES[j])
        if guess is None or seen is None or not seen.cards or seen.cards[-1] is not None or (cpile and cpile[-1].code == guess):
            continue
        for p, seat in enumerate(state.seats):
            for i, pile in enumerate(seat.row):
                row = judged(obs, row_zone(p, i))
                if not pile or is_unseen(pile[-1]) or pile[-1].code != guess or row is None or guess in (row.top, guess_of(obs, row_zone(p, i))):
                    continue
                move = Play(p, i, j, t)
                v = stress.apply(state, move)
                if isinstance(v, Legal) and (b := match(v.state, obs, laid)) is not None:
                    node = Node(state, count=(0,) * len(state.seats)).then(v.state, move, p, (), _touches(move), ENGINE.called(v))
                    note = f"the camera guessed {guess} on {CENTRE_ZONES[j]}, gone from {row_zone(p, i)}"
                    found.append(((substitute_cards(v.state, b), node, 0, dict(b)), note))
    return found[0] if len(found) == 1 else None


def _played_known_unread(
    state: StressState, obs: Observation, t: float, laid: Laid = NOTHING_LAID
) -> tuple[Explanation[StressState], str] | None:
    """A view that fits the position as it is, but where a row card the referee knows and a centre top
    read before both show unread now, neither guessed as its own rank, something seen moving over the
    row place (``SeenPile.still`` False; the pile's card may have landed while a hand hid the place, in
    a view taken before): the row card was played there, and the camera reads neither it on the pile
    nor its refill (penguins, seed 100: p1's QD, read at 0.47 in its place, played onto a JC; the pile
    guessed 6D at 0.04, the place its refill QH as 9H at 0.17: taken for nothing happening until the QD
    was read 17 s and two moves later, so the log had the plays in the wrong order). The play must be
    legal; only one such play, or None."""

    def unread_otherwise(zone: str, card: Card, moved: bool) -> bool:
        seen = judged(obs, zone)
        if seen is None or not seen.cards or seen.cards[-1] is not None or moved and seen.still is not False:
            return False
        guess = parse_seen(seen.top_guess)
        return guess is None or guess.rank != card.rank

    found: list[tuple[Explanation[StressState], str]] = []
    for j, cpile in enumerate(state.centre):
        if not cpile or is_unseen(cpile[-1]) or not unread_otherwise(CENTRE_ZONES[j], cpile[-1], False):
            continue
        for p, seat in enumerate(state.seats):
            for i, pile in enumerate(seat.row):
                if not pile or is_unseen(pile[-1]) or not unread_otherwise(row_zone(p, i), pile[-1], True):
                    continue
                move = Play(p, i, j, t)
                v = stress.apply(state, move)
                if isinstance(v, Legal) and (b := match(v.state, obs, laid)) is not None:
                    node = Node(state, count=(0,) * len(state.seats)).then(v.state, move, p, (), _touches(move), ENGINE.called(v))
                    note = (f"the {pile[-1].code} no longer read in {row_zone(p, i)}, where something moved, "
                            f"nor the {cpile[-1].code} on {CENTRE_ZONES[j]}")
                    found.append(((substitute_cards(v.state, b), node, 0, dict(b)), note))
    return found[0] if len(found) == 1 else None


REFILL_READ = 0.3
"""A card of another rank read at least this surely (as the live referee's first look reads cards,
``cardref.live.LiveReferee.min_confidence``) where a known row card lay is that place's refill, the
known card gone, not the camera's misreading of a card stacked onto it (:func:`_stacked_unread`;
penguins, seed 106: p2 stacked its QD onto a QH nobody read, the QD's place read its refill JD at 0.56,
and the QH's unread card, stacked onto the QD, was taken for what the view showed)."""


def _stacked_unread(state: StressState, obs: Observation, t: float, laid: Laid) -> tuple[Explanation[StressState], str] | None:
    """A view that fits the position as it is, but where a refill nobody read, seen lying in its place
    and guessed there as X (``laid``), is gone from it (the place shows another card, read or guessed
    anew) and another place of the same player shows an unread top guessed as X (both at least
    ``AGREEING_GUESS_FLOOR``: the camera's misreading moved with the card; penguins, seed 92: a QD
    guessed QD at 0.09 and 0.15 in its place, stacked onto a QC nobody read and read QD at 0.49
    there, was taken for nothing happening, the 10C refilled read as the QD's card, and p2's stock
    counted a card too many: every view unrecognised from the stock's last card on) or as a card of
    another rank than the one lying there (as faintly, the refill guessed at least ``GUESS_FLOOR``:
    the refill's place shows it gone, and no other place shows a change): stacked there (S6), so of
    that place's rank. The
    card stays unread (not judged). Penguins, seed 67: a QC refill guessed 6C (at 0.21, while the 6C
    lay read in another place) was stacked onto a QD; the QD's place then showed 6C at 0.14, the
    QC's its refill 6H: taken for nothing happening, the 6H learned as the QC's card and the stack
    missed. Only one such stack, or None."""
    found: list[tuple[Explanation[StressState], str]] = []
    for p, i, u in _lone_refills(state):
        was, row = laid_guess(laid, u, AGREEING_GUESS_FLOOR), judged(obs, row_zone(p, i))
        if was is None or row is None or not row.cards or not _guessed_anew(u, row, laid, AGREEING_GUESS_FLOOR):
            continue
        anew = _guessed_anew(u, row, laid)  # (a guess that may say the card is another)
        for k, pile in enumerate(state.seats[p].row):
            onto = judged(obs, row_zone(p, k))
            if k == i or not pile or onto is None or not onto.cards:
                continue
            # what the view makes of that place's top: unread, or read unsurely (penguins, seed 85: a
            # QH guessed QH in its place, stacked onto a QC nobody read, and read QH at 0.44 there,
            # was taken for the QC's card)
            shown = onto.top if onto.top_weak else guess_of(obs, row_zone(p, k), AGREEING_GUESS_FLOOR) if onto.top is None else None
            under = pile[-1]
            if shown is None or shown == under.code:
                continue
            # the camera's misreading of the refill, moved with it; or, on a card the referee knows, a
            # card of another rank than that one (another suit is the reading wavering), the card on
            # top new (penguins, seed 84: a QC guessed QC in its place, stacked onto a QS, guessed 9C
            # at 0.1496 there; taken for nothing happening and a stuck call)
            other = parse_seen(shown)
            # (or guessed however faintly as a card of that place's rank, the refill's place reading
            # another card surely now: penguins, seed 98, a QC guessed QC at 0.09 stacked onto a QH,
            # guessed 6C there, its place's refill 4C read at 0.68, taken for the QC's card)
            same_rank = (row.top is not None and not row.top_weak and row.top != was and not is_unseen(under)
                         and (w := parse_seen(was)) is not None and w.rank == under.rank)
            if shown != was and (not (anew or same_rank) or is_unseen(under) or other is None or other.rank == under.rank
                                 or onto.confidences[-1:] >= (REFILL_READ,)):
                continue
            if isinstance(under, Unseen) and laid_guess(laid, under, AGREEING_GUESS_FLOOR) == shown:
                continue  # what the camera made of the card lying there before: nothing new on it
            move = Stack(p, i, k, t)
            rank = other.rank if is_unseen(under) and other is not None else under.rank
            free = _free_of_rank(real_counts(state), rank)
            stand = other if other in free else next(iter(free), None)
            if stand is None:
                continue
            pair: tuple[tuple[Unseen, Card], ...] = ((u, stand),)
            if isinstance(under, Unseen):
                # a card nobody read under it: one of that rank too (S6), as unread as before
                second = next((x for x in free if x != stand), None)
                if second is None:
                    continue
                pair += ((under, second),)
            v = stress.apply(substitute_cards(state, dict(pair)), move)
            if not isinstance(v, Legal) or (b := match(v.state, obs, laid)) is None:
                continue
            node = Node(state, count=(0,) * len(state.seats)).then(v.state, move, p, pair, _touches(move), ENGINE.called(v), guess=True)
            subs = {**dict(node.subs), **b}
            note = (f"{row_zone(p, k)} showed {shown}, as the camera had guessed the card in {row_zone(p, i)}" if shown == was
                    else f"{row_zone(p, k)} showed {shown} where the {under.code} lay, and {row_zone(p, i)} another card")
            found.append(((_unguessed(node, substitute_cards(node.state, subs)), node, 0, subs), note))
    return found[0] if len(found) == 1 else None


def _doubt_moved(live: LiveStress, obs: Observation, centre: bool = False) -> LiveStress | None:
    """The picture with a row top no view has read surely (``Live.sure``) made a stand-in again,
    seen lying in its place and guessed as it was learned, where its place shows another card now
    and the view guesses that card's code on another place of the same player: the reading may have
    moved with the card (:func:`_stacked_unread` then judges it). With ``centre`` (for a view nothing
    explains) instead where a centre pile shows a face it cannot read, guessed (at least
    ``GUESS_FLOOR``) as a card that may go on the top it covers and that the position knows
    nowhere, or, while a stuck call stands, shows only a back (seed 105: a QC read 6C at 0.31 made
    the call, then was played onto a KH and boxed as a back there, its place reading the refill 6H:
    taken for nothing happening): the card learned from a misreading was played there
    (:func:`_played_unread`). None when there is none, or more than one. Penguins, seed 67: a QC refill read 6C at 0.21 was learned
    as the 6C; seed 83: a QS refill read 6S at 0.33 was learned as the 6S, then played onto a JC and
    guessed QS there: every later view was unrecognised (17/64)."""
    state, found = live.state, []
    # per centre pile showing a new face it cannot read: the guess, and whether it is one that may go on
    # the top it covers (or, however faint, the very card a row card was learned as: the misreading
    # moved with it; penguins, seed 100, a QC read 6C at 0.30-0.32 in its place made a stuck call, then
    # was played onto a JS and guessed 6C there)
    faces = [(seen.top_guess, not seen.guesses or guess_of(obs, zone) is not None and _may_go(state, seen.top_guess, pile[-1]))
             for zone, pile in zip(CENTRE_ZONES, state.centre)
             if centre and (seen := judged(obs, zone)) is not None and seen.cards and seen.cards[-1] is None and pile
             and not is_unseen(pile[-1]) and seen.top_guess != pile[-1].code
             and (guess_of(obs, zone, AGREEING_GUESS_FLOOR) is not None or not seen.guesses and state.stuck)]
    landed = any(fits for _, fits in faces)
    landed_as = {guess for guess, _ in faces}
    for p, seat in enumerate(state.seats):
        for i, pile in enumerate(seat.row):
            card = pile[-1] if len(pile) == 1 else None
            row = judged(obs, row_zone(p, i))
            if card is None or is_unseen(card) or card.code in live.sure or row is None or not row.cards:
                continue
            shown = row.top if row.top is not None else guess_of(obs, row_zone(p, i))
            if shown in (None, card.code):
                continue
            if (landed or card.code in landed_as) if centre else any(
                    k != i and guess_of(obs, row_zone(p, k), AGREEING_GUESS_FLOOR) == card.code for k in range(len(seat.row))):
                found.append((p, i, card))
    if len(found) != 1:
        return None
    p, i, _ = found[0]
    return _as_stand_ins(live, [(p, i, 0)])


def _as_stand_ins(live: LiveStress, doubted: Iterable[tuple[int, int, int]]) -> LiveStress:
    """The picture with each row card at (player, place, depth in the pile) made a stand-in again; a
    lone one is seen lying there, laid as the card it was learned as (a guess, no more)."""
    seats, laid = list(live.state.seats), dict(live.laid)
    for p, i, k in doubted:
        seat = seats[p]
        pile, stand_in = seat.row[i], unseen()
        if len(pile) == 1:
            laid[stand_in] = (pile[k].code, 1.0)
        seats[p] = Seat(seat.stock, stress._set(seat.row, i, pile[:k] + (stand_in,) + pile[k + 1:]))
    return replace(live, state=replace(live.state, seats=tuple(seats)), laid=laid)


def _may_go(state: StressState, guess: str | None, top: Card) -> bool:
    """Is ``guess`` a card that may go on ``top`` and that the position knows nowhere?"""
    card = parse_seen(guess)
    return card is not None and stress._fits(card, top, state.rules.wrap) and not real_counts(state)[card]


def _fewest_guess_conflicts(best: list[Explanation[StressState]], laid: Laid) -> list[Explanation[StressState]]:
    """Of several move series that explain a view, those that learn the fewest refills as another
    card than the camera last guessed each as, lying in its place (``laid``). A guess never decides
    a card, but it may tell two explanations apart (penguins, seed 76: a 7S refill guessed 7S at
    0.23, played onto a 6C and read there, while another refill beside it was guessed 6C all along;
    either place fitted the view, and the play was logged as ambiguous twice and then missed). A guess
    of the card's rank in another suit agrees with it more than no guess at all (kennard_big, seed 124:
    p1's 7C, guessed 7S at 0.21 in its place, played onto a 6C, was taken for the card beside it,
    guessed only too faintly to count): the fewest guesses of another rank, then the most of its rank,
    then the fewest of another suit."""
    def key(x: Explanation[StressState]) -> tuple[int, int, int]:
        guesses = [(g, c) for u, c in x[3].items() if (g := parse_seen(laid_guess(laid, u))) is not None]
        return (sum(g.rank != c.rank for g, c in guesses), -sum(g.rank == c.rank for g, c in guesses),
                sum(g.rank == c.rank and g != c for g, c in guesses))

    keys = [key(x) for x in best]
    return [x for x, k in zip(best, keys) if k == min(keys)]


def _glimpses_kept(x: Explanation[StressState], state: StressState, glimpsed: frozenset[tuple[str, str]]) -> int:
    """How many cards the series plays onto a centre pile a view left unused read there (penguins,
    seed 96: p1's KS played onto an AS and read there while a new centre card could not be read, both
    covered by the next lay; onto either centre pile fitted the view after it, and the play was
    logged as ambiguous and then missed)."""
    now = substitute_cards(state, x[3])
    kept = 0
    for move in x[1].moves:
        if isinstance(move, Play) and isinstance(move.source, int) and isinstance(move.to, int):
            pile = now.seats[move.player].row[move.source]
            kept += bool(pile) and not is_unseen(pile[-1]) and (centre_zone(move.to), pile[-1].code) in glimpsed
        v = stress.apply(now, move)
        if isinstance(v, Illegal):
            break
        now = v.state
    return kept


def _guessed_anew(u: Unseen, row: SeenPile, laid: Laid, floor: float = GUESS_FLOOR) -> bool:
    """Does the place of ``u``, a refill seen lying there, show a card the camera reads, or guesses
    (at least ``GUESS_FLOOR``), as another card than it last guessed ``u`` as (at least ``floor``)?"""
    was = laid_guess(laid, u, floor)
    now = row.top if row.top is not None else row.top_guess if row.confidences[-1:] >= (GUESS_FLOOR,) else None
    return was is not None and now is not None and now != was


def _changed_under_hand(state: StressState, obs: Observation, laid: Laid) -> bool:
    """Does a refill's place show another card than the camera last guessed there (:func:`_guessed_anew`)
    while a centre pile is under a hand? The card may have been played there: the view waits for the
    pile to show (penguins, seed 64: a QC guessed at 0.22 played under a hand, its refill QD read at
    0.36 was taken for the QC's card, and the QC's play never found). A place that reads a card surely
    now differs from any guess however faint (seed 117: a QC guessed at 0.06 played under a hand, its
    refill 3C read at 0.65 learned as the QC's card, the centre pile boxing the QC as a back after it)."""
    if all(judged(obs, z) is not None for z in CENTRE_ZONES):
        return False
    for p, i, refill in _lone_refills(state):
        row = judged(obs, row_zone(p, i))
        if row is not None and row.cards and _guessed_anew(refill, row, laid, 0.0 if row.top is not None and not row.top_weak else GUESS_FLOOR):
            return True
    return False


def _lone_refills(state: StressState) -> Iterator[tuple[int, int, Unseen]]:
    """(player, place, stand-in) for each row place holding only a refill nobody has read."""
    for p, seat in enumerate(state.seats):
        for i, pile in enumerate(seat.row):
            if len(pile) == 1 and isinstance(pile[0], Unseen):
                yield p, i, pile[0]


def _free_of_rank(real: Counter[Card], rank: int) -> list[Card]:
    """The cards of ``rank`` that ``real`` (the position's :func:`real_counts`) knows nowhere (one
    deck), in suit order."""
    return [c for c in (card_of(rank, suit) for suit in SUITS) if not real[c]]


def _played_stand_ins(state: StressState, j: int, covering: Card, played: frozenset[Unseen], prefer: Sequence[Card] = ()) -> list[Card]:
    """:func:`_stand_ins` for centre pile ``j``'s top, nobody having read it, covered by ``covering``:
    of a rank that fits the card under it too where it was played there (``played``)."""
    cpile = state.centre[j]
    stands = _stand_ins(state, covering, prefer)
    if cpile and cpile[-1] in played and len(cpile) > 1 and not is_unseen(cpile[-2]):
        stands = [c for c in stands if stress._fits(c, cpile[-2], state.rules.wrap)]
    return stands


def _played_fits(start: StressState, final: StressState, played: frozenset[Unseen]) -> dict[Unseen, list[Card]]:
    """Each centre top of ``final`` nobody has read that was a row card in ``start`` or was played
    unread before (``played``), so laid by a play (S6), not a new centre card from a stock -> one card
    of each rank that fits the card it covers (:meth:`~referee.speed_live.Engine.settle_calls`)."""
    rows = {c for seat in start.seats for pile in seat.row for c in pile if isinstance(c, Unseen)} | played
    return laid_fits(final.centre, rows, partial(_stand_ins, final))


def _misfits_unread(state: StressState, play: Play, played: frozenset[Unseen]) -> Illegal | None:
    """The verdict on ``play`` onto a centre card nobody read that was itself played there (``played``)
    when the card fits none of the ranks that one may be, those that fit the card it covers (S6); None
    otherwise (penguins, seed 109: p2's QC, never read, played onto a JC, then p1's AD laid on it: taken
    for legal, on a card judged as a king or a 2)."""
    cpile = state.centre[play.to] if isinstance(play.to, int) else ()
    if len(cpile) < 2 or cpile[-1] not in played or is_unseen(cpile[-2]) or not isinstance(play.source, int):
        return None
    stands = _stand_ins(state, cpile[-2])
    under = cpile[-1]
    assert isinstance(under, Unseen) and isinstance(play.to, int)
    verdicts = [v for c in stands if isinstance(v := stress.apply(substitute_cards(state, {under: c}), play), Illegal)]
    if not verdicts or len(verdicts) < len(stands):
        return None
    card = state.seats[play.player].row[play.source][-1]
    ranks = " or ".join(c.name.split(" of ")[0].removeprefix("the ") for c in stands)
    return Illegal(play, verdicts[0].rule, f"{card.name} is not one rank higher or lower than the card nobody read on "
                                           f"{CENTRE_ZONES[play.to]}, played onto {cpile[-2].name}: a {ranks}")


def _stand_ins(state: StressState, covering: Card, prefer: Sequence[Card] = ()) -> list[Card]:
    """One card of each rank ``covering`` may be played onto, not known anywhere (one deck): of
    ``prefer`` where one is of that rank (a card read there before)."""
    real = real_counts(state)
    out = []
    for rank in sorted({covering.rank % 13 + 1, (covering.rank - 2) % 13 + 1}):
        free = _free_of_rank(real, rank)
        card = next((c for c in prefer if c in free), next(iter(free), None))
        if card is not None and stress._fits(covering, card, state.rules.wrap):
            out.append(card)
    return out


def _unguess(node: Node[StressState], state: StressState, findings: list[Finding]) -> tuple[StressState, list[Finding]]:
    """Centre cards nobody read that the series judged as a card that fits (:func:`_expand`): back to
    stand-ins under the card that covers them, unlearned, and the play onto each noted."""
    if not node.guesses:
        return state, findings
    guessed = _guessed(node)
    names = {f"unseen{u.n}" for u in node.guesses}
    findings = [replace(f, learned=tuple(x for x in f.learned if x[0] not in names)) if f.learned else f for f in findings]
    for n, f in enumerate(findings):
        note = _unread_note(f, guessed) if f.kind == "move" and isinstance(f.verdict, Legal) else ""
        if note:
            findings[n] = replace(f, detail=f"{f.detail}; {note}: not judged" if f.detail else f"{note}: not judged")
    return _unguessed(node, state), [_unnamed(f, node) for f in findings]


def _unread_note(f: Finding, guessed: Mapping[Card, Unseen]) -> str:
    """What the log says of a move that puts a card the series judged as one that fits (a card
    nobody read) on a centre pile or a row pile, or that covers one; "" for any other move."""
    move, after = f.move, f.verdict.state
    if isinstance(move, Stack) and isinstance(move.source, int) and isinstance(move.onto, int):
        if after.seats[move.player].row[move.onto][-1] in guessed:
            return f"{row_zone(move.player, move.source)}'s card, never read, stacked onto {row_zone(move.player, move.onto)}"
        return ""
    if not isinstance(move, Play) or not isinstance(move.to, int):
        return ""
    pile = after.centre[move.to]  # the card played on top, the one it covered under it
    where = CENTRE_ZONES[move.to]
    source = row_zone(move.player, move.source) if isinstance(move.source, int) else "a row place"
    return (f"{source}'s card, never read, played onto {where}" if pile[-1] in guessed
            else f"played onto a card never read on {where}" if len(pile) > 1 and pile[-2] in guessed else "")


def _unnamed(finding: Finding, node: Node[StressState]) -> Finding:
    """The finding with the cards the series judged unseen ones as left out of its verdict (its events
    and the position it leaves): a review must not read "the ace of hearts on the king of clubs" for a
    card nobody read."""
    verdict, guessed = finding.verdict, _guessed(node)
    if not isinstance(verdict, Legal) or not any(c in guessed for e in verdict.events for c in e.cards):
        return finding
    events = []
    for e in verdict.events:
        detail = e.detail
        for c in e.cards:
            if c in guessed:
                detail = detail.replace(c.name, "a card nobody read")
        events.append(replace(e, cards=tuple(c for c in e.cards if c not in guessed), detail=detail))
    return replace(finding, verdict=replace(verdict, state=_unguessed(node, verdict.state), events=tuple(events)))


def _unguessed(node: Node[StressState], state: StressState) -> StressState:
    """The position with the cards the series judged as a card that fits unseen again (on the centre
    piles, or stacked in a row: two such series that differ only in the card they judged it as are
    one explanation)."""
    if not node.guesses:
        return state
    guessed = _guessed(node)
    seats = tuple(Seat(s.stock, tuple(tuple(guessed.get(c, c) for c in pile) for pile in s.row)) for s in state.seats)
    return replace(state, seats=seats, centre=tuple(tuple(guessed.get(c, c) for c in pile) for pile in state.centre))


def _guessed(node: Node[StressState]) -> dict[Card, Unseen]:
    """The cards the series judged unseen centre cards as, each to its stand-in."""
    return {c: u for u, c in node.subs if u in node.guesses}


def _physical(state: StressState, t: float, named: Mapping[Unseen, Card] = MappingProxyType({}),
              played: frozenset[Unseen] = frozenset()) -> Iterator[tuple[PendingIllegal, StressState, Mapping[Unseen, Card]]]:
    """Every single-player card move a hand could make that the rules forbid, with the table it leaves
    (with and without the refill from the stock) and the stand-ins it shows (none: the card was seen;
    a card nobody read moves only as the card ``named`` for it: :func:`_named_unread`). ``played``:
    centre cards nobody read that were played (``LiveStress.played_unseen``): a card of a rank that fits
    none of the ranks one may be is laid against S6 on it all the same (:func:`_misfits_unread`)."""
    for p, seat in enumerate(state.seats):
        for i, pile in enumerate(seat.row):
            if not pile:
                continue
            if isinstance(u := pile[-1], Unseen):
                # a card laid that nobody has seen, only as the card the camera named for it
                # (penguins, seed 59: a QH never read, stacked on a QS, was called S3)
                if u in named:
                    shown = {u: named[u]}
                    for pend, table in _illegal_from(substitute_cards(state, shown), p, i, t, played):
                        yield pend, table, shown
            else:
                for pend, table in _illegal_from(state, p, i, t, played):
                    yield pend, table, {}
    if all(s.stock for s in state.seats) and state.phase in (Phase.PLAY, Phase.STRESS):
        lay = Lay(t)
        v = stress.apply(state, lay)
        if isinstance(v, Illegal):
            centre = tuple(c + (s.stock[0],) for c, s in zip(state.centre, state.seats))
            seats = tuple(Seat(s.stock[1:], s.row) for s in state.seats)
            yield PendingIllegal(lay, v, False), replace(state, centre=centre, seats=seats), {}


def _illegal_from(state: StressState, p: int, i: int, t: float, played: frozenset[Unseen] = frozenset()
                  ) -> Iterator[tuple[PendingIllegal, StressState]]:
    """The moves of the card on top of ``p``'s row place ``i`` (seen) that the rules forbid, each with the
    table it leaves, with and without the refill."""
    seat = state.seats[p]
    pile = seat.row[i]
    for j, cpile in enumerate(state.centre):
        play = Play(p, i, j, t)
        if cpile and is_unseen(cpile[-1]):
            # never a verdict on a card nobody has seen (it fits or not: nobody knows), unless it was
            # played there: then it is of a rank that fits the card under it
            v: Legal[StressState] | Illegal | None = _misfits_unread(state, play, played)
        else:
            v = stress.apply(state, play)
        if isinstance(v, Illegal):
            centre = state.centre[:j] + (state.centre[j] + pile,) + state.centre[j + 1 :]
            for refilled in (True, False):
                yield PendingIllegal(play, v, refilled), replace(state, centre=centre, seats=_lift(state, p, i, refilled))
    for k, other in enumerate(seat.row):
        if k == i or not other or is_unseen(other[-1]):
            continue
        stack = Stack(p, i, k, t)
        v = stress.apply(state, stack)
        if isinstance(v, Illegal):
            for refilled in (True, False):
                seats = _lift(state, p, i, refilled)
                s = seats[p]
                row = s.row[:k] + (s.row[k] + pile,) + s.row[k + 1 :]
                seats = seats[:p] + (Seat(s.stock, row),) + seats[p + 1 :]
                yield PendingIllegal(stack, v, refilled), replace(state, seats=seats)


def _named_unread(live: LiveStress) -> dict[Unseen, Card]:
    """Refills nobody read that the camera guessed in their places, however faintly, as a card the
    position does not hold elsewhere: such a card, read as that card where it lands, may be judged
    against the rules (penguins, seed 95: p1's QH, guessed QH at 0.04-0.21 in its place, laid on a
    10H against S6 and read QH at 0.53 there, left the view unrecognised). A guess naming another card
    than the one read where it lands decides nothing (the table with the named card does not match)."""
    known = real_counts(live.state)
    out = {}
    for u in live.laid:
        guess = parse_seen(laid_guess(live.laid, u, AGREEING_GUESS_FLOOR))
        if isinstance(guess, Card) and not known[guess]:
            out[u] = guess
    return out


def _lift(state: StressState, p: int, i: int, refilled: bool) -> tuple[Seat, ...]:
    seat = state.seats[p]
    if refilled and seat.stock:
        row = seat.row[:i] + ((seat.stock[0],),) + seat.row[i + 1 :]
        new = Seat(seat.stock[1:], row)
    else:
        new = Seat(seat.stock, seat.row[:i] + ((),) + seat.row[i + 1 :])
    return state.seats[:p] + (new,) + state.seats[p + 1 :]


def _overlay(state: StressState, pend: PendingIllegal) -> StressState:
    """The table with the pending illegal move still on it (redone by position on a later position)."""
    m = pend.move
    if isinstance(m, Lay):
        centre = tuple(c + (s.stock[0],) if s.stock else c for c, s in zip(state.centre, state.seats))
        return replace(state, centre=centre, seats=tuple(Seat(s.stock[1:], s.row) for s in state.seats))
    assert isinstance(m.source, int)
    p, i = m.player, m.source
    pile = state.seats[p].row[i]
    if not pile:
        return state
    seats = _lift(state, p, i, pend.refilled)
    if isinstance(m, Play):
        assert isinstance(m.to, int)
        j = m.to
        return replace(state, seats=seats, centre=state.centre[:j] + (state.centre[j] + pile,) + state.centre[j + 1 :])
    assert isinstance(m.onto, int)
    s = seats[p]
    row = s.row[: m.onto] + (s.row[m.onto] + pile,) + s.row[m.onto + 1 :]
    return replace(state, seats=seats[:p] + (Seat(s.stock, row),) + seats[p + 1 :])


def observe(live: LiveStress, obs: Observation) -> tuple[LiveStress, list[Finding]]:
    """Judge one steady observation; returns the new running picture and what was concluded. A view
    the referee takes (explained, not left unused) counts the cards it reads: a card no view has read
    (taken from the camera's guesses) is put right by the first view that reads it surely as another
    card (:func:`referee.speed_live.read_anew`)."""
    # a Stress row lies face up too (S2; penguins, seed 62: a QC in a row place boxed as a back)
    obs = centre_faces(obs, lambda zone: not zone.endswith(".stock"))
    if live.last is not None:
        obs = _read_as_before(obs, live.last)
    obs = _fitting_reads(obs, live)
    after, findings = _judge_untold(live, obs)
    if [f.kind for f in findings] == ["unrecognised"] and (steadier := _fitting_reads(obs, live, steady=True)) is not obs:
        # a view nothing explains, judged again with the row tops read anew where nothing moved taken
        # as the camera's guesses (kennard_big, seed 138: p1's 7D, read 7D at 0.30-0.38, then 4D at
        # 0.35 with no hand near; every view was unrecognised until the game was lost). Only then: the
        # looks that explain a view with such a misreading say so in the log
        again = _judge_untold(live, steadier)
        if [f.kind for f in again[1]] != ["unrecognised"]:
            obs, (after, findings) = steadier, again
    taken = _taken(after)
    laid = _laid({**live.laid, **after.laid}, after.state, obs if taken else None)  # (with what a doubt laid)
    unlaid = _unlaid(live.unlaid, after.state, obs if taken else None)
    reads = reads_of_view(live.reads, obs, findings, taken=taken)
    sure = surely_read(live.sure, obs) if reads is not live.reads else live.sure
    played = _played_unseen(live, after.state)
    tops = _unread_tops(live.unread_tops, after.state, obs)
    read_now = frozenset(c for pile in obs.piles.values() if not pile.held for c in pile.cards if c is not None)
    # (a picture afresh after a move keeps none: the running picture's, while the card lies in the centre)
    centre = {c for pile in after.state.centre for c in pile}
    guessed = frozenset(c for c in live.guessed | after.guessed if c in centre and not (taken and c.code in read_now))
    slapped = live.slapped_unread
    if slapped is not None and (slapped.tops != _centre_tops(after.state) or not _may_be_stress(after.state)):
        slapped = None  # a card played onto a centre pile since: those slaps were hands playing
    # (the old tops of piles still being gathered are no new centre cards glimpsed)
    centre_seen = _gathering(obs, live.state.gathered) if live.state.phase is Phase.LAY and live.state.gathered else obs
    glimpsed = frozenset() if taken else live.glimpsed | centre_reads(centre_seen)
    surely = frozenset() if taken else live.surely_glimpsed | _sure_centre_reads(centre_seen)
    return replace(after, reads=reads, sure=sure, laid=laid, unlaid=unlaid, played_unseen=played,
                   unread_tops=tops, slapped_unread=slapped, guessed=guessed, glimpsed=glimpsed, surely_glimpsed=surely,
                   undo=_undo_after(live, findings), stuck_at=stuck_since(live, after, findings),
                   stirred=stirred_after(live.stirred, obs, taken),
                   place_reads=_place_reads(live.place_reads, obs) if taken else live.place_reads,
                   place_best=best_in_place(live.place_best, _row_readings(obs), lambda z: _top_at(live.state, z) == _top_at(after.state, z))
                   if taken else live.place_best), _stuck_refuted(live, findings)


def _row_readings(obs: Observation) -> Iterator[tuple[str, str, float]]:
    """(row place, the card the view reads on top there, how surely) for each place it reads, no hand
    over it (:func:`_place_reads`, ``LiveStress.place_best``)."""
    for zone, seen in obs.piles.items():
        if zone not in CENTRE_ZONES and not zone.endswith(".stock") and not seen.held and seen.top is not None:
            yield zone, seen.top, seen.top_confidence


def _place_reads(before: Mapping[str, tuple[str, float]], obs: Observation) -> dict[str, tuple[str, float]]:
    """``before`` after a view taken: each row place it reads, with the surest reading of that card
    there so far; places it does not read keep theirs, places read as another card start afresh."""
    out = dict(before)
    for zone, top, sure in _row_readings(obs):
        code, was = before.get(zone, (top, 0.0))
        out[zone] = (top, max(sure, was) if code == top else sure)
    return out


def _stuck_refuted(live: LiveStress, findings: list[Finding]) -> list[Finding]:
    """:func:`stuck_refuted` for Stress: a play onto a centre pile (penguins, seed 100: p2's QC, read 6C at
    0.30-0.33 in its place, made the call; p2 played it onto the JS four seconds later)."""
    return stuck_refuted(live, findings, lambda move: isinstance(move, Play), "S9")


def _undo_after(live: LiveStress, findings: Sequence[Finding]) -> tuple[LiveStress, Legal[StressState]] | None:
    """What a take-back could return to after ``findings`` (:attr:`LiveStress.undo`): the picture before a
    lone play of a card nobody had read, or onto one (not judged: it may have broken S6, and a player
    who sees so takes it back; penguins, seed 107, a 10C laid on a QC nobody read, taken back at once:
    nothing happened, the 10C in its place read as a refill nobody read, and a play of it invented);
    the one kept while no move is taken; else nothing."""
    moves = [f for f in findings if f.kind == "move"]
    if not moves:
        return live.undo if not any(f.kind in ("call", "illegal", "taken_back") for f in findings) else None
    if len(findings) != 1 or not isinstance(m := moves[0].move, Play) or not isinstance(m.source, int) or not isinstance(m.to, int):
        return None
    row, centre = live.state.seats[m.player].row[m.source], live.state.centre[m.to]
    verdict = moves[0].verdict
    if not (row and is_unseen(row[-1]) or centre and is_unseen(centre[-1])) or not isinstance(verdict, Legal):
        return None
    return replace(live, undo=None), verdict


def _unread_tops(
    before: Mapping[Unseen, tuple[str, float]], state: StressState, obs: Observation
) -> dict[Unseen, tuple[str, float]]:
    """Each centre top of ``state`` nobody read -> what the view makes of it, read or guessed however
    unsure, and how sure (where it shows nothing of it: what ``before`` had)."""
    out = {}
    for zone, top in zip(CENTRE_ZONES, _centre_tops(state)):
        if not isinstance(top, Unseen):
            continue
        seen = judged(obs, zone)
        reading = (seen.top or seen.top_guess) if seen is not None else None
        if seen is not None and reading is not None:
            out[top] = reading, seen.confidences[-1] if len(seen.confidences) == len(seen.cards) else 0.0
        elif top in before:
            out[top] = before[top]
    return out


def _played_unseen(live: LiveStress, state: StressState) -> frozenset[Unseen]:
    """The stand-ins on the centre piles of ``state`` that were row cards (played there unread) in the
    position before it, or known so already: a new centre card laid unseen comes from a stock."""
    rows = {c for seat in live.state.seats for pile in seat.row for c in pile if isinstance(c, Unseen)}
    return frozenset(c for pile in state.centre for c in pile
                     if isinstance(c, Unseen) and (c in rows or c in live.played_unseen))


def _fitting_reads(obs: Observation, live: LiveStress, steady: bool = False) -> Observation:
    """The view with a centre top taken as not read (the reading kept as the camera's guess) where the
    position has a card played there unread (``LiveStress.played_unseen``) on a card it knows, and
    the camera reads it less surely than ``DOUBT_BELOW`` as a card that may not go on that one; so too
    a row pile's stacked top nobody read, read so as another rank than the card under it.
    The play was judged as a card that fits; the misread would make it one that did not, with no
    verdict, and the next card played onto it illegal (penguins, seed 73: a QC refill never read,
    played onto a KS, read 6C at 0.30 there; the KH played onto it was called illegal and nothing
    more was followed)."""
    piles: dict[str, SeenPile] = {}
    known: Counter[Card] | None = None
    for j, pile in enumerate(live.state.centre):
        seen = judged(obs, CENTRE_ZONES[j])
        if (seen is None or not seen.top_weak or (read := parse_seen(seen.top)) is None
                or not _misfits_played(pile, read, live.played_unseen, live.state.rules.wrap)):
            continue
        known = known if known is not None else real_counts(live.state)
        # a card the position knows (a row top) read there was played onto it: not a reading of it;
        # nor is a card the camera guessed alike in a row place, a refill nobody read (penguins, seed
        # 107: a KC refill guessed KC at 0.44 in its place, played onto a QC never read, read KC there)
        guessed_in_row = any(g is not None and g[0] == read.code for g in live.laid.values())
        if not known[read] and not guessed_in_row:
            piles[CENTRE_ZONES[j]] = unread_top(seen)
    # so too a row top nobody read stacked onto a card the position knows (S3: a row pile is cards of
    # one rank), read unsurely as another rank (penguins, seed 98: p2's QC stacked unread onto its QH,
    # read 6C at 0.41 there and learned so; the 6C made p2 able to play on a 7C, and the stuck call that
    # was due never came)
    for p, seat in enumerate(live.state.seats):
        for i, row in enumerate(seat.row):
            zone = row_zone(p, i)
            seen = judged(obs, zone)
            if (len(row) > 1 and is_unseen(row[-1]) and not is_unseen(row[-2]) and seen is not None and seen.top_weak
                    and (read := parse_seen(seen.top)) is not None and read.rank != row[-2].rank):
                piles[zone] = unread_top(seen)
            # and a row top nobody read, read unsurely as a card the position knows elsewhere: one deck
            # holds it once (kennard_big, seed 138: p1's 2D read AD at 0.56 while its AD lay known two
            # places on; the 5C played next could only be explained with that AD moved onto the 2D,
            # and every view after it was unrecognised)
            elif (row and is_unseen(row[-1]) and seen is not None and seen.top_weak and (read := parse_seen(seen.top)) is not None
                    and (known := known if known is not None else real_counts(live.state))[read]):
                piles[zone] = unread_top(seen)
    if steady:
        # and a row top the position knows, read unsurely as another card where nothing has moved
        piles.update(read_anew_where_still(obs, ((row_zone(p, i), row[-1]) for p, seat in enumerate(live.state.seats)
                                                 for i, row in enumerate(seat.row) if row and not is_unseen(row[-1])), live.stirred))
    return replace(obs, piles={**obs.piles, **piles}) if piles else obs


def _laid(before: Laid, state: StressState, obs: Observation | None) -> Laid:
    """The refills nobody has read that lie in their row places, each with the camera's last guess of
    it: those the view ``obs`` (one the referee took) shows a card in, read or not, and those
    ``before`` still there that it does not show."""
    out = {}
    for p, i, refill in _lone_refills(state):
        zone = row_zone(p, i)
        if obs is not None and (seen := judged(obs, zone)) is not None and (seen.cards or seen.backs):
            guess = guess_of(obs, zone, AGREEING_GUESS_FLOOR)
            out[refill] = None if guess is None else (guess, seen.top_confidence)
        elif refill in before:
            out[refill] = before[refill]
    return out


def _unlaid(before: frozenset[Unseen], state: StressState, obs: Observation | None) -> frozenset[Unseen]:
    """The refills nobody has read whose place the view ``obs`` (one the referee took) shows bare, or
    with no view taken, those of ``before`` still lying alone in their places."""
    refills = {refill: row_zone(p, i) for p, i, refill in _lone_refills(state)}
    if obs is None:
        return frozenset(u for u in before if u in refills)
    return frozenset(u for u, zone in refills.items() if bare(obs, zone))


def _read_as_before(obs: Observation, before: Observation) -> Observation:
    """The view with each top it could not read taken as read where the camera still guesses it as
    the card the last view left unused read there: the reading of one card wavers about the
    readable line from view to view (penguins, seed 62: new centre cards QD and QS, laid while both
    were stuck, the QS read at 0.30, then guessed QS at 0.28; the view that left both unread was
    taken for nothing happening, an unread card fitting the old top, and the stress they made was
    never called)."""
    return read_as_guessed(obs, {zone: was.cards[-1] for zone, was in before.piles.items()
                                 if not was.held and was.cards and was.cards[-1] is not None})


def _gathering(obs: Observation, gathered: Sequence[Card]) -> Observation:
    """The view with each centre pile that shows (read or guessed) the top of a pile the last slapper
    took taken as under a hand: that pile is still being gathered up, not a new centre card
    (penguins, seed 62: the 10C and 10D of a stress, still in view a second after the last slap, were
    taken for new centre cards, one laid unseen, and a card was invented as played onto it)."""
    codes = {seen_code(c) for c in gathered if not is_unseen(c)}
    piles = {z: SeenPile(held=True) for z in CENTRE_ZONES
             if (seen := judged(obs, z)) is not None and seen.cards and (seen.top or seen.top_guess) in codes}
    return replace(obs, piles={**obs.piles, **piles}) if piles else obs


def _judge(live: LiveStress, obs: Observation, suits: bool = True) -> tuple[LiveStress, list[Finding]]:
    """Judge one view (:func:`observe` without the bookkeeping); ``suits``: a view nothing else explains
    may get the suit-misread look (:func:`_suit_misread`)."""
    state = live.state
    t, frame = max(obs.t, state.t), obs.frame
    pend = live.pending
    if state.phase is Phase.ROUND_OVER:
        fresh = _fresh_deal(state, obs)
        if fresh is not None:
            return _start_round(live, fresh, t, frame)
    if state.phase is Phase.MATCH_OVER:
        return live, []
    if state.phase is Phase.ROUND_OVER and match(state, obs) is None:
        return replace(live, last=obs, waiting="the next deal (S11)"), []  # cards being gathered

    if state.phase is Phase.LAY and state.gathered:
        if all(bare(obs, z) for z in CENTRE_ZONES):
            # the piles taken are gathered up: a loser with no stock left lays from those very cards,
            # so one of the old tops may come down again as a new centre card
            live = replace(live, state=replace(state, gathered=()))
            state = live.state
        else:
            obs = _gathering(obs, state.gathered)
    if live.slapped_unread is not None and all(bare(obs, z) for z in CENTRE_ZONES):
        taken = _taken_unread(live, obs, t, frame)
        if taken is not None:
            return taken
    if live.held_back is not None:
        again = _judge_held_back(live, obs)
        if again is not None:
            return again
        live = replace(live, held_back=None)

    fit = partial(match, laid=live.laid, played=live.played_unseen)
    kept_seen = _surely_seen(live)
    goals = [_keeping_seen(goal, kept_seen) for goal in targets(fit, obs, None if pend is None else lambda s: _overlay(s, pend))]
    diff = differing_zones(state, obs, live.laid, live.played_unseen)
    if pend is not None:
        diff |= _touches(pend.move)
    hits = breadth_first(Node(state, count=(0,) * len(state.seats)), _expand(obs, diff, t, live.laid, live.unlaid, live.played_unseen, kept_seen),
                         goals, MAX_DEPTH)

    if hits:
        best = best_explanations(hits, substitute_cards, _unguessed)
        if all(_guessed_from_bare(x[1], state, obs) for x in best):
            # every series plays a card nobody read from a place that shows nothing, judged on a guess:
            # a card the camera lost for a view, with fewer moves, is likelier (penguins, seed 104: p2's
            # 4H played onto a 3S was taken for p1's QS, lost by the camera, played there as a 4 and
            # the 4H stacked onto a pile under a hand)
            lost = _lost_look(live, obs, suits, min(len(x[1].moves) for x in best))
            if lost is not None:
                return lost
        if len(best) > 1:
            best = _fewest_guess_conflicts(best, live.laid)
        if len(best) > 1 and live.glimpsed:
            kept = [_glimpses_kept(x, state, live.glimpsed) for x in best]
            best = [x for x, n in zip(best, kept) if n == max(kept)]
        if len(best) > 1:
            names = "; ".join(", ".join(str(m) for m in x[1].moves) or "nothing" for x in best)
            return replace(live, last=obs), [Finding("ambiguous", t, frame=frame, detail=f"several move series fit: {names}")]
        final, node, k, subs = best[0]
        if suits and (_from_still_places(node.moves, obs, live.stirred) or _refill_stacked_onto_unsure(node.moves, state, live)):
            # a card cannot leave a row place nothing moved over since the view taken: a top read
            # as another suit of its rank is likelier (kennard_big, seed 124: a 7D read 7H at 0.33
            # as new centre cards were laid was taken for a card nobody read stacked onto it from a
            # place the camera saw no hand over, its guess the same before and after)
            # (and a refill the series stacks at once onto a top no view read surely: kennard_big, seed
            # 124, p2's 2H and 2D played under the hand, the JS refilled beside them before, read JC
            # at 0.41 once and JS at 0.62 now: taken for another refill, a jack, stacked onto a JC)
            misread = _suit_misread(live, obs, diff) or _misread_in_still_place(live, obs, node.moves)
            if misread is not None and sum(f.kind == "move" for f in misread[1]) < len(node.moves):
                return misread
        if node.moves and live.call_held is not None:
            # the shortest series may pass over what the held view showed (new centre cards laid
            # and covered by the next ones before this view: penguins, seed 61)
            after_held = _judge_call_held(live, obs)
            if after_held is not None and sum(f.kind == "move" for f in after_held[1]) > len(node.moves):
                return after_held
        centre, note = final.centre, ""
        if not node.moves and pend is None:
            played = _played_unread(state, obs, t, live.laid, live.unlaid)
            if played is not None:
                (final, node, k, subs), j, note = played
                # the card is unread where it lies, as the guess that shows it came says: not waited on
                centre = stress._set(final.centre, j, state.centre[j])
            elif (guessed_play := _played_guessed(state, obs, t, live.laid)) is not None:
                (final, node, k, subs), note = guessed_play
            elif (unread_play := _played_known_unread(state, obs, t, live.laid)) is not None:
                (final, node, k, subs), note = unread_play
            elif (stacked := _stacked_unread(state, obs, t, live.laid)) is not None:
                (final, node, k, subs), note = stacked
            elif (moved_away := _doubt_moved(live, obs)) is not None:
                return _judge(moved_away, obs, suits)
            elif live.deferred < MAX_DEFERRED and _changed_under_hand(state, obs, live.laid):
                return deferred(live, obs), []
        unread = unread_centre(live, obs, final, centre, t, "laid", 1, unseen_after=UNSEEN_AFTER)
        if isinstance(unread, Guessed):
            subs, obs = {**subs, **unread.subs}, unread.view(obs)
        elif unread is not None:
            return unread
        replayed = ENGINE.replay(state, node.moves, subs, t, frame)
        if replayed is None:
            return _illegal_once_seen(live, state, node.moves, subs, obs, t, frame)
        # a stuck call made on a card judged as one that fits rests on a card nobody read: withdrawn
        new_state, findings = ENGINE.without_unseen_stuck(state, *_unguess(node, *replayed))
        if isinstance(unread, Guessed):
            findings = noted(findings, unread.note)
        if note:
            findings = noted(findings, note)
        new_state, later = ENGINE.settle_calls(new_state, t, frame, _tops_guessed(new_state, obs), _played_fits(state, new_state, live.played_unseen))
        findings += later
        if node.moves and live.deferred < MAX_DEFERRED:
            # a call resting on a zone not seen (another card may lie there), or a move nothing in
            # the view shows: the next view is judged from the same position (a card not read that
            # the camera guesses as the very card the series leaves there counts as seen)
            seen = _read_where_played(read_where_guessed(obs, final.centre, AGREEING_GUESS_FLOOR), node.moves, final)
            if _unseen_and_covered(node.moves, seen):
                return replace(deferred(live, obs), held_back=obs), []
            if _maybe_stacked_under_hand(node.moves, state, final, obs):
                return deferred(live, obs), []
            if _call_unseen(findings, seen, new_state):
                return replace(deferred(live, obs), call_held=obs, held_piles=_pile_sizes(new_state)), []
        after, findings = explained(live, new_state, findings, k, t, frame, _waiting)
        if isinstance(unread, Guessed) and unread.subs:
            after = replace(after, guessed=after.guessed | frozenset(unread.subs.values()))
        return _slapped_while_held(after, findings, live.held_slaps)

    if live.call_held is not None:
        after_held = _judge_call_held(live, obs)
        if after_held is not None:
            return after_held

    fixed = read_anew(live, obs, _retop_centre, 1)
    if fixed is not None:
        # a card taken from a guess, read surely as another card now: judged again on that one
        return _judge(fixed, obs)

    guessed = _doubt_guessed(live, obs)
    if guessed is not None:
        # a centre card taken from the camera's guesses, covered or guessed otherwise now: judged again
        # as a card nobody read, before a move onto it is called against the rules
        unguessed, said = _judge(guessed, obs, suits)
        if (said and all(f.kind in ("move", "call") for f in said) and unguessed.last is None and not unguessed.deferred
                and unguessed.pending is None):
            return unguessed, said

    # before an illegal move or a card read where it lies doubted: a row card the camera did not find
    # this once
    lost = _lost_look(live, obs, suits)
    if lost is not None:
        return lost

    if pend is None:
        # an illegal move, alone or after legal moves of the other player
        starts = [Node(state, count=(0,) * len(state.seats))]
        starts += list(_expand(obs, diff, t, live.laid, live.unlaid, live.played_unseen)(starts[0]))
        named = _named_unread(live)
        found = ENGINE.illegal_explanation(live, obs, starts, lambda s: _physical(s, t, named, live.played_unseen), _in_view, fit, t, _waiting)
        if found is not None:
            return found

    doubted = _doubt_unsure(live, obs) or _doubt_moved(live, obs, centre=True) or _doubt_in_place(live, obs)
    if doubted is not None:
        # a card read surely where the position holds it elsewhere, read there only unsurely: judged
        # again with that one unknown (after the illegal look: a card played against the rules is
        # read surely where it lands, and was maybe read only unsurely where it lay)
        return _judge(doubted, obs, suits)

    if suits:
        misread = _suit_misread(live, obs, diff)
        if misread is not None:
            return misread

    undone = _undone(live, obs)
    if undone is not None:
        return undone

    if state.phase is Phase.STRESS and any(z in diff for z in CENTRE_ZONES):
        # the centre piles were taken or new cards laid before the slaps were entered: wait for them
        return replace(live, last=obs, waiting="the slaps (S8)"), []
    taken = _taken_untold(live, obs)
    if taken is not None:
        return taken
    return replace(live, last=obs), [Finding("unrecognised", t, frame=frame, detail=_difference(state, obs))]


def _sure_centre_reads(obs: Observation) -> frozenset[tuple[str, str]]:
    """(centre zone, card) for each centre top the view reads at least ``DOUBT_BELOW``, no hand over it."""
    return frozenset((z, p.top) for z in CENTRE_ZONES if (p := judged(obs, z)) is not None and p.top is not None and not p.top_weak)


def _surely_seen(live: LiveStress) -> frozenset[tuple[str, str]]:
    """(centre zone, card) for each centre top the views left unused since the last one taken read
    surely (at least ``DOUBT_BELOW``): the last one's, and ``LiveStress.surely_glimpsed``."""
    return live.surely_glimpsed | (_sure_centre_reads(live.last) if live.last is not None else frozenset())


def _keeping_seen(
    goal: Callable[[StressState], dict[Unseen, Card] | None], reads: frozenset[tuple[str, str]],
) -> Callable[[StressState], dict[Unseen, Card] | None]:
    """``goal``, reached only by a series that keeps in each centre pile the tops the views left unused
    read surely there (``reads``: :func:`_surely_seen`): the card itself, or a
    card nobody read, then learned as that one. Centre cards stay where they are laid until the round
    ends, so a series that leaves such a card out passed over it (penguins, seed 105: new centre cards
    8S and a QC nobody could read, waited on, then the next ones 7C and JC laid on them: one lay
    explained the view; seed 104: a lay's JH read at 0.63 in a view left unused, the next one unused
    too, was taken for a 6C read at 0.35 where the QC played onto it lay)."""
    seen = [(CENTRE_ZONES.index(z), card) for z, code in sorted(reads) if (card := parse_seen(code)) is not None]
    if not seen:
        return goal

    def keeps(s: StressState) -> dict[Unseen, Card] | None:
        b = goal(s)
        if b is None or s.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):  # (the centre piles taken up)
            return b
        kept = dict(b)
        for j, card in seen:
            pile = s.centre[j]
            if card in pile or card in kept.values():
                continue
            # the card nobody read that it was, highest first (learned: the view read it)
            u = next((c for c in reversed(pile) if isinstance(c, Unseen) and c not in kept), None)
            if u is None or real_counts(s)[card]:
                return None
            kept[u] = card
        return kept

    return keeps


def _missed_places(state: StressState, obs: Observation) -> Observation:
    """The view with each row place that shows nothing at all (no card, no back, no hand), where the
    position holds cards, taken as a card not read: a card the camera lost for a view (penguins, seed
    104: p1's QS, guessed faintly in its place before and after, not found at all in the view where
    p1 played the 7C next to it; the first look, which holds a card seen lying there to be there,
    found nothing, and the doubting look took the 7C, read at 0.51 in its place, as misread, the QS as
    the 7C played: thirty moves lost after it). Only legal moves from places that read their refills
    are taken from it (:func:`_left_where_read`): a bare place is as often the place a card left."""
    return lost_as_unread(obs, [row_zone(p, i) for p, seat in enumerate(state.seats) for i, pile in enumerate(seat.row) if pile])


def _lost_look(live: LiveStress, obs: Observation, suits: bool, fewer_than: int | None = None) -> tuple[LiveStress, list[Finding]] | None:
    """The view judged with the row places that show nothing taken as cards not read
    (:func:`_missed_places`), when that explains it with legal moves only (fewer than ``fewer_than``),
    each from a place that reads its refill now (:func:`_left_where_read`), or with nothing happening
    while both centre tops are read (:func:`_centre_read`); None otherwise."""
    state = live.state
    missed = _missed_places(state, obs)
    if missed is obs:
        return None
    past, said = _judge(live, missed, suits)
    moves = [f.move for f in said if f.kind == "move"]
    if (past.last is None and not past.deferred and past.pending is None and all(f.kind in ("move", "call") for f in said)
            and (fewer_than is None or len(moves) < fewer_than)
            and (_left_where_read(state, moves, obs) or not said and _centre_read(obs) and _lost_unread(state, obs))):
        return past, said
    return None


def _lost_unread(state: StressState, obs: Observation) -> bool:
    """Is every row place that shows nothing, where the position holds cards, one whose top nobody has
    read? A card read before that vanishes may have been taken up (the view is unrecognised); one the
    camera only ever guessed faintly, it loses as often as it finds (seed 104)."""
    return all(is_unseen(pile[-1]) for p, seat in enumerate(state.seats) for i, pile in enumerate(seat.row)
               if pile and bare(obs, row_zone(p, i)))


def _guessed_from_bare(node: Node[StressState], start: StressState, obs: Observation) -> bool:
    """Does the series play the card nobody read on top of a row place (in ``start``), judged on a
    guess, from that place, the view showing nothing there?"""
    return any(isinstance(m, (Play, Stack)) and isinstance(m.source, int) and bare(obs, row_zone(m.player, m.source))
               and (top := start.seats[m.player].row[m.source][-1:]) and top[0] in node.guesses
               for m in node.moves)


def _centre_read(obs: Observation) -> bool:
    """Does the view, no hand over the table, read both centre tops? A row card the camera did not find
    went nowhere then (a stack would show on the pile it went onto): nothing happened (penguins, seed
    104: p1's QS, a refill guessed at 0.06 once, lost by the camera again and again; the view its
    neighbour's refill was laid in was unrecognised, then taken for the QS played unread)."""
    return not any(p.held for p in obs.piles.values()) and all(
        (seen := judged(obs, z)) is not None and seen.top is not None for z in CENTRE_ZONES)


def _left_where_read(state: StressState, moves: Sequence[Any], obs: Observation) -> bool:
    """Did the series move row cards, each from a place the view reads another card in now (its
    refill), or each a card the position knows, read where it landed and not shown where it lay? Only
    that says a move left from there; a place that shows nothing, or the card it showed before
    unread, may be the very place a card left unseen, unless the card is known: one deck, so a card
    read where it lands came from where the position holds it (penguins, seed 104: p2's 4H read on the 3S it was played onto, its
    place bare until the refill, p1's QS lost by the camera next to it)."""
    rows = [m for m in moves if isinstance(m, (Play, Stack)) and isinstance(m.source, int)]
    for m in rows:
        assert isinstance(m.source, int)
        seen = judged(obs, row_zone(m.player, m.source))
        pile = state.seats[m.player].row[m.source]
        if (pile and not is_unseen(pile[-1]) and _read_where_landed(m, pile[-1], obs)
                and (seen is None or pile[-1].code not in (seen.top, seen.top_guess))):
            continue
        if seen is None or seen.top is None or (pile and not is_unseen(pile[-1]) and pile[-1].code == seen.top):
            return False
    return bool(rows)


def _read_where_landed(move: Play | Stack, card: Card, obs: Observation) -> bool:
    """Does the view read ``card`` on top of the pile ``move`` lays it on?"""
    if isinstance(move, Play) and isinstance(move.to, int):
        zone = CENTRE_ZONES[move.to]
    elif isinstance(move, Stack) and isinstance(move.onto, int):
        zone = row_zone(move.player, move.onto)
    else:
        return False
    seen = judged(obs, zone)
    return seen is not None and seen.top == card.code


def _undone(live: LiveStress, obs: Observation) -> tuple[LiveStress, list[Finding]] | None:
    """A view nothing else explains that shows the table as it was before the last play of a card nobody
    had read (:attr:`LiveStress.undo`), or a move on from there: the card was taken back (it did not
    fit, or its player thought better of it), and the play is retracted (penguins, seed 96: p1's QS,
    guessed QS in its place and boxed as a back where it landed on an AC, taken for a card that fits;
    taken back, the view was unrecognised until the referee lost the game and took the table up again
    with a stock a card short)."""
    if live.undo is None or live.pending is not None:
        return None
    before, verdict = live.undo
    after, findings = _judge(before, obs)
    if after.last is not None or after.deferred or [f.kind for f in findings] not in ([], ["move"]):
        # the card nobody read that the play covered, uncovered again, read only unsurely (seed 107:
        # the QC read 9C at 0.37 once the 10C laid on it was taken back)
        after, findings = _judge(before, _unsure_centre_unread(obs))
        if after.last is not None or after.deferred or [f.kind for f in findings] not in ([], ["move"]):
            return None
    move = verdict.move
    t = max(obs.t, live.state.t)
    row = before.state.seats[move.player].row[move.source]
    what = "the card played, never read," if row and is_unseen(row[-1]) else "the card played onto a card nobody read"
    back = Finding("taken_back", t, move=move, verdict=verdict, frame=obs.frame,
                   detail=f"{move}: {what} was taken back: the table is as it was before it")
    return after, [back, *_taken_back_illegal(before, move, t, obs.frame), *findings]


def _unsure_centre_unread(obs: Observation) -> Observation:
    """The view with each centre top read less surely than ``DOUBT_BELOW`` taken as not read (the
    reading kept as the camera's guess)."""
    piles = {z: unread_top(seen) for z in CENTRE_ZONES if (seen := judged(obs, z)) is not None and seen.top is not None
             and seen.top_weak and len(seen.guesses) == len(seen.cards)}
    return replace(obs, piles={**obs.piles, **piles}) if piles else obs


def _taken_back_illegal(before: LiveStress, move: Any, t: float, frame: int | None) -> list[Finding]:
    """A play of a card nobody read, taken back, where the camera guessed the card in its place (``laid``)
    as one the rules forbid there: the player took back a move against the rules, as players do, so it
    is said (and logged) as that illegal move, taken back (penguins, seed 96: p1's QS, guessed QS at 0.23
    in its place, played onto an AC and boxed as a back there; the S6 play was never called). Nothing
    when the guess fits or there is none."""
    if not isinstance(move, Play) or not isinstance(move.source, int):
        return []
    pile = before.state.seats[move.player].row[move.source]
    u = pile[-1] if pile else None
    guess = before.laid.get(u) if isinstance(u, Unseen) else None
    card = parse_seen(guess[0]) if guess is not None else None
    if not isinstance(u, Unseen) or guess is None or card is None or card in real_counts(before.state):
        return []
    v = stress.apply(substitute_cards(before.state, {u: card}), replace(move, t=t))
    if not isinstance(v, Illegal):
        return []
    reason = f"{v.reason} (the card never read: the camera guessed {card.code} at {guess[1]:.2f} in its place; its player took it back)"
    return [Finding("illegal", t, move=move, rule=v.rule, reason=reason, frame=frame), Finding("taken_back", t, move=move, frame=frame)]


def _taken_unread(live: LiveStress, obs: Observation, t: float, frame: int | None) -> tuple[LiveStress, list[Finding]] | None:
    """A view showing both centre piles taken after slaps kept while a top was never read
    (``LiveStress.slapped_unread``): only a stress takes them in play (S8), so the players saw one.
    The tops are taken as matching cards (as the camera last made of them, where it fits), the
    stress is called at the first slap and the slaps are judged; the piles go face down into the
    loser's stock, where nobody knows the cards anyway. None when the camera made nothing of the
    tops (no rank to call). Penguins, seed 70: a QS and a QC, both played unread, slapped at 195.1
    and 195.7 s; the slaps were never watched and the piles taken were left in the position."""
    slapped = live.slapped_unread
    assert slapped is not None
    subs = _matching_tops(live.state, live.unread_tops)
    if subs is None:
        return None
    first = min(at for _, at, _ in slapped.slaps)
    stressed, events = stress._finish(replace(substitute_cards(live.state, subs), t=max(live.state.t, first)), first, [])
    if stressed.phase is not Phase.STRESS:
        return None
    named = " and ".join(c.code for c in subs.values())
    note = f"both centre piles seen taken after the players' slaps: nobody read {named} surely (the camera's guess)"
    findings = call_findings(events, ENGINE.calls, first, frame)
    after, findings = _slapped_while_held(replace(live, state=stressed, last=None, slapped_unread=None), findings, slapped.slaps)
    after, more = _judge(after, obs)
    return after, noted(findings, note) + more


def _taken_untold(live: LiveStress, obs: Observation) -> tuple[LiveStress, list[Finding]] | None:
    """A view nothing else explains that shows the centre piles taken in play, as many as a stress
    takes (S8: both, or one under ``slapped_pile`` and ``fastest_gives``), no hand over them: only a
    stress takes them, so the players saw one the referee could not (a card misread) and slapped
    unwatched. Who paid is not known: the cards are kept as ``untold`` until a stock shows them,
    and the round goes on from new centre cards (S4). None unless the view fits that position.
    Penguins, seed 104: a QC played onto a JH was read 6C, the stress the QD beside it made was
    missed, and with the taken piles left in the position the rest of the round was lost."""
    state = live.state
    if state.phase is not Phase.PLAY or live.pending is not None:
        return None
    taken = [j for j, z in enumerate(CENTRE_ZONES) if state.centre[j] and bare(obs, z)]
    kept = [j for j, z in enumerate(CENTRE_ZONES) if state.centre[j] and j not in taken]
    if not taken or (kept if state.rules.stress_penalty == "both_piles" else len(taken) != 1):
        return None
    gone = sum(len(state.centre[j]) for j in taken)
    centre = tuple(() if j in taken else pile for j, pile in enumerate(state.centre))
    after = replace(live, state=replace(state, centre=centre, phase=Phase.LAY, stuck=False, t=max(state.t, obs.t)),
                    untold=live.untold + gone, undo=None, slapped_unread=None)
    again, findings = _judge_untold(after, obs, suits=False)  # (their stock may show them already)
    if not _explains(again, findings):
        return None
    piles = " and ".join(CENTRE_ZONES[j] for j in taken)
    note = (f"{piles} taken: the players saw a stress the referee could not (a card misread), and their slaps were "
            f"not seen; the {gone} cards went into a stock, whose is not known")
    return again, [Finding("rejoined", max(state.t, obs.t), frame=obs.frame, detail=note), *findings]


def _judge_untold(live: LiveStress, obs: Observation, suits: bool = True) -> tuple[LiveStress, list[Finding]]:
    """:func:`_judge`, and where nothing explains the view, judged again with a stock count put right
    where the view shows that stock otherwise, no hand over it, and the position has no more than one
    view's refills left in it (a count nobody sees: a missed stack took a refill, or piles taken went
    into a stock nobody could name):

    - cards ``untold`` given to a stock the view shows holding cards: the stock they went into is the
      one that explains the view (given wrongly, the other runs short in turn, and the game is taken up
      again);
    - a stock the view shows empty taken as empty (penguins, seed 120: a QC stacked onto a QH unseen,
      its refill learned as the QC's card; p1's stock counted a card too many, and when it ran out the
      refill it was still owed stood as a card not laid yet in p1's row, holding four stuck calls)."""
    after, findings = _judge(live, obs, suits)
    if _explains(after, findings):
        return after, findings
    for p, seat in enumerate(live.state.seats):
        seen = judged(obs, stock_zone(p))
        if len(seat.stock) > MAX_PER_PLAYER or seen is None:
            continue
        if seen.cards or seen.backs:
            if not live.untold:
                continue
            # (the untold cards, all of them: the piles taken went into one stock)
            counts = [(replace(seat, stock=seat.stock + tuple(unseen() for _ in range(live.untold))), 0)]
        elif seen.backs == 0 and seat.stock:
            # (as many fewer as it takes: the view's own refills may come out of it first)
            counts = [(replace(seat, stock=seat.stock[:n]), live.untold) for n in range(len(seat.stock) - 1, -1, -1)]
        else:
            continue
        for counted, untold in counts:
            again, said = _judge(replace(live, state=replace(live.state, seats=stress._set(live.state.seats, p, counted)), untold=untold),
                                 obs, suits)
            if not said or not _explains(again, said):
                # (a count put right goes with a move of this view: taken for nothing happening, the
                # untold cards made 104 lose a move and invent two)
                continue
            if untold == live.untold:
                fewer = len(seat.stock) - len(counted.stock)
                said = noted(said, f"{stock_zone(p)} shows empty: {fewer} card(s) fewer than counted (a refill the camera did not see)")
            return again, said
    return after, findings


def _taken(after: LiveStress) -> bool:
    """Was the view taken: not left unused, waited on or held back?"""
    return after.last is None and not after.deferred and after.held_back is None


def _explains(after: LiveStress, findings: Sequence[Finding]) -> bool:
    """Was the view taken, nothing in it unrecognised, ambiguous or against the rules?"""
    return _taken(after) and not any(f.kind in ("unrecognised", "ambiguous", "illegal") for f in findings)


def _matching_tops(state: StressState, readings: Mapping[Unseen, tuple[str, float]]) -> dict[Unseen, Card] | None:
    """The centre tops nobody read taken as cards of one rank with the other top: the rank of the top
    that was read, else of the camera's surest reading of one; each the card the camera made of it
    where that is of the rank and known nowhere else, else another of the rank known nowhere. None
    when the camera made nothing of a rank, or too few such cards are left."""
    tops = _centre_tops(state)
    made = [readings[c] if isinstance(c, Unseen) and c in readings else None for c in tops]
    read = [parse_seen(m[0]) if m is not None else None for m in made]
    known = [c.rank for c in tops if c is not None and not is_unseen(c)]
    surest = max(((m[1], r.rank) for m, r in zip(made, read) if m is not None and r is not None), default=None)
    if known:
        rank = known[0]
    elif surest is not None:
        rank = surest[1]
    else:
        return None
    free = _free_of_rank(real_counts(state), rank)
    subs: dict[Unseen, Card] = {}
    for top, guess in zip(tops, read):
        if not isinstance(top, Unseen):
            continue
        pick = guess if guess is not None and guess in free else next(iter(free), None)
        if pick is None:
            return None
        free.remove(pick)
        subs[top] = pick
    return subs


def _doubt_guessed(live: LiveStress, obs: Observation) -> LiveStress | None:
    """The picture with each centre top no view has read (taken from the camera's guesses) that this
    view does not show as that card made a card nobody read again; None when there is none. A guess
    taken lets the game go on, it does not make the card (penguins, seed 92: a QS laid was guessed 6S
    at 0.23 in two views and taken so, then guessed QS at 0.10-0.17; the 6H played onto the other
    pile made a stress on the 6S that the view could not show, and the KC played onto the QS left
    every view after unrecognised)."""
    state = live.state
    for j, pile in enumerate(state.centre):
        seen = judged(obs, CENTRE_ZONES[j])
        if (not pile or pile[-1] not in live.guessed or seen is None
                or pile[-1].code in (seen.top, guess_of(obs, CENTRE_ZONES[j], AGREEING_GUESS_FLOOR))):
            continue
        state = _retop_centre(state, j, unseen())
    return replace(live, state=state, guessed=live.guessed - {p[-1] for p in live.state.centre if p}) if state is not live.state else None


def _doubt_unsure(live: LiveStress, obs: Observation) -> LiveStress | None:
    """The picture with each row card no view has read surely (``Live.sure``) that this view reads
    surely in another place made a stand-in again, seen lying where it lies; None when there is none.
    One deck holds one of each card, so the unsure readings where it lay were misreadings (penguins,
    seed 67: a QC refill read 6C at 0.21-0.39 for 45 s was taken for the 6C; when the real 6C,
    refilled into another place, was played and read at 0.65 on a centre pile, nothing explained
    it, and the QC's place was later taken for the 6C's play)."""
    elsewhere = {seen.top: zone for zone in obs.piles
                 if (seen := judged(obs, zone)) is not None and seen.top is not None and not seen.top_weak}
    doubted = [(p, i, k) for p, seat in enumerate(live.state.seats) for i, pile in enumerate(seat.row)
               for k, card in enumerate(pile)
               if not is_unseen(card) and card.code not in live.sure and elsewhere.get(card.code, row_zone(p, i)) != row_zone(p, i)]
    return _as_stand_ins(live, doubted) if doubted else None


def _doubt_in_place(live: LiveStress, obs: Observation) -> LiveStress | None:
    """The picture with each row top no view taken read surely in its place (``place_reads``) made a
    stand-in again where this view reads another card surely there and the camera saw nothing move
    over the place since the view taken last (``SeenPile.still``, ``LiveStress.stirred``); None when
    there is none. The card did not change: its first reading was the misread (simplistic, seed 127: a
    KH refill read 10H at 0.35 and learned so, then read KH at 0.67 as the other player stacked a 3C;
    nothing explained it, and the next play was taken for a card of another place)."""
    real: Counter[Card] | None = None
    doubted = []
    for p, seat in enumerate(live.state.seats):
        for i, pile in enumerate(seat.row):
            zone = row_zone(p, i)
            seen = judged(obs, zone)
            card = pile[-1] if pile else None
            read = parse_seen(seen.top) if seen is not None and not seen.top_weak else None
            if card is None or is_unseen(card) or read is None or read == card or not _still_since_taken(obs, zone, live.stirred):
                continue
            code, sure = live.place_reads.get(zone, (card.code, 0.0))
            if code == card.code and sure >= DOUBT_BELOW:
                continue  # read surely where it lies: this reading is the misread
            real = real if real is not None else real_counts(live.state)
            if not real[read]:
                doubted.append((p, i, len(pile) - 1))
    return _as_stand_ins(live, doubted) if doubted else None


def _suit_misread(live: LiveStress, obs: Observation, diff: frozenset[str]) -> tuple[LiveStress, list[Finding]] | None:
    """A view nothing else explains, looked at with one top taken as not read, where the legal series
    that then explains it leaves another card of that rank there: one of the two readings of the suit
    is wrong, and a Stress move never turns on a suit. The top is one this view reads unsurely (under
    ``DOUBT_BELOW``), or one it reads surely where the card the position holds was never read surely
    (kennard_big, seed 124: a 7S refill read 7C at 0.36-0.37, played onto a 6H and read 7S at 0.61
    there: nothing explained it, and the next play was called against the rules). The
    card the position holds becomes the one read now when no view read it surely and the one read
    now is nowhere else (penguins, seed 67: a QC stacked onto a QD was never seen; the pile, played
    onto a KC, showed its QC read at 0.43 where the position had the QD, never read above 0.32, and
    the game was lost). Only when one such top explains the view."""
    answers = []
    for zone in sorted(diff):
        seen = judged(obs, zone)
        read = parse_seen(seen.top) if seen is not None else None
        if seen is None or read is None:
            continue
        unread = replace(obs, piles={**obs.piles, zone: replace(seen, cards=seen.cards[:-1] + (None,))})
        after, findings = _judge(live, unread, suits=False)
        top = _top_at(after.state, zone)
        if (not _taken(after) or after.pending is not None or not all(f.kind in ("move", "call") for f in findings)
                or top is None or is_unseen(top) or top.rank != read.rank or top == read):
            continue
        if not seen.top_weak and top.code in live.sure:
            continue  # two sure readings of one card: not this
        note = f"{zone} read {read.code} at {seen.confidences[-1]:.2f} where the {top.code} lies"
        if (top.code not in live.sure and not real_counts(after.state)[read]
                and seen.confidences[-1] > live.place_best.get((zone, top.code), 0.0)):
            # (not where the card held was read more surely: kennard_4c_big, seed 128, a 7S read 7S
            # at 0.35 and 7C at 0.30 in turn was taken for the 7C, and its play onto a 6H for another's)
            after = replace(after, state=_retop(after.state, zone, read))
            note += f", never read surely: the {read.code}"
        answers.append((after, noted(findings, note)))
    return answers[0] if len(answers) == 1 else None


def _misread_in_still_place(live: LiveStress, obs: Observation, moves: Sequence[Any]) -> tuple[LiveStress, list[Finding]] | None:
    """The series' source places that nothing moved over since the view taken and that this view reads
    only unsurely (under ``DOUBT_BELOW``), each looked at with that reading taken as not read: the
    fewest moves that then explain the view, if fewer than the series has (kennard_4c_big, seed 128: a
    5H read JH at 0.36 in its place as the new centre cards were laid, taken for the 5H stacked onto a
    place guessed QC all along and a JH refilled; the 5H's play onto the 4D next was lost and two
    moves invented). None: no such place, or no fewer moves."""
    best: tuple[int, LiveStress, list[Finding]] | None = None
    for m in moves:
        if not isinstance(m, (Play, Stack)) or not isinstance(m.source, int):
            continue
        zone = row_zone(m.player, m.source)
        seen = judged(obs, zone)
        if seen is None or seen.top is None or not seen.top_weak or not _still_since_taken(obs, zone, live.stirred):
            continue
        unread = replace(obs, piles={**obs.piles, zone: replace(seen, cards=seen.cards[:-1] + (None,))})
        after, findings = _judge(live, unread, suits=False)
        if not _taken(after) or after.pending is not None or not all(f.kind in ("move", "call") for f in findings):
            continue
        n = sum(f.kind == "move" for f in findings)
        if n < len(moves) and (best is None or n < best[0]):
            note = f"{zone} read {seen.top} at {seen.confidences[-1]:.2f} where nothing moved: taken as misread"
            best = (n, after, noted(findings, note))
    return None if best is None else (best[1], best[2])


def _retop(state: StressState, zone: str, card: Card) -> StressState:
    """The position with the top card of a centre pile or row place replaced by ``card``."""
    if zone in CENTRE_ZONES:
        return _retop_centre(state, CENTRE_ZONES.index(zone), card)
    at = _row_place(state, zone)
    if at is None or not state.seats[at[0]].row[at[1]]:
        return state
    p, i = at
    seat = state.seats[p]
    row = stress._set(seat.row, i, seat.row[i][:-1] + (card,))
    return replace(state, seats=stress._set(state.seats, p, Seat(seat.stock, row)))


def _top_at(state: StressState, zone: str) -> Card | None:
    """The top card of a centre pile or row place."""
    if zone in CENTRE_ZONES:
        pile = state.centre[CENTRE_ZONES.index(zone)]
    else:
        at = _row_place(state, zone)
        if at is None:
            return None
        pile = state.seats[at[0]].row[at[1]]
    return pile[-1] if pile else None


def _row_place(state: StressState, zone: str) -> tuple[int, int] | None:
    """(player, place) of a row place's zone; None for another zone."""
    at = seat_zone(zone, state.seats)
    i = pile_number(at[2]) if at is not None else None
    return (at[0], i) if at is not None and i is not None and 0 <= i < len(at[1].row) else None


def _retop_centre(state: StressState, j: int, card: Card) -> StressState:
    return replace(state, centre=stress._set(state.centre, j, state.centre[j][:-1] + (card,)))


def _centre_seen(obs: Observation) -> bool:
    """Are both centre piles in view and read (no hand over them, their cards readable)?"""
    return all((p := judged(obs, z)) is not None and p.cards and None not in p.cards for z in CENTRE_ZONES)


def _read_where_played(obs: Observation, moves: Sequence[Any], final: StressState) -> Observation:
    """The view with a centre top it cannot read taken as read where the series plays there a row
    card the referee knows (read in its place, seen leaving it), and the camera does not guess
    another card there (at least ``AGREEING_GUESS_FLOOR``: a guess under it says nothing either
    way). Penguins, seed 77: a QH played onto a JC beside a QD was guessed 6H at 0.03, then QH at
    0.03 there; the stress call waited for a reading that never came, the players slapped unwatched,
    and the piles they took were unrecognised."""
    read = {}
    for m in moves:
        if isinstance(m, Play) and isinstance(m.to, int) and isinstance(m.source, int) and final.centre[m.to]:
            top, zone = final.centre[m.to][-1], CENTRE_ZONES[m.to]
            seen = judged(obs, zone)
            if (not is_unseen(top) and seen is not None and seen.cards and seen.cards[-1] is None
                    and guess_of(obs, zone, AGREEING_GUESS_FLOOR) in (None, top.code)):
                read[zone] = replace(seen, cards=seen.cards[:-1] + (top.code,))
    return replace(obs, piles={**obs.piles, **read}) if read else obs


def _tops_guessed(state: StressState, obs: Observation) -> dict[Unseen, Card] | None:
    """The camera's guesses of the row and centre tops nobody has read (:func:`tops_guessed`)."""
    tops = [(row_zone(p, i), pile[-1]) for p, seat in enumerate(state.seats) for i, pile in enumerate(seat.row) if pile]
    return tops_guessed(state, obs, tops + [(CENTRE_ZONES[j], pile[-1]) for j, pile in enumerate(state.centre) if pile], 1)


def _call_unseen(findings: Sequence[Finding], obs: Observation, final: StressState) -> bool:
    """Does a call of the view rest on a zone the view does not show? A stress (S8) concerns only the
    two centre tops: once both are in view and read it is certain, whatever hands are over the rows
    or stocks (a hand over a row may hide another play, but that card would be on a centre pile, or
    under a row card, where it changes no centre top). The end of a round (S10) concerns only the
    winner's places: once all show nothing, plainly, it is certain, whatever the other player's row
    shows (penguins, seed 55: a QC never read in the loser's row held the round's end until the
    cards were gathered, and the second round was never followed). Any other call (stuck: every row
    top counts) waits for a view with nothing under a hand, nor unread where the position (``final``)
    has a card nobody has read on top: a known top the camera cannot read is that card still, or the
    series would show it moved (penguins, seed 111: p1's QD, read at 0.10-0.27 in every view, held
    the stuck call of a 2D play until the next lay)."""
    calls = [f for f in findings if f.kind == "call"]
    if not calls or not unclear(obs):
        return False

    def certain(call: Event) -> bool:
        if call.kind == "stuck" and (dict(call.data).get("guessed") or dict(call.data).get("answered")):
            return True  # made on the camera's guesses of the unread tops, no hand over the table; or
            # answered by the series' next move, new centre cards (Engine.replay)
        if call.kind == "stuck":
            return not unread_unknown(obs, lambda zone: _top_at(final, zone))
        if call.kind == "stress":
            return _centre_seen(obs)
        if call.kind in ("round_over", "match_over") and call.player is not None:
            return _seat_emptied(obs, call.player)
        return False

    return not all(certain(f.verdict) for f in calls)


def _seat_emptied(obs: Observation, player: int) -> bool:
    """Do the player's row places and stock all show nothing, none under a hand?"""
    zones = [row_zone(player, i) for i in range(stress.ROW)] + [stock_zone(player)]
    return all(bare(obs, z) for z in zones)


def _landing_key(move: Any) -> tuple[Any, ...] | None:
    if isinstance(move, Play):
        return ("centre", move.to)
    if isinstance(move, Stack):
        return ("row", move.player, move.onto)
    return None


def _unseen_and_covered(moves: Sequence[Any], obs: Observation) -> bool:
    """Does the series take a card from a row place the view does not show (under a hand, unread) and
    cover it with a later move (or new centre cards)? Nothing in the view shows that move happened: a
    5H laid on a 7H (S6) while the hand is still over the row was explained as the 6D under the hand
    played first, then the 5H on it; the row showed the 6D again a moment later."""
    hidden = unjudged(obs)
    for i, move in enumerate(moves):
        if not isinstance(move, (Play, Stack)) or not isinstance(move.source, int):
            continue
        if row_zone(move.player, move.source) not in hidden:
            continue
        landing = _landing_key(move)
        assert landing is not None
        if any(isinstance(later, Lay) and landing[0] == "centre" or _landing_key(later) == landing for later in moves[i + 1:]):
            return True
    return False


def _maybe_stacked_under_hand(moves: Sequence[Any], state: StressState, final: StressState, obs: Observation) -> bool:
    """Does the series play a row card onto a centre pile under a hand, its place now showing a card
    of the same rank? Nothing shows the card landed, and a card of that rank stacked onto it from
    under the same hand (S3) looks alike: the next view, the hand gone, tells them apart (penguins,
    seed 116: p1's QH, never read, stacked onto the QC beside it while the hand hid the KH; the QC
    was taken for played onto the KH with a QH refill, and the round was lost)."""
    if not state.rules.stack_same_rank:
        return False
    for move in moves:
        if not (isinstance(move, Play) and isinstance(move.source, int) and isinstance(move.to, int)):
            continue
        played, now = state.seats[move.player].row[move.source], final.seats[move.player].row[move.source]
        if (judged(obs, CENTRE_ZONES[move.to]) is None and played and now and not is_unseen(played[-1])
                and not is_unseen(now[-1]) and now[-1].rank == played[-1].rank):
            return True
    return False


def _judge_held_back(live: LiveStress, obs: Observation) -> tuple[LiveStress, list[Finding]] | None:
    """The view held back, judged again with its hidden row places filled in from ``obs`` where ``obs``
    shows them as the position has them (in a one-deck game a card that left its place does not come
    back: it never left), then ``obs`` from there. None when no hidden place can be filled that way or
    the held-back view still explains nothing."""
    held = live.held_back
    assert held is not None
    piles = dict(held.piles)
    filled = False
    # the table as it was before the held view: a legal series is never taken back, so the places
    # that view did not show held their cards, and what it showed was an illegal move, taken back
    # (penguins, seed 62: a KC laid on a JC, S6, where a QC never read beside it might have gone
    # first; the JC showed again, the QC's place still unread)
    back = match(live.state, obs, live.laid, live.played_unseen) is not None
    for zone in unjudged(held):
        now = judged(obs, zone)
        at = seat_zone(zone, live.state.seats)
        number = pile_number(at[2]) if at is not None else None
        if now is None or at is None or number is None:
            continue
        row = at[1].row[number]
        if not row or is_unseen(row[-1]):
            continue
        if None not in now.cards and now.cards and now.cards[-1] == seen_code(row[-1]):
            piles[zone] = now
            filled = True
        elif back:
            piles[zone] = replace(now, cards=now.cards[:-1] + (seen_code(row[-1]),)) if now.cards else SeenPile((seen_code(row[-1]),))
            filled = True
    if not filled:
        return None
    first, found = _judge(replace(live, held_back=None, deferred=MAX_DEFERRED), Observation(held.t, piles, held.frame))
    if not any(f.kind in ("move", "illegal") for f in found):
        return None
    second, more = _judge(replace(first, deferred=0), obs)
    return second, found + more


def _judge_call_held(live: LiveStress, obs: Observation) -> tuple[LiveStress, list[Finding]] | None:
    """The view left unused for a call it could not be sure of, taken after all, then ``obs`` from
    there: a view nothing explains from the position before may follow from the held one (penguins,
    seed 61: a JC stacked onto a JD made the players stuck while a row place was unread, and the view
    was left unused; both jacks were then stacked onto the JS refilled in the JC's place, which no
    series from the position before can show, the JS covered). None when either view is still not
    explained by legal moves."""
    held = live.call_held
    assert held is not None
    first, found = _judge(replace(live, call_held=None, held_back=None, deferred=MAX_DEFERRED), held)
    if not found or any(f.kind not in ("move", "call") for f in found):
        return None
    first, found = _slapped_while_held(first, found, live.held_slaps)
    second, more = _judge(replace(first, deferred=0), obs)
    if any(f.kind not in ("move", "call") for f in more) or second.last is not None:
        return None
    return second, found + more


def _slapped_while_held(after: LiveStress, findings: list[Finding], slaps: Sequence[tuple[int, float, int]]
                        ) -> tuple[LiveStress, list[Finding]]:
    """``after`` with slaps kept before its stress was called judged now that it is, in the order they
    came: those made while the view that calls it was held (penguins, seed 93: a QS played onto a KH
    read only faintly there made a stress with the QD; the view waited for the QS to show, the players
    slapped and the loser took the piles, and every view after was unrecognised), or while a top
    nobody read might match the other (:func:`_taken_unread`). A slap already judged in ``after`` is
    not judged again (Stress 124: a held view taken after all judged its kept slap, and so did the view
    taken from there, a second slap by the same player logged as a move)."""
    for player, at, pile in sorted(slaps, key=lambda s: s[1]):
        if after.state.phase is not Phase.STRESS:
            break
        if any(p == player for p, _, _ in after.state.slaps):
            continue
        after, more = slap(after, player, at, pile)
        findings = findings + more
    return after, findings


def _illegal_once_seen(
    live: LiveStress, state: StressState, moves: Sequence[Any], subs: Mapping[Unseen, Card], obs: Observation, t: float, frame: int | None
) -> tuple[LiveStress, list[Finding]]:
    """The explaining series is not legal once the cards it shows are in place (new centre cards laid
    while a refill nobody had seen could be played: S9): the moves before the last stand, the last is
    an illegal move that waits to be taken back."""
    prefix = ENGINE.replay(state, moves[:-1], subs, t, frame) if moves else None
    last = moves[-1] if moves else None
    if prefix is not None and isinstance(last, (Play, Stack, Lay)):
        before, findings = prefix
        v = stress.apply(before, replace(last, t=t))
        if isinstance(v, Illegal):
            for refilled in (True, False):
                pend = PendingIllegal(v.move, v, refilled)
                if match(_overlay(before, pend), obs, live.laid, live.played_unseen) is not None:
                    findings.append(Finding("illegal", t, move=v.move, rule=v.rule, reason=v.reason, frame=frame))
                    return moved(live, before, pend, findings, _waiting), findings
    return replace(live, last=obs), [Finding("unrecognised", t, frame=frame, detail=_difference(state, obs))]


def _in_view(pending: PendingIllegal, obs: Observation) -> bool:
    """Is the card of an illegal move read where it landed (new centre cards out of turn: both in view)?
    A card laid where the camera cannot read it is no ground for a verdict."""
    move = pending.move
    if isinstance(move, Lay):
        return all((z := judged(obs, zone)) is not None and z.cards for zone in CENTRE_ZONES)
    seen = judged(obs, _landing(move))
    return seen is not None and seen.top is not None


def _landing(move: Play | Stack | Lay) -> str:
    """The zone where the card of an illegal move lands."""
    if isinstance(move, Play) and isinstance(move.to, int):
        return CENTRE_ZONES[move.to]
    if isinstance(move, Stack) and isinstance(move.onto, int):
        return row_zone(move.player, move.onto)
    return CENTRE_ZONES[0]


def _waiting(state: StressState) -> str:
    if state.phase is Phase.STRESS:
        return "the slaps (S8)"
    if state.phase is Phase.LAY:
        return "new centre cards (S4)"
    return ""


def _difference(state: StressState, obs: Observation) -> str:
    """Which piles do not look as expected, for the unrecognised-change report."""
    return difference(differing_zones(state, obs), obs)


# --- starting, new rounds ----------------------------------------------------------------------------


MAX_UNREAD_AT_START = 1 / 3
"""The share of the row places whose card a deal's view may show unread (seen, not read): a stand-in
takes its place and is learned when a view reads it, as a refill not yet read is; no move or call rests
on it before. Cards are laid and played at once in Stress, so a referee that waits for all eight read
in one view follows nothing until then (penguins at 1920x1080, seed 43: a QH read at 0.07-0.43 and a
QC at 0.22-0.26 in every view until eight of the game's nine moves were made). Zenuwen allows as much
(:data:`referee.zenuwen_live.MAX_UNREAD_AT_START`)."""


def _read_rows(obs: Observation, players: int = 2) -> list[list[Card | None]] | str:
    """Each player's row from a view of a deal: every place shows one face-up card, read (a card) or
    not (None), and no more than ``MAX_UNREAD_AT_START`` of them unread; else why not."""
    rows: list[list[Card | None]] = []
    unread: list[str] = []
    for p in range(players):
        row: list[Card | None] = []
        for i in range(stress.ROW):
            zone = row_zone(p, i)
            pile = obs.piles.get(zone, SeenPile())
            if pile.held or len(pile.cards) != 1:
                return f"{zone} must show exactly one face-up card"
            c = parse_seen(pile.top)
            if c is None:
                unread.append(zone)
            row.append(c)
        rows.append(row)
    if len(unread) > int(players * stress.ROW * MAX_UNREAD_AT_START):
        return f"the cards of {', '.join(unread)} cannot be read"
    seen = [c for r in rows for c in r if c is not None]
    if len(set(seen)) != len(seen):
        return "the same card is seen in two row places"
    return rows


def start(observation: Observation, rules: StressRules | None = None) -> LiveStress:
    """A new game from the first steady view of a fresh deal (S1/S2): four cards in each row, all but
    ``MAX_UNREAD_AT_START`` of them read; centre cards may already lie (both readable) or not (the first
    move is the lay, S4). The rest of each half deck (26 cards, S1) is the unseen stock."""
    rules = rules or StressRules()
    rows = _read_rows(observation)
    if isinstance(rows, str):
        raise ValueError(f"cannot start: {rows}")
    centre: list[Card] = []
    for z in CENTRE_ZONES:
        pile = observation.piles.get(z, SeenPile())
        if pile.cards:
            c = parse_seen(pile.top)
            if c is None:
                raise ValueError(f"cannot start: {z} shows a card that cannot be read")
            centre.append(c)
    if centre and len(centre) != 2:
        raise ValueError("cannot start: one centre card lies, the other not")
    seen = [c for r in rows for c in r if c is not None] + centre
    if len(set(seen)) != len(seen):
        raise ValueError("cannot start: the same card is seen twice")
    per_stock = 26 - stress.ROW - (1 if centre else 0)
    seats = tuple(Seat(tuple(unseen() for _ in range(per_stock)), tuple((c or unseen(),) for c in r)) for r in rows)
    deal = StressDeal(seats, tuple((c,) for c in centre) if centre else None)
    v = stress.new_game(deal, rules, observation.t)
    return LiveStress(v.state, reads=count_reads({}, observation), sure=surely_read(frozenset(), observation))


def resume(picture: Mapping[str, Any], rules: StressRules | None = None, t: float = 0.0) -> LiveStress:
    """The running picture of a game taken up again from the referee's last picture of it
    (:func:`public_state`: a game log's last position): the cards it shows read are known, the stocks
    and the cards shown unread are stand-ins. ValueError: not a position of this game."""
    rules = rules or StressRules()

    def cards(pile: object) -> tuple[Card, ...]:
        codes = [pile] if isinstance(pile, str) or pile is None else list(pile)  # type: ignore[call-overload]
        return tuple(from_code(c) for c in codes)

    try:
        seats = tuple(Seat(tuple(unseen() for _ in range(pile_size(s["stock"]))), tuple(cards(p) for p in s["row"]))
                      for s in picture["players"])
        centre = tuple(cards(p) for p in picture["centre"])
        if len(seats) != 2 or len(centre) != 2 or any(len(s.row) != stress.ROW for s in seats):
            raise ValueError("two players, each a row of four, and two centre piles")
        read = [c for c in stress.StressState(rules, seats, centre, Phase.PLAY).all_cards() if not is_unseen(c)]
        twice = sorted({c.code for c, k in Counter(read).items() if k > 1})
        if twice:
            raise ValueError(f"{', '.join(twice)} shown twice")
        slaps = tuple((int(s["player"]), float(s["t"]), int(s["pile"])) for s in picture.get("slaps", []))
        state = StressState(rules, seats, centre, Phase(picture["phase"]), t=t, slaps=slaps,
                            round=int(picture.get("round", 1)), score=tuple(int(x) for x in picture.get("score", (0, 0))))
        moves = int(picture.get("moves", 0))
        untold = int(picture.get("untold", 0))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"not a position of this Stress game: {exc}") from None
    return LiveStress(state, moves=moves, waiting=_waiting(state), reads=dict(Counter(c.code for c in read)), untold=untold)


def rejoin(live: LiveStress, obs: Observation) -> LiveStress | None:
    """The running picture taken afresh from a view that shows the whole table in play, for a referee
    that has lost the game (nothing explained several views in a row): each row place and centre top
    as the view reads it (stand-ins where it shows a card unread), the cards under the centre tops as
    they were (stand-ins where a card is read elsewhere now), and the stocks as counted, but empty
    where the view shows a stock empty and one card where it shows one the position had emptied.
    Without it one missed move loses the rest of the round (penguins, seeds 91 to 93: a slap credited
    to the wrong player, a stack or a stress never seen; 39 to 66 views unrecognised). None: a hand
    over the table, a round not in play, or more row places unread than a deal's view may show."""
    state = live.state
    if state.phase not in (Phase.PLAY, Phase.STRESS) or any(p.held for p in obs.piles.values()):
        return None
    rows: list[tuple[tuple[Card, ...], ...]] = []
    unread = 0
    for p in range(len(state.seats)):
        row = []
        for i in range(stress.ROW):
            seen = judged(obs, row_zone(p, i))
            if seen is None:
                return None
            cards = tuple(parse_seen(c) or unseen() for c in seen.cards)
            unread += bool(cards) and is_unseen(cards[-1])
            row.append(cards)
        rows.append(tuple(row))
    if unread > int(len(state.seats) * stress.ROW * MAX_UNREAD_AT_START):
        return None
    tops: list[Card | None] = []
    for z in CENTRE_ZONES:
        seen = judged(obs, z)
        if seen is None:
            return None
        tops.append((parse_seen(seen.top) or unseen()) if seen.cards else None)
    shown = [c for row in rows for pile in row for c in pile if not is_unseen(c)] + [c for c in tops if c is not None and not is_unseen(c)]
    if len(set(shown)) != len(shown):
        return None
    centre = tuple(() if top is None else tuple(unseen() for _ in pile[:-1]) + (top,) for pile, top in zip(state.centre, tops))
    seats = []
    for p, seat in enumerate(state.seats):
        n = stock_as_seen(len(seat.stock), judged(obs, stock_zone(p)))
        seats.append(Seat(tuple(unseen() for _ in range(n)), rows[p]))
    again = replace(state, seats=tuple(seats), centre=centre, phase=Phase.PLAY, slaps=(), stuck=False, gathered=(),
                    t=max(state.t, obs.t))
    # what the picture lacks of the deck lies in a stock, whose the view cannot say
    untold = max(0, _card_count(state) + live.untold - _card_count(again))
    return LiveStress(again, moves=live.moves, waiting=_waiting(again), reads=count_reads(live.reads, obs),
                      sure=surely_read(live.sure, obs), untold=untold)


def _card_count(state: StressState) -> int:
    return sum(s.count for s in state.seats) + sum(len(p) for p in state.centre)


def _fresh_deal(state: StressState, obs: Observation) -> list[list[Card | None]] | None:
    """A view of a new deal after a round: rows as :func:`_read_rows`, empty centre."""
    if any((p := judged(obs, z)) is None or p.cards for z in CENTRE_ZONES):
        return None
    rows = _read_rows(obs, len(state.seats))
    return None if isinstance(rows, str) else rows


def _start_round(live: LiveStress, rows: list[list[Card | None]], t: float, frame: int | None) -> tuple[LiveStress, list[Finding]]:
    state = live.state
    pool = list(state.all_cards())
    subs: dict[Unseen, Card] = {}
    picked: list[list[Card]] = []
    for row in rows:
        got: list[Card] = []
        for c in row:
            obj = next((x for x in pool if x is c), None) if c is not None else None
            if obj is None:
                # a card nobody has seen: a stand-in, which becomes the card read (not read: stays one)
                stand_in = next((x for x in pool if isinstance(x, Unseen)), None)
                if stand_in is None:
                    shows = c.code if c is not None else "a card more"
                    return live, [Finding("unrecognised", t, frame=frame, detail=f"new deal shows {shows}, which is not in the game")]
                if c is not None:
                    subs[stand_in] = c
                obj = stand_in
            pool.remove(obj)
            got.append(obj if c is None else c)
        picked.append(got)
    if subs:
        state = substitute_cards(state, subs)
        pool = [subs.get(x, x) if isinstance(x, Unseen) else x for x in pool]
    half = (len(pool) + 1) // 2
    stocks = (tuple(pool[:half]), tuple(pool[half:]))
    deal = StressDeal(tuple(Seat(stocks[p], tuple((c,) for c in picked[p])) for p in range(2)), None)
    v = stress.apply(state, NewRound(t, deal))
    if isinstance(v, Illegal):
        return live, [Finding("illegal", t, move=v.move, rule=v.rule, reason=v.reason, frame=frame)]
    # the deal as seen is in the position; the stocks are not seen: logged as a plain new round
    return ENGINE.round_started(replace(live, untold=0), v, NewRound(t), subs, t, frame, _waiting)


def new_round(live: LiveStress, observation: Observation, t: float | None = None) -> tuple[LiveStress, list[Finding]]:
    """Explicit input: the next round (S11) starts from this view of the new deal (rows as :func:`_read_rows`);
    ``t`` (default: the view's time) is when it was asked for."""
    observation = later_view(observation, t)
    if live.state.phase is not Phase.ROUND_OVER:
        v = stress.apply(live.state, NewRound(observation.t))
        assert isinstance(v, Illegal)
        return live, [Finding("illegal", observation.t, move=v.move, rule=v.rule, reason=v.reason, frame=observation.frame)]
    rows = _read_rows(observation, len(live.state.seats))
    if isinstance(rows, str):
        return live, [Finding("unrecognised", observation.t, frame=observation.frame, detail=f"new round: {rows}")]
    return _start_round(live, rows, max(observation.t, live.state.t), observation.frame)


# --- explicit inputs ---------------------------------------------------------------------------------


def slap(live: LiveStress, player: int, t: float, pile: int = 0, seen: bool = False) -> tuple[LiveStress, list[Finding]]:
    """Explicit input (key press / screen tap, or the camera seeing whose hand reached a centre pile
    first): ``player`` (0 or 1) slapped centre pile ``pile`` (0 or 1) at ``t`` (S8).

    A legal slap is a ``move`` finding (its verdict's events say ``first: safe`` / ``last: pays`` and
    the ``take``), followed by any calls. A false slap is an ``illegal`` finding (S8) that needs no
    take-back. After the second slap the last view that did not fit is judged again (the loser may
    already have taken the centre piles, or new cards may lie).

    A slap while a centre top was never read (no stress could be called; ``seen``: the camera saw the
    hand reach the pile, which may be a play) is kept, not judged: a view that then shows both centre
    piles taken says the players saw a stress (:func:`_taken_unread`)."""
    move = Slap(player, pile, max(t, live.state.t))
    unseen_tops = [CENTRE_ZONES[j] for j, p in enumerate(live.state.centre) if p and is_unseen(p[-1])]
    if live.state.phase is not Phase.STRESS and unseen_tops:
        # the centre cards may match: nobody read one of them, so no stress was called and no slap is
        # false; kept until the piles are seen taken (or a card is played onto them: no stress)
        if _may_be_stress(live.state):
            before = _kept_slaps(live)
            if all(p != player for p, _, _ in before):
                live = replace(live, slapped_unread=UnreadSlaps(_centre_tops(live.state), before + ((player, move.t, pile),)))
        if seen:
            return live, []  # a hand the camera saw reach the pile: maybe a play, judged by what comes
        where = " and ".join(unseen_tops)
        return live, [Finding("ambiguous", move.t, detail=f"player {player + 1} slapped, but the card on {where} was never read: "
                                                         "judged when the centre piles are seen taken (or name it on the referee screen)")]
    if live.state.phase is not Phase.STRESS and live.call_held is not None:
        # a view is held for a call the camera cannot be sure of yet: judged once it is taken
        if all(p != player for p, _, _ in live.held_slaps):
            live = replace(live, held_slaps=live.held_slaps + ((player, move.t, pile),))
        return live, [] if seen else [Finding("ambiguous", move.t, detail=f"player {player + 1} slapped: judged once the centre "
                                                                            "piles can be read")]
    return ENGINE.judge_input(live, move, _waiting, observe, lambda state: state.phase is not Phase.STRESS)


def let_stand(live: LiveStress, t: float) -> tuple[LiveStress, list[Finding]] | None:
    """The illegal move waiting to be taken back, let stand (:meth:`Engine.let_stand`)."""
    table = None if live.pending is None else _overlay(live.state, live.pending)
    return ENGINE.let_stand(live, table, t, _waiting)


def slappers(live: LiveStress) -> frozenset[int]:
    """The players who still have to slap the open stress (S8); while a centre top nobody read may
    match the other (no stress could be called), those whose hand has not reached a centre pile since
    the tops were last changed; else none."""
    if live.state.phase is Phase.STRESS:
        return frozenset(range(len(live.state.seats))) - {s[0] for s in live.state.slaps}
    if live.call_held is not None:
        # a view held for a call (a stress, maybe) on a card the camera cannot read yet: the players can
        return frozenset(range(len(live.state.seats))) - {s[0] for s in live.held_slaps}
    if _may_be_stress(live.state):
        # the players may see a stress the referee cannot read: their hands are watched all the same
        return frozenset(range(len(live.state.seats))) - {s[0] for s in _kept_slaps(live)}
    return frozenset()


def _kept_slaps(live: LiveStress) -> tuple[tuple[int, float, int], ...]:
    """The slaps kept on the centre tops as they lie (``LiveStress.slapped_unread``)."""
    kept = live.slapped_unread
    return kept.slaps if kept is not None and kept.tops == _centre_tops(live.state) else ()


def slap_key(live: LiveStress) -> object:
    """What the slaps awaited now are for (the stress, or the centre tops that may be one): when it
    changes, whatever watches the hands starts afresh (a hand that played the card on top is no slap).
    That is the round and how many cards each centre pile holds, in the view held for its call when
    one is: not what the tops were read as, nor whether the stress is called yet. A top read at last,
    or the held view taken, is the same stress, and the hands already on their way to it are slaps
    (Stress 124: the watch started afresh when the held view was taken, and the second slapper's hand,
    on its way then, was passed over until it moved again a second later)."""
    return live.state.round, live.held_piles if live.call_held is not None else _pile_sizes(live.state)


def _pile_sizes(state: StressState) -> tuple[int, ...]:
    return tuple(len(p) for p in state.centre)


# --- what the live referee shows and announces -------------------------------------------------------


def public_state(live: LiveStress) -> dict[str, object]:
    """The position as players may see it: stocks as counts, unseen cards as ``None``."""
    state = live.state
    players: list[dict[str, object]] = [
        {"stock": len(s.stock), "row": [[seen_code(c) for c in p] for p in s.row]} for s in state.seats
    ]
    slaps = [{"player": p, "t": t, "pile": k} for p, t, k in state.slaps]
    # (cards gone into a stock the referee cannot name, :attr:`LiveStress.untold`: kept for a resumed game)
    untold = {"untold": live.untold} if live.untold else {}
    return public_picture(live, players, str, score=list(state.score), slaps=slaps, **untold)


def ending(live: LiveStress, t: float) -> tuple[str, Event] | None:
    """S11: once the agreed rounds are played (option ``rounds``): ``(result, call)``."""
    end = stress.outcome(live.state)
    if end is None or not end.match_over:
        return None
    if end.winner is None:
        return "draw", Event("won", t=t, detail=f"the match ends level after {end.round} rounds")
    winner = f"player {end.winner + 1}"  # as the screens name seats: from 1
    return winner, Event("won", t=t, player=end.winner, detail=f"{winner} wins the match {end.score}")


def involved_cards(live: LiveStress, finding: Finding) -> list[str]:
    """The cards an illegal move involves (the moved card and what it landed on)."""
    state, move = live.state, finding.move
    if not isinstance(move, (Play, Stack)) or not isinstance(move.source, int):
        return []
    row = state.seats[move.player].row
    onto: tuple[Card, ...] = ()
    if isinstance(move, Play) and isinstance(move.to, int):
        onto = state.centre[move.to]
    if isinstance(move, Stack) and isinstance(move.onto, int):
        onto = row[move.onto]
    return shown_codes(row[move.source][-1] if row[move.source] else None, onto[-1] if onto else None)


def rules_spec(rules: StressRules) -> str:
    return to_spec(rules)
