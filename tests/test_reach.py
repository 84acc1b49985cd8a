"""The camera's slaps: whose hand reaches a centre pile first after a stress call (vision/reach.py,
cardref/pipeline.py), on the Stress demo clip read by the shipped detector."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np
import pytest

from calibration.store import load_calibration
from cardref.cli import main
from vision.reach import ReachWatch

CLIP = Path(__file__).resolve().parents[1] / "cardref" / "demo" / "clips" / "stress_slap"


def truth_moves() -> list[dict]:
    return [json.loads(line) for line in (CLIP / "moves.jsonl").read_text().splitlines()]


def test_the_hands_are_seen_reaching_the_centre_in_their_order() -> None:
    cal = load_calibration(CLIP / "calibration.json")
    assert cal.layout is not None
    watch = ReachWatch(cal.homography(), cal.layout.build())
    cap = cv2.VideoCapture(str(CLIP / "video.mp4"))
    slaps = [m for m in truth_moves() if m["op"] == "slap"]
    call_t = 11.3  # the stress before the slaps (cardref analyze calls it then)
    reaches, index = [], 0
    while True:
        ok, image = cap.read()
        if not ok:
            break
        t = index / 10.0
        if index == round(call_t * 10):
            watch.arm(t, {1, 2})
        reaches += watch.update(image, t)
        index += 1
    assert [(r.seat - 1, r.zone) for r in reaches] == [(m["player"], f"centre{m['pile'] + 1}") for m in slaps]
    assert all(m["t_start"] <= r.t <= m["t"] for r, m in zip(reaches, slaps))
    assert not watch.armed


SLAPS = Path(__file__).resolve().parent / "data" / "slaps"


def _reaches_in_clip(case: dict) -> tuple[list[Any], int]:
    """A ReachWatch armed at a cut clip's first frame for every seat that slaps in it: what it
    reports, and how many frames the clip has."""
    cal = load_calibration(SLAPS / case["calibration"])
    assert cal.layout is not None
    watch = ReachWatch(cal.homography(), cal.layout.build())
    cap = cv2.VideoCapture(str(SLAPS / case["clip"]))
    reaches, index = [], 0
    watch.arm(0.0, {s["seat"] for s in case["slaps"]})
    while True:
        ok, image = cap.read()
        if not ok:
            break
        reaches += watch.update(image, index / case["fps"])
        index += 1
    return reaches, index


@pytest.mark.parametrize("case", json.loads((SLAPS / "slaps.json").read_text()), ids=lambda case: case["clip"])
def test_each_slap_is_credited_to_the_pile_the_hand_came_down_on(case: dict) -> None:
    """Both slaps of a stress in rendered Stress games (``slaps.json`` says which render and frames, cut
    to 640x360): in matches of seeds 51, 53 and 56 the second hand came down on the pile the first hand
    still covered and was credited to the neighbouring pile, whose edge its fingers reached; seeds
    201-208 (deals made to start with a stress) have a first hand whose fingers reach over the other
    pile, where the second hand then lands, and a first hand over the strip of table on the other
    seat's side."""
    reaches, frames = _reaches_in_clip(case)
    assert frames == case["frames"][1] - case["frames"][0] + 1
    assert [(r.seat, r.zone) for r in reaches] == [(s["seat"], s["zone"]) for s in case["slaps"]]
    assert all(s["t_start"] <= r.t <= s["t"] for r, s in zip(reaches, case["slaps"]))


@pytest.mark.parametrize("case", json.loads((SLAPS / "races.json").read_text()), ids=lambda case: case["clip"])
def test_a_slap_race_goes_to_the_first_hand_on_a_centre_pile_and_to_its_pile(case: dict) -> None:
    """Zenuwen's slap race (``pile_choice=slap_race``, ``races.json``: rendered with ``bench/bench_slaps.py
    --make A B --players 3|4``, cut to 640x360): every player slaps, the first gets the pile. The first
    is a side seat whose arm lies along the row over the nearer piles (seeds 403 and 408: seat 4 to the
    far pile of four; 407: seat 2 to the second, its fingers over the third; 306 and 404: the near
    pile), the far seat (302), whose hand on centre1 set off the side seat's corridors when they lay
    along the row, or the near seat's arm coming in at a slant over centre2's strip to centre1 (318:
    its strips alone credit centre2; the palm newly covering centre1 counts too). The thirtieth
    session's rule got the first slap of 302, 318, 403, 407 and 408 wrong. The later slaps change
    nothing, and are not checked."""
    reaches, _ = _reaches_in_clip(case)
    first = case["slaps"][0]
    assert reaches and (reaches[0].seat, reaches[0].zone) == (first["seat"], first["zone"])
    assert first["t_start"] <= reaches[0].t <= first["t"]


