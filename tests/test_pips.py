"""A squared pile's top counted by its pips (vision/pips.py): on the Stress demo clip (a deck the
detector never trained on, a light linen table), on painted faces, and as the tracker uses it."""

from __future__ import annotations

from dataclasses import replace

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.store import load_calibration
from calibration.templates import template
from vision.pile_assignment import CardInZone, FrameView, ZoneView
from vision.pips import CARD_MM, PICTURE, FaceReading, PipReader, PipSettings, SuitLooks, count_face, count_pips, read_face, read_patch
from vision.tracking import TrackerSettings

CLIP = Path(__file__).resolve().parents[1] / "cardref" / "demo" / "clips" / "stress_slap"


def _rank_count(code: str) -> int | str:
    rank = code[:-1]
    return PICTURE if rank in ("J", "Q", "K") else 1 if rank == "A" else int(rank)


def test_every_pile_top_counted_on_the_stress_clip_is_its_rank() -> None:
    cal = load_calibration(CLIP / "calibration.json")
    assert cal.layout is not None
    layout = cal.layout.build()
    truth = [json.loads(line) for line in (CLIP / "truth.jsonl").read_text().splitlines()]
    cap = cv2.VideoCapture(str(CLIP / "video.mp4"))
    counted = looked = 0
    for index, line in enumerate(truth):
        ok, image = cap.read()
        assert ok
        if index % 10 or not line["at_rest"] or line["held"]:
            continue
        h = cal.homography().for_image_size((image.shape[1], image.shape[0]))
        for zone in layout.zones:
            cards = line["piles"][zone.name]["cards"]
            if zone.role not in ("pile", "centre") or not cards:
                continue
            looked += 1
            count = count_pips(image, h, zone)
            if count is not None:
                counted += 1
                want = _rank_count(cards[-1]["card"])
                assert count == want or (want == 1 and count == PICTURE), (index, zone.name, cards[-1]["card"], count)
    cap.release()
    # the centre piles' cards lie crooked over each other and are not counted; the rows are
    assert looked >= 100 and counted >= 0.6 * looked, (counted, looked)


def _painted(pips: list[tuple[float, float]], size_mm: float = 9.0, picture: bool = False,
             diamonds: bool = False) -> np.ndarray:
    """A portrait card at 4 px/mm: white, a corner index, and pips at (x, y) mm: black discs, or red
    diamonds (or a picture)."""
    k = PipSettings().px_per_mm
    card = np.full((int(CARD_MM[1] * k), int(CARD_MM[0] * k), 3), 245, np.uint8)
    cv2.putText(card, "7", (int(2 * k), int(9 * k)), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 200), 2)
    r = size_mm / 2 * k
    for x, y in pips:
        if diamonds:
            cx, cy = x * k, y * k
            corners = np.array([[cx, cy - r * 1.2], [cx + r * 0.8, cy], [cx, cy + r * 1.2], [cx - r * 0.8, cy]], np.int32)
            cv2.fillPoly(card, [corners], (30, 30, 210))
        else:
            cv2.circle(card, (int(x * k), int(y * k)), int(r), (20, 20, 20), -1)
    if picture:
        cv2.rectangle(card, (int(12 * k), int(10 * k)), (int(51 * k), int(78 * k)), (40, 40, 180), -1)
    return card


SEVEN = [(19, 18), (44, 18), (31.5, 31), (19, 44), (44, 44), (19, 70), (44, 70)]


def test_painted_faces() -> None:
    assert count_face(_painted(SEVEN)) == 7
    assert count_face(_painted([(31.5, 18), (31.5, 70)])) == 2
    assert count_face(_painted([(31.5, 44)], size_mm=22)) == 1
    assert count_face(_painted([], picture=True)) == PICTURE
    # a finger over one pip of a pair: no layout is lopsided, so no count (not a six)
    assert count_face(_painted([p for p in SEVEN if p != (44, 44)])) is None
    assert count_face(_painted(SEVEN + [(31.5, 57)])) == 8
    # a blob between a speck and a pip (a smudge, a pip half hidden): unsure; a speck does not count
    smudged = _painted(SEVEN)
    cv2.circle(smudged, (int(31.5 * 4), int(60 * 4)), 12, (20, 20, 20), -1)
    assert count_face(smudged) is None
    specked = _painted(SEVEN)
    cv2.circle(specked, (int(31.5 * 4), int(60 * 4)), 3, (20, 20, 20), -1)
    assert count_face(specked) == 7


