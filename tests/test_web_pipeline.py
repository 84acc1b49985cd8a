"""The live pipeline (cardref.pipeline + cardref.live) publishing into the hub: everything it sends
is accepted by the contract, and a late viewer sees the game (docs/web-api.md)."""

from __future__ import annotations

import asyncio
import json
import pathlib
from typing import Any

import cv2
import pytest

from calibration.homography import TableHomography
from calibration.store import LayoutSpec, make_calibration
from calibration.templates import template
from cardref.web.hub import Hub, MessageError
from referee import klondike
from referee.klondike import KlondikeRules, Move
from vision.synthetic_scenes import Action, Noise, Pile, Scene

DATA = pathlib.Path(__file__).parent / "data"
SIZE = (1280, 720)


def _camera(layout: Any) -> TableHomography:
    x0, y0, x1, y1 = layout.bounds_mm()
    x0, y0, x1, y1 = x0 - 60, y0 - 60, x1 + 60, y1 + 60
    w, h = SIZE
    scale = min((w - 40) / (x1 - x0), (h - 40) / (y1 - y0))
    bw, bh = (x1 - x0) * scale, (y1 - y0) * scale
    left, top = (w - bw) / 2, (h - bh) / 2
    image = [(left + 0.1 * bw, top), (left + 0.9 * bw, top), (left + bw, top + bh), (left, top + bh)]
    return TableHomography.from_point_pairs(image, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], SIZE)


def _actions(state: klondike.KlondikeState, move: Move, after: klondike.KlondikeState,
             found: dict[str, str]) -> list[Action]:
    zone = {f"t{i + 1}": f"tableau{i + 1}" for i in range(7)} | {"waste": "waste"}
    if move.op == "draw":
        return [Action("turn", "stock", "waste", 1, tuple(c.code for c in after.waste[len(state.waste):]))]
    if move.dst == "foundation":
        card = state.waste[-1] if move.src == "waste" else state.tableau[int(move.src[1:]) - 1][-1]
        dst = found.setdefault(card.suit, f"foundation{len(found) + 1}")
    else:
        dst = zone[move.dst]
    actions = [Action("move", zone[move.src], dst, move.count)]
    if move.src.startswith("t"):
        i = int(move.src[1:]) - 1
        if after.hidden[i] < state.hidden[i]:
            actions.append(Action("flip", zone[move.src], cards=(after.tableau[i][-1].code,)))
    return actions


def test_the_live_pipeline_publishes_only_what_the_hub_accepts() -> None:
    pipeline_mod = pytest.importorskip("cardref.pipeline")
    live_mod = pytest.importorskip("cardref.live")
    deal = klondike.Deal.from_json(json.loads((DATA / "klondike_won_draw1_seed3.deal.json").read_text()))
    lines = (DATA / "klondike_won_draw1_seed3.moves.jsonl").read_text().splitlines()
    moves = [Move.from_json(json.loads(x)) for x in lines[:8]]
    rules = KlondikeRules.from_spec("draw=1")
    truth = klondike.new_game(deal, rules)
    layout = template("klondike")
    h = _camera(layout)
    piles = {f"tableau{i + 1}": Pile(truth.hidden[i], [truth.tableau[i][-1].code]) for i in range(7)}
    piles["stock"] = Pile(len(truth.stock), [])
    scene = Scene(layout, h, piles, fps=15, seed=5, noise=Noise(miss=0.0, duplicate=0.0, misread=0.0), visible_waste=1)
    frames = list(scene.hold(1.0))
    found: dict[str, str] = {}
    for move in moves:
        after = klondike.apply(truth, move)
        if isinstance(after, klondike.Illegal):
            break
        for action in _actions(truth, move, after.state, found):
            frames.extend(scene.play(action))
        frames.extend(scene.hold(0.6))
        truth = after.state

    hub = Hub()
    refused: list[str] = []

    def publish(message: dict[str, Any]) -> None:
        try:
            hub.publish(message)
        except MessageError as exc:
            refused.append(f"{message.get('type')}: {exc}")
            raise

    referee = live_mod.LiveReferee("klondike", rules, publish=publish)
    current: list[Any] = []
    pipeline = pipeline_mod.Pipeline("unused", make_calibration(h, layout=LayoutSpec(game="klondike")), referee,
                                     detect=lambda image: current[-1].detections, publish=publish)
    for f in frames:
        current.append(f)
        image = cv2.cvtColor(cv2.resize(f.image, SIZE, interpolation=cv2.INTER_NEAREST), cv2.COLOR_GRAY2BGR)
        pipeline.step(image, f.t, f.index)

    assert refused == []
    verdicts = [m for m in hub.history() if m["type"] == "verdict"]
    assert [m["kind"] for m in verdicts] == ["legal"] * len(moves)
    frame = hub.latest_frame()
    assert frame is not None and frame[0]["width"] == 1280 and frame[0]["cards"]  # the boxes' pixel space
    state = hub.latest("state")
    assert state is not None and state["game"] == "klondike"

    async def late_viewer() -> list[str]:
        sub = hub.subscribe()
        out = []
        while (item := sub.get_nowait()) is not None:
            out.append(item.type)
        return out

    seen = asyncio.run(late_viewer())
    assert "state" in seen and "verdict" in seen and seen[-1] == "frame"
