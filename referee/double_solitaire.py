"""Double Solitaire (RULES.md K17): two players, own decks and tableaus, shared foundations, turns.

Each player's own layout (tableau, stock, waste) is a :class:`~referee.klondike.KlondikeState`, so every
tableau rule (K4-K10) is judged by the Klondike engine itself. What is new here: up to eight shared
foundation piles (two decks, so two of each ace), whose cards remember their owner (by back design);
whose turn it is; the first player to get all 52 own cards up wins.

Foundation piles are named ``f1`` .. ``f8`` in the order they were started. ``to: "foundation"`` picks
the first pile the card fits (or starts a new one with an ace).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Iterable, Iterator

from . import klondike
from .cards import Card
from .klondike import SUIT_INDEX, KlondikeRules, KlondikeState, Move, _parse_passes
from .options import int_choice, option, parse_bool, parse_options, to_spec
from .verdict import Event, Illegal, Legal, NotationError

PLAYERS = 2
MAX_FOUNDATIONS = 8


@dataclass(frozen=True, slots=True)
class DoubleRules:
    """Double Solitaire's options: the Klondike ones that apply to each player's own layout, with their
    defaults (RULES.md K17 names no others); seven columns, no score (the first to play all 52 cards up
    wins)."""

    draw: int = option(3, int_choice(1, 3), "K9: cards turned from the stock at a time (1 or 3)")
    passes: int | None = option(None, _parse_passes, "K10: passes through the stock: unlimited, 3 or 1")
    foundation_to_tableau: bool = option(True, parse_bool, "K11: own cards may come back from a foundation")
    partial_runs: bool = option(True, parse_bool, "K5: any lower part of a run may be lifted")

    @classmethod
    def from_spec(cls, spec: str = "") -> "DoubleRules":
        """``"draw=1,passes=3"``; unknown keys or values raise :class:`~referee.options.OptionError`."""
        return cls(**parse_options(cls, spec))

    @property
    def klondike(self) -> KlondikeRules:
        """Each player's layout's rules, as the engine judges them."""
        return KlondikeRules.make(draw=self.draw, passes=self.passes, foundation_to_tableau=self.foundation_to_tableau,
                                  partial_runs=self.partial_runs, scoring="none")

    @property
    def players(self) -> int:
        return PLAYERS

    @property
    def columns(self) -> int:
        return 7

    def spec(self) -> str:
        return to_spec(self).replace("passes=None", "passes=unlimited")


@dataclass(frozen=True, slots=True)
class FoundationCard:
    card: Card
    owner: int


@dataclass(frozen=True, slots=True)
class DoubleMove:
    """A move by ``player`` (0 or 1). Foundation sources are ``f1`` .. ``f8``."""

    player: int
    move: Move

    def __str__(self) -> str:
        return f"player {self.player + 1}: {self.move}"

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, **self.move.to_json()}

    @staticmethod
    def from_json(obj: Any) -> "DoubleMove":
        """A move line of Klondike's notation with its ``player`` (0 or 1); a shared foundation pile as
        a source is ``f1`` .. ``f8``. Raises :class:`NotationError` if malformed."""
        if not isinstance(obj, dict):
            raise NotationError(f"a move must be a JSON object, got {obj!r}")
        player = obj.get("player")
        if isinstance(player, bool) or player not in (0, 1):
            raise NotationError(f"a move needs a 'player': 0 or 1 (players count from 0), got {player!r}")
        rest = {k: v for k, v in obj.items() if k != "player"}
        src = rest.get("from")
        if isinstance(src, str) and src[:1] == "f" and src[1:].isdigit():
            if not 1 <= int(src[1:]) <= MAX_FOUNDATIONS:
                raise NotationError(f"'from' names foundation piles f1..f{MAX_FOUNDATIONS}, got {src!r}")
            move = Move.from_json({**rest, "from": "foundation:S"})
            return DoubleMove(player, replace(move, src=src))
        return DoubleMove(player, Move.from_json(rest))


@dataclass(frozen=True, slots=True)
class DoubleState:
    rules: KlondikeRules
    layouts: tuple[KlondikeState, KlondikeState]
    foundations: tuple[tuple[FoundationCard, ...], ...] = ()
    turn: int = 0
    winner: int | None = None

    def cards_up(self, player: int) -> int:
        return sum(1 for pile in self.foundations for fc in pile if fc.owner == player)

    def to_json(self) -> dict[str, Any]:
        """A plain picture of the position, for logs and the web app: each player's layout as
        Klondike's, the shared foundation piles (bottom to top, in the order they were started)."""
        players = []
        for p, layout in enumerate(self.layouts):
            picture = layout.to_json()
            picture.pop("foundations", None)
            players.append({**picture, "cards_up": self.cards_up(p)})
        return {"players": players, "foundations": [[fc.card.code for fc in pile] for pile in self.foundations],
                "turn": self.turn + 1, "winner": None if self.winner is None else self.winner + 1}

    def returned_cards(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """K17: at the end, foundation cards go back to their owners (told apart by their backs)."""
        mine = tuple(tuple(fc.card for pile in self.foundations for fc in pile if fc.owner == p) for p in range(PLAYERS))
        return mine[0], mine[1]


def deal(seed: int) -> tuple[klondike.Deal, klondike.Deal]:
    """Two independently shuffled decks, one per player; the same seed gives the same deals."""
    rng = random.Random(seed)
    return klondike.deal(rng.randrange(2**31)), klondike.deal(rng.randrange(2**31))


def new_game(deals: tuple[klondike.Deal, klondike.Deal], rules: KlondikeRules | None = None) -> DoubleState:
    rules = replace(rules or KlondikeRules.make(), scoring="none", columns=7)
    a, b = (klondike.new_game(d, rules) for d in deals)
    return DoubleState(rules, (a, b))


def _foundation_for(state: DoubleState, c: Card) -> int | None:
    """The index of the first foundation pile ``c`` may go on; ``len(foundations)`` for a new pile."""
    for i, pile in enumerate(state.foundations):
        top = pile[-1].card
        if top.suit == c.suit and top.rank == c.rank - 1:
            return i
    if c.rank == 1 and len(state.foundations) < MAX_FOUNDATIONS:
        return len(state.foundations)
    return None


def _free_card(layout: KlondikeState, src: str) -> Card | None:
    if src == "waste":
        return layout.waste[-1] if layout.waste else None
    i = klondike._TABLEAU_NAMES.get(src)
    if i is None or i >= len(layout.tableau) or not layout.tableau[i]:
        return None
    return layout.tableau[i][-1]


def _as_if(layout: KlondikeState, suit: str, rank: int) -> KlondikeState:
    """The layout with its (unused) own foundation of ``suit`` set to ``rank``, so the Klondike engine
    judges a card going onto or coming off a shared pile with its own K6/K7 logic."""
    f = [0, 0, 0, 0]
    f[SUIT_INDEX[suit]] = rank
    return replace(layout, foundations=(f[0], f[1], f[2], f[3]))


def apply(state: DoubleState, dmove: DoubleMove, turn_passing: bool = True) -> Legal[DoubleState] | Illegal:
    """Judge one player's move; turns pass as K17 says and the first to get 52 cards up wins.
    ``turn_passing=False``: the turn stays with the mover whatever the move leaves (the live referee,
    when the camera has not read the card a draw turned, settles it later with :func:`turn_over`)."""
    player = dmove.player
    if player not in (0, 1):
        raise NotationError(f"player must be 0 or 1, got {player!r}")
    if state.winner is not None:
        return Illegal(dmove, "K17", f"the game is over: player {state.winner + 1} has won")
    if player != state.turn:
        return Illegal(dmove, "K17", f"it is player {state.turn + 1}'s turn, not player {player + 1}'s")
    verdict = _judge(state, dmove)
    if isinstance(verdict, Illegal):
        return verdict
    return finish_move(verdict.state, dmove, verdict.events, turn_passing)


def finish_move(after: DoubleState, dmove: DoubleMove, events: Iterable[Event] = (), turn_passing: bool = True
                ) -> Legal[DoubleState]:
    """``dmove`` as it left ``after`` (with the ``events`` it brought), and what follows it: the win,
    or the turn passing as K17 says (``turn_passing``: as for :func:`apply`)."""
    player, move, events = dmove.player, dmove.move, list(events)
    if after.cards_up(player) == 52:
        after = replace(after, winner=player)
        events.append(Event("won", t=move.t, player=player, detail=f"player {player + 1} has played all 52 cards"))
    elif turn_passing and (over := turn_over(after, player, move)) is not None:
        after = replace(after, turn=1 - player)
        events.append(over)
    return Legal(dmove, after, 0, tuple(events))


def turn_over(state: DoubleState, player: int, move: Move) -> Event | None:
    """K17: the event that ends ``player``'s turn, when ``move`` left ``state`` so: a card turned from
    the stock that cannot be placed, or no legal move left. None: the turn goes on."""
    if move.op == "draw" and not placeable(state, player):
        turned = state.layouts[player].waste[-1]
        return Event("turn_over", t=move.t, player=player, cards=(turned,), detail=f"{turned.name} cannot be placed")
    if not any(True for _ in legal_moves(state)):
        return Event("turn_over", t=move.t, player=player, detail="no move left")
    return None


def _judge(state: DoubleState, dmove: DoubleMove) -> Legal[DoubleState] | Illegal:
    """The move itself, for whoever makes it: no turn, win or turn-passing logic."""
    player, move = dmove.player, dmove.move
    layout = state.layouts[player]
    foundations = state.foundations

    if move.op == "move" and move.dst == "foundation":
        c = _free_card(layout, move.src) if move.count == 1 else None
        if c is None:
            verdict = klondike.apply(layout, move)  # the Klondike engine names what is wrong
            if isinstance(verdict, Illegal):
                return Illegal(dmove, verdict.rule, verdict.reason)
            return Illegal(dmove, "K7", "only a single free card goes to a foundation")
        target = _foundation_for(state, c)
        if target is None:
            return Illegal(dmove, "K7", f"{c.name} fits none of the shared foundations")
        verdict = klondike.apply(_as_if(layout, c.suit, c.rank - 1), move)
        if isinstance(verdict, Illegal):
            return Illegal(dmove, verdict.rule, verdict.reason)
        new_layout = replace(verdict.state, foundations=(0, 0, 0, 0))
        pile = (foundations[target] if target < len(foundations) else ()) + (FoundationCard(c, player),)
        foundations = foundations[:target] + (pile,) + foundations[target + 1 :]
    elif move.op == "move" and move.src.startswith("f") and move.src[1:].isdigit():
        index = int(move.src[1:]) - 1
        if not 0 <= index < len(foundations):
            return Illegal(dmove, "K7", f"there is no foundation pile {move.src}")
        top = foundations[index][-1]
        if top.owner != player:
            return Illegal(dmove, "K17", f"{top.card.name} belongs to player {top.owner + 1}; take back only your own cards")
        as_klondike = Move.move(f"foundation:{top.card.suit}", move.dst, move.count, move.t)
        verdict = klondike.apply(_as_if(layout, top.card.suit, top.card.rank), as_klondike)
        if isinstance(verdict, Illegal):
            return Illegal(dmove, verdict.rule, verdict.reason)
        new_layout = replace(verdict.state, foundations=(0, 0, 0, 0))
        rest = foundations[index][:-1]
        foundations = foundations[:index] + ((rest,) if rest else ()) + foundations[index + 1 :]
    else:
        if move.op == "move" and move.src.startswith("foundation"):
            raise NotationError(f"Double Solitaire names foundation piles f1..f8, not {move.src!r}")
        verdict = klondike.apply(layout, move)
        if isinstance(verdict, Illegal):
            return Illegal(dmove, verdict.rule, verdict.reason)
        new_layout = verdict.state
    events = tuple(replace(e, player=player) for e in verdict.events if e.kind == "turned_up")
    layouts = (new_layout, state.layouts[1]) if player == 0 else (state.layouts[0], new_layout)
    return Legal(dmove, DoubleState(state.rules, layouts, foundations, state.turn, None), 0, events)


def placeable(state: DoubleState, player: int, columns: Iterable[int] | None = None) -> bool:
    """Can the card just turned from the stock go anywhere: a shared foundation or one of the player's
    ``columns`` (indices; default all)?"""
    layout = state.layouts[player]
    c = layout.waste[-1]
    if _foundation_for(state, c) is not None:
        return True
    columns = range(layout.rules.columns) if columns is None else columns
    return any(klondike.is_legal(layout, Move.move("waste", f"t{j + 1}")) for j in columns)


def legal_moves(state: DoubleState) -> Iterator[DoubleMove]:
    """Every legal move for the player whose turn it is."""
    if state.winner is not None:
        return
    player = state.turn
    layout = state.layouts[player]
    for move in klondike.legal_moves(layout):
        if move.dst != "foundation" and not move.src.startswith("foundation"):
            yield DoubleMove(player, move)
    for src in ["waste"] + [f"t{j + 1}" for j in range(layout.rules.columns)]:
        c = _free_card(layout, src)
        if c is not None and _foundation_for(state, c) is not None:
            dm = DoubleMove(player, Move.move(src, "foundation"))
            if isinstance(_judge(state, dm), Legal):
                yield dm


def summary(state: DoubleState) -> dict[str, Any]:
    """Cards up per player, the winner, and (at the end) who gets which foundation cards back."""
    back = state.returned_cards()
    return {
        "turn": state.turn + 1,
        "cards_up": [state.cards_up(p) for p in range(PLAYERS)],
        "winner": None if state.winner is None else state.winner + 1,
        "foundation_cards_by_owner": [[c.code for c in back[p]] for p in range(PLAYERS)],
    }

