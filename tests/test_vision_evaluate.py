"""Class-name mapping of YOLO folders and the precision/recall/mAP50 arithmetic (no model needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.detections import Detection
from vision.evaluate import ClassStats, match_image
from vision.yolo_folder import CLASSES, UNREADABLE, normalise_name, read_folder, read_names


@pytest.mark.parametrize("name, code", [
    ("10H", "10H"), ("10h", "10H"), ("TH", "10H"), ("QS", "QS"), ("ace of spades", "AS"),
    ("King_Hearts", "KH"), ("BACK", "BACK"), ("BLACK JOKER", None), ("RED JOKER", None), ("1S", None),
])
def test_class_names_map_by_name(name: str, code: str | None) -> None:
    assert normalise_name(name) == code


def test_our_classes_are_52_cards_and_back() -> None:
    assert len(CLASSES) == 53 and CLASSES[-1] == "BACK" and "10H" in CLASSES


def test_read_folder_maps_indices_through_data_yaml(tmp_path: Path) -> None:
    (tmp_path / "data.yaml").write_text("names:\n  0: RED JOKER\n  1: 7h\n  2: BACK\n")
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    (tmp_path / "images" / "a.jpg").write_bytes(b"")
    (tmp_path / "labels" / "a.txt").write_text("0 0.5 0.5 0.1 0.1\n1 0.2 0.2 0.1 0.2\n2 0.7 0.7 0.2 0.3\n")
    assert read_names(tmp_path / "data.yaml") == ["RED JOKER", "7h", "BACK"]
    (item,) = read_folder(tmp_path)
    assert [b[0] for b in item.boxes] == ["7H", "BACK"]


def test_flow_list_names(tmp_path: Path) -> None:
    (tmp_path / "data.yaml").write_text("nc: 2\nnames: ['10C', 'BLACK JOKER']\n")
    assert read_names(tmp_path / "data.yaml") == ["10C", "BLACK JOKER"]


def test_matching_counts_right_card_only() -> None:
    from collections import defaultdict

    stats: dict[str, ClassStats] = defaultdict(ClassStats)
    gt = [("10H", (0.0, 0.0, 10.0, 20.0)), ("QS", (50.0, 50.0, 60.0, 70.0))]
    dets = [Detection("10H", (0.5, 0.5, 10.0, 20.0), 0.9),   # right card, right place
            Detection("10H", (1.0, 0.0, 10.0, 20.0), 0.8),   # duplicate: a false positive
            Detection("QD", (50.0, 50.0, 60.0, 70.0), 0.7)]  # right place, wrong card
    match_image(stats, gt, dets)
    assert stats["10H"].hits == [True, False] and stats["10H"].at(0.85) == (1, 1)
    assert stats["10H"].ap50() == pytest.approx(1.0)
    assert stats["QS"].ap50() == 0.0 and stats["QD"].hits == [False]


def test_detections_on_unreadable_indices_are_neither_hits_nor_false_alarms() -> None:
    from collections import defaultdict

    assert normalise_name("UNREADABLE") == UNREADABLE
    stats: dict[str, ClassStats] = defaultdict(ClassStats)
    gt = [("10H", (0.0, 0.0, 10.0, 20.0)), (UNREADABLE, (50.0, 50.0, 54.0, 60.0))]
    dets = [Detection("10H", (0.5, 0.5, 10.0, 20.0), 0.9),
            Detection("QD", (50.0, 50.0, 54.0, 60.0), 0.7),   # a guess at the unreadable one: ignored
            Detection("QD", (80.0, 80.0, 90.0, 100.0), 0.6)]  # nothing there: a false alarm
    match_image(stats, gt, dets)
    assert sum(s.n_gt for s in stats.values()) == 1
    assert stats["QD"].hits == [False] and stats["QD"].scores == [0.6]


def test_a_tiny_or_blurred_index_is_labelled_unreadable() -> None:
    from vision.synth import Degradation

    sharp, webcam, blurred = Degradation(), Degradation(scale=0.4), Degradation(blur=3.0)
    index = (100.0, 100.0, 116.0, 140.0)  # 16 px wide, 40 tall
    assert sharp.readable(index) and not webcam.readable(index) and not blurred.readable(index)
    assert not sharp.readable((0.0, 0.0, 8.0, 20.0))


def test_made_up_backs_keep_the_card_shape_and_vary_with_the_seed() -> None:
    import numpy as np

    from vision.synth import procedural_back

    like = np.zeros((160, 100, 4), np.uint8)
    like[8:-8, :, 3] = 255  # a card shape: transparent top and bottom rows
    a, b = (procedural_back(np.random.default_rng(seed), like) for seed in (1, 2))
    assert a.shape == like.shape and (a[..., 3] == like[..., 3]).all()
    assert a[..., :3].std() > 5 and not np.array_equal(a, b)


def test_evaluate_command_says_what_is_wrong_with_a_bad_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cardref.cli import main

    assert main(["evaluate", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardref evaluate: ") and "data.yaml" in err and "Traceback" not in err
    assert main(["evaluate", str(tmp_path / "missing"), "--names", "AS,KH"]) == 2
    assert "missing" in capsys.readouterr().err
