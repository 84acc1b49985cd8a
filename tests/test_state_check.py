"""Scoring published states against a truth video's per-frame truth."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from calibration.templates import template
from cardref.cli import main as cardref
from vision.state_check import compare, read_states, read_truth, steady_spans
from vision.synthetic_scenes import Action, Scene
from vision.table_state import PileState, SeenCard, TableState
from vision.tracking import TableTracker, TrackerSettings

sys.path.insert(0, str(Path(__file__).parent))
from test_tracking import SIZE, camera_for, klondike_deal  # noqa: E402


def _truth_and_states() -> tuple[list[tuple[TableState, bool]], list[TableState]]:
    layout = template("klondike")
    piles, stock = klondike_deal()
    scene = Scene(layout, camera_for(layout), piles, seed=41)
    frames = list(scene.hold(0.5))
    for action in [Action("move", "tableau1", "tableau2"), Action("turn", "stock", "waste", cards=tuple(stock[:3])),
                   Action("move", "waste", "tableau4")]:
        frames += list(scene.play(action))
        frames += list(scene.hold(0.5))
    truth = []
    for f in frames:
        piles_state = {z: PileState(b, tuple(SeenCard(c, 1.0) for c in cards)) for z, (b, cards) in f.truth.items()}
        truth.append((TableState(f.t, f.index, piles_state), f.at_rest))
    tracker = TableTracker(layout, scene.h, TrackerSettings())
    states = [s for f in frames if (s := tracker.update(f.t, f.index, f.detections, f.image, SIZE)) is not None]
    return truth, states


def test_tracker_meets_the_targets_on_a_scripted_clip() -> None:
    truth, states = _truth_and_states()
    report = compare(states, truth)
    assert report.steady == 4 and report.exact == 4 and report.meets_targets(), report.line()
    assert report.first_delay_s is not None and len(report.delays_s) == 3


def test_missing_bogus_and_repeated_states_are_counted() -> None:
    truth, states = _truth_and_states()
    bogus = TableState(states[1].t + 0.1, 0, {**states[1].piles, "waste": PileState(0, (SeenCard("KH", 0.9),))})
    in_hand = TableState(states[1].t + 0.2, 0, {z: p for z, p in truth[25][0].piles.items()})
    report = compare([states[0], bogus, states[2], states[2], states[3]], truth)
    assert report.exact == 3 and len(report.missed) == 1
    assert len(report.never_existed) == 1 and len(report.repeated) == 1
    assert not report.meets_targets()
    assert not truth[25][1]  # a frame in motion
    report2 = compare(states + [in_hand], truth)
    assert len(report2.not_steady) + len(report2.repeated) + len(report2.never_existed) >= 1


def test_same_table_after_a_hand_came_and_went_is_one_steady_state() -> None:
    a = TableState(0.0, 0, {"stock": PileState(1)})
    b = TableState(1.0, 30, {"stock": PileState(1)})
    spans = steady_spans([(a, True), (a, False), (b, True)])
    assert len(spans) == 1


def test_cardref_compare_states(tmp_path: Path) -> None:
    truth, states = _truth_and_states()
    truth_file = tmp_path / "truth.jsonl"
    truth_file.write_text("".join(json.dumps({**s.to_json(), "at_rest": r}) + "\n" for s, r in truth))
    states_file = tmp_path / "states.jsonl"
    states_file.write_text("".join(json.dumps(s.to_json()) + "\n" for s in states))
    assert read_states(states_file)[0].same_table(states[0]) and len(read_truth(truth_file)) == len(truth)
    assert cardref(["compare-states", str(states_file), str(truth_file)]) == 0
    states_file.write_text("".join(json.dumps(s.to_json()) + "\n" for s in states[:2]))
    assert cardref(["compare-states", str(states_file), str(truth_file), "--json"]) == 1