def _jumbo_index(card: np.ndarray, sign_mm: tuple[float, float] = (4.0, 12.0)) -> np.ndarray:
    """``card`` with a jumbo index's rank and suit sign (narrow bars, ``sign_mm`` wide and high) in the
    top left corner reaching into the inner face, and the same turned half round in the bottom right."""
    k = PipSettings().px_per_mm
    out = card.copy()
    w, h = sign_mm
    for y in (3.0, 17.0):  # the rank, and the suit sign under it
        cv2.rectangle(out, (int(8 * k), int(y * k)), (int((8 + w) * k), int((y + h) * k)), (20, 20, 20), -1)
        cv2.rectangle(out, (int((CARD_MM[0] - 8 - w) * k), int((CARD_MM[1] - y - h) * k)),
                      (int((CARD_MM[0] - 8) * k), int((CARD_MM[1] - y) * k)), (20, 20, 20), -1)
    return out


def test_a_jumbo_index_reaching_into_the_face_is_no_pip() -> None:
    """kennard_big and kennard_4c_big: the corner index is large enough to reach into the inner face
    from two opposite corners, unmirrored across the long middle line, and nothing was counted on
    either deck (124: 2 of 610 tops at rest). Its narrow signs at the edge, each with its twin where
    the card turned half round puts it, are left out; a picture's wider corner ornaments are not."""
    assert count_face(_jumbo_index(_painted(SEVEN))) == 7
    five = [(19, 18), (44, 18), (31.5, 44), (19, 70), (44, 70)]
    assert count_face(_jumbo_index(_painted(five))) == 5
    # corner ornaments as wide as a picture's (simplistic's JH: 27 % of the face) are no index, and a
    # face left with one blob once its corners are taken out is not an ace
    assert count_face(_jumbo_index(_painted([(31.5, 44)], size_mm=16), sign_mm=(12.0, 10.0))) is None
    assert count_face(_jumbo_index(_painted([(31.5, 44)], size_mm=16), sign_mm=(4.0, 10.0))) is None


PATCHES = Path(__file__).resolve().parent / "data" / "vision" / "pips"


@pytest.mark.parametrize("name, count", [("3S-side", 3), ("7S-side", 7), ("7H-far", 7), ("7C-bright", 7)])
def test_a_jumbo_index_deck_s_tops_are_counted_at_every_seat_and_in_every_light(name: str, count: int) -> None:
    """kennard_4c_big, three players at 1920x1080 (Zenuwen seed 186), a squared pile's zone as
    :func:`read_pips` straightens it: half the tops at rest went uncounted, and a side seat's 3S read
    2S by its index stayed a 2S all game. The two corners' index signs, each cut where the inner face
    ends, are unalike in size (3S-side, 7S-side: 12 against 20-23 mm²) and one was counted as a pip;
    the big index blurred into the cloth notches the card's outline (7H-far: it filled 0.85-0.88 of its
    rectangle); under the brighter lamp of the last minute a card is as light as the linen, and only
    its outline tells it (7C-bright)."""
    assert read_patch(cv2.imread(str(PATCHES / f"{name}.jpg"))).count == count


def test_a_court_card_on_a_light_check_is_found_by_its_white_border() -> None:
    """kennard at 1280x720, Zenuwen seed 182: a centre QD on a light check cloth. Its middle (the
    picture) is no white, and cut at a grey between that and the table's the card was joined with the
    checks around it: not found, and when the detector stopped reading it the pile was published
    empty. The card's white is its border's, the brightest of the zone by far; where the middle is as
    white (a number card, kennard_4c_big, Stress seed 133), the cut stays where it was."""
    qd = read_patch(cv2.imread(str(PATCHES / "QD-check.jpg")))
    assert qd.found and qd.count == PICTURE
    assert read_patch(cv2.imread(str(PATCHES / "3S-near.jpg"))).count == 3


