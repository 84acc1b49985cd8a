"""Stress (RULES.md S1-S11): two players at once, no turns; the referee calls "stress" first.

Shape as the other engines: :class:`StressRules` (options), a frozen :class:`StressState`, small
move objects (:class:`Play`, :class:`Stack`, :class:`Slap`, :class:`Lay`, :class:`Shuffle`,
:class:`NewRound`) with ``from_json``/``to_json``, :func:`legal_moves`, :func:`apply` (never mutates;
an illegal move leaves the state as it was) and :func:`outcome`.

Players are seats ``0`` and ``1``. Every move carries its time ``t`` (seconds, passed in); moves are
judged in the order given, which must be time order (see :mod:`referee.simultaneous`). The calls the
referee makes by itself (``stress``, ``stuck``, ``round_over``, ``match_over``) are events in the
verdict with the time of the move that caused them: the call is made the instant the position arises.

Decisions where RULES.md leaves room (docs/stress-zenuwen-format.md lists them all):

- Refills (S7, S3) are done by the referee at once: the next stock card goes to the freed place.
- A stress is settled when both players have slapped (S8): the first is safe, the last pays. The
  taken cards go face down under the taker's stock, pile 0 then pile 1, each bottom card first (the
  referee cannot see a shuffle; a :class:`Shuffle` move may give the new stock order). With
  ``slapped_pile`` the last takes the pile they slapped; with ``fastest_gives`` the first gives the pile
  they slapped. A pile not taken stays in the centre and the new cards are laid on it.
- New centre cards (S4, after a stress, S9) are one move, :class:`Lay`: each player lays the top stock
  card on the own centre pile (player 0 on pile 0). If one stock is empty the other gives its top card;
  if the stocks cannot give two cards, each first takes the own centre pile under the own stock.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Iterator, Union

from .cards import DECK, Card, CardError, parse_card_list, rank_name
from .options import choice, int_choice, option, parse_bool, parse_options
from .simultaneous import adjacent, event_type, read_player, read_ref, read_time, ref_json, ref_text
from .verdict import Event, Illegal, Legal, NotationError

PLAYERS = 2
ROW = 4
CALLS = frozenset({"stress", "stuck", "round_over", "match_over"})
"""Event kinds that are calls the referee makes by itself."""

Pile = tuple[Card, ...]


def _parse_rounds(text: str) -> int:
    value = int(text.strip())
    if value < 0:
        raise ValueError(f"expected 0 (open match) or a number of rounds, got {text!r}")
    return value


@dataclass(frozen=True, slots=True)
class StressRules:
    """The rule options of RULES.md S1-S11 (defaults as named there)."""

    players: int = option(2, int_choice(2), "S1: Stress is for two players")
    stack_same_rank: bool = option(True, parse_bool, "S3: cards of the same rank in the own row may be stacked")
    wrap: bool = option(True, parse_bool, "S6: king and ace are neighbours (false: ace low only)")
    stress_penalty: str = option(
        "both_piles",
        choice("both_piles", "slapped_pile", "fastest_gives"),
        "S8: the last slapper takes both piles / the pile slapped; or the fastest gives one pile",
    )
    rounds: int = option(0, _parse_rounds, "S11: rounds in the match (0: open, the recording decides)")

    @classmethod
    def from_spec(cls, spec: str | dict[str, str] = "") -> "StressRules":
        """``"wrap=false,stress_penalty=slapped_pile"``; raises OptionError for unknown keys/values."""
        return cls(**parse_options(cls, spec))


# --- table, deal and state -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's cards: the face-down stock (top card first) and the row of four piles.

    A row pile is bottom card first (S3 stacks hold several cards of one rank); an empty place is ``()``.
    """

    stock: tuple[Card, ...]
    row: tuple[Pile, ...]

    @property
    def count(self) -> int:
        return len(self.stock) + sum(len(p) for p in self.row)

    def to_json(self) -> dict[str, Any]:
        return {"stock": [c.code for c in self.stock], "row": [_pile_json(p) for p in self.row]}


def _pile_json(pile: Pile) -> str | list[str]:
    return pile[0].code if len(pile) == 1 else [c.code for c in pile]


def _read_pile(value: object, what: str) -> Pile:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return (Card.parse(value),)
    return parse_card_list(value, what)


