"""Random legal play under random options: no card is lost or duplicated, and scores follow K14/K15."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import klondike
from referee.cards import DECK
from referee.klondike import KlondikeRules, KlondikeState
from referee.verdict import Legal

rules_strategy = st.builds(
    KlondikeRules.make,
    draw=st.sampled_from([1, 3]),
    passes=st.sampled_from([None, 1, 3]),
    foundation_to_tableau=st.booleans(),
    partial_runs=st.booleans(),
    aces_up_at_once=st.booleans(),
    columns=st.sampled_from([7, 8]),
    scoring=st.sampled_from(["none", "standard", "vegas", "vegas_cumulative"]),
    recycle_free_passes=st.sampled_from([3, 4]),
)


def all_cards(s: KlondikeState) -> Counter[object]:
    found = [c for c in DECK if c.rank <= s.foundations["SHDC".index(c.suit)]]
    return Counter([c for p in s.tableau for c in p] + list(s.stock) + list(s.waste) + found)


def kind(name: str) -> str:
    return "tableau" if name.startswith("t") else name.split(":")[0]


EXPECTED_POINTS = {
    ("waste", "tableau"): 5,
    ("waste", "foundation"): 10,
    ("tableau", "foundation"): 10,
    ("foundation", "tableau"): -15,
    ("tableau", "tableau"): 0,
}


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 1000), min_size=1, max_size=150))
def test_random_legal_play_keeps_every_card_and_scores_by_the_table(rules: KlondikeRules, seed: int, picks: list[int]) -> None:
    state = klondike.new_game(klondike.deal(seed, rules.columns), rules)
    deck = Counter(DECK)
    for pick in picks:
        moves = list(klondike.legal_moves(state))
        if not moves:
            break
        move = moves[pick % len(moves)]
        verdict = klondike.apply(state, move)
        assert isinstance(verdict, Legal), f"listed move {move} judged illegal"
        nxt = verdict.state
        assert all_cards(nxt) == deck
        assert all(0 <= h < max(len(p), 1) for p, h in zip(nxt.tableau, nxt.hidden))
        turned = sum(1 for e in verdict.events if e.kind == "turned_up")
        assert turned == sum(state.hidden) - sum(nxt.hidden)
        if rules.scoring.startswith("vegas"):
            assert nxt.score == -52 + 5 * nxt.foundation_count
        elif rules.scoring == "none":
            assert nxt.score == 0
        else:
            if move.op == "draw":
                points = 0
            elif move.op == "recycle":
                points = -100 if rules.draw == 1 else (-20 if nxt.recycles >= rules.recycle_free_passes else 0)
            else:
                points = EXPECTED_POINTS[(kind(move.src), kind(move.dst))] + 5 * turned
            assert nxt.score == max(0, state.score + points)
        state = nxt


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 1000), max_size=60))
def test_every_candidate_is_either_listed_or_refused_with_a_rule(seed: int, picks: list[int]) -> None:
    state = klondike.new_game(klondike.deal(seed))
    for pick in picks:
        listed = set(klondike.legal_moves(state))
        for move in klondike._candidates(state):
            verdict = klondike.apply(state, move)
            assert (move in listed) == isinstance(verdict, Legal)
            if not isinstance(verdict, Legal):
                assert verdict.rule.startswith("K") and verdict.reason
        moves = sorted(listed, key=str)
        verdict = klondike.apply(state, moves[pick % len(moves)])
        assert isinstance(verdict, Legal)
        state = verdict.state