def test_a_picture_in_a_frame_narrower_than_the_face_is_a_picture() -> None:
    """kennard_4c_big's court pictures fill two thirds of the face's width, short of the span a picture
    is told by; a blob that large away from the face's edges is one all the same. Not one at the edge:
    pips run together with the cloth's shadow there (test_the_cloth_beyond_...)."""
    k = PipSettings().px_per_mm
    framed = _painted([])
    cv2.rectangle(framed, (int(18 * k), int(20 * k)), (int(45 * k), int(68 * k)), (40, 40, 180), -1)
    assert count_face(framed) == PICTURE


def test_a_picture_fallen_apart_but_for_its_middle_is_a_picture() -> None:
    """kennard_4c at a far seat of 1280x720 (Zenuwen seed 169): a KH's picture cut into five blobs,
    four reaching the face's edges and none of 400 mm², the middle one about 300. Its index read 6H
    at 0.3-0.6 and the pile was learned so. A blob that size on the long middle line and away from
    the edges is no pip; a number card's pips run together across the middle reach its sides, and
    leave the count unsure as before (aguilar's 9 at a far seat)."""
    kh = read_patch(cv2.imread(str(PATCHES / "KH-far.jpg")))
    assert kh.found and kh.count == PICTURE
    k = PipSettings().px_per_mm
    nine = _painted([(19, 18), (44, 18), (19, 35), (44, 35), (19, 53), (44, 53), (19, 70), (44, 70)])
    cv2.rectangle(nine, (int(10.5 * k), int(37 * k)), (int(52.5 * k), int(51 * k)), (20, 20, 20), -1)
    assert count_face(nine) is None
    middle = np.full_like(nine, 245)
    for x0, x1 in ((10.5, 25.0), (26.0, 37.0), (38.0, 52.5)):  # the picture's left, middle and right
        cv2.rectangle(middle, (int(x0 * k), int(30 * k)), (int(x1 * k), int(58 * k)), (150, 60, 60), -1)
    assert count_face(middle) == PICTURE
    # an ace's big sign as large, alone on the face, is an ace as before
    assert count_face(_painted([(31.5, 44)], size_mm=22)) == 1


def test_the_cloth_beyond_a_card_cut_out_too_long_is_no_pip() -> None:
    """Simplistic on a check cloth, Stress seed 127: a 4H cut out together with a light square of the
    cloth beyond its end showed the cloth's dark as a flat band along the inner face's end, and was
    counted 5. A flat band there, lower than a pip, is no pip; pips run together with a shadow there
    (as wide, higher than a pip) leave the count unsure, as before."""
    four = [(19, 18), (44, 18), (19, 70), (44, 70)]
    banded = _painted(four)
    cv2.rectangle(banded, (int(22 * 4), int(78 * 4)), (int(42 * 4), int(88 * 4)), (40, 90, 40), -1)
    assert count_face(banded) == 4
    merged = _painted(four)
    cv2.rectangle(merged, (int(12 * 4), int(68 * 4)), (int(51 * 4), int(88 * 4)), (20, 20, 20), -1)
    assert count_face(merged) is None


def test_a_number_card_s_pips_have_a_look_of_their_suit() -> None:
    discs, diamonds = read_face(_painted(SEVEN)), read_face(_painted(SEVEN, diamonds=True))
    assert discs.count == diamonds.count == 7 and discs.look is not None and diamonds.look is not None
    solidity, extent, aspect, lightness, a, _ = diamonds.look
    # a diamond fills about half its box and is taller than wide; its ink is red (CIELAB a* well over 128)
    assert solidity > 0.95 and 0.45 < extent < 0.6 and aspect < 0.8 and a > 160
    solidity, extent, aspect, lightness, a, _ = discs.look
    assert extent > 0.7 and 0.9 < aspect < 1.1 and lightness < 40 and abs(a - 128) < 5
    # an ace's one sign is not taken for its suit's pip (often drawn apart), nor a picture
    assert read_face(_painted([(31.5, 44)], size_mm=22)).look is None
    assert read_face(_painted([], picture=True)).look is None


