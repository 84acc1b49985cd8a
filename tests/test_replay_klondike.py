"""The replay command's contract (issue 2), through the real console entry point."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

DATA = pathlib.Path(__file__).parent / "data"


def run(args: list[str], stdin: str = "") -> tuple[int, list[dict[str, object]]]:
    proc = subprocess.run(
        [sys.executable, "-m", "cardref.cli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.mark.parametrize(
    "name, rules",
    [
        ("klondike_won_draw1_seed3", "draw=1"),
        ("klondike_won_draw1_seed1", "draw=1,scoring=vegas,passes=unlimited"),
        ("klondike_won_draw3_seed6", "draw=3,passes=unlimited,foundation_to_tableau=true,partial_runs=true,aces_up_at_once=false,scoring=standard,columns=7"),
        ("klondike_won_columns8_seed3", "columns=8"),
    ],
)
def test_recorded_won_games_replay_to_a_win(name: str, rules: str) -> None:
    moves = (DATA / f"{name}.moves.jsonl").read_text()
    code, lines = run(["referee", "klondike", "--rules", rules, "--deal", str(DATA / f"{name}.deal.json")], moves)
    assert code == 0
    assert len(lines) == len(moves.splitlines()) + 1
    assert all(line["ok"] for line in lines[:-1])
    assert lines[-1]["result"] == "won"
    assert lines[-2]["events"][-1]["type"] == "won"
    if "vegas" in rules:
        assert lines[-1]["score"] == -52 + 5 * 52
    else:
        assert lines[-1]["score"] == lines[-2]["score"] and int(lines[-1]["score"]) > 500


def test_timed_won_game_gets_the_bonus() -> None:
    name = "klondike_won_draw1_seed3"
    moves = (DATA / f"{name}.moves.jsonl").read_text()
    _, timed = run(["referee", "klondike", "--rules", "draw=1,timed=true", "--deal", str(DATA / f"{name}.deal.json")], moves)
    _, plain = run(["referee", "klondike", "--rules", "draw=1", "--deal", str(DATA / f"{name}.deal.json")], moves)
    last_t = json.loads(moves.splitlines()[-1])["t"]
    assert last_t > 30
    assert timed[-1]["score"] > plain[-1]["score"]  # the 700,000 / seconds bonus outweighs the ticks
    assert timed[-1]["result"] == "won"


def test_verdict_lines_for_legal_illegal_and_malformed_moves(tmp_path: pathlib.Path) -> None:
    code, lines = run(["deal", "klondike", "--seed", "1"])
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps(lines[0]))
    moves = "\n".join(
        [
            '{"op": "draw"}',
            '{"op": "move", "from": "t2", "to": "t3"}',
            "not json",
            '{"op": "jump"}',
            "",
            '{"op": "recycle"}',
        ]
    )
    code, out = run(["referee", "klondike", "--deal", str(deal)], moves)
    assert code != 0
    assert out[0] == {"ok": True, "score": 0, "events": []}
    assert out[1]["ok"] is False and out[1]["rule"] == "K4" and "queen of diamonds" in out[1]["reason"]
    assert set(out[2]) == {"ok", "error"} and "line 3" in out[2]["error"]
    assert "jump" in out[3]["error"]
    assert out[4]["rule"] == "K10"
    assert out[5] == {"result": "playing", "score": 0}


def test_unknown_option_and_bad_deal_are_clear_errors(tmp_path: pathlib.Path) -> None:
    deal = tmp_path / "deal.json"
    _, lines = run(["deal", "klondike", "--seed", "2"])
    deal.write_text(json.dumps(lines[0]))
    code, out = run(["referee", "klondike", "--rules", "draw=2", "--deal", str(deal)], '{"op": "draw"}\n')
    assert code != 0 and "draw" in out[0]["error"]
    code, out = run(["referee", "klondike", "--rules", "gravity=on", "--deal", str(deal)], "")
    assert code != 0 and "gravity" in out[0]["error"]
    code, out = run(["referee", "klondike", "--deal", str(tmp_path / "missing.json")], "")
    assert code != 0 and "cannot read" in out[0]["error"]
    (tmp_path / "broken.json").write_text("{")
    code, out = run(["referee", "klondike", "--deal", str(tmp_path / "broken.json")], "")
    assert code != 0 and "not valid JSON" in out[0]["error"]


def test_deal_is_reproducible_and_eight_columns_work() -> None:
    _, a = run(["deal", "klondike", "--seed", "7"])
    _, b = run(["deal", "klondike", "--seed", "7"])
    _, c = run(["deal", "klondike", "--seed", "7", "--columns", "8"])
    assert a == b
    assert [len(p) for p in c[0]["tableau"]] == list(range(1, 9))


def test_an_eight_pile_deal_implies_eight_columns(tmp_path: pathlib.Path) -> None:
    _, c = run(["deal", "klondike", "--seed", "7", "--columns", "8"])
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps(c[0]))
    code, out = run(["referee", "klondike", "--deal", str(deal)], '{"op": "draw"}\n')
    assert code == 0 and out[0]["ok"] is True
    code, out = run(["referee", "klondike", "--rules", "columns=7", "--deal", str(deal)], "")
    assert code != 0 and "columns=7" in out[0]["error"]


def test_the_demo_runs_and_catches_the_planted_mistake() -> None:
    proc = subprocess.run([sys.executable, "-m", "cardref.cli", "demo", "--text", "--quiet"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    assert "ILLEGAL  K4" in proc.stdout
    assert "result: won" in proc.stdout
