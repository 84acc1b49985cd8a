"""Zenuwen (RULES.md Z1-Z12): two to four players at once, five patience piles each, many rounds.

Shape as the other engines: :class:`ZenuwenRules` (options), a frozen :class:`ZenuwenState`, small
move objects (:class:`Play`, :class:`Join`, :class:`TakeHand`, :class:`Turn`, :class:`Choose`,
:class:`Slap`, :class:`NewRound`) with ``from_json``/``to_json``, :func:`legal_moves`, :func:`apply`
and :func:`outcome`. Seats and piles count from 0: player 0..N-1, patience piles 0..4 (pile 0 is
laid with one card, pile 4 with five), centre pile ``i`` is the one player ``i`` turns cards onto.

Decisions where RULES.md leaves room (docs/stress-zenuwen-format.md lists them all):

- Z3: a join moves all the face-up cards of a pile (they are of one value) onto a pile whose top
  has that value, or into an empty pile (a fill). The pile left behind turns its next card up.
- Z7: turning new cards is always allowed during play (a player may wait on purpose); the referee
  calls ``stuck`` when no visible pile top fits any centre top. Hand cards (Z9) are unseen: they do
  not keep the referee from calling stuck.
- Z8: first every player with stock turns the own top card onto the own centre pile; then, with
  ``turn_opponents``, each player without stock (seat order) turns the top card of the next opponent
  in seat order that still has stock. If no stock has a card left at all, every player first takes
  the own centre pile back, face down (its bottom card on top), as the new stock.
- Z10/Z11: piles are chosen winner first, then by fewest pile cards left (ties: seat order); the last
  chooser gets what is left. A new round lays each player's cards out from one packet: the chosen
  centre pile turned face down, then the own stock, then the own pile and hand cards; piles take 1,
  2, 3, 4, 5 cards from its top, the rest is the stock. A NewRound may give the layouts instead.
- Z12: the winner of a round who had no stock after laying out wins the match.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Iterator, Union

from .cards import Card, CardError, parse_card_list, shuffled_decks
from .options import choice, int_choice, option, parse_options
from .simultaneous import adjacent, event_type, read_player, read_ref, read_time, ref_json, ref_text
from .verdict import Event, Illegal, Legal, NotationError

PILES = 5
LAYOUT = 15
HAND_MAX = 3
NONE = -1
"""A choice of no centre pile: nothing was left to take (or the empty pile of Z12)."""
CALLS = frozenset({"stuck", "round_over", "match_over"})
"""Event kinds that are calls the referee makes by itself."""


def _parse_decks(text: str) -> int:
    low = text.strip().lower()
    if low in ("auto", "0"):  # 0: how logs written before decks=auto was spelt out read
        return 0
    if low in ("1", "2"):
        return int(low)
    raise ValueError(f"expected 1, 2 or auto, got {text!r}")


@dataclass(frozen=True, slots=True)
class ZenuwenRules:
    """The rule options of RULES.md Z1-Z12 (defaults as named there)."""

    players: int = option(2, int_choice(2, 3, 4), "Z1: two to four players")
    decks: int = option(0, _parse_decks, "Z1: 1 or 2 decks; auto: one for two players, two for three or four",
                        show=lambda n: str(n) if n else "auto")
    empty_stock: str = option(
        "turn_opponents", choice("turn_opponents", "turn_none"), "Z8: with an empty stock, turn an opponent's card or none"
    )
    pile_choice: str = option(
        "winner_chooses", choice("winner_chooses", "slap_race"), "Z10: the winner chooses a centre pile, or all slap"
    )

    @classmethod
    def from_spec(cls, spec: str | dict[str, str] = "") -> "ZenuwenRules":
        return cls(**parse_options(cls, spec))

    @property
    def deck_count(self) -> int:
        return self.decks or (1 if self.players == 2 else 2)


# --- table -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ZPile:
    """A patience pile, bottom card first; the top ``up`` cards are face up (one value, Z3)."""

    cards: tuple[Card, ...] = ()
    up: int = 0
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        # the live referee's searches hash positions again and again: a frozen value's hash is kept
        if not self._hash:
            object.__setattr__(self, "_hash", hash((self.cards, self.up)) or 1)
        return self._hash

    @property
    def top(self) -> Card | None:
        return self.cards[-1] if self.cards else None

    @property
    def visible(self) -> tuple[Card, ...]:
        return self.cards[len(self.cards) - self.up :] if self.up else ()

    def to_json(self) -> list[str] | dict[str, list[str]]:
        if self.up == 1 or not self.cards:
            return [c.code for c in self.cards]
        n = len(self.cards) - self.up
        return {"down": [c.code for c in self.cards[:n]], "up": [c.code for c in self.cards[n:]]}


def _pile_from_json(value: object, what: str) -> ZPile:
    if isinstance(value, dict):
        down = parse_card_list(value.get("down", []), what + ".down")
        up = parse_card_list(value.get("up", []), what + ".up")
        if down and not up:
            raise NotationError(f"{what}: a pile with cards has its top card face up")
        return ZPile(down + up, len(up))
    if isinstance(value, str):
        return ZPile((Card.parse(value),), 1)
    cards = parse_card_list(value, what)
    return ZPile(cards, 1 if cards else 0)


@dataclass(frozen=True, slots=True)
class ZSeat:
    """One player's cards: five patience piles, the face-down stock (top first), the hidden hand."""

    piles: tuple[ZPile, ...]
    stock: tuple[Card, ...] = ()
    hand: tuple[Card, ...] = ()
    laid_out_stock: bool = True
    """Whether the player had a stock after laying out this round (Z12 needs it)."""
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        if not self._hash:  # kept, as ZPile's
            object.__setattr__(self, "_hash", hash((self.piles, self.stock, self.hand, self.laid_out_stock)) or 1)
        return self._hash

    @property
    def pile_cards(self) -> int:
        """Cards still to get rid of: the patience piles and the hand (Z10)."""
        return sum(len(p.cards) for p in self.piles) + len(self.hand)

    @property
    def count(self) -> int:
        return self.pile_cards + len(self.stock)

    def all_cards(self) -> list[Card]:
        return [c for p in self.piles for c in p.cards] + list(self.stock) + list(self.hand)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"piles": [p.to_json() for p in self.piles], "stock": [c.code for c in self.stock]}
        if self.hand:
            out["hand"] = [c.code for c in self.hand]
        return out