LOOKS = {"S": (0.93, 0.62, 0.80, 20.0, 128.0, 128.0), "C": (0.86, 0.60, 0.92, 22.0, 128.0, 128.0),
         "H": (0.95, 0.70, 0.88, 130.0, 195.0, 175.0), "D": (0.96, 0.56, 0.80, 130.0, 195.0, 175.0)}
"""Each suit's pips as seen at a near seat (about the kennard deck's)."""


def _like(suit: str, wobble: float = 0.0) -> tuple[float, float, float, float, float, float]:
    s, e, a, lum, ca, cb = LOOKS[suit]
    return (s + 0.005 * wobble, e + 0.005 * wobble, a - 0.01 * wobble, lum + wobble, ca, cb + wobble)


def test_suit_looks_tell_a_suit_once_every_suit_was_seen_and_one_lies_clearly_nearest() -> None:
    looks = SuitLooks()
    for suit in "SHD":
        looks.learn(suit, _like(suit))
        looks.learn(suit, _like(suit, 1.0))
    # clubs not seen yet: a club's look could be taken for a spade's
    assert looks.suit_of(_like("C")) is None and looks.suit_of(_like("S", 0.5)) is None
    looks.learn("C", _like("C"))
    assert looks.suit_of(_like("S", 0.5)) is None  # one club is not enough
    looks.learn("C", _like("C", -1.0))
    assert {suit: looks.suit_of(_like(suit, 0.5)) for suit in LOOKS} == {suit: suit for suit in LOOKS}
    # halfway between a spade and a club: neither
    halfway = tuple((x + y) / 2 for x, y in zip(LOOKS["S"], LOOKS["C"]))
    assert looks.suit_of(halfway) is None  # type: ignore[arg-type]


def test_one_look_learned_from_a_wrong_sure_reading_does_not_make_its_suit() -> None:
    """kennard seed 172: a 7D read 7S at 0.6, its pips agreeing on seven, taught the spades a red look."""
    looks = SuitLooks()
    for suit in LOOKS:
        for wobble in (0.0, 1.0, -1.0):
            looks.learn(suit, _like(suit, wobble))
    looks.learn("S", _like("D", 0.2))
    assert looks.suit_of(_like("D", 0.25), "S") == "D"


NEAR = "p1.pile1"
IMAGE = np.zeros((4, 4, 3), np.uint8)


def _taught(monkeypatch: pytest.MonkeyPatch, ranks: range) -> tuple[PipReader, dict[str, FaceReading]]:
    """A four-player reader shown, at a near seat, sure readings of ``ranks`` in every suit whose pips
    agree: the pips trusted, every suit's looks learned. Set a zone's face in the dict to show it."""
    reader = PipReader(template("zenuwen", 4))
    faces: dict[str, FaceReading] = {}
    monkeypatch.setattr("vision.pips.read_pips", lambda image, h, z, s=None: faces[z.name])
    for n in ranks:
        for suit in LOOKS:
            faces[NEAR] = FaceReading(n, _like(suit, n / 10))
            reader.check(_view(NEAR, [(f"{n}{suit}", 0.8)]), IMAGE, None)  # type: ignore[arg-type]
    return reader, faces


def test_a_sure_reading_whose_look_is_told_as_another_suit_is_not_learned(monkeypatch: pytest.MonkeyPatch) -> None:
    reader, faces = _taught(monkeypatch, range(2, 6))
    near, image = NEAR, IMAGE
    learned = {suit: len(v) for suit, v in reader.looks._looks.items()}
    faces[near] = FaceReading(7, _like("D", 0.3))
    reader.check(_view(near, [("7S", 0.65)]), image, None)  # type: ignore[arg-type]
    assert {suit: len(v) for suit, v in reader.looks._looks.items()} == learned


