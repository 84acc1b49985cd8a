"""Calibration: homographies, ArUco markers found in a synthetic camera image to within a few mm,
the calibration file, zone templates and the marker sheet."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.homography import CalibrationError, TableHomography
from calibration.marker_sheet import marker_bits, sheet_image, sheet_pdf
from calibration.markers import MarkerLayout, PlacedMarker, calibrate_from_markers, detect_markers
from calibration.store import LayoutSpec, load_calibration, make_calibration, save_calibration
from calibration.templates import template, template_size
from calibration.zones import Zone

ROOT = Path(__file__).resolve().parent.parent
PX_PER_MM = 2.0


def _table_canvas(layout: MarkerLayout, bounds: tuple[float, float, float, float], turns: dict[int, int] | None = None) -> np.ndarray:
    """A top-down picture of the table (``PX_PER_MM``), wood-ish gray with the markers on white paper."""
    x0, y0, x1, y1 = bounds
    w, h = int((x1 - x0) * PX_PER_MM), int((y1 - y0) * PX_PER_MM)
    rng = np.random.default_rng(5)
    img = (rng.normal(110, 12, (h, w))).clip(0, 255).astype(np.uint8)
    for m in layout.markers:
        bits = marker_bits(m.id, layout.dictionary)
        bits = np.rot90(bits, k=-(turns or {}).get(m.id, 0))
        cell = m.size_mm / bits.shape[0]
        pad = int(8 * PX_PER_MM)
        mx, my = int((m.x_mm - x0) * PX_PER_MM), int((m.y_mm - y0) * PX_PER_MM)
        side = int(round(m.size_mm * PX_PER_MM))
        img[my - pad: my + side + pad, mx - pad: mx + side + pad] = 245
        for r in range(bits.shape[0]):
            for c in range(bits.shape[1]):
                if bits[r, c]:
                    ys = int(round((m.y_mm + r * cell - y0) * PX_PER_MM))
                    ye = int(round((m.y_mm + (r + 1) * cell - y0) * PX_PER_MM))
                    xs = int(round((m.x_mm + c * cell - x0) * PX_PER_MM))
                    xe = int(round((m.x_mm + (c + 1) * cell - x0) * PX_PER_MM))
                    img[ys:ye, xs:xe] = 20
    return img


def _camera_view(canvas: np.ndarray, bounds: tuple[float, float, float, float], quad_px: list[tuple[float, float]],
                 size: tuple[int, int] = (1280, 720)) -> tuple[np.ndarray, np.ndarray]:
    """The canvas as a tilted camera sees it; returns the image and the true image->table matrix."""
    x0, y0, x1, y1 = bounds
    table_corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    canvas_corners = (table_corners - [x0, y0]) * PX_PER_MM
    to_image = cv2.getPerspectiveTransform(canvas_corners.astype(np.float32), np.float32(quad_px))
    image = cv2.warpPerspective(canvas, to_image, size, flags=cv2.INTER_AREA, borderValue=60)
    image = cv2.GaussianBlur(image, (3, 3), 0.8)
    noise = np.random.default_rng(7).normal(0, 3, image.shape)
    image = (image + noise).clip(0, 255).astype(np.uint8)
    truth_table_to_image = cv2.getPerspectiveTransform(table_corners.astype(np.float32), np.float32(quad_px))
    return image, np.linalg.inv(truth_table_to_image)


TILTED = [(300.0, 60.0), (980.0, 70.0), (1230.0, 700.0), (40.0, 690.0)]


def _check_points(found: TableHomography, truth_image_to_table: np.ndarray, bounds: tuple[float, float, float, float]) -> float:
    x0, y0, x1, y1 = bounds
    grid = np.array([[x, y] for x in np.linspace(x0 + 20, x1 - 20, 9) for y in np.linspace(y0 + 20, y1 - 20, 9)])
    truth = TableHomography(truth_image_to_table, (1280, 720))
    pixels = truth.to_image(grid)
    return float(np.linalg.norm(found.to_table(pixels) - grid, axis=1).max())


# -- homography ---------------------------------------------------------------------------------

def test_four_clicked_points_give_an_exact_homography() -> None:
    image = [(100.0, 50.0), (1100.0, 80.0), (1200.0, 650.0), (60.0, 700.0)]
    table = [(0.0, 0.0), (600.0, 0.0), (600.0, 500.0), (0.0, 500.0)]
    h = TableHomography.from_point_pairs(image, table, (1280, 720))
    assert h.reprojection_error_mm(image, table) < 1e-6
    np.testing.assert_allclose(h.to_image(h.to_table([[640.0, 360.0]])), [[640.0, 360.0]], atol=1e-6)


def test_degenerate_points_are_refused() -> None:
    with pytest.raises(CalibrationError):
        TableHomography.from_point_pairs([(0, 0), (1, 1), (2, 2), (3, 3)], [(0, 0), (1, 0), (1, 1), (0, 1)], (10, 10))
    with pytest.raises(CalibrationError):
        TableHomography.from_point_pairs([(0, 0), (1, 1), (2, 2)], [(0, 0), (1, 0), (1, 1)], (10, 10))


def test_other_frame_size_rescales_the_pixel_side() -> None:
    h = TableHomography.from_point_pairs([(0, 0), (1280, 0), (1280, 720), (0, 720)],
                                         [(0, 0), (640, 0), (640, 360), (0, 360)], (1280, 720))
    half = h.for_image_size((640, 360))
    np.testing.assert_allclose(half.to_table([[320.0, 180.0]]), [[320.0, 180.0]], atol=1e-9)
    assert h.mm_per_pixel((320.0, 180.0)) == pytest.approx(0.5)


def test_frames_of_another_shape_are_said_not_to_fit() -> None:
    # a phone turned upright, or a cropped picture: no rescaling maps its pixels onto the table
    h = TableHomography.from_point_pairs([(0, 0), (1280, 0), (1280, 720), (0, 720)],
                                         [(0, 0), (640, 0), (640, 360), (0, 360)], (1280, 720))
    assert h.other_shape((1920, 1080)) is None and h.other_shape((640, 360)) is None
    assert h.other_shape((1280, 722)) is None  # a codec's padding is no other shape
    for size in ((720, 1280), (1280, 960), (1080, 1080)):
        said = h.other_shape(size)
        assert said is not None and f"{size[0]}x{size[1]}" in said and "1280x720" in said


# -- markers ------------------------------------------------------------------------------------

def test_corner_markers_calibrate_the_table_within_a_few_mm() -> None:
    play = template("klondike", 1)
    width, height = template_size(play)
    layout = MarkerLayout.corners(width, height)
    bounds = (-80.0, -80.0, width + 80.0, height + 80.0)
    image, truth = _camera_view(_table_canvas(layout, bounds), bounds, TILTED)
    fit = calibrate_from_markers(image, layout)
    assert fit.found_ids == [0, 1, 2, 3]
    assert fit.rms_error_mm < 2.0
    assert _check_points(fit.homography, truth, (0.0, 0.0, width, height)) < 3.0


def test_a_marker_laid_turned_still_counts_and_three_markers_are_enough() -> None:
    layout = MarkerLayout.corners(560.0, 585.0)
    bounds = (-80.0, -80.0, 640.0, 665.0)
    canvas = _table_canvas(layout, bounds, turns={2: 1})
    image, truth = _camera_view(canvas, bounds, TILTED)
    fit = calibrate_from_markers(image, layout)
    assert _check_points(fit.homography, truth, (0.0, 0.0, 560.0, 585.0)) < 3.0
    three = MarkerLayout(tuple(m for m in layout.markers if m.id != 3), name="three")
    canvas3 = _table_canvas(three, bounds)
    image3, truth3 = _camera_view(canvas3, bounds, TILTED)
    fit3 = calibrate_from_markers(image3, layout)
    assert fit3.found_ids == [0, 1, 2]
    assert _check_points(fit3.homography, truth3, (0.0, 0.0, 560.0, 585.0)) < 4.0


def test_whole_sheet_on_the_table() -> None:
    layout = MarkerLayout.sheet()
    bounds = (-150.0, -100.0, 360.0, 400.0)
    quad = [(420.0, 120.0), (860.0, 125.0), (980.0, 640.0), (300.0, 630.0)]
    image, truth = _camera_view(_table_canvas(layout, bounds), bounds, quad)
    fit = calibrate_from_markers(image, layout)
    assert _check_points(fit.homography, truth, (0.0, 0.0, 210.0, 297.0)) < 2.0


def test_no_marker_is_an_error_that_says_so() -> None:
    with pytest.raises(CalibrationError, match="no marker"):
        calibrate_from_markers(np.full((720, 1280), 128, np.uint8), MarkerLayout.sheet())


# -- the file -------------------------------------------------------------------------------------

def test_calibration_file_round_trip(tmp_path: Path) -> None:
    h = TableHomography.from_point_pairs([(100, 50), (1100, 80), (1200, 650), (60, 700)],
                                         [(0, 0), (600, 0), (600, 500), (0, 500)], (1280, 720))
    cal = make_calibration(h, "points", layout=LayoutSpec(game="zenuwen", players=3))
    path = tmp_path / "cal.json"
    save_calibration(cal, path)
    back = load_calibration(path)
    np.testing.assert_allclose(back.homography().image_to_table, h.image_to_table)
    assert back.layout is not None and len(back.layout.build().zones) == 21


def test_points_only_file_and_explicit_zones(tmp_path: Path) -> None:
    doc = {
        "image_size": [1280, 720],
        "points": {"image_px": [[100, 50], [1100, 80], [1200, 650], [60, 700]],
                   "table_mm": [[0, 0], [600, 0], [600, 500], [0, 500]]},
        "layout": {"game": "stress", "zones": [
            {"name": "centre1", "role": "centre", "polygon_mm": [[0, 0], [80, 0], [80, 105], [0, 105]]},
            {"name": "p1.pile1", "role": "pile", "seat": 1, "polygon_mm": [[0, 200], [80, 200], [80, 305]]},
        ]},
    }
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(doc))
    cal = load_calibration(path)
    assert cal.homography().reprojection_error_mm(doc["points"]["image_px"], doc["points"]["table_mm"]) < 1e-6
    zones = cal.layout.build() if cal.layout else None
    assert zones is not None and zones.names() == ["centre1", "p1.pile1"]


def test_a_typo_in_the_file_is_an_error_naming_the_field(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    path.write_text(json.dumps({"image_size": [1280, 720], "image_to_tabel": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}))
    with pytest.raises(CalibrationError, match="image_to_tabel"):
        load_calibration(path)
    path.write_text(json.dumps({"image_size": [1280, 720]}))
    with pytest.raises(CalibrationError, match="needs"):
        load_calibration(path)


def test_layout_can_be_moved_and_turned() -> None:
    spec = LayoutSpec(game="klondike", origin_mm=(100.0, 50.0), rotation_deg=90.0)
    moved = spec.build()
    plain = LayoutSpec(game="klondike").build()
    assert moved.by_name("tableau1").fan == pytest.approx((-1.0, 0.0))
    assert plain.by_name("tableau1").fan == (0.0, 1.0)
    assert moved.bounds_mm()[:2] == pytest.approx((100.0 - 585.0, 50.0))


def test_one_calibration_serves_whichever_game_is_set_up_next() -> None:
    h = TableHomography.from_point_pairs([(100, 50), (1100, 80), (1200, 650), (60, 700)],
                                         [(0, 0), (600, 0), (600, 500), (0, 500)], (1280, 720))
    # no layout in the file (calibrated on the set-up page): the game's template, its players counted
    bare = make_calibration(h, "markers")
    assert bare.layout_for("zenuwen", 3).names() == template("zenuwen", 3).names()
    assert bare.layout_for("klondike", None, 8).names() == template("klondike", 1, 8).names()
    # a template placed on the table: another game or player count is placed the same way
    placed = make_calibration(h, "points", layout=LayoutSpec(game="klondike", origin_mm=(100.0, 50.0)))
    four = placed.layout_for("zenuwen", 4)
    assert four.names() == template("zenuwen", 4).names()
    assert four.bounds_mm()[:2] == pytest.approx(np.add(template("zenuwen", 4).bounds_mm()[:2], (100.0, 50.0)))
    assert placed.layout_for("klondike").names() == template("klondike", 1, 7).names()
    # the file's own zones are the table's: used as they are, refused for another game
    own = make_calibration(h, "points", layout=LayoutSpec(game="stress", zones=[
        {"name": "centre1", "role": "centre", "polygon_mm": [(0, 0), (80, 0), (80, 105), (0, 105)]}]))
    assert own.layout_for("stress", 2).names() == ["centre1"]
    with pytest.raises(ValueError, match="for stress, not zenuwen"):
        own.layout_for("zenuwen", 2)


# -- templates ------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("game", "players", "columns", "zones"),
    [("klondike", 1, 7, 13), ("klondike", 1, 8, 14), ("klondike", 2, 7, 26), ("stress", 2, 7, 12),
     ("zenuwen", 2, 7, 14), ("zenuwen", 3, 7, 21), ("zenuwen", 4, 7, 28)],
)
def test_templates_have_every_pile_and_no_overlap(game: str, players: int, columns: int, zones: int) -> None:
    layout = template(game, players, columns)
    assert len(layout.zones) == zones
    for zone in layout.zones:
        centre = zone.polygon().mean(axis=0)
        inside = [z.name for z in layout.zones if z.contains(centre)]
        assert inside == [zone.name]
    x0, y0, _, _ = layout.bounds_mm()
    assert (x0, y0) == (0.0, 0.0)


def test_templates_refuse_wrong_player_counts() -> None:
    for game, players in [("stress", 3), ("zenuwen", 5), ("klondike", 3)]:
        with pytest.raises(ValueError):
            template(game, players)
    with pytest.raises(ValueError):
        template("klondike", 1, columns=9)
    with pytest.raises(ValueError):
        template("spider")


def test_zone_geometry() -> None:
    z = Zone.rect("a", "pile", 0, 0, 10, 20)
    assert z.contains((5, 5)) and not z.contains((15, 5))
    assert z.distance((13, 5)) == pytest.approx(3.0)


# -- the sheet -----------------------------------------------------------------------------------

def test_sheet_png_has_all_markers_at_true_size() -> None:
    image = sheet_image(dpi=150)
    found = detect_markers(image)
    assert sorted(found) == [0, 1, 2, 3]
    side_px = np.linalg.norm(found[0][1] - found[0][0])
    assert side_px / (150 / 25.4) == pytest.approx(60.0, abs=0.5)


def test_sheet_pdf_is_a_well_formed_a4_page() -> None:
    pdf = sheet_pdf()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 595.28 841.89]" in pdf
    xref_at = int(pdf.rsplit(b"startxref", 1)[1].split()[0])
    assert pdf[xref_at:].startswith(b"xref")
    offsets = [int(line.split()[0]) for line in pdf[xref_at:].splitlines()[3:8]]
    for number, off in enumerate(offsets, start=1):
        assert pdf[off:].startswith(f"{number} 0 obj".encode())


def test_shipped_sheet_is_current() -> None:
    shipped = ROOT / "calibration" / "sheet" / "markers-a4.pdf"
    assert shipped.read_bytes() == sheet_pdf()
    png = cv2.imread(str(ROOT / "calibration" / "sheet" / "markers-a4.png"), cv2.IMREAD_GRAYSCALE)
    assert png is not None and png.shape == (3508, 2480)
    assert sorted(detect_markers(png)) == [0, 1, 2, 3]


def test_placed_marker_corners() -> None:
    np.testing.assert_allclose(PlacedMarker(0, 10, 20, 5).corners_mm(), [[10, 20], [15, 20], [15, 25], [10, 25]])


# -- the command ----------------------------------------------------------------------------------

def test_cardref_calibrate_markers_and_points(tmp_path: Path) -> None:
    from cardref.cli import main as cardref

    width, height = template_size(template("stress", 2))
    layout = MarkerLayout.corners(width, height)
    bounds = (-80.0, -80.0, width + 80.0, height + 80.0)
    image, truth = _camera_view(_table_canvas(layout, bounds), bounds, TILTED)
    picture = tmp_path / "table.png"
    cv2.imwrite(str(picture), image)
    out = tmp_path / "cal.json"
    assert cardref(["calibrate", "markers", str(picture), "--game", "stress", "--out", str(out)]) == 0
    cal = load_calibration(out)
    assert cal.method == "markers" and cal.markers is not None and cal.rms_error_mm is not None
    assert cal.layout is not None and cal.layout.game == "stress"
    assert _check_points(cal.homography(), truth, (0.0, 0.0, width, height)) < 3.0

    out2 = tmp_path / "cal2.json"
    assert cardref(["calibrate", "points", "--image-size", "1280x720", "--image", "102,54 1180,60 1250,700 30,690",
                    "--table", "0,0 560,0 560,585 0,585", "--out", str(out2)]) == 0
    assert load_calibration(out2).homography().reprojection_error_mm(
        [(102, 54), (1180, 60)], [(0, 0), (560, 0)]) < 1e-6
    assert cardref(["calibrate", "markers", str(picture), "--out", str(out2)]) == 2  # corners need a size

    preview = tmp_path / "preview.png"
    assert cardref(["calibrate", "preview", str(picture), "--calibration", str(out), "--out", str(preview)]) == 0
    drawn = cv2.imread(str(preview))
    assert drawn is not None and drawn.shape == (720, 1280, 3) and (drawn[..., 1] > drawn[..., 0] + 100).any()

    moved = tmp_path / "moved.json"
    assert cardref(["calibrate", "points", "--image-size", "1280x720", "--image", "102,54 1180,60 1250,700 30,690",
                    "--table", "0,0 560,0 560,585 0,585", "--game", "klondike", "--origin", "20,-10",
                    "--rotation", "2", "--out", str(moved)]) == 0
    spec = load_calibration(moved).layout
    assert spec is not None and spec.origin_mm == (20.0, -10.0) and spec.rotation_deg == 2.0
