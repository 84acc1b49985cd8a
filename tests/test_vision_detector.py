"""The shipped card detector (models/*.onnx) on small committed images; never trains, no torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from cardref.cli import main
from vision.detections import Detection
from vision.detector import (CardDetector, DetectorConfig, ImageError, TopDown, Turned, _dedupe, _unturn,
                             default_detector, letterbox, nms, read_image)

DATA = Path(__file__).parent / "data" / "vision"
REAL_VAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-cards" / "val"


def iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ix * iy
    return ix * iy / u


def labels(name: str) -> list[dict]:
    return json.loads((DATA / f"{name}.json").read_text())


def read_right(dets: list[Detection], truth: list[dict]) -> int:
    """How many labelled boxes have a detection of the same card overlapping them (IoU >= 0.5)."""
    return sum(any(d.card == t["card"] and iou(d.box, t["box"]) >= 0.5 for d in dets) for t in truth)


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return default_detector()


def wrong(dets: list[Detection], truth: list[dict]) -> list[Detection]:
    return [d for d in dets if not any(d.card == t["card"] and iou(d.box, t["box"]) >= 0.5 for t in truth)]


def test_reads_the_corners_of_a_held_out_deck_close_up(detector: CardDetector) -> None:
    # "simplistic" is one of the two deck designs kept out of training entirely. The shipped model
    # (see models/MODEL_CARD.md) is below the targets: these bounds are what it does today.
    img = read_image(DATA / "closeup_holdout.jpg")
    truth = labels("closeup_holdout")
    dets = detector.detect(img)
    assert read_right(dets, truth) >= len(truth) - 1
    assert len(wrong(dets, truth)) <= 1


def test_klondike_table_in_a_held_out_deck(detector: CardDetector) -> None:
    img = read_image(DATA / "klondike_holdout.jpg")
    truth = [t for t in labels("klondike_holdout") if t["card"] != "BACK"]
    dets = [d for d in detector.detect(img) if d.card != "BACK"]
    right = read_right(dets, truth)
    bad = wrong(dets, truth)
    assert right >= 0.55 * len(truth), (right, len(truth))
    assert len(bad) <= 0.3 * len(dets), bad


def test_each_stage_alone_on_the_close_up(detector: CardDetector) -> None:
    # the classifier given the true boxes, the detector asked only for corner boxes
    img = read_image(DATA / "closeup_holdout.jpg")
    truth = labels("closeup_holdout")
    read = detector.read_boxes(img, [t["box"] for t in truth])
    assert sum(code == t["card"] for (code, _), t in zip(read, truth)) >= len(truth) - 1
    assert all(0 < p <= 1 for _, p in read) and detector.read_boxes(img, []) == []
    found = [box for kind, box, score in detector.find_boxes(img) if kind == "corner" and score >= 0.15]
    assert sum(any(iou(b, t["box"]) >= 0.5 for b in found) for t in truth) >= len(truth) - 1


def test_boxes_are_in_input_pixels_for_any_size(detector: CardDetector) -> None:
    img = read_image(DATA / "closeup_holdout.jpg")  # 800x600
    truth = labels("closeup_holdout")
    wide = cv2.copyMakeBorder(img, 0, 0, 300, 500, cv2.BORDER_REPLICATE)  # 1600x600, content 300 px right
    big = cv2.resize(img, (1200, 900))  # scaled 1.5x
    tall = cv2.copyMakeBorder(img, 400, 300, 0, 0, cv2.BORDER_REPLICATE)  # 800x1300, content 400 px down
    for frame, scale, dx, dy in ((wide, 1.0, 300.0, 0.0), (big, 1.5, 0.0, 0.0), (tall, 1.0, 0.0, 400.0)):
        moved = [{"card": t["card"], "box": [t["box"][0] * scale + dx, t["box"][1] * scale + dy,
                                             t["box"][2] * scale + dx, t["box"][3] * scale + dy]} for t in truth]
        dets = detector.detect(frame)
        H, W = frame.shape[:2]
        assert all(0 <= d.box[0] < d.box[2] <= W and 0 <= d.box[1] < d.box[3] <= H for d in dets)
        assert read_right(dets, moved) >= 2, (frame.shape, dets)


def test_corrupt_and_missing_images_give_a_clear_error(detector: CardDetector, tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="cannot decode image: .*corrupt.jpg"):
        read_image(DATA / "corrupt.jpg")
    with pytest.raises(ImageError, match="no such image file"):
        read_image(tmp_path / "nope.png")
    with pytest.raises(ImageError, match="expected a BGR image"):
        detector.detect(np.zeros((10, 10), np.uint8))


def test_cli_detect_json_and_annotate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = str(DATA / "closeup_holdout.jpg")
    bad = str(DATA / "corrupt.jpg")
    code = main(["detect", good, bad, "--json", "--annotate", str(tmp_path)])
    out = capsys.readouterr()
    lines = [json.loads(line) for line in out.out.splitlines()]
    assert code == 1
    assert lines[0]["image"] == good
    cards = {d["card"] for d in lines[0]["detections"]}
    assert len(cards & {t["card"] for t in labels("closeup_holdout")}) >= 2
    for d in lines[0]["detections"]:
        x1, y1, x2, y2 = d["box"]
        assert 0 <= x1 < x2 <= 800 and 0 <= y1 < y2 <= 600 and 0 < d["confidence"] <= 1
    assert lines[1] == {"image": bad, "error": lines[1]["error"]} and "cannot decode" in lines[1]["error"]
    assert "corrupt.jpg" in out.err
    assert cv2.imread(str(tmp_path / "closeup_holdout.jpg")).shape == (600, 800, 3)


def test_threads_and_input_size_are_settable() -> None:
    from vision.detector import DetectorConfig

    det = CardDetector(config=DetectorConfig(threads=1, imgsz=480))
    img = read_image(DATA / "closeup_holdout.jpg")
    assert read_right(det.detect(img), labels("closeup_holdout")) >= 2


@pytest.mark.skipif(not REAL_VAL.is_dir(), reason="shared/data/real-cards/val not present")
def test_real_photos_sample() -> None:
    """A few real photos (never trained on): most labelled corners read right, few false boxes."""
    from vision.yolo_folder import read_folder

    det = default_detector()
    items = read_folder(REAL_VAL)[:12]
    n = right = wrong = 0
    for it in items:
        img = read_image(it.image)
        H, W = img.shape[:2]
        truth = [{"card": c, "box": [(cx - w / 2) * W, (cy - h / 2) * H, (cx + w / 2) * W, (cy + h / 2) * H]}
                 for c, cx, cy, w, h in it.boxes]
        dets = det.detect(img)
        n += len(truth)
        right += read_right(dets, truth)
        wrong += sum(not any(d.card == t["card"] and iou(d.box, t["box"]) >= 0.5 for t in truth) for d in dets)
    assert right >= 0.6 * n, (right, n)
    assert wrong <= 0.25 * max(1, right + wrong), (wrong, right)


def test_letterbox_pads_to_stride_and_maps_back() -> None:
    img = np.zeros((720, 1280, 3), np.uint8)
    out, r, (left, top) = letterbox(img, 640)
    assert out.shape == (384, 640, 3) and r == 0.5 and left == 0 and top == 12
    out, r, (left, top) = letterbox(np.zeros((100, 50, 3), np.uint8), 640)
    assert out.shape[0] == 640 and out.shape[1] % 32 == 0


def test_nms_keeps_the_best_of_overlapping_boxes() -> None:
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]], np.float32)
    keep = nms(boxes, np.array([0.5, 0.9, 0.7], np.float32), 0.5)
    assert keep.tolist() == [1, 2]


def test_a_box_straddling_two_indices_of_a_fan_is_dropped() -> None:
    # A fanned column's 4C and 3D indices (boxes from a real frame of a truth video) and a box half on
    # each, read as 3C; a back's loose box over the column keeps the indices it overlaps.
    four = Detection("4C", (629, 259, 644, 287), 0.19)
    three = Detection("3D", (626, 286, 642, 316), 0.59)
    mixed = Detection("3C", (628, 273, 643, 303), 0.28)
    back = Detection("BACK", (570, 250, 675, 320), 0.8)
    kept = _dedupe([four, three, mixed, back])
    assert sorted(d.card for d in kept) == ["3D", "4C", "BACK"]


def test_an_unsure_reading_where_indices_lie_side_by_side_is_read_again_around_its_box(detector: CardDetector) -> None:
    """A draw-3 waste's middle index, a 3H between a 9S and an 8H (simplistic, draw 3, seed 602 at
    1280x720), boxed a pixel high: that one crop reads 5H at 0.64. In a part of the frame marked for it
    (a waste), it is read again from four crops shifted around the box, and is the 3H. A sure reading (the
    9S) is not read again; elsewhere nothing is."""
    img = read_image(DATA / "waste_fan.png")
    h, w = img.shape[:2]
    middle, nine = [45.6, 26.2, 62.4, 54.5], [16.0, 28.0, 35.0, 56.0]
    (code_once, _), (nine_once, p_nine) = detector.read_boxes(img, [middle, nine])
    assert (code_once, nine_once) == ("5H", "9S")
    waste = CardDetector(config=DetectorConfig(reread=((0, 0, w, h),)))
    assert [(c, round(p, 4)) for c, p in waste.read_boxes(img, [nine])] == [("9S", round(p_nine, 4))]
    assert waste.read_boxes(img, [middle])[0][0] == "3H"
    elsewhere = CardDetector(config=DetectorConfig(reread=((0, 0, 30, h),)))  # holds the 9S only
    assert elsewhere.read_boxes(img, [middle])[0][0] == "5H"
    # the same in the whole picture: the detector draws that box
    assert "5H" in {d.card for d in detector.detect(img)}
    assert {d.card for d in waste.detect(img)} == {"9S", "3H", "8H"}


def test_a_box_on_a_big_rank_alone_is_read_grown_over_its_suit() -> None:
    """A draw-3 waste of kennard_4c_big (never trained on), Klondike seed 808 at 1280x720: the top 3S's
    big index is boxed at its 3 alone (wider than tall) and read 5S or 3S at 0.24, under the reporting
    threshold; its other index is not found, and the card was never published in five passes of the
    stock. In a waste, such a box is read again grown over the suit under the rank. The picture is the
    frame's waste, put back where it lay in a 1280x720 frame (the scale the miss needs)."""
    frame = np.full((720, 1280, 3), 128, np.uint8)
    frame[90:300, 240:540] = read_image(DATA / "waste_big_index.jpg")
    waste = (243, 87, 540, 295)
    found = CardDetector(config=DetectorConfig(tiles=(waste,), reread=(waste,))).detect(frame)
    assert {"AH", "7S", "3S"} <= {d.card for d in found}
    three = next(d for d in found if d.card == "3S")
    assert three.box[2] - three.box[0] > three.box[3] - three.box[1]  # (the detector's own box is reported)
    elsewhere = CardDetector(config=DetectorConfig(tiles=(waste,))).detect(frame)
    assert "3S" not in {d.card for d in elsewhere}


