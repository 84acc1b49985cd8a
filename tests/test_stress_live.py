"""Move inference for Stress: scripted table-state streams from engine-played rounds, with noise."""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace
from typing import Any

import pytest

from noisy_views import blurred, held
from referee import stress, stress_live
from referee.cards import Card
from referee.followers import find_follower
from referee.observation import Finding, Observation, SeenPile
from referee.stress import Lay, Phase, Play, Slap, Stack, StressDeal, StressRules, StressState
from referee.speed_live import is_unseen, search_budget, unseen
from referee.stress_live import LiveStress, row_zone, stock_zone
from referee.verdict import Legal

CENTRE = ("centre1", "centre2")


def view(state: StressState, t: float, unlaid: frozenset[tuple[int, int]] = frozenset()) -> Observation:
    """What a perfect camera shows: row tops (``unlaid`` places: the refill is not down yet), stocks as
    one back, centre tops."""
    piles: dict[str, SeenPile] = {}
    for p, seat in enumerate(state.seats):
        for i, pile in enumerate(seat.row):
            shown = (pile[-1].code,) if pile and (p, i) not in unlaid else ()
            piles[row_zone(p, i)] = SeenPile(shown)
        piles[stock_zone(p)] = SeenPile((), 1 if seat.stock else 0)
    for j, pile in enumerate(state.centre):
        piles[CENTRE[j]] = SeenPile((pile[-1].code,) if pile else ())
    return Observation(t, piles)


def key(move: Any) -> tuple[Any, ...]:
    if isinstance(move, Play):
        return ("play", move.player, move.source, move.to)
    if isinstance(move, Stack):
        return ("stack", move.player, move.source, move.onto)
    if isinstance(move, Slap):
        return ("slap", move.player, move.pile)
    return (move.kind,)


def moves_of(findings: list[Finding]) -> list[tuple[Any, ...]]:
    return sorted(key(f.move) for f in findings if f.kind == "move")


def calls_of(findings: list[Finding]) -> list[str]:
    return [f.verdict.kind for f in findings if f.kind == "call"]


def apply(state: StressState, move: Any) -> tuple[StressState, list[str]]:
    v = stress.apply(state, move)
    assert isinstance(v, Legal), v
    return v.state, [e.kind for e in v.events if e.kind in stress.CALLS]


def same_table(live: LiveStress, truth: StressState, stocks: bool = True) -> None:
    """The live picture agrees with the truth on everything that was seen (``stocks``: and the stock
    sizes; scripted positions have short stocks, the referee counts 26-card halves)."""
    s = live.state
    assert s.phase == truth.phase and s.score == truth.score
    for a, b in zip(s.seats, truth.seats):
        assert not stocks or len(a.stock) == len(b.stock)
        for pa, pb in zip(a.row, b.row):
            assert len(pa) == len(pb)
            assert all(x is y for x, y in zip(pa, pb) if not stress_live.is_unseen(x))
    for pa, pb in zip(s.centre, truth.centre):
        assert len(pa) == len(pb)
        assert all(x is y for x, y in zip(pa, pb) if not stress_live.is_unseen(x))


def choose_move(state: StressState, p: int, rng: random.Random) -> Any:
    """A move of player ``p`` as a player in a hurry makes it (a play if there is one), or None."""
    options = [m for m in stress.legal_moves(state) if isinstance(m, (Play, Stack)) and m.player == p]
    plays = [m for m in options if isinstance(m, Play)]
    pick = plays or options
    return rng.choice(pick) if pick and rng.random() < 0.85 else None


def can_move(state: StressState) -> bool:
    return any(isinstance(m, (Play, Stack)) for m in stress.legal_moves(state))


def play_round(
    seed: int, *, apart: bool = False, noise: bool = False, limit: int = 400, spec: str = "", resume_every: int = 0
) -> tuple[dict[str, int], LiveStress, StressState]:
    """An engine-played round (S4 lay, plays, stacks, stress calls and slaps, stuck calls and new
    centre cards, the win), seen view by view. Every found move must be a scripted one, every
    scripted one found once, and the calls made. ``apart``: some refills are laid only after the
    view that shows the play; ``noise``: before each clean view the camera also publishes one with
    a hand over a zone and one with unreadable cards, and the clean view comes twice. ``resume_every``:
    every so many views the game is taken up again from the referee's picture of it, as from a log."""
    rng = random.Random(seed)
    rules = StressRules.from_spec(spec)
    truth = stress.new_game(stress.deal(seed), rules).state
    live = stress_live.start(view(truth, 0.0), rules)
    t = 0.0
    stats = {"views": 0, "moves": 0, "calls": 0, "slaps": 0, "apart": 0, "ambiguous": 0}
    for _ in range(limit):
        if truth.phase is Phase.ROUND_OVER:
            break
        t += 1.0
        scripted: list[Any] = []
        expected_calls: list[str] = []
        if truth.phase is Phase.STRESS:
            # slaps cannot be seen: the key presses / taps come in through slap()
            order = rng.sample(range(2), 2)
            for k, slapper in enumerate(order):
                pile = rng.randrange(2)
                truth, c = apply(truth, Slap(slapper, pile, t + 0.1 * k))
                live, f = stress_live.slap(live, slapper, t + 0.1 * k, pile=pile)
                assert [x.kind for x in f if x.kind != "call"] == ["move"], f
                assert calls_of(f) == c
                stats["slaps"] += 1
            same_table(live, truth)
            continue
        lay = truth.phase is Phase.LAY or (truth.stuck and (not can_move(truth) or rng.random() < 0.5))
        unlaid: set[tuple[int, int]] = set()
        who: list[int | None] = [None] if lay else list(rng.sample(range(2), 2))
        for p in who:
            m = Lay(t) if p is None else choose_move(truth, p, rng)
            if m is None:
                continue
            m = replace(m, t=t)
            scripted.append(m)
            before = truth
            truth, c = apply(truth, m)
            expected_calls += c
            if apart and isinstance(m, (Play, Stack)) and rng.random() < 0.5:
                src = m.source
                assert isinstance(src, int)
                if truth.seats[m.player].row[src] and before.seats[m.player].stock:
                    unlaid.add((m.player, src))
        if not scripted:
            continue
        clean = view(truth, t, frozenset(unlaid))
        views = [clean]
        if noise:
            views = [held(clean, rng, t - 0.3), blurred(clean, rng, t - 0.2), clean, replace(clean, t=t + 0.1)]
        if unlaid:
            stats["apart"] += 1
            views.append(view(truth, t + 0.5))
        f = []
        for obs in views:
            live, fk = stress_live.observe(live, obs)
            stats["views"] += 1
            stats["ambiguous"] += sum(1 for x in fk if x.kind == "ambiguous")
            assert all(x.kind in (("move", "call", "ambiguous") if noise else ("move", "call")) for x in fk), (scripted, fk)
            f += fk
        assert moves_of(f) == sorted(key(m) for m in scripted), (scripted, f)
        stats["moves"] += len(scripted)
        got_calls = calls_of(f)
        # A stuck call may come one view later (when the refill shows); one that lapsed again within
        # the view (a stack's refill made a play possible) depends on the unseen order of the moves.
        # The referee calls stuck once per view, for a position still stuck at its end.
        expected_calls = [c for c in expected_calls if c != "stuck"] + (["stuck"] if truth.stuck and "stuck" in expected_calls else [])
        if not truth.stuck:
            got_calls = [c for c in got_calls if c != "stuck"]
        assert sorted(got_calls) == sorted(expected_calls), (scripted, expected_calls, f)
        stats["calls"] += len(got_calls)
        same_table(live, truth)
        if resume_every and stats["views"] % resume_every == 0 and truth.phase is not Phase.ROUND_OVER:
            picture = json.loads(json.dumps(stress_live.public_state(live)))
            live = stress_live.resume(picture, rules, t)
            assert stress_live.public_state(live) == picture
            stats["resumed"] = stats.get("resumed", 0) + 1
    assert truth.phase is Phase.ROUND_OVER
    assert live.state.phase is Phase.ROUND_OVER and live.state.winner == truth.winner
    return stats, live, truth


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_whole_rounds_are_followed_move_by_move(seed: int) -> None:
    stats, live, truth = play_round(seed)
    assert stats["moves"] > 20 and stats["calls"] > 0
    assert live.state.score == truth.score


@pytest.mark.parametrize("seed", [1, 3])
def test_a_round_taken_up_again_from_the_referees_picture_goes_on(seed: int) -> None:
    """cardref stopped without ending the game (a crash): it is taken up again from the log's last
    position, the referee's picture of it, and the round is followed on to its end."""
    stats, live, truth = play_round(seed, resume_every=7)
    assert stats["resumed"] >= 3 and live.state.score == truth.score
    with pytest.raises(ValueError, match="not a position of this Stress game"):
        stress_live.resume({"players": []}, None)


@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_plays_and_their_refills_seen_apart(seed: int) -> None:
    stats, _, _ = play_round(seed, apart=True)
    assert stats["apart"] > 5


@pytest.mark.parametrize(
    "seed, spec",
    [(12, "stress_penalty=slapped_pile"), (11, "stress_penalty=fastest_gives"), (12, "wrap=false,stack_same_rank=false")],
)
def test_rule_options_are_followed(seed: int, spec: str) -> None:
    stats, live, truth = play_round(seed, apart=True, spec=spec)
    assert stats["moves"] > 20 and stats["slaps"] > 0 and live.state.rules == truth.rules


@pytest.mark.parametrize("seed", [8, 9])
def test_hands_unreadable_cards_and_repeated_views_never_invent_moves(seed: int) -> None:
    stats, _, _ = play_round(seed, apart=True, noise=True)
    assert stats["views"] > 100


@pytest.mark.parametrize("unread", [False, True])
def test_the_next_round_starts_from_a_view_of_the_new_deal(unread: bool) -> None:
    _, live, truth = play_round(1)
    # while the cards are gathered and shuffled nothing is judged
    live, f = stress_live.observe(live, Observation(900.0, {"centre1": SeenPile(), "p1.pile1": SeenPile.of("?")}))
    assert f == [] and live.waiting
    v = stress.apply(truth, stress.NewRound(1000.0))
    assert isinstance(v, Legal)
    truth = v.state
    deal = view(truth, 1000.0)
    if unread:  # a card of the new deal read too unsurely: a stand-in, learned when read
        deal = replace(deal, piles={**deal.piles, "p2.pile3": SeenPile.of("?")})
    live, f = stress_live.observe(live, deal)
    assert [x.kind for x in f] == ["move"] and key(f[0].move) == ("new_round",)
    assert live.state.round == 2 and live.state.phase is Phase.LAY
    assert stress_live.is_unseen(live.state.seats[1].row[2][-1]) == unread
    truth, _ = apply(truth, Lay(1001.0))
    live, f = stress_live.observe(live, view(truth, 1001.0))
    assert moves_of(f) == [("lay",)]
    same_table(live, truth)


# --- scripted positions ----------------------------------------------------------------------------


def position(row0: str, row1: str, centre: str, stock0: str = "2C 3C 4C 5C", stock1: str = "QS QH AS AH") -> StressState:
    deal = {
        "players": [
            {"row": row0.split(), "stock": stock0.split()},
            {"row": row1.split(), "stock": stock1.split()},
        ],
        "centre": centre.split(),
    }
    return stress.new_game(StressDeal.from_json(deal)).state


def _shown(obs: Observation, **zones: SeenPile) -> Observation:
    """The view with some zones given as seen piles (``p1_pile3=SeenPile(...)``: confidences, guesses)."""
    return replace(obs, piles={**obs.piles, **{z.replace("_", "."): p for z, p in zones.items()}})


def seen(state: StressState, t: float, **zones: str) -> Observation:
    """The view of ``state`` with some zones shown otherwise: ``p1_pile1="7H"``, ``"?"`` unread,
    ``"-"`` empty, ``"held"``."""
    obs = view(state, t)
    piles = dict(obs.piles)
    for name, text in zones.items():
        zone = name.replace("_", ".")
        if text == "held":
            piles[zone] = SeenPile(held=True)
        elif text == "-":
            piles[zone] = SeenPile()
        else:
            piles[zone] = SeenPile.of(text)
    return Observation(t, piles)


def test_a_same_rank_play_is_illegal_until_taken_back_while_the_other_player_goes_on() -> None:
    truth = position("7H 6S 9D KC", "8S 2D JH 4S", "7C 10D")
    live = stress_live.start(view(truth, 0.0))
    # player 0 lays the 7 of hearts on the 7 of clubs (and takes a refill): S6
    wrong = seen(truth, 1.0, p1_pile1="2C", centre1="7H")
    live, f = stress_live.observe(live, wrong)
    assert [x.kind for x in f] == ["illegal"] and f[0].rule == "S6" and "never the same rank" in f[0].reason
    assert key(f[0].move) == ("play", 0, 0, 0)
    assert stress_live.involved_cards(live, f[0]) == ["7H", "7C"]
    assert stress_live.public_state(live)["waiting_for_take_back"]
    live, f = stress_live.observe(live, replace(wrong, t=1.5))  # seen again: said once
    assert f == []
    # meanwhile player 1 plays the jack of hearts on the 10 of diamonds: a move, still waiting
    truth, _ = apply(truth, Play(1, 2, 1, 2.0))
    live, f = stress_live.observe(live, seen(truth, 2.0, p1_pile1="2C", centre1="7H"))
    assert [(x.kind, key(x.move)) for x in f] == [("move", ("play", 1, 2, 1))]
    assert live.pending is not None
    # taken back: the 7 of hearts in the row again, the refill back on the stock
    live, f = stress_live.observe(live, view(truth, 3.0))
    assert [x.kind for x in f] == ["taken_back"] and live.pending is None
    same_table(live, truth, stocks=False)


