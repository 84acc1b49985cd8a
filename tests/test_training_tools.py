"""The training-side helpers that carry data to a lent GPU machine and schedule a run by time."""

from __future__ import annotations

import json

import cv2
import pytest
import numpy as np

from vision.decks import pack_decks, unpack_decks
from vision.train_classifier import one_cycle


def _face(opaque: bool) -> np.ndarray:
    rng = np.random.default_rng(3)
    img = np.zeros((320, 206, 4), np.uint8)
    img[..., :3] = rng.integers(0, 255, (320, 206, 3), dtype=np.uint8)
    img[..., :3] = cv2.GaussianBlur(img[..., :3], (0, 0), 3)
    img[..., 3] = 255
    if not opaque:
        img[:8, :8, 3] = 0  # rounded corners: transparent outside the card
    return img


def test_decks_survive_the_trip_as_webp(tmp_path):
    deck = tmp_path / "decks" / "mydeck"
    deck.mkdir(parents=True)
    cv2.imwrite(str(deck / "AS.png"), _face(opaque=False))
    cv2.imwrite(str(deck / "BACK.png"), _face(opaque=True))
    (deck / "index.json").write_text(json.dumps({"AS": [[1, 2, 30, 60]]}))
    (tmp_path / "decks" / "not_a_deck").mkdir()  # no index.json: left behind

    pack_decks(tmp_path / "decks", tmp_path / "packed")
    assert sorted(p.name for p in (tmp_path / "packed").iterdir()) == ["mydeck"]
    packed_size = sum(f.stat().st_size for f in (tmp_path / "packed" / "mydeck").glob("*.webp"))
    assert packed_size < sum(f.stat().st_size for f in deck.glob("*.png"))

    unpack_decks(tmp_path / "packed", tmp_path / "back")
    out = tmp_path / "back" / "mydeck"
    assert json.loads((out / "index.json").read_text()) == {"AS": [[1, 2, 30, 60]]}
    for name, opaque in (("AS", False), ("BACK", True)):
        img = cv2.imread(str(out / f"{name}.png"), cv2.IMREAD_UNCHANGED)
        # the synthetic scenes blend faces by their alpha: an opaque back must come back with one
        assert img.shape == (320, 206, 4)
        assert (img[..., 3] == 255).all() if opaque else img[0, 0, 3] < 20 and img[100, 100, 3] == 255
        assert np.abs(img[..., :3].astype(int) - _face(opaque)[..., :3]).mean() < 4


def test_time_schedule_rises_then_falls_to_a_thousandth():
    ps = np.linspace(0, 1, 101)
    lr = [one_cycle(p) for p in ps]
    peak = int(np.argmax(lr))
    assert abs(ps[peak] - 0.15) < 0.011 and lr[peak] > 0.99
    assert lr[0] < 0.05 and abs(lr[-1] - 0.001) < 1e-6
    assert all(a >= b for a, b in zip(lr[peak:], lr[peak + 1:]))
    assert one_cycle(1.7) == one_cycle(1.0)  # a run that overshoots its time stays at the floor


def test_classifier_batches_do_not_depend_on_who_makes_them():
    pytest.importorskip("torch")  # training-only dependency, not installed with cardref
    from vision.train_classifier import _Batches

    rng = np.random.default_rng(0)
    x = rng.integers(0, 255, (10, 64, 64, 3), dtype=np.uint8)
    y = np.arange(10)
    batches = _Batches(x, y, rng.permutation(10), 4, 0.5, seed=7)
    assert len(batches) == 2  # the ragged rest is left for the next epoch's order
    xb, yb = batches[1]
    again, _ = batches[1]
    assert xb.shape == (4, 3, 64, 64) and (xb == again).all()
    assert sorted(yb.tolist()) == sorted(batches.perm[4:8].tolist())
    with pytest.raises(IndexError):
        batches[2]


def test_the_real_photos_can_weigh_more_in_the_detectors_list(tmp_path, monkeypatch):
    import vision.train_detector as td

    monkeypatch.setattr(td, "ROOT", tmp_path)
    for folder, names in (("data/real/det/train/images", ["a.jpg", "b.jpg"]), ("data/g/s1/det/train/images", ["s.jpg"])):
        (tmp_path / folder).mkdir(parents=True)
        for n in names:
            (tmp_path / folder / n).write_bytes(b"")
    td.write_data_yaml(True, 0, extra=("data/g/s1/det/train/images",), real_repeat=3)
    listed = (tmp_path / "data" / "det_train.txt").read_text().splitlines()
    assert sum("/real/" in x for x in listed) == 6 and sum("/g/s1/" in x for x in listed) == 1
    assert "val:" in (tmp_path / "data" / "det.yaml").read_text()


def _card_with_outline() -> np.ndarray:
    """A 240x320 white card with a 2 px black outline and a picture frame, like penguins' court cards."""
    img = np.full((320, 240, 4), 255, np.uint8)
    cv2.rectangle(img, (1, 1), (238, 318), (0, 0, 0, 255), 2)
    cv2.rectangle(img, (50, 40), (190, 280), (0, 0, 0, 255), 2)  # the picture's frame
    return img


@pytest.mark.parametrize("touches", ["nothing", "outline", "frame"])
def test_an_index_is_found_whole_where_its_rank_touches_a_printed_line(touches: str) -> None:
    """Penguins' K, Q, A and 10: a bold rank glyph touching the card's outline (or a Q's tail the
    picture's frame) made one blot with it that left the search region, and only the suit under the
    rank was labelled; the classifier was then measured on crops of a suit alone."""
    from vision.decks import index_boxes

    img = _card_with_outline()
    top = {"nothing": 8, "outline": 2, "frame": 8}[touches]
    right = {"nothing": 40, "outline": 40, "frame": 52}[touches]
    cv2.rectangle(img, (8, top), (right, 50), (0, 0, 0, 255), 8)  # the rank, strokes 8 px wide
    cv2.circle(img, (24, 72), 12, (0, 0, 0, 255), -1)  # the suit
    cv2.line(img, (24, 72), (24, 90), (0, 0, 0, 255), 2)  # a club's thin stem
    (x1, y1, x2, y2) = index_boxes(img, (0.0, 0.0, 0.27, 0.36))[0]
    assert x1 <= 8 and y1 <= max(top, 6) and y2 >= 90, (x1, y1, x2, y2)
    assert x2 >= right - 4
