"""Stress engine: every rule id S1-S11 and option, races, properties and whole matches."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import stress as S
from referee.cards import DECK, card, cards
from referee.options import OptionError
from referee.verdict import Illegal, Legal, NotationError


def pile(text: str) -> list[str]:
    return [] if text == "-" else text.split("+")


def table(row0: str, row1: str, stock0: str = "", stock1: str = "", centre: str = "", **options: str) -> S.StressState:
    """A position: rows as "7H 7S+7D - 5C" (a + stacks, - is an empty place), stocks top first."""
    deal: dict[str, Any] = {
        "players": [
            {"row": [pile(p) for p in row0.split()], "stock": stock0.split()},
            {"row": [pile(p) for p in row1.split()], "stock": stock1.split()},
        ]
    }
    if centre:
        deal["centre"] = [pile(p) for p in centre.split()]
    spec = ",".join(f"{k}={v}" for k, v in options.items())
    return S.new_game(S.StressDeal.from_json(deal), S.StressRules.from_spec(spec)).state


def ok(verdict: Legal[S.StressState] | Illegal) -> S.StressState:
    assert isinstance(verdict, Legal), verdict
    return verdict.state


def illegal(verdict: Legal[S.StressState] | Illegal, rule: str, *words: str) -> Illegal:
    assert isinstance(verdict, Illegal), f"expected {rule}, got legal {verdict.events}"
    assert verdict.rule == rule, verdict
    for w in words:
        assert w in verdict.reason, (w, verdict.reason)
    return verdict


def kinds(verdict: Legal[S.StressState] | Illegal) -> list[str]:
    assert isinstance(verdict, Legal)
    return [e.kind for e in verdict.events]


def calls(verdict: Legal[S.StressState] | Illegal) -> list[tuple[str, float | None]]:
    assert isinstance(verdict, Legal)
    return [(e.kind, e.t) for e in verdict.events if e.kind in S.CALLS]


def top(state: S.StressState, i: int) -> str:
    return state.centre[i][-1].code


# --- S1-S2: setup --------------------------------------------------------------------------------


def test_s1_s2_seeded_deal_splits_one_deck_and_lays_four_each() -> None:
    d = S.deal(7)
    assert [len(s.stock) + 4 for s in d.seats] == [26, 26]
    assert all(len(p) == 1 for s in d.seats for p in s.row)
    assert Counter(d.all_cards()) == Counter(DECK)
    assert d.centre is None
    assert S.deal(7) == d and S.deal(8) != d
    again = S.StressDeal.from_json(d.to_json())
    assert again.seats == d.seats and again.seed == 7


def test_s1_deal_must_have_two_players_and_no_card_twice() -> None:
    with pytest.raises(NotationError, match="two|2 players"):
        S.StressDeal.from_json({"stocks": [["AH"], ["2H"], ["3H"]]})
    with pytest.raises(NotationError, match="twice: AH"):
        S.StressDeal.from_json({"stocks": [["AH", "2H"], ["AH"]]})
    with pytest.raises(NotationError):
        S.StressDeal.from_json({"stocks": [["ZZ"], ["2H"]]})
    with pytest.raises(NotationError):
        S.StressDeal.from_json([1, 2])


def test_s2_a_stocks_only_deal_lays_the_rows_from_the_stocks() -> None:
    d = S.StressDeal.from_json({"stocks": ["AH 2H 3H 4H 5H 6H".split(), ["7C"]]})
    assert [p[0].code for p in d.seats[0].row] == ["AH", "2H", "3H", "4H"]
    assert d.seats[0].stock == cards("5H 6H")
    assert d.seats[1].row == ((card("7C"),), (), (), ())


def test_s2_s3_deal_rows_may_hold_stacks_of_one_rank_only() -> None:
    with pytest.raises(NotationError, match="S3"):
        S.StressDeal.from_json({"players": [{"row": [["7H", "8H"]], "stock": []}, {"row": [], "stock": []}]})


# --- S4: the centre cards ---------------------------------------------------------------------------


def test_s4_no_play_before_the_centre_cards_lie_then_lay_puts_each_stock_top_on_own_pile() -> None:
    s = table("5H 9C JD KS", "2C 4S 6D 8H", "3H QC", "10S AC")
    assert s.phase is S.Phase.LAY
    illegal(S.apply(s, S.Play(0, card("5H"), 0, 0.5)), "S4", "not laid")
    v = S.apply(s, S.Lay(1.0))
    s = ok(v)
    assert (top(s, 0), top(s, 1)) == ("3H", "10S")
    assert s.seats[0].stock == cards("QC") and s.seats[1].stock == cards("AC")
    assert [e.player for e in v.events if e.kind == "lay"] == [0, 1] if isinstance(v, Legal) else False


def test_s4_lay_checks_the_cards_the_camera_saw() -> None:
    s = table("5H 9C JD KS", "2C 4S 6D 8H", "3H QC", "10S AC")
    assert ok(S.apply(s, S.Lay(1.0, cards("3H 10S")))).phase is S.Phase.PLAY
    with pytest.raises(NotationError, match="3H, 10S"):
        S.apply(s, S.Lay(1.0, cards("QC 10S")))


# --- S5-S7: plays and refills ------------------------------------------------------------------------


def test_s5_no_turns_one_player_may_play_several_times_in_a_row() -> None:
    s = table("5H 6C 7D KS", "2C 9S 10D 8H", "QH", "", centre="4D JC")
    s = ok(S.apply(s, S.Play(0, card("5H"), 0, 1.0)))
    s = ok(S.apply(s, S.Play(0, card("6C"), 0, 1.1)))
    s = ok(S.apply(s, S.Play(0, card("7D"), 0, 1.2)))
    assert top(s, 0) == "7D"


def test_s6_one_rank_up_or_down_on_either_centre_pile_suits_ignored() -> None:
    s = table("5H 3C 10D KS", "2C 9S 7D 8H", centre="4D JC")
    s1 = ok(S.apply(s, S.Play(0, card("5H"), 0, 1.0)))
    assert top(s1, 0) == "5H"
    s2 = ok(S.apply(s, S.Play(0, 1, card("4D"), 1.0)))  # by row place, onto the centre top by card
    assert top(s2, 0) == "3C"
    s3 = ok(S.apply(s, S.Play(0, card("10D"), 1, 1.0)))
    assert top(s3, 1) == "10D"


def test_s6_never_the_same_rank() -> None:
    s = table("5H 3C 10D JS", "2C 9S 7D 8H", centre="4D JC")
    illegal(S.apply(s, S.Play(0, card("JS"), 1, 1.0)), "S6", "never the same rank", "jack of spades", "jack of clubs")


def test_s6_a_card_two_ranks_away_is_named_in_the_reason() -> None:
    s = table("5H 3C 10D 6S", "2C 9S 7D 8H", centre="4D JC")
    illegal(S.apply(s, S.Play(0, card("6S"), 0, 1.0)), "S6", "the 6 of spades", "the 4 of diamonds", "not one rank")


def test_s6_wrap_king_and_ace_are_neighbours_by_default() -> None:
    s = table("AH 3C 10D 6S", "2C 9S 7D 8H", centre="KD QC")
    s1 = ok(S.apply(s, S.Play(0, card("AH"), 0, 1.0)))
    assert top(s1, 0) == "AH"
    s = table("AH 3C 10D 6S", "2C 9S 7D 8H", centre="KD QC", wrap="false")
    illegal(S.apply(s, S.Play(0, card("AH"), 0, 1.0)), "S6", "wrap=false", "ace is low only")
    s = table("KH 3C 10D 6S", "2C 9S 7D 8H", centre="AD 5C", wrap="false")
    illegal(S.apply(s, S.Play(0, card("KH"), 0, 1.0)), "S6", "wrap=false")


def test_s6_only_own_piles_and_only_cards_on_top() -> None:
    s = table("5H 3C 10D 6S", "2C 9S 7D 8H", centre="4D JC")
    illegal(S.apply(s, S.Play(0, card("2C"), 0, 1.0)), "S6", "player 1's row", "own piles")
    illegal(S.apply(s, S.Play(0, card("QH"), 0, 1.0)), "S6", "no row pile showing the queen of hearts")
    illegal(S.apply(s, S.Play(0, 0, card("9H"), 1.0)), "S6", "no centre pile shows")


def test_s6_a_stacked_pile_moves_whole_its_top_card_decides() -> None:
    s = table("5H+5S 3C 10D 6S", "2C 9S 7D 8H", "QH", centre="4D JC")
    s = ok(S.apply(s, S.Play(0, card("5S"), 0, 1.0)))
    assert s.centre[0] == cards("4D 5H 5S")
    assert s.seats[0].row[0] == (card("QH"),)


def test_s7_refill_from_the_own_stock_and_an_empty_place_once_it_is_done() -> None:
    s = table("5H 3C 10D 6S", "2C 9S 7D 8H", "QH", "", centre="4D JC")
    v = S.apply(s, S.Play(0, card("5H"), 0, 1.0))
    s = ok(v)
    assert "refill" in kinds(v) and s.seats[0].row[0] == (card("QH"),) and not s.seats[0].stock
    v = S.apply(s, S.Play(0, card("6S"), 0, 2.0))
    s = ok(v)
    assert "refill" not in kinds(v) and s.seats[0].row[3] == ()


# --- S3: stacking ------------------------------------------------------------------------------


def test_s3_stack_same_rank_and_refill_the_freed_place() -> None:
    s = table("7H 7S 10D 6S", "2C 9S 3D 8H", "QH KH", "", centre="4D JC")
    v = S.apply(s, S.Stack(0, card("7H"), card("7S"), 1.0))
    s = ok(v)
    assert s.seats[0].row[1] == cards("7S 7H") and s.seats[0].row[0] == (card("QH"),)
    assert kinds(v) == ["stack", "refill"]


def test_s3_only_the_same_rank_and_only_when_the_option_is_on() -> None:
    s = table("7H 8S 10D 6S", "2C 9S 3D 8H", "QH", "", centre="4D JC")
    illegal(S.apply(s, S.Stack(0, 0, 1, 1.0)), "S3", "only the same rank", "7 of hearts", "8 of spades")
    illegal(S.apply(s, S.Stack(0, 0, 0, 1.0)), "S3", "itself")
    s = table("7H 7S 10D 6S", "2C 9S 3D 8H", "QH", "", centre="4D JC", stack_same_rank="false")
    illegal(S.apply(s, S.Stack(0, 0, 1, 1.0)), "S3", "stack_same_rank=false")
    assert not any(isinstance(m, S.Stack) for m in S.legal_moves(s))


def test_s3_stacking_before_the_centre_is_laid() -> None:
    s = table("7H 7S 10D 6S", "2C 9S 3D 8H", "QH KC", "AD JD")
    s = ok(S.apply(s, S.Stack(0, 1, 0, 0.5)))
    s = ok(S.apply(s, S.Lay(1.0)))
    assert top(s, 0) == "KC"


# --- S8: stress ------------------------------------------------------------------------------


def stress_table(penalty: str = "both_piles") -> S.StressState:
    """Player 0 can play 5H on the 4 of diamonds; centre 1 shows a 5: a stress follows."""
    return table("5H 9C JD 2S", "KC QD 10H 3S", "8C 9H", "AC 2D", centre="4D 5S", stress_penalty=penalty)


def test_s8_stress_is_called_the_instant_both_tops_match() -> None:
    s = stress_table()
    v = S.apply(s, S.Play(0, card("5H"), 0, 12.34))
    assert calls(v) == [("stress", 12.34)]
    s = ok(v)
    assert s.phase is S.Phase.STRESS
    call = [e for e in v.events if e.kind == "stress"][0] if isinstance(v, Legal) else None
    assert call is not None and call.to_json()["rule"] == "S8" and call.cards == cards("5H 5S")


def test_s8_plays_and_new_cards_do_not_count_while_a_stress_is_open() -> None:
    s = ok(S.apply(stress_table(), S.Play(0, card("5H"), 0, 1.0)))
    illegal(S.apply(s, S.Play(1, card("3S"), 0, 1.1)), "S8", "stress is open", "slap")
    illegal(S.apply(s, S.Lay(1.1)), "S8", "slap first")
    # stacking in the own row is no centre play
    assert isinstance(S.apply(s, S.Slap(0, 0, 1.2)), Legal)


def slapped(penalty: str, first: int, first_pile: int, last_pile: int) -> tuple[S.StressState, list[Any]]:
    s = ok(S.apply(stress_table(penalty), S.Play(0, card("5H"), 0, 10.0)))
    v1 = S.apply(s, S.Slap(first, first_pile, 10.200))
    s = ok(v1)
    assert s.phase is S.Phase.STRESS  # one slap does not settle it
    v2 = S.apply(s, S.Slap(1 - first, last_pile, 10.205))
    assert isinstance(v1, Legal) and isinstance(v2, Legal)
    return ok(v2), list(v1.events) + list(v2.events)


def test_s8_both_piles_first_slapper_safe_last_takes_both_under_the_stock() -> None:
    s, events = slapped("both_piles", first=1, first_pile=1, last_pile=0)
    assert s.centre == ((), ()) and s.phase is S.Phase.LAY
    assert s.seats[0].stock == cards("9H 4D 5H 5S")  # 8C refilled the row after the play
    assert s.seats[1].stock == cards("AC 2D")
    take = [e for e in events if e.kind == "take"][0]
    assert take.player == 0 and dict(take.data)["safe"] == 1
    assert [e.detail for e in events if e.kind == "slap"] == ["first: safe", "last: pays"]


def test_s8_slapped_pile_the_last_takes_only_the_pile_they_slapped() -> None:
    s, _ = slapped("slapped_pile", first=1, first_pile=1, last_pile=0)
    assert s.seats[0].stock == cards("9H 4D 5H")
    assert s.centre == ((), cards("5S"))
    s = ok(S.apply(s, S.Lay(11.0)))
    assert s.centre == ((card("9H"),), cards("5S AC"))


def test_s8_fastest_gives_the_pile_they_slapped_to_the_other() -> None:
    s, _ = slapped("fastest_gives", first=1, first_pile=1, last_pile=0)
    assert s.seats[0].stock == cards("9H 5S")
    assert s.centre == (cards("4D 5H"), ())


def test_s8_false_slap_is_reported_and_changes_nothing() -> None:
    s = stress_table()
    v = illegal(S.apply(s, S.Slap(1, 0, 3.0)), "S8", "false slap", "player 1", "4 of diamonds", "5 of spades")
    assert v.move == S.Slap(1, 0, 3.0)
    s2 = table("5H 9C JD 2S", "KC QD 10H 3S", "8C", "AC")
    illegal(S.apply(s2, S.Slap(0, 0, 1.0)), "S8", "not both laid")


def test_s8_a_second_slap_by_the_same_player_does_not_settle() -> None:
    s = ok(S.apply(stress_table(), S.Play(0, card("5H"), 0, 1.0)))
    s = ok(S.apply(s, S.Slap(1, 0, 1.1)))
    v = S.apply(s, S.Slap(1, 1, 1.2))
    s = ok(v)
    assert s.phase is S.Phase.STRESS and "again" in v.events[0].detail if isinstance(v, Legal) else False


def test_s8_after_the_stress_new_centre_cards_restart_play_and_may_stress_again() -> None:
    s, _ = slapped("both_piles", first=0, first_pile=0, last_pile=1)
    illegal(S.apply(s, S.Play(0, card("9C"), 0, 11.0)), "S4")
    s = ok(S.apply(s, S.Lay(11.0)))
    assert (top(s, 0), top(s, 1)) == ("9H", "AC")
    # a lay that shows two equal ranks is a stress at once
    s = table("5H 9C JD 2S", "KC QD 10H 3S", "8C", "8D")
    v = S.apply(s, S.Lay(2.5))
    assert calls(v) == [("stress", 2.5)]


def test_s8_shuffle_reorders_the_stock_only_with_the_same_cards() -> None:
    s, _ = slapped("both_piles", first=1, first_pile=1, last_pile=0)
    new = cards("5S 4D 9H 5H")
    s2 = ok(S.apply(s, S.Shuffle(0, new, 10.5)))
    assert s2.seats[0].stock == new
    with pytest.raises(NotationError):
        S.apply(s, S.Shuffle(0, cards("5S 9H"), 10.5))


# --- S9: stuck ------------------------------------------------------------------------------------


def stuck_table(stock0: str = "2H 8C", stock1: str = "QS AC") -> S.StressState:
    return table("9H 10S JC QD", "9C 10D JH KS", stock0, stock1, centre="4D 6C")


def test_s9_stuck_is_called_when_neither_can_play_and_new_cards_follow() -> None:
    start = S.new_game(S.StressDeal.from_json({
        "players": [{"row": ["9H", "10S", "JC", "QD"], "stock": ["2H"]}, {"row": ["9C", "10D", "JH", "KS"], "stock": ["QS"]}],
        "centre": ["4D", "6C"],
    }))
    assert calls(start) == [("stuck", 0.0)]
    s = start.state
    v = S.apply(s, S.Lay(3.0))
    s = ok(v)
    assert (top(s, 0), top(s, 1)) == ("2H", "QS") and not s.stuck


def test_s9_stuck_call_after_the_play_that_blocks_everyone() -> None:
    s = table("9H 10S JC 5D", "9C 10D JH KS", "QC", "QS", centre="4D 6C")
    v = S.apply(s, S.Play(0, card("5D"), 0, 4.25))
    assert calls(v) == [("stuck", 4.25)]


def test_s9_new_centre_cards_while_someone_can_play_are_illegal() -> None:
    s = table("9H 10S JC 5D", "9C 10D JH KS", "QC", "QS", centre="4D 2C")
    illegal(S.apply(s, S.Lay(1.0)), "S9", "player 0 can still play the 5 of diamonds on the 4 of diamonds")


def test_s9_one_stock_empty_the_other_gives_a_card() -> None:
    s = stuck_table(stock0="", stock1="QS AC")
    v = S.apply(s, S.Lay(2.0))
    s = ok(v)
    assert "give" in kinds(v)
    assert (top(s, 0), top(s, 1)) == ("QS", "AC")
    assert not s.seats[0].stock and not s.seats[1].stock


def test_s9_neither_has_stock_each_takes_the_own_centre_pile_as_stock() -> None:
    s = table("9H 10S JC QD", "9C 10D JH KS", centre="3C+4D 5S+6C")
    v = S.apply(s, S.Lay(2.0))
    s = ok(v)
    assert kinds(v)[:2] == ["take_centre", "take_centre"]
    assert (top(s, 0), top(s, 1)) == ("3C", "5S")
    assert s.seats[0].stock == cards("4D") and s.seats[1].stock == cards("6C")


# --- S10-S11: winning, matches -------------------------------------------------------------------


def test_s10_the_first_player_without_cards_wins_and_the_round_ends() -> None:
    s = table("5H - - -", "9C 10D JH KS", "", "2C", centre="4D 6C")
    v = S.apply(s, S.Play(0, card("5H"), 0, 30.5))
    s = ok(v)
    assert calls(v) == [("round_over", 30.5)]
    call = [e for e in v.events if e.kind == "round_over"][0] if isinstance(v, Legal) else None
    assert call is not None and dict(call.data)["winner"] == 0 and dict(call.data)["cards_left"] == [0, 5]
    assert S.outcome(s) == S.StressOutcome(0, 1, (1, 0), False)
    illegal(S.apply(s, S.Play(1, card("JH"), 1, 31.0)), "S10", "round 1 is over", "player 0 won")


def test_s10_winning_outranks_a_stress_made_by_the_last_card() -> None:
    s = table("5H - - -", "9C 10D JH KS", "", "2C", centre="4D 5S")
    v = S.apply(s, S.Play(0, card("5H"), 0, 1.0))
    assert calls(v) == [("round_over", 1.0)]


def test_s11_new_round_only_after_a_win_and_the_score_runs_on() -> None:
    s = table("5H - - -", "9C 10D JH KS", "", "2C", centre="4D 6C", rounds="2")
    illegal(S.apply(s, S.NewRound(1.0)), "S11", "not over")
    s = ok(S.apply(s, S.Play(0, card("5H"), 0, 2.0)))
    v = S.apply(s, S.NewRound(3.0))
    s = ok(v)
    assert s.round == 2 and s.phase is S.Phase.LAY and s.score == (1, 0)
    assert Counter(s.all_cards()) == Counter(cards("5H 9C 10D JH KS 2C 4D 6C"))
    assert S.outcome(s) is None


def test_s11_match_over_after_the_agreed_rounds() -> None:
    deal = {"players": [{"row": ["5H"], "stock": []}, {"row": ["9C"], "stock": []}], "centre": ["4D", "6C"],
            "rounds": [{"players": [{"row": ["9C"], "stock": []}, {"row": ["5H"], "stock": []}], "centre": ["4D", "6C"]}]}
    s = S.new_game(S.StressDeal.from_json(deal), S.StressRules.from_spec("rounds=2")).state
    s = ok(S.apply(s, S.Play(0, card("5H"), 0, 1.0)))
    s = ok(S.apply(s, S.NewRound(2.0)))
    assert s.phase is S.Phase.PLAY and s.seats[1].row[0] == (card("5H"),)
    v = S.apply(s, S.Play(1, card("5H"), 0, 3.0))
    assert calls(v) == [("round_over", 3.0), ("match_over", 3.0)]
    s = ok(v)
    assert s.score == (1, 1) and S.outcome(s) == S.StressOutcome(None, 2, (1, 1), True)
    illegal(S.apply(s, S.NewRound(4.0)), "S11", "match is over")


def test_s11_new_round_deal_must_hold_the_same_cards() -> None:
    s = table("5H - - -", "9C", "", "", centre="4D 6C")
    s = ok(S.apply(s, S.Play(0, card("5H"), 0, 1.0)))
    bad = S.StressDeal.from_json({"stocks": [["AH"], ["2H"]]})
    with pytest.raises(NotationError, match="same cards"):
        S.apply(s, S.NewRound(2.0, bad))


# --- options ------------------------------------------------------------------------------------


def test_options_defaults_and_errors() -> None:
    r = S.StressRules()
    assert (r.stack_same_rank, r.wrap, r.stress_penalty, r.rounds) == (True, True, "both_piles", 0)
    r = S.StressRules.from_spec("wrap=false,stack_same_rank=false,stress_penalty=fastest_gives,rounds=3")
    assert (r.stack_same_rank, r.wrap, r.stress_penalty, r.rounds) == (False, False, "fastest_gives", 3)
    with pytest.raises(OptionError, match="unknown rule option 'colour'"):
        S.StressRules.from_spec("colour=red")
    with pytest.raises(OptionError, match="stress_penalty"):
        S.StressRules.from_spec("stress_penalty=everyone")
    with pytest.raises(OptionError):
        S.StressRules.from_spec("players=3")


# --- moves as JSON -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        S.Play(0, card("5H"), 1, 1.5),
        S.Play(1, 2, card("KS"), 2.0),
        S.Stack(0, 1, card("7S"), 0.25),
        S.Slap(1, 1, 3.0),
        S.Lay(4.0),
        S.Lay(4.0, cards("2H 3C")),
        S.Shuffle(0, cards("2H 3C"), 5.0),
        S.NewRound(6.0),
    ],
)
def test_moves_round_trip_through_json(move: S.Move) -> None:
    assert S.move_from_json(move.to_json()) == move


@pytest.mark.parametrize(
    "obj",
    [
        {"op": "play", "player": 0, "card": "5H", "to": 1},  # no t
        {"op": "play", "t": -1, "player": 0, "card": "5H", "to": 1},
        {"op": "play", "t": 1, "player": 2, "card": "5H", "to": 1},
        {"op": "play", "t": 1, "player": 0, "card": "5X", "to": 1},
        {"op": "play", "t": 1, "player": 0, "from": 4, "to": 1},
        {"op": "play", "t": 1, "player": 0, "card": "5H", "to": 2},
        {"op": "play", "t": 1, "player": 0, "card": "5H"},
        {"op": "dance", "t": 1},
        {"t": 1},
        {"op": "shuffle", "t": 1, "player": 0, "stock": "5H"},
        "play",
    ],
)
def test_malformed_events_raise_notation_errors(obj: object) -> None:
    with pytest.raises(NotationError):
        S.move_from_json(obj)


# --- races -------------------------------------------------------------------------------------------


def test_race_two_plays_on_one_pile_30ms_apart_the_later_is_judged_on_the_new_top() -> None:
    s = table("5H 9C JD 2S", "3S QD 10H KC", centre="4D 8C")
    first, second = S.Play(0, card("5H"), 0, 7.000), S.Play(1, card("3S"), 0, 7.030)
    s1 = ok(S.apply(s, first))
    illegal(S.apply(s1, second), "S6", "3 of spades", "5 of hearts")
    # alone, the later play would have been fine
    assert isinstance(S.apply(s, second), Legal)


def test_race_two_slaps_5ms_apart_the_earlier_is_safe() -> None:
    s, events = slapped("both_piles", first=0, first_pile=0, last_pile=1)
    slaps = [(e.player, e.t, e.detail) for e in events if e.kind == "slap"]
    assert slaps == [(0, 10.200, "first: safe"), (1, 10.205, "last: pays")]
    assert len(s.seats[1].stock) == 2 + 3


# --- properties -----------------------------------------------------------------------------------


def random_move(rng: random.Random, t: float) -> S.Move:
    p = rng.randrange(2)
    kind = rng.randrange(6)
    ref: int | Any = rng.randrange(4) if rng.random() < 0.5 else rng.choice(DECK)
    if kind == 0:
        return S.Play(p, ref, rng.randrange(2) if rng.random() < 0.7 else rng.choice(DECK), t)
    if kind == 1:
        return S.Stack(p, ref, rng.randrange(4), t)
    if kind == 2:
        return S.Slap(p, rng.randrange(2), t)
    if kind == 3:
        return S.Lay(t)
    if kind == 4:
        return S.NewRound(t)
    return S.Play(p, ref, rng.randrange(2), t)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(1, 400), penalty=st.sampled_from(["both_piles", "slapped_pile", "fastest_gives"]),
       wrap=st.booleans(), stack=st.booleans())
def test_property_no_card_lost_or_duplicated_and_illegal_changes_nothing(seed: int, steps: int, penalty: str, wrap: bool, stack: bool) -> None:
    rules = S.StressRules(stack_same_rank=stack, wrap=wrap, stress_penalty=penalty)
    state = S.new_game(S.deal(seed), rules).state
    deck = Counter(DECK)
    rng = random.Random(seed)
    t = 0.0
    for _ in range(steps):
        t += 0.01
        legal = list(S.legal_moves(state))
        if legal and rng.random() < 0.7:
            move = dataclasses.replace(rng.choice(legal), t=t)
        else:
            move = random_move(rng, t)
        before = state
        try:
            v = S.apply(state, move)
        except NotationError:
            continue
        if isinstance(v, Illegal):
            assert v.rule in {f"S{i}" for i in range(1, 12)}
            assert state == before
            assert not S.is_legal(state, move)
            continue
        state = v.state
        assert Counter(state.all_cards()) == deck
        assert all(len(p) <= 52 for p in state.centre)
        assert sum(1 for s in state.seats for p in s.row if p) <= 8


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_property_every_generated_legal_move_is_legal(seed: int) -> None:
    state = S.new_game(S.deal(seed)).state
    rng = random.Random(seed)
    for i in range(150):
        moves = list(S.legal_moves(state))
        if not moves:
            break
        for m in moves:
            assert S.is_legal(state, m), m
        v = S.apply(state, dataclasses.replace(rng.choice(moves), t=float(i)))
        assert isinstance(v, Legal)
        state = v.state


# --- whole matches ---------------------------------------------------------------------------------


def play_match(seed: int, rounds: int, penalty: str) -> tuple[S.StressState, Counter[str]]:
    rules = S.StressRules(stress_penalty=penalty, rounds=rounds)
    state = S.new_game(S.deal(seed), rules).state
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    t = 0.0
    for _ in range(20000):
        moves = list(S.legal_moves(state))
        if not moves:
            break
        plays = [m for m in moves if isinstance(m, (S.Play, S.Slap, S.Lay, S.NewRound))]
        t += 0.05
        move = dataclasses.replace(rng.choice(plays or moves), t=round(t, 3))
        v = S.apply(state, move)
        assert isinstance(v, Legal)
        for e in v.events:
            if e.kind in S.CALLS:
                seen[e.kind] += 1
                assert e.t == move.t
        state = v.state
    return state, seen


@pytest.mark.parametrize("seed,penalty", [(1, "both_piles"), (2, "slapped_pile"), (3, "fastest_gives"), (4, "both_piles")])
def test_whole_match_of_three_rounds_ends_with_a_score(seed: int, penalty: str) -> None:
    state, seen = play_match(seed, 3, penalty)
    assert state.phase is S.Phase.MATCH_OVER
    assert sum(state.score) <= 3 and state.round == 3
    assert seen["round_over"] == 3 and seen["match_over"] == 1
    assert Counter(state.all_cards()) == Counter(DECK)
    end = S.outcome(state)
    assert end is not None and end.match_over


def test_engine_is_typed_strictly() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "mypy", "referee/stress.py", "referee/simultaneous.py"],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr
