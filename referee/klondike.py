"""Klondike patience to RULES.md K1-K16: every option, Windows and Vegas scoring.

The shape follows python-chess: a frozen :class:`KlondikeState`, small :class:`Move` values,
:func:`legal_moves`, :func:`is_legal`, :func:`apply` returning a verdict, and :func:`outcome`. Nothing is
ever mutated, and the legality check is never skipped (the camera is untrusted input).

Pile names are the replay notation: ``waste``, ``t1`` .. ``t8``, ``foundation:S`` as a source and
``foundation`` as a destination (the suit follows from the card).
"""

from __future__ import annotations

import functools
import math
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping, Sequence

from .cards import DECK, SUIT_NAMES, SUITS, Card, CardError, card_of, parse_card_list, rank_name, shuffled_decks
from .options import OptionError, choice, int_choice, option, parse_bool, parse_options, to_spec
from .verdict import Event, Illegal, Legal, NotationError

SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def _parse_passes(text: str) -> int | None:
    low = text.strip().lower()
    if low == "unlimited":
        return None
    if low in ("1", "3"):
        return int(low)
    raise ValueError(f"expected unlimited, 3 or 1, got {text!r}")


def _parse_free_passes(text: str) -> int:
    value = int(text.strip())
    if value < 1:
        raise ValueError(f"expected a whole number of at least 1, got {text!r}")
    return value


@dataclass(frozen=True, slots=True)
class KlondikeRules:
    """The rule options of RULES.md with their defaults. Build with :meth:`make` or :meth:`from_spec`,
    which also apply the defaults that depend on other options (K15, K16)."""

    draw: int = option(3, int_choice(1, 3), "K9: cards turned from the stock at a time (1 or 3)")
    passes: int | None = option(
        None, _parse_passes, "K10: passes through the stock: unlimited, 3 or 1 (Vegas: 1 with draw 1, 3 with draw 3)"
    )
    foundation_to_tableau: bool = option(True, parse_bool, "K11: cards may come back from a foundation")
    partial_runs: bool = option(True, parse_bool, "K5: any lower part of a run may be lifted")
    aces_up_at_once: bool = option(False, parse_bool, "K12: a free ace must go up before any other move")
    columns: int = option(7, int_choice(7, 8), "K2/K16: tableau piles (7 or 8)")
    scoring: str = option(
        "standard", choice("none", "standard", "vegas", "vegas_cumulative"), "K14/K15: none, standard, vegas, vegas_cumulative"
    )
    timed: bool = option(False, parse_bool, "K14: timed game: -2 per 10 s, win bonus 700,000 / seconds")
    recycle_free_passes: int = option(3, _parse_free_passes, "K14: draw-3 passes before recycling costs 20")

    @classmethod
    def make(cls, **given: Any) -> "KlondikeRules":
        """Rules from the options given; the rest default as RULES.md says, including K16 (eight
        columns: draw 1) and K15 (Vegas: one pass with draw 1, three with draw 3)."""
        columns = given.get("columns", 7)
        if "draw" not in given:
            given["draw"] = 1 if columns == 8 else 3
        if "passes" not in given and str(given.get("scoring", "standard")).startswith("vegas"):
            given["passes"] = 1 if given["draw"] == 1 else 3
        return cls(**given)

    @classmethod
    def from_spec(cls, spec: str | Mapping[str, str] = "") -> "KlondikeRules":
        """``"draw=1,passes=3,scoring=vegas"``; unknown keys or values raise :class:`OptionError`."""
        return cls.make(**parse_options(cls, spec if isinstance(spec, str) else dict(spec)))

    def spec(self) -> str:
        return to_spec(self).replace("passes=None", "passes=unlimited")