def lay_out(packet: tuple[Card, ...] | list[Card]) -> ZSeat:
    """Z2/Z11: piles of 1, 2, 3, 4, 5 cards from the packet's top (fewer while cards last), the rest stock."""
    piles: list[ZPile] = []
    i = 0
    for size in range(1, PILES + 1):
        part = tuple(packet[i : i + size])
        i += len(part)
        piles.append(ZPile(part, 1 if part else 0))
    stock = tuple(packet[i:])
    return ZSeat(tuple(piles), stock, (), bool(stock))


def layout_sizes(n: int) -> tuple[list[int], int]:
    """The pile sizes and stock size Z11 prescribes for ``n`` cards."""
    sizes, left = [], n
    for size in range(1, PILES + 1):
        s = min(size, left)
        sizes.append(s)
        left -= s
    return sizes, left


def _seat_from_json(obj: object, i: int) -> ZSeat:
    what = f"players[{i}]"
    if isinstance(obj, list):
        return lay_out(parse_card_list(obj, what))
    if not isinstance(obj, dict):
        raise NotationError(f"{what}: expected an object with 'piles' and 'stock' (or a list of cards to lay out)")
    if "cards" in obj:
        return lay_out(parse_card_list(obj["cards"], what + ".cards"))
    raw = obj.get("piles")
    if not isinstance(raw, list) or len(raw) > PILES:
        raise NotationError(f"{what}.piles: expected a list of at most {PILES} piles")
    piles = tuple(_pile_from_json(v, f"{what}.piles[{j}]") for j, v in enumerate(raw))
    piles += (ZPile(),) * (PILES - len(piles))
    for j, p in enumerate(piles):
        if len({c.rank for c in p.visible}) > 1:
            raise NotationError(f"{what}.piles[{j}]: the face-up cards of a pile have one value (Z3)")
    stock = parse_card_list(obj.get("stock", []), what + ".stock")
    hand = parse_card_list(obj.get("hand", []), what + ".hand")
    return ZSeat(piles, stock, hand, bool(stock))


@dataclass(frozen=True, slots=True)
class Layout:
    """Every player's cards at the start of a round (a deal, or the layouts of a later round)."""

    seats: tuple[ZSeat, ...]
    centre: tuple[tuple[Card, ...], ...] | None = None

    @classmethod
    def from_json(cls, obj: object, what: str = "deal") -> "Layout":
        try:
            return _layout_from_json(obj, what)
        except CardError as exc:
            raise NotationError(f"{what}: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": [s.to_json() for s in self.seats]}
        if self.centre is not None:
            out["centre"] = [[c.code for c in p] for p in self.centre]
        return out

    def all_cards(self) -> list[Card]:
        return [c for s in self.seats for c in s.all_cards()] + [c for p in self.centre or () for c in p]


def _layout_from_json(obj: object, what: str) -> Layout:
    if not isinstance(obj, dict):
        raise NotationError(f"{what}: expected a JSON object with 'players'")
    raw = obj.get("players")
    if raw is None and isinstance(obj.get("hands"), list):
        raw = obj["hands"]
    if not isinstance(raw, list) or not 2 <= len(raw) <= 4:
        raise NotationError(f"{what}: 'players' must list 2 to 4 players (Z1)")
    seats = tuple(_seat_from_json(p, i) for i, p in enumerate(raw))
    centre = None
    rc = obj.get("centre")
    if rc not in (None, []):
        if not isinstance(rc, list) or len(rc) != len(seats):
            raise NotationError(f"{what}: 'centre' lists one pile per player (player i turns onto pile i)")
        centre = tuple(
            () if v in (None, "") else (Card.parse(v),) if isinstance(v, str) else parse_card_list(v, f"centre[{j}]")
            for j, v in enumerate(rc)
        )
    return Layout(seats, centre)


@dataclass(frozen=True, slots=True)
class ZenuwenDeal:
    """DEAL.json: the first round's layout, its seed, and (optionally) the later rounds' layouts."""

    first: Layout
    seed: int | None = None
    decks: int | None = None
    later: tuple[Layout, ...] = ()

    @property
    def players(self) -> int:
        return len(self.first.seats)

    @classmethod
    def from_json(cls, obj: object) -> "ZenuwenDeal":
        first = Layout.from_json(obj)
        assert isinstance(obj, dict)
        seed = obj.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise NotationError(f"deal: 'seed' must be an integer, got {seed!r}")
        decks = obj.get("decks")
        if decks is not None and decks not in (1, 2):
            raise NotationError(f"deal: 'decks' must be 1 or 2, got {decks!r}")
        raw_later = obj.get("rounds", [])
        if not isinstance(raw_later, list):
            raise NotationError("deal: 'rounds' must be a list of layouts for the later rounds")
        later = tuple(Layout.from_json(d, f"rounds[{k}]") for k, d in enumerate(raw_later))
        return cls(first, seed, decks, later)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": "zenuwen"}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.decks is not None:
            out["decks"] = self.decks
        out.update(self.first.to_json())
        if self.later:
            out["rounds"] = [d.to_json() for d in self.later]
        return out


