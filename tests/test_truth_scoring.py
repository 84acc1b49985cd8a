"""The truth-video bench's score (``bench/bench_referee_truth.py``): the figures every note quotes."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_referee_truth", ROOT / "bench" / "bench_referee_truth.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def _folder(tmp_path: Path, truth: list[dict], found: list[tuple[float, dict]]) -> Path:
    (tmp_path / "moves.jsonl").write_text("".join(json.dumps({"kind": "legal", **m}) + "\n" for m in truth))
    log = [{"kind": "header"}] + [{"kind": "move", "t": t, "data": {"move": m}} for t, m in found]
    (tmp_path / "game.jsonl").write_text("".join(json.dumps(r) + "\n" for r in log))
    return tmp_path


PLAY = {"op": "play", "player": 1, "from": 2, "to": 1}
LAY = {"op": "lay"}


def test_moves_found_together_are_matched_each_to_its_own_truth_move(tmp_path: Path) -> None:
    """Stress penguins seed 61: views that each found a play and the lay after it (the view cannot
    order them) were scored 61/64 with 2 invented, the second view's lay matched to the first view's."""
    truth = [dict(PLAY, t=1.0), dict(LAY, t=2.0), dict(PLAY, t=3.0), dict(LAY, t=4.0), dict(LAY, t=5.0), dict(PLAY, t=6.0), dict(LAY, t=7.0)]
    found = [(2.0, PLAY), (2.0, LAY), (5.0, PLAY), (5.0, LAY), (5.0, LAY), (7.0, LAY), (7.0, PLAY)]
    assert bench.score(_folder(tmp_path, truth, found))["found"] == 7


def test_a_move_missed_and_one_invented_are_counted(tmp_path: Path) -> None:
    truth = [dict(PLAY, t=1.0), dict(LAY, t=2.0), dict(LAY, t=3.0), dict(PLAY, t=4.0)]
    found = [(1.0, PLAY), (3.0, LAY), (3.5, dict(PLAY, to=0)), (4.0, PLAY)]
    result = bench.score(_folder(tmp_path, truth, found))
    assert (result["moves"], result["found"], result["invented"]) == (4, 3, 1)


def test_a_move_the_log_retracts_is_not_one_found(tmp_path: Path) -> None:
    """Stress penguins seed 96: a QS laid against S6, taken for a card that fits (never read), then taken
    back; the referee retracts the play in the log, and the score must not count it as invented."""
    truth = [dict(PLAY, t=1.0), dict(LAY, t=3.0)]
    folder = _folder(tmp_path, truth, [(1.0, PLAY), (2.0, dict(PLAY, to=0)), (3.0, LAY)])
    lines = [json.loads(x) for x in (folder / "game.jsonl").read_text().splitlines()]
    for seq, record in enumerate(lines):
        record["seq"] = seq
    lines.insert(3, {"seq": 9, "kind": "correction", "target": 2, "data": {"action": "retract", "by": "referee"}})
    (folder / "game.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    result = bench.score(folder)
    assert (result["found"], result["invented"]) == (2, 0)


def test_calls_are_scored_in_time_and_false_ones_counted(tmp_path: Path) -> None:
    """Stress penguins seed 100: a stuck call made on a queen misread as a 6C, while the queen fitted
    on the centre's jack; and the truth's later stuck calls, one made 4 s late (the players had laid
    new cards by then). The move scores said nothing of either."""
    truth = [dict(PLAY, t=1.0, calls=["stress"]), dict(PLAY, t=5.0, calls=["stuck"]), dict(LAY, t=6.0),
             dict(PLAY, t=9.0, calls=["stuck"])]
    folder = _folder(tmp_path, truth, [(1.0, PLAY), (5.0, PLAY), (6.0, LAY), (9.0, PLAY)])
    calls = [{"seq": 100 + n, "kind": "call", "t": t, "data": {"type": kind}} for n, (t, kind) in
             enumerate(((0.3, "stress"), (3.0, "stuck"), (5.1, "stuck"), (13.0, "stuck"), (13.0, "match_over")))]
    withdrawn = {"seq": 200, "kind": "correction", "target": 101, "data": {"action": "retract", "by": "referee"}}
    with (folder / "game.jsonl").open("a") as log:
        log.write("".join(json.dumps(r) + "\n" for r in calls + [withdrawn]))
    result = bench.score(folder)
    # the false call at 3.0 s, withdrawn later, was still made
    assert (result["calls"], result["calls_found"], result["false_calls"], result["calls_withdrawn"]) == (3, 2, 2, 1)


def test_moves_found_are_a_longest_common_subsequence_of_the_true_ones(tmp_path: Path) -> None:
    """Double Solitaire kennard_4c draw 1, seed 68: a long run of the same moves (draws) with one move
    invented among them. ``difflib.SequenceMatcher``'s matching blocks, which it scored with until
    the sixty-fourth session, are no longest common subsequence: it paired the longest run first and
    lost the draw before the invented move (seed 68: 20/57 with 18 invented, 32/57 with 6 in order)."""
    draw = {"op": "draw", "player": 0}
    truth = [dict(draw, t=1.0), dict(draw, t=2.0), dict(draw, t=3.0)]
    found = [(1.0, draw), (1.5, {"op": "move", "player": 0, "from": "waste", "to": "t1"}), (2.0, draw), (3.0, draw)]
    result = bench.score(_folder(tmp_path, truth, found))
    assert (result["found"], result["invented"]) == (3, 1)