@dataclass(frozen=True, slots=True)
class Move:
    """One player action: ``draw``, ``recycle`` or ``move`` (``src`` -> ``dst``, ``count`` cards).

    ``t`` is the time in seconds since the start, for timed scoring; it is not part of what the move
    is, so it is left out of comparisons.
    """

    op: str
    src: str = ""
    dst: str = ""
    count: int = 1
    t: float | None = field(default=None, compare=False)

    @staticmethod
    def draw(t: float | None = None) -> "Move":
        return Move("draw", t=t)

    @staticmethod
    def recycle(t: float | None = None) -> "Move":
        return Move("recycle", t=t)

    @staticmethod
    def move(src: str, dst: str, count: int = 1, t: float | None = None) -> "Move":
        return Move("move", src, dst, count, t)

    @staticmethod
    def from_json(obj: Any) -> "Move":
        """Read one replay line (already decoded); raises :class:`NotationError` if malformed."""
        if not isinstance(obj, dict):
            raise NotationError(f"a move must be a JSON object, got {obj!r}")
        op = obj.get("op")
        t = obj.get("t")
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or t < 0):
            raise NotationError(f"'t' must be a number of seconds >= 0, got {t!r}")
        if op in ("draw", "recycle"):
            return Move(op, t=t)
        if op != "move":
            raise NotationError(f"unknown op {op!r}: expected draw, recycle or move")
        src, dst, count = obj.get("from"), obj.get("to"), obj.get("count", 1)
        if not isinstance(src, str) or not _is_source(src):
            raise NotationError(f"'from' must be waste, t1..t8 or foundation:S|H|D|C, got {src!r}")
        if not isinstance(dst, str) or not _is_destination(dst):
            raise NotationError(f"'to' must be t1..t8 or foundation, got {dst!r}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise NotationError(f"'count' must be a whole number >= 1, got {count!r}")
        return Move("move", src, dst, count, t)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"op": self.op}
        if self.op == "move":
            out["from"], out["to"] = self.src, self.dst
            if self.count != 1:
                out["count"] = self.count
        if self.t is not None:
            out["t"] = self.t
        return out

    def __str__(self) -> str:
        if self.op != "move":
            return self.op
        return f"{self.src}->{self.dst}" + (f" x{self.count}" if self.count != 1 else "")


_TABLEAU_NAMES = {f"t{i + 1}": i for i in range(8)}
_FOUNDATION_SOURCES = {f"foundation:{s}": s for s in SUITS}


def _is_source(name: str) -> bool:
    return name == "waste" or name in _TABLEAU_NAMES or name in _FOUNDATION_SOURCES


def _is_destination(name: str) -> bool:
    return name == "foundation" or name in _TABLEAU_NAMES


@dataclass(frozen=True, slots=True)
class KlondikeState:
    """A position. ``tableau[i]`` is pile ``t{i+1}`` bottom to top, of which the lowest ``hidden[i]``
    cards are face down; ``stock`` is top first; ``waste`` is bottom to top (its last card is the
    playable one); ``foundations`` holds the top rank (0 = empty) per suit in ``S H D C`` order.

    ``score`` is the running Windows score (already floored at 0 and charged for time) or the Vegas
    balance; ``time`` the latest move time seen and ``ticks`` the 10-second penalties already charged.
    """

    rules: KlondikeRules
    tableau: tuple[tuple[Card, ...], ...]
    hidden: tuple[int, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...] = ()
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0)
    recycles: int = 0
    score: int = 0
    time: float = 0.0
    ticks: int = 0
    carry: int = 0

    @property
    def foundation_count(self) -> int:
        return sum(self.foundations)

    @property
    def won(self) -> bool:
        return self.foundations == (13, 13, 13, 13)

    @property
    def passes_left(self) -> int | None:
        """Recycles still allowed (None: unlimited)."""
        passes = self.rules.passes
        return None if passes is None else passes - 1 - self.recycles

    def face_up(self, pile: int) -> tuple[Card, ...]:
        return self.tableau[pile][self.hidden[pile] :]

    def to_json(self) -> dict[str, Any]:
        """A plain picture of the position, for logs and the web app."""
        return {
            "tableau": [
                {"down": [c.code for c in p[:h]], "up": [c.code for c in p[h:]]}
                for p, h in zip(self.tableau, self.hidden)
            ],
            "stock": [c.code for c in self.stock],
            "waste": [c.code for c in self.waste],
            "foundations": {s: self.foundations[i] for i, s in enumerate(SUITS)},
            "recycles": self.recycles,
            "score": self.score,
        }