@dataclass(frozen=True, slots=True)
class StressDeal:
    """The table before play: stocks, rows and (optionally) the centre cards already laid.

    ``centre`` is ``None`` when the centre cards are not laid yet: the first move is then a
    :class:`Lay` (S4). ``later`` holds deals for later rounds of a match (S11).
    """

    seats: tuple[Seat, ...]
    centre: tuple[Pile, ...] | None = None
    seed: int | None = None
    later: tuple["StressDeal", ...] = ()

    @classmethod
    def from_json(cls, obj: object) -> "StressDeal":
        try:
            return _deal_from_json(obj)
        except CardError as exc:
            raise NotationError(f"deal: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": "stress"}
        if self.seed is not None:
            out["seed"] = self.seed
        out["players"] = [s.to_json() for s in self.seats]
        if self.centre is not None:
            out["centre"] = [_pile_json(p) for p in self.centre]
        if self.later:
            out["rounds"] = [d.to_json() for d in self.later]
        return out

    def all_cards(self) -> list[Card]:
        out = [c for s in self.seats for c in s.stock]
        out += [c for s in self.seats for p in s.row for c in p]
        out += [c for p in self.centre or () for c in p]
        return out


def _deal_from_json(obj: object) -> StressDeal:
    if not isinstance(obj, dict):
        raise NotationError(f"deal: expected a JSON object, got {obj!r}")
    seats: list[Seat] = []
    players = obj.get("players")
    stocks = obj.get("stocks")
    if isinstance(players, list):
        for i, p in enumerate(players):
            if not isinstance(p, dict):
                raise NotationError(f"deal: players[{i}] must be an object with 'stock' and 'row'")
            stock = parse_card_list(p.get("stock", []), f"players[{i}].stock")
            if "row" in p:
                raw = p["row"]
                if not isinstance(raw, list) or len(raw) > ROW:
                    raise NotationError(f"deal: players[{i}].row must be a list of at most {ROW} piles")
                row = tuple(_read_pile(v, f"players[{i}].row[{j}]") for j, v in enumerate(raw))
                seats.append(Seat(stock, row + ((),) * (ROW - len(row))))
            else:
                seats.append(_lay_row(stock))
    elif isinstance(stocks, list):
        for i, s in enumerate(stocks):
            seats.append(_lay_row(parse_card_list(s, f"stocks[{i}]")))
    else:
        raise NotationError("deal: expected 'players' (a list of {stock, row}) or 'stocks' (two lists of cards)")
    if len(seats) != PLAYERS:
        raise NotationError(f"deal: Stress is for {PLAYERS} players (S1), the deal has {len(seats)}")
    for i, seat in enumerate(seats):
        for j, pile in enumerate(seat.row):
            if len({c.rank for c in pile}) > 1:
                raise NotationError(f"deal: players[{i}].row[{j}] mixes ranks; only one rank may be stacked (S3)")
    centre: tuple[Pile, ...] | None = None
    raw_centre = obj.get("centre")
    if raw_centre not in (None, []):
        if not isinstance(raw_centre, list) or len(raw_centre) != PLAYERS:
            raise NotationError("deal: 'centre' must list the two centre piles (or be left out before S4)")
        centre = tuple(_read_pile(v, f"centre[{j}]") for j, v in enumerate(raw_centre))
    seed = obj.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise NotationError(f"deal: 'seed' must be an integer, got {seed!r}")
    later_raw = obj.get("rounds", [])
    if not isinstance(later_raw, list):
        raise NotationError("deal: 'rounds' must be a list of deals for the later rounds")
    later = tuple(_deal_from_json(d) for d in later_raw)
    deal = StressDeal(tuple(seats), centre, seed, later)
    _check_unique(deal.all_cards(), "deal")
    return deal


def _check_unique(cards: list[Card], what: str) -> None:
    dup = [c.code for c, n in Counter(cards).items() if n > 1]
    if dup:
        raise NotationError(f"{what}: one deck (S1) has each card once; twice: {', '.join(sorted(dup))}")


def _lay_row(stock: tuple[Card, ...]) -> Seat:
    """S2: four cards from the stock face up in a row."""
    row = tuple((c,) for c in stock[:ROW])
    return Seat(stock[ROW:], row + ((),) * (ROW - len(row)))


def deal(seed: int, cards: list[Card] | None = None) -> StressDeal:
    """A shuffled deal (S1-S2): the deck split in half, four cards of each stock laid in a row.

    The centre cards are not laid: the first move is :class:`Lay` (S4). ``cards`` (default: a full
    deck) are shuffled with the seed.
    """
    pack = sorted(cards, key=DECK.index) if cards is not None else list(DECK)
    random.Random(seed).shuffle(pack)
    half = (len(pack) + 1) // 2
    return StressDeal((_lay_row(tuple(pack[:half])), _lay_row(tuple(pack[half:]))), None, seed)