def test_cardref_detect_reads_an_unsure_index_of_a_still_picture_again(capsys: pytest.CaptureFixture[str]) -> None:
    """A still picture is read once and only being right counts, so ``cardref detect`` reads every
    unsure card reading again (the live pipeline only in a waste); ``--read-once`` does not."""
    picture = str(DATA / "waste_fan.png")
    found = {}
    for extra in ([], ["--read-once"]):
        assert main(["detect", picture, "--json", *extra]) == 0
        found[bool(extra)] = {d["card"] for d in json.loads(capsys.readouterr().out)["detections"]}
    assert found[False] == {"9S", "3H", "8H"}
    assert "5H" in found[True] and "3H" not in found[True]


def test_detect_command_does_not_load_heavy_modules_at_import() -> None:
    code = ("import sys, cardref.commands.detect, cardref.commands.evaluate; "
            "print(any(m in sys.modules for m in ('cv2', 'onnxruntime', 'torch')))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "False"


def test_a_side_seats_sideways_cards_are_read_turned_up(detector: CardDetector) -> None:
    # The left seat of a three-player Zenuwen render (held-out deck "simplistic"), cards lying a quarter
    # turned: read as they are, two or more of the five pile tops are missed (run 6 read two, run 7
    # three); the frame turned up (one counter-clockwise quarter turn stands them up) reads them all (at
    # least four, for a margin).
    img = read_image(DATA / "side_seat.jpg")
    tops = {"KC", "8C", "AC", "4D", "5S"}
    h, w = img.shape[:2]
    plain = {d.card for d in detector.detect(img)}
    turned = CardDetector(config=DetectorConfig(turned=(Turned(1, ((0, 0), (w, 0), (w, h), (0, h)), pad=0),)))
    dets = turned.detect(img)
    assert len(tops & plain) <= 3 and len(tops & {d.card for d in dets}) >= max(4, len(tops & plain) + 1)
    assert all(0 <= d.box[0] < d.box[2] <= w and 0 <= d.box[1] < d.box[3] <= h for d in dets)
    read = [d for d in dets if d.card in tops]
    assert [code for code, _ in turned.read_boxes(img, [d.box for d in read])] == [d.card for d in read]


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_boxes_found_in_a_turned_tile_map_back_to_the_tile(turns: int) -> None:
    tile = np.zeros((50, 80), np.uint8)
    tile[10:20, 30:45] = 1  # x 30-45, y 10-20
    ys, xs = np.nonzero(np.rot90(tile, turns))
    found = np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]], np.float32)
    assert _unturn(found, turns, 80, 50).tolist() == [[30, 10, 45, 20]]


def test_a_top_down_view_replaces_the_frame_inside_its_outline() -> None:
    # A view that turns the close-up upside down: what it finds maps back onto the labelled corners
    # of the frame, and replaces the frame's own detections there.
    img = read_image(DATA / "closeup_holdout.jpg")
    truth = labels("closeup_holdout")
    h, w = img.shape[:2]
    upside_down = (-1.0, 0.0, float(w), 0.0, -1.0, float(h), 0.0, 0.0, 1.0)
    view = TopDown(upside_down, (w, h), ((0, 0), (w, 0), (w, h), (0, h)))
    assert view.to_frame((10, 20, 30, 60)) == pytest.approx((w - 30, h - 60, w - 10, h - 20))
    dets = CardDetector(config=DetectorConfig(top_down=(view,))).detect(img)
    assert read_right(dets, truth) >= len(truth) - 1 and len(wrong(dets, truth)) <= 1
    half = TopDown(upside_down, (w, h), ((0, 0), (w, 0), (w, 1), (0, 1)))  # an outline that holds nothing
    assert sorted(d.card for d in CardDetector(config=DetectorConfig(top_down=(half,))).detect(img)) == sorted(
        d.card for d in default_detector().detect(img))