@dataclass(frozen=True, slots=True)
class Deal:
    """A dealt layout, as DEAL.json has it."""

    tableau: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]

    @staticmethod
    def from_json(obj: Any) -> "Deal":
        if not isinstance(obj, dict) or not isinstance(obj.get("tableau"), list) or "stock" not in obj:
            raise NotationError('a deal must be {"tableau": [[...], ...], "stock": [...]}')
        try:
            tableau = tuple(parse_card_list(p, f"tableau pile {i + 1}") for i, p in enumerate(obj["tableau"]))
            stock = parse_card_list(obj["stock"], "stock")
        except CardError as exc:
            raise NotationError(str(exc)) from None
        every = [c for p in tableau for c in p] + list(stock)
        if len(set(every)) != len(every):
            twice = sorted({c.code for c in every if every.count(c) > 1})
            raise NotationError(f"the deal holds {', '.join(twice)} more than once")
        if len(every) != 52:
            missing = [c.code for c in DECK if c not in set(every)]
            raise NotationError(f"the deal must hold all 52 cards (K1); missing {', '.join(missing)}")
        if len(tableau) not in (7, 8):
            raise NotationError(f"the deal has {len(tableau)} tableau piles; Klondike has 7 or 8 (K2, K16)")
        return Deal(tableau, stock)

    def to_json(self) -> dict[str, Any]:
        return {"tableau": [[c.code for c in p] for p in self.tableau], "stock": [c.code for c in self.stock]}


def deal(seed: int, columns: int = 7) -> Deal:
    """A shuffled deal (K1-K3, K16): the same seed gives the same deal."""
    pack = shuffled_decks(seed)
    tableau = []
    for size in range(1, columns + 1):
        tableau.append(tuple(pack[:size]))
        del pack[:size]
    return Deal(tuple(tableau), tuple(pack))


def new_game(the_deal: Deal, rules: KlondikeRules | None = None, carry: int = 0) -> KlondikeState:
    """The starting position; ``carry`` is the balance brought from the previous game (cumulative Vegas)."""
    rules = rules or KlondikeRules.make(columns=len(the_deal.tableau))
    if len(the_deal.tableau) != rules.columns:
        raise NotationError(f"the deal has {len(the_deal.tableau)} tableau piles but the rules say columns={rules.columns}")
    hidden = tuple(max(len(p) - 1, 0) for p in the_deal.tableau)
    state = KlondikeState(rules, the_deal.tableau, hidden, the_deal.stock, carry=carry if _vegas(rules) else 0)
    if _vegas(rules):
        state = replace(state, score=state.carry - 52)
    return state


def _vegas(rules: KlondikeRules) -> bool:
    return rules.scoring.startswith("vegas")


def _pile_name(i: int) -> str:
    return f"{ORDINALS[i]} pile (t{i + 1})"


def _colour(c: Card) -> str:
    return "red" if c.red else "black"


# --- checking ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Plan:
    """A checked move, ready to be carried out."""

    cards: tuple[Card, ...]
    src_kind: str  # "waste" | "tableau" | "foundation"
    src_index: int
    dst_kind: str  # "tableau" | "foundation"
    dst_index: int


def _check(state: KlondikeState, move: Move) -> Illegal | _Plan | None:
    """``None`` for a legal draw or recycle, a plan for a legal card move, or the verdict against it."""
    rules = state.rules
    if rules.aces_up_at_once:
        against = _check_aces_up(state, move)
        if against is not None:
            return against
    if move.op == "draw":
        if not state.stock:
            more = " Turn the waste over first (K10)." if _recycle_refusal(state, move) is None else ""
            return Illegal(move, "K9", f"the stock is empty: there is nothing to turn.{more}")
        return None
    if move.op == "recycle":
        return _recycle_refusal(state, move)
    if move.op != "move":
        raise NotationError(f"unknown op {move.op!r}")
    src, dst, count = move.src, move.dst, move.count

    # What is lifted.
    if src == "waste":
        if not state.waste:
            return Illegal(move, "K9", "the waste is empty")
        if count != 1:
            return Illegal(move, "K9", f"only the top card of the waste is playable, not {count} cards")
        moving: tuple[Card, ...] = (state.waste[-1],)
        src_kind, src_index = "waste", 0
    elif src in _TABLEAU_NAMES:
        src_index = _TABLEAU_NAMES[src]
        if src_index >= rules.columns:
            return Illegal(move, "K2", f"there is no {_pile_name(src_index)} with {rules.columns} columns")
        pile, up = state.tableau[src_index], len(state.tableau[src_index]) - state.hidden[src_index]
        if not pile:
            return Illegal(move, "K5", f"the {_pile_name(src_index)} is empty")
        if count > up:
            return Illegal(
                move, "K5", f"the {_pile_name(src_index)} has {up} face-up card{'s' if up != 1 else ''}; face-down cards never move"
            )
        moving = pile[len(pile) - count :]
        for lower, upper in zip(moving[1:], moving):
            if lower.rank != upper.rank - 1 or lower.red == upper.red:
                return Illegal(move, "K5", f"{lower.name} on {upper.name} is not a run, so they cannot move together")
        src_kind = "tableau"
    else:
        suit = _FOUNDATION_SOURCES.get(src)
        if suit is None:
            raise NotationError(f"unknown pile {src!r}")
        if not rules.foundation_to_tableau:
            return Illegal(move, "K11", "cards may not come back from a foundation (foundation_to_tableau=false)")
        src_index = SUIT_INDEX[suit]
        top = state.foundations[src_index]
        if top == 0:
            return Illegal(move, "K7", f"the {SUIT_NAMES[suit]} foundation is empty")
        if count != 1:
            return Illegal(move, "K7", "only the top card of a foundation can come back, one at a time")
        moving = (card_of(top, suit),)
        src_kind = "foundation"

    lead = moving[0]
    # Where it goes.
    if dst == "foundation":
        if src_kind == "foundation":
            return Illegal(move, "K7", f"{lead.name} is already on its foundation")
        if count != 1:
            return Illegal(move, "K7", "only a single free card goes to a foundation, not a run")
        need = state.foundations[SUIT_INDEX[lead.suit]] + 1
        if lead.rank != need:
            if need == 1:
                why = f"the {SUIT_NAMES[lead.suit]} foundation is empty and must start with the ace"
            elif need > 13:
                why = f"the {SUIT_NAMES[lead.suit]} foundation is complete"
            else:
                why = f"the {SUIT_NAMES[lead.suit]} foundation needs the {rank_name(need)} of {SUIT_NAMES[lead.suit]} next"
            return Illegal(move, "K7", f"{lead.name} cannot go up: {why}")
        return _Plan(moving, src_kind, src_index, "foundation", SUIT_INDEX[lead.suit])

    dst_index = _TABLEAU_NAMES.get(dst)
    if dst_index is None:
        raise NotationError(f"unknown pile {dst!r}")
    if dst_index >= rules.columns:
        return Illegal(move, "K2", f"there is no {_pile_name(dst_index)} with {rules.columns} columns")
    if src_kind == "tableau" and dst_index == src_index:
        return Illegal(move, "K4", f"{lead.name} is already on the {_pile_name(dst_index)}")
    if src_kind == "tableau" and not rules.partial_runs:
        up = len(state.tableau[src_index]) - state.hidden[src_index]
        if count != up:
            return Illegal(
                move, "K5", f"all {up} face-up cards of the {_pile_name(src_index)} move together (partial_runs=false)"
            )
    target = state.tableau[dst_index]
    if not target:
        if lead.rank != 13:
            return Illegal(move, "K8", f"only a king may go into an empty space, and {lead.name} is not a king")
    else:
        under = target[-1]
        if lead.rank != under.rank - 1:
            want = f"a {'black' if under.red else 'red'} {rank_name(under.rank - 1)}" if under.rank > 1 else "nothing"
            return Illegal(move, "K4", f"{lead.name} cannot go on {under.name}, which takes {want}")
        if lead.red == under.red:
            return Illegal(move, "K4", f"{lead.name} is {_colour(lead)} like {under.name}")
    return _Plan(moving, src_kind, src_index, "tableau", dst_index)


def _check_aces_up(state: KlondikeState, move: Move) -> Illegal | None:
    """K12: while an ace is free, the only allowed move is an ace going up."""
    free = [p[-1] for p in state.tableau if p and p[-1].rank == 1]
    if state.waste and state.waste[-1].rank == 1:
        free.append(state.waste[-1])
    if not free:
        return None
    if move.op == "move" and move.dst == "foundation" and move.count == 1:
        if move.src == "waste" and state.waste and state.waste[-1].rank == 1:
            return None
        i = _TABLEAU_NAMES.get(move.src)
        if i is not None and i < len(state.tableau) and state.tableau[i] and state.tableau[i][-1].rank == 1:
            return None
    names = " and ".join(c.name for c in free)
    return Illegal(move, "K12", f"{names} {'is' if len(free) == 1 else 'are'} free and must go to a foundation first")