def test_an_illegal_play_let_stand_is_played_on_from_and_makes_its_call() -> None:
    """A person says the referee was wrong about the play it waits to see taken back (a card misread, or
    the players play it so): the game goes on from the table with the card where it was laid, and the
    stress that table shows is called."""
    truth = position("7H 6S 9D KC", "8S 2D JH 4S", "KS 7D")
    live = stress_live.start(view(truth, 0.0))
    assert stress_live.let_stand(live, 0.5) is None  # nothing waits
    # player 0 lays the 7 of hearts on the king of spades (and takes a refill): S5
    wrong = seen(truth, 1.0, p1_pile1="2C", centre1="7H")
    live, f = stress_live.observe(live, wrong)
    assert [x.kind for x in f] == ["illegal"] and key(f[0].move) == ("play", 0, 0, 0)
    stood = stress_live.let_stand(live, 1.2)
    assert stood is not None
    live, f = stood
    assert [(x.kind, key(x.move) if x.move else None) for x in f] == [("move", ("play", 0, 0, 0)), ("call", None)]
    assert calls_of(f) == ["stress"] and "overruled" in f[0].detail
    assert live.pending is None and live.state.phase is Phase.STRESS and live.moves == 1
    assert [p[-1].code for p in live.state.centre] == ["7H", "7D"]
    live, f = stress_live.observe(live, replace(wrong, t=1.5))
    assert f == []  # the table as it lies: nothing happened
    assert stress_live.slappers(live) == frozenset({0, 1})


def test_a_play_that_only_a_card_under_a_hand_could_make_legal_waits_for_that_card() -> None:
    """Player 0 lays the 5H on the 7H (S6) while their hand is still over row place 3, which holds the
    6D: "the 6D played first, then the 5H on it" also explains the view, but nothing in it shows the
    6D moved. The view is held back; the next one shows the 6D still in its place, so the held-back
    view was the illegal play (said at its time), and then its take-back."""
    truth = position("5H AC 6D KS", "8S 2D JH 4S", "7H 10C")
    live = stress_live.start(view(truth, 0.0))
    live, f = stress_live.observe(live, seen(truth, 1.0, p1_pile1="-", p1_pile3="held", centre1="5H"))
    assert f == [] and live.held_back is not None
    live, f = stress_live.observe(live, seen(truth, 1.4, p1_pile1="-", centre1="5H"))
    assert [(x.kind, x.rule, x.t) for x in f] == [("illegal", "S6", 1.0)] and key(f[0].move) == ("play", 0, 0, 0)
    live, f = stress_live.observe(live, view(truth, 2.0))
    assert [x.kind for x in f] == ["taken_back"]
    # when the next view shows the place refilled, the 6D did go first: two legal plays
    truth = position("5H AC 6D KS", "8S 2D JH 4S", "7H 10C")
    live = stress_live.start(view(truth, 0.0))
    live, f = stress_live.observe(live, seen(truth, 1.0, p1_pile1="-", p1_pile3="held", centre1="5H"))
    assert f == []
    live, f = stress_live.observe(live, seen(truth, 1.4, p1_pile1="-", p1_pile3="2C", centre1="5H"))
    assert [(x.kind, key(x.move)) for x in f] == [("move", ("play", 0, 2, 0)), ("move", ("play", 0, 0, 0))]


def test_a_stress_is_called_at_once_and_settled_by_two_slaps() -> None:
    truth = position("8H 6S 9D KC", "9S 2D JH 4S", "7C 8D")
    live = stress_live.start(view(truth, 0.0))
    live, f = stress_live.slap(live, 1, 0.5)  # the tops do not match: a false slap
    assert [x.kind for x in f] == ["illegal"] and f[0].rule == "S8" and "false slap" in f[0].reason
    truth, calls = apply(truth, Play(0, 0, 0, 1.0))
    assert calls == ["stress"]
    live, f = stress_live.observe(live, view(truth, 1.0))
    assert [x.kind for x in f] == ["move", "call"] and f[1].verdict.kind == "stress" and f[1].t == 1.0
    assert f[1].rule == "S8"
    # player 1 plays the 9 of spades on the 8 of diamonds while the stress is open: S8
    live, f = stress_live.observe(live, seen(truth, 1.2, p2_pile1="QS", centre2="9S"))
    assert [x.kind for x in f] == ["illegal"] and f[0].rule == "S8"
    live, f = stress_live.observe(live, view(truth, 1.4))
    assert [x.kind for x in f] == ["taken_back"]
    # player 0 picks the centre piles up before the slaps are keyed in: the referee waits
    early = seen(truth, 1.6, centre1="-", centre2="-")
    live, f = stress_live.observe(live, early)
    assert f == [] and "slap" in live.waiting
    live, f = stress_live.slap(live, 1, 1.7, pile=1)
    assert [x.kind for x in f] == ["move"] and f[0].verdict.events[0].detail == "first: safe"
    live, f = stress_live.slap(live, 0, 1.8, pile=0)
    assert [x.kind for x in f] == ["move"]
    assert [e.kind for e in f[0].verdict.events] == ["slap", "take"]
    truth, _ = apply(truth, Slap(1, 1, 1.7))
    truth, _ = apply(truth, Slap(0, 0, 1.8))
    assert truth.phase is Phase.LAY and live.state.phase is Phase.LAY
    same_table(live, truth, stocks=False)
    assert len(live.state.seats[0].stock) == len(truth.seats[0].stock) + 21 - 4  # live counts 26-card halves
    # new centre cards laid at the same moment (S8 -> S4)
    truth, calls = apply(truth, Lay(2.0))
    live, f = stress_live.observe(live, seen(truth, 2.0, p1_stock="held"))  # a stress needs only the centre
    assert moves_of(f) == [("lay",)] and calls_of(f) == calls
    assert [c for c in live.state.tops()] == list(truth.tops())


def test_a_stress_is_called_while_the_rows_are_under_hands_but_not_on_an_unread_centre_card() -> None:
    # S8 concerns only the two centre tops: the view that shows both in the clear calls the stress,
    # though the player's hand is still over the row (refilling it) and the other player's over a stock
    truth = position("8H 6S 9D KC", "9S 2D JH 4S", "7C 8D")
    live = stress_live.start(view(truth, 0.0))
    truth, calls = apply(truth, Play(0, 0, 0, 1.0))
    assert calls == ["stress"]
    live2, f = stress_live.observe(live, seen(truth, 1.0, p1_pile1="held", p1_stock="held", p2_stock="held"))
    assert [x.kind for x in f] == ["move", "call"] and f[1].verdict.kind == "stress" and live2.deferred == 0
    # one centre top not read: the call would rest on it; the view waits for a clear one
    live2, f = stress_live.observe(live, seen(truth, 1.0, p1_pile1="held", centre2="?"))
    assert f == [] and live2.deferred == 1
    live2, f = stress_live.observe(live2, view(truth, 1.2))
    assert [x.kind for x in f] == ["move", "call"] and f[1].verdict.kind == "stress"
    # ... unless the camera, too unsure to read it, guesses it as the very card the position has there
    # (the stress comes a view sooner: the penguins queens are read at 0.2-0.3 view after view)
    obs = seen(truth, 1.0, p1_pile1="held")
    for guess, waits in (("8S", True), ("8D", False)):
        shown = replace(obs, piles={**obs.piles, "centre2": SeenPile((None,), guesses=(guess,))})
        live2, f = stress_live.observe(live, shown)
        assert (f == [] and live2.deferred == 1) if waits else [x.kind for x in f] == ["move", "call"], guess


def laid_after_slaps() -> tuple[LiveStress, StressState]:
    """A stress slapped by both players, followed live; the truth after the next cards are laid (S9)."""
    truth = position("8H 6S 9D KC", "9S 2D JH 4S", "7C 8D")
    truth, _ = apply(truth, Play(0, 0, 0, 1.0))
    live = stress_live.start(view(position("8H 6S 9D KC", "9S 2D JH 4S", "7C 8D"), 0.0))
    live, _ = stress_live.observe(live, view(truth, 1.0))
    for p in (1, 0):
        live, _ = stress_live.slap(live, p, 1.5)
        truth, _ = apply(truth, Slap(p, 0, 1.5))
    truth, _ = apply(truth, Lay(2.0))
    return live, truth


def test_unreadable_new_centre_cards_wait_for_a_clear_view() -> None:
    live, truth = laid_after_slaps()
    live, f = stress_live.observe(live, seen(truth, 2.0, centre1="?"))
    assert [x.kind for x in f] == ["ambiguous"] and live.state.phase is Phase.LAY
    live, f = stress_live.observe(live, view(truth, 2.5))
    assert moves_of(f) == [("lay",)]


def test_a_new_centre_card_never_read_is_taken_as_guessed_once_two_views_in_a_row_guess_it_alike() -> None:
    live, truth = laid_after_slaps()
    code = truth.centre[0][-1].code
    obs = view(truth, 2.0)

    def guessed(t: float, guess: str) -> Observation:
        return replace(obs, t=t, piles={**obs.piles, "centre1": SeenPile((None,), guesses=(guess,))})

    for k, guess in enumerate([code, "AS", code]):  # the second guess differs: the count starts again
        live, f = stress_live.observe(live, guessed(2.0 + 0.1 * k, guess))
        assert [x.kind for x in f] == ["ambiguous"] and live.state.phase is Phase.LAY, k
    live, f = stress_live.observe(live, guessed(2.5, code))
    assert moves_of(f) == [("lay",)] and live.state.centre[0][-1] == truth.centre[0][-1]
    assert "centre1's new card, never read surely, was guessed" in f[0].detail


def test_a_new_centre_card_never_read_nor_guessed_alike_is_laid_unseen_and_played_onto_unjudged() -> None:
    """Penguins, seed 54: a QS laid and never read (guessed QS at 0.07, then 6S) held every view while
    a 3S and a 2D were played onto the other new card; when a JC came onto the queen, four moves were
    more than one view explains, and the rest of the match was unrecognised. After a few views the
    lay is taken with the card unseen, and a play onto it goes on, not judged (nobody knows the card)."""
    live, truth = laid_after_slaps()
    for k in range(stress_live.UNSEEN_AFTER):
        live, f = stress_live.observe(live, seen(truth, 2.0 + 0.1 * k, centre1="?"))
        assert [x.kind for x in f] == ["ambiguous"] and live.state.phase is Phase.LAY, k
    live, f = stress_live.observe(live, seen(truth, 2.5, centre1="?"))
    assert moves_of(f) == [("lay",)] and "could not be read" in f[0].detail
    assert is_unseen(live.state.centre[0][-1]) and live.state.centre[1][-1] == truth.centre[1][-1]
    assert "centre1" not in live.waiting  # the game goes on
    # a slap now may answer a stress nobody could see: it is not called false
    _, f = stress_live.slap(live, 1, 2.6, 0)
    assert [x.kind for x in f] == ["ambiguous"] and "centre1 was never read" in f[0].detail
    # player 0's first row card lands on the unread card and is read there; its refill is not down yet
    card = truth.seats[0].row[0][-1]
    live, f = stress_live.observe(live, seen(truth, 3.0, centre1=card.code, p1_pile1="-"))
    assert moves_of(f) == [("play", 0, 0, 0)] and "never read on centre1: not judged" in f[0].detail
    assert not any(x.kind == "illegal" for x in f)
    assert live.state.centre[0][-1] == card and is_unseen(live.state.centre[0][-2])


def test_the_centre_piles_still_being_gathered_after_the_slaps_are_no_new_centre_cards() -> None:
    """Penguins, seed 62: the 10C and 10D of a stress, still in view a second after the last slap
    while the loser gathered them up, were taken for new centre cards (the stand-ins of the stocks
    fit any card), one laid unseen after views with a hand over it, and a play invented onto it. The
    piles' old tops, and views with a hand over a pile, are waited through; the new cards are laid."""
    live, truth = laid_after_slaps()
    old = {"centre1": "8H", "centre2": "8D"}  # the tops the slaps gave to the last slapper
    assert [c.code for c in live.state.gathered] == ["8H", "8D"]
    for k, zones in enumerate([old, {**old, "centre1": "held"}, {"centre1": "held", "centre2": "held"}, {"centre1": "held", "centre2": "-"},
                               {"centre1": "held", "centre2": "?"}, {"centre1": "held", "centre2": "?"}]):
        live, f = stress_live.observe(live, seen(truth, 1.6 + 0.1 * k, **zones))
        assert moves_of(f) == [] and live.state.phase is Phase.LAY, (k, f)
    live, f = stress_live.observe(live, view(truth, 2.5))
    assert moves_of(f) == [("lay",)] and live.state.gathered == ()
    assert [p[-1] for p in live.state.centre] == [p[-1] for p in truth.centre]


def test_the_piles_a_loser_without_stock_took_are_waited_on_until_seen_gone() -> None:
    """A last slapper with no stock left lays from the cards taken (S8, S9), so one of the tops taken
    may come down again as the next centre card. Penguins, Stress 136: the old tops still in view
    while the loser gathered them were taken for new centre cards (that loser's stock held them), and
    the true new cards for a second lay, illegal (S9). The old tops are waited through until the view
    shows both piles gone; from then on a top taken is a new centre card like any other."""
    truth = position("8H 6S 9D KC", "9S 2D JH 4S", "7C 8D", stock0="", stock1="QS QH AS AH")
    live = stress_live.resume({"players": [{"stock": 0, "row": ["8H", "6S", "9D", "KC"]},
                                           {"stock": 4, "row": ["9S", "2D", "JH", "4S"]}],
                               "centre": [["7C"], ["8D"]], "phase": "play"})
    truth, _ = apply(truth, Play(0, 0, 0, 1.0))
    live, _ = stress_live.observe(live, view(truth, 1.0))
    for p in (1, 0):
        live, _ = stress_live.slap(live, p, 1.5)
        truth, _ = apply(truth, Slap(p, 0, 1.5))
    assert [c.code for c in truth.seats[0].stock] == ["7C", "8H", "8D"] and not truth.seats[0].row[0]
    old = {"centre1": "8H", "centre2": "8D"}
    for k, zones in enumerate([old, {**old, "centre1": "held"}, {"centre1": "-", "centre2": "8D"}, {"centre1": "-", "centre2": "-"}]):
        live, f = stress_live.observe(live, seen(truth, 1.6 + 0.2 * k, **zones))
        assert moves_of(f) == [] and live.state.phase is Phase.LAY, (k, f)
    assert live.state.gathered == ()
    truth, _ = apply(truth, stress.Shuffle(0, stress.parse_card_list(["8D", "7C", "8H"], "stock"), 2.4))  # S8: shuffled
    truth, _ = apply(truth, Lay(2.5))
    live, f = stress_live.observe(live, view(truth, 2.5))
    assert moves_of(f) == [("lay",)] and not [x for x in f if x.kind == "illegal"]
    assert [p[-1].code for p in live.state.centre] == ["8D", "QS"]