class Phase(enum.Enum):
    """Where a round stands."""

    LAY = "lay"
    """Waiting for new centre cards (S4 at the start, after a stress S8): only a Lay goes on."""
    PLAY = "play"
    """Both centre piles lie; plays are judged (S6)."""
    STRESS = "stress"
    """The centre tops show the same rank: slaps are awaited, plays do not count (S8)."""
    ROUND_OVER = "round_over"
    """A player has no cards left (S10); a NewRound starts the next one (S11)."""
    MATCH_OVER = "match_over"
    """The agreed number of rounds has been played (option ``rounds``)."""


@dataclass(frozen=True, slots=True)
class StressState:
    """The whole table at one moment. Frozen: :func:`apply` returns a new one."""

    rules: StressRules
    seats: tuple[Seat, ...]
    centre: tuple[Pile, ...]
    phase: Phase
    t: float = 0.0
    slaps: tuple[tuple[int, float, int], ...] = ()
    """The slaps of the open stress so far: (player, t, centre pile), first first."""
    stuck: bool = False
    """A stuck call stands (S9) and no new centre cards were laid since."""
    round: int = 1
    score: tuple[int, ...] = (0, 0)
    """Rounds won per player (S11)."""
    winner: int | None = None
    """The winner of the round just finished (S10)."""
    seed: int | None = None
    later: tuple[StressDeal, ...] = field(default=(), repr=False)
    gathered: tuple[Card, ...] = ()
    """The top cards of the centre piles the last slapper took (S8), until new centre cards are laid
    (or a camera has seen the piles gone): those piles are still being gathered up a moment after the
    last slap."""

    @classmethod
    def start(cls, deal: StressDeal, rules: StressRules | None = None) -> "StressState":
        rules = rules or StressRules()
        centre = deal.centre if deal.centre is not None else ((), ())
        phase = Phase.PLAY if deal.centre is not None else Phase.LAY
        return cls(rules, deal.seats, centre, phase, seed=deal.seed, later=deal.later)

    def cards_left(self) -> tuple[int, ...]:
        return tuple(s.count for s in self.seats)

    def all_cards(self) -> list[Card]:
        out = [c for s in self.seats for c in s.stock]
        out += [c for s in self.seats for p in s.row for c in p]
        out += [c for p in self.centre for c in p]
        return out

    def tops(self) -> tuple[Card | None, ...]:
        return tuple(p[-1] if p else None for p in self.centre)

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase.value,
            "round": self.round,
            "players": [s.to_json() for s in self.seats],
            "centre": [[c.code for c in p] for p in self.centre],
            "score": list(self.score),
        }


def new_game(deal: StressDeal, rules: StressRules | None = None, t: float = 0.0) -> Legal[StressState]:
    """The starting position and the calls it needs at once (a stress or stuck already on the table)."""
    state = replace(StressState.start(deal, rules), t=t)
    state, events = _finish(state, t, [])
    return Legal(None, state, 0, tuple(events))