def _recycle_refusal(state: KlondikeState, move: Move) -> Illegal | None:
    if state.stock:
        n = len(state.stock)
        return Illegal(move, "K10", f"the stock still holds {n} card{'s' if n != 1 else ''}; turn the waste over only when it is empty")
    if not state.waste:
        return Illegal(move, "K10", "the stock and the waste are both empty: there is nothing to turn over")
    left = state.passes_left
    if left is not None and left <= 0:
        passes = state.rules.passes
        return Illegal(move, "K10", f"only {passes} pass{'es' if passes != 1 else ''} through the stock {'are' if passes != 1 else 'is'} allowed")
    return None


# --- applying ------------------------------------------------------------------------------------

# Standard (Windows) points by (from, to), K14.
_POINTS = {
    ("waste", "tableau"): 5,
    ("waste", "foundation"): 10,
    ("tableau", "foundation"): 10,
    ("foundation", "tableau"): -15,
    ("tableau", "tableau"): 0,
}
TURN_UP_POINTS = 5


def apply(state: KlondikeState, move: Move) -> Legal[KlondikeState] | Illegal:
    """Judge ``move`` in ``state``. Legal: the next position, score change and what followed (a card
    turned up, K6; the win, K13). Illegal: the rule and the reason; ``state`` is unchanged."""
    if move.t is not None and move.t < state.time:
        raise NotationError(f"move time t={move.t} is before the previous move's t={state.time}")
    checked = _check(state, move)
    if isinstance(checked, Illegal):
        return checked
    return _carry_out(state, move, checked)


def apply_by_hand(state: KlondikeState, move: Move) -> Legal[KlondikeState] | None:
    """``move`` carried out as a hand made it, rules ignored, and scored as the move would be: a person
    overruled the referee's verdict on it (a card misread, or the players play it so), and the game
    goes on with the cards where they lie. None when the position cannot hold it: nothing to lift,
    or a card laid up out of order (a foundation holds its suit's cards from the ace up: its rank)."""
    if move.t is not None and move.t < state.time:
        raise NotationError(f"move time t={move.t} is before the previous move's t={state.time}")
    if move.op == "draw":
        return _carry_out(state, move, None) if state.stock else None
    if move.op == "recycle":
        return _carry_out(state, move, None) if state.waste and not state.stock else None
    src, dst, count = move.src, move.dst, move.count
    if src == "waste":
        if not state.waste or count != 1:
            return None
        moving, src_kind, src_index = state.waste[-1:], "waste", 0
    elif src in _TABLEAU_NAMES:
        src_index, src_kind = _TABLEAU_NAMES[src], "tableau"
        if src_index >= state.rules.columns or not 0 < count <= len(state.tableau[src_index]) - state.hidden[src_index]:
            return None
        moving = state.tableau[src_index][-count:]
    elif src in _FOUNDATION_SOURCES:
        src_index, src_kind = SUIT_INDEX[_FOUNDATION_SOURCES[src]], "foundation"
        if not state.foundations[src_index] or count != 1:
            return None
        moving = (card_of(state.foundations[src_index], _FOUNDATION_SOURCES[src]),)
    else:
        return None
    if dst == "foundation":
        lead = moving[0]
        if src_kind == "foundation" or count != 1 or lead.rank != state.foundations[SUIT_INDEX[lead.suit]] + 1:
            return None
        return _carry_out(state, move, _Plan(moving, src_kind, src_index, "foundation", SUIT_INDEX[lead.suit]))
    dst_index = _TABLEAU_NAMES.get(dst)
    if dst_index is None or dst_index >= state.rules.columns or (src_kind == "tableau" and dst_index == src_index):
        return None
    return _carry_out(state, move, _Plan(moving, src_kind, src_index, "tableau", dst_index))