def test_a_new_centre_card_read_once_and_then_only_guessed_alike_is_not_taken_for_nothing() -> None:
    """Penguins, seed 62: new centre cards QD and QS, guessed QD at 0.17 and read QS at 0.30; in the
    next view the QS was guessed at 0.28, both unread, and unread cards fit the old tops: nothing
    happened, and the stress they made was never called. A card the last view left unused read is
    still read where the camera guesses it the same."""
    live, truth = laid_after_slaps()
    one, two = (p[-1].code for p in truth.centre)
    obs = view(truth, 2.0)

    def faint(t: float, second: SeenPile) -> Observation:
        return replace(obs, t=t, piles={**obs.piles, "centre1": SeenPile((None,), guesses=(one,), confidences=(0.17,)), "centre2": second})

    live, f = stress_live.observe(live, faint(2.0, SeenPile((two,), guesses=(two,), confidences=(0.30,))))
    assert [x.kind for x in f] == ["ambiguous"]
    live, f = stress_live.observe(live, faint(2.1, SeenPile((None,), guesses=(two,), confidences=(0.28,))))
    assert moves_of(f) == [("lay",)] and [p[-1] for p in live.state.centre] == [p[-1] for p in truth.centre]


def test_a_row_card_boxed_as_a_back_is_a_card_not_read() -> None:
    """Penguins, seed 62: a QC in a row place boxed as a back, no face read there, was taken for a
    place gone wrong: every view after was unrecognised. A Stress row lies face up (S2)."""
    truth = position("6S 9D 2H 10C", "QC 4S 5H JS", "7C KD")
    live = stress_live.start(view(truth, 0.0))
    live, f = stress_live.observe(live, seen(truth, 1.0, p2_pile1="-"))
    assert [x.kind for x in f] == ["unrecognised"]  # an empty place is no card
    live = stress_live.start(view(truth, 0.0))
    obs = view(truth, 1.0)
    live, f = stress_live.observe(live, replace(obs, piles={**obs.piles, "p2.pile1": SeenPile((), 1)}))
    assert f == []


def test_an_illegal_play_that_a_hidden_place_could_have_made_legal_is_called_once_the_table_is_back() -> None:
    """Penguins, seed 62: a KC laid on a JC (S6), while the QC beside it was not read in its place:
    "the QC first, then the KC on it" explains the view too, so it was held back; the next view showed
    the JC again and the QC's place still unread, and the held view was dropped, the illegal play
    never called. A legal series is not taken back: the table as before says the hidden place never
    moved, and the held view was the illegal play, then its take-back."""
    truth = position("6S 9D KC 10S", "QC 4D 3H 8C", "JC 7H")
    live = stress_live.start(view(truth, 0.0))
    live, f = stress_live.observe(live, seen(truth, 1.0, p1_pile3="-", centre1="KC", p2_pile1="?"))
    assert f == [] and live.held_back is not None
    live, f = stress_live.observe(live, seen(truth, 2.0, p2_pile1="?"))
    assert [(x.kind, x.rule, x.t) for x in f] == [("illegal", "S6", 1.0), ("taken_back", "", 2.0)]
    assert key(f[0].move) == ("play", 0, 2, 0)


def test_a_row_card_never_read_played_where_the_centre_top_turns_unread_and_guessed_otherwise() -> None:
    """Penguins, seed 54: a QC refill never read (0.05) was played onto a KD whose pile then showed a
    card guessed 6C; its place read the next refill, 2H, which the referee learned as the QC's card
    (nothing happened), and the JD laid on the QC next was called illegal on the KD. A centre top
    read before, shown unread and guessed another card, with a place never read now showing a card
    read: that place's card was played there, unseen, and the card shown is its refill."""
    truth = position("6S 9D 2H 10C", "3D 4S 5H JS", "7C KD")
    live = stress_live.start(seen(truth, 0.0, p1_pile1="?"))
    assert is_unseen(live.state.seats[0].row[0][-1])
    after, _ = apply(truth, Play(0, 0, 0, 1.0))

    def guessed(guess: str, score: float) -> Observation:
        obs = view(after, 1.0)
        return replace(obs, piles={**obs.piles, "centre1": SeenPile((None,), guesses=(guess,), confidences=(score,))})

    played, f = stress_live.observe(live, guessed("6C", 0.2))
    assert moves_of(f) == [("play", 0, 0, 0)] and "p1.pile1's card, never read, played onto centre1" in f[0].detail
    assert is_unseen(played.state.centre[0][-1]) and played.state.seats[0].row[0][-1].code == after.seats[0].row[0][-1].code
    # the next card laid on it goes on, not judged
    later, _ = apply(after, Play(1, 2, 0, 2.0))
    played, f = stress_live.observe(played, view(later, 2.0))
    assert moves_of(f) == [("play", 1, 2, 0)] and "never read on centre1: not judged" in f[0].detail
    # a guess of the card that lay there, or one too faint, says nothing moved; so does a faint one
    # of a card the position knows (the 3D in p2's row) or of one that may not go on the 7C
    for guess, score in (("7C", 0.2), ("6C", 0.04), ("8D", 0.04), ("3D", 0.1), ("JH", 0.1)):
        _, f = stress_live.observe(live, guessed(guess, score))
        assert moves_of(f) == [], (guess, score)
    # penguins, seed 74: a faint guess (at least AGREEING_GUESS_FLOOR) of a card nobody knows that
    # may go on the top agrees with the play (a QC guessed at 0.13 on the KS it was played onto)
    for guess in ("6C", "8D"):
        _, f = stress_live.observe(live, guessed(guess, 0.1))
        assert moves_of(f) == [("play", 0, 0, 0)], guess


def test_a_row_card_guessed_on_a_centre_pile_and_gone_from_its_place_was_played_there() -> None:
    """Penguins, seed 70: a QH read in its row place was played onto a KC and guessed QH at 0.299
    there (reads start at 0.3), its refill guessed QC in the place; taken for nothing happening, the
    play was found 3.6 s later, after the other player's next play, and logged after it. The guess,
    the place the card left and the rules agree: the play is found at once. A place still showing the
    card, or a guess too faint, says nothing moved."""
    truth = position("6S 9D 2H 10C", "3D 4S QH JS", "7C KC", stock1="QC 3H AS AH")
    live = stress_live.start(view(truth, 0.0))
    after, _ = apply(truth, Play(1, 2, 1, 1.0))

    def guessed(centre: tuple[str, float], place: tuple[str, float]) -> Observation:
        return _shown(view(after, 1.0), centre2=SeenPile((None,), guesses=(centre[0],), confidences=(centre[1],)),
                      p2_pile3=SeenPile((None,), guesses=(place[0],), confidences=(place[1],)))

    played, f = stress_live.observe(live, guessed(("QH", 0.299), ("QC", 0.21)))
    assert moves_of(f) == [("play", 1, 2, 1)] and "the camera guessed QH on centre2" in f[0].detail, f
    assert played.state.centre[1][-1].code == "QH"
    for centre, place in ((("QH", 0.299), ("QH", 0.21)), (("QH", 0.10), ("QC", 0.21)), (("QS", 0.299), ("QC", 0.21))):
        _, f = stress_live.observe(live, guessed(centre, place))
        assert moves_of(f) == [], (centre, place)


def test_a_card_played_unread_is_not_learned_from_an_unsure_reading_that_would_not_fit_where_it_went() -> None:
    """Penguins, seed 73: a QC refill never read was played onto a KS (not judged: a card that fits),
    then read 6C at 0.30 there and learned so; the KH played onto it was called illegal on the 6C,
    and nothing more was followed (17/64). An unsure reading that would make the play one that did
    not fit is the camera's, not the player's: the card stays unread. One that fits is learned."""
    truth = position("QC 9D 2H 10C", "3D 4S KH JS", "7C KS")
    live = stress_live.start(seen(truth, 0.0, p1_pile1="?"))
    after, _ = apply(truth, Play(0, 0, 1, 1.0))
    obs = view(after, 1.0)
    played, f = stress_live.observe(live, _shown(obs, centre2=SeenPile((None,), guesses=("6C",), confidences=(0.2,))))
    assert moves_of(f) == [("play", 0, 0, 1)] and is_unseen(played.state.centre[1][-1]), f
    for read, learned in (("6C", False), ("QD", True)):
        looked, f = stress_live.observe(played, _shown(view(after, 2.0), centre2=SeenPile((read,), confidences=(0.30,))))
        assert moves_of(f) == [] and is_unseen(looked.state.centre[1][-1]) is not learned, (read, f)
    looked, _ = stress_live.observe(played, _shown(view(after, 2.0), centre2=SeenPile(("6C",), confidences=(0.30,))))
    later, _ = apply(after, Play(1, 2, 1, 3.0))
    _, f = stress_live.observe(looked, view(later, 3.0))
    assert moves_of(f) == [("play", 1, 2, 1)] and not [x for x in f if x.kind == "illegal"], f


def test_a_refill_laid_into_a_place_seen_bare_is_no_play_however_the_centre_top_is_guessed() -> None:
    """Penguins, seed 82: a QH on centre1 was guessed 9H at 0.14-0.24 view after view. A 4S played
    onto centre2 left its place bare (the refill not laid yet); the view that showed the refill 5S
    laid was taken for the unseen refill played onto the QH and the 5S as the next one: a play
    invented and the stock a card short. A refill no view has shown lying is the one its place shows
    next."""
    truth = position("10H 4S 4D AH", "QD 5D KS 4C", "QH 5H", stock0="5S 9C 9D 8C", stock1="2D 7H 6S 8S")
    live = stress_live.start(view(truth, 0.0))
    faint = SeenPile((None,), guesses=("9H",), confidences=(0.24,))
    truth, _ = apply(truth, Play(0, 1, 1, 1.0))
    live, f = stress_live.observe(live, _shown(view(truth, 1.0), centre1=faint, p1_pile2=SeenPile()))
    assert moves_of(f) == [("play", 0, 1, 1)], f
    live, f = stress_live.observe(live, _shown(view(truth, 2.0), centre1=faint))
    assert moves_of(f) == [], f
    same_table(live, truth, stocks=False)
    assert len(live.state.seats[0].stock) == 26 - 4 - 1 - 1  # the half less its row and centre card: one refill


def test_slaps_on_two_cards_never_read_are_judged_when_the_piles_are_seen_taken() -> None:
    """Penguins, seed 70 again: the stress of a QS and a QC, both played unread, could not be called,
    so the slaps went unwatched and the piles taken were left in the position. While a centre top
    nobody read may match the other, the hands are watched all the same; what they did is kept, not
    judged: a hand that reached a pile to play on it made no slap, and the view that shows both piles
    taken (only a stress takes them) makes the stress, on the cards as the camera last made of them,
    and the slaps. A play judged as a card that fits names no card in the log."""
    truth = position("QS 8C 5D 5C", "6H AD QC KD", "KC JC", stock0="6D 9S 3S 4S", stock1="2D 7H 6S 8S")
    deal = _shown(view(truth, 0.0), p1_pile1=SeenPile((None,)), p2_pile3=SeenPile((None,), guesses=("QC",), confidences=(0.2,)))
    live = stress_live.start(deal)
    assert stress_live.slappers(live) == frozenset()  # both tops read: no stress, none unknown
    truth, _ = apply(truth, Play(0, 0, 0, 1.0))
    live, f = stress_live.observe(live, _shown(view(truth, 1.0), centre1=SeenPile((None,), guesses=("QS",), confidences=(0.12,)),
                                               p2_pile3=SeenPile((None,), guesses=("QC",), confidences=(0.2,))))
    assert moves_of(f) == [("play", 0, 0, 0)], f
    play = f[0].verdict.events[0]
    assert play.cards == () and play.detail == "a card nobody read on the king of clubs", play
    assert stress_live.slappers(live) == {0, 1}  # a card nobody read beside the JC: it may be a jack
    key = stress_live.slap_key(live)
    live, f = stress_live.slap(live, 1, 1.5, pile=1, seen=True)  # player 2's hand, on its way to play
    assert f == [] and stress_live.slappers(live) == {0}
    truth, calls = apply(truth, Play(1, 2, 1, 2.0))
    assert calls == ["stress"]
    live, f = stress_live.observe(live, _shown(view(truth, 2.0), centre1=SeenPile((None,), guesses=("QS",), confidences=(0.12,)),
                                               centre2=SeenPile((None,), guesses=("QC",), confidences=(0.02,))))
    assert moves_of(f) == [("play", 1, 2, 1)] and calls_of(f) == [], f
    # the card played: the hand that reached the pile was no slap, and the watch starts afresh
    assert stress_live.slappers(live) == {0, 1} and stress_live.slap_key(live) != key
    for k, slapper in enumerate((0, 1)):
        truth, _ = apply(truth, Slap(slapper, 0, 3.0 + k))
        live, f = stress_live.slap(live, slapper, 3.0 + k, pile=0, seen=True)
        assert f == []
    stock = len(live.state.seats[1].stock)
    live, f = stress_live.observe(live, view(truth, 5.0))  # both piles taken: the players saw a stress
    assert [x.kind for x in f] == ["call", "move", "move"] and f[0].verdict.kind == "stress" and f[0].t == 3.0, f
    assert [c.code for c in f[0].verdict.cards] == ["QS", "QC"] and "nobody read QS and QC surely" in f[1].detail
    assert [(m.player, m.t) for m in (x.move for x in f[1:])] == [(0, 3.0), (1, 4.0)]
    assert live.state.phase is Phase.LAY and not any(live.state.centre)
    assert len(live.state.seats[1].stock) == stock + 4  # the last slapper took both piles
    truth, _ = apply(truth, Lay(6.0))
    live, f = stress_live.observe(live, view(truth, 6.0))
    assert moves_of(f) == [("lay",)], f
    assert [pile[-1].code for pile in live.state.centre] == [pile[-1].code for pile in truth.centre]


