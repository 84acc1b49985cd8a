"""Following a real Double Solitaire game (RULES.md K17) from the camera's steady views.

Each player's own layout (columns, stock, waste) is matched against the zones of that player's seat
(``p1.tableau3``, ``p2.waste``...) exactly as one Klondike table is (:mod:`referee.klondike_live`: the
same placeholders for cards nobody has read, learned where the camera reads them); the eight shared
foundation piles (``foundation1`` .. ``foundation8``) are matched by their tops, whatever zone a pile
was started in (the engine numbers them in the order they were started).

A view the position does not show is explained by one move of either player: every move a hand could
make (rules ignored) whose table looks like the view. A legal one is the move; when only a move
against the rules fits, that is the illegal move (K4-K10 from the Klondike engine, K7 on the shared
piles, K17 for a move out of turn or a card taken off a foundation that the other player put there),
and the referee waits for it to be taken back. A move whose cards are not read where they lie is
judged once a view reads them. Who moves first is whoever does: the turn is set by the first move.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping, cast

from . import double_solitaire, klondike
from .cards import DECK, Card, card_of
from .double_solitaire import MAX_FOUNDATIONS, PLAYERS, DoubleMove, DoubleRules, DoubleState, FoundationCard
from .klondike import KlondikeState, Move
from .klondike_live import StandIn, _match, _read, _view, columns_as_they_were, differing_piles, lone_unseen, moved_and_under, unread_waste
from .klondike_live import layout_from_picture, picture_as_seen, picture_reads, read_as_another_suit, stand_in_for, swaps
from .klondike_live import _guessed as klondike_guessed
from .klondike_live import Fanned, _zones_of, fanned_after, misread_twins, waste_top_lost
from .klondike_live import _guessed_over as guessed_over
from .klondike_live import _known_tops as known_tops
from .klondike_live import _top_guess as top_guess
from .klondike_live import (
    _visible, changed_piles, columns_miscounted, foundation_guessed_over, moved_over, lands_where_still, lifts_where_still, reread_over, tableau_zone, turned_up_elsewhere, under_hand, unread_face_on, waste_seen_as_back,
)
from .klondike_live import expected_observation as expected_layout
from .klondike_live import start as start_layout
from .observation import EXPLAINED, HAND_WAIT, MAX_READS_TO_DOUBT, Finding, Observation, SeenPile, count_reads, last_looks, one_misread
from .observation import guess_apart, parse_seen, stands, stirred_after, stirred_since, surely_read
from .verdict import Event, Illegal, Legal

FOUNDATION_ZONES = tuple(f"foundation{i + 1}" for i in range(MAX_FOUNDATIONS))


def seat_prefix(player: int) -> str:
    return f"p{player + 1}."


@dataclass(frozen=True, slots=True)
class LiveDouble:
    """The referee's running picture of a real Double Solitaire game."""

    state: DoubleState
    known: tuple[frozenset[Card], frozenset[Card]]
    """Per player: the cards of that player's deck read so far (the rest are placeholders)."""
    started: bool = False
    """Has anyone moved yet? Until then the turn is whoever moves first."""
    pending: DoubleMove | None = None
    pending_state: DoubleState | None = field(default=None, compare=False)
    """The table the illegal move left, to tell "still there" from "taken back"."""
    moves: int = 0
    turn_open: bool = False
    """The last move was a draw whose turned card the camera has not read, so whether it can be placed
    (K17: whose turn it is) is not known: whoever moves next has the turn, unless a view reads the card
    first (:func:`_settled`). ``state.turn`` is the drawer meanwhile."""
    guessed: tuple[Mapping[Card, str], Mapping[Card, str]] = field(default=({}, {}), compare=False)
    """Per player: what the camera made of the unread cards on the player's piles' tops in the last
    view taken (placeholder -> code). A guess never decides a card; it tells apart two explanations
    that read such a card differently (:func:`_guess_conflicts`)."""
    reads: tuple[Mapping[str, int], Mapping[str, int]] = field(default=({}, {}), compare=False)
    """Per player: card code -> how many of the views the referee took read it on the player's piles
    (a card read in few may be a misread: :func:`observe_misread`)."""
    undo: tuple[LiveDouble, Legal[DoubleState]] | None = field(default=None, compare=False)
    """The running picture before the last legal move, and that move (:func:`observe_undone`)."""
    deferred: tuple[DoubleMove, Legal[DoubleState], tuple[frozenset[Card], frozenset[Card]]] | None = field(
        default=None, compare=False)
    """The one move the last view showed laid on a card nobody has read, shown unread there, that the
    referee waited for a clearer view to judge, with the cards known after it (:func:`observe_deferred`)."""
    stirred: frozenset[str] = field(default=frozenset(), compare=False)
    """Zones the camera saw something move over in the views since the last one the referee took
    (:attr:`SeenPile.still` counts from there)."""
    fanned: tuple[Fanned, Fanned] = field(default=(Fanned(), Fanned()), compare=False)
    """Per player: the waste's top, and the cards the views taken since it came read under it (a draw-3
    fan's older cards), so that a view showing one of them as the top, the top lost from view, is not
    taken for a draw (:func:`referee.klondike_live.waste_top_lost`)."""
    false_backs: frozenset[str] = field(default=frozenset(), compare=False)
    """Waste zones where the camera saw a back at the deal, when nothing lay there: the edge of the
    stock beside it seen over the zone's border (penguins, draw 3, seed 47: player 2's waste showed a
    back from the deal until the first draw, taken for a draw nobody read, and the illegal draw later
    for nothing happening; the back came again when the draw was taken back). Whenever the position
    leaves that waste empty, a back and nothing else there is taken as nothing
    (:func:`_without_false_backs`): a card drawn that the camera takes for a back (a court card of
    some decks) goes unseen there until it is read or moves."""


def seat_view(obs: Observation, player: int) -> Observation:
    """The player's own zones with the seat prefix taken off, as one Klondike table's."""
    prefix = seat_prefix(player)
    return Observation(obs.t, {z[len(prefix):]: p for z, p in obs.piles.items() if z.startswith(prefix)}, obs.frame)


def start(observation: Observation, rules: DoubleRules | None = None) -> LiveDouble:
    """A new game from the first steady view of both fresh deals (each as Klondike's, K2), no card on
    the shared foundations."""
    rules = rules or DoubleRules()
    layouts = []
    for p in range(PLAYERS):
        try:
            layouts.append(start_layout(seat_view(observation, p), rules.klondike))
        except ValueError as exc:
            raise ValueError(f"player {p + 1}: {exc}") from None
    if any(pile.cards for z in FOUNDATION_ZONES if (pile := observation.piles.get(z)) is not None):
        raise ValueError("cannot start: the shared foundations must be empty")
    state = DoubleState(rules.klondike, (layouts[0].state, layouts[1].state))
    false_backs = frozenset(zone for p in range(PLAYERS) if waste_seen_as_back(observation, zone := seat_prefix(p) + "waste"))
    live = LiveDouble(state, (layouts[0].known, layouts[1].known), reads=_count_reads(({}, {}), observation), false_backs=false_backs)
    return replace(live, guessed=_guesses(live, observation))


def resume(picture: Mapping[str, Any], rules: DoubleRules | None = None, t: float = 0.0) -> LiveDouble:
    """The running picture of a game taken up again from the referee's last picture of it
    (:func:`public_state`: a game log's last position), as Klondike's (:func:`klondike_live.resume`).
    A shared foundation card shown unread stands in as a card of its owner's deck that can lie there
    (the rank its place in the pile says, the suit of the pile's cards read). ValueError: not a
    position of this game."""
    rules = rules or DoubleRules()
    try:
        seats = picture["players"]
        piles = [[(None if c is None else Card.parse(str(c)), int(p) - 1) for c, p in zip(pile, owners, strict=True)]
                 for pile, owners in zip(picture.get("foundations", []), picture["owners"], strict=True)]
        up: list[list[FoundationCard | None]] = [[None if c is None else FoundationCard(c, p) for c, p in pile] for pile in piles]
        layouts: list[KlondikeState] = []
        known: list[frozenset[Card]] = []
        for p in range(PLAYERS):
            read = picture_reads(seats[p])
            mine = [c for pile in piles for c, q in pile if q == p and c is not None]
            spare = [c for c in DECK if c not in set(read) | set(mine)]
            for k, pile in enumerate(piles):
                suits = {c.suit for c, _ in pile if c is not None}
                for i, (c, q) in enumerate(pile):
                    if q == p and c is None:
                        stand_in = min(spare, key=lambda x: (x.rank != i + 1, x.suit not in suits))
                        spare.remove(stand_in)
                        up[k][i] = FoundationCard(stand_in, p)
            elsewhere = [fc.card for pile in up for fc in pile if fc is not None and fc.owner == p]
            layout, read_here = layout_from_picture(seats[p], rules.klondike, t, elsewhere)
            layouts.append(layout)
            known.append(read_here | frozenset(mine))
        turn = picture.get("turn")
        moves = int(picture.get("moves", 0))
        winner = picture.get("winner")
        foundations = tuple(tuple(fc for fc in pile if fc is not None) for pile in up)
        state = DoubleState(rules.klondike, (layouts[0], layouts[1]), foundations, 0 if turn is None else int(turn) - 1,
                            None if winner is None else int(winner) - 1)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise ValueError(f"not a position of this Double Solitaire game: {exc}") from None
    live = LiveDouble(state, (known[0], known[1]), started=moves > 0, moves=moves, turn_open=moves > 0 and turn is None,
                      reads=({c.code: 1 for c in known[0]}, {c.code: 1 for c in known[1]}))
    return live


def rejoin(live: LiveDouble, obs: Observation) -> LiveDouble | None:
    """The running picture taken afresh from one view of the table, for a referee that has lost the
    game (nothing explained several views in a row, ``cardref.live.REJOIN_AFTER``): each player's layout
    as Klondike's is (:func:`referee.klondike_live.picture_as_seen`), the shared foundations as they
    were. Without it one misread, or a move the camera missed, left every later view unrecognised
    (kennard, seed 57, player 1's position made wrong at 19 s: one of the eight moves after it found,
    four with it). None: a hand over the table, foundation tops no pile can take
    (:func:`_foundations_as_seen`), or a view no position fits."""
    if any(pile.held for pile in obs.piles.values()):
        return None
    foundations = _foundations_as_seen(live, obs)
    if foundations is None:
        return None
    live = replace(live, state=replace(live.state, foundations=foundations),
                   known=(live.known[0] | {fc.card for pile in foundations for fc in pile if fc.owner == 0},
                          live.known[1] | {fc.card for pile in foundations for fc in pile if fc.owner == 1}))
    picture = dict(public_state(live))
    players = []
    for p, seat in enumerate(cast(list[dict[str, Any]], picture["players"])):
        up = [fc.card.code for pile in live.state.foundations for fc in pile if fc.owner == p and fc.card in live.known[p]]
        seen = picture_as_seen(seat, seat_view(obs, p), played_up=live.state.cards_up(p), elsewhere=up)
        if seen is None:
            return None
        players.append(seen)
    picture["players"] = players
    try:
        kr = live.state.rules
        rules = DoubleRules(draw=kr.draw, passes=kr.passes, foundation_to_tableau=kr.foundation_to_tableau, partial_runs=kr.partial_runs)
        again = resume(picture, rules, obs.t)
    except ValueError:
        return None  # a card read twice: a misread in this view
    if match(again.state, obs, again.known, _unseen_waste(again)) is None:
        return None
    # whose turn it is went with the game the referee lost: whoever moves next has it (simplistic,
    # draw 3, seed 75: player 1's KC laid on an empty column right after the table was taken up
    # again was called out of turn, the turn kept from the lost picture)
    return replace(again, turn_open=again.started)