def _hand_at(cal, point_mm: np.ndarray, radius_mm: float = 30.0, arm_from: np.ndarray | None = None) -> np.ndarray:
    """A plain table with one hand-sized bright disc on it (and, from ``arm_from``, the arm behind
    it, 40 mm wide), as the camera of ``cal`` sees it."""
    h = cal.homography()
    img = np.full((cal.image_size[1], cal.image_size[0], 3), 90, np.uint8)
    ring = point_mm + radius_mm * np.stack([np.cos(np.linspace(0, 2 * np.pi, 24)), np.sin(np.linspace(0, 2 * np.pi, 24))], 1)
    cv2.fillPoly(img, [np.round(h.to_image(ring)).astype(np.int32)], (220, 220, 220))
    if arm_from is not None:
        along = (point_mm - arm_from) / np.linalg.norm(point_mm - arm_from)
        side = 20.0 * np.array([-along[1], along[0]])
        band = np.array([arm_from - side, point_mm - side, point_mm + side, arm_from + side])
        cv2.fillPoly(img, [np.round(h.to_image(band)).astype(np.int32)], (220, 220, 220))
    return img


def _clip_table() -> tuple[Any, ReachWatch, Callable[[str], np.ndarray], Callable[[int], np.ndarray]]:
    """The Stress clip's calibration, a reach watch on it, and where a zone's middle and a seat's
    side (the middle of its zones) lie on the table (mm)."""
    cal = load_calibration(CLIP / "calibration.json")
    assert cal.layout is not None
    layout = cal.layout.build()
    zones = {z.name: z for z in layout.zones}

    def mid(name: str) -> np.ndarray:
        return np.asarray(zones[name].polygon_mm, dtype=np.float64).mean(axis=0)

    def home(seat: int) -> np.ndarray:
        return np.mean([mid(z.name) for z in layout.zones if z.seat == seat], axis=0)

    return cal, ReachWatch(cal.homography(), layout), mid, home


def test_a_hand_setting_off_while_the_other_is_on_a_pile_is_not_its_slap() -> None:
    """Seat 2 slaps centre2 and its hand stays moving there; seat 1 sets off in that frame towards
    centre1 (its arm's corridors to both piles overlap). Seat 1 reached centre1, later, not centre2."""
    cal, watch, mid, home = _clip_table()

    def on_way(seat: int, centre: str, share: float) -> np.ndarray:
        return mid(centre) + share * (home(seat) - mid(centre))

    def side(seat: int) -> np.ndarray:  # where an arm comes from: beyond the seat's cards
        return home(seat) + (home(seat) - (mid("centre1") + mid("centre2")) / 2)

    table = _hand_at(cal, np.array([-500.0, -500.0]))  # nothing on the table (the disc is off it)

    def hands(p2: np.ndarray, p1: np.ndarray | None) -> np.ndarray:
        img = _hand_at(cal, p2, arm_from=side(2))
        return img if p1 is None else np.maximum(img, _hand_at(cal, p1, arm_from=side(1)))

    # seat 2's hand: on its way, then on centre2 and moving there; seat 1's sets off as it lands, and
    # both rest on their piles
    path2 = [on_way(2, "centre2", 0.9), on_way(2, "centre2", 0.6), mid("centre2"),
             mid("centre2") + [12, 0], mid("centre2") + [0, 12], mid("centre2") + [-12, 0]]
    path1 = [None, None, None, on_way(1, "centre1", 0.9), on_way(1, "centre1", 0.6), mid("centre1")]
    frames = [table, table] + [hands(p2, p1) for p2, p1 in zip(path2, path1)]
    frames += [hands(mid("centre2"), mid("centre1"))] * 4 + [table, table]
    watch.arm(0.0, {1, 2})
    reaches = [r for k, img in enumerate(frames) for r in watch.update(img, k / 10)]
    assert [(r.seat, r.zone) for r in reaches] == [(2, "centre2"), (1, "centre1")]
    assert [r.t for r in reaches] == [0.3, 0.6]  # when each hand arrived, told once it came to rest