def _carry_out(state: KlondikeState, move: Move, checked: _Plan | None) -> Legal[KlondikeState]:
    """The position after a move (``checked``: its plan, None for a draw or recycle), scored."""
    rules = state.rules
    standard = rules.scoring == "standard"
    events: list[Event] = []
    points = 0
    tableau, hidden, stock, waste = state.tableau, state.hidden, state.stock, state.waste
    foundations, recycles = state.foundations, state.recycles

    if checked is None:
        if move.op == "draw":
            n = rules.draw
            waste = waste + stock[:n]
            stock = stock[n:]
        else:
            recycles += 1
            stock, waste = waste, ()
            if standard:
                if rules.draw == 1:
                    points = -100
                elif recycles >= rules.recycle_free_passes:
                    points = -20
    else:
        plan = checked
        n = len(plan.cards)
        if plan.src_kind == "waste":
            waste = waste[:-1]
        elif plan.src_kind == "tableau":
            i = plan.src_index
            rest = tableau[i][:-n]
            h = hidden[i]
            tableau = tableau[:i] + (rest,) + tableau[i + 1 :]
            if rest and h >= len(rest):
                h = len(rest) - 1
                hidden = hidden[:i] + (h,) + hidden[i + 1 :]
                events.append(Event("turned_up", t=move.t, pile=f"t{i + 1}", cards=(rest[-1],)))
                points += TURN_UP_POINTS
        else:
            f = list(foundations)
            f[plan.src_index] -= 1
            foundations = (f[0], f[1], f[2], f[3])
        if plan.dst_kind == "foundation":
            f = list(foundations)
            f[plan.dst_index] += 1
            foundations = (f[0], f[1], f[2], f[3])
        else:
            j = plan.dst_index
            tableau = tableau[:j] + (tableau[j] + plan.cards,) + tableau[j + 1 :]
        points += _POINTS[(plan.src_kind, plan.dst_kind)]

    time = state.time if move.t is None else move.t
    ticks = state.ticks
    score = state.score
    if _vegas(rules):
        score = state.carry - 52 + 5 * sum(foundations)
    elif standard:
        if rules.timed and move.t is not None:
            ticks = int(time) // 10
            score = max(0, score - 2 * (ticks - state.ticks))
        score = max(0, score + points)
    won = foundations == (13, 13, 13, 13)
    if won and not state.won:
        if standard and rules.timed and int(time) > 30:
            score += 700_000 // int(time)
        events.append(Event("won", t=move.t))
    after = KlondikeState(
        rules, tableau, hidden, stock, waste, foundations, recycles, score, time, ticks, state.carry
    )
    return Legal(move, after, score - state.score, tuple(events))


def is_legal(state: KlondikeState, move: Move) -> bool:
    return not isinstance(_check(state, move), Illegal)


# --- listing -------------------------------------------------------------------------------------


def _candidates(state: KlondikeState) -> Iterator[Move]:
    rules = state.rules
    if state.stock:
        yield Move.draw()
    else:
        yield Move.recycle()
    dests = [f"t{j + 1}" for j in range(rules.columns)]
    if state.waste:
        yield Move.move("waste", "foundation")
        for d in dests:
            yield Move.move("waste", d)
    for i in range(rules.columns):
        up = len(state.tableau[i]) - state.hidden[i]
        if up == 0:
            continue
        name = f"t{i + 1}"
        yield Move.move(name, "foundation")
        counts = range(1, up + 1) if rules.partial_runs else (up,)
        for count in counts:
            for d in dests:
                if d != name:
                    yield Move.move(name, d, count)
    if rules.foundation_to_tableau:
        for k, s in enumerate(SUITS):
            if state.foundations[k]:
                for d in dests:
                    yield Move.move(f"foundation:{s}", d)


def legal_moves(state: KlondikeState) -> Iterator[Move]:
    """Every legal move in ``state``, lazily (draw or recycle first, then card moves)."""
    for move in _candidates(state):
        if not isinstance(_check(state, move), Illegal):
            yield move


# --- the end -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``won`` (K13: all 52 up) or ``lost`` (no useful move left)."""

    result: str
    reason: str


SEARCH_LIMIT = 4000