def test_a_card_lying_on_teaches_its_suit_once_however_often_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """kennard at 1280x720, Zenuwen seed 182: a centre 3C read 3S at 0.60-0.69, re-read every half
    second for a minute, filled the spades' looks with its own, and clubs were told spades after."""
    reader, faces = _taught(monkeypatch, range(2, 4))
    learned = len(reader.looks._looks["S"])
    faces[NEAR] = FaceReading(3, _like("S", 0.3))
    for t in range(40):
        reader.check(replace(_view(NEAR, [("3S", 0.65)]), t=100.0 + t), IMAGE, None)  # type: ignore[arg-type]
    per_card = reader.settings.looks_per_card
    assert len(reader.looks._looks["S"]) == learned + per_card
    # the next card laid there is a lesson of its own
    faces[NEAR] = FaceReading(4, _like("S"))
    reader.check(replace(_view(NEAR, [("4S", 0.8)]), t=150.0), IMAGE, None)  # type: ignore[arg-type]
    assert len(reader.looks._looks["S"]) == learned + per_card + 1 and reader.looks._looks["S"][-1] == _like("S")


def test_with_one_suit_not_seen_yet_a_look_only_confirms_the_index_suit_it_lies_close_to() -> None:
    looks = SuitLooks()
    for suit in "SHD":
        for wobble in (0.0, 1.0, -1.0):
            looks.learn(suit, _like(suit, wobble))
    # the index's suit, and a look among that suit's looks: told
    assert looks.suit_of(_like("H", 0.5), "H") == "H" and looks.suit_of(_like("S", 0.5), "S") == "S"
    # never another suit than the index's: a look of the suit not seen may lie nearest any seen one
    assert looks.suit_of(_like("H", 0.5), "D") is None and looks.suit_of(_like("H", 0.5)) is None
    # a club read as a spade (the suit not seen yet): its look lies far off every spade's
    assert looks.suit_of(_like("C"), "S") is None
    # nor one under twice as far off the index's suit's looks as they lie apart (kennard_big seed 183:
    # a 7D read 7H, its look 1.98 times as far off the hearts', was told a heart); 1.2 times is
    assert looks.suit_of(_like("H", 2.2), "H") == "H" and looks.suit_of(_like("H", 2.8), "H") is None
    # a suit seen only twice is not confirmed yet: how far its looks lie from one another is not known
    looks = SuitLooks()
    for suit in "SHD":
        for wobble in (0.0, 1.0):
            looks.learn(suit, _like(suit, wobble))
    assert looks.suit_of(_like("H", 0.5), "H") is None


def _view(zone: str, cards: list[tuple[str, float]], faint: list[tuple[str, float]] | None = None) -> FrameView:
    zv = ZoneView([CardInZone(code, 0.0, score, ((0.0, 0.0),)) for code, score in cards])
    return FrameView(0.0, 0, {zone: zv}, faint={zone: faint} if faint else {})


def _earn_trust(reader: PipReader, zone: str, counts: dict[str, int | str | None], image: np.ndarray) -> None:
    """Cards the index reads surely, their pips agreeing: the pips are believed from then on."""
    for n in list(range(2, 11)) * 2:
        counts[zone] = n
        reader.check(_view(zone, [(f"{n}S", 0.7)]), image, None)  # type: ignore[arg-type]


def test_the_tracker_takes_the_pips_rank_and_keeps_the_index_suit(monkeypatch: pytest.MonkeyPatch) -> None:
    reader = PipReader(template("zenuwen", 2))
    zone = "p1.pile3"
    counts: dict[str, int | str | None] = {}
    monkeypatch.setattr("vision.pips.read_pips", lambda image, h, z, s=None: FaceReading(counts[z.name]))
    image = np.zeros((4, 4, 3), np.uint8)
    # not yet believed: the pips have not been seen to agree with sure readings
    counts[zone] = 8
    view = _view(zone, [("6C", 0.62)])
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [c.card for c in view.zones[zone].cards] == ["6C"] and not reader.trusted
    _earn_trust(reader, zone, counts, image)
    assert reader.trusted
    counts[zone] = 8
    view = _view(zone, [("6C", 0.62)])
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [(c.card, c.confidence) for c in view.zones[zone].cards] == [("8C", 0.62)]
    # a reading too faint to stand for a card keeps being a guess, of the right rank
    view = _view(zone, [], faint=[("5C", 0.1), ("6S", 0.05)])
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert view.faint[zone] == [("8C", 0.1), ("8S", 0.05)]
    # a number read on a picture is no reading: left as a guess (so the pile is not taken for empty),
    # scored below a picture card read there (a side seat's KD read KD at 0.18 and 4D at 0.23 in turn)
    counts[zone] = PICTURE
    view = _view(zone, [("6H", 0.4)])
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert view.zones[zone].cards == [] and view.faint[zone] == [("6H", 0.2)]
    view = _view(zone, [], faint=[("4D", 0.24), ("KD", 0.18)])
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert view.faint[zone] == [("4D", 0.12), ("KD", 0.18)]
    view = _view(zone, [("KH", 0.4)])
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [c.card for c in view.zones[zone].cards] == ["KH"]
    # no count: the reading stands
    counts[zone] = None
    view = _view(zone, [("6C", 0.62)])
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [c.card for c in view.zones[zone].cards] == ["6C"]