def test_a_hand_landing_on_the_other_hand_is_its_slap_on_that_pile() -> None:
    """Seat 1 slaps centre1 and its hand still moves there as seat 2's arm comes in and lands on top
    of it; both rest, then seat 2's hand goes over to centre2 to gather both piles. Seat 2 slapped
    centre1 when it came to rest there (Stress 135: no pile began to change after its arm came, so it
    was credited 1.2 s later, to centre2, as the gathering hand reached it)."""
    cal, watch, mid, home = _clip_table()
    middle = (mid("centre1") + mid("centre2")) / 2

    def side(seat: int) -> np.ndarray:
        return home(seat) + (home(seat) - middle)

    def hands(p1: np.ndarray | None, p2: np.ndarray | None) -> np.ndarray:
        img = _hand_at(cal, np.array([-500.0, -500.0]))
        for seat, at in ((1, p1), (2, p2)):
            if at is not None:
                img = np.maximum(img, _hand_at(cal, at, arm_from=side(seat)))
        return img

    on1 = mid("centre1")
    path1 = [on1 + 0.9 * (home(1) - on1), on1 + 0.5 * (home(1) - on1), on1, on1 + [10, 0], on1 + [0, 10], on1,
             on1, on1, on1, on1, on1, on1, on1, None, None, None, None]
    p2_on1 = on1 + [0, 8]
    path2 = [None, None, None, p2_on1 + 0.9 * (home(2) - p2_on1), p2_on1 + 0.5 * (home(2) - p2_on1), p2_on1,
             p2_on1, p2_on1, p2_on1, p2_on1, p2_on1, p2_on1, p2_on1 + 0.3 * (mid("centre2") - p2_on1),
             p2_on1 + 0.7 * (mid("centre2") - p2_on1), mid("centre2"), mid("centre2"), mid("centre2")]
    frames = [hands(None, None)] * 2 + [hands(p1, p2) for p1, p2 in zip(path1, path2)]
    watch.arm(0.0, {1, 2})
    reaches = [r for k, img in enumerate(frames) for r in watch.update(img, k / 10)]
    assert [(r.seat, r.zone) for r in reaches] == [(1, "centre1"), (2, "centre1")]
    assert reaches[0].t < reaches[1].t <= 0.8  # seat 2 rests on centre1 from 0.7 s


def test_a_hand_crossing_its_corridor_and_landing_between_two_frames_is_the_first_slap() -> None:
    """Seat 2's hand comes from beyond its cards onto centre2 between two frames: its corridor and the
    pile change in the same frame, no arm seen on its way before. Seat 1's hand comes to centre1 later,
    while seat 2's arm is still seen. Seat 2 slapped first (Stress 91: it was taken as arriving with
    seat 1, and the slaps of one frame go by seat, so seat 1 was first and took the piles)."""
    cal, watch, mid, home = _clip_table()

    def side(seat: int) -> np.ndarray:
        return home(seat) + (home(seat) - (mid("centre1") + mid("centre2")) / 2)

    def hands(p2: np.ndarray, p1: np.ndarray | None) -> np.ndarray:
        img = _hand_at(cal, p2, arm_from=side(2))
        return img if p1 is None else np.maximum(img, _hand_at(cal, p1, arm_from=side(1)))

    table = _hand_at(cal, np.array([-500.0, -500.0]))
    on2 = [mid("centre2") + d for d in ([0, 0], [12, 0], [0, 12], [0, 0], [0, 0], [0, 0], [0, 0])]
    path1 = [None, mid("centre1") + 0.9 * (home(1) - mid("centre1")), mid("centre1") + 0.6 * (home(1) - mid("centre1")),
             mid("centre1"), mid("centre1"), mid("centre1"), mid("centre1")]
    frames = [table, table] + [hands(p2, p1) for p2, p1 in zip(on2, path1)] + [table, table]
    watch.arm(0.0, {1, 2})
    reaches = [r for k, img in enumerate(frames) for r in watch.update(img, k / 10)]
    assert [(r.seat, r.zone) for r in reaches] == [(2, "centre2"), (1, "centre1")]
    assert reaches[0].t == 0.2 < reaches[1].t