def deal(seed: int, players: int = 2, decks: int = 0) -> ZenuwenDeal:
    """Z1-Z4: ``decks`` shuffled decks (0: one for two players, two for more) dealt one card at a time
    to each player in turn; each lays out the own cards (piles 1..5 from the top, the rest stock)."""
    n = decks or (1 if players == 2 else 2)
    pack = shuffled_decks(seed, n)
    packets = [pack[i::players] for i in range(players)]
    return ZenuwenDeal(Layout(tuple(lay_out(p) for p in packets)), seed, n)


# --- state -------------------------------------------------------------------------------------


class Phase(enum.Enum):
    """Where a round stands."""

    TURN = "turn"
    """Laid out, centre empty: the players may join piles (Z3) until all turn a card (Z5)."""
    PLAY = "play"
    """Centre cards lie: plays (Z6), joins (Z3), hands (Z9) and new turns (Z7) are judged."""
    CHOOSE = "choose"
    """A player is out (Z10): the centre piles are being chosen."""
    NEXT = "next"
    """Every player has a centre pile (or none): a NewRound lays out again (Z11)."""
    MATCH_OVER = "match_over"
    """A player won the match and the others are "gejast" (Z12)."""


@dataclass(frozen=True, slots=True)
class ZenuwenState:
    """The whole table at one moment. Frozen: :func:`apply` returns a new one."""

    rules: ZenuwenRules
    seats: tuple[ZSeat, ...]
    centre: tuple[tuple[Card, ...], ...]
    phase: Phase
    t: float = 0.0
    round: int = 1
    stuck: bool = False
    winner: int | None = None
    """The winner of the current (finished) round."""
    takes: tuple[int | None, ...] = ()
    """Per player, the centre pile taken at round end (``NONE``: none), ``None`` while not chosen."""
    raced: bool = False
    """slap_race: the first slap has been made."""
    wins: tuple[int, ...] = ()
    match_winner: int | None = None
    later: tuple[Layout, ...] = field(default=(), repr=False)
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        if not self._hash:  # kept, as ZPile's
            object.__setattr__(self, "_hash", hash((
                self.rules, self.seats, self.centre, self.phase, self.t, self.round, self.stuck, self.winner,
                self.takes, self.raced, self.wins, self.match_winner, self.later)) or 1)
        return self._hash

    @classmethod
    def start(cls, the_deal: ZenuwenDeal | Layout, rules: ZenuwenRules | None = None) -> "ZenuwenState":
        rules = rules or ZenuwenRules(players=the_deal.players if isinstance(the_deal, ZenuwenDeal) else len(the_deal.seats))
        layout = the_deal.first if isinstance(the_deal, ZenuwenDeal) else the_deal
        later = the_deal.later if isinstance(the_deal, ZenuwenDeal) else ()
        n = len(layout.seats)
        if n != rules.players:
            raise NotationError(f"deal: {n} players, but the rules say players={rules.players}")
        counts = Counter(layout.all_cards())
        over = sorted({c.code for c, k in counts.items() if k > rules.deck_count})
        if over:
            raise NotationError(f"deal: with {rules.deck_count} deck(s) (Z1) no card is there more often; too many: {', '.join(over)}")
        centre = layout.centre if layout.centre is not None else ((),) * n
        phase = Phase.PLAY if layout.centre is not None and any(centre) else Phase.TURN
        return cls(rules, layout.seats, centre, phase, takes=(None,) * n, wins=(0,) * n, later=later)

    @property
    def players(self) -> int:
        return len(self.seats)

    def cards_left(self) -> tuple[int, ...]:
        return tuple(s.count for s in self.seats)

    def all_cards(self) -> list[Card]:
        return [c for s in self.seats for c in s.all_cards()] + [c for p in self.centre for c in p]

    def tops(self) -> tuple[Card | None, ...]:
        return tuple(p[-1] if p else None for p in self.centre)

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase.value,
            "round": self.round,
            "players": [s.to_json() for s in self.seats],
            "centre": [[c.code for c in p] for p in self.centre],
            "wins": list(self.wins),
        }


def new_game(the_deal: ZenuwenDeal | Layout, rules: ZenuwenRules | None = None, t: float = 0.0) -> Legal[ZenuwenState]:
    """The starting position and the calls it needs at once (a centre given in the deal may be stuck)."""
    state = replace(ZenuwenState.start(the_deal, rules), t=t)
    state, events = _finish(state, t, [])
    return Legal(None, state, 0, tuple(events))