# --- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """S6: ``player`` moves an own row pile onto a centre pile.

    ``source``: the row place 0..3 or the card on top of that pile; ``to``: centre pile 0/1 or its top card.
    """

    player: int
    source: int | Card
    to: int | Card
    t: float = 0.0
    kind: ClassVar[str] = "play"

    def __str__(self) -> str:
        """Notation, as the zones are named: ``p1 pile3->centre2`` (row places are ``pile1``-``pile4``)."""
        return f"p{self.player + 1} {ref_text(self.source, 'pile')}->{ref_text(self.to, 'centre')}"

    def to_json(self) -> dict[str, Any]:
        src = {"card": self.source.code} if isinstance(self.source, Card) else {"from": self.source}
        return {"t": self.t, "player": self.player, "op": self.kind, **src, "to": ref_json(self.to)}


@dataclass(frozen=True, slots=True)
class Stack:
    """S3: ``player`` lays one own row pile on another of the same rank; the freed place is refilled."""

    player: int
    source: int | Card
    onto: int | Card
    t: float = 0.0
    kind: ClassVar[str] = "stack"

    def __str__(self) -> str:
        return f"p{self.player + 1} {ref_text(self.source, 'pile')}->{ref_text(self.onto, 'pile')}"

    def to_json(self) -> dict[str, Any]:
        src = {"card": self.source.code} if isinstance(self.source, Card) else {"from": self.source}
        return {"t": self.t, "player": self.player, "op": self.kind, **src, "onto": ref_json(self.onto)}


@dataclass(frozen=True, slots=True)
class Slap:
    """S8: ``player`` slaps centre pile ``pile`` (0/1)."""

    player: int
    pile: int = 0
    t: float = 0.0
    kind: ClassVar[str] = "slap"

    def __str__(self) -> str:
        return f"p{self.player + 1} slaps centre{self.pile + 1}"

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "player": self.player, "op": self.kind, "pile": self.pile}


@dataclass(frozen=True, slots=True)
class Lay:
    """S4/S9: both players lay a new card from the own stock on the own centre pile at once.

    ``cards``, when given, is what the camera saw (player 0's card, player 1's); it is checked
    against the stocks.
    """

    t: float = 0.0
    cards: tuple[Card, ...] | None = None
    kind: ClassVar[str] = "lay"
    player: ClassVar[None] = None

    def __str__(self) -> str:
        return "new centre cards" + ("" if self.cards is None else " " + " ".join(c.code for c in self.cards))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "op": self.kind}
        if self.cards is not None:
            out["cards"] = [c.code for c in self.cards]
        return out


@dataclass(frozen=True, slots=True)
class Shuffle:
    """S8/S11: ``player`` shuffled the own stock; ``stock`` is its new order, top card first."""

    player: int
    stock: tuple[Card, ...]
    t: float = 0.0
    kind: ClassVar[str] = "shuffle"

    def __str__(self) -> str:
        return f"p{self.player + 1} shuffles the stock"

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "player": self.player, "op": self.kind, "stock": [c.code for c in self.stock]}


@dataclass(frozen=True, slots=True)
class NewRound:
    """S11: the next round of the match, from ``deal`` (or the deal file's ``rounds``, or reshuffled)."""

    t: float = 0.0
    deal: StressDeal | None = None
    kind: ClassVar[str] = "new_round"
    player: ClassVar[None] = None

    def __str__(self) -> str:
        return "new round"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "op": self.kind}
        if self.deal is not None:
            out["deal"] = self.deal.to_json()
        return out


Move = Union[Play, Stack, Slap, Lay, Shuffle, NewRound]


def move_from_json(obj: object) -> Move:
    """Read one event line (a parsed JSON object); raises NotationError when it cannot be read."""
    if not isinstance(obj, dict):
        raise NotationError(f"event: expected a JSON object, got {obj!r}")
    kind = event_type(obj)
    t = read_time(obj)
    try:
        if kind == "play":
            p = read_player(obj, PLAYERS)
            src = read_ref(obj, ("from", "card"), ROW, "an own row pile (0-3) or its top card")
            to = read_ref(obj, ("to", "onto", "centre", "pile"), PLAYERS, "a centre pile (0 or 1) or its top card")
            assert src is not None and to is not None
            return Play(p, src, to, t)
        if kind == "stack":
            p = read_player(obj, PLAYERS)
            src = read_ref(obj, ("from", "card"), ROW, "an own row pile (0-3) or its top card")
            onto = read_ref(obj, ("onto", "to"), ROW, "an own row pile (0-3) or its top card")
            assert src is not None and onto is not None
            return Stack(p, src, onto, t)
        if kind == "slap":
            p = read_player(obj, PLAYERS)
            pile = read_ref(obj, ("pile", "to", "centre"), PLAYERS, "a centre pile (0 or 1)", required=False)
            if isinstance(pile, Card):
                raise NotationError("slap: 'pile' is the centre pile number, 0 or 1")
            return Slap(p, 0 if pile is None else pile, t)
        if kind in ("lay", "new_cards", "start"):
            raw = obj.get("cards")
            laid = None if raw is None else parse_card_list(raw, "lay.cards")
            return Lay(t, laid)
        if kind == "shuffle":
            p = read_player(obj, PLAYERS)
            return Shuffle(p, parse_card_list(obj.get("stock"), "shuffle.stock"), t)
        if kind in ("new_round", "round"):
            raw_deal = obj.get("deal")
            return NewRound(t, None if raw_deal is None else StressDeal.from_json(raw_deal))
    except CardError as exc:
        raise NotationError(str(exc)) from None
    raise NotationError(f"unknown Stress event type {kind!r}; known: play, stack, slap, lay, shuffle, new_round")


# --- judging -----------------------------------------------------------------------------------


def _who(p: int) -> str:
    return f"player {p}"