def test_a_hand_reaching_over_the_neighbouring_pile_slaps_the_pile_under_it() -> None:
    """Seat 2's hand lands on centre1 reaching over the edge of centre2, then seat 1's on centre2
    reaching over the edge of centre1: each time both piles change in the same frame, and both hands'
    ways in cross both piles' corridors. Each slap is the pile the hand came to rest on, its arm across
    the table off that pile (Stress seed 81: the second slap, on centre2, was credited to centre1)."""
    cal, watch, mid, home = _clip_table()

    toward = (mid("centre2") - mid("centre1")) / np.linalg.norm(mid("centre2") - mid("centre1"))
    on1 = mid("centre1") + 30 * toward  # on centre1, over centre2's edge
    on2 = mid("centre2") - 30 * toward  # on centre2, over centre1's edge
    middle = (mid("centre1") + mid("centre2")) / 2

    def hand(at: np.ndarray, seat: int) -> np.ndarray:
        return _hand_at(cal, at, arm_from=home(seat) + (home(seat) - middle))

    table = _hand_at(cal, np.array([-500.0, -500.0]))
    frames = [table, table]
    frames += [hand(on1 + share * (home(2) - on1), 2) for share in (0.9, 0.6)]
    frames += [hand(on1 + d, 2) for d in ([0, 0], [0, 8], [0, -8], [0, 0], [0, 0])]
    frames += [table, table]
    frames += [hand(on2 + share * (home(1) - on2), 1) for share in (0.9, 0.6)]
    frames += [hand(on2 + d, 1) for d in ([0, 0], [0, 8], [0, 0], [0, 0])]
    frames += [table, table]
    watch.arm(0.0, {1, 2})
    reaches = [r for k, img in enumerate(frames) for r in watch.update(img, k / 10)]
    assert [(r.seat, r.zone) for r in reaches] == [(2, "centre1"), (1, "centre2")]


def test_the_whole_stress_clip_is_refereed_from_the_camera_alone(tmp_path: Path) -> None:
    """No key presses: moves, the stress calls, both slaps, the illegal play and its take-back. And
    what the referee was given (``--tables-out``: views, the camera's slaps, the quiet frames that
    concluded a view), given again to a fresh referee, brings the very same log."""
    from cardref.gamelog.store import GameStore
    from cardref.live import LiveReferee
    from cardref.replay_tables import replay_lines

    out, tables = tmp_path / "game.jsonl", tmp_path / "tables.jsonl"
    assert main(["analyze", str(CLIP / "video.mp4"), "--game", "stress", "--calibration", str(CLIP / "calibration.json"),
                 "--out", str(out), "--games-dir", str(tmp_path / "games"), "--tables-out", str(tables)]) == 0
    given = [json.loads(line) for line in tables.read_text().splitlines()]
    assert any(x.get("act") == "slap" and x.get("seen") for x in given)
    store = GameStore(tmp_path / "again", fsync=False)
    writer = store.new_game("stress", json.loads(out.read_text().splitlines()[0])["rules"], ["Player 1", "Player 2"])
    referee = LiveReferee("stress", writer.header.rules, writer=writer)
    for _ in replay_lines(referee, given):
        pass
    referee.settle()
    writer.close()

    def records(log: Path) -> list[tuple]:
        return [(r["kind"], r["t"], r["data"]) for r in map(json.loads, log.read_text().splitlines()[1:]) if r["kind"] != "end"]

    assert records(store.game_dir(writer.id) / "log.jsonl") == records(out)
    header, *lines = out.read_text().splitlines()
    assert json.loads(header)["players"] == ["Player 1", "Player 2"]  # no names given: one per seat
    log = [json.loads(line) for line in lines]

    def key(m: dict) -> tuple:
        return m["op"], m.get("player"), m.get("from"), m.get("to"), m.get("pile")

    want = [key(m) for m in truth_moves()]
    got = [key(r["data"]["move"]) for r in log if r["kind"] in ("move", "illegal")]
    assert got == want
    assert [r["data"]["rule"] for r in log if r["kind"] == "illegal"] == ["S6"]
    assert sum(r["kind"] == "note" and "taken back" in r["data"]["text"] for r in log) == 1
    assert [r["data"]["type"] for r in log if r["kind"] == "call"] == ["stress", "stress"]


def test_a_key_press_after_the_cameras_slap_is_the_same_slap() -> None:
    """Camera and key presses both give the slaps: each counts once, no false slap (S8) after."""
    from cardref.truth_speed import referee_video

    referee = referee_video(CLIP, camera_slaps=True)
    kinds = [(h.get("kind"), h.get("move", {}).get("op")) for h in referee.history if h.get("type") == "verdict"]
    assert kinds.count(("move", "slap")) == 2
    assert [h for h in referee.history if h.get("kind") == "illegal" and h.get("rule") == "S8"] == []


def test_analyze_refuses_a_calibration_laid_out_for_another_game(tmp_path: Path, capsys) -> None:
    klondike_cal = CLIP.parent / "klondike" / "calibration.json"
    code = main(["analyze", str(CLIP / "video.mp4"), "--game", "stress", "--calibration", str(klondike_cal),
                 "--out", str(tmp_path / "game.jsonl"), "--games-dir", str(tmp_path / "games")])
    assert code == 2 and "lays out 'klondike', not 'stress'" in capsys.readouterr().err
    assert not (tmp_path / "game.jsonl").exists()


