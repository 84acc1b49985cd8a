"""The whole path below the detector: scripted table frames (corner detections, a hand that comes in and
carries cards) through tracking and move inference to the referee's verdicts and the game log."""

from __future__ import annotations

import json
import pathlib


from calibration.store import LayoutSpec, make_calibration
from cardref.gamelog.store import GameStore
from cardref.live import LiveReferee
from cardref.pipeline import Pipeline
from referee import klondike
from referee.klondike import KlondikeRules, Move
from referee.observation import Finding
from scripted_klondike import feed, filmed_game
from vision.synthetic_scenes import Frame, Noise

DATA = pathlib.Path(__file__).parent / "data"


def test_a_game_on_the_table_is_refereed_from_corner_detections(tmp_path: pathlib.Path) -> None:
    deal = klondike.Deal.from_json(json.loads((DATA / "klondike_won_draw1_seed3.deal.json").read_text()))
    moves = [Move.from_json(json.loads(x)) for x in (DATA / "klondike_won_draw1_seed3.moves.jsonl").read_text().splitlines()]
    moves = moves[: next(i for i, m in enumerate(moves) if m.op == "recycle")][:30]
    rules = KlondikeRules.from_spec("draw=1")
    h, frames, truth = filmed_game(deal, moves, rules, Noise(miss=0.02, duplicate=0.02, misread=0.0))

    store = GameStore(tmp_path, fsync=False)
    writer = store.new_game("klondike", rules.spec(), ["Anna"])
    messages: list[dict[str, object]] = []
    referee = LiveReferee("klondike", rules, writer=writer, publish=messages.append)
    calibration = make_calibration(h, layout=LayoutSpec(game="klondike"))
    current: list[Frame] = []
    pipeline = Pipeline("unused", calibration, referee, detect=lambda image: current[-1].detections, publish=messages.append)
    feed(pipeline, frames, current)
    writer.close()

    judged = [m for m in messages if m["type"] == "verdict"]
    assert [m["kind"] for m in judged] == ["move"] * len(moves), [m for m in judged if m["kind"] != "move"][:3]
    assert [Move.from_json(m["move"]) for m in judged] == moves
    assert referee.live is not None and referee.live.state.score == truth.score
    assert any(m["type"] == "frame" for m in messages)
    log = store.read(writer.id)
    assert sum(1 for r in log.records if r.kind.value == "move") == len(moves)
    assert all(r.frame for r in log.records if r.kind.value == "move")  # every move has its key frame


def test_a_table_calibrated_on_the_set_up_page_is_laid_out_for_the_game_and_players_set_up() -> None:
    # the set-up page's calibration names no layout: a three-player Zenuwen table must still get three seats
    from calibration.homography import TableHomography

    h = TableHomography.from_point_pairs([(100, 50), (1100, 80), (1200, 650), (60, 700)],
                                         [(0, 0), (900, 0), (900, 700), (0, 700)], (1280, 720))
    pipeline = Pipeline("unused", make_calibration(h, "markers"), LiveReferee("zenuwen", "players=3"))
    assert pipeline.tracker.layout.players == 3
    assert {z.seat for z in pipeline.tracker.layout.zones if z.seat} == {1, 2, 3}


def test_a_camera_that_films_piles_too_coarsely_is_told_on_its_first_frame() -> None:
    """Where cardref render put the camera for a four-player Zenuwen table (aguilar seed 168, 12/55 moves
    at 1280x720): the status line names the far and side seats once, the first frame of that size."""
    import numpy as np

    from calibration.templates import template
    from vision.render import make_camera

    layout = template("zenuwen", 4)
    camera = make_camera(layout.bounds_mm(), (1280, 720), tilt_deg=26.45, roll_deg=0.33, yaw_deg=4.09, distance_mm=890.9)
    messages: list[dict[str, object]] = []
    pipeline = Pipeline("unused", make_calibration(camera.homography, layout=LayoutSpec(game="zenuwen", players=4)),
                        LiveReferee("zenuwen", "players=4"), detect=lambda image: [], publish=messages.append)
    for index in range(3):
        pipeline.step(np.zeros((720, 1280, 3), np.uint8), index / 10, index)
    warned = [m["warning"] for m in messages if m["type"] == "status" and "warning" in m]
    assert len(warned) == 1 and "p3" in str(warned[0]) and "1280x720" in str(warned[0])


def test_the_frame_loop_ticks_the_referee_on_every_frame_that_publishes_no_table() -> None:
    """The referee has no clock: a frame that publishes no table (and no clearer one) passes its time
    to ``LiveReferee.tick``, which concludes a view left waiting once the table has been quiet."""
    deal = klondike.Deal.from_json(json.loads((DATA / "klondike_won_draw1_seed3.deal.json").read_text()))
    moves = [Move.from_json(json.loads(x)) for x in (DATA / "klondike_won_draw1_seed3.moves.jsonl").read_text().splitlines()][:3]
    rules = KlondikeRules.from_spec("draw=1")
    h, frames, _ = filmed_game(deal, moves, rules, Noise(miss=0.0, duplicate=0.0, misread=0.0))

    ticks: list[float] = []

    class Ticked(LiveReferee):
        def tick(self, t: float) -> list[Finding]:
            ticks.append(t)
            return super().tick(t)

    referee = Ticked("klondike", rules)
    current: list[Frame] = []
    pipeline = Pipeline("unused", make_calibration(h, layout=LayoutSpec(game="klondike")), referee,
                        detect=lambda image: current[-1].detections)
    feed(pipeline, frames, current)
    fed = {state.t for state in pipeline.states}
    assert ticks == sorted(ticks) and len(ticks) >= len(frames) - 2 * len(fed)
    assert not fed & set(ticks)  # a frame that published a table fed it instead