def test_a_squared_pile_read_as_a_number_on_a_picture_keeps_the_picture_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """kennard_4c_big, Stress seed 128: a QC's two big indices read QC at 0.42 and 10S at 0.34, and the
    pile was published as a 10S lying on the QC, learned so and played on. A squared pile shows one
    face: where its pips say picture, the numbers read there are guesses; the court card stays."""
    reader = PipReader(template("stress", 2))
    zone = "p1.pile1"
    counts: dict[str, int | str | None] = {}
    monkeypatch.setattr("vision.pips.read_pips", lambda image, h, z, s=None: FaceReading(counts[z.name]))
    image = np.zeros((4, 4, 3), np.uint8)
    counts[zone] = PICTURE
    view = _view(zone, [("QC", 0.42), ("10S", 0.34)])
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [c.card for c in view.zones[zone].cards] == ["QC", "10S"]  # not believed yet
    _earn_trust(reader, zone, counts, image)
    counts[zone] = PICTURE
    view = replace(_view(zone, [("QC", 0.42), ("10S", 0.34)]), t=9.0)
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [c.card for c in view.zones[zone].cards] == ["QC"] and view.faint[zone] == [("10S", 0.17)]
    # two numbers read on a picture are two guesses (kennard, seed 182: a side seat's QD read 6D and 4D)
    view = replace(_view(zone, [("6D", 0.3), ("4D", 0.28)]), t=12.0)
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert view.zones[zone].cards == [] and view.faint[zone] == [("6D", 0.15), ("4D", 0.14)]
    # pips counted ten: the face is the 10S's, the QC read there is no card of the pile
    counts[zone] = 10
    view = replace(_view(zone, [("QC", 0.42), ("10S", 0.34)]), t=19.0)
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [c.card for c in view.zones[zone].cards] == ["10S"] and view.faint[zone] == [("QC", 0.42)]
    # pips that bear out no reading leave them all to the index (a card half laid on another)
    counts[zone] = 4
    view = replace(_view(zone, [("QC", 0.42), ("10S", 0.34)]), t=29.0)
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [c.card for c in view.zones[zone].cards] == ["QC", "10S"]


