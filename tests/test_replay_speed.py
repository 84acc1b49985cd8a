"""The Stress/Zenuwen replay commands: line formats, time order, calls, errors, summaries, examples."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardref.replay_speed import deal_stress, deal_zenuwen, run_stress, run_zenuwen
from referee.simultaneous import ReorderBuffer, in_time_order

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"

STRESS_DEAL = {
    "game": "stress",
    "players": [
        {"row": ["5H", "9C", "JD", "2S"], "stock": ["8C", "9H"]},
        {"row": ["3S", "QD", "10H", "KC"], "stock": ["AC", "2D"]},
    ],
    "centre": ["4D", "7C"],
}


def replay(run: Any, deal: Any, events: list[Any] | str, spec: str = "") -> tuple[int, list[dict[str, Any]]]:
    text = events if isinstance(events, str) else "".join(json.dumps(e) + "\n" for e in events)
    out = io.StringIO()
    rc = run(spec, deal, io.StringIO(text), out)
    return rc, [json.loads(line) for line in out.getvalue().splitlines()]


def test_one_verdict_per_event_then_the_summary() -> None:
    rc, lines = replay(run_stress, STRESS_DEAL, [
        {"t": 1.0, "player": 0, "op": "play", "card": "5H", "to": 0},
        {"t": 1.5, "player": 1, "op": "play", "card": "QD", "to": 0},
    ])
    assert rc == 0
    assert lines[0]["ok"] is True and lines[0]["line"] == 1 and lines[0]["player"] == 0 and lines[0]["op"] == "play"
    assert [e["type"] for e in lines[0]["events"]] == ["play", "refill"]
    assert lines[1] == {"line": 2, "t": 1.5, "player": 1, "op": "play", "ok": False, "rule": "S6",
                        "reason": "the queen of diamonds is not one rank higher or lower than the 5 of hearts"}
    summary = lines[-1]
    assert summary["result"] == "playing" and summary["rounds_played"] == 1 and summary["cards_left"] == [5, 6]
    assert summary["winner"] is None and summary["illegal"] == 1 and summary["errors"] == 0


def test_a_call_is_its_own_line_right_after_the_event_with_its_time() -> None:
    deal = dict(STRESS_DEAL, centre=["4D", "5S"])
    rc, lines = replay(run_stress, deal, [
        {"t": 12.34, "player": 0, "op": "play", "card": "5H", "to": 0},
        {"t": 12.50, "player": 1, "op": "slap", "pile": 0},
        {"t": 12.52, "player": 0, "op": "slap", "pile": 1},
    ])
    assert lines[1] == {"call": "stress", "t": 12.34, "rule": "S8", "cards": ["5H", "5S"], "detail": "both centre piles show a 5: slap!"}
    take = [e for e in lines[3]["events"] if e["type"] == "take"][0]
    assert take["player"] == 0 and take["safe"] == 1


def test_events_are_judged_in_time_order_plays_30ms_apart() -> None:
    deal = STRESS_DEAL
    # listed late-first: player 1's 3S (t=7.030) arrives before player 0's 5H (t=7.000)
    rc, lines = replay(run_stress, deal, [
        {"t": 7.030, "player": 1, "op": "play", "card": "3S", "to": 0},
        {"t": 7.000, "player": 0, "op": "play", "card": "5H", "to": 0},
    ])
    assert [(v["line"], v["ok"]) for v in lines[:2]] == [(2, True), (1, False)]
    assert lines[1]["rule"] == "S6" and "3 of spades" in lines[1]["reason"] and "5 of hearts" in lines[1]["reason"]


def test_two_slaps_5ms_apart_the_earlier_is_safe_whatever_the_line_order() -> None:
    deal = dict(STRESS_DEAL, centre=["4D", "5S"])
    rc, lines = replay(run_stress, deal, [
        {"t": 1.0, "player": 0, "op": "play", "card": "5H", "to": 0},
        {"t": 2.005, "player": 0, "op": "slap", "pile": 0},
        {"t": 2.000, "player": 1, "op": "slap", "pile": 1},
    ])
    slaps = [v for v in lines if v.get("op") == "slap"]
    assert [(v["player"], v["events"][0]["detail"]) for v in slaps] == [(1, "first: safe"), (0, "last: pays")]
    assert lines[-1]["cards_left"][0] == 4 + 1 + 3  # row, stock 9H, then the 3 centre cards


def test_calls_the_deal_needs_come_first_at_time_zero() -> None:
    deal = dict(STRESS_DEAL, centre=["KH", "KS"])
    rc, lines = replay(run_stress, deal, [])
    assert lines[0]["call"] == "stress" and lines[0]["t"] == 0.0
    assert "result" in lines[-1]


def test_malformed_lines_are_errors_the_rest_is_judged_and_the_exit_is_nonzero() -> None:
    text = '{"t": 1.0, "player": 0, "op": "play", "card": "5H", "to": 0}\nnot json\n{"t": 2, "op": "fly"}\n\n{"t": 3, "player": 7, "op": "slap"}\n'
    rc, lines = replay(run_stress, STRESS_DEAL, text)
    assert rc == 1
    assert lines[0]["ok"] is True
    assert [v["line"] for v in lines[1:4]] == [2, 3, 5] and all("error" in v and v["ok"] is False for v in lines[1:4])
    assert lines[-1]["errors"] == 3


def test_unknown_option_or_bad_deal_is_one_error_line_and_exit_2() -> None:
    rc, lines = replay(run_stress, STRESS_DEAL, [], spec="wrap=maybe")
    assert rc == 2 and lines == [{"ok": False, "error": "rule option wrap: expected true or false, got 'maybe'"}]
    rc, lines = replay(run_zenuwen, {"players": []}, [], spec="")
    assert rc == 2 and "error" in lines[0]
    rc, lines = replay(run_zenuwen, deal_zenuwen(1), [], spec="pile_choice=fastest")
    assert rc == 2 and "pile_choice" in lines[0]["error"]


def test_zenuwen_reads_players_and_decks_from_the_deal() -> None:
    deal = deal_zenuwen(4, players=3)
    rc, lines = replay(run_zenuwen, deal, [{"t": 0.5, "op": "turn"}])
    assert rc == 0 and lines[0]["ok"] and len([e for e in lines[0]["events"] if e["type"] == "turn"]) == 3
    assert len(lines[-1]["cards_left"]) == 3
    rc, lines = replay(run_zenuwen, deal, [], spec="players=2")
    assert rc == 2 and "players=2" in lines[0]["error"]


def test_zenuwen_summary_names_the_winner_and_the_gejast() -> None:
    deal = {"players": [{"piles": [["9S"]], "stock": []}, {"piles": [["QH"], ["3C", "9D"]], "stock": ["2D"]}],
            "centre": [["7D", "8D"], ["KC"]]}
    rc, lines = replay(run_zenuwen, deal, [{"t": 3.5, "player": 0, "op": "play", "card": "9S", "to": 0}])
    assert [v.get("call") for v in lines[1:3]] == ["round_over", "match_over"]
    assert lines[2]["t"] == 3.5 and lines[2]["gejast"] == [1]
    s = lines[-1]
    assert (s["result"], s["winner"], s["gejast"], s["rounds_played"], s["cards_left"]) == ("match_over", 0, [1], 1, [0, 4])


@pytest.mark.parametrize("game,run", [("stress", run_stress), ("zenuwen", run_zenuwen)])
def test_the_documented_examples_replay_to_their_recorded_verdicts(game: str, run: Any) -> None:
    deal = json.loads((EXAMPLES / f"{game}.deal.json").read_text())
    events = (EXAMPLES / f"{game}.events.jsonl").read_text()
    expected = [json.loads(line) for line in (EXAMPLES / f"{game}.verdicts.jsonl").read_text().splitlines()]
    rc, lines = replay(run, deal, events)
    assert rc == 0 and lines == expected
    kinds = {v.get("call") for v in lines}
    assert {"stuck", "round_over"} <= kinds
    assert any(v.get("ok") is False and "rule" in v for v in lines)


def test_deals_are_seeded_and_replayable() -> None:
    assert deal_stress(3) == deal_stress(3) != deal_stress(4)
    rc, lines = replay(run_stress, deal_stress(3), [{"t": 0.5, "op": "lay"}])
    assert rc == 0 and lines[0]["ok"] and lines[-1]["cards_left"] == [25, 25]
    d = deal_zenuwen(9, players=4)
    assert len(d["players"]) == 4 and d["decks"] == 2


def test_cli_end_to_end(tmp_path: Path) -> None:
    deal = subprocess.run([sys.executable, "-m", "cardref.cli", "deal", "zenuwen", "--seed", "2", "--players", "3"],
                          capture_output=True, text=True, check=True).stdout
    (tmp_path / "deal.json").write_text(deal)
    res = subprocess.run(
        [sys.executable, "-m", "cardref.cli", "referee", "zenuwen", "--rules", "players=3,decks=2,empty_stock=turn_opponents,pile_choice=winner_chooses",
         "--deal", str(tmp_path / "deal.json")],
        input='{"t": 0.4, "op": "turn"}\n{"t": 0.9, "player": 2, "op": "take_hand"}\n', capture_output=True, text=True,
    )
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert res.returncode == 0 and lines[0]["ok"] and lines[1]["rule"] == "Z9" and lines[-1]["game"] == "zenuwen"
    res = subprocess.run([sys.executable, "-m", "cardref.cli", "referee", "stress", "--rules", "wrap=true,stack_same_rank=true,stress_penalty=both_piles",
                          "--deal", str(tmp_path / "missing.json")], input="", capture_output=True, text=True)
    assert res.returncode == 2 and "error" in json.loads(res.stdout)


def test_reorder_buffer_releases_in_time_order_after_the_window() -> None:
    buf: ReorderBuffer[str] = ReorderBuffer(window=0.05)
    assert buf.push(1.000, "a") == []
    assert buf.push(0.990, "early") == []
    assert buf.push(1.100, "b") == ["early", "a"]
    assert buf.push(0.995, "late") == ["late"] and buf.late == 1
    assert buf.flush() == ["b"]
    assert in_time_order([(2.0, "x"), (1.0, "y"), (2.0, "z")]) == ["y", "x", "z"]


# --- totality: any input gives verdict or error lines, never a traceback -------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_values = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 6), st.floats(allow_nan=True), st.sampled_from(["5H", "KC", "hand", "2", "ZZ", ""]),
    st.lists(st.sampled_from(["5H", "KC", "AS", "9D"]), max_size=3),
)
_event = st.dictionaries(
    st.sampled_from(["t", "op", "player", "card", "from", "to", "onto", "pile", "cards", "stock", "deal", "players"]),
    st.one_of(_values, st.sampled_from(["play", "slap", "lay", "stack", "turn", "join", "take_hand", "choose", "new_round", "shuffle"])),
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(events=st.lists(_event, max_size=12), game=st.sampled_from(["stress", "zenuwen"]))
def test_property_any_event_lines_give_verdicts_or_errors(events: list[dict[str, Any]], game: str) -> None:
    run, deal = (run_stress, deal_stress(1)) if game == "stress" else (run_zenuwen, deal_zenuwen(1, players=3))
    rc, lines = replay(run, deal, [{"t": 0.1, "op": "lay" if game == "stress" else "turn"}, *events])
    assert rc in (0, 1)
    assert len(lines) >= len(events) + 2 and "result" in lines[-1]


@settings(max_examples=100, deadline=None)
@given(deal=st.dictionaries(st.sampled_from(["players", "stocks", "centre", "rounds", "seed", "decks"]),
                            st.one_of(_values, st.lists(st.one_of(_values, st.dictionaries(st.sampled_from(["row", "stock", "piles", "hand", "cards", "down", "up"]), _values, max_size=3)), max_size=4)),
                            max_size=4),
       game=st.sampled_from(["stress", "zenuwen"]))
def test_property_any_deal_gives_a_game_or_one_error(deal: dict[str, Any], game: str) -> None:
    run = run_stress if game == "stress" else run_zenuwen
    rc, lines = replay(run, deal, [{"t": 1, "op": "turn"}])
    assert rc in (0, 1, 2)
    assert rc != 2 or (len(lines) == 1 and "error" in lines[0])