def test_centre_piles_taken_after_a_stress_nobody_saw_go_into_a_stock_shown_later() -> None:
    """Penguins, seed 104: a QC played onto a JH was read 6C, so the referee saw no stress beside the
    QD, watched no hands, and left the piles the players took in its position: the rest of the round
    was lost (35 of 64 moves). Only a stress takes the centre piles in play, so a view showing them
    taken starts the next centre cards (S8), said as the referee taking the table up again; the cards
    are kept as gone into a stock nobody can name, and given to the first stock the view shows
    holding cards where the position runs short."""
    truth = position("7H 6S 9D KC", "8S 2D JH 4S", "7C 8D", stock0="2C 3C 4C 5C", stock1="QS 10H 9C")
    seat0, seat1 = truth.seats
    # the referee knows the stocks' sizes, and never read p1's 7H
    picture = replace(truth, seats=(replace(seat0, stock=tuple(unseen() for _ in seat0.stock), row=((unseen(),), *seat0.row[1:])),
                                    replace(seat1, stock=tuple(unseen() for _ in seat1.stock))))
    live = LiveStress(picture)
    truth, calls = apply(truth, Play(0, 0, 1, 1.0))
    assert calls == ["stress"]
    live, f = stress_live.observe(live, _shown(view(truth, 1.0), centre2=SeenPile(("9H",), confidences=(0.45,))))
    assert moves_of(f) == [("play", 0, 0, 1)] and calls_of(f) == [] and stress_live.slappers(live) == frozenset()
    for k, slapper in enumerate((0, 1)):
        truth, _ = apply(truth, Slap(slapper, 0, 1.5 + k))  # unwatched: p2 pays, the piles under its stock
    live, f = stress_live.observe(live, view(truth, 3.0))
    assert [x.kind for x in f] == ["rejoined"] and "centre1 and centre2 taken" in f[0].detail, f
    assert live.state.phase is Phase.LAY and not any(live.state.centre) and live.untold == 3
    assert stress_live.resume(stress_live.public_state(live)).untold == 3  # (a crash now loses none)
    truth, _ = apply(truth, Lay(4.0))
    live, f = stress_live.observe(live, view(truth, 4.0))
    assert moves_of(f) == [("lay",)], f
    # p2's stock as the referee counted it runs out after two refills: the third is the 7C taken
    for t, move in ((5.0, Play(1, 1, 0, 5.0)), (6.0, Play(1, 2, 1, 6.0)), (7.0, Play(1, 1, 1, 7.0))):
        truth, _ = apply(truth, move)
        live, f = stress_live.observe(live, view(truth, t))
        assert moves_of(f) == [key(move)], f
    assert live.untold == 0 and [len(s.stock) for s in live.state.seats] == [len(s.stock) for s in truth.seats]
    assert live.state.seats[1].row[1][-1].code == "7C"


def test_a_new_centre_card_read_in_a_view_left_unused_then_covered_twice_is_followed() -> None:
    """Penguins, seed 119: new centre cards 3D and QC, the QC unreadable, so the view that read the 3D
    surely was left unused; p2 then played a 4H and a 3H onto the 3D before the next view. The series
    must keep the 3D (a view read it), but judged the covered card as the first free card of a rank
    that fits the 4H, another 3: nothing explained the view, and 19 moves were lost. A covered card
    nobody read in a view taken is judged as the card a view left unused read there, when it fits."""
    truth = position("2H 2S 5D 6S", "4H 3H 7C 5C", "KD 9C", stock0="3D 10D", stock1="QC 2C 7S")
    # the referee knows the stocks' sizes (scripted stocks are short), not their cards
    live = LiveStress(replace(truth, seats=tuple(replace(seat, stock=tuple(unseen() for _ in seat.stock)) for seat in truth.seats)))
    live, f = stress_live.observe(live, view(truth, 0.5))
    assert f == [] and live.state.stuck
    after, _ = apply(truth, Lay(1.0))
    live, f = stress_live.observe(live, _shown(view(after, 1.0), centre2=SeenPile((None,))))
    assert [x.kind for x in f] == ["ambiguous"] and "not readable yet on centre2" in f[0].detail
    after, _ = apply(after, Play(1, 0, 0, 1.5))  # the 4H onto the 3D, its refill 2C
    after, _ = apply(after, Play(1, 1, 0, 1.7))  # the 3H onto the 4H, its refill 7S
    live, f = stress_live.observe(live, _shown(view(after, 2.0), centre2=SeenPile(("QC",), confidences=(0.38,))))
    assert moves_of(f) == [("lay",), ("play", 1, 0, 0), ("play", 1, 1, 0)], f
    assert [c.code for c in live.state.centre[0][-2:]] == ["4H", "3H"] and live.state.centre[1][-1].code == "QC"


def test_no_stuck_call_rests_on_a_refill_not_laid_after_new_centre_cards_answered_the_last() -> None:
    """Penguins, seed 119: a stuck call answered by new centre cards, then a play onto one whose refill
    was not laid yet: the position after it stuck only because nobody knew the refill, and the call was
    made (the position before had been stuck, so the check for a call resting on a card not seen let it
    through). A call the series makes anew rests on what it rests on."""
    truth = position("2H 3D 4C 4S", "5H 5S 7C 7D", "KD 9C", stock0="JC QC", stock1="6D 8H AC")
    live = stress_live.start(view(truth, 0.0))
    live, f = stress_live.observe(live, view(truth, 0.5))
    assert live.state.stuck
    after, _ = apply(truth, Lay(1.0))
    after, _ = apply(after, Play(1, 2, 1, 1.2))  # the 7C onto the 6D; its refill, an 8H, fits the 7C
    live, f = stress_live.observe(live, seen(after, 1.5, p2_pile3="-"))
    assert moves_of(f) == [("lay",), ("play", 1, 2, 1)] and calls_of(f) == [], f
    assert not live.state.stuck


def test_a_stuck_call_does_not_rest_on_a_guess_the_card_played_cannot_be() -> None:
    """Penguins, seed 119: p2's QS, never read, played onto a JH and guessed 6S there (0.17); with the 6S
    nobody could play, and the call was made on the guess, then withdrawn when p1 played on the queen.
    A card laid by a play is one rank from the card it covers: a guess of another rank is no card it
    may be, and a queen lets p1's JS play."""
    truth = position("JS 2H 3D 8C", "QS 2S 3S KD", "JH 5C", stock0="9S 10S", stock1="AC AD")
    live = stress_live.start(_shown(view(truth, 0.0), p2_pile1=SeenPile((None,), guesses=("6S",), confidences=(0.2,))))
    after, _ = apply(truth, Play(1, 0, 0, 1.0))
    live, f = stress_live.observe(live, _shown(view(after, 1.0), centre1=SeenPile((None,), guesses=("6S",), confidences=(0.2,))))
    assert moves_of(f) == [("play", 1, 0, 0)] and calls_of(f) == [], f


def test_a_stock_seen_empty_that_the_referee_counts_a_card_more_is_taken_as_empty() -> None:
    """Penguins, seed 120: a QC stacked onto a QH unseen, its refill learned as the QC's card, left
    p1's stock counted a card too many. When it ran out, the view was unrecognised, and the refill the
    count still owed stood as a card not laid yet in p1's row, holding four stuck calls. A stock is a
    count nobody sees: shown empty (no hand over it) where a view's refills would empty it, it is."""
    truth = position("7H 6S 9D KC", "8S 2D JH 4S", "8C 10D", stock0="2C", stock1="QS QH AS")
    seat0, seat1 = truth.seats
    picture = replace(truth, seats=(replace(seat0, stock=(unseen(), unseen())), replace(seat1, stock=tuple(unseen() for _ in seat1.stock))))
    live = LiveStress(picture)
    after, _ = apply(truth, Play(0, 0, 0, 1.0))  # the 7H onto the 8C, its refill the 2C, p1's last stock card
    live, f = stress_live.observe(live, view(after, 1.0))
    assert moves_of(f) == [("play", 0, 0, 0)] and "p1.stock shows empty: 1 card(s) fewer than counted" in f[0].detail, f
    assert not live.state.seats[0].stock


def test_a_game_taken_up_again_trusts_no_card_under_a_centre_top_and_keeps_what_it_lacks() -> None:
    """A referee that lost the game takes the table up again as it lies (:func:`stress_live.rejoin`).
    The cards under the centre tops are what the lost picture made of them, likely wrong (penguins,
    seed 104: the piles taken after a stress it missed were left in its position, and every later
    refill of a card it held there was unrecognised): they are taken as cards nobody read. What the
    new picture lacks of the deck (centre piles seen taken) lies in a stock nobody can name."""
    truth = position("10H 4S 5H JS", "6D 7S 8H 9S", "JC 8S", stock0="2D 3H", stock1="2C 3C 4C")
    seat0 = truth.seats[0]
    wrong = (Card.parse("2D"), Card.parse("3C"), truth.centre[0][-1])  # the 2D still in p1's stock
    lost = LiveStress(replace(truth, centre=(wrong, truth.centre[1]), seats=(replace(seat0, stock=(unseen(), unseen())), truth.seats[1])))
    again = stress_live.rejoin(lost, view(truth, 1.0))
    assert again is not None and again.untold == 0
    assert [c.code for c in again.state.centre[0][-1:]] == ["JC"] and all(is_unseen(c) for c in again.state.centre[0][:-1])
    truth, _ = apply(truth, Play(0, 0, 0, 2.0))  # the 10H onto the JC, its refill the 2D
    again, f = stress_live.observe(again, view(truth, 2.0))
    assert moves_of(f) == [("play", 0, 0, 0)] and [c for _, c in f[0].learned] == ["2D"], f
    taken = stress_live.rejoin(lost, seen(truth, 3.0, centre1="-", centre2="-"))
    assert taken is not None and taken.state.centre == ((), ()) and taken.untold == 4


def test_a_play_under_a_hand_whose_place_shows_a_card_of_its_rank_waits_for_the_hand_to_go() -> None:
    """Penguins, seed 116: p1's QH, a refill guessed 9H, stacked onto the QC beside it (S3) while the
    hand hid the KH on centre2; the QC was taken for played onto the KH with the QH its refill (the
    guess agreed better), the next view showing the KH was unrecognised and the round lost until the
    table was taken up again. Nothing showed the QC land: the view is left for the next one."""
    truth = position("4D 7C QC JS", "4H 8H 9D 2S", "6C KH", stock0="QH AH 3C", stock1="2C 3H")
    live = stress_live.start(view(truth, 0.0))
    truth, _ = apply(truth, Play(0, 1, 0, 1.0))  # the 7C onto the 6C, its refill the QH
    live, f = stress_live.observe(live, _shown(view(truth, 1.0), p1_pile2=SeenPile((None,), guesses=("9H",), confidences=(0.17,))))
    assert moves_of(f) == [("play", 0, 1, 0)], f
    truth, _ = apply(truth, Stack(0, 1, 2, 2.0))
    under_hand = seen(truth, 2.0, centre2="held", p1_pile2="held", p1_stock="held")
    live, f = stress_live.observe(live, _shown(under_hand, p1_pile3=SeenPile(("QH",), confidences=(0.44,))))
    assert f == [] and live.deferred == 1
    live, f = stress_live.observe(live, view(truth, 3.0))
    assert moves_of(f) == [("stack", 0, 1, 2)], f
    assert [c.code for c in live.state.seats[0].row[2]] == ["QC", "QH"]


def test_a_slap_keyed_in_on_a_card_never_read_waits_for_the_piles() -> None:
    """A key-pressed slap while a centre top was never read is not judged, and says so; a card played
    onto the piles after it shows there was no stress, and the slap is forgotten."""
    truth = position("QS 8C 5D 5C", "6H AD 10D KD", "KC JC", stock0="6D 9S 3S 4S", stock1="2D 7H 6S 8S")
    live = stress_live.start(_shown(view(truth, 0.0), p1_pile1=SeenPile((None,))))
    truth, _ = apply(truth, Play(0, 0, 0, 1.0))
    unread = SeenPile((None,), guesses=("QS",), confidences=(0.12,))
    live, f = stress_live.observe(live, _shown(view(truth, 1.0), centre1=unread))
    assert moves_of(f) == [("play", 0, 0, 0)], f
    live, f = stress_live.slap(live, 1, 1.5, pile=0)
    assert [x.kind for x in f] == ["ambiguous"] and "judged when the centre piles are seen taken" in f[0].detail
    assert stress_live.slappers(live) == {0}
    truth, _ = apply(truth, Play(1, 2, 1, 2.0))  # the 10D onto the JC: a play, the slap forgotten
    live, f = stress_live.observe(live, _shown(view(truth, 2.0), centre1=unread))
    assert moves_of(f) == [("play", 1, 2, 1)] and stress_live.slappers(live) == {0, 1}


def test_a_stress_of_two_cards_never_read_is_not_taken_for_new_centre_cards_learned_as_them() -> None:
    """Penguins, seed 70: a QS and then a QC, both refills never read, were played onto the KC and
    the JC (a stress); the QC's pile showed a face guessed QC at 0.02 only, and its place its refill
    2D read surely, where the camera had guessed QC before. Taken for nothing happening, the QC was
    learned as the 2D; and after the slaps, the next centre cards 6S and 3S were learned as the two
    queens (the lay missed). Such a faint guess of another card says as little as none: the QC was
    played, unread. A card played unread is no new centre card not down yet, nor a card read there
    that may not go where it was played: the piles were taken and new cards laid."""
    truth = position("QS 8C 5D 5C", "6H AD QC KD", "KC JC", stock0="6D 9S 3S 4S", stock1="2D 7H 6S 8S")
    deal = _shown(view(truth, 0.0), p1_pile1=SeenPile((None,)), p2_pile3=SeenPile((None,), guesses=("QC",), confidences=(0.2,)))
    live = stress_live.start(deal)
    truth, _ = apply(truth, Play(0, 0, 0, 1.0))
    live, f = stress_live.observe(live, _shown(view(truth, 1.0), centre1=SeenPile((None,), guesses=("6C",), confidences=(0.2,)),
                                               p2_pile3=SeenPile((None,), guesses=("QC",), confidences=(0.2,))))
    assert moves_of(f) == [("play", 0, 0, 0)], f
    truth, calls = apply(truth, Play(1, 2, 1, 2.0))
    assert calls == ["stress"]
    live, f = stress_live.observe(live, _shown(view(truth, 2.0), centre1=SeenPile((None,)),
                                               centre2=SeenPile((None,), guesses=("QC",), confidences=(0.02,))))
    assert moves_of(f) == [("play", 1, 2, 1)] and "p2.pile3's card, never read, played onto centre2" in f[0].detail, f
    assert all(is_unseen(pile[-1]) for pile in live.state.centre)
    for k, slapper in enumerate((0, 1)):
        truth, _ = apply(truth, Slap(slapper, 0, 3.0 + k))
    live, f = stress_live.observe(live, view(truth, 5.0))  # the piles taken: not new cards not down yet
    assert moves_of(f) == [], f
    truth, _ = apply(truth, Lay(6.0))
    live, f = stress_live.observe(live, view(truth, 6.0))
    assert moves_of(f) == [("lay",)], f
    assert [pile[-1].code for pile in live.state.centre] == [pile[-1].code for pile in truth.centre]
    assert all(is_unseen(pile[-2]) for pile in live.state.centre)