# --- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """Z6: ``player`` plays the top card of an own pile (or a hand card, Z9) onto a centre pile.

    ``source``: pile 0..4 or the card; ``to``: centre pile 0..N-1 or its top card.
    """

    player: int
    source: int | Card
    to: int | Card
    t: float = 0.0
    from_hand: bool = False
    kind: ClassVar[str] = "play"

    def __str__(self) -> str:
        """Notation, as the zones are named: ``p1 pile3->centre2``, ``p2 hand 7H->centre1``."""
        src = f"hand {ref_text(self.source, 'pile')}" if self.from_hand else ref_text(self.source, "pile")
        return f"p{self.player + 1} {src}->{ref_text(self.to, 'centre')}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "player": self.player, "op": self.kind}
        if self.from_hand:
            out["from"] = "hand"
            out["card"] = ref_json(self.source)
        elif isinstance(self.source, Card):
            out["card"] = self.source.code
        else:
            out["from"] = self.source
        out["to"] = ref_json(self.to)
        return out


@dataclass(frozen=True, slots=True)
class Join:
    """Z3: ``player`` moves the face-up cards of an own pile onto a pile of the same value, or into
    an empty pile (a fill)."""

    player: int
    source: int | Card
    onto: int | Card
    t: float = 0.0
    kind: ClassVar[str] = "join"

    def __str__(self) -> str:
        return f"p{self.player + 1} {ref_text(self.source, 'pile')}->{ref_text(self.onto, 'pile')}"

    def to_json(self) -> dict[str, Any]:
        src = {"card": self.source.code} if isinstance(self.source, Card) else {"from": self.source}
        return {"t": self.t, "player": self.player, "op": self.kind, **src, "onto": ref_json(self.onto)}


@dataclass(frozen=True, slots=True)
class TakeHand:
    """Z9: ``player`` takes the (three or fewer) pile cards left into the hand."""

    player: int
    t: float = 0.0
    kind: ClassVar[str] = "take_hand"

    def __str__(self) -> str:
        return f"p{self.player + 1} takes the pile cards into the hand"

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "player": self.player, "op": self.kind}


@dataclass(frozen=True, slots=True)
class Turn:
    """Z5/Z7/Z8: all players turn a stock card onto the own centre pile at the same moment."""

    t: float = 0.0
    kind: ClassVar[str] = "turn"
    player: ClassVar[None] = None

    def __str__(self) -> str:
        return "all turn a card"

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "op": self.kind}


@dataclass(frozen=True, slots=True)
class Choose:
    """Z10/Z11: ``player`` takes centre pile ``pile`` at the end of a round."""

    player: int
    pile: int
    t: float = 0.0
    kind: ClassVar[str] = "choose"

    def __str__(self) -> str:
        return f"p{self.player + 1} takes centre{self.pile + 1}"

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "player": self.player, "op": self.kind, "pile": self.pile}


@dataclass(frozen=True, slots=True)
class Slap:
    """Z10 ``slap_race``: ``player`` slaps centre pile ``pile``; the first gets it."""

    player: int
    pile: int
    t: float = 0.0
    kind: ClassVar[str] = "slap"

    def __str__(self) -> str:
        return f"p{self.player + 1} slaps centre{self.pile + 1}"

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "player": self.player, "op": self.kind, "pile": self.pile}


@dataclass(frozen=True, slots=True)
class NewRound:
    """Z11: lay out the next round (from ``layout``, the deal's ``rounds``, or the packets)."""

    t: float = 0.0
    layout: Layout | None = None
    kind: ClassVar[str] = "new_round"
    player: ClassVar[None] = None

    def __str__(self) -> str:
        return "new round"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "op": self.kind}
        if self.layout is not None:
            out.update(self.layout.to_json())
        return out


Move = Union[Play, Join, TakeHand, Turn, Choose, Slap, NewRound]


def move_from_json(obj: object, players: int) -> Move:
    """Read one event line (a parsed JSON object); raises NotationError when it cannot be read."""
    if not isinstance(obj, dict):
        raise NotationError(f"event: expected a JSON object, got {obj!r}")
    kind = event_type(obj)
    t = read_time(obj)
    try:
        if kind == "play":
            p = read_player(obj, players)
            to = read_ref(obj, ("to", "onto", "centre", "pile"), players, f"a centre pile (0-{players - 1}) or its top card")
            assert to is not None
            if obj.get("from") == "hand":
                card = read_ref(obj, ("card",), PILES, "the hand card played")
                if not isinstance(card, Card):
                    raise NotationError("play from the hand: 'card' names the card played")
                return Play(p, card, to, t, True)
            src = read_ref(obj, ("from", "card"), PILES, "an own pile (0-4) or its top card")
            assert src is not None
            return Play(p, src, to, t)
        if kind in ("join", "fill", "move"):
            p = read_player(obj, players)
            src = read_ref(obj, ("from", "card"), PILES, "an own pile (0-4) or its top card")
            onto = read_ref(obj, ("onto", "to"), PILES, "an own pile (0-4) or its top card")
            assert src is not None and onto is not None
            return Join(p, src, onto, t)
        if kind in ("take_hand", "hand"):
            return TakeHand(read_player(obj, players), t)
        if kind in ("turn", "lay"):
            return Turn(t)
        if kind in ("choose", "slap"):
            p = read_player(obj, players)
            pile = read_ref(obj, ("pile", "centre", "to"), players, f"a centre pile (0-{players - 1})")
            if not isinstance(pile, int):
                raise NotationError(f"{kind}: 'pile' is a centre pile number (0-{players - 1})")
            return Choose(p, pile, t) if kind == "choose" else Slap(p, pile, t)
        if kind in ("new_round", "round"):
            layout = Layout.from_json(obj, "new_round") if "players" in obj or "hands" in obj else None
            if layout is not None and len(layout.seats) != players:
                raise NotationError(f"new_round: {players} players, the layout has {len(layout.seats)}")
            return NewRound(t, layout)
    except CardError as exc:
        raise NotationError(str(exc)) from None
    raise NotationError(f"unknown Zenuwen event op {kind!r}; known: play, join, take_hand, turn, choose, slap, new_round")


# --- judging -----------------------------------------------------------------------------------