def _foundations_as_seen(live: LiveDouble, obs: Observation) -> tuple[tuple[FoundationCard, ...], ...] | None:
    """The shared foundations as the view reads their tops (:func:`rejoin`): a top read that is no
    pile's top goes on the one pile of its suit it follows, with the cards between (played up unseen,
    by the player whose card that pile's top is: a guess the view cannot settle), or, an ace, starts a
    pile; a card read in more zones than the decks have copies of it not covered on a foundation is,
    for each read too many, a known top of its rank that no zone reads, misread as another suit, as
    :func:`_match_foundations` takes it (simplistic, draw 3, seed 63: an AC read AS at up to 0.57 beside
    the other deck's AS just played up, one AS under a 2S; the game lost at 123 s was never taken up
    again, 24 moves missed). None: a top no pile can take, or more piles than zones showing a card."""
    state = live.state
    read = Counter(f.top for z in FOUNDATION_ZONES if (f := obs.piles.get(z)) is not None and f.top is not None)
    shown = sum(1 for z in FOUNDATION_ZONES if (f := obs.piles.get(z)) is not None and f.cards)
    piles = [list(pile) for pile in state.foundations]
    unread = []  # per pile: no zone reads its top as it is
    for pile in piles:
        unread.append(read[pile[-1].card.code] == 0)
        if not unread[-1]:
            read[pile[-1].card.code] -= 1
    up = Counter(fc.card.code for pile in state.foundations for fc in pile)
    for code, n in sorted(read.items()):
        card = Card.parse(code)
        for k in range(n):
            if k >= PLAYERS - up[code]:  # (a read more than the decks' copies not up already)
                twin = next((i for i, pile in enumerate(piles) if unread[i] and pile[-1].card.rank == card.rank), None)
                if twin is None:
                    return None
                unread[twin] = False
                continue
            below = [pile for pile in piles if pile[-1].card.suit == card.suit and pile[-1].card.rank < card.rank]
            if card.rank == 1 and not below:
                # (whose ace: a guess, but not the player whose ace of that suit is up already)
                owner = next((p for p in range(PLAYERS) if FoundationCard(card, p) not in {fc for pile in piles for fc in pile}), None)
                if owner is None:
                    return None
                piles.append([FoundationCard(card, owner)])
                unread.append(False)
                continue
            if len(below) != 1:
                return None
            pile = below[0]
            pile += [FoundationCard(card_of(r, card.suit), pile[-1].owner) for r in range(pile[-1].card.rank + 1, card.rank + 1)]
    if shown != len(piles):
        return None
    return tuple(tuple(pile) for pile in piles)


def expected_observation(state: DoubleState, t: float = 0.0) -> Observation:
    """The observation a perfect camera would publish for ``state`` (tests use it): each player's
    layout under the seat's prefix, the shared piles' tops in the zones in the order they were started."""
    piles: dict[str, SeenPile] = {}
    for p, layout in enumerate(state.layouts):
        own = expected_layout(layout, t, layout.rules.draw)
        piles.update({seat_prefix(p) + z: pile for z, pile in own.piles.items() if not z.startswith("foundation")})
    for k, zone in enumerate(FOUNDATION_ZONES):
        piles[zone] = SeenPile((state.foundations[k][-1].card.code,) if k < len(state.foundations) else ())
    return Observation(t, piles)


# --- matching ----------------------------------------------------------------------------------------


Binds = tuple[dict[Card, str], dict[Card, str]]


def _match_foundations(state: DoubleState, obs: Observation, known: tuple[frozenset[Card], ...]) -> Binds | None:
    """What the shared foundations' tops reveal (per owner: placeholder -> code), or None if they do not
    show the position's tops (as many piles; the same cards, in any zones)."""
    binds: Binds = ({}, {})
    zones = [obs.piles.get(z) for z in FOUNDATION_ZONES]
    if any(z is not None and z.held for z in zones):
        return binds
    seen = [z.top for z in zones if z is not None and z.cards]
    tops = [pile[-1] for pile in state.foundations]
    if len(seen) != len(tops):
        return None
    want = Counter(fc.card.code for fc in tops if fc.card in known[fc.owner])
    unread = [pile for pile in state.foundations if pile[-1].card not in known[pile[-1].owner]]  # played up unread
    rest = []
    for code in seen:
        if code is not None and want[code] > 0:
            want[code] -= 1
        elif code is not None:
            rest.append(code)
    for code in rest:  # (after every top read as it is: a twin below is one no zone shows)
        card = Card.parse(code)
        pile = next((pile for pile in unread if card not in known[pile[-1].owner] and _may_top(pile, card, known)), None)
        if pile is None:
            # a known top read as another suit of its rank, that no other zone shows: a suit misread
            # (simplistic, draw 3, seed 63: an AC read AS at up to 0.6 while the AS lay under a 2S, and
            # every view unrecognised from there); a card of that rank played up in its place would
            # have gone onto a pile of another suit
            twin = [c for c in want if want[c] > 0 and Card.parse(c).rank == card.rank]
            if len(twin) != 1:
                return None
            want[twin[0]] -= 1
            continue
        unread.remove(pile)
        binds[pile[-1].owner][pile[-1].card] = code
    return binds


def _may_top(pile: tuple[FoundationCard, ...], card: Card, known: tuple[frozenset[Card], ...]) -> bool:
    """May ``card`` be the top of this foundation pile? Its rank is the pile's height (ace first) and its
    suit that of every card read in it (1280x720, seed 27: an unread card taken for played up onto the
    AC read as the AS, which the camera saw where the AC lay, and the rules then laid it on a new pile)."""
    return card.rank == len(pile) and all(fc.card.suit == card.suit for fc in pile[:-1] if fc.card in known[fc.owner])


def match(state: DoubleState, obs: Observation, known: tuple[frozenset[Card], ...],
          unseen: tuple[frozenset[Card], ...] = (frozenset(), frozenset())) -> Binds | None:
    """The placeholders the view reveals, per player, or None if it does not show the position.
    ``unseen``: per player, cards that may go unseen on the waste (:func:`_unseen_waste`)."""
    found = _match_foundations(state, obs, known)
    if found is None:
        return None
    binds: Binds = ({}, {})
    for p in range(PLAYERS):
        own = _match(_view(state.layouts[p]), seat_view(obs, p), known[p], lone_unseen(state.layouts[p], known[p]) | unseen[p])
        if own is None:
            return None
        merged = {**own}
        for card, code in found[p].items():
            if merged.get(card, code) != code:
                return None
            merged[card] = code
        if len(set(merged.values())) != len(merged):
            return None
        binds[p].update(merged)
    return binds


def _unseen_waste(live: LiveDouble) -> tuple[frozenset[Card], frozenset[Card]]:
    """Per player, the waste cards no view has read that a view showing the waste empty still fits
    (:func:`referee.klondike_live.unread_waste`), from the position before the view: a card a move
    in question turns from the stock is none of them (it must show to be found)."""
    layouts = live.state.layouts
    return (unread_waste(layouts[0], live.known[0], live.reads[0]), unread_waste(layouts[1], live.known[1], live.reads[1]))


def learn(state: DoubleState, binds: Binds) -> DoubleState:
    """Each revealed card put where its placeholder stood (in the player's layout and on the shared
    foundations), as :func:`referee.klondike_live._learn` does for one table."""
    layouts = list(state.layouts)
    owner_swaps = []
    for p in range(PLAYERS):
        swap = swaps(binds[p])
        owner_swaps.append(swap)
        if swap:
            s = layouts[p]
            layouts[p] = replace(
                s,
                tableau=tuple(tuple(swap.get(c, c) for c in pile) for pile in s.tableau),
                stock=tuple(swap.get(c, c) for c in s.stock),
                waste=tuple(swap.get(c, c) for c in s.waste),
            )
    foundations = tuple(
        tuple(FoundationCard(owner_swaps[fc.owner].get(fc.card, fc.card), fc.owner) for fc in pile) for pile in state.foundations
    )
    return replace(state, layouts=(layouts[0], layouts[1]), foundations=foundations)


def _known_after(known: tuple[frozenset[Card], ...], binds: Binds) -> tuple[frozenset[Card], frozenset[Card]]:
    return known[0] | _read(binds[0]), known[1] | _read(binds[1])


# --- what a hand could do --------------------------------------------------------------------------


def _take(layout: KlondikeState, src: str, count: int) -> tuple[KlondikeState, tuple[Card, ...]] | None:
    """The layout with ``count`` cards lifted from ``src`` (``waste`` or ``tN``; a column's card beneath
    turned up), and the cards lifted; None if they are not there face up."""
    if src == "waste":
        return (replace(layout, waste=layout.waste[:-1]), layout.waste[-1:]) if layout.waste and count == 1 else None
    i = int(src[1:]) - 1
    pile, hidden = layout.tableau[i], layout.hidden[i]
    if count > len(pile) - hidden:
        return None
    rest = pile[:-count]
    turned = hidden - 1 if hidden and len(rest) == hidden else hidden
    return replace(layout, tableau=_set(layout.tableau, i, rest), hidden=_set(layout.hidden, i, turned)), pile[-count:]