def test_of_two_refills_never_read_the_one_guessed_as_the_card_played_was_played() -> None:
    """Penguins, seed 76: a 7S refill guessed 7S at 0.23 was played onto a 6C and read there, while
    a refill beside it was guessed 6C all along: either place fitted the view (the other refill
    learned as the card that showed), the play was logged as ambiguous, and then missed. The series
    that learns no refill as another card than the camera guessed it lying in its place wins."""
    truth = position("6S 9D 2H 10C", "3D 4S 5H JS", "7C KD")

    def unread(obs: Observation) -> Observation:
        return _shown(obs, p1_pile2=SeenPile((None,), guesses=("9D",), confidences=(0.2,)))

    deal = _shown(unread(view(truth, 0.0)), p1_pile1=SeenPile((None,), guesses=("6S",), confidences=(0.2,)))
    live = stress_live.start(deal)
    live, f = stress_live.observe(live, replace(deal, t=0.5))  # taken: the camera's guesses of both lying there
    assert f == [] and sorted(live.laid.values()) == [("6S", 0.2), ("9D", 0.2)]
    after, _ = apply(truth, Play(0, 0, 0, 1.0))
    played, f = stress_live.observe(live, unread(view(after, 1.0)))
    assert moves_of(f) == [("play", 0, 0, 0)], f
    assert played.state.centre[0][-1].code == "6S" and is_unseen(played.state.seats[0].row[1][-1])


def test_of_two_refills_never_read_the_one_guessed_as_its_rank_was_played_over_one_guessed_too_faintly() -> None:
    """kennard_big, seed 124: p1's 7C, guessed 7S at 0.21 in its place, was played onto a 6C and read
    there; the refill beside it, guessed too faintly to count, was taken for it, as it learned no card
    against a guess. A guess of the card's rank in another suit agrees with it more than none."""
    truth = position("6S 9D 2H 10C", "3D 4S 5H JS", "7C KD")

    def unread(obs: Observation) -> Observation:
        return _shown(obs, p1_pile2=SeenPile((None,), guesses=("QD",), confidences=(0.05,)))

    deal = _shown(unread(view(truth, 0.0)), p1_pile1=SeenPile((None,), guesses=("6C",), confidences=(0.2,)))
    live = stress_live.start(deal)
    live, f = stress_live.observe(live, replace(deal, t=0.5))
    assert f == [] and sorted(live.laid.values()) == [("6C", 0.2), ("QD", 0.05)]
    after, _ = apply(truth, Play(0, 0, 0, 1.0))
    played, f = stress_live.observe(live, unread(view(after, 1.0)))
    assert moves_of(f) == [("play", 0, 0, 0)], f
    assert played.state.centre[0][-1].code == "6S" and is_unseen(played.state.seats[0].row[1][-1])


def test_a_centre_card_taken_from_a_wrong_guess_is_read_anew_once_a_view_reads_it_surely() -> None:
    """Penguins, seed 53: the lay's QC, guessed 9C view after view, was taken as a 9C, and every view
    after it was unrecognised. The first view that reads the card surely sets it right."""
    live, truth = laid_after_slaps()
    card = truth.centre[0][-1]
    known = {c.code for seat in truth.seats for pile in seat.row for c in pile} | {p[-1].code for p in truth.centre if p}
    wrong = next(c for c in ("9C", "2D", "5S", "8H", "JD") if c not in known)
    obs = view(truth, 2.0)
    for k in range(2):
        live, f = stress_live.observe(live, replace(obs, t=2.0 + 0.1 * k, piles={**obs.piles, "centre1": SeenPile((None,), guesses=(wrong,))}))
    assert moves_of(f) == [("lay",)] and live.state.centre[0][-1].code == wrong
    assert wrong not in live.reads  # a guess is no reading
    live, f = stress_live.observe(live, replace(obs, t=3.0))
    assert f == [] and live.state.centre[0][-1] == card and live.reads[card.code] >= 1
    # a play onto it is judged on the card read
    p, i = next((p, i) for p, seat in enumerate(truth.seats) for i, pile in enumerate(seat.row)
                if pile and isinstance(stress.apply(truth, Play(p, i, 0, 4.0)), Legal))
    after, _ = apply(truth, Play(p, i, 0, 4.0))
    live, f = stress_live.observe(live, view(after, 4.0))
    assert moves_of(f) == [("play", p, i, 0)]


def test_a_card_read_at_the_deal_is_not_put_right_by_a_later_reading() -> None:
    """Only a card no view has read (taken from a guess) is read anew: the deal's centre cards were
    read, so a view reading another card there is a change nothing explains, not a correction."""
    truth = position("6S 9D 2H 10C", "3D 4S 5H JS", "7C KD")
    live = stress_live.start(view(truth, 0.0))
    assert live.reads["7C"] == 1 and live.reads["JS"] == 1
    live, f = stress_live.observe(live, seen(truth, 1.0, centre1="8H"))
    assert [x.kind for x in f] == ["unrecognised"] and live.state.centre[0][-1].code == "7C"


def test_the_rounds_end_rests_on_the_winners_places_only() -> None:
    """Penguins, seed 55: the last card of player 2 laid, but a QC in player 1's row never read held
    the round's end (S10) for a view with nothing unread, until the cards were gathered; the second
    round was never followed. The winner's places showing nothing make the call certain."""
    picture = {"players": [{"stock": 5, "row": [["QC"], ["4D"], ["9H"], ["2C"]]}, {"stock": 0, "row": [["KS"], [], [], []]}],
               "centre": [["AC"], ["6H"]], "phase": "play"}
    live = stress_live.resume(picture, StressRules(), 1.0)
    piles = {row_zone(0, i): SeenPile((c,)) for i, c in enumerate([None, "4D", "9H", "2C"])}
    piles |= {row_zone(1, i): SeenPile() for i in range(4)} | {stock_zone(0): SeenPile((), 1), stock_zone(1): SeenPile()}
    obs = Observation(2.0, {**piles, "centre1": SeenPile(("KS",)), "centre2": SeenPile(("6H",))})
    after, f = stress_live.observe(live, obs)
    assert moves_of(f) == [("play", 1, 0, 0)] and calls_of(f) == ["round_over"] and after.state.phase is Phase.ROUND_OVER
    # a hand over the winner's empty stock leaves the call for a clearer view
    held = replace(obs, piles={**obs.piles, stock_zone(1): SeenPile(held=True)})
    after, f = stress_live.observe(live, held)
    assert f == [] and after.state.phase is Phase.PLAY and after.deferred == 1


def test_what_the_camera_could_not_read_is_settled_by_the_rules() -> None:
    # Player 0's 6 of spades left the row (its refill shows) but neither centre card can be read:
    # the 6 fits the 7 of clubs, not the king of diamonds, so it went on centre pile 0.
    truth = position("6S 9D 2H 10C", "3D 4S 5H JS", "7C KD")
    live = stress_live.start(view(truth, 0.0))
    truth, _ = apply(truth, Play(0, 0, 0, 1.0))
    live, f = stress_live.observe(live, seen(truth, 1.0, centre1="?", centre2="?", p2_pile1="held"))
    assert [(x.kind, key(x.move)) for x in f] == [("move", ("play", 0, 0, 0))]
    assert f[0].learned and f[0].learned[0][1] == "2C"  # the refill, read where it lies
    # the same with a 6 that fits both centre piles: which one cannot be told; nothing is invented
    truth = position("6S 9D 2H 10C", "3D 4S 8H JS", "7C 5H")
    live = stress_live.start(view(truth, 0.0))
    truth, _ = apply(truth, Play(0, 0, 1, 1.0))
    live2, f = stress_live.observe(live, seen(truth, 1.0, centre1="?", centre2="?"))
    assert [x.kind for x in f] == ["ambiguous"] and live2.state == live.state
    live, f = stress_live.observe(live, view(truth, 1.5))
    assert [(x.kind, key(x.move)) for x in f] == [("move", ("play", 0, 0, 1))]
    same_table(live, truth, stocks=False)


def test_a_card_from_nowhere_is_unrecognised_and_changes_nothing() -> None:
    truth = position("6S 9D 2H 10C", "3D 4S 5H JS", "7C KD")
    live = stress_live.start(view(truth, 0.0))
    live2, f = stress_live.observe(live, seen(truth, 1.0, centre1="9D"))  # the 9 of diamonds is still in the row
    assert [x.kind for x in f] == ["unrecognised"] and "centre1" in f[0].detail
    assert live2.state == live.state


def test_no_verdict_on_a_row_card_nobody_read_laid_where_it_may_not_go() -> None:
    """Penguins, seed 59: a QH never read in its place, stacked on a QS, was called S3 ("an unseen card
    on the queen of spades"), and a QC never read, played, S6: verdicts the engine gave a card nobody
    saw, which it judges as fitting nothing, whatever the camera made of it where it landed. A card
    never read in its place gets no verdict (one reading where it lands is too little: there it was
    misread). The same card read in its place is judged."""
    truth = position("6S 9D 2H 10C", "3D 4S 5H JS", "7C KD")
    live = stress_live.start(seen(truth, 0.0, p1_pile1="?"))
    assert is_unseen(live.state.seats[0].row[0][-1])
    _, f = stress_live.observe(live, seen(truth, 1.0, p1_pile1="2C", p1_pile2="9D 6S"))
    assert "illegal" not in [x.kind for x in f], [(x.kind, x.reason) for x in f]
    live = stress_live.start(view(truth, 0.0))
    _, f = stress_live.observe(live, seen(truth, 1.0, p1_pile1="2C", p1_pile2="9D 6S"))
    assert [(x.kind, x.rule) for x in f] == [("illegal", "S3")] and "6 of spades" in f[0].reason
    # a referee that has lost the game charges the illegal moves it tries to its search budget
    with search_budget(0):
        _, f = stress_live.observe(live, seen(truth, 1.0, p1_pile1="2C", p1_pile2="9D 6S"))
    assert [x.kind for x in f] == ["illegal"]
    with search_budget(0, lost=True):
        _, f = stress_live.observe(live, seen(truth, 1.0, p1_pile1="2C", p1_pile2="9D 6S"))
    assert [x.kind for x in f] == ["unrecognised"]


def test_a_refill_never_read_stacked_at_once_is_the_card_read_on_the_pile_it_went_onto() -> None:
    """Penguins, seed 59: a QH refill, read once at 0.5 before the view was judged, was stacked on the
    QS beside it at once. The QH then read on the QS's place fitted no series (a card nobody read
    stacks onto nothing), the referee's second look took it for a misread of the QS, and two plays
    were invented later to bring a QH on top of that pile. The card read on top of the pile a refill
    nobody read went onto is that refill, as a card read on a centre pile is the refill played there."""
    truth = position("6S 9D 2H 10C", "QS QH 5H JS", "7C KD", stock1="8C 4S AS AH")
    live = stress_live.start(seen(truth, 0.0, p2_pile2="?"))
    assert is_unseen(live.state.seats[1].row[1][-1])
    after, _ = apply(truth, Stack(1, 1, 0, 1.0))
    live, f = stress_live.observe(live, seen(after, 1.0, p2_pile1="QH", p2_pile2="-"))
    assert moves_of(f) == [("stack", 1, 1, 0)], f
    assert [c.code for c in live.state.seats[1].row[0]] == ["QS", "QH"]
    # the refill laid in the freed place is then learned, nothing more moved
    live, f = stress_live.observe(live, seen(after, 2.0, p2_pile1="QH"))
    assert f == [] and live.state.seats[1].row[1][-1].code == after.seats[1].row[1][-1].code
    # read on a pile of another rank it is no stack: nothing explains it
    _, f = stress_live.observe(stress_live.start(seen(truth, 0.0, p2_pile2="?")), seen(after, 1.0, p2_pile1="QH", p2_pile3="QD", p2_pile2="-"))
    assert moves_of(f) == []


def test_a_misreading_that_moves_with_its_card_shows_a_stack() -> None:
    """Penguins, seed 67: a QC refill, read 6C at 0.35 (the real 6C lay unread beside it, guessed 6C
    at 0.52), was learned as the 6C. Stacked onto the QD, the QD's place showed 6C at 0.14, the QC's
    its refill 6H: taken for nothing happening (a 6H read where a 6C lay: a suit), and the stack was
    missed. The misreading moved with the card: the card learned from it, never read surely, is
    doubted, and its stack found, the card unread (of the QD's rank, nobody knows which queen)."""
    truth = position("9C 5C 2H QH", "6C QD QC JS", "4C 7S", stock0="2C 3C 8D 9D", stock1="6H 4S AS AH")
    faint_6c = SeenPile((None,), guesses=("6C",), confidences=(0.52,))
    misread = SeenPile(("6C",), confidences=(0.35,))
    live = stress_live.start(_shown(view(truth, 0.0), p2_pile1=faint_6c, p2_pile3=misread))
    for k in range(1, 9):  # read so in view after view, as it lay there for a minute
        live, f = stress_live.observe(live, _shown(view(truth, k / 10), p2_pile1=faint_6c, p2_pile3=misread))
        assert f == []
    assert live.state.seats[1].row[2][-1].code == "6C" and is_unseen(live.state.seats[1].row[0][-1])
    after, _ = apply(truth, Stack(1, 2, 1, 1.0))
    assert after.seats[1].row[2][-1].code == "6H"
    # as the live referee's second look has it (readings under DOUBT_BELOW left unread): the 6H read
    # at 0.48 fits the 6C, nothing moved, but for the 6C now guessed on the QD
    live, f = stress_live.observe(live, _shown(view(after, 1.0), p2_pile1=faint_6c,
                                               p2_pile2=SeenPile((None,), guesses=("6C",), confidences=(0.14,)),
                                               p2_pile3=SeenPile((None,), guesses=("6H",), confidences=(0.48,))))
    assert moves_of(f) == [("stack", 1, 2, 1)] and "p2.pile3's card, never read, stacked onto p2.pile2" in f[0].detail, f
    pile = live.state.seats[1].row[1]
    assert pile[0].code == "QD" and is_unseen(pile[-1]) and is_unseen(live.state.seats[1].row[2][-1])
    assert "6C" not in [c.code for c in live.state.all_cards() if not is_unseen(c)]  # free for the card read as it


