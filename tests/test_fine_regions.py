"""Looking closer where a table's far cards are too small for the detector's whole-frame sizes."""

from __future__ import annotations

import cv2
import numpy as np

import scripted_klondike
from calibration.templates import template
from vision.fine_regions import (MAX_MM_PER_INPUT_PX, TableDetector, fan_regions, fine_regions, reread_regions,
                                 sideways_regions, top_down_regions)

SIZE = (1280, 720)


def _image_centre(h, zone) -> np.ndarray:  # type: ignore[no-untyped-def]
    return h.to_image(zone.polygon().mean(axis=0)[None])[0]


def test_a_close_table_needs_no_closer_look() -> None:
    layout = template("stress", 2)
    h = scripted_klondike.camera_for(layout, SIZE, squeeze=0.1)
    assert fine_regions(h, layout, SIZE) == ()


def test_the_far_seats_of_a_four_player_table_get_one_tile_the_near_seat_none() -> None:
    layout = template("zenuwen", 4)
    h = scripted_klondike.camera_for(layout, SIZE, squeeze=0.3)  # filmed from the near side, steeply
    (tile,) = fine_regions(h, layout, SIZE)
    x1, y1, x2, y2 = tile
    assert 0 <= x1 < x2 <= SIZE[0] and 0 <= y1 < y2 <= SIZE[1]
    for zone in layout.zones:
        x, y = _image_centre(h, zone)
        inside = x1 <= x <= x2 and y1 <= y <= y2
        small = h.mm_per_pixel(tuple(zone.polygon().mean(axis=0))) * max(SIZE) / 640 > MAX_MM_PER_INPUT_PX
        if small:
            assert inside, zone.name
    near = [z for z in layout.zones if z.name.startswith("p1.")]
    assert all(_image_centre(h, z)[1] > y2 for z in near)  # the near seat is read at the usual sizes
    # a frame twice as large needs no closer look anywhere the 640 size reads well enough already
    assert fine_regions(h, layout, SIZE, sizes=(384, 1280)) == ()


def test_the_table_detector_picks_its_tiles_at_the_first_frame() -> None:
    layout = template("zenuwen", 4)
    h = scripted_klondike.camera_for(layout, SIZE, squeeze=0.3)
    detect = TableDetector(h, layout)
    assert detect(np.full((SIZE[1], SIZE[0], 3), 90, np.uint8)) == []  # an empty table
    assert detect.detector is not None and detect.detector.config.tiles == fine_regions(h, layout, SIZE)
    small = TableDetector(h, layout)
    small(np.full((360, 640, 3), 90, np.uint8))  # a 640 frame runs whole at its own size already
    assert small.detector is not None and small.detector.config.tiles == ()


def test_each_waste_is_read_again_at_the_frames_own_resolution() -> None:
    """A draw-3 fan's middle index, shrunk with the whole frame, is barely found: each waste gets a tile
    of its own whenever the frame is larger than the detector's largest size, and its unsure readings
    are read again."""
    for players in (1, 2):
        layout = template("klondike", players)
        h = scripted_klondike.camera_for(layout, SIZE)
        tiles = fan_regions(h, layout, SIZE)
        wastes = [z for z in layout.zones if z.role == "waste"]
        assert len(tiles) == len(wastes) == players
        for zone in wastes:
            corners = h.to_image(zone.polygon())
            assert any(x1 <= corners[:, 0].min() and corners[:, 0].max() <= x2 and y1 <= corners[:, 1].min()
                       and corners[:, 1].max() <= y2 for x1, y1, x2, y2 in tiles), zone.name
        assert fan_regions(h, layout, (640, 360)) == ()  # run whole at its own size already
        detect = TableDetector(h, layout)
        detect(np.full((SIZE[1], SIZE[0], 3), 90, np.uint8))
        assert detect.detector is not None and set(tiles) <= set(detect.detector.config.tiles)
        # read again where indices lie side by side or one under another: each waste and each column
        fanned = [z for z in layout.zones if z.fan is not None]
        assert {z.role for z in fanned} == {"waste", "tableau"}
        assert detect.detector.config.reread == reread_regions(h, layout, SIZE)
        assert len(detect.detector.config.reread) == len(fanned) and set(tiles) <= set(detect.detector.config.reread)
    zenuwen = template("zenuwen", 4)
    assert fan_regions(scripted_klondike.camera_for(zenuwen, SIZE), zenuwen, SIZE) == ()
    assert reread_regions(scripted_klondike.camera_for(zenuwen, SIZE), zenuwen, SIZE) == ()  # squared piles


def test_the_side_seats_of_a_four_player_table_are_turned_up_the_others_not() -> None:
    layout = template("zenuwen", 4)
    h = scripted_klondike.camera_for(layout, SIZE, squeeze=0.3)  # filmed from seat 1's side
    regions = sideways_regions(h, layout, SIZE)
    assert len(regions) == 2
    for zone in layout.zones:
        x, y = _image_centre(h, zone)
        holding = [r for r in regions if r.holds(x, y)]
        if zone.seat in (2, 4):
            (region,) = holding
            # turned as np.rot90 turns a picture, the zone's card runs down the picture
            top, bottom = h.to_image(zone.polygon()[[0, 3]])
            dx, dy = bottom - top
            for _ in range(region.turns):
                dx, dy = dy, -dx
            assert dy > abs(dx), zone.name
        else:
            assert holding == [], zone.name
    assert sideways_regions(h, template("klondike"), SIZE) == ()


def test_the_far_seat_of_a_four_player_table_is_read_from_above_the_side_seats_not() -> None:
    layout = template("zenuwen", 4)
    h = scripted_klondike.camera_for(layout, SIZE, squeeze=0.3)
    (view,) = top_down_regions(h, layout, SIZE)
    matrix = np.asarray(view.matrix).reshape(3, 3)
    for zone in layout.zones:
        x, y = _image_centre(h, zone)
        assert view.holds(x, y) == (zone.seat == 3), zone.name
        if zone.seat == 3:
            # in the picture, the zone lies inside it and its card runs down (the seat faces the camera)
            top, bottom = cv2.perspectiveTransform(h.to_image(zone.polygon()[[0, 3]])[None], matrix)[0]
            assert 0 <= top[0] <= view.size[0] and 0 <= top[1] <= view.size[1]
            assert bottom[1] - top[1] > abs(bottom[0] - top[0])
    assert top_down_regions(h, template("klondike"), SIZE) == ()
    double = template("klondike", 2)  # Double Solitaire: fanned columns, far seat and all
    assert fine_regions(scripted_klondike.camera_for(double, SIZE, squeeze=0.3), double, SIZE) != ()
    assert top_down_regions(scripted_klondike.camera_for(double, SIZE, squeeze=0.3), double, SIZE) == ()