def _set(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return seq[:i] + (value,) + seq[i + 1:]


def _with_layout(state: DoubleState, player: int, layout: KlondikeState) -> DoubleState:
    layouts = (layout, state.layouts[1]) if player == 0 else (state.layouts[0], layout)
    return replace(state, layouts=layouts)


def physical_moves(state: DoubleState, player: int) -> Iterator[tuple[Move, DoubleState]]:
    """Every move ``player``'s hand could make, rules ignored, with the table it would leave: a draw or a
    redeal; a card or run from the waste, a column or a foundation top onto a column of the player's;
    a single card onto a shared foundation pile or into a new one. Named as the engine names them
    (a foundation source ``fK`` by its pile, a foundation destination ``foundation``)."""
    layout = state.layouts[player]
    for move in (Move.draw(), Move.recycle()):
        verdict = klondike.apply(layout, move)
        if isinstance(verdict, Legal):
            yield move, _with_layout(state, player, verdict.state)
    columns = len(layout.tableau)
    sources: list[tuple[str, int]] = [("waste", 1)]
    sources += [(f"t{i + 1}", n) for i in range(columns) for n in range(1, len(layout.tableau[i]) - layout.hidden[i] + 1)]
    for src, count in sources:
        taken = _take(layout, src, count)
        if taken is None:
            continue
        lifted, cards = taken
        for j in range(columns):
            if src != f"t{j + 1}":
                dst = replace(lifted, tableau=_set(lifted.tableau, j, lifted.tableau[j] + cards))
                yield Move.move(src, f"t{j + 1}", count), _with_layout(state, player, dst)
        if count == 1:
            up = FoundationCard(cards[0], player)
            after = _with_layout(state, player, lifted)
            for k, pile in enumerate(state.foundations):
                yield Move.move(src, "foundation"), replace(after, foundations=_set(state.foundations, k, pile + (up,)))
            if len(state.foundations) < MAX_FOUNDATIONS:
                yield Move.move(src, "foundation"), replace(after, foundations=state.foundations + ((up,),))
    for k, pile in enumerate(state.foundations):
        rest = state.foundations[:k] + ((pile[:-1],) if len(pile) > 1 else ()) + state.foundations[k + 1:]
        for j in range(columns):
            dst = replace(layout, tableau=_set(layout.tableau, j, layout.tableau[j] + (pile[-1].card,)))
            yield Move.move(f"f{k + 1}", f"t{j + 1}"), replace(_with_layout(state, player, dst), foundations=rest)


def _involved(state: DoubleState, player: int, move: Move) -> list[Card]:
    """The cards a move's verdict rests on, with their owners' layouts: the moved card (the bottom of
    a run) and the card it lands on (a column's top; a foundation move is judged by the moved card's
    own suit and rank against every pile)."""
    cards = moved_and_under(state.layouts[player], move)
    if move.op == "move" and move.src[:1] == "f":
        return [state.foundations[int(move.src[1:]) - 1][-1].card] + cards
    return cards


def _unread(state: DoubleState, table: DoubleState, player: int, move: Move, known: tuple[frozenset[Card], ...]) -> bool:
    """Does the move's verdict rest on a card nobody has read (a placeholder)? A draw's does on the
    card it turns (``table``: the table after it) and the tops it might go on: whether it can be placed
    says whose turn is next (:func:`_placing_unread`)."""
    if move.op == "draw":
        return _placing_unread(table, player, known[player])
    cards = _involved(state, player, move)
    if move.op == "move" and move.src.startswith("f"):
        top = state.foundations[int(move.src[1:]) - 1][-1]
        return top.card not in known[top.owner] or any(c not in known[player] for c in cards[1:])
    return any(c not in known[player] for c in cards)


def _placing_unread(state: DoubleState, player: int, known: frozenset[Card]) -> bool:
    """Does whether the card ``player`` just turned from the stock can be placed (K17) rest on a card
    nobody has read: the card itself, or, where it goes on no pile that is read, a column's top not
    read (1280x720, seed 15: the far player's 6H never read at the deal, the 5S drawn was taken for
    a card that cannot be placed, and the other player's stock turned out of turn for a legal draw)."""
    layout = state.layouts[player]
    if not layout.waste:
        return False
    if layout.waste[-1] not in known:
        return True
    read = [j for j, column in enumerate(layout.tableau) if not column or column[-1] in known]
    if double_solitaire.placeable(state, player, read):
        return False
    return len(read) < len(layout.tableau) and _may_lie_on_unread(layout.waste[-1], known)


def _may_lie_on_unread(card: Card, known: frozenset[Card]) -> bool:
    """May ``card`` go on a column top nobody has read: is a card of the next rank up, of the other
    colour, one nobody has read yet (K4)? A king goes on no card (kennard, seed 60: a KD drawn, the turn
    left open on a column top not read; the same player's next draw, out of turn against K17, was taken
    for a legal one, and its take-back for another draw)."""
    return card.rank < 13 and any(c.rank == card.rank + 1 and c.red != card.red and c not in known for c in DECK)


def _onto_unread(state: DoubleState, player: int, dmove: DoubleMove, known: tuple[frozenset[Card], ...],
                 obs: Observation, which: StandIn = "lost") -> Legal[DoubleState] | None:
    """``dmove`` as a legal move when the one card it involves that nobody has read is no longer shown by
    the view at all (:func:`referee.klondike_live.lost_unread`), and some card of the player's deck not
    read yet would make it legal: that card stands there, still unread (a later reading replaces it).
    ``state`` has what the view read learned. (Penguins, seed 3: a JH laid on a queen turned up unread,
    whose index the camera never found again: the game waited for good.) ``which``: the unread
    card a stand-in may take the place of (:func:`referee.klondike_live.stand_in_for`)."""
    move = dmove.move
    unread = [c for c in _involved(state, player, move) if c not in known[player]]
    lost = stand_in_for(state.layouts[player], move, unread, obs, seat_prefix(player), which)
    if lost is None:
        return None
    for card in DECK:
        if card in known[player]:
            continue
        stand_in: dict[Card, str] = {lost: card.code}
        verdict = double_solitaire.apply(learn(state, (stand_in, {}) if player == 0 else ({}, stand_in)), dmove)
        if isinstance(verdict, Legal):
            return verdict
    return None


# --- the referee's step ------------------------------------------------------------------------------


def _faces_taken_for_backs(obs: Observation) -> Observation:
    """A back and no face seen on a waste is a face-up card the camera cannot read (nothing lies face
    down there), as :func:`referee.klondike_live.waste_seen_as_back` says for one table: penguins seed
    13's stock turned out of turn, a queen on top, was taken for nothing happening."""
    for zone in (seat_prefix(p) + "waste" for p in range(PLAYERS)):
        if waste_seen_as_back(obs, zone):
            obs = unread_face_on(obs, zone)
    return obs


def _without_false_backs(live: LiveDouble, obs: Observation) -> Observation:
    """The view with each of ``live.false_backs`` that shows a back and nothing else on a waste the
    position leaves empty taken as empty."""
    empty = {zone: SeenPile() for p in range(PLAYERS) if (zone := seat_prefix(p) + "waste") in live.false_backs
             and waste_seen_as_back(obs, zone) and not live.state.layouts[p].waste}
    return replace(obs, piles={**obs.piles, **empty}) if empty else obs


def observe(live: LiveDouble, obs: Observation) -> tuple[LiveDouble, list[Finding]]:
    """Judge one steady view: the new running picture and what was concluded."""
    obs = _faces_taken_for_backs(_without_false_backs(live, obs))
    live = _refanned(live, obs)
    after, findings = _observe(live, obs)
    if [f.kind for f in findings] == ["illegal"] and findings[0].move is not None:
        wavering = _laid_on_wavering(live, findings[0].move)
        if wavering is not None:
            p = findings[0].move.player
            doubting = _doubting(live, p, wavering)
            drew = live.undo is not None and live.undo[1].move == DoubleMove(p, Move.draw())
            if drew and not live.turn_open and live.state.turn != p:
                # the turn passed on the player's draw as a card that fitted nowhere, the doubted card
                # taken as read: whose turn follows is open again
                doubting = replace(doubting, turn_open=True, state=replace(doubting.state, turn=p))
            doubted, found = _observe(doubting, obs)
            kinds = [f.kind for f in found]
            if wavering not in doubted.known[p] and (kinds == ["ambiguous"] or kinds in EXPLAINED and "illegal" not in kinds):
                # (ambiguous: the move waits for a clearer view of the card it lands on)
                after, findings = doubted, found if kinds == ["ambiguous"] else _misread(found, p, wavering)
    return _took(obs, after, findings)


def _refanned(live: LiveDouble, obs: Observation) -> LiveDouble:
    """The running picture with a draw-3 waste's known top put under the cards its own draw brought,
    nobody read, where the view reads it with cards fanned over it: the draw showed only its first card
    and it was learned as the top (penguins, draw 3, seed 67: a draw of 5D KD QD read as the 5D alone at
    0.56, then 5D 0.60, KD 0.19, QD 0.30 in fan order; kept as the top, the 5D was the third card of
    that draw in the stock's order for the next pass, and the game was lost when it came first)."""
    if live.state.rules.draw != 3 or live.undo is None:
        return live
    last = live.undo[1].move
    if not isinstance(last, DoubleMove) or last.move.op != "draw":
        return live
    p = last.player
    layout, known = live.state.layouts[p], live.known[p]
    waste = layout.waste
    seen = obs.piles.get(seat_prefix(p) + "waste")
    if len(waste) < 3 or seen is None or seen.held or waste[-1] not in known or any(c in known for c in waste[-3:-1]):
        return live
    if len(seen.cards) != 3 or seen.cards[0] != waste[-1].code:
        return live
    return replace(live, state=_with_layout(live.state, p, replace(layout, waste=waste[:-3] + (waste[-1],) + waste[-3:-1])))


def _laid_on_wavering(live: LiveDouble, dmove: DoubleMove) -> Card | None:
    """The column top a move against the rules lays a known card on, where the camera has read on the
    player's piles a card learned nowhere that the move would be legal on: the top may be a misread
    of that card (simplistic, draw 3, seed 63: a 10D read 10D, then 6D in a dozen views, 10D, 6D again;
    the 9C laid on it was called against K4, and every later view was unrecognised). None otherwise."""
    move, known = dmove.move, live.known[dmove.player]
    if move.op != "move" or not move.dst.startswith("t"):
        return None
    cards = moved_and_under(live.state.layouts[dmove.player], move)
    if len(cards) != 2 or not set(cards) <= known:
        return None
    moved, under = cards
    for code, n in live.reads[dmove.player].items():
        other = Card.parse(code)
        if n > 0 and other not in known and other.rank == moved.rank + 1 and other.red != moved.red:
            return under
    return None


def _took(obs: Observation, live: LiveDouble, findings: list[Finding]) -> tuple[LiveDouble, list[Finding]]:
    """A view's outcome, with the cards it read counted when the referee took it (explained it), and
    the camera's guesses of the unread tops kept from it (stillness counts from there)."""
    if any(f.kind in ("unrecognised", "ambiguous") for f in findings):
        return replace(live, stirred=stirred_after(live.stirred, obs, False)), findings
    # a view taken on a second look, past its unsure readings, does not say nothing came where something
    # moved (penguins, draw 3, seed 42: a 3H laid on a 4H while a hand was over the column it left, the
    # 4H no longer found and the 3H read 5S at 0.43, taken for nothing happening; the 3H read there once
    # the hand left, on a column then taken for one nothing had come near)
    stirred = stirred_after(live.stirred, obs, not obs.second_look)
    fanned = tuple(fanned_after(live.fanned[p], live.state.layouts[p].waste, obs, seat_prefix(p) + "waste") for p in range(PLAYERS))
    return replace(live, reads=_count_reads(live.reads, obs), guessed=_guesses(live, obs), stirred=stirred,
                   fanned=(fanned[0], fanned[1])), findings


def _guesses(live: LiveDouble, obs: Observation) -> tuple[Mapping[Card, str], Mapping[Card, str]]:
    # with the earlier guesses of cards still unread (as Klondike keeps them): a view with a hand over
    # a column says nothing of the card under it
    one, two = (klondike_guessed(live.guessed[p], {}, live.state.layouts[p], live.known[p], seat_view(obs, p)) for p in range(PLAYERS))
    return one, two


def _guess_still_there(live: LiveDouble, player: int, move: Move, obs: Observation) -> bool:
    """Does the view still show, where a column's card nobody read lay, what the camera made of it
    then: the same guess, or nothing but the column's backs (that card taken for a back, as it
    was)? A move of that card against the rules is no explanation: nothing shows it left, and no
    verdict rests on a card nobody saw leave (penguins seed 34: a 2D read at 0.51 on column 1, then
    read 2S at 0.36, was taken for column 6's KC, guessed KC at 0.28 there before and after, laid on
    the 2D against K4, "taken back" as the 2D came again, and the KC known as a 2S lost the game;
    then for column 7's 10H, boxed as a back all along)."""
    if move.op != "move" or not move.src.startswith("t"):
        return False
    i = int(move.src[1:]) - 1
    column = live.state.layouts[player].tableau[i]
    card = column[-move.count] if len(column) >= move.count else None
    if card is None:
        return False
    seen = obs.piles.get(seat_prefix(player) + tableau_zone(i))
    if seen is None or seen.held:
        return False
    if card in live.known[player]:
        # a known card the camera still guesses where it lay (simplistic, draw 3, seed 63 at 181 s: a 7S
        # guessed 7S at 0.22 on its column, taken for played up against K7 as the 7D the other player
        # played up, whose emptied column was taken for one whose card was not found)
        return move.count == 1 and seen.top is None and seen.top_guess == card.code
    guess = live.guessed[player].get(card)
    return (not seen.cards and bool(seen.backs)) or guess is not None and guess in (seen.top, seen.top_guess)


def _covered_still_guessed(state: DoubleState, dmove: DoubleMove, obs: Observation) -> bool:
    """Does the column ``dmove`` lays a card on still show, as the camera read or guessed it, the known
    card the move would cover there? Nothing was laid on it then: no legal move on a second look, past
    the view's unsure readings (simplistic, draw 3, seed 63: player 1's 3D, read at 0.42 on its
    foundation, taken off onto a 4C that the view read at 0.55 on top of its column, three times in ten
    seconds: invented moves), and no move against the rules on any look (seed 67 at 152 s: a draw that
    matched no position, its 9S learned as 9D in the pass before, taken for the waste's 5H laid on a
    column whose 2S the camera still guessed there)."""
    zone = _laid_on(dmove)
    seen = obs.piles.get(zone) if zone is not None else None
    if seen is None or seen.held:
        return False
    cards = moved_and_under(state.layouts[dmove.player], dmove.move)
    # (the card a foundation's card is laid on is all moved_and_under gives for such a move)
    covered = cards[-1:] if len(cards) == (1 if dmove.move.src[:1] == "f" else 2) else []
    return bool(covered) and seen.top_guess == covered[0].code


def _played_up_guessed_otherwise(state: DoubleState, dmove: DoubleMove, obs: Observation) -> bool:
    """Is ``dmove`` a card played up that the view reads on no foundation, where the camera guesses
    each foundation top it shows unread as a card of another rank? A move against the rules is no
    explanation then: nothing shows that card went there (simplistic, draw 3, seed 63: player 1's AC
    played up, read AC at 0.28, was taken for player 2's 6D, a 10D misread, played up against K7, a
    card turned up in its column read 10D; every later view was unrecognised)."""
    move = dmove.move
    if move.op != "move" or move.dst != "foundation":
        return False
    moved = moved_and_under(state.layouts[dmove.player], move)[:1]
    shown = [seen for z in FOUNDATION_ZONES if (seen := obs.piles.get(z)) is not None and seen.cards]
    if not moved or any(seen.held or seen.top == moved[0].code for seen in shown):
        return False
    guesses = [parse_seen(seen.top_guess) for seen in shown if seen.top is None]
    return bool(guesses) and all(g is not None and guess_apart(g, moved[0]) == 2 for g in guesses)


def _guess_conflicts(live: LiveDouble, binds: Binds) -> int:
    """How far what a view reads on cards nobody had read is from what the camera guessed they were in
    the last view taken: 0 the same card, 1 another suit of its rank, 2 another rank, summed."""
    n = 0
    for p in range(PLAYERS):
        for card, code in binds[p].items():
            guess, read = parse_seen(live.guessed[p].get(card)), parse_seen(code)
            if guess is not None and read is not None:
                n += guess_apart(guess, read)
    return n


def _guesses_borne_out(live: LiveDouble, binds: Binds) -> int:
    """How many cards nobody had read the view reads as the very card the camera guessed they were in
    the last view taken."""
    return sum(live.guessed[p].get(card) == code for p in range(PLAYERS) for card, code in binds[p].items())


def _shown_guess_conflicts(live: LiveDouble, obs: Observation) -> int:
    """How far the camera's guesses of the tops this view shows unread are from the cards the position
    ``live`` leaves there, where it knows them: 0 the same card, 1 another suit, 2 another rank, summed."""
    n = 0
    for p in range(PLAYERS):
        layout = live.state.layouts[p]
        tops = [(tableau_zone(i), column[-1] if column else None) for i, column in enumerate(layout.tableau)]
        for zone, top in tops + [("waste", layout.waste[-1] if layout.waste else None)]:
            seen = obs.piles.get(seat_prefix(p) + zone)
            guess = parse_seen(seen.top_guess) if seen is not None and not seen.held and seen.top is None else None
            if guess is not None and top is not None and top in live.known[p]:
                n += guess_apart(guess, top)
    return n


def _count_reads(reads: tuple[Mapping[str, int], Mapping[str, int]], obs: Observation
                 ) -> tuple[Mapping[str, int], Mapping[str, int]]:
    return count_reads(reads[0], seat_view(obs, 0)), count_reads(reads[1], seat_view(obs, 1))


def _observe(live: LiveDouble, obs: Observation) -> tuple[LiveDouble, list[Finding]]:
    obs = stirred_since(live.stirred, obs)  # (every look at the view comes through here)
    for p in range(PLAYERS):
        obs = misread_twins(obs, live.state.layouts[p], live.known[p], seat_prefix(p))
        obs = waste_top_lost(obs, seat_prefix(p) + "waste", live.state.layouts[p].waste, live.known[p], live.fanned[p])
    t, frame = max(obs.t, _time(live.state)), obs.frame
    waited = live.deferred
    live = replace(live, deferred=None) if waited is not None else live  # waited on for this view only
    unseen = _unseen_waste(live)
    binds = match(live.state, obs, live.known, unseen)
    if binds is not None:
        after = replace(live, state=learn(live.state, binds), known=_known_after(live.known, binds),
                        pending=None, pending_state=None)
        if live.pending is not None:
            if under_hand(live.pending.move, obs, seat_prefix(live.pending.player), FOUNDATION_ZONES):
                return live, []  # the piles the illegal move touched are not seen: nothing is taken back yet
            return after, [Finding("taken_back", t, move=live.pending, frame=frame)]
        over = _guessed_over(live.state, obs, live.known, live.guessed) | frozenset(
            _seat_pile(p, pile) for p in range(PLAYERS) for pile in reread_over(live.state.layouts[p], binds[p], live.guessed[p]))
        over = moved_over(over, obs, FOUNDATION_ZONES)
        carried = _guessed_moved(live, obs)
        if carried:
            # a known column top the camera guesses, as that very card, on another column of its seat,
            # which shows more face-up cards or fewer backs than the position leaves there: the move
            # that carries it there and leaves every column as the view counts it beats nothing
            # happened (kennard_big, draw 3, seed 72 at 4.3 s: a 10H read at 0.37 laid on a JC, the
            # JC and 10H guessed exactly there, the KC under it guessed too; all unread, nothing
            # happening fitted, and the game was lost at its first move)
            for pair in carried:
                moved, found = _explain(live, obs, only=pair)
                if [f.kind for f in found] == ["ambiguous"] and moved.deferred is not None:
                    # laid on, or moving, a card shown unread: the one move that leaves the columns as
                    # the view counts them, taken unjudged (:func:`observe_deferred`)
                    moved, found = observe_deferred(moved, obs)
                if found and all(f.kind == "move" for f in found) and _miscounted(moved.state, obs) < _miscounted(live.state, obs):
                    return moved, found
        if over:
            # one legal move that explains the view beats nothing happened (penguins seed 14: a draw of
            # 3S 6S AS read at 0.52 at most, with the other player's waste misread: the second look,
            # past every reading under 0.6, took it for the old waste), and so does the move waited on
            # with the next one (penguins draw 1, seed 26: a JC laid on a column top never read, then a
            # draw guessed 10C on the waste that was the JC's, which nothing happening fitted)
            moved, found = _explain(live, obs)
            if [f.kind for f in found] == ["move"] and _changed_piles(found[0].move) & over:
                return moved, found
            misread = _moved_off_misread_waste(live, obs, over)
            if misread is not None:
                return misread
            if waited is not None:
                moved, waited_found = observe_deferred(replace(live, deferred=waited), obs)
                if waited_found and all(f.kind == "move" for f in waited_found):
                    return moved, waited_found
            if [(f.kind, f.detail) for f in found] == [("ambiguous", HAND_WAIT)]:
                # the move waits for the hand to leave, and so does nothing happened: taken, this view
                # would say nothing moved over the pile the camera guesses a new card on (simplistic,
                # draw 3, seed 63 at 196 s: a draw whose 10S was guessed 6S over a 9C read at 0.35,
                # while a hand was over a column; the next view, without it, showed the waste still,
                # and the other player's draw was called out of turn)
                return live, found
        return _settled(after, obs)
    if live.pending_state is not None and match(live.pending_state, obs, live.known, unseen) is not None:
        return live, []  # the illegal move is still on the table: said once already
    if live.pending is not None:
        # taken back and another move made before the table was still long enough to be published (a
        # stock turned out of turn put back and the next move made 1.7 s later, seed 11): the view is
        # one legal move from the position before the illegal one
        if not under_hand(live.pending.move, obs, seat_prefix(live.pending.player), FOUNDATION_ZONES):
            after, found = _observe(replace(live, pending=None, pending_state=None), obs)
            if found and all(f.kind == "move" for f in found):
                return after, [Finding("taken_back", t, move=live.pending, frame=frame), *found]
        return live, [Finding("unrecognised", t, frame=frame, detail=f"waiting for {live.pending} to be taken back")]
    explained = _explain(live, obs)
    if [f.kind for f in explained[1]] == ["move"]:
        two = _pair_as_guessed(live, obs, explained[0])
        if two is not None:
            return two
    out_of_turn = explained[1][0] if [f.kind for f in explained[1]] == ["illegal"] and explained[1][0].rule == "K17" else None
    if out_of_turn is not None and live.started and out_of_turn.move is not None and out_of_turn.move.player != live.state.turn:
        # a move out of turn is no such thing where the player whose turn it was may have drawn
        # unseen first: the two legal moves explain the view (aguilar, draw 1, seed 73 at 129.7 s:
        # player 1's draw turned a 9C the camera took for a back, the waste's top before read
        # unsurely; player 2's draw after it was called out of turn)
        paired = observe_pairs(live, obs)
        moves = [f.move for f in paired[1] if f.kind == "move"]
        if (len(moves) == 2 == len(paired[1]) and moves[0] is not None and moves[0].player == live.state.turn
                and moves[0].move.op == "draw" and str(moves[1]) == str(out_of_turn.move)):
            return paired
    if waited is not None and [f.kind for f in explained[1]] == ["illegal"]:
        # the move waited on and a legal one after it beat a move against the rules (penguins, draw 3,
        # seed 45: a 9S laid on a 10H never read, waited on; then the 10H and 9S moved onto a JC,
        # which the 9S alone from its old column onto the JC, against K4, explained as well)
        moved, found = observe_deferred(replace(live, deferred=waited), obs)
        if found and all(f.kind == "move" for f in found):
            return moved, found
    return explained


def _first_read_unsurely(live: LiveDouble, player: int, move: Move, binds: Binds, obs: Observation) -> Card | None:
    """The card ``move`` lifts from the player's waste or a column when the view reads it for the first
    time (no view taken read it before), less surely than ``DOUBT_BELOW``, and the camera guessed it as
    another rank in the last view taken; None otherwise (:func:`referee.klondike_live._first_read_unsurely`)."""
    if move.op != "move" or not (move.src == "waste" or move.src.startswith("t")):
        return None
    lifted = moved_and_under(live.state.layouts[player], move)[:1]
    if not lifted or lifted[0] not in binds[player] or live.reads[player].get(lifted[0].code):
        return None
    code = binds[player][lifted[0]]
    guess, read = parse_seen(live.guessed[player].get(lifted[0])), parse_seen(code)
    if code in surely_read(frozenset(), obs) or guess is None or read is None:
        return None
    return lifted[0] if guess.rank != read.rank else None


def _pair_as_guessed(live: LiveDouble, obs: Observation, moved: LiveDouble) -> tuple[LiveDouble, list[Finding]] | None:
    """Where the one move that explains a view leaves a known card on a column top that the camera,
    unable to read it, guesses as another rank: the two legal moves that explain the view with those
    guesses taken as read, if the second lays a card on such a column (as Klondike's
    :func:`referee.klondike_live._pair_as_guessed`, where the cards are not yet known: simplistic,
    draw 3, seed 69 at 53.7 s, a draw whose 8D, never published, was laid on a 9C at once, guessed 8D
    at 0.22 there; taken for the draw alone, its 3D the top, every move after it was misplaced)."""
    piles = dict(obs.piles)
    for p, layout in enumerate(moved.state.layouts):
        view = seat_view(obs, p)
        for zone, card in known_tops(layout, moved.known[p]).items():
            guess = parse_seen(top_guess(view, zone))
            if zone.startswith("tableau") and guess is not None and guess.rank != card.rank:
                seen = piles[seat_prefix(p) + zone]
                piles[seat_prefix(p) + zone] = replace(seen, cards=seen.cards[:-1] + (guess.code,))
    if piles == obs.piles:
        return None
    guessed = {z for z in piles if piles[z] is not obs.piles[z]}
    after, found = observe_pairs(live, replace(obs, piles=piles))
    if [f.kind for f in found] != ["move", "move"] or found[1].move is None:
        return None
    second = found[1].move
    if not _zones_of(second.move.dst, seat_prefix(second.player), FOUNDATION_ZONES) & guessed:
        return None
    return after, found


def let_stand(live: LiveDouble, t: float) -> tuple[LiveDouble, list[Finding]] | None:
    """The illegal move waiting to be taken back, let stand (:func:`~referee.observation.stands`): the
    game goes on from the table it left, and the mover had the turn (a move out of turn let stand says
    the referee lost count of the turns), which passes as K17 says. None: nothing waits."""
    if live.pending is None or live.pending_state is None:
        return None
    dmove = live.pending
    table = replace(live.pending_state, turn=dmove.player)
    verdict = double_solitaire.finish_move(table, replace(dmove, move=replace(dmove.move, t=max(t, _time(live.state)))))
    return _after_move(replace(live, pending=None, pending_state=None, deferred=None), verdict, live.known), [stands(t, verdict)]


def _guessed_over(state: DoubleState, obs: Observation, known: tuple[frozenset[Card], ...],
                  guessed: tuple[Mapping[Card, str], ...] = ({}, {})) -> frozenset[str]:
    """The piles where a move may hide behind the unsure readings (``p1.waste``, ``foundation``): a
    waste's top shown unread with the camera's guess another card than the one read there, or guessed
    there before (:func:`referee.klondike_live._guessed_over`), or a foundation's top unread with a
    guess that is none of the known tops."""
    over = {_seat_pile(p, pile) for p, layout in enumerate(state.layouts)
            for pile in guessed_over(layout, known[p], guessed[p], seat_view(obs, p))}
    tops = {pile[-1].card.code for pile in state.foundations if pile[-1].card in known[pile[-1].owner]}
    if foundation_guessed_over(obs, FOUNDATION_ZONES, tops):
        over.add("foundation")
    return frozenset(over)


def _guessed_moved(live: LiveDouble, obs: Observation) -> set[frozenset[str]]:
    """Pairs of a seat's columns (``p1.t4``, ``p1.t3``) where the view shows the second's top unread
    with the camera's guess exactly the first's known top, and the first's top unread or read as
    another card, on columns a hand may have passed over (:func:`moved_over`)."""
    pairs = set()
    for p, layout in enumerate(live.state.layouts):
        for i, (pile, hidden) in enumerate(zip(layout.tableau, layout.hidden)):
            if len(pile) <= hidden or pile[-1] not in live.known[p]:
                continue
            code, own = pile[-1].code, obs.piles.get(seat_prefix(p) + tableau_zone(i))
            if own is None or own.held or own.top == code or own.top_guess == code:
                continue
            for j in range(len(layout.tableau)):
                seen = obs.piles.get(seat_prefix(p) + tableau_zone(j))
                if j != i and seen is not None and not seen.held and seen.top is None and seen.top_guess == code:
                    pair = frozenset({_seat_pile(p, f"t{i + 1}"), _seat_pile(p, f"t{j + 1}")})
                    if len(moved_over(pair, obs, FOUNDATION_ZONES)) == 2:
                        pairs.add(pair)
    return pairs


def _changed_piles(dmove: DoubleMove) -> frozenset[str]:
    """The piles a player's move changes, named as :func:`_guessed_over` names them."""
    return frozenset(_seat_pile(dmove.player, pile) for pile in changed_piles(dmove.move))


def _seat_pile(player: int, pile: str) -> str:
    """A player's pile as one Klondike layout names it (``waste``, ``t3``), named on the shared table
    (``p1.waste``, ``p1.t3``; the foundations are everyone's: ``foundation``)."""
    return pile if pile == "foundation" else seat_prefix(player) + pile


def _explain(live: LiveDouble, obs: Observation, only: frozenset[str] | None = None) -> tuple[LiveDouble, list[Finding]]:
    """The move or illegal move of either player that explains a view the position does not show
    (``only``: of the moves that change just those piles)."""
    t, frame = max(obs.t, _time(live.state)), obs.frame
    movers = (live.state.turn, 1 - live.state.turn) if live.started else (0, 1)
    anyone = not live.started or live.turn_open  # whoever moves has the turn
    unsure = None if anyone else _turn_kept_on_unsure(live, obs)
    legal: list[tuple[LiveDouble, list[Finding]]] = []
    conflicts: list[int] = []  # per legal move: how far the view's reading is from the camera's guesses
    borne: list[int] = []  # per legal move: how many of the camera's guesses the view's reading bears out
    illegal: list[tuple[LiveDouble, list[Finding]]] = []
    unread: list[DoubleMove] = []
    shown_unread: list[tuple[DoubleMove, Legal[DoubleState], tuple[frozenset[Card], frozenset[Card]]]] = []
    miscounted: dict[DoubleMove, int] = {}  # per move waiting on a card nobody read, or illegal: columns the view counts otherwise
    unjudged: list[tuple[LiveDouble, list[Finding]]] = []
    moved_unread: list[tuple[LiveDouble, list[Finding]]] = []  # a card nobody has read moved, shown unread where it lands
    hidden: list[DoubleMove] = []  # against the rules, laid on a pile a hand covers from one the view shows
    unseen = _unseen_waste(live)
    for player in movers:
        for move, table in physical_moves(live.state, player):
            if only is not None and _changed_piles(DoubleMove(player, move)) != only:
                continue
            if lands_where_still(move, obs, seat_prefix(player), FOUNDATION_ZONES):
                continue  # no hand laid a card there
            binds = match(table, obs, live.known, unseen)
            if binds is None:
                continue
            known = _known_after(live.known, binds)
            before, seen = learn(live.state, binds), learn(table, binds)
            dmove = DoubleMove(player, replace(move, t=t))
            state = replace(before, turn=player) if anyone or (unsure and player != live.state.turn) else before
            # out of turn, a move is against K17 whatever its cards (penguins seed 13: a stock turned out
            # of turn, its queens taken for a back, waited to be read and was never called)
            if (anyone or player == live.state.turn) and _unread(before, seen, player, move, known):
                if move.op == "draw":
                    # a draw is the player's to make: only whose turn follows rests on the card it turned
                    # (penguins seed 13: a KC read at 0.29 at most, until the other player had moved twice)
                    verdict = double_solitaire.apply(state, dmove, turn_passing=False)
                    assert isinstance(verdict, Legal)
                    turned = verdict.state.layouts[player].waste[-1]
                    why = (f"whether {turned.name} can be placed rests on a card not read" if turned in known[player]
                           else "the card turned is not read")
                    detail = f"{dmove}: {why}, so whoever moves next has the turn"
                    after = _after_move(live, verdict, known, turn_open=True)
                    legal.append((after, [Finding("move", t, move=dmove, verdict=verdict, frame=frame, detail=detail)]))
                    conflicts.append(_guess_conflicts(live, binds))
                    borne.append(_guesses_borne_out(live, binds))
                    continue
                unread.append(dmove)
                miscounted[dmove] = _miscounted(table, obs)
                onto = _onto_unread(state, player, dmove, known, obs)
                later = onto or _onto_unread(state, player, dmove, known, obs, "moved")
                if later is None:
                    shown = _onto_unread(state, player, dmove, known, obs, "shown")
                    if shown is not None:
                        shown_unread.append((dmove, shown, known))
                if later is not None:
                    how = "laid on" if onto is not None else "moved"
                    detail = f"{dmove}: {how} a card not read, so not judged"
                    (unjudged if onto is not None else moved_unread).append(
                        (_after_move(live, later, known), [Finding("move", t, move=dmove, verdict=later, frame=frame, detail=detail)]))
                continue
            verdict = double_solitaire.apply(state, dmove)
            if isinstance(verdict, Legal) and obs.second_look and _covered_still_guessed(before, dmove, obs):
                continue
            if isinstance(verdict, Illegal) and (first := _first_read_unsurely(live, player, move, binds, obs)) is not None:
                # the card moved, never read before, read here unsurely as a card the move cannot lay
                # there, guessed as another rank in the last view taken: the rules settle the unsure
                # reading, as for a card not read (as Klondike's; aguilar, draw 1, seed 73 at 123.7 s:
                # a drawn 6H, guessed 6H at 0.29, laid on a 7S and read 5H at 0.35 there, called
                # against K4, and every later move of the player misplaced)
                rest = cast(Binds, _set(binds, player, {c: code for c, code in binds[player].items() if c != first}))
                unsure_known = _known_after(live.known, rest)
                base = learn(live.state, rest)
                later = _onto_unread(replace(base, turn=state.turn), player, dmove, unsure_known, obs, "moved")
                if later is not None:
                    detail = (f"{dmove}: the card moved, read {binds[player][first]} only unsurely, cannot lie there "
                              f"({verdict.rule}): taken as not read, so not judged")
                    unread.append(dmove)
                    miscounted[dmove] = _miscounted(table, obs)
                    moved_unread.append((_after_move(live, later, unsure_known), [Finding("move", t, move=dmove, verdict=later, frame=frame, detail=detail)]))
                    continue
            if isinstance(verdict, Legal):
                after = _after_move(live, verdict, known)
                note = f"{dmove}: {unsure}" if unsure and player != live.state.turn else ""
                legal.append((after, [Finding("move", t, move=dmove, verdict=verdict, frame=frame, detail=note)]))
                conflicts.append(_guess_conflicts(live, binds))
                borne.append(_guesses_borne_out(live, binds))
            elif (not _guess_still_there(live, player, move, obs) and not _played_up_guessed_otherwise(before, dmove, obs)
                  and not _covered_still_guessed(before, dmove, obs) and not under_hand(move, obs, seat_prefix(player), FOUNDATION_ZONES)
                  and not _turn_may_pass_under_hand(live.state, dmove, verdict.rule, obs)
                  and not lifts_where_still(move, obs, seat_prefix(player), FOUNDATION_ZONES)):
                # (not a move whose piles are under a hand: penguins, draw 3, seed 40, a draw's 7S never
                # read, the 8D under it taken for its top; the 7S laid on an 8H while a hand was over the
                # column beside it was judged as the 8H laid there against K4, a pile nobody could see)
                waiting = replace(live, state=before, known=known, pending=dmove, pending_state=seen)
                illegal.append((waiting, [Finding("illegal", t, move=dmove, rule=verdict.rule, reason=verdict.reason, frame=frame)]))
                miscounted[dmove] = _miscounted(table, obs)
            elif _laid_under_hand(dmove, obs) and not lifts_where_still(move, obs, seat_prefix(player), FOUNDATION_ZONES):
                # (not from a pile nothing moved over: kennard_4c, draw 1, seed 68 at 21.6 s, a draw
                # waited on for a far column marked under a hand, the column beside it still)
                hidden.append(dmove)
    if legal and hidden and not any(under_hand(f[0].move.move, obs, seat_prefix(f[0].move.player), FOUNDATION_ZONES) for _, f in legal):
        # a legal move the view shows in full, and a move against the rules whose card went where a
        # hand still covers: only the pile under the hand tells them apart (penguins, draw 3, seed 49:
        # a JS moved off the waste onto a KD against K4, the hand still over the KD, the 2D under the
        # JS taken for a draw's top; the draw stood, and the illegal move was never called)
        return live, [Finding("ambiguous", t, frame=frame, detail=HAND_WAIT)]
    laid = [(a, f) for a, f in illegal if _laid_as_guessed(a, f[0].move, obs)]
    if legal and len(laid) == 1 and all(_leaves_other_rank(a, laid[0][1][0].move, obs) for a, _ in legal) and not any(borne):
        # the card a move against the rules lays on a column, guessed there exactly, unread, where each
        # legal explanation leaves a card of another rank: the guess is the card that left its pile (seed
        # 49 once the hand is gone: the JS guessed JS at 0.23 on the KD, the draw leaving the KD there);
        # not where a legal move reads a card as the camera guessed it before (penguins, draw 3, seed 74
        # at 38.7 s: the waste's JS, guessed JS, laid on a QH and read JS at 0.43 there, lost to the QH
        # laid on a 10H guessed QH at 0.21, against K4)
        return laid[0]
    if legal:
        if len({_end(a) for a, _ in legal}) == 1:
            return legal[0]
        at = [k for k, n in enumerate(conflicts) if n == min(conflicts)]
        if len({_end(legal[k][0]) for k in at}) > 1:
            # then the camera's guesses of this view's unread tops against the cards each leaves there
            # (penguins, draw 3, seed 49: a 6C moved from the waste onto a 7D, guessed 6C at 0.16 there,
            # the waste showing the 3C under it, tied with a draw whose top was a 3C, the 7D under the guess)
            apart = [_shown_guess_conflicts(legal[k][0], obs) for k in at]
            at = [k for k, n in zip(at, apart) if n == min(apart)]
        if len({_end(legal[k][0]) for k in at}) > 1:
            # then a card the camera guessed, unread, as the very card the view reads where it went,
            # over one it had made nothing of (simplistic, draw 3, seed 69: a 4H guessed 4H at 0.06-0.19
            # laid on a 5S, tied with two unread column tops that no view had guessed; the game waited,
            # and was lost when the next move came)
            most = max(borne[k] for k in at)
            at = [k for k in at if borne[k] == most]
        fewest = [legal[k] for k in at]
        if not obs.second_look and len({_end(a) for a, _ in fewest}) == 1:
            # the view read a card the camera guessed as another before, unread, in one explanation and
            # not in the other (penguins seed 14: an AS drawn unread, guessed AS, played up; or the other
            # player's waste top played up as the AS and the first's guessed AS read as the 6S under it).
            # Not on a second look: there, a tie may be a view no single move explains with some of its
            # readings left unread (seed 13: the other player's ace up and 10D on a JS, the 10D and JS
            # left unread; the tie sent it on to the search for two moves)
            return fewest[0]
        names = "; ".join(sorted({str(f[0].move) for _, f in legal}))
        return live, [Finding("ambiguous", t, frame=frame, detail=f"several moves fit: {names}")]
    if len(unjudged) == 1 and not (moved_unread and min(miscounted[f[0].move] for _, f in moved_unread) < miscounted[unjudged[0][1][0].move]):
        # laid on a card nobody has read, which it now covers: no clearer view of that card will come
        # while it lies there, so the game goes on with the move not judged; unless a move of a card
        # nobody read leaves fewer columns otherwise than the view counts them (kennard_big, draw 3,
        # seed 55 at 8.2 s: a 9S never read moved onto a 10D and turned up a 2C, taken for the 10D
        # laid on a column top never read, which left the 2C's column a back short; nothing happened)
        return unjudged[0]
    if len(moved_unread) > 1:
        # of several, the one that leaves the backs and face-up cards the view counts (as Klondike's)
        counts = [miscounted[f[0].move] for _, f in moved_unread]
        fewest = [m for m, n in zip(moved_unread, counts) if n == min(counts)]
        moved_unread = fewest if len(fewest) == 1 else moved_unread
    if len(moved_unread) == 1 and not any(p.held for p in obs.piles.values()):
        # the one explanation, as Klondike's (a clearer view seldom comes before the next move)
        return moved_unread[0]
    if unread and illegal:
        # a move against the rules that leaves every column as the view counts it is likelier than a
        # move of a card nobody read that leaves one otherwise (penguins, draw 1, seed 51: a 5H laid on
        # a 4C against K4 waited on as the 5H moved with the card under it, never read, which would
        # have turned up a card and left a back fewer than the view shows)
        wrong = [miscounted[f[0].move] for _, f in illegal]
        if min(wrong) < min(miscounted[m] for m in unread):
            return illegal[wrong.index(min(wrong))]
    if unread:
        names = "; ".join(sorted({str(m) for m in unread}))
        # (the one move laid on, or of, a card shown unread is kept: if the next change comes before a
        # clearer view, it is taken unjudged with it, :func:`observe_deferred`; of several, the one
        # whose columns show as many backs as it leaves there: penguins draw 1, seed 25, an ace played
        # up unread from one of two columns whose tops nobody had read, the one that shows a back fewer)
        waited = shown_unread + [(f[0].move, f[0].verdict, after.known) for after, f in moved_unread]
        least = min(miscounted[m] for m, _, _ in waited) if waited else 0
        waited = [x for x in waited if miscounted[x[0]] == least]
        wait = replace(live, deferred=waited[0]) if len(waited) == 1 and not unjudged else live
        return wait, [Finding("ambiguous", t, frame=frame, detail=f"{names}: its card is not read yet, waiting for a clearer view")]
    if illegal:
        return illegal[0]
    return _unexplained(live, obs)


def _turn_kept_on_unsure(live: LiveDouble, obs: Observation) -> str | None:
    """Whose turn it is rests on a card read only unsurely: the last move was the turn-holder's draw,
    kept as the turn because its card could be placed, and the view reads the waste's top under
    ``DOUBT_BELOW`` (or not at all). A move of the other player is then no move out of turn (K17):
    what the card was, the other player's move tells (aguilar, seed 61 at 1280x720: a 6H drawn, read
    5H at 0.43, could go on a 6C; player 2's next draw, legal, was called out of turn and every
    view after it unrecognised). The note the move is logged with; None where the turn is sure."""
    if not live.started or live.undo is None:
        return None
    drawer, last = live.state.turn, live.undo[1].move
    if not isinstance(last, DoubleMove) or last.player != drawer or last.move.op != "draw":
        return None
    waste = obs.piles.get(seat_prefix(drawer) + "waste")
    if waste is None or waste.held or not waste.cards or (waste.top is not None and not waste.top_weak):
        return None
    return f"player {drawer + 1}'s turned card is read only unsurely, so whose turn it was is taken from this move"


def _turn_may_pass_under_hand(state: DoubleState, dmove: DoubleMove, rule: str | None, obs: Observation) -> bool:
    """Is ``dmove`` against K17 only for being out of turn, while a hand is over the stock or waste of
    the player whose turn it is? That hand may be drawing a card that passes the turn (simplistic, draw
    3, seed 63 at 181 s: player 1's draw under a hand, player 2's 7D played up in the same view, called
    out of turn; the game was lost)."""
    if rule != "K17" or dmove.player == state.turn:
        return False
    return any((seen := obs.piles.get(seat_prefix(state.turn) + z)) is not None and seen.held for z in ("stock", "waste"))


def _laid_under_hand(dmove: DoubleMove, obs: Observation) -> bool:
    """Is ``dmove`` a move to a column that a hand covers in the view, from a pile the view shows?"""
    zone = _laid_on(dmove)
    seen = obs.piles.get(zone) if zone is not None else None
    sources = _zones_of(dmove.move.src, seat_prefix(dmove.player), FOUNDATION_ZONES)
    return seen is not None and seen.held and not any((p := obs.piles.get(z)) is not None and p.held for z in sources)


def _laid_on(dmove: DoubleMove) -> str | None:
    """The zone a card move to a column lays its card on (``p2.tableau5``), else None."""
    move = dmove.move
    if move.op != "move" or not move.dst.startswith("t"):
        return None
    return seat_prefix(dmove.player) + tableau_zone(int(move.dst[1:]) - 1)


def _laid_as_guessed(waiting: LiveDouble, dmove: DoubleMove, obs: Observation) -> bool:
    """Does the view show the column ``dmove`` (waiting to be taken back) laid a known card on unread,
    guessed as exactly that card?"""
    zone, table = _laid_on(dmove), waiting.pending_state
    seen = obs.piles.get(zone) if zone is not None else None
    if seen is None or seen.held or seen.top is not None or table is None:
        return False
    column = table.layouts[dmove.player].tableau[int(dmove.move.dst[1:]) - 1]
    return bool(column) and column[-1] in waiting.known[dmove.player] and seen.top_guess == column[-1].code


def _leaves_other_rank(after: LiveDouble, dmove: DoubleMove, obs: Observation) -> bool:
    """Does the position ``after`` leave, on the column ``dmove`` lays its card on, a known card of
    another rank than the camera's guess there?"""
    zone, guess = _laid_on(dmove), None
    if zone is not None and (seen := obs.piles.get(zone)) is not None:
        guess = parse_seen(seen.top_guess)
    if guess is None:
        return False
    player = dmove.player
    column = after.state.layouts[player].tableau[int(dmove.move.dst[1:]) - 1]
    return bool(column) and column[-1] in after.known[player] and guess_apart(guess, column[-1]) == 2


def _miscounted(table: DoubleState, obs: Observation) -> int:
    """How many columns the view shows with another number of backs or face-up cards than ``table``
    leaves there (:func:`referee.klondike_live.columns_miscounted`, seat by seat)."""
    return sum(columns_miscounted(layout, seat_view(obs, p)) for p, layout in enumerate(table.layouts))


def _unexplained(live: LiveDouble, obs: Observation) -> tuple[LiveDouble, list[Finding]]:
    """The view nothing explains: the position as it was, and what differs from it."""
    t = max(obs.t, _time(live.state))
    return live, [Finding("unrecognised", t, frame=obs.frame, detail=_difference(live.state, obs))]


def observe_further(live: LiveDouble, obs: Observation) -> tuple[LiveDouble, list[Finding]]:
    """The last looks at a view nothing else explains: the move waited on taken with the next one
    (:func:`observe_deferred`), columns the camera lost taken as they were (:func:`observe_lost`: no
    move empties a column with backs, so that is sure), then one card misread
    earlier (:func:`observe_misread`), then two moves in one view (:func:`observe_pairs`), then the
    last move taken back (:func:`observe_undone`)."""
    obs = _faces_taken_for_backs(obs)
    return _took(obs, *last_looks(live, obs, observe_deferred, observe_lost, observe_misread, observe_pairs, observe_undone))


def observe_deferred(live: LiveDouble, obs: Observation) -> tuple[LiveDouble, list[Finding]]:
    """The move the referee waited on (``deferred``), taken unjudged when the next view, which no move
    from the position explains, is explained after it, as Klondike's
    (:func:`referee.klondike_live.observe_deferred`; penguins draw 1 at 1920x1080, seed 26: a JC laid
    on a column top never read, and the next draw made before any clearer view)."""
    if live.deferred is None or live.pending is not None:
        return _unexplained(live, obs)
    dmove, verdict, known = live.deferred
    after, findings = _observe(_after_move(replace(live, deferred=None), verdict, known), obs)
    # (the next change may be against the rules: the move waited on was seen, in the view before;
    # seed 25: the other player's stock turned out of turn just after an ace played up unread)
    if [f.kind for f in findings] not in ([], ["move"], ["call"], ["move", "call"], ["illegal"]):
        return _unexplained(live, obs)
    t = max(obs.t, _time(live.state))
    return after, [Finding("move", t, move=dmove, verdict=verdict, frame=obs.frame,
                           detail=f"{dmove}: a card not read moved or covered, so not judged"), *findings]


def observe_undone(live: LiveDouble, obs: Observation) -> tuple[LiveDouble, list[Finding]]:
    """The view shows the position before the last legal move, or one move on from it, which no move
    from the position explains: that move was taken back on the table, as Klondike's
    (:func:`referee.klondike_live.observe_undone`; 1280x720, seed 15: a stock turned by the other
    player while the turn was open, put back, and the first player's next move made)."""
    if live.undo is None or live.pending is not None:
        return _unexplained(live, obs)
    before, verdict = live.undo
    after, findings = _observe(before, obs)
    if [f.kind for f in findings] not in ([], ["move"], ["call"], ["move", "call"]):
        return _unexplained(live, obs)
    move = DoubleMove(verdict.move.player, replace(verdict.move.move, t=None))
    t = max(obs.t, _time(live.state))
    back = Finding("taken_back", t, move=move, verdict=verdict, frame=obs.frame,
                   detail=f"{move} was taken back: the table is as it was before it")
    out_of_turn = _out_of_turn(before, verdict.move)
    if out_of_turn is not None:
        # a move taken as legal only because whose turn it was rested on a card read unsurely, put
        # back by its player: it was made out of turn (penguins, draw 3, seed 62: player 1's draw
        # turned a JC, read at 0.33 and so could be placed; player 2's draw, taken from it as the
        # turn passing, was put back, and the K17 it broke never called)
        late = Finding("illegal", t, move=move, rule=out_of_turn.rule, reason=out_of_turn.reason, frame=obs.frame,
                       detail=f"{move} was put back: it was made out of turn, which the card read unsurely hid")
        return after, [back, late, Finding("taken_back", t, move=move, frame=obs.frame), *findings]
    return after, [back, *findings]


def _out_of_turn(before: LiveDouble, move: DoubleMove) -> Illegal | None:
    """The rule ``move`` broke, made from ``before`` by the player whose turn it was not: a move
    :func:`_turn_kept_on_unsure` let stand (None for any other move, or one the rules allow)."""
    if not before.started or before.turn_open or move.player == before.state.turn:
        return None
    verdict = double_solitaire.apply(before.state, move)
    return verdict if isinstance(verdict, Illegal) else None


def observe_lost(live: LiveDouble, obs: Observation) -> tuple[LiveDouble, list[Finding]]:
    """A player's column that shows nothing at all, no card and no back, while the position says it holds
    backs, taken as it was, and then so the columns without backs, as Klondike's
    (:func:`referee.klondike_live.observe_lost`): seed 18's far 3H and 2S on an unread 4S were not
    found for half a minute while both players played on."""
    tried: list[tuple[int, int]] = []
    for backless in (False, True):
        view, lost = obs, []
        for p, layout in enumerate(live.state.layouts):
            view, columns = columns_as_they_were(layout, live.known[p], view, seat_prefix(p), backless)
            lost += [(p, i) for i in columns]
        if not lost or lost == tried:
            continue
        tried = lost
        after, findings = _observe(live, view)
        if [f.kind for f in findings] not in EXPLAINED or any(
                (f.move.player, f.move.move.src) in {(p, f"t{i + 1}") for p, i in lost} for f in findings if f.move is not None):
            continue
        zones = ", ".join(seat_prefix(p) + tableau_zone(i) for p, i in lost)
        return after, [replace(f, detail=f"{zones} not found in this view: taken as it was") for f in findings]
    return _unexplained(live, obs)


def observe_misread(live: LiveDouble, obs: Observation) -> tuple[LiveDouble, list[Finding]]:
    """A view that matches no position once one card a player's piles showed, read in no more than
    ``MAX_READS_TO_DOUBT`` views or read here as another suit of its rank, is taken as not read after
    all, as Klondike's
    (:func:`referee.klondike_live.observe_misread`): penguins seed 14, a draw whose top QH the camera
    missed, its middle 5S read at 0.35 and learned as the top; every view once the QH showed was
    unrecognised."""
    doubtful = []
    for p, layout in enumerate(live.state.layouts):
        on_show = _visible(layout) | {pile[-1].card for pile in live.state.foundations if pile[-1].owner == p}
        other_suit = read_as_another_suit(layout, obs, live.known[p], seat_prefix(p), live.reads[p])
        doubtful += [(p, c) for c in sorted(on_show & live.known[p], key=lambda c: c.code)
                     if live.reads[p].get(c.code, 0) <= MAX_READS_TO_DOUBT or c in other_suit]

    def look(doubt: tuple[int, Card]) -> tuple[LiveDouble, list[Finding]] | None:
        p, card = doubt
        after, findings = _observe(_doubting(live, p, card), obs)
        if [f.kind for f in findings] not in EXPLAINED or (
                card in after.known[p] and not turned_up_elsewhere(live.state.layouts[p], after.state.layouts[p], card)):
            return None
        return after, _misread(findings, p, card)

    return one_misread(doubtful, look) or _unexplained(live, obs)


def _doubting(live: LiveDouble, player: int, card: Card) -> LiveDouble:
    """The running picture with ``card``, read earlier on ``player``'s piles, taken as never read, but
    guessed as it was read: of the moves that then explain a view, those that take it for a card near
    that reading come first (simplistic, draw 3, seed 69: a draw's 3C read 3S at 0.49 and learned so,
    laid on a 4H; with the 3S doubted, the fan's AS under it fitted as the 3S misread, beside unread
    column tops laid there)."""
    doubted = replace(live, known=_set(live.known, player, live.known[player] - {card}),
                      guessed=_set(live.guessed, player, {**live.guessed[player], card: card.code}))
    waste = live.state.layouts[player].waste
    if not live.turn_open and live.state.turn != player and waste and waste[-1] == card:
        # the turn passed on this card, the draw's, as one that cannot be placed (K17): taken as not
        # read, whose turn follows is open again (penguins, draw 3, seed 40: a draw's 7S never read,
        # the 8D under it learned as its top, and the 7S laid on an 8H was called out of turn)
        doubted = replace(doubted, turn_open=True, state=replace(live.state, turn=player))
    return doubted


def _misread(findings: list[Finding], player: int, card: Card) -> list[Finding]:
    return [replace(f, detail=f"player {player + 1}'s card read {card.code} earlier was misread") for f in findings]


def _moved_off_misread_waste(live: LiveDouble, obs: Observation, over: frozenset[str]) -> tuple[LiveDouble, list[Finding]] | None:
    """A view that shows the position, but with a waste's top unread and guessed another card than the
    one read there (``over``), explained by one legal move off that waste once its top, read in no more
    than ``MAX_READS_TO_DOUBT`` views, is taken as misread. Nothing happening fits such a view as well,
    and assumes a misread now instead of one earlier; the move says where the unread card went
    (penguins, draw 3, seed 62: a QS drawn, read 9H at 0.39 in two views, laid on a KD where it read
    at 0.29, the KS under it guessed on the waste; taken for nothing happening, every view was
    unrecognised from the next recycle on, 24 moves lost). None: no such move, or several."""
    found: list[tuple[LiveDouble, list[Finding]]] = []
    for p, layout in enumerate(live.state.layouts):
        top = layout.waste[-1] if layout.waste else None
        if (_seat_pile(p, "waste") not in over or top is None or top not in live.known[p]
                or live.reads[p].get(top.code, 0) > MAX_READS_TO_DOUBT):
            continue
        moved, findings = _explain(_doubting(live, p, top), obs)
        if ([f.kind for f in findings] == ["move"] and findings[0].move is not None and findings[0].move.player == p
                and findings[0].move.move.src == "waste" and top not in moved.known[p]):
            found.append((moved, _misread(findings, p, top)))
    return found[0] if len(found) == 1 else None


def observe_pairs(live: LiveDouble, obs: Observation) -> tuple[LiveDouble, list[Finding]]:
    """Two legal moves, one after the other, that the view shows (a view between them was never
    published: penguins seed 13, player 2 played an ace up and laid a 10D on a JS while the cards of
    the first were still settling). As Klondike's pairs (:func:`referee.klondike_live.observe_pairs`),
    both are judged on what the view reads: a card either involves that no view has read rules the
    pair out (a draw's own card aside: whose turn follows is then open, as for one move)."""
    t, frame = max(obs.t, _time(live.state)), obs.frame
    found: list[tuple[LiveDouble, list[Finding]]] = []
    first_movers = (0, 1) if not live.started or live.turn_open else (live.state.turn,)
    unseen = _unseen_waste(live)
    for p in first_movers:
        start = replace(live.state, turn=p)
        for m1 in double_solitaire.legal_moves(start):
            m1 = DoubleMove(p, replace(m1.move, t=t))
            v1 = double_solitaire.apply(start, m1, turn_passing=False)
            if not isinstance(v1, Legal):
                continue
            for q in range(PLAYERS):
                for m2, table in physical_moves(replace(v1.state, turn=q), q):
                    binds = match(table, obs, live.known, unseen)
                    if binds is not None:
                        pair = _judged_pair(live, start, m1, v1.state, DoubleMove(q, replace(m2, t=t)), binds, obs)
                        if pair is not None:
                            found.append(pair)
    if not found:
        return _unexplained(live, obs)
    if len({_end(a) for a, _ in found}) > 1:
        names = "; ".join(sorted({f"{f[0].move}, {f[1].move}" for _, f in found}))
        return live, [Finding("ambiguous", t, frame=frame, detail=f"several pairs of moves fit: {names}")]
    if live.turn_open:
        # both players' moves, the order open: the drawer whose card's place was not told has most likely
        # passed the turn (a card turned that fits is played, not drawn over; kennard, draw 3, seed 60: both
        # players drew in one view, player 1 again first, and player 2's next draw was called out of turn)
        passed = [pair for pair in found if pair[1][0].move.player != live.state.turn]
        found = passed or found
    return found[0]


def _judged_pair(live: LiveDouble, start: DoubleState, m1: DoubleMove, middle: DoubleState, m2: DoubleMove, binds: Binds,
                 obs: Observation) -> tuple[LiveDouble, list[Finding]] | None:
    """``m1`` (which left ``middle``, placeholders as they were) then ``m2`` judged on the cards the view
    ``binds`` reads: both legal, each made by the player whose turn it is; None otherwise (a pair is
    never an illegal verdict: a view two moves explain only against the rules stays unexplained)."""
    known = _known_after(live.known, binds)
    state = learn(start, binds)
    unread = _unread(state, learn(middle, binds), m1.player, m1.move, known)
    if unread and m1.move.op != "draw":
        return None
    one = double_solitaire.apply(state, m1, turn_passing=not unread)
    if not isinstance(one, Legal) or (one.state.turn != m2.player and not unread):
        return None
    after_one = replace(one.state, turn=m2.player)
    table = double_solitaire.apply(after_one, m2, turn_passing=False)
    if not isinstance(table, Legal):
        return None
    unread = _unread(after_one, table.state, m2.player, m2.move, known)
    if unread and m2.move.op != "draw":
        return None
    two = double_solitaire.apply(after_one, m2, turn_passing=not unread)
    if not isinstance(two, Legal) or match(two.state, obs, known, _unseen_waste(live)) is None:
        return None
    after = _after_move(_after_move(live, one, known), two, known, turn_open=unread)
    return after, [Finding("move", obs.t, move=m1, verdict=one, frame=obs.frame),
                   Finding("move", obs.t, move=m2, verdict=two, frame=obs.frame)]


def _after_move(live: LiveDouble, verdict: Legal[DoubleState], known: tuple[frozenset[Card], frozenset[Card]],
                turn_open: bool = False) -> LiveDouble:
    """The running picture after one more legal move, nothing waiting to be taken back."""
    return LiveDouble(verdict.state, known, True, moves=live.moves + 1, turn_open=turn_open, reads=live.reads,
                      undo=(replace(live, undo=None), verdict), false_backs=live.false_backs, fanned=live.fanned)


def _settled(live: LiveDouble, obs: Observation) -> tuple[LiveDouble, list[Finding]]:
    """The turn an unread draw left open (``turn_open``), settled as K17 says once the view reads the card
    it turned (and the tops it might go on); the turn passing is called then. A read card that could go
    only on column tops nobody has read passes the turn when it fits on none of them as the camera
    guesses them (:func:`_tops_as_guessed`); a guess never keeps the turn with the drawer."""
    t, frame = max(obs.t, _time(live.state)), obs.frame
    drawer = live.state.turn
    waste = live.state.layouts[drawer].waste
    if not live.turn_open or not waste:
        return live, []
    judged, note = live.state, None
    if _placing_unread(live.state, drawer, live.known[drawer]):
        guessed = _tops_as_guessed(live, drawer, obs)
        if guessed is None:
            return live, []
        judged, known, note = guessed
        if _placing_unread(judged, drawer, known) or double_solitaire.placeable(judged, drawer):
            return live, []
    settled = replace(live, turn_open=False)
    over = double_solitaire.turn_over(judged, drawer, Move.draw(t))
    if over is None:
        return settled, []
    settled = replace(settled, state=replace(live.state, turn=1 - drawer))
    if note is not None:
        over = replace(over, detail=f"{over.detail} ({note})")
    return settled, [Finding("call", t, verdict=over, frame=frame)]


def _tops_as_guessed(live: LiveDouble, player: int, obs: Observation
                     ) -> tuple[DoubleState, frozenset[Card], str] | None:
    """The position with the player's column tops nobody has read as the camera last guessed them, what
    the player then knows, and a note naming the guesses (as the call says them); None if one is not
    guessed, or is guessed as a card read elsewhere. (Penguins, draw 3, seed 36: a 7C drawn, placeable only on a red 8, the column
    top beside it never read, guessed 6C at 0.03-0.26: the turn stayed open, and the drawer's next draw,
    out of turn, was taken as legal.) Whether the card fits is all the guess decides, and the odds of a
    guess naming another card than one it fits on are long."""
    layout = live.state.layouts[player]
    known = live.known[player]
    guesses = _guesses(live, obs)[player]
    read = {c.code for c in known}
    bind: dict[Card, str] = {}
    named = []
    for j, column in enumerate(layout.tableau):
        if not column or column[-1] in known:
            continue
        guess = guesses.get(column[-1])
        if guess is None or guess in read or guess in bind.values():
            return None
        bind[column[-1]] = guess
        named.append(f"column {j + 1}'s card, never read, guessed {guess}")
    binds: Binds = (bind, {}) if player == 0 else ({}, bind)
    return learn(live.state, binds), _known_after(live.known, binds)[player], f"judged on {'; '.join(named)}"


def _end(live: LiveDouble) -> tuple[object, ...]:
    """What two explanations of a view must leave alike to be one: both layouts and the shared tops."""
    return live.state.layouts, _tops(live.state)


def _tops(state: DoubleState) -> tuple[str, ...]:
    return tuple(sorted(pile[-1].card.code for pile in state.foundations))


def _time(state: DoubleState) -> float:
    return max(layout.time for layout in state.layouts)


def _difference(state: DoubleState, obs: Observation) -> str:
    """Which zones do not look as the position says, for the unrecognised-change report."""
    out = [line for p in range(PLAYERS) for line in differing_piles(_view(state.layouts[p]), seat_view(obs, p), seat_prefix(p))]
    seen = sorted(f.top or "?" for z in FOUNDATION_ZONES if (f := obs.piles.get(z)) is not None and f.cards)
    if seen != list(_tops(state)):
        out.append(f"foundations show {' '.join(seen) or 'nothing'}")
    return "; ".join(out) or "the view does not fit the position"


# --- for the screens and the log -----------------------------------------------------------------------


def public_state(live: LiveDouble) -> dict[str, object]:
    """The position as the players may see it: both layouts (unread cards as ``None``), the shared
    foundations' tops, whose turn it is, cards played up, the winner."""
    state = live.state
    players = []
    for p, layout in enumerate(state.layouts):
        known = live.known[p]
        players.append({
            "tableau": [{"down": h, "up": [c.code if c in known else None for c in pile[h:]]}
                        for pile, h in zip(layout.tableau, layout.hidden)],
            "stock": len(layout.stock),
            "waste": [c.code if c in known else None for c in layout.waste],
            "cards_up": state.cards_up(p),
        })
    return {
        "players": players,
        "foundations": [[fc.card.code if fc.card in live.known[fc.owner] else None for fc in pile] for pile in state.foundations],
        "owners": [[fc.owner + 1 for fc in pile] for pile in state.foundations],  # told apart by their backs
        "turn": state.turn + 1 if live.started and not live.turn_open else None,  # None: whoever moves next
        "winner": None if state.winner is None else state.winner + 1,
        "cards_left": [52 - state.cards_up(p) for p in range(PLAYERS)],
        "moves": live.moves,
        "waiting_for_take_back": None if live.pending is None else str(live.pending),
    }


def ending(live: LiveDouble, t: float) -> tuple[str, Event] | None:
    """K17: over when a player has played all 52 own cards up."""
    winner = live.state.winner
    if winner is None:
        return None
    return "won", Event("won", t=t, player=winner, detail=f"player {winner + 1} has played all 52 cards")


def involved_cards(live: LiveDouble, finding: Finding) -> list[str]:
    """The cards an illegal move involves (the moved card and what it landed on), for the big screen."""
    move = finding.move
    if not isinstance(move, DoubleMove):
        return []
    return [c.code for c in _involved(live.state, move.player, move.move) if c in live.known[move.player]]


def rules_spec(rules: DoubleRules) -> str:
    return rules.spec()
