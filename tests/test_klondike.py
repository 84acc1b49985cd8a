"""Klondike engine: every rule id (K2-K16) and every option both ways, scoring, the end of a game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee import klondike
from referee.cards import card, cards
from referee.klondike import KlondikeRules, KlondikeState, Move
from referee.options import OptionError
from referee.verdict import Illegal, Legal, NotationError


def pos(
    piles: list[str],
    stock: str = "",
    waste: str = "",
    foundations: str = "",
    score: int = 0,
    **rules: object,
) -> KlondikeState:
    """A position from text: each pile ``"down cards | up cards"`` (bottom to top), stock top first,
    waste bottom to top, foundations as the top cards (``"3H AS"``)."""
    r = KlondikeRules.make(**rules)
    tableau, hidden = [], []
    for text in piles + [""] * (r.columns - len(piles)):
        down, _, up = text.rpartition("|")
        tableau.append(cards(down) + cards(up))
        hidden.append(len(cards(down)))
    f = [0, 0, 0, 0]
    for c in cards(foundations):
        f["SHDC".index(c.suit)] = c.rank
    return KlondikeState(r, tuple(tableau), tuple(hidden), cards(stock), cards(waste), (f[0], f[1], f[2], f[3]), score=score)


def legal(state: KlondikeState, move: Move) -> Legal[KlondikeState]:
    verdict = klondike.apply(state, move)
    assert isinstance(verdict, Legal), f"expected legal, got {verdict}"
    return verdict


def illegal(state: KlondikeState, move: Move, rule: str) -> Illegal:
    verdict = klondike.apply(state, move)
    assert isinstance(verdict, Illegal), f"expected {rule}, got a legal move"
    assert verdict.rule == rule, str(verdict)
    return verdict


M = Move.move


# --- setup: K1-K3, K16 -------------------------------------------------------------------------


def test_deal_is_a_full_shuffled_deck_in_piles_of_1_to_7_and_24_in_stock() -> None:
    d = klondike.deal(42)
    assert [len(p) for p in d.tableau] == [1, 2, 3, 4, 5, 6, 7]
    assert len(d.stock) == 24
    assert len({c for p in d.tableau for c in p} | set(d.stock)) == 52
    assert klondike.deal(42) == d and klondike.deal(43) != d


def test_new_game_shows_only_the_top_card_of_each_pile() -> None:
    s = klondike.new_game(klondike.deal(1))
    assert s.hidden == (0, 1, 2, 3, 4, 5, 6)
    assert all(len(s.face_up(i)) == 1 for i in range(7))
    assert s.waste == () and s.foundations == (0, 0, 0, 0)


def test_eight_columns_deal_and_defaults_K16() -> None:
    d = klondike.deal(5, columns=8)
    assert [len(p) for p in d.tableau] == list(range(1, 9)) and len(d.stock) == 16
    r = KlondikeRules.from_spec("columns=8")
    assert r.draw == 1 and r.passes is None
    assert KlondikeRules.from_spec("columns=8,draw=3").draw == 3


def test_deal_must_be_a_full_deck() -> None:
    good = klondike.deal(3).to_json()
    bad = {"tableau": good["tableau"], "stock": good["stock"][:-1]}
    with pytest.raises(NotationError, match="all 52"):
        klondike.Deal.from_json(bad)
    twice = {"tableau": good["tableau"], "stock": good["stock"][:-1] + [good["stock"][0]]}
    with pytest.raises(NotationError, match="more than once"):
        klondike.Deal.from_json(twice)
    with pytest.raises(NotationError):
        klondike.Deal.from_json({"tableau": [["ZZ"]], "stock": []})


def test_columns_on_a_seven_pile_table_K2() -> None:
    s = pos(["|KS"])
    illegal(s, M("t1", "t8"), "K2")


# --- options ---------------------------------------------------------------------------------


def test_defaults_follow_rules_md() -> None:
    r = KlondikeRules.from_spec("")
    assert (r.draw, r.passes, r.foundation_to_tableau, r.partial_runs, r.aces_up_at_once) == (3, None, True, True, False)
    assert (r.columns, r.scoring, r.timed, r.recycle_free_passes) == (7, "standard", False, 3)


def test_vegas_limits_passes_unless_told_K15() -> None:
    assert KlondikeRules.from_spec("scoring=vegas,draw=1").passes == 1
    assert KlondikeRules.from_spec("scoring=vegas").passes == 3
    assert KlondikeRules.from_spec("scoring=vegas,passes=unlimited").passes is None


@pytest.mark.parametrize(
    "spec", ["draw=2", "passes=2", "columns=9", "scoring=golf", "colour=red", "partial_runs=maybe", "draw", "draw=1,draw=3"]
)
def test_bad_options_are_refused(spec: str) -> None:
    with pytest.raises(OptionError):
        KlondikeRules.from_spec(spec)


def test_spec_round_trips() -> None:
    r = KlondikeRules.from_spec("draw=1,passes=3,scoring=vegas,timed=true,columns=8")
    assert KlondikeRules.from_spec(r.spec()) == r


# --- K4 tableau building -------------------------------------------------------------------------


def test_K4_other_colour_one_lower() -> None:
    s = pos(["|9D", "|8S", "|8H"])
    after = legal(s, M("t2", "t1")).state
    assert after.tableau[0] == cards("9D 8S") and after.tableau[1] == ()
    v = illegal(s, M("t3", "t1"), "K4")
    assert v.reason == "the 8 of hearts is red like the 9 of diamonds"


def test_K4_rank_must_be_one_lower() -> None:
    s = pos(["|9D", "|7S"])
    v = illegal(s, M("t2", "t1"), "K4")
    assert "the 7 of spades" in v.reason and "the 9 of diamonds" in v.reason


def test_K4_ace_is_lowest_on_the_tableau() -> None:
    s = pos(["|2D", "|AS", "|KS"])
    legal(s, M("t2", "t1"))
    illegal(pos(["|AS", "|KD"]), M("t2", "t1"), "K4")


# --- K5 runs -------------------------------------------------------------------------------------


def test_K5_a_run_moves_as_a_whole_led_by_its_top_card() -> None:
    s = pos(["4C|10H 9S 8H", "|JC"])
    after = legal(s, M("t1", "t2", 3)).state
    assert after.tableau[1] == cards("JC 10H 9S 8H")


def test_K5_partial_runs_option_both_ways() -> None:
    s = pos(["4C|10H 9S 8H", "|10D"])
    legal(s, M("t1", "t2", 2))
    strict = pos(["4C|10H 9S 8H", "|10D"], partial_runs=False)
    illegal(strict, M("t1", "t2", 2), "K5")
    illegal(strict, M("t1", "t2", 1), "K5")
    # a single top card may still go to a foundation in the Bicycle rules
    legal(pos(["|3S 2H"], foundations="AH", partial_runs=False), M("t1", "foundation"))


def test_K5_face_down_cards_never_move() -> None:
    s = pos(["4C 5D|QH", "|KS"])
    v = illegal(s, M("t1", "t2", 2), "K5")
    assert "face-down" in v.reason


def test_K5_cards_that_are_not_a_run_do_not_move_together() -> None:
    # A foundation card brought back can sit on a run that does not follow K4 beneath it? No: check a
    # hand-made mess as the camera might report it.
    s = pos(["|9S 8H 5C", "|KD"])
    illegal(s, M("t1", "t2", 3), "K5")


def test_K5_empty_source() -> None:
    illegal(pos(["", "|KS"]), M("t1", "t2"), "K5")


# --- K6 turning up -------------------------------------------------------------------------------


def test_K6_face_down_card_is_turned_up_by_itself() -> None:
    s = pos(["3C 4D|QH", "|KS"])
    v = legal(s, M("t1", "t2"))
    assert v.state.hidden[0] == 1 and v.state.face_up(0) == (card("4D"),)
    assert [e.kind for e in v.events] == ["turned_up"] and v.events[0].cards == (card("4D"),)
    assert v.events[0].pile == "t1"
    assert v.score_delta == 5  # K14: turning a card +5; tableau->tableau 0


# --- K7 foundations ------------------------------------------------------------------------------


def test_K7_foundation_starts_with_the_ace_and_builds_in_suit() -> None:
    s = pos(["|AH", "|2H", "|2D"])
    s = legal(s, M("t1", "foundation")).state
    s = legal(s, M("t2", "foundation")).state
    assert s.foundations == (0, 2, 0, 0)
    v = illegal(s, M("t3", "foundation"), "K7")
    assert "ace" in v.reason
    illegal(pos(["|3H"], foundations="AH"), M("t1", "foundation"), "K7")


def test_K7_only_a_free_card_goes_up() -> None:
    s = pos(["|2H AS"], foundations="AH")
    illegal(s, M("t1", "foundation", 2), "K7")
    illegal(pos([], waste="3S 2S", foundations="AS"), M("waste", "foundation", 2), "K9")


def test_K7_foundation_to_foundation_is_refused() -> None:
    illegal(pos([], foundations="2H"), M("foundation:H", "foundation"), "K7")


# --- K8 empty spaces -----------------------------------------------------------------------------


def test_K8_only_a_king_fills_an_empty_space() -> None:
    s = pos(["", "|KH QS", "|QD"], waste="KC")
    legal(s, M("t2", "t1", 2))
    legal(s, M("waste", "t1"))
    v = illegal(s, M("t3", "t1"), "K8")
    assert "the queen of diamonds" in v.reason
    illegal(s, M("t2", "t1"), "K8")  # the queen alone, lifted off the king


# --- K9 the stock --------------------------------------------------------------------------------


def test_K9_draw_three_turns_three_and_only_the_top_plays() -> None:
    s = pos(["|9S"], stock="AC 2C 8D 5S")
    s = legal(s, Move.draw()).state
    assert s.waste == cards("AC 2C 8D") and s.stock == cards("5S")
    illegal(s, M("waste", "foundation"), "K7")  # the ace is under the 8
    s = legal(s, M("waste", "t1")).state  # the 8 of diamonds on the 9 of spades frees the 2
    assert s.waste[-1] == card("2C")
    s = legal(s, Move.draw()).state  # fewer than three left: turns what is there
    assert s.waste == cards("AC 2C 5S") and s.stock == ()


def test_K9_draw_one() -> None:
    s = legal(pos([], stock="AC 2C", draw=1), Move.draw()).state
    assert s.waste == cards("AC") and s.stock == cards("2C")


def test_K9_empty_stock_and_empty_waste() -> None:
    illegal(pos([], waste="AC"), Move.draw(), "K9")
    illegal(pos([]), M("waste", "t1"), "K9")
    illegal(pos(["|2D"], waste="3S AS"), M("waste", "t1", 2), "K9")


# --- K10 passes ----------------------------------------------------------------------------------


def test_K10_recycle_keeps_the_order() -> None:
    s = pos([], stock="AC 2C 3C 4C", draw=1)
    for _ in range(4):
        s = legal(s, Move.draw()).state
    s = legal(s, Move.recycle()).state
    assert s.stock == cards("AC 2C 3C 4C") and s.waste == ()


def test_K10_recycle_only_when_the_stock_is_empty() -> None:
    s = pos([], stock="AC", waste="2C")
    assert "1 card" in illegal(s, Move.recycle(), "K10").reason
    illegal(pos([]), Move.recycle(), "K10")


@pytest.mark.parametrize("passes, recycles_allowed", [("1", 0), ("3", 2), ("unlimited", 10)])
def test_K10_pass_limits(passes: str, recycles_allowed: int) -> None:
    s = pos([], stock="AC 2C", draw=1, passes=klondike._parse_passes(passes))
    for _ in range(recycles_allowed):
        s = legal(s, Move.draw()).state
        s = legal(s, Move.draw()).state
        s = legal(s, Move.recycle()).state
    s = legal(s, Move.draw()).state
    s = legal(s, Move.draw()).state
    if passes != "unlimited":
        assert "allowed" in illegal(s, Move.recycle(), "K10").reason
    else:
        legal(s, Move.recycle())


# --- K11 foundation back to the tableau ------------------------------------------------------------


def test_K11_foundation_to_tableau_both_ways() -> None:
    s = pos(["|6S"], foundations="5H")
    v = legal(s, M("foundation:H", "t1"))
    assert v.state.foundations == (0, 4, 0, 0) and v.state.tableau[0] == cards("6S 5H")
    illegal(pos(["|6S"], foundations="5H", foundation_to_tableau=False), M("foundation:H", "t1"), "K11")
    illegal(pos(["|6H"], foundations="5H"), M("foundation:H", "t1"), "K4")
    illegal(pos([], foundations="5H"), M("foundation:H", "t1"), "K8")
    legal(pos([], foundations="KH"), M("foundation:H", "t1"))
    illegal(pos(["|6S"], foundations="5H"), M("foundation:S", "t1"), "K7")


# --- K12 aces up ---------------------------------------------------------------------------------


def test_K12_aces_up_at_once_both_ways() -> None:
    s = pos(["|AD", "|9C", "|10H"], stock="5S", aces_up_at_once=True)
    v = illegal(s, M("t2", "t3"), "K12")
    assert "the ace of diamonds" in v.reason
    illegal(s, Move.draw(), "K12")
    legal(s, M("t1", "foundation"))
    free = pos(["|AD", "|9C", "|10H"], stock="5S")
    legal(free, M("t2", "t3"))
    legal(free, Move.draw())
    waste_ace = pos(["|9C", "|10H"], waste="AS", aces_up_at_once=True)
    illegal(waste_ace, M("t1", "t2"), "K12")
    legal(waste_ace, M("waste", "foundation"))


def test_K12_applies_to_an_ace_turned_up_by_a_move() -> None:
    s = pos(["AS|9C", "|10H", "|5D"], aces_up_at_once=True)
    s = legal(s, M("t1", "t2")).state
    illegal(s, M("t3", "t1"), "K12")


# --- K13 the end ---------------------------------------------------------------------------------


def test_K13_won_when_all_52_are_up() -> None:
    s = pos(["|KH"], foundations="KS QH KD KC")
    v = legal(s, M("t1", "foundation"))
    assert [e.kind for e in v.events] == ["won"]
    assert klondike.outcome(v.state) == klondike.Outcome("won", "all 52 cards are on the foundations")


def test_K13_lost_when_nothing_useful_is_left() -> None:
    s = pos(["9C|5H", "10D|4H"], foundations="AS")
    out = klondike.outcome(s)
    assert out is not None and out.result == "lost"


def test_K13_no_wolf_while_the_stock_still_holds_a_playable_card() -> None:
    # Nothing plays now, but the 4th card of the stock (reached after a draw of 3) does.
    s = pos(["9C|5H", "10D|4H"], stock="QD JC 3H 2S", draw=3, foundations="AS")
    assert klondike.outcome(s) is None
    # ... only under the pass limit: with one pass, after turning it all, the stock is used up.
    used = pos(["9C|5H", "10D|4H"], waste="QD JC 3H 8D", draw=3, passes=1, foundations="AS")
    assert klondike.outcome(used) is not None


def test_K13_no_wolf_when_a_useful_move_needs_a_detour() -> None:
    # The 5 of hearts from the foundation makes room for the 4 of spades, which frees the 10 of diamonds.
    s = pos(["9C|6S", "10D|4S"], foundations="AS 5H")
    assert klondike.outcome(s) is None


def test_K13_back_and_forth_is_not_a_useful_move() -> None:
    # A king can hop between empty spaces forever, and the 8 can go from one 9 to the other: no progress.
    s = pos(["|KS", "", "5C|9H 8S", "|9D"])
    moves = list(klondike.legal_moves(s))
    assert moves  # there are legal moves ...
    out = klondike.outcome(s)
    assert out is not None and out.result == "lost"  # ... but none that helps


# --- K14 standard scoring ------------------------------------------------------------------------


def test_K14_standard_points() -> None:
    s = pos(["|9C", "3D|2H", "|AH"], waste="8H", score=0, draw=1)
    v = legal(s, M("waste", "t1"))
    assert v.score_delta == 5
    s = v.state
    v = legal(s, M("t3", "foundation"))
    assert v.score_delta == 10
    v = legal(v.state, M("t2", "foundation"))  # +10 and the 3 of diamonds turns: +5
    assert v.score_delta == 15 and v.state.score == 30


def test_K14_waste_to_foundation_and_foundation_back_costs_15() -> None:
    s = pos(["|3C"], waste="2H", foundations="AH", score=20)
    v = legal(s, M("waste", "foundation"))
    assert v.score_delta == 10
    v = legal(v.state, M("foundation:H", "t1"))
    assert v.score_delta == -15 and v.state.score == 15


def test_K14_score_never_below_zero() -> None:
    s = pos(["|3C"], foundations="2H", score=5)
    v = legal(s, M("foundation:H", "t1"))
    assert v.state.score == 0 and v.score_delta == -5


def test_K14_draw_one_recycle_costs_100() -> None:
    s = pos([], waste="AC", score=150, draw=1)
    v = legal(s, Move.recycle())
    assert v.score_delta == -100 and v.state.score == 50
    v = legal(legal(v.state, Move.draw()).state, Move.recycle())
    assert v.state.score == 0


@pytest.mark.parametrize("free, costs", [(3, [0, 0, -20, -20]), (4, [0, 0, 0, -20])])
def test_K14_draw_three_recycles_after_the_free_passes(free: int, costs: list[int]) -> None:
    s = pos([], stock="AC", score=200, draw=3, recycle_free_passes=free)
    seen = []
    for _ in costs:
        s = legal(s, Move.draw()).state
        v = legal(s, Move.recycle())
        seen.append(v.score_delta)
        s = v.state
    assert seen == costs


def test_K14_no_scoring() -> None:
    s = pos(["|AH"], scoring="none")
    v = legal(s, M("t1", "foundation"))
    assert v.state.score == 0 and v.score_delta == 0


def test_K14_timed_costs_two_points_per_ten_seconds() -> None:
    s = pos(["|AH", "|AS", "|AD"], score=50, timed=True)
    v = legal(s, M("t1", "foundation", t=25.0))  # two ticks: -4, then +10
    assert v.state.score == 56
    v = legal(v.state, M("t2", "foundation", t=29.9))
    assert v.state.score == 66  # still two ticks
    v = legal(v.state, M("t3", "foundation", t=100.0))  # eight more ticks: -16, then +10
    assert v.state.score == 60
    untimed = legal(pos(["|AH"], score=50), M("t1", "foundation", t=100.0))
    assert untimed.state.score == 60


def test_K14_timed_win_bonus_only_after_30_seconds() -> None:
    s = pos(["|KH"], foundations="KS QH KD KC", score=500, timed=True)
    v = legal(s, M("t1", "foundation", t=100.0))
    assert v.state.score == 500 - 20 + 10 + 7000
    quick = legal(s, M("t1", "foundation", t=30.0))
    assert quick.state.score == 500 - 6 + 10


def test_time_never_runs_backwards() -> None:
    s = legal(pos(["|AH", "|AS"], timed=True), M("t1", "foundation", t=20.0)).state
    with pytest.raises(NotationError):
        klondike.apply(s, M("t2", "foundation", t=10.0))


# --- K15 Vegas -----------------------------------------------------------------------------------


def test_K15_vegas_balance() -> None:
    r = KlondikeRules.from_spec("scoring=vegas,draw=1")
    s = klondike.new_game(klondike.deal(1), r)
    assert s.score == -52
    s = pos(["|AH", "|3C"], waste="2H", scoring="vegas", draw=1)
    s = replace(s, score=-52)
    s = legal(s, M("t1", "foundation")).state
    s = legal(s, M("waste", "foundation")).state
    assert s.score == -42
    v = legal(s, M("foundation:H", "t2"))  # a card taken back loses its 5
    assert v.state.score == -47 and v.score_delta == -5


def test_K15_vegas_cumulative_carries_the_balance() -> None:
    r = KlondikeRules.from_spec("scoring=vegas_cumulative")
    assert klondike.new_game(klondike.deal(1), r, carry=-30).score == -82
    assert klondike.new_game(klondike.deal(1), KlondikeRules.from_spec("scoring=vegas"), carry=-30).score == -82
    assert klondike.new_game(klondike.deal(1), KlondikeRules.from_spec("scoring=standard"), carry=-30).score == 0


def test_K15_vegas_recycles_cost_nothing_but_passes_are_limited() -> None:
    s = pos([], stock="AC", scoring="vegas", draw=3)
    s = replace(s, score=-52)
    for _ in range(2):
        s = legal(s, Move.draw()).state
        s = legal(s, Move.recycle()).state
    assert s.score == -52
    s = legal(s, Move.draw()).state
    illegal(s, Move.recycle(), "K10")


# --- legal move listing --------------------------------------------------------------------------


def test_legal_moves_of_the_opening_position() -> None:
    s = klondike.new_game(klondike.deal(1))
    moves = list(klondike.legal_moves(s))
    assert Move.draw() in moves
    assert all(klondike.is_legal(s, m) for m in moves)
    # every listed move is legal, and every legal candidate is listed
    assert len(moves) == len(set(moves))


def test_legal_moves_count_for_a_known_position() -> None:
    # perft-style golden count: draw; 8H onto 9C from the waste; t2 (9C) onto 10D; the ace up;
    # KS into the empty t4; the run 9C-8H? (t1 only holds 9C here).
    s = pos(["|9C", "|10D", "|AS", "", "|KS"], stock="2C", waste="8H")
    moves = set(klondike.legal_moves(s))
    assert moves == {
        Move.draw(),
        M("waste", "t1"),
        M("t1", "t2"),
        M("t3", "foundation"),
        M("t5", "t4"),
        M("t5", "t6"),
        M("t5", "t7"),
    }


def test_is_legal_agrees_with_apply() -> None:
    s = pos(["|9C", "|10D"], waste="8H")
    assert klondike.is_legal(s, M("t1", "t2"))
    assert not klondike.is_legal(s, M("t2", "t1"))


# --- move notation -------------------------------------------------------------------------------


def test_move_json_round_trip_and_errors() -> None:
    m = Move.from_json({"op": "move", "from": "t3", "to": "foundation", "t": 12.5})
    assert m == M("t3", "foundation") and m.t == 12.5
    assert Move.from_json(m.to_json()) == m
    for bad in [
        {"op": "fly"},
        {"op": "move", "from": "t9", "to": "t1"},
        {"op": "move", "from": "t1", "to": "foundation:S"},
        {"op": "move", "from": "t1", "to": "t2", "count": 0},
        {"op": "move", "from": "t1", "to": "t2", "count": "2"},
        {"op": "draw", "t": -1},
        ["draw"],
    ]:
        with pytest.raises(NotationError):
            Move.from_json(bad)


def test_reasons_name_the_cards() -> None:
    s = pos(["|QD", "|JH"])
    v = illegal(s, M("t2", "t1"), "K4")
    assert str(v) == "K4: the jack of hearts is red like the queen of diamonds"


def test_an_illegal_move_leaves_the_state_as_it_was() -> None:
    s = pos(["|QD", "|JH"])
    before = (s.tableau, s.hidden, s.score)
    klondike.apply(s, M("t2", "t1"))
    assert (s.tableau, s.hidden, s.score) == before