def test_a_refill_nobody_read_stacked_where_another_rank_is_guessed_now_is_found() -> None:
    """Penguins, seed 84: a QC refill guessed QC at 0.17 in its place was stacked onto the QS beside
    it, guessed 9C at 0.1496 there, its refill JS read: taken for nothing happening (the JS the QC's
    card) and a stuck call; the stack and two plays after it were missed. A place that shows a card
    of another rank than the one lying there, unread, while a refill beside it is gone: the refill
    was stacked there (not for a guess of the same rank in another suit: the reading wavering)."""
    truth = position("QS AH JD QC", "3H 2C 3C KH", "9H 5S", stock0="JS 2D 8C 9C", stock1="4S 7H 6S 8S")
    faint = SeenPile((None,), guesses=("QC",), confidences=(0.17,))
    live = stress_live.start(_shown(view(truth, 0.0), p1_pile4=faint))
    live, f = stress_live.observe(live, _shown(view(truth, 0.5), p1_pile4=faint))
    assert f == [] and is_unseen(live.state.seats[0].row[3][-1])
    after, _ = apply(truth, Stack(0, 3, 0, 1.0))
    for guess, stacked in (("QH", False), ("9C", True)):
        looked, f = stress_live.observe(live, _shown(view(after, 1.0), p1_pile1=SeenPile((None,), guesses=(guess,), confidences=(0.149,))))
        assert (moves_of(f) == [("stack", 0, 3, 0)]) is stacked, (guess, f)
    assert "p1.pile4's card, never read, stacked onto p1.pile1" in f[0].detail and calls_of(f) == []
    assert "p1.pile1 showed 9C where the QS lay" in f[0].detail
    assert looked.state.seats[0].row[0][0].code == "QS" and is_unseen(looked.state.seats[0].row[0][-1])


def test_a_refill_nobody_read_stacked_onto_a_card_nobody_read_is_found_by_its_guess() -> None:
    """Penguins, seed 85: a QH refill guessed QH at 0.29 in its place was stacked onto a QC nobody had
    read, and read QH at 0.44 there, its refill 7C read: taken for the QC read at last as a QH and
    the 7C as the QH's card, with a stuck call; the stack was missed. What the camera made of the
    refill, shown now where an unread card lay (not what it made of that one before): stacked there,
    both cards of one rank, neither read."""
    truth = position("AD KH JH 5H", "QC 3C JC QH", "9D 3D", stock0="2C 4C 8D 9C", stock1="7C 4S AS 6H")
    deal = _shown(view(truth, 0.0), p2_pile1=SeenPile((None,)), p2_pile4=SeenPile((None,), guesses=("QH",), confidences=(0.29,)))
    live = stress_live.start(deal)
    live, f = stress_live.observe(live, replace(deal, t=0.5))
    assert f == [] and is_unseen(live.state.seats[1].row[0][-1]) and is_unseen(live.state.seats[1].row[3][-1])
    after, _ = apply(truth, Stack(1, 3, 0, 1.0))
    live, f = stress_live.observe(live, _shown(view(after, 1.0), p2_pile1=SeenPile(("QH",), confidences=(0.44,))))
    assert moves_of(f) == [("stack", 1, 3, 0)] and "p2.pile4's card, never read, stacked onto p2.pile1" in f[0].detail, f
    assert calls_of(f) == [] and live.state.seats[1].row[3][-1].code == "7C"
    assert len(live.state.seats[1].row[0]) == 2


def test_a_card_learned_from_a_misreading_and_played_onto_a_centre_pile_is_found() -> None:
    """Penguins, seed 83: a QS refill read 6S at 0.33 in view after view was learned as the 6S. Played
    onto a JC, guessed QS there, its refill AH read: the 6S may not go on the JC and was never read
    there, so nothing explained the view, nor any after it (17/64). The card learned from a
    misreading, never read surely, whose place shows another card while a centre pile shows a face
    guessed as a card that may go there and is known nowhere, is doubted: played there, unread."""
    truth = position("4H 5S 10D KD", "5D KS QS 4C", "JC 7H", stock0="2C 3C 8D 9D", stock1="AH 4S AS 6H")
    misread = SeenPile(("6S",), confidences=(0.33,))
    live = stress_live.start(_shown(view(truth, 0.0), p2_pile3=misread))
    for k in range(1, 9):
        live, f = stress_live.observe(live, _shown(view(truth, k / 10), p2_pile3=misread))
        assert f == []
    assert live.state.seats[1].row[2][-1].code == "6S"
    after, _ = apply(truth, Play(1, 2, 0, 1.0))
    live, f = stress_live.observe(live, _shown(view(after, 1.0), centre1=SeenPile((None,), guesses=("QS",), confidences=(0.28,))))
    assert moves_of(f) == [("play", 1, 2, 0)] and "p2.pile3's card, never read, played onto centre1" in f[0].detail, f
    assert is_unseen(live.state.centre[0][-1]) and live.state.seats[1].row[2][-1].code == "AH"
    assert "6S" not in [c.code for c in live.state.all_cards() if not is_unseen(c)]


def test_a_card_nobody_read_played_makes_no_stuck_call() -> None:
    """Penguins, seed 83: a QD refill never read, played onto a KH, was judged as a card that fits,
    the first tried an ace, and with it nobody could play: a stuck call, resting on a card nobody
    read (the JD goes on the QD). The call held the view back as resting on a zone not seen,
    and the play, the last of the match, was never found."""
    truth = position("4H 5S 10D AC", "7S 3H JD QD", "KH 7H", stock0="2C 3C 8D 9D", stock1="9H 4S AS 6H")
    faint = SeenPile((None,), guesses=("QD",), confidences=(0.25,))
    live = stress_live.start(_shown(view(truth, 0.0), p2_pile4=faint))
    live, f = stress_live.observe(live, _shown(view(truth, 0.5), p2_pile4=faint))
    assert f == [] and is_unseen(live.state.seats[1].row[3][-1]) and not live.state.stuck  # the AC goes on the KH
    after, calls = apply(truth, Play(1, 3, 0, 1.0))
    assert calls == []
    live, f = stress_live.observe(live, _shown(view(after, 1.0), centre1=SeenPile((None,), guesses=("QD",), confidences=(0.24,))))
    assert moves_of(f) == [("play", 1, 3, 0)] and calls_of(f) == [], f


@pytest.mark.parametrize("guess, stuck", [("4D", True), ("QC", False), (None, False)])
def test_a_stuck_call_on_a_card_never_read_is_made_on_the_cameras_guess(guess: str | None, stuck: bool) -> None:
    """Penguins Stress 89, 92, 96, 102: both players stuck while a row card was never read (a queen
    guessed QC at 0.02-0.22, the referee kept it a card nobody saw): no stuck call was made at all
    (calls 88/97 on fifteen matches). With no hand over the table and every unread top guessed, the
    guesses make the call, and it says they are guesses; a guess that fits (QC on the KH), or no
    guess, makes none."""
    truth = position("4H 5S 2D 10C", "7S 3H 5D 6C", "KH 9D", stock0=f"{guess or '4D'} 3C 4C 5C")
    live = stress_live.start(view(truth, 0.0))
    after, calls = apply(truth, Play(0, 3, 1, 1.0))  # the 10C onto the 9D, the refill never read
    faint = SeenPile((None,), guesses=(guess,), confidences=(0.04,)) if guess else SeenPile((None,))
    seen = _shown(view(after, 1.0), p1_pile4=faint)
    found, f = stress_live.observe(live, seen)
    assert moves_of(f) == [("play", 0, 3, 1)] and calls_of(f) == (["stuck"] if stuck else [])
    assert found.state.stuck is stuck and is_unseen(found.state.seats[0].row[3][-1])  # a guess makes the call, not the card
    if stuck:
        call = next(x for x in f if x.kind == "call")
        assert f"the camera could not read {guess}, only guess it" in call.verdict.detail
        assert dict(call.verdict.data)["guessed"] == [guess]
        _, f = stress_live.observe(live, _shown(seen, p2_pile1=replace(seen.piles["p2.pile1"], held=True)))
        assert calls_of(f) == []  # a hand over the table may hide a play


@pytest.mark.parametrize("row_guess, row_still, centre_guess, played", [
    ("9H", False, "6D", True), (None, False, None, True),
    ("9H", True, "6D", False),  # nothing moved over the place: the camera's reading wavers
    ("QS", False, "6D", False),  # the place still guessed a queen: the QD is still there
    ("9H", False, "JS", False),  # the pile still guessed a jack: the JC is still the top
])
def test_a_known_card_and_the_centre_top_both_unread_after_a_hand_is_a_play(
        row_guess: str | None, row_still: bool, centre_guess: str | None, played: bool) -> None:
    """Penguins, seed 100: p1's QD, read at 0.47 in its place, played onto a JC; the pile then guessed 6D
    at 0.04, the place its refill QH as 9H at 0.17, both unread: taken for nothing happening until the
    QD was read 17 s and two moves later (the log had the plays in the wrong order, one counted
    invented)."""
    truth = position("QD 5C JH JS", "6S 4H 8S 9D", "5S JC", stock0="2H 3C 4C 7C")
    live = stress_live.start(view(truth, 0.0))
    after, _ = apply(truth, Play(0, 0, 1, 1.0))
    seen = _shown(view(after, 1.0),
                  p1_pile1=SeenPile((None,), guesses=(row_guess,), confidences=(0.17,), still=row_still),
                  centre2=SeenPile((None,), guesses=(centre_guess,), confidences=(0.04,), still=True))
    live, f = stress_live.observe(live, seen)
    assert moves_of(f) == ([("play", 0, 0, 1)] if played else []), f
    assert (live.state.centre[1][-1].code == "QD") is played


def test_a_view_left_unused_for_a_stuck_call_is_taken_when_the_next_follows_only_from_it() -> None:
    """Penguins, seed 61: a JC stacked onto the JD beside it made both players stuck while a hand was
    over a row place, so the view was left unused (the hand may hide a play); then both jacks were
    stacked onto the JS refilled in the JC's place. From the position before, nothing explains that
    (the JS is covered), and the game was lost from there: the view left unused is taken after all."""
    truth = position("2C 7H QD 5S", "10C AS JC JD", "4H 7D", stock0="JH 6C 8C 9C", stock1="JS 9H 3S 8D")
    live = stress_live.start(view(truth, 0.0))
    after, calls = apply(truth, Play(0, 3, 0, 1.0))
    after, more = apply(after, Stack(1, 2, 3, 1.0))
    assert calls + more == ["stuck"]
    # (a hand over the QD: a known top merely read too faintly is that card still, and holds nothing)
    live, f = stress_live.observe(live, seen(after, 1.0, p1_pile3="held"))
    assert f == [] and live.call_held is not None
    after, _ = apply(after, Stack(1, 3, 2, 2.0))
    live, f = stress_live.observe(live, view(after, 2.0))
    assert [key(x.move) for x in f if x.kind == "move"] == [("play", 0, 3, 0), ("stack", 1, 2, 3), ("stack", 1, 3, 2)]
    assert calls_of(f) == ["stuck"] and [x.t for x in f if x.kind == "call"] == [1.0]
    same_table(live, after, stocks=False)


def test_slaps_made_while_a_view_waits_for_its_stress_call_are_judged_once_it_is_called() -> None:
    """Penguins, seed 93: p2's QS (read in its place) played onto a KH was read on the pile only
    faintly, so the view that made the stress with the QD waited for a clearer one; the referee did
    not watch the hands, the players slapped and the loser took both piles, and every view after was
    unrecognised. While a view waits for its call, the hands are watched; the slaps are kept and
    judged once the view is taken, and the piles seen taken follow from them."""
    truth = position("2C 7H 9D 5S", "10C AS QS 4H", "KH QD", stock0="JH 6C 8C 9C", stock1="10S 9H 3S 8D")
    live = stress_live.start(view(truth, 0.0))
    assert stress_live.slappers(live) == frozenset()
    watched_for = stress_live.slap_key(live)
    played, calls = apply(truth, Play(1, 2, 0, 1.0))
    assert calls == ["stress"]
    faint = _shown(view(played, 1.0), centre1=SeenPile((None,), guesses=("6S",), confidences=(0.11,)))
    live, f = stress_live.observe(live, faint)
    assert f == [] and live.call_held is not None
    assert stress_live.slappers(live) == {0, 1} and stress_live.slap_key(live) != watched_for  # the hands are watched
    live, f = stress_live.slap(live, 1, 1.5, 0, seen=True)
    live, g = stress_live.slap(live, 0, 1.9, 0, seen=True)
    assert f == g == [] and stress_live.slappers(live) == frozenset()
    taken, _ = apply(played, Slap(1, 0, 1.5))
    taken, _ = apply(taken, Slap(0, 0, 1.9))
    assert not any(taken.centre)
    live, f = stress_live.observe(live, view(taken, 3.0))
    assert [key(x.move) for x in f if x.kind == "move"] == [("play", 1, 2, 0), ("slap", 1, 0), ("slap", 0, 0)], f
    assert calls_of(f) == ["stress"] and [x.t for x in f if x.kind == "call"] == [1.0]
    same_table(live, taken, stocks=False)


def test_a_slap_kept_while_a_view_waits_for_its_call_is_judged_once_and_the_watch_goes_on() -> None:
    """Stress 124: the first slap, kept while the view that called the stress waited for a clearer one,
    was judged when that view was taken and again when the next view was judged from there (a second
    slap by the same player in the log). And the hands of the stress are the same hands once its view
    is taken: the watch for them does not start afresh."""
    truth = position("2C 7H 9D 5S", "10C AS QS 4H", "KH QD", stock0="JH 6C 8C 9C", stock1="10S 9H 3S 8D")
    live = stress_live.start(view(truth, 0.0))
    played, calls = apply(truth, Play(1, 2, 0, 1.0))
    assert calls == ["stress"]
    faint = _shown(view(played, 1.0), centre1=SeenPile((None,), guesses=("6S",), confidences=(0.11,)))
    live, f = stress_live.observe(live, faint)
    assert f == [] and live.call_held is not None
    watched_for = stress_live.slap_key(live)
    live, f = stress_live.slap(live, 1, 1.5, 0, seen=True)
    assert f == [] and stress_live.slappers(live) == {0}
    live, f = stress_live.observe(live, view(played, 2.0))  # read now; p1's hand still on its way
    assert [key(x.move) for x in f if x.kind == "move"] == [("play", 1, 2, 0), ("slap", 1, 0)], f
    assert live.state.phase is Phase.STRESS and live.state.slaps == ((1, 1.5, 0),)
    assert stress_live.slappers(live) == {0} and stress_live.slap_key(live) == watched_for