def _row_pos(state: StressState, player: int, ref: int | Card) -> int | str:
    """The row place ``ref`` names for ``player``, or a reason why it names none."""
    row = state.seats[player].row
    if isinstance(ref, int):
        return ref if row[ref] else f"{_who(player)}'s row place {ref} is empty"
    for i, pile in enumerate(row):
        if pile and pile[-1] is ref:
            return i
    other = state.seats[1 - player].row
    if any(p and p[-1] is ref for p in other):
        return f"{ref.name} lies in {_who(1 - player)}'s row, not {_who(player)}'s: each plays only the own piles"
    return f"{_who(player)} has no row pile showing {ref.name}"


def _centre_pos(state: StressState, ref: int | Card) -> int | str:
    if isinstance(ref, int):
        return ref if state.centre[ref] else f"centre pile {ref} is empty"
    hits = [i for i, p in enumerate(state.centre) if p and p[-1] is ref]
    if not hits:
        return f"no centre pile shows {ref.name}"
    return hits[0]


def _fits(card: Card, top: Card, wrap: bool) -> bool:
    return card.rank != top.rank and adjacent(card.rank, top.rank, wrap)


def _misfit(card: Card, top: Card, wrap: bool) -> str:
    if card.rank == top.rank:
        return f"{card.name} may not go on {top.name}: never the same rank (a {rank_name(card.rank)} never on a {rank_name(top.rank)})"
    if not wrap and adjacent(card.rank, top.rank, True):
        return f"{card.name} may not go on {top.name}: with wrap=false the ace is low only"
    return f"{card.name} is not one rank higher or lower than {top.name}"


def first_play(state: StressState, player: int) -> tuple[int, Card, int, Card] | None:
    """A play ``player`` could make now: (row place, its card, centre pile, centre top), or None."""
    tops = state.tops()
    for i, pile in enumerate(state.seats[player].row):
        if not pile:
            continue
        c = pile[-1]
        for j, top in enumerate(tops):
            if top is not None and _fits(c, top, state.rules.wrap):
                return i, c, j, top
    return None


def can_play(state: StressState, player: int) -> bool:
    return first_play(state, player) is not None


def _over(state: StressState, move: Move) -> Illegal | None:
    if state.phase is Phase.MATCH_OVER:
        return Illegal(move, "S11", f"the match is over after {state.round} rounds")
    if state.phase is Phase.ROUND_OVER:
        who = "nobody" if state.winner is None else _who(state.winner)
        return Illegal(move, "S10", f"round {state.round} is over: {who} won; the next round starts with new_round")
    return None


def _refill(seat: Seat, pos: int) -> tuple[Seat, Card | None]:
    """S7/S3: fill row place ``pos`` from the stock (or leave it empty when the stock is done)."""
    row = list(seat.row)
    if seat.stock:
        row[pos] = (seat.stock[0],)
        return Seat(seat.stock[1:], tuple(row)), seat.stock[0]
    row[pos] = ()
    return Seat(seat.stock, tuple(row)), None