def test_a_squared_pile_read_as_two_numbers_keeps_the_one_its_pips_bear_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """kennard_4c_big, Zenuwen seed 186: an 8D's far index read 6D, and the pile was published as a 6D
    under the 8D for ten seconds; a 7C's read 7S for as long. The pips' count tells the rank, their look
    the suit."""
    reader = PipReader(template("zenuwen", 3))
    zone = "p1.pile5"
    readings: dict[str, FaceReading] = {}
    monkeypatch.setattr("vision.pips.read_pips", lambda image, h, z, s=None: readings[z.name])
    image = np.zeros((4, 4, 3), np.uint8)
    for n in list(range(2, 11)) * 2:
        for suit in "SCHD":
            readings[zone] = FaceReading(n, _like(suit, n % 2))
            reader.check(replace(_view(zone, [(f"{n}{suit}", 0.7)]), t=float(n)), image, None)  # type: ignore[arg-type]
    assert reader.trusted
    readings[zone] = FaceReading(8, _like("D"))
    view = replace(_view(zone, [("6D", 0.47), ("8D", 0.38)]), t=50.0)
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [c.card for c in view.zones[zone].cards] == ["8D"] and view.faint[zone] == [("6D", 0.47)]
    readings[zone] = FaceReading(7, _like("C"))
    view = replace(_view(zone, [("7C", 0.36), ("7S", 0.18)]), t=60.0)
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [c.card for c in view.zones[zone].cards] == ["7C"] and view.faint[zone] == [("7S", 0.18)]
    # a look that tells no suit: one face all the same, read two ways; the reading found at both
    # indices stands (kennard_big seed 183: a 7D read 7D at both and 7H at a half of one), its score
    # the margin between the two, so that the referee takes it as unread and the rules settle it
    readings[zone] = FaceReading(7, None)
    view = replace(_view(zone, [("7C", 0.36), ("7S", 0.18)]), t=70.0)
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [(c.card, round(c.confidence, 2)) for c in view.zones[zone].cards] == [("7C", 0.18)]
    assert view.faint[zone] == [("7S", 0.18)]
    seven_d = CardInZone("7D", 0.0, 0.27, ((0.0, 0.0), (58.0, -45.0)))
    view = replace(_view(zone, [("7H", 0.31)]), t=80.0)
    view.zones[zone].cards.append(seven_d)
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [(c.card, round(c.confidence, 2)) for c in view.zones[zone].cards] == [("7D", 0.04)]
    # the same card of two decks read twice is one face, as sure as its surer reading
    view = replace(_view(zone, [("7H", 0.46), ("7H", 0.04)]), t=90.0)
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [(c.card, c.confidence) for c in view.zones[zone].cards] == [("7H", 0.46)] and zone not in view.faint



def test_a_count_is_looked_at_again_after_a_while_though_nothing_moves_over_the_pile(monkeypatch: pytest.MonkeyPatch) -> None:
    """Simplistic, Stress at 30 fps, seed 127: p1's 4H was counted 5 while a refill was laid beside
    it (the white of the two cards taken for one), and the count, kept while the index read the same
    and nothing moved over the pile, made it a 5H for six seconds. A count is kept at most
    ``reread_s``."""
    reader = PipReader(template("stress", 2))
    zone = "p1.pile1"
    counts: dict[str, int | str | None] = {}
    monkeypatch.setattr("vision.pips.read_pips", lambda image, h, z, s=None: FaceReading(counts[z.name]))
    image = np.zeros((4, 4, 3), np.uint8)
    _earn_trust(reader, zone, counts, image)

    def read(t: float) -> str:
        view = replace(_view(zone, [("4H", 0.81)]), t=t)
        reader.check(view, image, None)  # type: ignore[arg-type]
        return view.zones[zone].cards[0].card

    counts[zone] = 5  # the refill beside it counted in
    assert read(10.0) == "5H"
    counts[zone] = 4  # laid, the hand gone: nothing moved over the pile itself
    assert read(10.2) == "5H"  # the count kept
    assert read(10.0 + reader.settings.reread_s) == "4H"


def test_a_top_read_unsurely_takes_the_rank_of_its_pips_and_the_suit_of_their_look(monkeypatch: pytest.MonkeyPatch) -> None:
    """A far seat's 10C read 8S at 0.4, or only faintly: its pips say ten, their look clubs."""
    reader, faces = _taught(monkeypatch, range(2, 10))
    zone, image = "p3.pile2", IMAGE
    assert reader.trusted
    faces[zone] = FaceReading(10, _like("C", 0.3))
    view = _view(zone, [("8S", 0.4)])
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [(c.card, c.confidence) for c in view.zones[zone].cards] == [("10C", 0.4)]
    view = _view(zone, [], faint=[("8S", 0.12), ("6C", 0.05)])
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert view.faint[zone] == [("10C", PipSettings().told_score), ("10C", 0.05)]
    # a sure reading is left as it is read (it is what the looks are learned from)
    view = _view(zone, [("10S", 0.7)])
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [c.card for c in view.zones[zone].cards] == ["10S"]
    # a look between two suits' tells no suit: the rank alone is taken, the score kept
    faces[zone] = FaceReading(10, tuple((x + y) / 2 for x, y in zip(LOOKS["S"], LOOKS["C"])))  # type: ignore[arg-type]
    view = _view(zone, [("8S", 0.2)], faint=None)
    reader.check(view, image, None)  # type: ignore[arg-type]
    assert [(c.card, c.confidence) for c in view.zones[zone].cards] == [("10S", 0.2)]


