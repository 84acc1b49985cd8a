"""The clip source: the shipped truth video played into the hub, its moves judged by the engine."""

from __future__ import annotations

import pytest

from cardref.web.clip import ClipSource, default_clip
from cardref.web.hub import Hub


CLIP_FILES = ("render.json", "deal.json", "moves.jsonl", "truth.jsonl", "calibration.json", "video.mp4")
MISSING = [f for f in CLIP_FILES if not (default_clip() / f).is_file()]
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"the shipped clip is incomplete here (missing {MISSING})")


def _opens() -> bool:
    import cv2

    if MISSING:
        return False
    capture = cv2.VideoCapture(str(default_clip() / "video.mp4"))
    ok, _ = capture.read()
    capture.release()
    return bool(ok)


def test_the_clips_moves_are_judged_by_the_engine_with_the_illegal_one_and_its_take_back() -> None:
    hub = Hub()
    clip = ClipSource(hub)
    clip.begin()
    for m in clip.moves:
        clip.judge(m)
    kinds = [(m["kind"], m.get("rule")) for m in hub.history()]
    assert ("illegal", "K4") in kinds and ("taken_back", None) in kinds
    illegal = next(m for m in hub.history() if m["kind"] == "illegal")
    assert illegal["cards"] == ["QD", "KH"] and "queen of diamonds" in illegal["reason"]
    assert hub.latest("state")["moves"] == sum(1 for k, _ in kinds if k == "legal")  # type: ignore[index]


def test_truth_cards_are_outlined_inside_the_picture() -> None:
    clip = ClipSource(Hub())
    cards = clip.cards_at(0, 0.75)
    assert {c["card"] for c in cards} >= {"KS", "8C", "10D", "BACK"}
    for c in cards:
        x1, y1, x2, y2 = c["box"]
        assert 0 <= x1 < x2 <= 960 and 0 <= y1 < y2 <= 540, c


@pytest.mark.skipif(not _opens(), reason="the shipped clip's video cannot be decoded here")
def test_the_whole_clip_plays_fast_into_the_hub() -> None:
    hub = Hub()
    clip = ClipSource(hub, speed=50.0, fps=2.0)
    clip.play_once()
    assert clip.published_frames >= 60
    latest = hub.latest_frame()
    assert latest is not None and latest[0]["width"] == 960 and latest[1][:2] == b"\xff\xd8"
    assert hub.latest("state")["phase"] == "over"  # type: ignore[index]