def test_new_centre_cards_seen_only_in_a_view_left_unused_are_not_passed_over() -> None:
    """Penguins, seed 61, near the round's end: new centre cards laid while both were stuck left them
    stuck again, a hand over a row place, so that view was left unused; the next view showed the next
    new cards laid on them. One lay from the position before explains it too (the stocks are not
    seen), but the view left unused showed two."""
    truth = position("2C 7H QD JH", "10C AS QS KS", "4H 5D", stock0="4C 9H 2H 3H", stock1="5S 3S 6H 8H")
    live = stress_live.start(view(truth, 0.0))
    once, calls = apply(truth, Lay(1.0))
    assert calls == ["stuck"]
    live, f = stress_live.observe(live, seen(once, 1.0, p1_pile2="held"))
    assert f == [] and live.call_held is not None
    twice, _ = apply(once, Lay(2.0))
    live, f = stress_live.observe(live, view(twice, 2.0))
    assert moves_of(f) == [("lay",), ("lay",)]
    assert [[c.code for c in p] for p in live.state.centre] == [["4H", "4C", "9H"], ["5D", "5S", "3S"]]


def test_a_stress_call_is_not_held_back_by_a_centre_top_guessed_faintly_as_the_card_played() -> None:
    """Penguins, seed 59: a 10H read in its row place, played onto centre2 beside a 10D, was guessed
    10H there at 0.10-0.14 only; the stress call waited 2.4 s for a clearer view, until both hands were
    over the centre, and the camera gave the slaps to the wrong players. The guess agrees with the one
    card the rules leave there: the call comes at once. A guess of another card still waits."""
    truth = position("10H 9D 2H 6C", "3D 4S 5H JS", "10D 9S")
    live = stress_live.start(view(truth, 0.0))
    after, _ = apply(truth, Play(0, 0, 1, 1.0))
    obs = view(after, 1.0)

    def guessed(guess: str) -> Observation:
        return replace(obs, piles={**obs.piles, "centre2": SeenPile((None,), guesses=(guess,), confidences=(0.10,))})

    called, f = stress_live.observe(live, guessed("10H"))
    assert moves_of(f) == [("play", 0, 0, 1)] and [x.verdict.kind for x in f if x.kind == "call"] == ["stress"], f
    waited, f = stress_live.observe(live, guessed("QH"))
    assert f == [] and waited.deferred == 1
    # penguins, seed 77: a QH read in its place, played beside a QD and guessed there 6H, then QH, at
    # 0.03 only, waited for a reading that never came while the players slapped unwatched. A guess
    # that faint says nothing either way: the card seen leaving its place makes the call
    for faint in (SeenPile((None,), guesses=("6C",), confidences=(0.03,)), SeenPile((None,))):
        _, f = stress_live.observe(live, replace(obs, piles={**obs.piles, "centre2": faint}))
        assert [x.verdict.kind for x in f if x.kind == "call"] == ["stress"], f


def test_the_start_needs_a_deal_mostly_read() -> None:
    truth = position("6S 9D 2H 10C", "3D 4S 5H JS", "7C KD")
    # every row place must show its card (a place seen empty, or under a hand, is no deal yet) ...
    for shown in ("-", "held", "? ?"):
        with pytest.raises(ValueError, match="p1.pile2 must show exactly one face-up card"):
            stress_live.start(seen(truth, 0.0, p1_pile2=shown))
    # ... and no more than a third of the eight read unsurely
    with pytest.raises(ValueError, match="p1.pile1, p1.pile2, p2.pile4 cannot be read"):
        stress_live.start(seen(truth, 0.0, p1_pile1="?", p1_pile2="?", p2_pile4="?"))
    with pytest.raises(ValueError, match="centre2"):
        stress_live.start(seen(truth, 0.0, centre2="?"))
    live = stress_live.start(seen(truth, 0.0, centre1="-", centre2="-"))
    assert live.state.phase is Phase.LAY and len(live.state.seats[0].stock) == 22


def test_a_deal_with_two_cards_unread_is_followed_and_they_are_learned_when_read() -> None:
    """Penguins at 1920x1080 (seed 43): a QH and a QC read too unsurely in every view before play; the
    referee that waited for all eight read at once followed nothing until eight of nine moves were made."""
    truth = position("6S 9D 2H 10C", "3D 4S 5H QS", "7C KD", stock1="2D 3H AS AH")
    live = stress_live.start(seen(truth, 0.0, p1_pile2="?", p2_pile4="?"))
    assert [stress_live.is_unseen(pile[-1]) for pile in live.state.seats[0].row] == [False, True, False, False]
    truth, _ = apply(truth, Play(0, 0, 0, 1.0))  # the 6S on the 7C, refilled from the stock
    live, f = stress_live.observe(live, seen(truth, 1.0, p1_pile2="?", p2_pile4="?"))
    assert moves_of(f) == [("play", 0, 0, 0)]
    assert stress_live.is_unseen(live.state.seats[0].row[1][-1])  # still nobody read it
    live, f = stress_live.observe(live, seen(truth, 2.0, p2_pile4="?"))
    assert f == [] and live.state.seats[0].row[1][-1].code == "9D"  # read at last: learned
    # the card never read where it lay, played: read on the centre pile it lands on
    truth, _ = apply(truth, Play(1, 3, 1, 3.0))
    live, f = stress_live.observe(live, seen(truth, 3.0))
    assert moves_of(f) == [("play", 1, 3, 1)]
    assert live.state.centre[1][-1].code == "QS"
    same_table(live, truth, stocks=False)


def test_the_live_referee_follows_stress_through_the_follower_registry() -> None:
    from cardref.live import LiveReferee
    from vision.table_state import PileState, SeenCard, TableState

    def table(obs: Observation, frame: int) -> TableState:
        piles = {z: PileState(p.backs or 0, tuple(SeenCard(c or "?", 0.9) for c in p.cards)) for z, p in obs.piles.items()}
        return TableState(obs.t, frame, piles)

    follower = find_follower("stress")
    assert set(follower.inputs) == {"slap", "new_round"}
    messages: list[dict[str, Any]] = []
    ref = LiveReferee("stress", "", publish=messages.append)
    truth = position("8H 6S 9D KC", "9S 2D JH 4S", "7C 8D")
    ref.feed(table(view(truth, 0.0), 0))
    truth, _ = apply(truth, Play(0, 0, 0, 1.0))
    found = ref.feed(table(view(truth, 1.0), 1))
    assert [x.kind for x in found] == ["move", "call"]
    assert [m["type"] for m in messages] == ["state", "verdict", "call", "state"]
    assert messages[2]["call"] == "stress" and messages[1]["ok"] is True
    found = ref.act("slap", t=1.5, player=1, pile=1)  # the web app's key press
    assert [x.kind for x in found] == ["move"] and messages[-2]["type"] == "verdict"
    found = ref.act("slap", t=1.6, player=0, pile=0)
    assert [x.kind for x in found] == ["move"] and ref.live.state.phase is Phase.LAY


def test_a_glimpse_of_the_centre_is_taken_only_when_it_makes_a_stress() -> None:
    """LiveReferee.glimpse (the centre piles looked at before the table settles, the rest held): a
    play that makes no stress is left to the steady table; nor is an illegal play judged from a
    glimpse; a play that makes the stress is taken, the stress called at once."""
    from cardref.live import LiveReferee
    from vision.table_state import PileState, SeenCard, TableState

    def glimpse(state: StressState, t: float, centre: tuple[str, str]) -> TableState:
        piles = {z: PileState(0, tuple(SeenCard(c or "?", 0.9) for c in p.cards)) for z, p in view(state, t).piles.items()}
        piles["centre1"], piles["centre2"] = (PileState(0, (SeenCard(c, 0.9),)) for c in centre)
        return TableState(t, 0, piles, held=tuple(z for z in piles if not z.startswith("centre")))

    ref = LiveReferee("stress", "")
    start = position("8H 6S 9D KC", "9S 2D JH 4S", "7C 8D")
    ref.feed(TableState(0.0, 0, {z: PileState(0, tuple(SeenCard(c or "?", 0.9) for c in p.cards))
                                 for z, p in view(start, 0.0).piles.items()}))
    before = ref.live
    assert ref.glimpse(glimpse(start, 0.5, ("7C", "9D"))) == []  # a legal play, no stress: not now
    assert ref.glimpse(glimpse(start, 0.6, ("7C", "KC"))) == []  # illegal (S6): not from a glimpse
    assert ref.glimpse(glimpse(start, 0.7, ("7C", "QS"))) == []  # a card from nowhere: not from a glimpse
    assert ref.history == [] and ref.live is before
    found = ref.glimpse(glimpse(start, 0.8, ("8H", "8D")))
    assert [(f.kind, getattr(f.verdict, "kind", None)) for f in found] == [("move", None), ("call", "stress")]
    assert ref.live.state.phase is Phase.STRESS and [h["type"] for h in ref.history] == ["verdict", "call"]


def timing(seeds: range = range(1, 21)) -> str:
    """Milliseconds per judged view over whole rounds (refills seen apart): ``python tests/test_stress_live.py``."""
    times: list[float] = []
    judge = stress_live.observe

    def timed(live: LiveStress, obs: Observation) -> tuple[LiveStress, list[Finding]]:
        t0 = time.perf_counter()
        out = judge(live, obs)
        times.append(time.perf_counter() - t0)
        return out

    stress_live.observe = timed
    try:
        for seed in seeds:
            play_round(seed, apart=True)
    finally:
        stress_live.observe = judge
    times.sort()
    ms = [x * 1000 for x in times]
    return f"stress: {len(ms)} views, median {ms[len(ms) // 2]:.2f} ms, p95 {ms[int(len(ms) * 0.95)]:.2f} ms, max {ms[-1]:.2f} ms"


if __name__ == "__main__":
    print(timing())


def test_new_centre_cards_while_an_unseen_refill_could_be_played_are_illegal() -> None:
    # Player 1 plays the queen of spades on the jack of clubs; the refill (the 6 of hearts) is not laid
    # yet and no other card fits: the referee does not call stuck on a card it has not seen.
    truth = position("2H 9S 8C AD", "QS 2D 3H 7S", "JC 5D", stock0="AC 3C 7C 9D", stock1="6H AS 4S 10S")
    live = stress_live.start(view(truth, 0.0))
    truth, calls = apply(truth, Play(1, 0, 0, 1.0))
    assert calls == []  # the 6 of hearts fits the 5 of diamonds
    live, f = stress_live.observe(live, view(truth, 1.0, frozenset({(1, 0)})))
    assert [x.kind for x in f] == ["move"] and not live.state.stuck
    # both lay new centre cards; the same view shows the 6 of hearts, which could still be played: S9
    seats = tuple(replace(s, stock=s.stock[1:]) for s in truth.seats)
    laid = replace(truth, seats=seats, centre=tuple(c + (s.stock[0],) for c, s in zip(truth.centre, truth.seats)))
    live, f = stress_live.observe(live, view(laid, 2.0))
    assert [x.kind for x in f] == ["illegal"] and f[0].rule == "S9" and "6 of hearts" in f[0].reason
    live, f = stress_live.observe(live, view(truth, 3.0))
    assert [x.kind for x in f] == ["taken_back"]
    same_table(live, truth, stocks=False)


def refill_laid_unread(guess: str | None = None, confidence: float = 0.2) -> tuple[LiveStress, StressState]:
    """p1's 6S played onto the 7C, its refill 5C laid and not read (guessed ``guess`` at ``confidence``)."""
    truth = position("6S 9D 2H 10C", "3D 4S 5H JS", "7C KD", stock0="5C 4C 3C 2C")
    live = stress_live.start(view(truth, 0.0))
    after, _ = apply(truth, Play(0, 0, 0, 1.0))
    obs = view(after, 1.0)
    unread = SeenPile((None,), guesses=(guess,), confidences=(confidence,)) if guess else SeenPile((None,))
    live, f = stress_live.observe(live, replace(obs, piles={**obs.piles, "p1.pile1": unread}))
    assert moves_of(f) == [("play", 0, 0, 0)] and is_unseen(live.state.seats[0].row[0][-1])
    return live, after


def test_a_refill_seen_lying_unread_then_gone_was_played_where_the_centre_top_turns_unread() -> None:
    """Penguins, seed 64: a QS refill, guessed at 0.20 in its place, played onto a JH and boxed there
    as a back; its place, empty until the next refill, was taken for the refill not laid yet, a stuck
    call was made on the JH, and the KS played onto the QS was called illegal. A refill seen lying in
    its place that is gone from it, where a centre top read before shows no face, was played there."""
    live, truth = refill_laid_unread()
    after, _ = apply(truth, Play(0, 0, 0, 2.0))  # the 5C onto the 6S; the 4C comes next
    obs = seen(after, 2.0, p1_pile1="-")
    played, f = stress_live.observe(live, replace(obs, piles={**obs.piles, "centre1": SeenPile((), 1)}))
    assert moves_of(f) == [("play", 0, 0, 0)] and "p1.pile1's card, never read, played onto centre1" in f[0].detail
    assert calls_of(f) == [] and is_unseen(played.state.centre[0][-1])
    played, f = stress_live.observe(played, seen(after, 3.0, centre1="?"))
    assert f == [] and played.state.seats[0].row[0][-1].code == "4C"
    # the 4S laid on it goes on, not judged
    later, _ = apply(after, Play(1, 1, 0, 4.0))
    played, f = stress_live.observe(played, view(later, 4.0))
    assert moves_of(f) == [("play", 1, 1, 0)] and "never read on centre1: not judged" in f[0].detail
    # a refill nobody saw lying there may be still to come: an empty place alone says nothing moved
    fresh = stress_live.start(view(truth, 0.0))
    _, f = stress_live.observe(fresh, seen(truth, 1.0, p2_pile1="-"))
    assert moves_of(f) == []


