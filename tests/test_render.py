"""Truth videos (issue #5, item 4): the shipped Klondike clip and a tiny render made here.

The shipped clip must open with OpenCV and have one truth line per frame; its at-rest truths must be
what the engine says the table looks like after the legal moves of moves.jsonl (and the live referee,
fed the at-rest truths, must find exactly those moves, the illegal one and its take-back); its
calibration must put a card seen in the picture where the Scene laid it on the table.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from calibration.store import load_calibration
from calibration.templates import klondike as klondike_layout
from referee import klondike, klondike_live
from referee.klondike import Deal, KlondikeRules, Move
from referee.klondike_live import FOUNDATION_ZONES, expected_observation
from referee.observation import Observation, SeenPile

CLIPS_DIR = Path(__file__).resolve().parent.parent / "cardref" / "demo" / "clips"
CLIPS = sorted(p for p in CLIPS_DIR.iterdir()  # the Klondike clips (Stress: tests/test_render_speed_games.py)
               if (p / "render.json").exists() and json.loads((p / "render.json").read_text())["game"] == "klondike") \
    if CLIPS_DIR.is_dir() else []
clips = pytest.mark.parametrize("clip", CLIPS, ids=[p.name for p in CLIPS])

cv2 = pytest.importorskip("cv2")


def _lines(path: Path) -> list[dict[str, Any]]:
    from vision.jsonl_files import open_jsonl

    with open_jsonl(path) as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _rules(folder: Path) -> KlondikeRules:
    return KlondikeRules.from_spec(json.loads((folder / "render.json").read_text())["rules"])


def _observation(line: dict[str, Any]) -> Observation:
    piles = {name: SeenPile(tuple(c["card"] for c in p["cards"]), p["backs"]) for name, p in line["piles"].items()}
    return Observation(line["t"], piles, line["frame"])


def _same_table(line: dict[str, Any], expected: Observation) -> bool:
    seen = _observation(line).piles
    for name, pile in expected.piles.items():
        if name in FOUNDATION_ZONES:
            continue
        if seen[name].cards != pile.cards or seen[name].backs != pile.backs:
            return False
    # foundations: which zone a suit went up on is the player's choice; the tops must agree
    tops = sorted(seen[z].cards[-1] for z in FOUNDATION_ZONES if seen[z].cards)
    want = sorted(expected.piles[z].cards[-1] for z in FOUNDATION_ZONES if expected.piles[z].cards)
    return tops == want


def check_truth_against_engine(folder: Path) -> None:
    """Every at-rest truth frame is the engine's picture of the position after the legal moves whose
    hand visit ended before it (while an illegal move lies on the table: differs from it)."""
    truth = _lines(folder / "truth.jsonl")
    moves = _lines(folder / "moves.jsonl")
    rules = _rules(folder)
    state = klondike.new_game(Deal.from_json(json.loads((folder / "deal.json").read_text())), rules)
    assert [t["frame"] for t in truth] == list(range(len(truth)))
    states = [state]  # the position after each move line (an illegal move and its take-back keep it)
    for m in moves:
        if m["kind"] == "legal":
            verdict = klondike.apply(state, Move.from_json(m))
            assert not isinstance(verdict, klondike.Illegal), m
            state = verdict.state
        elif m["kind"] == "illegal":
            assert isinstance(klondike.apply(state, Move.from_json({**m, "t": None})), klondike.Illegal)
        states.append(state)
    rests = [m["frame_rest"] for m in moves]
    checked = 0
    for line in truth:
        k = sum(1 for r in rests if r <= line["frame"])
        if not line["at_rest"]:
            continue
        inside_visit = k < len(moves) and moves[k]["frame_start"] <= line["frame"]
        assert not inside_visit, line["frame"]
        expected = expected_observation(states[k], waste_shown=rules.draw)
        if k and moves[k - 1]["kind"] == "illegal":
            assert not _same_table(line, expected), line["frame"]
        else:
            assert _same_table(line, expected), (line["frame"], k)
            checked += 1
    assert checked > len(truth) // 3
    for m in moves:  # a move's time is when the table is at rest again
        assert truth[m["frame_rest"]]["at_rest"] and not truth[m["frame_rest"] - 1]["at_rest"]
        assert math.isclose(truth[m["frame_rest"]]["t"], m["t"], abs_tol=1e-3)


def rest_views(truth: list[dict[str, Any]]) -> list[Observation]:
    """The at-rest truths as observations: the first, then each that differs from the one before."""
    out: list[Observation] = []
    previous = None
    for line in truth:
        if line["at_rest"] and line["piles"] != previous:
            previous = line["piles"]
            out.append(_observation(line))
    return out


def check_live_referee_follows(folder: Path) -> None:
    """The live referee, given each new at-rest truth, finds the moves of moves.jsonl in order."""
    moves = _lines(folder / "moves.jsonl")
    first, *later = rest_views(_lines(folder / "truth.jsonl"))
    live = klondike_live.start(first, _rules(folder))
    kinds, found = [], []
    for view in later:
        live, findings = klondike_live.observe(live, view)
        for f in findings:
            kinds.append(f.kind)
            found.append(f.move)
    moves = [m for m in moves if m["kind"] != "hover"]  # the hand touched nothing: nothing to find
    want = {"legal": "move", "illegal": "illegal", "take_back": "taken_back"}
    assert kinds == [want[m["kind"]] for m in moves]
    for f, m in zip(found, moves):
        if m["kind"] != "take_back":
            assert f == Move.from_json({**m, "t": None}), (f, m)


def _count_frames(path: Path) -> tuple[int, tuple[int, int], float]:
    cap = cv2.VideoCapture(str(path))
    assert cap.isOpened(), path
    n = 0
    size = (0, 0)
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        size = (frame.shape[1], frame.shape[0])
        n += 1
    fps = cap.get(cv2.CAP_PROP_FPS)
    cap.release()
    return n, size, fps


# --------------------------------------------------------------------------------------- shipped clip


def test_the_klondike_clip_is_shipped() -> None:
    assert "klondike" in [p.name for p in CLIPS]


@clips
def test_shipped_clip_opens_and_has_a_truth_line_per_frame(clip: Path) -> None:
    info = json.loads((clip / "render.json").read_text())
    video = clip / info["video"]
    assert video.stat().st_size < 3_500_000
    n, size, fps = _count_frames(video)
    assert n == info["frames"] == len(_lines(clip / "truth.jsonl"))
    assert size == tuple(info["size"]) == (1280, 720)
    assert fps == pytest.approx(info["fps"])
    assert 20 <= n / fps <= 45
    from vision.render import HOLDOUT_DECKS

    assert info["deck"] in HOLDOUT_DECKS


@clips
def test_shipped_clip_truth_is_the_engine_replaying_its_moves(clip: Path) -> None:
    check_truth_against_engine(clip)
    moves = _lines(clip / "moves.jsonl")
    kinds = [m["kind"] for m in moves]
    assert kinds.count("illegal") == 1 and kinds[kinds.index("illegal") + 1] == "take_back"
    legal = [m for m in moves if m["kind"] == "legal"]
    assert any(m["op"] == "draw" for m in legal)
    assert any(m.get("from") == "waste" and m.get("to", "").startswith("t") for m in legal)
    assert any(m.get("to") == "foundation" for m in legal)
    assert any("turned_up" in m for m in legal)


@clips
def test_the_live_referee_follows_a_shipped_clip(clip: Path) -> None:
    check_live_referee_follows(clip)


@clips
def test_shipped_calibration_puts_a_seen_card_where_the_scene_laid_it(clip: Path) -> None:
    """Rectify the first frame to the table with calibration.json; the paper of tableau 1's only card
    (face up, uncovered) must have its top-left corner where the Scene's geometry says, within 3 mm."""
    from vision.synthetic_scenes import CARD_H, Pile, Scene

    cal = load_calibration(clip / "calibration.json")
    h = cal.homography()
    assert cal.layout is not None
    layout = cal.layout.build()
    first = _lines(clip / "truth.jsonl")[0]
    t1 = first["piles"]["tableau1"]
    assert t1["backs"] == 0 and len(t1["cards"]) == 1
    scene = Scene(layout, h, {"tableau1": Pile(0, [t1["cards"][0]["card"]])}, images=False)
    ((_, centre, _),) = scene._card_frames("tableau1", scene.piles["tableau1"])
    cap = cv2.VideoCapture(str(clip / json.loads((clip / "render.json").read_text())["video"]))
    ok, frame = cap.read()
    cap.release()
    assert ok
    s = 4.0  # px per mm of the rectified view; a window of 120 x 140 mm around the card
    x0, y0 = centre[0] - 60, centre[1] - 70
    to_window = np.array([[s, 0, -s * x0], [0, s, -s * y0], [0, 0, 1]]) @ h.image_to_table
    top = cv2.warpPerspective(frame, to_window, (int(120 * s), int(140 * s)))
    hsv = cv2.cvtColor(top, cv2.COLOR_BGR2HSV)
    paper = ((hsv[..., 1] < 60) & (hsv[..., 2] > 140)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(paper)
    big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(labels == big)
    width_mm = (xs.max() - xs.min()) / s
    height_mm = (ys.max() - ys.min()) / s
    assert height_mm == pytest.approx(CARD_H, abs=3)
    seen = np.array([x0 + xs.min() / s, y0 + ys.min() / s])  # the paper's extent (its corners are rounded)
    want = centre - np.array([width_mm / 2, CARD_H / 2])
    assert np.linalg.norm(seen - want) < 3.0, (seen, want)
    # and the calibration's layout is the Klondike template (with the fan length the clip needs)
    assert {z.name for z in layout.zones} == {z.name for z in klondike_layout().zones}


# ----------------------------------------------------------------------------------------- tiny render


def test_a_tiny_render_is_consistent_and_deterministic(tmp_path: Path) -> None:
    """The same seed gives the same files, byte for byte (MJPEG here: libx264 through PyAV is not
    always bit-exact from run to run, though its frames are the same pictures)."""
    from cardref.truth_klondike import RenderSettings, render_klondike

    settings = RenderSettings(size=(320, 180), fps=5.0, px_per_mm=0.8, deck="plain", texture="wood")
    a = render_klondike(tmp_path / "a", seed=72, max_moves=4, illegal=1, hovers=1, settings=settings, video_name="v.avi")
    n, size, _ = _count_frames(tmp_path / "a" / "v.avi")
    assert n == a["frames"] == len(_lines(tmp_path / "a" / "truth.jsonl")) and size == (320, 180)
    assert a["illegal"] == 1 and a["hovers"] == 1
    check_truth_against_engine(tmp_path / "a")
    check_live_referee_follows(tmp_path / "a")
    render_klondike(tmp_path / "b", seed=72, max_moves=4, illegal=1, hovers=1, settings=settings, video_name="v.avi")
    for name in ("v.avi", "truth.jsonl", "moves.jsonl", "calibration.json", "deal.json", "render.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_the_render_command_replays_a_moves_file(tmp_path: Path) -> None:
    from cardref.cli import main

    data = Path(__file__).parent / "data"
    moves = tmp_path / "m.jsonl"
    moves.write_text("".join((data / "klondike_won_draw1_seed1.moves.jsonl").read_text().splitlines(True)[:3]))
    out = tmp_path / "out"
    code = main(["render", "klondike", "--seed", "1", "--deal", str(data / "klondike_won_draw1_seed1.deal.json"),
                 "--moves", str(moves), "--rules", "draw=1", "--illegal", "0", "--out", str(out), "--deck", "plain",
                 "--size", "256x144", "--fps", "4", "--px-per-mm", "0.6", "--video", "v.mp4"])
    assert code == 0
    got = _lines(out / "moves.jsonl")
    assert [Move.from_json({**m, "t": None}) for m in got] == [
        Move.from_json({**json.loads(x), "t": None}) for x in moves.read_text().splitlines()
    ]
    check_truth_against_engine(out)
    assert _count_frames(out / "v.mp4")[0] == len(_lines(out / "truth.jsonl"))


def test_truth_videos_refuse_a_deck_the_detector_trained_on() -> None:
    from vision.render import HOLDOUT_DECKS, UNSEEN_DECKS, Faces

    with pytest.raises(ValueError, match="never trained on"):
        Faces.load("anglo")
    from vision.decks import NPM_DECKS

    # the designs allowed besides the held-out ones are the npm decks (none in the shipped weights)
    assert set(UNSEEN_DECKS) - set(HOLDOUT_DECKS) == {d.name for d in NPM_DECKS}
    try:
        from vision.synth import HOLDOUT_DECKS as trained_without
    except Exception:  # the training code needs its own packages
        pytest.skip("vision.synth not importable here")
    assert tuple(HOLDOUT_DECKS) == tuple(trained_without)


def test_the_camera_sees_the_whole_layout_in_perspective() -> None:
    from vision.render import make_camera

    layout = klondike_layout()
    x0, y0, x1, y1 = layout.bounds_mm()
    cam = make_camera((x0, y0, x1, y1), (1280, 720), tilt_deg=35, roll_deg=2, yaw_deg=-3)
    px = cam.homography.to_image([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    assert (px[:, 0] >= 0).all() and (px[:, 0] <= 1280).all() and (px[:, 1] >= 0).all() and (px[:, 1] <= 720).all()
    far, near = np.linalg.norm(px[1] - px[0]), np.linalg.norm(px[2] - px[3])
    assert near > 1.15 * far  # the far edge looks shorter: a tilted camera
    back = cam.homography.to_table(px)
    assert np.allclose(back, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], atol=1e-6)


def test_index_boxes_follow_the_painted_cards(tmp_path: Path) -> None:
    """boxes.jsonl: at the deal every tableau card shows both corner indices, fully, inside the image,
    and each box holds printed ink; a card in the hand or under it loses its boxes."""
    from cardref.truth_klondike import RenderSettings, render_klondike

    settings = RenderSettings(size=(640, 360), fps=5.0, px_per_mm=1.5, deck="plain", texture="felt", boxes=True)
    render_klondike(tmp_path, seed=72, max_moves=2, illegal=0, settings=settings, video_name="v.avi")
    boxes = _lines(tmp_path / "boxes.jsonl.gz")
    truth = _lines(tmp_path / "truth.jsonl")
    assert len(boxes) == len(truth)
    first = boxes[0]["boxes"]
    tops = [p["cards"][-1]["card"] for name, p in truth[0]["piles"].items() if name.startswith("tableau")]
    cap = cv2.VideoCapture(str(tmp_path / "v.avi"))
    frame = cap.read()[1]
    cap.release()
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for card in tops:
        mine = [b for b in first if b["card"] == card]
        assert len(mine) == 2 and all(b["visible"] == 1.0 for b in mine), (card, mine)
        for b in mine:
            x1, y1, x2, y2 = (int(round(v)) for v in b["box"])
            assert 0 <= x1 < x2 <= 640 and 0 <= y1 < y2 <= 360
            assert gray[y1:y2 + 1, x1:x2 + 1].min() < 0.7 * np.percentile(gray[y1:y2 + 1, x1:x2 + 1], 90)
    assert sum(1 for b in first if b["card"] == "BACK") >= 7  # the stock and the face-down tableau cards
    moving = [i for i, t in enumerate(truth) if t["carried"] and t["carried"] != ["BACK"]]
    assert moving
    for i in moving:
        for card in truth[i]["carried"]:
            shown = [b["visible"] for b in boxes[i]["boxes"] if b["card"] == card]
            assert all(v < 1.0 for v in shown) or len(shown) < 2  # the hand covers part of a carried card


ORACLE = '''
import gzip
import json
from vision.detections import Detection


def make():
    lines = iter([json.loads(line) for line in gzip.open(PATH, "rt")])

    def detect(frame):
        boxes = next(lines)["boxes"]
        return [Detection(b["card"], tuple(b["box"]), 0.9) for b in boxes
                if b["visible"] >= (0.05 if b["card"] == "BACK" else 0.6)]

    return detect
'''


def _observe_with_true_boxes(folder: Path, video: str, tmp_path: Path, monkeypatch: Any) -> Any:
    from cardref.cli import main
    from vision.state_check import compare, read_states, read_truth

    name = f"oracle_{folder.name}"
    (tmp_path / f"{name}.py").write_text(ORACLE.replace("PATH", repr(str(folder / "boxes.jsonl.gz"))))
    monkeypatch.syspath_prepend(str(tmp_path))
    states = tmp_path / f"{folder.name}.STATES.jsonl"
    code = main(["observe", str(folder / video), "--game", "klondike", "--calibration", str(folder / "calibration.json"),
                 "--out", str(states), "--detector", f"{name}:make"])
    assert code == 0
    return compare(read_states(states), read_truth(folder / "truth.jsonl"))


def test_the_tracker_fed_the_true_index_boxes_publishes_the_true_states(tmp_path: Path, monkeypatch: Any) -> None:
    """End to end without a trained detector: `cardref observe` on a rendered video, with a detector
    that answers the true index boxes of each frame, publishes exactly the video's steady truths, so
    the painted geometry, the calibration and the truth agree."""
    from cardref.truth_klondike import RenderSettings, render_klondike

    out = tmp_path / "video"
    settings = RenderSettings(size=(512, 288), fps=6.0, px_per_mm=1.2, deck="plain", texture="linen", boxes=True)
    render_klondike(out, seed=72, max_moves=4, illegal=1, hovers=1, settings=settings, video_name="v.avi")
    report = _observe_with_true_boxes(out, "v.avi", tmp_path, monkeypatch)
    assert report.exact_share == 1.0, report.line()


@clips
def test_the_tracker_fed_a_shipped_clips_true_boxes_publishes_its_truth(clip: Path, tmp_path: Path,
                                                                         monkeypatch: Any) -> None:
    info = json.loads((clip / "render.json").read_text())
    report = _observe_with_true_boxes(clip, info["video"], tmp_path, monkeypatch)
    assert report.exact_share == 1.0 and report.meets_targets(), report.line()


@clips
def test_the_camera_referee_fed_a_shipped_clips_true_boxes_referees_its_moves(clip: Path) -> None:
    """The whole camera referee (pipeline, tracker, live referee) on the clip's frames, with a detector
    answering the true index boxes: its findings are moves.jsonl, illegal move and take-back included,
    each within half a second of the moment the table came to rest."""
    from cardref.live import LiveReferee
    from cardref.pipeline import Pipeline
    from vision.detections import Detection

    info = json.loads((clip / "render.json").read_text())
    boxes = iter(_lines(clip / "boxes.jsonl.gz"))

    def detect(frame: Any) -> list[Detection]:
        return [Detection(b["card"], tuple(b["box"]), 0.9) for b in next(boxes)["boxes"]
                if b["visible"] >= (0.05 if b["card"] == "BACK" else 0.6)]

    referee = LiveReferee("klondike", _rules(clip))
    Pipeline(str(clip / info["video"]), load_calibration(clip / "calibration.json"), referee, detect=detect,
             realtime=False).run()
    found = [h for h in referee.history if h.get("kind") in ("move", "illegal", "taken_back")]
    want = [m for m in _lines(clip / "moves.jsonl") if m["kind"] != "hover"]
    kinds = {"legal": "move", "illegal": "illegal", "take_back": "taken_back"}
    assert [h["kind"] for h in found] == [kinds[m["kind"]] for m in want]
    for h, m in zip(found, want):
        assert abs(h["t"] - m["t"]) <= 0.5, (h, m)
        if m["kind"] != "take_back":
            assert Move.from_json(h["move"]) == Move.from_json({**m, "t": None}), (h, m)
        if m["kind"] == "illegal":
            assert h["rule"] == m["rule"]


def test_a_planned_game_recycles_only_while_the_passes_allow() -> None:
    """The greedy player of the truth videos (``cardref.truth_klondike.plan``) drew and recycled
    whatever the rules: Vegas draw 3 (three passes, K10) with seed 814 planned a fourth pass, and the
    render stopped on it as an illegal move. It stops when the passes are spent instead."""
    from cardref.truth_klondike import plan

    rules = klondike.KlondikeRules.from_spec("draw=3,scoring=vegas")
    steps = plan(klondike.deal(814, rules.columns), rules, None, 1000, 0, 814)
    state = klondike.new_game(klondike.deal(814, rules.columns), rules)
    recycles = 0
    for step in steps:
        if step.kind != "legal":
            continue
        recycles += step.move.op == "recycle"
        verdict = klondike.apply(state, step.move)
        assert verdict.ok, f"{step.move}: {getattr(verdict, 'reason', '')}"
        state = verdict.state
    assert recycles == 2  # the third pass is the last