def test_a_top_no_longer_read_whose_face_is_still_found_is_a_card_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """kennard at 1280x720, Zenuwen seed 182: the detector stopped reading a centre QD for 2.6 s; the
    pile was published empty and the referee, told a centre pile was gone, lost the round. While the
    card's face is found there, the pile holds a card the index does not read (a faint reading scored
    under any guess the referee takes); a card taken away, nothing; a hand over it, nothing either,
    and the card is looked for again once the hand has gone."""
    reader = PipReader(template("zenuwen", 3))
    zone = "centre2"
    faces: dict[str, FaceReading] = {}
    monkeypatch.setattr("vision.pips.read_pips", lambda image, h, z, s=None: faces[z.name])
    for n in list(range(2, 11)) * 2:
        faces[zone] = FaceReading(n, found=True)
        reader.check(replace(_view(zone, [(f"{n}S", 0.7)]), t=float(n)), IMAGE, None)  # type: ignore[arg-type]
    assert reader.trusted
    faces[zone] = FaceReading(PICTURE, found=True)
    reader.check(replace(_view(zone, [("6D", 0.33)]), t=30.0), IMAGE, None)  # type: ignore[arg-type]
    unread = reader.settings.unread_score
    view = replace(_view(zone, []), t=30.1)
    reader.check(view, IMAGE, None)  # type: ignore[arg-type]
    assert view.faint[zone] == [("6D", unread)] and unread < 0.05
    # a number counted: its rank
    faces[zone] = FaceReading(8, found=True)
    view = replace(_view(zone, []), t=30.2)
    reader.check(view, IMAGE, None)  # type: ignore[arg-type]
    assert view.faint[zone] == [("8D", unread)]
    # a hand over it: no face found, nothing said, the card not forgotten
    faces[zone] = FaceReading(None)
    view = replace(_view(zone, []), t=30.3, moving={zone})
    reader.check(view, IMAGE, None)  # type: ignore[arg-type]
    assert zone not in view.faint
    faces[zone] = FaceReading(PICTURE, found=True)
    view = replace(_view(zone, []), t=30.4)
    reader.check(view, IMAGE, None)  # type: ignore[arg-type]
    assert view.faint[zone] == [("6D", unread)]
    # taken away (nothing moving there, no face): forgotten, and a face found later is no card of it
    faces[zone] = FaceReading(None)
    reader.check(replace(_view(zone, []), t=30.5), IMAGE, None)  # type: ignore[arg-type]
    faces[zone] = FaceReading(PICTURE, found=True)
    view = replace(_view(zone, []), t=30.6)
    reader.check(view, IMAGE, None)  # type: ignore[arg-type]
    assert zone not in view.faint


def test_pips_that_keep_disagreeing_with_sure_readings_are_not_believed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck with one large suit sign in the middle of every card: its pips say ace throughout."""
    reader = PipReader(template("stress", 2))
    zone = "p1.pile2"
    monkeypatch.setattr("vision.pips.read_pips", lambda image, h, z, s=None: FaceReading(1))
    image = np.zeros((4, 4, 3), np.uint8)
    for code in ["AS", "AH"] + [f"{n}D" for n in range(2, 11)] * 2:
        view = _view(zone, [(code, 0.8)])
        reader.check(view, image, None)  # type: ignore[arg-type]
        assert view.zones[zone].cards[0].card == code
    assert not reader.trusted


def test_only_the_games_whose_tops_lie_squared_check_pips() -> None:
    assert TrackerSettings.for_game("stress").pips and TrackerSettings.for_game("zenuwen", 4).pips
    assert not TrackerSettings.for_game("klondike").pips