def test_a_refill_guessed_one_card_then_read_another_under_a_hand_over_the_centre_waits_for_the_centre() -> None:
    """Penguins, seed 64: a QC refill guessed QC at 0.09-0.22 was played onto a KC while a hand hid
    that pile; the next refill, QD, read at 0.36 in the place, was learned as the QC's card, and with
    the QC's play missed the new centre cards laid when both were stuck were unrecognised. The view
    waits for the centre pile, and the play is found once it shows no face there."""
    live, truth = refill_laid_unread("5C")
    after, _ = apply(truth, Play(0, 0, 0, 2.0))
    waited, f = stress_live.observe(live, seen(after, 2.0, centre1="held"))
    assert f == [] and waited.deferred == 1 and is_unseen(waited.state.seats[0].row[0][-1])
    obs = view(after, 2.5)
    played, f = stress_live.observe(waited, replace(obs, piles={**obs.piles, "centre1": SeenPile((), 1)}))
    assert moves_of(f) == [("play", 0, 0, 0)] and played.state.seats[0].row[0][-1].code == "4C"
    assert is_unseen(played.state.centre[0][-1])
    # a guess that wavers while the centre top is read: nothing moved
    obs = view(truth, 2.0)
    _, f = stress_live.observe(live, replace(obs, piles={**obs.piles, "p1.pile1": SeenPile((None,), guesses=("6C",), confidences=(0.3,))}))
    assert moves_of(f) == []


def test_a_refill_guessed_faintly_is_not_learned_as_the_card_its_place_reads_when_the_centre_hides_a_play() -> None:
    """Penguins, seed 117: a QC refill guessed at 0.06-0.11 in its place was played onto a KS twice in one
    match, once while a hand hid the KS, once in a view that boxed the QC as a back there. Its refill,
    read surely (3C at 0.65) in the first, unsurely (5C at 0.49) in the second, was learned as the QC's
    card (the second making a stuck call): the plays and the stresses they made were missed. A card read
    surely differs from any guess however faint, so the view under a hand waits for the centre pile;
    and a centre top that shows no face at all in the very view its place reads another card than it
    last guessed there was played onto."""
    live, truth = refill_laid_unread("6C", 0.06)
    after, _ = apply(truth, Play(0, 0, 0, 2.0))  # the 5C onto the 6S; the 4C comes next, read surely
    waited, f = stress_live.observe(live, seen(after, 2.0, centre1="held"))
    assert f == [] and waited.deferred == 1 and is_unseen(waited.state.seats[0].row[0][-1])
    obs = view(after, 2.0)
    backed = replace(obs, piles={**obs.piles, "centre1": SeenPile((), 1), "p1.pile1": SeenPile(("4C",), confidences=(0.49,))})
    played, f = stress_live.observe(live, backed)
    assert moves_of(f) == [("play", 0, 0, 0)] and calls_of(f) == [] and is_unseen(played.state.centre[0][-1]), f
    assert played.state.seats[0].row[0][-1].code == "4C"


def test_a_row_card_read_only_unsurely_is_doubted_when_the_card_is_read_surely_elsewhere() -> None:
    """Penguins, seed 67: a QC refill read 6C at 0.21-0.39 was learned as the 6C; the real 6C, a
    later refill nobody read, was played and read surely on a centre pile. One deck: the unsure
    reading was the misread, and the play is found from the place the 6C lay in."""
    live = stress_live.start(view(position("7H 6S 9D KC", "8S 2D JH 4S", "8C 10D"), 0.0))
    base = seen(live.state, 1.0, centre2="9D")
    live, f = stress_live.observe(live, _shown(base, p1_pile3=SeenPile(("6C",), confidences=(0.35,))))
    assert moves_of(f) == [("play", 0, 2, 1)] and live.state.seats[0].row[2][-1].code == "6C"
    base = seen(live.state, 2.0, centre1="7H", p1_pile3="?")
    live, f = stress_live.observe(live, _shown(base, p1_pile1=SeenPile((None,)), p1_pile3=SeenPile((None,), guesses=("6C",), confidences=(0.25,))))
    assert moves_of(f) == [("play", 0, 0, 0)]
    played = _shown(seen(live.state, 3.0, p1_pile1="-"), centre1=SeenPile(("6C",), confidences=(0.9,)),
                   p1_pile3=SeenPile((None,), guesses=("6C",), confidences=(0.25,)))
    after, f = stress_live.observe(live, played)
    assert moves_of(f) == [("play", 0, 0, 0)] and after.state.centre[0][-1].code == "6C"
    assert is_unseen(after.state.seats[0].row[2][-1])  # what lies in place 3 is not known now
    # had a view read the 6C surely in place 3, the camera would be wrong now, not then
    sure = replace(live, sure=live.sure | {"6C"})
    _, f = stress_live.observe(sure, played)
    assert [x.kind for x in f] == ["unrecognised"]


def test_a_refill_not_laid_yet_is_the_card_its_place_shows_next_not_one_stacked_unseen() -> None:
    """Penguins, seed 67: a QD stacked onto a QS, its place seen bare, then its refill AH laid there;
    the pile showed a QC read at 0.34 (a stack of the QC missed earlier), and the referee took it for a
    first refill, laid and stacked onto the QS unseen before the AH: a move invented. A refill whose
    place the last view taken showed bare is the card the place shows next. The QD the pile holds,
    never read surely, is then the QC read there (a Stress move never turns on a suit)."""
    truth = position("7H 6S 9D KC", "QS QD 5H JS", "8C 10D", stock1="AH 2S 3S 4S")
    live = stress_live.start(_shown(view(truth, 0.0), p2_pile2=SeenPile(("QD",), confidences=(0.3,))))
    after, _ = apply(truth, Stack(1, 1, 0, 1.0))
    live, f = stress_live.observe(live, _shown(seen(after, 1.0, p2_pile2="-"), p2_pile1=SeenPile(("QD",), confidences=(0.3,))))
    assert moves_of(f) == [("stack", 1, 1, 0)] and live.unlaid
    shows = _shown(seen(after, 2.0, p2_pile2="AH"), p2_pile1=SeenPile(("QC",), confidences=(0.34,)))
    now, f = stress_live.observe(live, shows)
    assert moves_of(f) == [], f
    row = now.state.seats[1].row
    assert row[1][-1].code == "AH" and [c.code for c in row[0]] == ["QS", "QC"]
    # had the view before not seen the place bare, the QC could have been a first refill stacked at once
    _, f = stress_live.observe(replace(live, unlaid=frozenset()), shows)
    assert moves_of(f) == [("stack", 1, 1, 0)]


def test_a_suit_read_unsurely_where_the_position_has_another_of_the_rank_is_a_misread() -> None:
    """Penguins, seed 67: a pile whose top the position held as a QD (never read above 0.32) was played
    onto a KC, and the centre pile read QC at 0.43: nothing explained it, and the game was lost. A top
    read unsurely as another suit of the rank a legal series leaves there explains the view; the card
    becomes the one read when no view read it surely and it is nowhere else."""
    truth = position("7H 6S 9D 3D", "10S QD 5H JS", "8C KC", stock1="2S 3S 4S 6D")
    live = stress_live.start(_shown(view(truth, 0.0), p2_pile2=SeenPile(("QD",), confidences=(0.3,))))
    after, _ = apply(truth, Play(1, 1, 1, 1.0))
    played = _shown(seen(after, 1.0, p2_pile2="-"), centre2=SeenPile(("QC",), confidences=(0.43,)))
    now, f = stress_live.observe(live, played)
    assert moves_of(f) == [("play", 1, 1, 1)] and "read QC at 0.43" in f[0].detail
    assert now.state.centre[1][-1].code == "QC"
    # the QD read surely once: the move still explains the view, and the QD stays
    now, f = stress_live.observe(replace(live, sure=live.sure | {"QD"}), played)
    assert moves_of(f) == [("play", 1, 1, 1)] and now.state.centre[1][-1].code == "QD"
    # another rank read unsurely is no suit misread
    _, f = stress_live.observe(live, _shown(played, centre2=SeenPile(("6C",), confidences=(0.43,))))
    assert moves_of(f) == []
    # kennard_big, seed 124: the QC read surely on the centre pile, the QD never: the unsure reading
    # was the misread (before, nothing explained the view, and the next play was called illegal)
    surely = _shown(played, centre2=SeenPile(("QC",), confidences=(0.61,)))
    now, f = stress_live.observe(live, surely)
    assert moves_of(f) == [("play", 1, 1, 1)] and now.state.centre[1][-1].code == "QC", f
    # both read surely once: two sure readings of one card, not a suit misread
    _, f = stress_live.observe(replace(live, sure=live.sure | {"QD"}), surely)
    assert moves_of(f) == []


@pytest.mark.parametrize("read, said, stack", [("7H", "p1.pile4 read 7H at 0.33", ("stack", 0, 0, 3)),
                                               ("JD", "p1.pile4 read JD at 0.33 where nothing moved", ("stack", 0, 3, 0))])
def test_a_card_is_not_stacked_from_a_row_place_nothing_moved_over(read: str, said: str, stack: tuple[Any, ...]) -> None:
    """kennard_big, seed 124: p1's 7D, read 7D at 0.35, read 7H at 0.33 as the next move was made
    elsewhere; the view was taken for a card nobody had read stacked onto it from p1's first place,
    refilled by another nobody read, though the camera saw nothing move over either place. A card
    cannot leave a place nothing moved over: the top read as another suit of its rank is the likelier
    (a Stress move never turns on a suit). kennard_4c_big, seed 128: p1's 5H, read 5H at 0.44, read JH
    at 0.36 as the new centre cards were laid, taken for the 5H stacked onto p1's first place (guessed
    QC all along) and a JH refilled; the 5H's play next was lost. A reading of another rank under
    DOUBT_BELOW where nothing moved is a misread before it is a move too. Where a hand was over them,
    the stack stays possible."""
    truth = position("QS 5D 6D 7D", "3H 9S JS 4D", "8C 2S", stock1="KH 2H 5H 6H")
    unread = SeenPile((None,), guesses=("QS",), confidences=(0.02,))
    live = stress_live.start(_shown(view(truth, 0.0), p1_pile1=unread, p1_pile4=SeenPile(("7D",), confidences=(0.35,))))
    after, _ = apply(truth, Play(1, 1, 0, 1.0))

    def shown(still: bool) -> Observation:
        return _shown(view(after, 1.0), p1_pile1=replace(unread, still=still), p1_pile4=SeenPile((read,), confidences=(0.33,), still=still))

    _, f = stress_live.observe(live, shown(still=True))
    assert moves_of(f) == [("play", 1, 1, 0)] and said in f[0].detail, f
    _, f = stress_live.observe(live, shown(still=False))
    assert moves_of(f) == [("play", 1, 1, 0), stack], f


def test_a_card_read_unsurely_in_turn_as_two_suits_stays_the_one_read_more_surely() -> None:
    """kennard_4c_big, seed 128: p1's 7S, read 7S at 0.35 and 7C at 0.30 in turn, became the 7C at the
    first 7C (the suit-misread look takes a card never read surely for the one read now), and its
    play onto a 6H was taken for another place's card. A reading no surer than the held card's best
    there leaves the card as it is."""
    truth = position("QS 5D 6D 7S", "3H 9S JS 4D", "10C 2S", stock1="KH 2H 5H 6H")
    live = stress_live.start(_shown(view(truth, 0.0), p1_pile4=SeenPile(("7S",), confidences=(0.36,))))
    live, _ = stress_live.observe(live, _shown(view(truth, 0.5), p1_pile4=SeenPile(("7S",), confidences=(0.35,))))
    after, _ = apply(truth, Play(1, 0, 1, 1.0))
    live, f = stress_live.observe(live, _shown(view(after, 1.0), p1_pile4=SeenPile(("7C",), confidences=(0.30,))))
    assert moves_of(f) == [("play", 1, 0, 1)], f
    assert live.state.seats[0].row[3][-1] == Card.parse("7S")
    # read more surely as the 7C than the 7S ever was: the 7C it is
    live, f = stress_live.observe(live, _shown(view(after, 2.0), p1_pile4=SeenPile(("7C",), confidences=(0.45,))))
    assert live.state.seats[0].row[3][-1] == Card.parse("7C"), f


def test_a_refill_read_unsurely_and_then_surely_otherwise_where_nothing_moved_is_the_card_read_surely() -> None:
    """Simplistic, seed 127: p1's KH refill read 10H at 0.35 was learned so; read KH at 0.67 while p2
    stacked a 3C, nothing having moved over p1's place, the view was unrecognised, and the next play
    was taken for another place's card. The card did not change: the unsure reading was the misread.
    A card read surely where it lies stays, whatever a later view reads there."""
    truth = position("9C AS 10D 4C", "3S 2C 3C 4D", "9H QC", stock0="KH 2H 5H 6H", stock1="3D 7S 8S 9S")
    live = stress_live.start(view(truth, 0.0))
    after, _ = apply(truth, Play(0, 2, 0, 1.0))
    stacked, _ = apply(after, Stack(1, 2, 0, 2.0))
    then = _shown(view(stacked, 2.0), p1_pile3=SeenPile(("KH",), confidences=(0.67,), still=True))
    for sure, learned in ((0.35, "KH"), (0.8, "10H")):
        misread, f = stress_live.observe(live, _shown(view(after, 1.0), p1_pile3=SeenPile(("10H",), confidences=(sure,))))
        assert moves_of(f) == [("play", 0, 2, 0)] and misread.state.seats[0].row[2][-1].code == "10H"
        now, f = stress_live.observe(misread, then)
        assert now.state.seats[0].row[2][-1].code == learned, (sure, f)
        assert (moves_of(f) == [("stack", 1, 2, 0)]) is (learned == "KH"), (sure, f)


def test_a_card_stacked_unread_is_not_learned_as_a_card_of_another_rank_read_unsurely() -> None:
    """Penguins, seed 98: p2's QC, never read, was stacked onto its QH (S3: a row pile holds cards of one
    rank); read 6C at 0.41 there later, it was learned as the 6C, which made p2 able to play on a 7C, and
    the stuck call due after the next play never came. A stacked top read unsurely as another rank is
    taken as not read (the reading kept as the camera's guess); read as its rank, it is learned."""
    live = stress_live.start(view(position("QS 4D JS QD", "7H QH 4C JH", "7C AS", stock0="2C 3C 5C 6D", stock1="KS KH 2H 3H"), 0.0))
    u = stress_live.unseen()
    seats = live.state.seats
    row = (seats[1].row[0], seats[1].row[1] + (u,)) + seats[1].row[2:]
    live = replace(live, state=replace(live.state, seats=(seats[0], replace(seats[1], row=row))))
    base = seen(live.state, 1.0)
    after, f = stress_live.observe(live, _shown(base, p2_pile2=SeenPile(("6C",), confidences=(0.41,))))
    assert f == [] and after.state.seats[1].row[1][-1] is u
    after, f = stress_live.observe(live, _shown(base, p2_pile2=SeenPile(("QC",), confidences=(0.41,))))
    assert f == [] and after.state.seats[1].row[1][-1].code == "QC"