def _who(p: int) -> str:
    return f"player {p}"


def _set(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return seq[:i] + (value,) + seq[i + 1 :]


def _pile_pos(state: ZenuwenState, player: int, ref: int | Card) -> int | str:
    piles = state.seats[player].piles
    if isinstance(ref, int):
        return ref if piles[ref].cards else f"{_who(player)}'s pile {ref} is empty"
    for i, p in enumerate(piles):
        if p.top is ref:
            return i
    for q, seat in enumerate(state.seats):
        if q != player and any(p.top is ref for p in seat.piles):
            return f"{ref.name} lies on {_who(q)}'s pile, not {_who(player)}'s: each plays only the own piles"
    return f"{_who(player)} has no pile showing {ref.name}"


def _centre_pos(state: ZenuwenState, ref: int | Card) -> int | str:
    if isinstance(ref, int):
        return ref if state.centre[ref] else f"centre pile {ref} is empty: no card was turned onto it"
    hits = [i for i, p in enumerate(state.centre) if p and p[-1] is ref]
    if not hits:
        return f"no centre pile shows {ref.name}"
    return hits[0]


def fits(card: Card, top: Card) -> bool:
    """Z6: exactly one rank higher or lower, suits ignored, king and ace neighbours."""
    return adjacent(card.rank, top.rank, True)


def first_play(state: ZenuwenState, player: int) -> tuple[int, Card, int, Card] | None:
    """A play ``player`` could make from the visible pile tops: (pile, card, centre pile, its top)."""
    tops = state.tops()
    for i, p in enumerate(state.seats[player].piles):
        c = p.top
        if c is None:
            continue
        for j, top in enumerate(tops):
            if top is not None and fits(c, top):
                return i, c, j, top
    return None


def _take_top(pile: ZPile, count: int) -> tuple[ZPile, bool]:
    """Remove ``count`` cards from the top; turn the next card up if no face-up card is left (Z3)."""
    cards = pile.cards[: len(pile.cards) - count]
    up = pile.up - count
    turned = False
    if up <= 0:
        up = 1 if cards else 0
        turned = bool(cards)
    return ZPile(cards, up), turned


def _in_play(state: ZenuwenState, move: Move) -> Illegal | None:
    if state.phase is Phase.MATCH_OVER:
        return Illegal(move, "Z12", f"the match is over: {_who(state.match_winner or 0)} won")
    if state.phase in (Phase.CHOOSE, Phase.NEXT):
        return Illegal(move, "Z10", f"round {state.round} is over: {_who(state.winner or 0)} is out; the centre piles are taken next")
    return None


def _play(state: ZenuwenState, move: Play) -> Legal[ZenuwenState] | Illegal:
    if state.phase is Phase.TURN:
        return Illegal(move, "Z5", "no centre card is turned yet: play starts when all have turned a card")
    p = move.player
    seat = state.seats[p]
    hand = move.from_hand
    pos: int | str = -1
    if not hand:
        pos = _pile_pos(state, p, move.source)
        if isinstance(pos, str) and isinstance(move.source, Card) and move.source in seat.hand:
            hand = True
    if hand:
        card = move.source
        if not isinstance(card, Card) or card not in seat.hand:
            what = card.name if isinstance(card, Card) else repr(card)
            return Illegal(move, "Z9", f"{what} is not one of {_who(p)}'s {len(seat.hand)} hand cards")
    elif isinstance(pos, str):
        return Illegal(move, "Z6", pos)
    ci = _centre_pos(state, move.to)
    if isinstance(ci, str):
        return Illegal(move, "Z6", ci)
    top = state.centre[ci][-1]
    events: list[Event] = []
    if hand:
        assert isinstance(move.source, Card)
        card = move.source
        h = list(seat.hand)
        h.remove(card)
        new_seat = replace(seat, hand=tuple(h))
        where = "hand"
    else:
        assert isinstance(pos, int)
        pile = seat.piles[pos]
        assert pile.top is not None
        card = pile.top
        new_pile, turned = _take_top(pile, 1)
        new_seat = replace(seat, piles=_set(seat.piles, pos, new_pile))
        where = f"pile{pos}"
    if not fits(card, top):
        if card.rank == top.rank:
            why = f"{card.name} may not go on {top.name}: the same rank is not one higher or lower"
        else:
            why = f"{card.name} is not one rank higher or lower than {top.name}"
        return Illegal(move, "Z6", why)
    events.append(Event("play", move.t, p, f"centre{ci}", (card,), f"{card.name} on {top.name}", (("from", where),)))
    if not hand and turned:
        assert isinstance(pos, int)
        up = new_seat.piles[pos].top
        assert up is not None
        events.append(Event("turned_up", move.t, p, f"pile{pos}", (up,)))
    centre = _set(state.centre, ci, state.centre[ci] + (card,))
    return _legal(move, replace(state, seats=_set(state.seats, p, new_seat), centre=centre), events)


def _join(state: ZenuwenState, move: Join) -> Legal[ZenuwenState] | Illegal:
    p = move.player
    seat = state.seats[p]
    src = _pile_pos(state, p, move.source)
    if isinstance(src, str):
        return Illegal(move, "Z3", src)
    assert isinstance(src, int)
    if isinstance(move.onto, int):
        dst = move.onto
    else:
        d = _pile_pos(state, p, move.onto)
        if isinstance(d, str):
            return Illegal(move, "Z3", d)
        assert isinstance(d, int)
        dst = d
    if src == dst:
        return Illegal(move, "Z3", "a pile cannot be joined onto itself")
    a, b = seat.piles[src], seat.piles[dst]
    moving = a.visible
    assert a.top is not None
    if b.top is not None and b.top.rank != a.top.rank:
        return Illegal(move, "Z3", f"only the same value may be joined: {a.top.name} on {b.top.name}")
    new_a, turned = _take_top(a, len(moving))
    new_b = ZPile(b.cards + moving, b.up + len(moving))
    piles = _set(_set(seat.piles, src, new_a), dst, new_b)
    kind = "join" if b.cards else "fill"
    detail = f"{a.top.name} on {b.top.name}" if b.top is not None else f"{len(moving)} card(s) into empty pile {dst}"
    events = [Event(kind, move.t, p, f"pile{dst}", moving, detail, (("from", f"pile{src}"),))]
    if turned:
        assert new_a.top is not None
        events.append(Event("turned_up", move.t, p, f"pile{src}", (new_a.top,)))
    return _legal(move, replace(state, seats=_set(state.seats, p, replace(seat, piles=piles))), events)


def _take_hand(state: ZenuwenState, move: TakeHand) -> Legal[ZenuwenState] | Illegal:
    p = move.player
    seat = state.seats[p]
    n = sum(len(x.cards) for x in seat.piles)
    if n == 0:
        return Illegal(move, "Z9", f"{_who(p)} has no pile cards left to take into the hand")
    if n > HAND_MAX:
        return Illegal(move, "Z9", f"{_who(p)} has {n} cards in the piles; only three or fewer may be taken into the hand")
    taken = tuple(c for x in seat.piles for c in x.cards)
    new_seat = replace(seat, piles=(ZPile(),) * PILES, hand=seat.hand + taken)
    ev = Event("take_hand", move.t, p, "hand", detail=f"{n} card(s) into the hand: counted, not seen", data=(("count", n),))
    return _legal(move, replace(state, seats=_set(state.seats, p, new_seat)), [ev])


def _turn(state: ZenuwenState, move: Turn) -> Legal[ZenuwenState] | Illegal:
    t = move.t
    events: list[Event] = []
    waiting = [p for p in range(state.players) if first_play(state, p) is not None] if state.phase is Phase.PLAY else []
    seats = list(state.seats)
    centre = state.centre
    if not any(s.stock for s in seats):
        # No stock anywhere: each player takes the own centre pile back, face down, as stock (Z8).
        for i in range(state.players):
            if centre[i]:
                seats[i] = replace(seats[i], stock=centre[i])
                events.append(Event("recycle", t, i, "stock", detail=f"no stock left: {_who(i)} turns centre pile {i} over as stock", data=(("count", len(centre[i])),)))
                centre = _set(centre, i, ())
    empty = [i for i in range(state.players) if not seats[i].stock]
    for i in range(state.players):
        if seats[i].stock:
            c = seats[i].stock[0]
            seats[i] = replace(seats[i], stock=seats[i].stock[1:])
            centre = _set(centre, i, centre[i] + (c,))
            events.append(Event("turn", t, i, f"centre{i}", (c,)))
    if state.rules.empty_stock == "turn_opponents":
        for i in empty:
            for k in range(1, state.players):
                j = (i + k) % state.players
                if seats[j].stock:
                    c = seats[j].stock[0]
                    seats[j] = replace(seats[j], stock=seats[j].stock[1:])
                    centre = _set(centre, i, centre[i] + (c,))
                    events.append(Event("turn", t, i, f"centre{i}", (c,), f"from {_who(j)}'s stock (Z8)", (("stock_of", j),)))
                    break
    if waiting:
        events.append(Event("note", t, detail="turned while " + ", ".join(_who(p) for p in waiting) + " could still play (Z7 allows waiting)", data=(("could_play", waiting),)))
    nxt = replace(state, seats=tuple(seats), centre=centre, phase=Phase.PLAY, stuck=False)
    return _legal(move, nxt, events)


def choice_order(state: ZenuwenState) -> list[int]:
    """Z10/Z11: the players still to choose, in order: the winner, then fewest pile cards (ties: seat)."""
    rest = [p for p in range(state.players) if state.takes[p] is None]
    return sorted(rest, key=lambda p: (p != state.winner, state.seats[p].pile_cards, p))


def free_piles(state: ZenuwenState) -> list[int]:
    """The centre piles that hold cards and nobody has taken yet this round."""
    taken = {x for x in state.takes if x is not None}
    return [i for i, p in enumerate(state.centre) if p and i not in taken]


def _complete_choices(state: ZenuwenState, t: float, events: list[Event], all_by_size: bool = False) -> ZenuwenState:
    """Give the last chooser what is left; with ``all_by_size`` everyone left takes the smallest free pile."""
    while True:
        order = choice_order(state)
        if not order:
            break
        free = free_piles(state)
        if not free:
            for p in order:
                state = replace(state, takes=_set(state.takes, p, NONE))
                events.append(Event("take_pile", t, p, detail="no centre pile left to take", data=(("centre", None),)))
            break
        if len(order) > 1 and not all_by_size:
            break
        p = order[0]
        pile = min(free, key=lambda i: (len(state.centre[i]), i))
        state = replace(state, takes=_set(state.takes, p, pile))
        events.append(Event("take_pile", t, p, f"centre{pile}", detail=f"{_who(p)} takes centre pile {pile} ({len(state.centre[pile])} cards)", data=(("centre", pile),)))
    if all(x is not None for x in state.takes):
        state = replace(state, phase=Phase.NEXT)
        events.append(Event("next_round_cards", t, detail="cards each player lays out next round (Z11)", data=(("cards", list(next_round_counts(state))),)))
    return state


def _packets(state: ZenuwenState) -> list[tuple[Card, ...]]:
    out = []
    for p, seat in enumerate(state.seats):
        k = state.takes[p]
        pile = state.centre[k] if k is not None and k != NONE else ()
        out.append(pile + seat.stock + tuple(c for x in seat.piles for c in x.cards) + seat.hand)
    return out


def next_round_counts(state: ZenuwenState) -> tuple[int, ...]:
    """Z11: how many cards each player lays out next round (once every centre pile is taken)."""
    return tuple(len(p) for p in _packets(state))


def _choose(state: ZenuwenState, move: Choose | Slap) -> Legal[ZenuwenState] | Illegal:
    race = state.rules.pile_choice == "slap_race"
    p = move.player
    if state.phase is Phase.MATCH_OVER:
        return Illegal(move, "Z12", "the match is over")
    if isinstance(move, Slap) and race and state.raced and state.phase in (Phase.CHOOSE, Phase.NEXT):
        ev = Event("slap", move.t, p, f"centre{move.pile}", detail="late: the race is decided")
        return _legal(move, state, [ev])
    if state.phase is not Phase.CHOOSE:
        if isinstance(move, Slap):
            return Illegal(move, "Z10", f"slap by {_who(p)}: centre piles are only slapped at the end of a round (pile_choice=slap_race)")
        return Illegal(move, "Z10", f"{_who(p)} chooses a centre pile, but nobody is out yet" if state.phase is not Phase.NEXT else "every centre pile is already taken")
    if isinstance(move, Slap):
        if not race:
            return Illegal(move, "Z10", "pile_choice=winner_chooses: the winner chooses a pile; nobody slaps")
    elif race and not state.raced:
        return Illegal(move, "Z10", "pile_choice=slap_race: the first to slap a centre pile gets it; slap first")
    if not race or not isinstance(move, Slap):
        order = choice_order(state)
        if p not in order:
            return Illegal(move, "Z10", f"{_who(p)} has already taken a centre pile")
        if order[0] != p:
            first = order[0]
            rule = "Z10" if first == state.winner else "Z11"
            why = "the winner chooses first" if rule == "Z10" else "the others choose by fewest pile cards left (ties: seat order)"
            return Illegal(move, rule, f"{_who(first)} chooses before {_who(p)}: {why}")
    if not state.centre[move.pile]:
        return Illegal(move, "Z10", f"centre pile {move.pile} is empty: nothing to take")
    owner = [q for q, k in enumerate(state.takes) if k == move.pile]
    if owner:
        return Illegal(move, "Z10", f"centre pile {move.pile} is already taken by {_who(owner[0])}")
    state2 = replace(state, takes=_set(state.takes, p, move.pile), raced=state.raced or isinstance(move, Slap))
    kind = "slap" if isinstance(move, Slap) else "take_pile"
    detail = f"{_who(p)} takes centre pile {move.pile} ({len(state.centre[move.pile])} cards)"
    if isinstance(move, Slap):
        detail = "first: " + detail
    events = [Event(kind, move.t, p, f"centre{move.pile}", detail=detail, data=(("centre", move.pile),))]
    state2 = _complete_choices(state2, move.t, events)
    return _legal(move, state2, events)


def _new_round(state: ZenuwenState, move: NewRound) -> Legal[ZenuwenState] | Illegal:
    if state.phase is Phase.MATCH_OVER:
        return Illegal(move, "Z12", "the match is over")
    if state.phase not in (Phase.CHOOSE, Phase.NEXT):
        return Illegal(move, "Z11", f"round {state.round} is not over: nobody is out yet (Z10)")
    events: list[Event] = []
    if state.phase is Phase.CHOOSE:
        if state.rules.pile_choice == "slap_race" and not state.raced:
            return Illegal(move, "Z10", "pile_choice=slap_race: the centre piles go by slapping first")
        state = _complete_choices(state, move.t, events, all_by_size=True)
    packets = _packets(state)
    later = state.later
    layout = move.layout
    if layout is None and later:
        layout, later = later[0], later[1:]
    if layout is None:
        seats = tuple(lay_out(pk) for pk in packets)
    else:
        for p, (seat, pk) in enumerate(zip(layout.seats, packets)):
            if Counter(seat.all_cards()) != Counter(pk):
                return Illegal(move, "Z11", f"{_who(p)} lays out other cards than the {len(pk)} they hold (centre pile, own stock, pile cards left)")
            sizes, stock = layout_sizes(len(pk))
            got = [len(x.cards) for x in seat.piles]
            if got != sizes or len(seat.stock) != stock or seat.hand:
                return Illegal(move, "Z11", f"{_who(p)} lays {len(pk)} cards as piles of {', '.join(map(str, sizes))} and {stock} in the stock, not {got} and {len(seat.stock)}")
        seats = tuple(replace(s, laid_out_stock=bool(s.stock)) for s in layout.seats)
    n = state.players
    nxt = replace(
        state,
        seats=seats,
        centre=((),) * n,
        phase=Phase.TURN,
        round=state.round + 1,
        stuck=False,
        winner=None,
        takes=(None,) * n,
        raced=False,
        later=later,
    )
    events.append(
        Event(
            "new_round",
            move.t,
            detail=f"round {state.round + 1}",
            data=(
                ("round", state.round + 1),
                ("cards", [s.count for s in seats]),
                ("piles", [[len(x.cards) for x in s.piles] for s in seats]),
                ("stock", [len(s.stock) for s in seats]),
            ),
        )
    )
    return _legal(move, nxt, events)


def _legal(move: Move, state: ZenuwenState, events: list[Event]) -> Legal[ZenuwenState]:
    state, events = _finish(replace(state, t=max(state.t, move.t)), move.t, events)
    return Legal(move, state, 0, tuple(events))


def _finish(state: ZenuwenState, t: float, events: list[Event]) -> tuple[ZenuwenState, list[Event]]:
    """After every change: a player out (Z10, Z12), or everyone stuck (Z7), called at once."""
    if state.phase is not Phase.PLAY:
        return state, events
    out = [p for p, s in enumerate(state.seats) if s.pile_cards == 0]
    if out:
        w = out[0]
        wins = _set(state.wins, w, state.wins[w] + 1)
        state = replace(state, phase=Phase.CHOOSE, winner=w, wins=wins, stuck=False)
        events.append(
            Event(
                "round_over",
                t,
                w,
                detail=f"{_who(w)} has played every pile card (Z10)",
                data=(
                    ("rule", "Z10"),
                    ("round", state.round),
                    ("winner", w),
                    ("cards_left", list(state.cards_left())),
                    ("pile_cards_left", [s.pile_cards for s in state.seats]),
                    ("centre_sizes", [len(p) for p in state.centre]),
                ),
            )
        )
        if not state.seats[w].laid_out_stock:
            gejast = [p for p in range(state.players) if p != w]
            state = replace(state, phase=Phase.MATCH_OVER, match_winner=w, takes=_set(state.takes, w, NONE))
            events.append(
                Event(
                    "match_over",
                    t,
                    w,
                    detail=f"{_who(w)} had no stock and won the round: takes the empty pile and wins; the others are gejast (Z12)",
                    data=(("rule", "Z12"), ("winner", w), ("gejast", gejast), ("rounds", state.round)),
                )
            )
        return state, events
    if not any(first_play(state, p) is not None for p in range(state.players)):
        if not state.stuck:
            state = replace(state, stuck=True)
            data: list[tuple[str, Any]] = [("rule", "Z7"), ("stocks", [len(s.stock) for s in state.seats])]
            hidden = [len(s.hand) for s in state.seats]
            if any(hidden):
                data.append(("hand_cards", hidden))
            events.append(Event("stuck", t, detail="no player can play: all turn a new card (Z7)", data=tuple(data)))
    elif state.stuck:
        state = replace(state, stuck=False)
    return state, events


def apply(state: ZenuwenState, move: Move) -> Legal[ZenuwenState] | Illegal:
    """Judge ``move`` in ``state``: Legal (the next state, what followed, the calls) or Illegal."""
    if isinstance(move, (Choose, Slap)):
        return _choose(state, move)
    if isinstance(move, NewRound):
        return _new_round(state, move)
    refused = _in_play(state, move)
    if refused is not None:
        return refused
    if isinstance(move, Play):
        return _play(state, move)
    if isinstance(move, Join):
        return _join(state, move)
    if isinstance(move, TakeHand):
        return _take_hand(state, move)
    if isinstance(move, Turn):
        return _turn(state, move)
    raise NotationError(f"not a Zenuwen move: {move!r}")


def is_legal(state: ZenuwenState, move: Move) -> bool:
    try:
        return apply(state, move).ok
    except NotationError:
        return False


def legal_moves(state: ZenuwenState) -> Iterator[Move]:
    """Every legal move now, lazily, at the state's time."""
    t = state.t
    if state.phase is Phase.MATCH_OVER:
        return
    if state.phase is Phase.NEXT:
        yield NewRound(t)
        return
    if state.phase is Phase.CHOOSE:
        free = free_piles(state)
        if state.rules.pile_choice == "slap_race" and not state.raced:
            for p in range(state.players):
                for k in free:
                    yield Slap(p, k, t)
            return
        order = choice_order(state)
        if order:
            for k in free:
                yield Choose(order[0], k, t)
        yield NewRound(t)
        return
    tops = state.tops()
    for p, seat in enumerate(state.seats):
        if state.phase is Phase.PLAY:
            for i, pile in enumerate(seat.piles):
                if pile.top is not None:
                    for j, top in enumerate(tops):
                        if top is not None and fits(pile.top, top):
                            yield Play(p, i, j, t)
            for c in dict.fromkeys(seat.hand):
                for j, top in enumerate(tops):
                    if top is not None and fits(c, top):
                        yield Play(p, c, j, t, True)
        for i, a in enumerate(seat.piles):
            if a.top is None:
                continue
            for j, b in enumerate(seat.piles):
                if i != j and (b.top is None or b.top.rank == a.top.rank) and not (b.top is None and a.up == len(a.cards)):
                    yield Join(p, i, j, t)
        n = sum(len(x.cards) for x in seat.piles)
        if 0 < n <= HAND_MAX:
            yield TakeHand(p, t)
    yield Turn(t)


@dataclass(frozen=True, slots=True)
class ZenuwenOutcome:
    """The end of a round or of the match: the winner, and who is gejast (Z12)."""

    winner: int
    round: int
    match_over: bool
    gejast: tuple[int, ...] = ()


def outcome(state: ZenuwenState) -> ZenuwenOutcome | None:
    if state.phase is Phase.MATCH_OVER:
        w = state.match_winner
        assert w is not None
        return ZenuwenOutcome(w, state.round, True, tuple(p for p in range(state.players) if p != w))
    if state.phase in (Phase.CHOOSE, Phase.NEXT):
        assert state.winner is not None
        return ZenuwenOutcome(state.winner, state.round, False)
    return None