def test_analyze_refuses_a_file_that_is_no_video_before_a_game_is_begun(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "table.mp4"
    bad.write_bytes(b"garbage")
    code = main(["analyze", str(bad), "--game", "stress", "--calibration", str(CLIP / "calibration.json"),
                 "--out", str(tmp_path / "game.jsonl"), "--games-dir", str(tmp_path / "games")])
    assert code == 2 and "is no video file" in capsys.readouterr().err
    assert not (tmp_path / "game.jsonl").exists()
    assert not (tmp_path / "games").exists() or not any((tmp_path / "games").iterdir())


def test_a_side_seats_slap_waits_its_turn_behind_a_hand_that_came_first() -> None:
    """Zenuwen for three, a camera straight above: seat 1 faces the row of centre piles, seat 2 sits at
    its end. Seat 1's hand comes down on centre2 and seat 2's, as seat 1's lands, on centre1 (the near
    pile from its side). Each pile is told once the hand has rested, the side seat's from the pile its
    hand newly covers most (seat 1's hand, already there as its arm set off, is not its own): the
    reports keep the order the hands came in."""
    from calibration.homography import TableHomography
    from calibration.templates import zenuwen

    layout = zenuwen(3)
    zones = {z.name: z for z in layout.zones}
    size = (720, 720)
    homography = TableHomography(np.array([[1.0, 0, -10], [0, 1, -10], [0, 0, 1]]), size)  # 1 px per mm

    def mid(name: str) -> np.ndarray:
        return np.asarray(zones[name].polygon_mm, dtype=np.float64).mean(axis=0)

    def hand(img: np.ndarray, at: np.ndarray, arm_from: np.ndarray) -> np.ndarray:
        px = [tuple(int(round(v + 10)) for v in p) for p in (at, arm_from)]
        cv2.line(img, px[0], px[1], (200, 200, 200), 40)
        cv2.circle(img, px[0], 32, (220, 220, 220), -1)
        return img

    def table(p1: np.ndarray | None, p2: np.ndarray | None) -> np.ndarray:
        img = np.full((size[1], size[0], 3), 90, np.uint8)
        if p1 is not None:
            img = hand(img, p1, np.array([p1[0], 700.0]))  # from the bottom edge
        if p2 is not None:
            img = hand(img, p2, np.array([0.0, p2[1]]))  # from the left edge
        return img

    way1 = [mid("centre2") + [0, d] for d in (220, 120, 0)]
    way2 = [mid("centre1") - [d, 0] for d in (160, 90, 0)]
    frames = [table(None, None)] * 2 + [table(way1[0], None), table(way1[1], None), table(way1[2], way2[0])]
    frames += [table(way1[2], way2[1])] + [table(way1[2], way2[2])] * 5 + [table(None, None)] * 2
    watch = ReachWatch(homography, layout)
    watch.arm(0.0, {1, 2})
    reaches = [r for k, img in enumerate(frames) for r in watch.update(img, k / 10)]
    assert [(r.seat, r.zone) for r in reaches] == [(1, "centre2"), (2, "centre1")]
    assert reaches[0].t < reaches[1].t


def test_the_hands_are_watched_afresh_when_the_slaps_awaited_are_for_other_cards() -> None:
    """While a centre top nobody read may match the other, hands on the piles are watched; a card
    played there changes what a slap would be for (the referee's slap key): the watch starts again,
    so a hand still settling from that play is not reported as a slap on the new tops."""
    from types import SimpleNamespace

    from cardref.pipeline import Pipeline

    class Watch:
        def __init__(self) -> None:
            self.armed, self.arms = False, []

        def arm(self, t: float, seats: set[int]) -> None:
            self.armed = True
            self.arms.append((t, seats))

        def disarm(self) -> None:
            self.armed = False

        def update(self, image: object, t: float) -> list:
            return []

    referee = SimpleNamespace(slappers=lambda: frozenset({0, 1}), slap_key=lambda: "tops A")
    loop = SimpleNamespace(reach=Watch(), referee=referee, _slap_key=None)
    Pipeline._watch_slaps(loop, None, 1.0)
    Pipeline._watch_slaps(loop, None, 1.1)  # the same tops: watched on
    referee.slap_key = lambda: "tops B"
    Pipeline._watch_slaps(loop, None, 2.0)
    referee.slappers = lambda: frozenset()
    Pipeline._watch_slaps(loop, None, 3.0)
    assert loop.reach.arms == [(1.0, {1, 2}), (2.0, {1, 2})] and not loop.reach.armed