def stock_cards_in_reach(state: KlondikeState) -> set[Card]:
    """Every card that can become the playable waste top by drawing and recycling alone (within the
    passes left), with nothing played in between."""
    rules = state.rules
    stock, waste, left = state.stock, state.waste, state.passes_left
    reach: set[Card] = {waste[-1]} if waste else set()
    seen: set[tuple[int, int]] = set()
    while True:
        if stock:
            n = rules.draw
            stock, waste = stock[n:], waste + stock[:n]
            reach.add(waste[-1])
        elif waste and (left is None or left > 0):
            stock, waste = waste, ()
            left = None if left is None else left - 1
        else:
            return reach
        position = (len(stock), len(waste))
        if position in seen and left is None:
            return reach
        seen.add(position)


def _fits_somewhere(state: KlondikeState, c: Card) -> bool:
    if state.foundations[SUIT_INDEX[c.suit]] == c.rank - 1:
        return True
    for pile in state.tableau[: state.rules.columns]:
        if not pile:
            if c.rank == 13:
                return True
        elif pile[-1].rank == c.rank + 1 and pile[-1].red != c.red:
            return True
    return False


def has_useful_move(state: KlondikeState, limit: int = SEARCH_LIMIT) -> bool:
    """K13 without crying wolf: is there a sequence of legal moves that makes progress?

    Progress is a card turned face up, a card taken out of stock and waste, or more cards on the
    foundations than now. Moves that only shift cards back and forth (a king between empty spaces, a
    run from one 8 to the other, a card down from a foundation and back) are explored, not counted: a
    breadth-first search runs over the tableau arrangements they reach, and in each one asks whether a
    progress move exists, including any stock card that drawing and recycling can bring to the top.
    Stock cycling and tableau shuffles do not interfere, so the two are searched apart. Should the
    search outgrow ``limit`` arrangements it answers yes: "no moves left" is called only when certain.
    """
    in_reach = frozenset(stock_cards_in_reach(state))
    return _arrangements_progress(state.tableau, state.hidden, state.foundations, in_reach, state.rules, limit)


@functools.lru_cache(maxsize=2048)
def _arrangements_progress(
    tableau: tuple[tuple[Card, ...], ...],
    hidden: tuple[int, ...],
    foundations: tuple[int, int, int, int],
    in_reach: frozenset[Card],
    original_rules: KlondikeRules,
    limit: int,
) -> bool:
    # Cached: a replay that goes on drawing after a loss asks the same question again and again.
    # K12 only ever forces a move that is progress itself (an ace going up), so it is left out here.
    rules = replace(original_rules, aces_up_at_once=False, draw=1, passes=None)
    start = KlondikeState(rules, tableau, hidden, (), (), foundations)
    up_now = sum(foundations)
    seen = {(start.tableau, start.foundations)}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        if any(_fits_somewhere(current, c) for c in in_reach):
            return True
        for move in legal_moves(current):
            if move.op != "move":
                continue
            verdict = apply(current, move)
            assert isinstance(verdict, Legal)
            nxt = verdict.state
            if verdict.events or sum(nxt.foundations) > up_now:
                return True
            key = (nxt.tableau, nxt.foundations)
            if key not in seen:
                if len(seen) >= limit:
                    return True
                seen.add(key)
                queue.append(nxt)
    return False


def outcome(state: KlondikeState) -> Outcome | None:
    """``won``, ``lost`` or None while the game goes on.

    RULES.md K13 also calls a game lost when the agreed passes are used up; we read that as "the stock
    can bring nothing new", which the search already respects: a waste card that can still be played
    after the last pass keeps the game going.
    """
    if state.won:
        return Outcome("won", "all 52 cards are on the foundations")
    if not has_useful_move(state):
        return Outcome("lost", "no useful move is left and the stock can bring nothing new")
    return None


def replay(state: KlondikeState, moves: Sequence[Move]) -> KlondikeState:
    """Apply moves that must all be legal (for tests and recorded games); raises on the first illegal."""
    for move in moves:
        verdict = apply(state, move)
        if isinstance(verdict, Illegal):
            raise ValueError(f"illegal move {move} : {verdict}")
        state = verdict.state
    return state


__all__ = [
    "Deal",
    "KlondikeRules",
    "KlondikeState",
    "Move",
    "OptionError",
    "Outcome",
    "apply",
    "deal",
    "has_useful_move",
    "is_legal",
    "legal_moves",
    "new_game",
    "outcome",
    "replay",
]
