"""Helpers for tests that play Klondike on a scripted table (vision.synthetic_scenes): a camera that
sees the whole layout from a slant, the hand actions that carry out an engine move, a whole filmed
game, and feeding its frames to a pipeline."""

from __future__ import annotations

from typing import Any

import cv2

from calibration.homography import TableHomography
from calibration.templates import template
from calibration.zones import ZoneLayout
from referee import klondike
from referee.klondike import KlondikeRules, Move
from vision.synthetic_scenes import Action, Frame, Noise, Pile, Scene

SIZE = (1280, 720)


def camera_for(layout: ZoneLayout, size: tuple[int, int] = SIZE, squeeze: float = 0.1) -> TableHomography:
    """A camera that sees the whole layout (plus a margin) from a slant: the far edge looks narrower
    by ``squeeze`` of the picture's width on each side."""
    x0, y0, x1, y1 = layout.bounds_mm()
    x0, y0, x1, y1 = x0 - 60, y0 - 60, x1 + 60, y1 + 60
    w, h = size
    scale = min((w - 40) / (x1 - x0), (h - 40) / (y1 - y0))
    bw, bh = (x1 - x0) * scale, (y1 - y0) * scale
    left, top = (w - bw) / 2, (h - bh) / 2
    inset = squeeze * bw
    image = [(left + inset, top), (left + bw - inset, top), (left + bw, top + bh), (left, top + bh)]
    return TableHomography.from_point_pairs(image, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], size)


def scene_actions(
    state: klondike.KlondikeState, move: Move, after: klondike.KlondikeState, found: dict[str, str]
) -> list[Action]:
    """The hand actions that carry out an engine move on the scripted table; ``found`` remembers which
    foundation zone each suit started on."""
    zone = {f"t{i + 1}": f"tableau{i + 1}" for i in range(7)} | {"waste": "waste"}
    if move.op == "draw":
        drawn = tuple(c.code for c in after.waste[len(state.waste) :])
        return [Action("turn", "stock", "waste", len(drawn), drawn)]
    src = zone[move.src]
    if move.dst == "foundation":
        card = state.waste[-1] if move.src == "waste" else state.tableau[int(move.src[1:]) - 1][-1]
        dst = found.setdefault(card.suit, f"foundation{len(found) + 1}")
    else:
        dst = zone[move.dst]
    actions = [Action("move", src, dst, move.count)]
    if move.src.startswith("t"):
        i = int(move.src[1:]) - 1
        if after.hidden[i] < state.hidden[i]:
            actions.append(Action("flip", src, cards=(after.tableau[i][-1].code,)))
    return actions


def filmed_game(deal: klondike.Deal, moves: list[Move], rules: KlondikeRules, noise: Noise
                ) -> tuple[TableHomography, list[Frame], klondike.KlondikeState]:
    """The camera, the frames of the deal followed by ``moves`` played by a hand, and the final position."""
    truth = klondike.new_game(deal, rules)
    layout = template("klondike")
    h = camera_for(layout)
    piles = {f"tableau{i + 1}": Pile(truth.hidden[i], [truth.tableau[i][-1].code]) for i in range(7)}
    piles["stock"] = Pile(len(truth.stock), [])
    scene = Scene(layout, h, piles, fps=15, seed=5, noise=noise, visible_waste=1)
    frames = list(scene.hold(1.0))
    found: dict[str, str] = {}
    for move in moves:
        after = klondike.replay(truth, [move])
        for action in scene_actions(truth, move, after, found):
            frames.extend(scene.play(action))
        frames.extend(scene.hold(0.6))
        truth = after
    return h, frames, truth


def feed(pipeline: Any, frames: list[Frame], current: list[Frame]) -> None:
    """Each frame, as a 1280x720 BGR picture, through ``pipeline.step``; ``current`` gets the frame
    first, for a stand-in detector that returns its detections."""
    for f in frames:
        current.append(f)
        assert f.image is not None
        image = cv2.cvtColor(cv2.resize(f.image, SIZE, interpolation=cv2.INTER_NEAREST), cv2.COLOR_GRAY2BGR)
        pipeline.step(image, f.t, f.index)
