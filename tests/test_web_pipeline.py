"""The live pipeline (cardref.pipeline + cardref.live) publishing into the hub: everything it sends
is accepted by the contract, and a late viewer sees the game (docs/web-api.md)."""

from __future__ import annotations

import asyncio
import json
import pathlib
from typing import Any

import pytest

from calibration.store import LayoutSpec, make_calibration
from cardref.web.hub import Hub, MessageError
from referee import klondike
from referee.klondike import KlondikeRules, Move
from scripted_klondike import feed, filmed_game
from vision.synthetic_scenes import Frame, Noise

DATA = pathlib.Path(__file__).parent / "data"


def test_the_live_pipeline_publishes_only_what_the_hub_accepts() -> None:
    pipeline_mod = pytest.importorskip("cardref.pipeline")
    live_mod = pytest.importorskip("cardref.live")
    deal = klondike.Deal.from_json(json.loads((DATA / "klondike_won_draw1_seed3.deal.json").read_text()))
    lines = (DATA / "klondike_won_draw1_seed3.moves.jsonl").read_text().splitlines()
    moves = [Move.from_json(json.loads(x)) for x in lines[:8]]
    rules = KlondikeRules.from_spec("draw=1")
    h, frames, _ = filmed_game(deal, moves, rules, Noise(miss=0.0, duplicate=0.0, misread=0.0))

    hub = Hub()
    refused: list[str] = []

    def publish(message: dict[str, Any]) -> None:
        try:
            hub.publish(message)
        except MessageError as exc:
            refused.append(f"{message.get('type')}: {exc}")
            raise

    referee = live_mod.LiveReferee("klondike", rules, publish=publish)
    current: list[Frame] = []
    pipeline = pipeline_mod.Pipeline("unused", make_calibration(h, layout=LayoutSpec(game="klondike")), referee,
                                     detect=lambda image: current[-1].detections, publish=publish)
    feed(pipeline, frames, current)

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