def _set(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return seq[:i] + (value,) + seq[i + 1 :]


def _play(state: StressState, move: Play) -> Legal[StressState] | Illegal:
    if state.phase is Phase.STRESS:
        a, b = state.tops()
        assert a is not None and b is not None
        return Illegal(move, "S8", f"a stress is open ({a.name} and {b.name}): slap a centre pile; a play does not count")
    if state.phase is Phase.LAY:
        return Illegal(move, "S4", "the centre cards are not laid yet: play starts when both new centre cards lie")
    p = move.player
    pos = _row_pos(state, p, move.source)
    if isinstance(pos, str):
        return Illegal(move, "S6", pos)
    ci = _centre_pos(state, move.to)
    if isinstance(ci, str):
        return Illegal(move, "S6", ci)
    pile = state.seats[p].row[pos]
    top = state.centre[ci][-1]
    if not _fits(pile[-1], top, state.rules.wrap):
        return Illegal(move, "S6", _misfit(pile[-1], top, state.rules.wrap))
    seat, new = _refill(state.seats[p], pos)
    centre = _set(state.centre, ci, state.centre[ci] + pile)
    events = [Event("play", move.t, p, f"centre{ci}", pile, f"{pile[-1].name} on {top.name}")]
    if new is not None:
        events.append(Event("refill", move.t, p, f"row{pos}", (new,)))
    nxt = replace(state, seats=_set(state.seats, p, seat), centre=centre)
    return _legal(move, nxt, events)


def _stack(state: StressState, move: Stack) -> Legal[StressState] | Illegal:
    if not state.rules.stack_same_rank:
        return Illegal(move, "S3", "stacking cards of the same rank is not played here (stack_same_rank=false)")
    p = move.player
    src = _row_pos(state, p, move.source)
    if isinstance(src, str):
        return Illegal(move, "S3", src)
    dst = _row_pos(state, p, move.onto)
    if isinstance(dst, str):
        return Illegal(move, "S3", dst)
    if src == dst:
        return Illegal(move, "S3", "a pile cannot be stacked on itself")
    row = state.seats[p].row
    a, b = row[src][-1], row[dst][-1]
    if a.rank != b.rank:
        return Illegal(move, "S3", f"only the same rank may be stacked: {a.name} on {b.name}")
    seat = Seat(state.seats[p].stock, _set(row, dst, row[dst] + row[src]))
    seat, new = _refill(seat, src)
    events = [Event("stack", move.t, p, f"row{dst}", row[src], f"{a.name} on {b.name}")]
    if new is not None:
        events.append(Event("refill", move.t, p, f"row{src}", (new,)))
    return _legal(move, replace(state, seats=_set(state.seats, p, seat)), events)


def _slap(state: StressState, move: Slap) -> Legal[StressState] | Illegal:
    if state.phase is not Phase.STRESS:
        tops = state.tops()
        if tops[0] is None or tops[1] is None:
            why = "the centre piles are not both laid"
        else:
            why = f"the centre tops {tops[0].name} and {tops[1].name} do not match"
        return Illegal(move, "S8", f"false slap by {_who(move.player)}: {why}")
    if any(s[0] == move.player for s in state.slaps):
        ev = Event("slap", move.t, move.player, f"centre{move.pile}", detail="again: already slapped this stress")
        return _legal(move, state, [ev])
    slaps = state.slaps + ((move.player, move.t, move.pile),)
    first = len(slaps) == 1
    ev = Event(
        "slap",
        move.t,
        move.player,
        f"centre{move.pile}",
        detail="first: safe" if first else "last: pays",
        data=(("order", len(slaps)),),
    )
    if len({s[0] for s in slaps}) < PLAYERS:
        return _legal(move, replace(state, slaps=slaps), [ev])
    return _settle(replace(state, slaps=slaps), move, [ev])


def _settle(state: StressState, move: Move, events: list[Event]) -> Legal[StressState] | Illegal:
    """S8: every player has slapped; the last pays by the chosen penalty."""
    first, last = state.slaps[0], state.slaps[-1]
    penalty = state.rules.stress_penalty
    if penalty == "both_piles":
        taken_piles = [0, 1]
    elif penalty == "slapped_pile":
        taken_piles = [last[2]]
    else:  # fastest_gives
        taken_piles = [first[2]]
    taken: tuple[Card, ...] = ()
    centre = state.centre
    for i in taken_piles:
        taken += centre[i]
        centre = _set(centre, i, ())
    loser = last[0]
    seat = state.seats[loser]
    seat = Seat(seat.stock + taken, seat.row)
    piles = " and ".join(f"centre pile {i}" for i in taken_piles)
    how = {
        "both_piles": "the last slapper takes both centre piles",
        "slapped_pile": "the last slapper takes the pile slapped",
        "fastest_gives": f"{_who(first[0])} (fastest) gives {piles}",
    }[penalty]
    events.append(
        Event(
            "take",
            move.t,
            loser,
            "stock",
            taken,
            f"{how}: {_who(loser)} puts {piles} under the own stock",
            (("piles", taken_piles), ("safe", first[0])),
        )
    )
    gathered = tuple(state.centre[i][-1] for i in taken_piles if state.centre[i])
    nxt = replace(state, seats=_set(state.seats, loser, seat), centre=centre, phase=Phase.LAY, slaps=(), stuck=False, gathered=gathered)
    return _legal(move, nxt, events)


def _lay_plan(state: StressState, t: float) -> tuple[StressState, list[Event], tuple[Card | None, ...]]:
    """S4/S9: who gives, who takes the centre back, and the cards laid (None: that player lays none)."""
    events: list[Event] = []
    seats = list(state.seats)
    centre = state.centre
    stocks = [len(s.stock) for s in seats]
    if min(stocks) == 0 and max(stocks) < 2:
        # S9: the stocks cannot give two cards: each takes the own centre pile as (more) stock.
        for i in range(PLAYERS):
            if centre[i]:
                seats[i] = Seat(seats[i].stock + centre[i], seats[i].row)
                events.append(Event("take_centre", t, i, "stock", centre[i], f"{_who(i)} takes centre pile {i} as stock"))
                centre = _set(centre, i, ())
    for i in range(PLAYERS):
        j = 1 - i
        if not seats[i].stock and len(seats[j].stock) >= 2:
            given = seats[j].stock[0]
            seats[j] = Seat(seats[j].stock[1:], seats[j].row)
            seats[i] = Seat((given,), seats[i].row)
            events.append(Event("give", t, j, "stock", (given,), f"{_who(j)} gives {_who(i)} a card to lay", (("to", i),)))
    laid: list[Card | None] = []
    for i in range(PLAYERS):
        if seats[i].stock:
            c = seats[i].stock[0]
            seats[i] = Seat(seats[i].stock[1:], seats[i].row)
            centre = _set(centre, i, centre[i] + (c,))
            laid.append(c)
        else:
            laid.append(None)
    return replace(state, seats=tuple(seats), centre=centre), events, tuple(laid)


def _lay(state: StressState, move: Lay) -> Legal[StressState] | Illegal:
    if state.phase is Phase.STRESS:
        return Illegal(move, "S8", "a stress is open: slap first; new centre cards come after it is settled")
    if state.phase is Phase.PLAY:
        for p in range(PLAYERS):
            fp = first_play(state, p)
            if fp is not None:
                _, card, j, top = fp
                return Illegal(move, "S9", f"new centre cards while {_who(p)} can still play {card.name} on {top.name} (centre pile {j})")
    nxt, events, laid = _lay_plan(state, move.t)
    if move.cards is not None:
        if len(move.cards) != PLAYERS or any(a is not b for a, b in zip(move.cards, laid)):
            seen = ", ".join(c.code for c in move.cards)
            exp = ", ".join("-" if c is None else c.code for c in laid)
            raise NotationError(f"lay: the stocks give {exp} but the event says {seen}")
    for i, got in enumerate(laid):
        if got is not None:
            events.append(Event("lay", move.t, i, f"centre{i}", (got,)))
    return _legal(move, replace(nxt, phase=Phase.PLAY, stuck=False, gathered=()), events)


def _shuffle(state: StressState, move: Shuffle) -> Legal[StressState] | Illegal:
    seat = state.seats[move.player]
    if Counter(move.stock) != Counter(seat.stock):
        raise NotationError(f"shuffle: {_who(move.player)}'s new stock order must hold the same {len(seat.stock)} cards")
    seat = Seat(tuple(move.stock), seat.row)
    ev = Event("shuffle", move.t, move.player, "stock", detail=f"{len(seat.stock)} cards")
    return _legal(move, replace(state, seats=_set(state.seats, move.player, seat)), [ev])


def _new_round(state: StressState, move: NewRound) -> Legal[StressState] | Illegal:
    if state.phase is Phase.MATCH_OVER:
        return Illegal(move, "S11", f"the match is over after {state.round} rounds")
    if state.phase is not Phase.ROUND_OVER:
        return Illegal(move, "S11", f"round {state.round} is not over yet: nobody is out of cards (S10)")
    later = state.later
    if move.deal is not None:
        d = move.deal
    elif later:
        d, later = later[0], later[1:]
    else:
        seed = (state.seed or 0) * 1000 + state.round
        d = deal(seed, state.all_cards())
    if Counter(d.all_cards()) != Counter(state.all_cards()):
        raise NotationError("new_round: the new deal must hold the same cards as the game (S11 reshuffles them)")
    centre = d.centre if d.centre is not None else ((), ())
    phase = Phase.PLAY if d.centre is not None else Phase.LAY
    nxt = replace(
        state, seats=d.seats, centre=centre, phase=phase, slaps=(), stuck=False, round=state.round + 1, winner=None, later=later,
        gathered=(),
    )
    ev = Event("new_round", move.t, detail=f"round {state.round + 1}", data=(("round", state.round + 1),))
    return _legal(move, nxt, [ev])


def _legal(move: Move, state: StressState, events: list[Event]) -> Legal[StressState]:
    state, events = _finish(replace(state, t=max(state.t, move.t)), move.t, events)
    return Legal(move, state, 0, tuple(events))


def _finish(state: StressState, t: float, events: list[Event]) -> tuple[StressState, list[Event]]:
    """After every change: the win (S10), a stress (S8) or stuck (S9) call, made at once."""
    if state.phase in (Phase.PLAY, Phase.LAY, Phase.STRESS):
        out = [i for i, s in enumerate(state.seats) if s.count == 0]
        if out:
            winner = out[0] if len(out) == 1 else None
            score = state.score if winner is None else _set(state.score, winner, state.score[winner] + 1)
            state = replace(state, phase=Phase.ROUND_OVER, winner=winner, score=score, slaps=(), stuck=False)
            events.append(
                Event(
                    "round_over",
                    t,
                    winner,
                    detail="no cards left: stock and all four piles (S10)",
                    data=(
                        ("rule", "S10"),
                        ("round", state.round),
                        ("winner", winner),
                        ("cards_left", list(state.cards_left())),
                        ("score", list(score)),
                    ),
                )
            )
            rounds = state.rules.rounds
            if rounds and state.round >= rounds:
                best = max(score)
                leaders = [i for i, s in enumerate(score) if s == best]
                mw = leaders[0] if len(leaders) == 1 else None
                state = replace(state, phase=Phase.MATCH_OVER)
                events.append(
                    Event(
                        "match_over",
                        t,
                        mw,
                        detail=f"{state.round} rounds played (S11)",
                        data=(("rule", "S11"), ("winner", mw), ("score", list(score)), ("rounds", state.round)),
                    )
                )
            return state, events
    if state.phase is Phase.PLAY:
        a, b = state.tops()
        if a is not None and b is not None and a.rank == b.rank:
            state = replace(state, phase=Phase.STRESS, slaps=(), stuck=False)
            events.append(
                Event(
                    "stress",
                    t,
                    cards=(a, b),
                    detail=f"both centre piles show a {rank_name(a.rank)}: slap!",
                    data=(("rule", "S8"),),
                )
            )
        elif not any(can_play(state, p) for p in range(PLAYERS)):
            if not state.stuck:
                state = replace(state, stuck=True)
                events.append(
                    Event(
                        "stuck",
                        t,
                        detail="neither player can play: both lay a new centre card (S9)",
                        data=(("rule", "S9"), ("stocks", [len(s.stock) for s in state.seats])),
                    )
                )
        elif state.stuck:
            state = replace(state, stuck=False)
    return state, events


def apply(state: StressState, move: Move) -> Legal[StressState] | Illegal:
    """Judge ``move`` in ``state``: Legal (the next state, what followed, the calls) or Illegal."""
    over = _over(state, move) if not isinstance(move, (NewRound, Shuffle)) else None
    if over is not None:
        return over
    if isinstance(move, Play):
        return _play(state, move)
    if isinstance(move, Stack):
        return _stack(state, move)
    if isinstance(move, Slap):
        return _slap(state, move)
    if isinstance(move, Lay):
        return _lay(state, move)
    if isinstance(move, Shuffle):
        return _shuffle(state, move)
    if isinstance(move, NewRound):
        return _new_round(state, move)
    raise NotationError(f"not a Stress move: {move!r}")


def is_legal(state: StressState, move: Move) -> bool:
    try:
        return apply(state, move).ok
    except NotationError:
        return False


def legal_moves(state: StressState) -> Iterator[Move]:
    """Every legal move now (plays, stacks, slaps, a lay, a new round), lazily, at the state's time."""
    t = state.t
    if state.phase is Phase.ROUND_OVER:
        yield NewRound(t)
        return
    if state.phase is Phase.MATCH_OVER:
        return
    if state.phase is Phase.STRESS:
        slapped = {s[0] for s in state.slaps}
        for p in range(PLAYERS):
            if p not in slapped:
                for j in range(PLAYERS):
                    yield Slap(p, j, t)
    if state.phase is Phase.PLAY:
        tops = state.tops()
        for p in range(PLAYERS):
            for i, pile in enumerate(state.seats[p].row):
                if pile:
                    for j, top in enumerate(tops):
                        if top is not None and _fits(pile[-1], top, state.rules.wrap):
                            yield Play(p, i, j, t)
    if state.rules.stack_same_rank:
        for p in range(PLAYERS):
            row = state.seats[p].row
            for i, a in enumerate(row):
                for j, b in enumerate(row):
                    if i != j and a and b and a[-1].rank == b[-1].rank:
                        yield Stack(p, i, j, t)
    if state.phase is Phase.LAY or (state.phase is Phase.PLAY and not any(can_play(state, p) for p in range(PLAYERS))):
        yield Lay(t)


@dataclass(frozen=True, slots=True)
class StressOutcome:
    """A finished round (and match): who won, the running score."""

    winner: int | None
    round: int
    score: tuple[int, ...]
    match_over: bool


def outcome(state: StressState) -> StressOutcome | None:
    if state.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        return None
    winner = state.winner
    if state.phase is Phase.MATCH_OVER:
        best = max(state.score)
        leaders = [i for i, s in enumerate(state.score) if s == best]
        winner = leaders[0] if len(leaders) == 1 else None
    return StressOutcome(winner, state.round, state.score, state.phase is Phase.MATCH_OVER)
