"""Double Solitaire (K17): own layouts, shared foundations, turns, the winner, cards back to owners."""

from __future__ import annotations

from dataclasses import replace

from referee import double_solitaire as ds
from referee.cards import DECK, card, cards
from referee.double_solitaire import DoubleMove, DoubleState, FoundationCard
from referee.klondike import KlondikeRules, KlondikeState, Move
from referee.verdict import Illegal, Legal

M = Move.move


def layout(piles: list[str], stock: str = "", waste: str = "", draw: int = 1) -> KlondikeState:
    r = replace(KlondikeRules.make(draw=draw), scoring="none")
    tableau, hidden = [], []
    for text in piles + [""] * (7 - len(piles)):
        down, _, up = text.rpartition("|")
        tableau.append(cards(down) + cards(up))
        hidden.append(len(cards(down)))
    return KlondikeState(r, tuple(tableau), tuple(hidden), cards(stock), cards(waste))


def game(a: KlondikeState, b: KlondikeState, foundations: tuple[tuple[FoundationCard, ...], ...] = (), turn: int = 0) -> DoubleState:
    return DoubleState(a.rules, (a, b), foundations, turn)


def ok(state: DoubleState, player: int, move: Move) -> Legal[DoubleState]:
    v = ds.apply(state, DoubleMove(player, move))
    assert isinstance(v, Legal), str(v)
    return v


def test_deal_gives_each_player_an_own_full_layout() -> None:
    a, b = ds.deal(9)
    assert a != b and ds.deal(9) == (a, b)
    s = ds.new_game((a, b))
    for lay in s.layouts:
        assert len({c for p in lay.tableau for c in p} | set(lay.stock)) == 52
        assert lay.hidden == (0, 1, 2, 3, 4, 5, 6)


def test_players_take_turns() -> None:
    s = game(layout(["|9C"], stock="5H 8D"), layout(["|9S"], stock="8H"))
    v = ds.apply(s, DoubleMove(1, Move.draw()))
    assert isinstance(v, Illegal) and v.rule == "K17" and "player 1's turn" in v.reason


def test_turn_ends_when_the_turned_card_cannot_be_placed() -> None:
    s = game(layout(["|9C"], stock="5H 8D"), layout(["|9S"], stock="8H"))
    v = ok(s, 0, Move.draw())
    assert v.state.turn == 1
    assert [e.kind for e in v.events] == ["turn_over"] and v.events[0].cards == (card("5H"),)
    # the other player's turned card fits: the turn stays
    v = ok(v.state, 1, Move.draw())
    assert v.state.turn == 1 and not v.events
    v = ok(v.state, 1, M("waste", "t1"))
    assert v.state.layouts[1].tableau[0] == cards("9S 8H")


def test_foundations_are_shared_and_remember_their_owner() -> None:
    s = game(layout(["|AH", "|3H"], stock="QS"), layout(["|2H"], stock="KS"))
    s = ok(s, 0, M("t1", "foundation")).state
    s = ok(s, 0, Move.draw()).state  # the queen of spades goes nowhere: player 2's turn
    assert s.turn == 1
    s = ok(s, 1, M("t1", "foundation")).state  # on player 1's ace
    assert [fc.owner for fc in s.foundations[0]] == [0, 1]
    assert s.returned_cards() == ((card("AH"),), (card("2H"),))


def test_two_decks_give_two_foundations_per_suit() -> None:
    s = game(layout(["|AH"]), layout(["|AH"]), foundations=((FoundationCard(card("AH"), 1),),))
    s = ok(s, 0, M("t1", "foundation")).state
    assert len(s.foundations) == 2


def test_never_on_the_other_players_tableau_and_only_own_cards_come_back() -> None:
    f = ((FoundationCard(card("AS"), 1), FoundationCard(card("2S"), 1)),)
    s = game(layout(["|3H"]), layout(["|9C"]), foundations=f)
    v = ds.apply(s, DoubleMove(0, M("f1", "t1")))
    assert isinstance(v, Illegal) and v.rule == "K17" and "belongs to player 2" in v.reason


def test_tableau_rules_are_klondike_rules() -> None:
    s = game(layout(["|9D", "|8H"]), layout([]))
    v = ds.apply(s, DoubleMove(0, M("t2", "t1")))
    assert isinstance(v, Illegal) and v.rule == "K4"


def test_first_to_play_all_52_own_cards_wins() -> None:
    mine = [FoundationCard(c, 0) for c in DECK if c != card("KH")]
    piles = tuple(tuple(fc for fc in mine if fc.card.suit == s) for s in "SHDC")
    s = game(layout(["|KH"]), layout(["|9C"]), foundations=piles)
    v = ok(s, 0, M("t1", "foundation"))
    assert v.state.winner == 0 and v.events[-1].kind == "won"
    assert ds.summary(v.state)["winner"] == 1
    after = ds.apply(v.state, DoubleMove(0, Move.draw()))
    assert isinstance(after, Illegal) and "over" in after.reason


def test_random_play_keeps_both_decks_whole() -> None:
    import random

    rng = random.Random(3)
    s = ds.new_game(ds.deal(4))
    for _ in range(400):
        moves = list(ds.legal_moves(s))
        if not moves:
            break
        v = ds.apply(s, rng.choice(moves))
        assert isinstance(v, Legal), str(v)
        s = v.state
        back = s.returned_cards()
        for p in (0, 1):
            lay = s.layouts[p]
            held = [c for pile in lay.tableau for c in pile] + list(lay.stock) + list(lay.waste) + list(back[p])
            assert sorted(held, key=DECK.index) == list(DECK)
