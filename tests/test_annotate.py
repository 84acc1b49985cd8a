"""Labels of ``cardref detect --annotate``: readable where indices lie a few pixels apart."""

from __future__ import annotations

import numpy as np

from vision.annotate import _overlap, draw, label_places
from vision.detections import Detection


def test_a_lone_boxs_label_sits_just_above_it() -> None:
    assert label_places([(100, 100, 120, 130)], [(50, 14)], (720, 1280)) == [(100, 86, 150, 100)]


def test_labels_of_a_waste_fans_indices_cover_neither_each_other_nor_the_other_boxes() -> None:
    # a draw-3 waste: three indices 16 px apart, each label three times as wide as its box
    boxes = [(300, 200, 316, 228), (316, 200, 332, 228), (332, 200, 348, 228)]
    places = label_places(boxes, [(48, 14)] * 3, (720, 1280))
    assert all(not _overlap(a, b) for i, a in enumerate(places) for b in places[i + 1:])
    assert all(not _overlap(p, b) for p in places for b in boxes)
    # the old way, every label just above its box, put each on the next
    above = [(x1, y1 - 14, x1 + 48, y1) for x1, y1, _, _ in boxes]
    assert _overlap(above[0], above[1])


def test_a_label_stays_inside_the_frame() -> None:
    (x1, y1, x2, y2), = label_places([(1270, 0, 1280, 20)], [(60, 14)], (720, 1280))
    assert 0 <= x1 and x2 <= 1280 and 0 <= y1 and y2 <= 720


def test_draw_keeps_the_frame_and_marks_each_detection() -> None:
    img = np.full((200, 300, 3), 40, np.uint8)
    dets = [Detection("3H", (100, 80, 112, 100), 0.9), Detection("9S", (112, 80, 124, 100), 0.5)]
    out = draw(img, dets)
    assert out.shape == img.shape and (img == 40).all()  # the input is left as it was
    assert (out[80:101, 100] != 40).any() and (out[80:101, 124] != 40).any()
    assert draw(img, []).tolist() == img.tolist()
