"""Truth videos: a scripted :class:`~vision.synthetic_scenes.Scene` painted with real card faces and
seen through a tilted camera (issue #5, item 4).

The Scene knows the geometry (zones from a calibration template, where each card of each pile lies in
table millimetres, where the hands are and what they carry) and the per-frame truth. This module
paints it: a procedural table top (:mod:`vision.table_textures`) drawn top-down in millimetres at
``px_per_mm``, every card face or back where the Scene puts it (small placement jitter, soft shadows,
the edges of squared piles), skin-coloured hands with their arms and shadows that carry cards,
smeared along their motion, then a perspective warp to the camera image with the same homography that is saved
as the video's calibration, then lighting (a gradient, vignetting, a slow change of brightness, a lamp
that moves, sometimes a lamp's reflection on the glossy cards), blur, sensor noise and JPEG
artefacts. :meth:`Painter.index_boxes` says where every printed corner index ended up in the picture
and how much of it shows. Every card is pasted by one method (``Painter._paste``), turned the way
its player sees it: the seat nearest the camera (and shared piles) upright, the opposite seat by
180 degrees, side seats by 90 (:meth:`~vision.synthetic_scenes.Scene.turn_deg`); each player's hand
reaches in from the own side.

Card faces come from the rendered decks in ``data/decks/<name>/`` (:mod:`vision.decks`). Truth videos
use only decks the shipped weights never trained on (:data:`UNSEEN_DECKS`: the held-out designs of
:data:`HOLDOUT_DECKS`, kept equal to ``vision.synth.HOLDOUT_DECKS``, and the npm designs no shipped run
has seen yet); :meth:`Faces.plain` draws a bare deck for tests on machines without the rendered decks
(never for measuring the detector).

Everything random is drawn from the seed, so the same seed gives the same video.
"""

from __future__ import annotations

import math
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from calibration.homography import TableHomography
from calibration.zones import ZoneLayout
from vision.detections import BACK
from vision.synthetic_scenes import CARD_H, FACE_STEP, Action, Frame, Scene
from vision.table_textures import KINDS, texture

HOLDOUT_DECKS = ("penguins", "simplistic")
"""Deck designs kept out of the detector's training (``vision.synth.HOLDOUT_DECKS``)."""

UNTRAINED_NPM_DECKS = ("aguilar", "kennard", "kennard_big", "kennard_4c", "kennard_4c_big")
"""The npm designs of ``vision.decks.NPM_DECKS``, prepared for the next training run but in no shipped
weights yet (models/MODEL_CARD.md). A design a shipped model has trained on must leave this list: its
videos would measure the detector on its own training faces."""

UNSEEN_DECKS = HOLDOUT_DECKS + UNTRAINED_NPM_DECKS
"""Designs the shipped weights never trained on, for truth videos."""

DEFAULT_DECKS_ROOT = Path("data/decks")

Image = npt.NDArray[np.uint8]
Vec = npt.NDArray[np.float64]

CARD_CODES = [r + s for s in "CDHS" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]


# --------------------------------------------------------------------------------------------- faces


@dataclass
class Faces:
    """One deck design: card code (and ``BACK``) -> BGRA image of any size, upright."""

    name: str
    images: dict[str, Image]
    boxes: dict[str, list[list[int]]] = field(default_factory=dict)
    """Card code -> its printed corner-index boxes ``[x1, y1, x2, y2]`` in its image's pixels."""

    @staticmethod
    def load(name: str, root: str | Path | None = None, allow_trained: bool = False) -> "Faces":
        """The rendered deck ``root/name`` (``root``: ``$CARDREF_DECKS`` or ``data/decks``). Refuses a
        design the shipped weights trained on (not in :data:`UNSEEN_DECKS`) unless ``allow_trained``;
        renders a held-out SVG deck first if it is missing and ``rsvg-convert`` and the Debian card package are there."""
        if name == "plain":
            return Faces.plain()
        if name not in UNSEEN_DECKS and not allow_trained:
            raise ValueError(
                f"deck {name!r} was used to train the detector; truth videos use designs it never trained on "
                f"only ({', '.join(UNSEEN_DECKS)})"
            )
        folder = _deck_folder(name, root)
        images = {code: _card_image(folder, code) for code in CARD_CODES + [BACK]}
        boxes: dict[str, list[list[int]]] = {}
        if (folder / "index.json").exists():
            import json

            boxes = {k: [list(map(int, b)) for b in v] for k, v in json.loads((folder / "index.json").read_text()).items()}
        return Faces(name, images, boxes)

    def other_back(self, root: str | Path | None = None) -> Image:
        """A back of another design than this deck's, for a second player's deck: the other held-out
        deck's back (plain: the same pattern in red)."""
        if self.name not in HOLDOUT_DECKS:
            return np.ascontiguousarray(self.images[BACK][..., [2, 1, 0, 3]])
        other = next(d for d in HOLDOUT_DECKS if d != self.name)
        return _card_image(_deck_folder(other, root), BACK)

    @staticmethod
    def plain() -> "Faces":
        """A bare deck drawn with OpenCV's stroke fonts: rank and suit letter in two corners. For tests
        where no rendered deck is available; no detector was trained on it, nor should be measured on it."""
        import cv2

        w, h = 180, 252
        images: dict[str, Image] = {}
        mask = np.zeros((h, w), np.uint8)
        cv2.rectangle(mask, (12, 0), (w - 13, h - 1), 255, -1)
        cv2.rectangle(mask, (0, 12), (w - 1, h - 13), 255, -1)
        for cx, cy in ((12, 12), (w - 13, 12), (12, h - 13), (w - 13, h - 13)):
            cv2.circle(mask, (cx, cy), 12, 255, -1)
        for code in CARD_CODES:
            img = np.full((h, w, 4), 250, np.uint8)
            colour = (30, 30, 200) if code[-1] in "DH" else (30, 30, 30)
            rank, suit = code[:-1], code[-1]
            layer = np.full((h, w, 3), 250, np.uint8)
            cv2.putText(layer, rank, (8, 34), cv2.FONT_HERSHEY_DUPLEX, 1.0 if len(rank) == 1 else 0.8, colour, 2, cv2.LINE_AA)
            cv2.putText(layer, suit, (10, 64), cv2.FONT_HERSHEY_DUPLEX, 0.9, colour, 2, cv2.LINE_AA)
            cv2.putText(layer, suit, (w // 2 - 22, h // 2 + 20), cv2.FONT_HERSHEY_DUPLEX, 2.0, colour, 3, cv2.LINE_AA)
            layer = np.minimum(layer, layer[::-1, ::-1])  # the index again in the opposite corner
            img[..., :3] = layer
            img[..., 3] = mask
            images[code] = img
        back = np.full((h, w, 4), 250, np.uint8)
        back[10:-10, 10:-10, :3] = (140, 60, 40)
        yy, xx = np.mgrid[0:h, 0:w]
        back[((xx + yy) // 9 % 2 == 0) & (back[..., 0] == 140), :3] = (170, 90, 60)
        back[..., 3] = mask
        images[BACK] = back
        boxes = {code: [[6, 8, 40, 70], [w - 40, h - 70, w - 6, h - 8]] for code in CARD_CODES}
        return Faces("plain", images, boxes)


def _deck_folder(name: str, root: str | Path | None) -> Path:
    """The rendered deck's folder (``root``: ``$CARDREF_DECKS`` or ``data/decks``), rendered first from
    its SVG deck where it is missing and the tools are there."""
    folder = Path(root or os.environ.get("CARDREF_DECKS") or DEFAULT_DECKS_ROOT) / name
    if not (folder / "AS.png").exists():
        _try_render_svg(name, folder.parent)
    return folder


def _card_image(folder: Path, code: str) -> Image:
    """One card's picture (``code`` or ``BACK``) from a rendered deck's folder, as BGRA."""
    import cv2

    img = cv2.imread(str(folder / f"{code}.png"), cv2.IMREAD_UNCHANGED)
    if img is None:
        how = ("`python -m vision.decks --npm DIR`, DIR holding the `npm pack` tarballs of vision.decks.NPM_DECKS"
               if folder.name in UNTRAINED_NPM_DECKS else f"`python -m vision.decks --decks {folder.name}`")
        raise FileNotFoundError(
            f"deck {folder.name!r}: no {folder / (code + '.png')}; render it with {how} (needs rsvg-convert) "
            f"or use --deck plain"
        )
    if img.ndim == 2 or img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA if img.ndim == 2 else cv2.COLOR_BGR2BGRA)
    return img


def _try_render_svg(name: str, root: Path) -> None:
    import shutil

    try:
        from vision.decks import DECKS, render_deck
    except ImportError:
        return
    deck = next((d for d in DECKS if d.name == name), None)
    if deck is None or not Path(deck.path).exists() or shutil.which("rsvg-convert") is None:
        return
    render_deck(deck, root)  # (with its index.json)


# -------------------------------------------------------------------------------------------- camera


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the table plane. ``homography`` maps image px <-> table mm exactly."""

    homography: TableHomography
    tilt_deg: float
    roll_deg: float
    yaw_deg: float
    distance_mm: float


def make_camera(
    bounds_mm: tuple[float, float, float, float],
    size: tuple[int, int],
    tilt_deg: float = 28.0,
    roll_deg: float = 0.0,
    yaw_deg: float = 0.0,
    distance_mm: float = 900.0,
    margin: float = 0.03,
) -> Camera:
    """A camera on the first player's side looking down at ``bounds_mm`` (x0, y0, x1, y1), tilted by
    ``tilt_deg`` from straight down, turned by ``yaw_deg`` about the vertical and ``roll_deg`` about its
    axis, with the focal length and image centre chosen so the bounds fill the image (``margin`` spare).

    Table axes (x right, y towards the player, z into the table) are right-handed, so a camera straight
    above has the identity rotation.
    """
    x0, y0, x1, y1 = bounds_mm
    look = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])
    t, yw, rl = math.radians(tilt_deg), math.radians(yaw_deg), math.radians(roll_deg)
    back = np.array([math.sin(yw) * math.sin(t), math.cos(yw) * math.sin(t), -math.cos(t)])
    centre = look + distance_mm * back
    z = (look - centre) / np.linalg.norm(look - centre)
    x = np.array([math.cos(yw), -math.sin(yw), 0.0])
    x = x - z * float(x @ z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    c, s = math.cos(rl), math.sin(rl)
    x, y = c * x + s * y, -s * x + c * y
    rot = np.stack([x, y, z])
    tvec = -rot @ centre
    plane = np.column_stack([rot[:, 0], rot[:, 1], tvec])  # table (X, Y, 1) -> camera ray
    corners = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], np.float64)
    ray = corners @ plane.T
    uv = ray[:, :2] / ray[:, 2:3]
    w, h = size
    span = uv.max(axis=0) - uv.min(axis=0)
    f = min(w * (1 - 2 * margin) / span[0], h * (1 - 2 * margin) / span[1])
    mid = (uv.max(axis=0) + uv.min(axis=0)) / 2
    k = np.array([[f, 0, w / 2 - f * mid[0]], [0, f, h / 2 - f * mid[1]], [0, 0, 1]])
    table_to_image = k @ plane
    return Camera(TableHomography(np.linalg.inv(table_to_image), (int(w), int(h))), tilt_deg, roll_deg, yaw_deg, distance_mm)


# --------------------------------------------------------------------------------------------- scene


@dataclass
class Hand:
    """One player's hand over the table in one frame: its palm, the cards it carries and where its arm
    comes from (the player's side of the table)."""

    seat: int
    at: Vec
    carried: list[tuple[str, Vec]]
    entry: Vec


@dataclass(frozen=True)
class HandVisit:
    """What one player's hand does in a visit: ``actions`` one after the other, at this pace, starting
    ``delay_s`` after the visit begins (several hands can visit the table at once)."""

    seat: int
    actions: tuple[Action, ...]
    reach_s: float = 0.5
    carry_s: float = 0.6
    leave_s: float = 0.45
    flip_s: float = 0.5
    delay_s: float = 0.0


class TableScene(Scene):
    """A :class:`Scene` that remembers where the hands and the carried cards are in each frame (for
    painting) and plays several actions in one visit of a hand (a move and then turning up the card
    it uncovered, with no moment at rest in between), plus ``recycle`` (a pile turned face down onto
    a stock: the waste, or a Stress centre pile taken), ``unturn`` (cards just turned from the stock put
    back onto it face down: a draw taken back), ``hover`` (the hand lingers over a pile and
    touches nothing), ``slap`` (a short press on a pile), ``take`` (a whole pile taken up; the hand
    keeps the packet and leaves the table with it: the cards gathered at a round's end) and ``put``
    (``count`` face-down cards and then ``cards`` face up laid on a pile from the packet the hand
    brings in: a new round's deal).

    Every player's hand comes from the own side of the table (the seat's ``down`` direction) and
    carries cards turned the way that player holds them; :meth:`visit_together` lets several players'
    hands visit the table at the same moment (Stress and Zenuwen lay their centre cards together)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.hands: list[Hand] = []
        self.entry: Vec = self.entry_for(1)
        self.touches: list[tuple[int, int, float]] = []
        """Of the last visit: (seat, action number, time) when each action's hand reached its pile."""

    @property
    def hand(self) -> Vec | None:
        """The first hand's palm (table mm), None when no hand is over the table."""
        return self.hands[0].at if self.hands else None

    @property
    def carried(self) -> list[tuple[str, Vec]]:
        """Every card carried by any hand, with its centre (table mm)."""
        return [c for h in self.hands for c in h.carried]

    # -- frames
    def _frame(self, hand: Vec | None, carried: list[tuple[str, Vec]], at_rest: bool) -> Frame:
        # frames made by the plain Scene (hold, play): at most the first player's hand
        self.hands = [] if hand is None else [
            Hand(1, np.asarray(hand, np.float64), [(c, np.asarray(p, np.float64)) for c, p in carried], self.entry)]
        return super()._frame(hand, carried, at_rest)

    def _hands_frame(self, hands: list[Hand], at_rest: bool) -> Frame:
        self.hands = hands
        return Scene._frame(self, hands[0].at if hands else None, self.carried, at_rest)

    def visit(self, actions: Sequence[Action], reach_s: float = 0.5, carry_s: float = 0.6, leave_s: float = 0.45,
              flip_s: float = 0.5, seat: int = 1) -> Iterator[Frame]:
        """A hand comes in, does ``actions`` one after the other, and leaves; then the table is at rest."""
        return self.visit_together([HandVisit(seat, tuple(actions), reach_s, carry_s, leave_s, flip_s)])

    def visit_together(self, visits: Sequence[HandVisit]) -> Iterator[Frame]:
        """Several hands at once, each doing its actions at its own pace; the table is at rest once
        every hand has left. The piles change in the frame where a hand picks cards up or puts them
        down, so two hands on two piles act at the same moment."""
        self.touches = []
        moving: list[Iterator[Hand | None] | None] = [self._hand_poses(v) for v in visits]
        while True:
            hands: list[Hand] = []
            alive = False
            for k, poses in enumerate(moving):
                if poses is None:
                    continue
                try:
                    pose = next(poses)
                except StopIteration:
                    moving[k] = None
                    continue
                alive = True
                if pose is not None:
                    hands.append(pose)
            if not alive:
                break
            yield self._hands_frame(hands, False)
        self._mark_rest()

    def _hand_poses(self, v: HandVisit) -> Iterator[Hand | None]:
        """One hand's frames (None: not come in yet); changes the piles as it goes."""
        entry = self.entry_for(v.seat)
        down = self.down_of(v.seat)
        for _ in range(int(round(v.delay_s * self.fps))):
            yield None
        at = entry
        # a packet in the hand, drawn as one back: what it brings in to deal (put) or what it gathered
        # (take); a hand that gathers first comes in empty
        packet = [BACK] if v.actions and v.actions[0].kind == "put" else []
        for k, action in enumerate(v.actions):
            src_pt = self._zone_centre(action.src)
            for p in self._path(at, src_pt, v.reach_s if k == 0 else 0.6 * v.reach_s):
                yield Hand(v.seat, p, [(c, p) for c in packet], entry)
            self.touches.append((v.seat, k, self.t))
            src = self.piles[action.src]
            carried: list[str] = []
            if action.kind == "move":
                carried = src.faces[-action.count:]
                del src.faces[-action.count:]
            elif action.kind == "turn":
                carried = list(action.cards)
                src.backs -= len(carried)
            elif action.kind == "flip":
                src.backs -= 1
                src.faces.append(action.cards[0])
            elif action.kind == "unturn":  # a draw taken back: the cards go back onto the stock face down
                carried = src.faces[-action.count:]
                del src.faces[-action.count:]
            elif action.kind == "recycle":
                n = len(src.faces) + src.backs
                src.faces.clear()
                src.backs = 0
                carried = [BACK]
            elif action.kind in ("hover", "slap"):
                pass  # the hand goes to a pile, lingers (or presses it), touches no card
            elif action.kind == "take":
                src.faces.clear()
                src.backs = 0
                packet = [BACK]
            elif action.kind == "put":
                src.backs += action.count
                src.faces.extend(action.cards)
                if k == len(v.actions) - 1:
                    packet = []
            else:
                raise ValueError(f"unknown action kind {action.kind!r}")
            dst_name = action.dst or action.src
            still = action.kind in ("flip", "hover", "slap", "take", "put")
            dst_pt = src_pt if still else self._zone_centre(dst_name)
            linger = {"flip": 1.0, "hover": 2.0, "slap": 0.6, "take": 0.4, "put": 0.4}.get(action.kind, 0.0) * v.flip_s
            path = self._path(src_pt, dst_pt, v.carry_s if not still else linger)
            if action.kind in ("flip", "hover"):  # a hand over a pile moves about, it does not stand still
                path = [p + 20.0 * np.array([math.sin(i), math.cos(i)]) for i, p in enumerate(path)]
            for p in path:
                offsets = [p + down * (FACE_STEP * (i - len(carried) + 1)) for i in range(len(carried))]
                yield Hand(v.seat, p, list(zip(carried, offsets)) + [(c, p) for c in packet], entry)
            if action.kind == "recycle":
                self.piles[dst_name].backs += n
            elif action.kind == "unturn":
                self.piles[dst_name].backs += len(carried)
            elif carried:
                self.piles[dst_name].faces.extend(carried)
            at = dst_pt
        for p in self._path(at, entry, v.leave_s):
            yield Hand(v.seat, p, [(c, p) for c in packet], entry)


# --------------------------------------------------------------------------------------------- look


@dataclass(frozen=True)
class Look:
    """How one video looks, drawn from its seed: table, camera pose, skin, light and sensor."""

    texture: str
    tilt_deg: float
    roll_deg: float
    yaw_deg: float
    skin_bgr: tuple[int, int, int]
    blur_sigma: float
    noise_sigma: float
    jpeg_quality: int
    tint_bgr: tuple[float, float, float]
    light_dir: tuple[float, float]
    light_change_s: tuple[float, float]
    """Start and end of a lighting change (a lamp moved or a cloud passing), seconds."""
    shutter: float = 0.3
    """Exposure time as a share of the frame interval: how far a moving hand smears."""
    glare: tuple[float, float, float, float] | None = None
    """A lamp's reflection on glossy cards: centre (fractions of the image), radius (fraction of the
    width) and strength (0..1, how far it washes the card out towards white); None: matte cards."""

    @staticmethod
    def draw(rng: np.random.Generator, seconds: float, texture_kind: str | None = None) -> "Look":
        skins = [(150, 180, 225), (125, 160, 215), (100, 135, 190), (75, 105, 160), (55, 75, 115), (140, 165, 205)]
        skin = skins[int(rng.integers(0, len(skins)))]
        tint = (float(rng.uniform(0.85, 1.0)), 1.0, float(rng.uniform(1.0, 1.1)))  # mostly warm indoor light
        if rng.random() < 0.3:
            tint = (1.05, 1.0, 0.95)
        a = float(rng.uniform(0, 2 * math.pi))
        start = float(rng.uniform(0.3, 0.6)) * seconds
        return Look(
            texture=texture_kind or KINDS[int(rng.integers(0, len(KINDS)))],
            tilt_deg=float(rng.uniform(24, 40)),
            roll_deg=float(rng.normal(0, 2.0)),
            yaw_deg=float(rng.normal(0, 3.0)),
            skin_bgr=(int(skin[0]), int(skin[1]), int(skin[2])),
            blur_sigma=float(rng.uniform(0.5, 1.0)),
            noise_sigma=float(rng.uniform(2.0, 5.0)),
            jpeg_quality=int(rng.integers(60, 86)),
            tint_bgr=tint,
            light_dir=(math.cos(a), math.sin(a)),
            light_change_s=(start, start + float(rng.uniform(1.5, 4.0))),
            shutter=float(rng.uniform(0.2, 0.5)),
            glare=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.7)), float(rng.uniform(0.05, 0.12)),
                   float(rng.uniform(0.3, 0.7))) if rng.random() < 0.6 else None,
        )


# ---------------------------------------------------------------------------------------- painting


def _seeded(seed: int, *parts: object) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(repr(parts).encode())])


def _edge_darkened(img: Image) -> Image:
    """A card image with a thin grey rim (real cards show their edge against the table)."""
    import cv2

    out = img.copy()
    a = img[..., 3]
    inner = cv2.erode((a > 128).astype(np.uint8), np.ones((3, 3), np.uint8), iterations=2)
    rim = (a > 0) & (inner == 0)
    out[rim, :3] = (out[rim, :3].astype(np.float32) * 0.72).astype(np.uint8)
    return out


class Painter:
    """Paints Scene frames into camera images."""

    def __init__(self, layout: ZoneLayout, camera: Camera, faces: Faces, look: Look, seed: int,
                 px_per_mm: float = 3.0, fps: float = 10.0) -> None:
        self.layout = layout
        self.camera = camera
        self.faces = faces
        self.look = look
        self.seed = seed
        self.s = float(px_per_mm)
        self.fps = fps
        self.entry: Vec = np.zeros(2)
        w, h = camera.homography.image_size
        self.size = (w, h)
        # the canvas: the camera's view of the table, within 250 mm of the layout
        bx0, by0, bx1, by1 = layout.bounds_mm()
        corners = camera.homography.to_table([[0, 0], [w, 0], [w, h], [0, h]])
        x0 = max(bx0 - 250.0, float(corners[:, 0].min()) - 5)
        x1 = min(bx1 + 250.0, float(corners[:, 0].max()) + 5)
        y0 = max(by0 - 250.0, float(corners[:, 1].min()) - 5)
        y1 = min(by1 + 250.0, float(corners[:, 1].max()) + 5)
        self.origin = (x0, y0)
        self.canvas_size = (int(math.ceil((x1 - x0) * self.s)), int(math.ceil((y1 - y0) * self.s)))
        cw, ch = self.canvas_size
        self.table = texture(look.texture, _seeded(seed, "table"), cw, ch, self.s)
        canvas_to_table = np.array([[1 / self.s, 0, x0], [0, 1 / self.s, y0], [0, 0, 1]])
        self.warp = camera.homography.table_to_image @ canvas_to_table
        self.cards = {code: self._at_canvas_scale(img) for code, img in faces.images.items()}
        self.backs: dict[int, Image] = {}
        """A seat's own back design (Double Solitaire: each player's deck has its own), at canvas scale."""
        self._static_key: object = None
        self._static: Image | None = None
        self._static_version = 0
        self._static_img: Image | None = None
        self._static_img_version = -1
        self._prev_hands: dict[int, Vec] = {}  # seat -> palm in the frame before (motion blur)
        self.with_boxes = False
        """Also keep which card shows at every canvas pixel, for :meth:`index_boxes`."""
        self._labels: npt.NDArray[np.int16] | None = None
        self._placed: list[tuple[str, Vec, float]] = []  # code, centre mm, angle; label = index + 1
        self._frame_labels: npt.NDArray[np.int16] | None = None
        self._frame_placed: list[tuple[str, Vec, float]] = []
        self._light_cache: dict[int, npt.NDArray[np.float32]] = {}
        self._noise = [
            np.clip(_seeded(seed, "noise", i).normal(0, look.noise_sigma, (h, w, 3)), -40, 40).astype(np.int16)
            for i in range(3)
        ]
        self._frame_rng = _seeded(seed, "frames")
        self._glare_map: npt.NDArray[np.float32] | None = None
        self._cards_mask: Image | None = None
        self._static_glare: npt.NDArray[np.float32] | None = None
        if look.glare is not None:
            gx, gy, gr, gs = look.glare
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            d2 = ((xx - gx * w) ** 2 + ((yy - gy * h) * 1.4) ** 2) / (gr * w) ** 2
            self._glare_map = (gs * np.exp(-d2 / 2.0)).astype(np.float32)
        self._light_a = self._light_map(look.light_dir, 0.0)
        d2 = (-look.light_dir[1], look.light_dir[0])
        self._light_b = self._light_map(d2, 0.15)

    def _at_canvas_scale(self, img: Image) -> Image:
        """A card picture at the canvas's scale: its native aspect, CARD_H mm tall, edges darkened."""
        import cv2

        ch_px = int(round(CARD_H * self.s))
        cw_px = int(round(ch_px * img.shape[1] / img.shape[0]))
        return _edge_darkened(cv2.resize(img, (cw_px, ch_px), interpolation=cv2.INTER_AREA))

    def use_back(self, seat: int, img: Image) -> None:
        """Paint the face-down cards of ``seat``'s zones and hand with ``img`` (BGRA, any size)."""
        self.backs[seat] = self._at_canvas_scale(img)

    def _card(self, code: str, seat: int) -> Image:
        return self.backs.get(seat, self.cards[BACK]) if code == BACK else self.cards[code]

    # -- coordinates
    def px(self, p_mm: Sequence[float] | Vec) -> tuple[float, float]:
        return ((float(p_mm[0]) - self.origin[0]) * self.s, (float(p_mm[1]) - self.origin[1]) * self.s)

    # -- pasting
    def _paste(self, canvas: Image, img: Image, centre_mm: Vec, angle_deg: float,
               shadow_mm: float = 0.8, shadow_alpha: float = 0.35, mask: Image | None = None,
               labels: npt.NDArray[np.int16] | None = None, label: int = 0) -> None:
        import cv2

        h, w = img.shape[:2]
        cx, cy = self.px(centre_mm)
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle_deg, 1.0)
        cos, sin = abs(m[0, 0]), abs(m[0, 1])
        pad = int(3 + shadow_mm * self.s * 3)
        bw, bh = int(h * sin + w * cos) + 2 * pad, int(h * cos + w * sin) + 2 * pad
        fx, fy = cx - bw / 2, cy - bh / 2
        ix, iy = int(math.floor(fx)), int(math.floor(fy))
        m[0, 2] += bw / 2 - w / 2 + (fx - ix)
        m[1, 2] += bh / 2 - h / 2 + (fy - iy)
        patch = cv2.warpAffine(img, m, (bw, bh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        ch, cw = canvas.shape[:2]
        x0, y0, x1, y1 = max(ix, 0), max(iy, 0), min(ix + bw, cw), min(iy + bh, ch)
        if x1 <= x0 or y1 <= y0:
            return
        sub = patch[y0 - iy: y1 - iy, x0 - ix: x1 - ix]
        roi = canvas[y0:y1, x0:x1].astype(np.float32)
        alpha = sub[..., 3].astype(np.float32) / 255.0
        if shadow_alpha > 0:
            off = int(round(shadow_mm * self.s))
            sh = np.zeros_like(alpha)
            if off > 0:
                sh[off:, off:] = alpha[:-off, :-off]
            else:
                sh = alpha.copy()
            k = max(3, int(shadow_mm * self.s * 2) | 1)
            sh = cv2.GaussianBlur(sh, (k, k), 0)
            roi *= (1.0 - shadow_alpha * sh)[..., None]
        roi = roi * (1.0 - alpha[..., None]) + sub[..., :3].astype(np.float32) * alpha[..., None]
        canvas[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
        if mask is not None:
            np.maximum(mask[y0:y1, x0:x1], sub[..., 3], out=mask[y0:y1, x0:x1])
        if labels is not None:
            labels[y0:y1, x0:x1][sub[..., 3] > 128] = label

    def _jitter(self, *key: object) -> tuple[Vec, float]:
        r = _seeded(self.seed, "place", *key)
        return np.array([r.normal(0, 0.7), r.normal(0, 0.7)]), float(r.normal(0, 1.0))

    def _paint_piles(self, scene: Scene, canvas: Image, labels: npt.NDArray[np.int16] | None = None,
                     cards_mask: Image | None = None) -> None:
        self._placed = []
        for name, pile in scene.piles.items():
            zone = scene.zones[name]
            frames = scene._card_frames(name, pile)
            turn = scene.turn_deg(zone.seat)  # each player's cards lie the way that player sees them
            under = 0
            if zone.fan is None:
                under = pile.backs + len(pile.faces) - 1
            elif zone.role == "waste":
                under = max(0, len(pile.faces) - scene.visible_waste)
            if frames and under > 0:  # the edges of a squared pile's lower cards (face down ones: backs)
                code0, centre0, _ = frames[0]
                layers = min(6, 1 + under // 4)
                for k in range(layers, 0, -1):
                    shift = np.array([0.3 * k, 0.45 * k])
                    d, a = self._jitter(name, "under", k)
                    img = self._card(BACK if zone.role == "stock" or pile.backs else code0, zone.seat)
                    self._paste(canvas, img, centre0 + d * 0.5 + shift, turn + a * 0.6, mask=cards_mask)
            for slot, (code, centre, _covered) in enumerate(frames):
                d, a = self._jitter(name, slot, code)
                self._placed.append((code, centre + d, turn + a))
                self._paste(canvas, self._card(code, zone.seat), centre + d, turn + a, labels=labels, label=len(self._placed),
                            mask=cards_mask)

    def _static_canvas(self, scene: Scene) -> Image:
        key = tuple((n, p.backs, tuple(p.faces)) for n, p in sorted(scene.piles.items()))
        if key != self._static_key or self._static is None:
            canvas = self.table.copy()
            self._labels = np.zeros(canvas.shape[:2], np.int16) if self.with_boxes else None
            self._cards_mask = np.zeros(canvas.shape[:2], np.uint8) if self._glare_map is not None else None
            self._paint_piles(scene, canvas, self._labels, self._cards_mask)
            self._static, self._static_key = canvas, key
            self._static_version += 1
        return self._static

    def _paint_hand(self, canvas: Image, hand: Vec, carrying: bool, mask: Image | None = None,
                    labels: npt.NDArray[np.int16] | None = None, entry: Vec | None = None) -> None:
        """A right hand (palm down) with its forearm reaching in from ``entry`` (the player's side), and
        its shadow. Shapes and blurs are made at 1 px/mm and scaled up (a hand has no fine detail)."""
        import cv2

        look = self.look
        away = hand - np.asarray(self.entry if entry is None else entry)
        u = away / max(1e-6, float(np.linalg.norm(away)))  # from the arm towards the fingertips
        left = np.array([u[1], -u[0]])  # the thumb side of a right hand, palm down
        s = self.s
        if carrying:  # cards are held by their near end: the far half of the packet shows
            hand = hand - u * 42.0
        # the region around the hand and its arm, in canvas px, clipped to the canvas
        pts = [hand + u * 120 + left * 90, hand + u * 120 - left * 90, hand - u * 1000 + left * 200,
               hand - u * 1000 - left * 200]
        xs = [self.px(p)[0] for p in pts]
        ys = [self.px(p)[1] for p in pts]
        ch, cw = canvas.shape[:2]
        x0, x1 = max(0, int(min(xs))), min(cw, int(max(xs)) + 1)
        y0, y1 = max(0, int(min(ys))), min(ch, int(max(ys)) + 1)
        if x1 - x0 < 4 or y1 - y0 < 4:
            return
        ox, oy = self.origin[0] + x0 / s, self.origin[1] + y0 / s  # table mm of the region's corner
        q = 1.0  # px per mm of the coarse masks
        qw, qh = max(2, int((x1 - x0) / s * q)), max(2, int((y1 - y0) / s * q))

        def P(v: Vec) -> tuple[int, int]:
            return (int(round((float(v[0]) - ox) * q * 4)), int(round((float(v[1]) - oy) * q * 4)))

        def shapes(mask: Image, offset: Vec) -> None:
            c = hand + offset
            ang = math.degrees(math.atan2(u[1], u[0]))
            cv2.ellipse(mask, P(c - u * 8), (int(48 * q * 4), int(40 * q * 4)), ang, 0, 360, 255, -1, cv2.LINE_AA, 2)
            curl = 0.55 if carrying else 1.0
            for across, tilt, length in [(-26, -7, 60), (-9, -2, 72), (8, 2, 69), (24, 8, 56)]:
                a = c + u * 30 + left * (-across)
                b = a + _rot(u, math.radians(tilt)) * length * curl
                cv2.line(mask, P(a), P(b), 255, max(1, int(17 * q)), cv2.LINE_AA, 2)
                cv2.circle(mask, P(b), int(8.5 * q * 4), 255, -1, cv2.LINE_AA, 2)
            ta = c - u * 10 + left * 30
            tb = ta + _rot(left, math.radians(35 if carrying else 45)) * 48
            cv2.line(mask, P(ta), P(tb), 255, max(1, int(21 * q)), cv2.LINE_AA, 2)
            cv2.circle(mask, P(tb), int(10 * q * 4), 255, -1, cv2.LINE_AA, 2)
            wrist = c - u * 45
            elbow = c - u * 330 - left * 40
            cv2.line(mask, P(wrist), P(elbow), 255, max(1, int(62 * q)), cv2.LINE_AA, 2)
            cv2.line(mask, P(elbow), P(elbow - _rot(u, 0.25) * 600), 255, max(1, int(90 * q)), cv2.LINE_AA, 2)

        body = np.zeros((qh, qw), np.uint8)
        shadow = np.zeros_like(body)
        shapes(body, np.zeros(2))
        shapes(shadow, np.array([14.0, 10.0]))
        # only the part of the region that the hand or its shadow touches
        found = cv2.findNonZero(cv2.bitwise_or(body, shadow))
        if found is None:
            return
        bx, by, bw, bh = cv2.boundingRect(found)
        pad = int(20 * q)
        cx0, cy0 = max(0, bx - pad), max(0, by - pad)
        cx1, cy1 = min(qw, bx + bw + pad), min(qh, by + bh + pad)
        body, shadow = body[cy0:cy1, cx0:cx1], shadow[cy0:cy1, cx0:cx1]
        sx, sy = (x1 - x0) / qw, (y1 - y0) / qh  # canvas px per coarse px
        x0, x1 = x0 + int(round(cx0 * sx)), min(x1, x0 + int(round(cx1 * sx)))
        y0, y1 = y0 + int(round(cy0 * sy)), min(y1, y0 + int(round(cy1 * sy)))
        if x1 - x0 < 2 or y1 - y0 < 2:
            return
        sh = cv2.GaussianBlur(shadow.astype(np.float32) / 255.0, (0, 0), 6 * q)
        a = cv2.GaussianBlur(body.astype(np.float32) / 255.0, (0, 0), 0.5 * q)
        inner = cv2.GaussianBlur(a, (0, 0), 8 * q)  # rounder towards the middle, darker at the rim
        size = (x1 - x0, y1 - y0)
        sh = cv2.resize(sh, size, interpolation=cv2.INTER_LINEAR)
        a = cv2.resize(a, size, interpolation=cv2.INTER_LINEAR)
        shade = 0.72 + 0.38 * np.clip(cv2.resize(inner, size, interpolation=cv2.INTER_LINEAR), 0, 1)
        roi = canvas[y0:y1, x0:x1].astype(np.float32)
        roi *= (1.0 - 0.45 * sh)[..., None]
        skin = np.asarray(look.skin_bgr, np.float32)
        colour = skin[None, None, :] * shade[..., None]
        roi = roi * (1.0 - a[..., None]) + colour * a[..., None]
        canvas[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
        if mask is not None:
            np.maximum(mask[y0:y1, x0:x1], (a * 255).astype(np.uint8), out=mask[y0:y1, x0:x1])
        if labels is not None:
            labels[y0:y1, x0:x1][a > 0.5] = -1

    def _light_map(self, direction: tuple[float, float], lift: float) -> npt.NDArray[np.float32]:
        w, h = self.size
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        nx, ny = (xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)
        ramp = 1.0 + 0.16 * (direction[0] * nx + direction[1] * ny)
        vignette = 1.0 - 0.18 * (nx * nx + ny * ny) / 2
        spot = 0.12 * np.exp(-((nx - 0.5 * direction[0]) ** 2 + (ny - 0.5 * direction[1]) ** 2) / 0.6)
        m = (ramp * vignette + spot + lift) * 0.95
        tint = np.asarray(self.look.tint_bgr, np.float32)
        return (m[..., None] * tint[None, None, :]).astype(np.float32)

    def _light(self, t: float) -> npt.NDArray[np.float32]:
        a, b = self.look.light_change_s
        wgt = 0.0 if t <= a else 1.0 if t >= b else 0.5 - 0.5 * math.cos(math.pi * (t - a) / (b - a))
        q = int(round(wgt * 20))
        if q not in self._light_cache:
            self._light_cache[q] = self._light_a * (1 - q / 20) + self._light_b * (q / 20)
        return self._light_cache[q]

    def index_boxes(self) -> list[dict[str, object]]:
        """The printed corner indices of the last painted frame: card, box ``[x1, y1, x2, y2]`` in
        image pixels, and the share of the index that shows (not under another card or the hand).
        Backs: the box of the visible part of the card. Needs :attr:`with_boxes` set before painting."""
        if self._frame_labels is None:
            return []
        labels = self._frame_labels
        h_img = self.camera.homography
        out: list[dict[str, object]] = []
        for k, (code, centre, angle) in enumerate(self._frame_placed, start=1):
            img = self.cards[code]
            ch, cw = img.shape[:2]
            if code == BACK:
                import cv2

                # the visible part, less slivers along the edges of the cards above it
                cx, cy = self.px(centre)
                half = int(math.hypot(cw, ch) / 2) + 2
                wx0, wy0 = max(0, int(cx) - half), max(0, int(cy) - half)
                part = (labels[wy0:int(cy) + half, wx0:int(cx) + half] == k).astype(np.uint8)
                n_px = int(part.sum())
                r = max(1, int(round(1.5 * self.s)))
                part = cv2.morphologyEx(part, cv2.MORPH_OPEN, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
                ys, xs = np.nonzero(part)
                if len(xs) == 0:
                    continue
                xs, ys = xs + wx0, ys + wy0
                corners_canvas = np.array([[xs.min(), ys.min()], [xs.max() + 1, ys.min()], [xs.max() + 1, ys.max() + 1],
                                           [xs.min(), ys.max() + 1]], np.float64)
                mm = corners_canvas / self.s + np.array(self.origin)
                px = h_img.to_image(mm)
                out.append({"card": BACK, "box": [round(float(v), 1) for v in (*px.min(axis=0), *px.max(axis=0))],
                            "visible": round(n_px / float(cw * ch), 3)})
                continue
            src = self.faces.images[code]
            scale = ch / src.shape[0]
            t = math.radians(angle)
            rot = np.array([[math.cos(t), math.sin(t)], [-math.sin(t), math.cos(t)]])
            for x1, y1, x2, y2 in self.faces.boxes.get(code, []):
                local = (np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float64) * scale
                         - np.array([cw / 2, ch / 2])) / self.s
                mm = centre + local @ rot.T
                cpx = (mm - np.array(self.origin)) * self.s
                bx0, by0 = np.floor(cpx.min(axis=0)).astype(int)
                bx1, by1 = np.ceil(cpx.max(axis=0)).astype(int)
                patch = labels[max(by0, 0):max(by1, 0), max(bx0, 0):max(bx1, 0)]
                shown = float((patch == k).mean()) if patch.size else 0.0
                if shown <= 0:
                    continue
                px = h_img.to_image(mm)
                out.append({"card": code, "box": [round(float(v), 1) for v in (*px.min(axis=0), *px.max(axis=0))],
                            "visible": round(shown, 3)})
        return out

    def _warp(self, canvas: Image) -> Image:
        import cv2

        return cv2.warpPerspective(canvas, self.warp, self.size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT101)

    def _motion_blur(self, img: Image, moving: Image, p0: Vec, p1: Vec) -> Image:
        """Smear what moves (the hand and the cards it carries; ``moving`` is their mask in the image)
        along the hand's motion over the exposure time; the table under and around them stays sharp."""
        import cv2

        a, b = self.camera.homography.to_image(np.array([p0, p1]))
        v = (b - a) * self.look.shutter
        length = float(np.hypot(v[0], v[1]))
        if length < 1.5:
            return img
        found = cv2.findNonZero(moving)
        if found is None:
            return img
        x, y, w, h = cv2.boundingRect(found)
        pad = int(length) + 2
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(img.shape[1], x + w + pad), min(img.shape[0], y + h + pad)
        k = int(math.ceil(length)) | 1
        kernel = np.zeros((k, k), np.float32)
        c = k // 2
        cv2.line(kernel, (int(round(c - v[0] / 2)), int(round(c - v[1] / 2))),
                 (int(round(c + v[0] / 2)), int(round(c + v[1] / 2))), 1.0, 1, cv2.LINE_AA)
        kernel /= max(float(kernel.sum()), 1e-6)
        roi = img[y0:y1, x0:x1].astype(np.float32)
        alpha = moving[y0:y1, x0:x1].astype(np.float32) / 255.0
        # smear the moving things (premultiplied by their mask) and their mask the same way
        smeared = cv2.filter2D(roi * alpha[..., None], -1, kernel, borderType=cv2.BORDER_REPLICATE)
        m = cv2.filter2D(alpha, -1, kernel, borderType=cv2.BORDER_REPLICATE)[..., None]
        colour = smeared / np.maximum(m, 1e-3)
        # what lies behind a moving thing is unknown here: where the mask thins out, show the table
        # as it is in this frame outside the thing, and the thing's own colour inside it
        behind = roi * (1 - alpha[..., None]) + colour * alpha[..., None]
        out = img.copy()
        out[y0:y1, x0:x1] = np.clip(behind * (1 - m) + colour * m, 0, 255).astype(np.uint8)
        return out

    def paint(self, scene: "TableScene", frame: Frame) -> Image:
        import cv2

        self.entry = scene.entry
        static = self._static_canvas(scene)
        if self._static_img_version != self._static_version or self._static_img is None:
            self._static_img = self._warp(static)
            self._static_img_version = self._static_version
            if self._glare_map is not None and self._cards_mask is not None:
                self._static_glare = self._glare_map * (self._warp(self._cards_mask).astype(np.float32) / 255.0)
        self._frame_labels, self._frame_placed = self._labels, list(self._placed)
        glare = self._static_glare
        if not scene.hands:
            img = self._static_img
            self._prev_hands = {}
        else:
            canvas = static.copy()
            labels = None if self._labels is None else self._labels.copy()
            masks = []  # per hand: where it and its cards are (each is smeared along its own motion)
            i = 0
            for hand in scene.hands:
                mask = np.zeros(canvas.shape[:2], np.uint8)
                n = len(hand.carried)
                turn = scene.turn_deg(hand.seat)
                for code, centre in hand.carried:
                    r = _seeded(self.seed, "carry", frame.index, i)
                    i += 1
                    angle = turn + float(r.normal(0, 2.5))
                    self._frame_placed.append((code, centre, angle))
                    self._paste(canvas, self._card(code, hand.seat), centre, angle, shadow_mm=5.0 + n, shadow_alpha=0.3,
                                mask=mask, labels=labels, label=len(self._frame_placed))
                self._paint_hand(canvas, hand.at, bool(hand.carried), mask, labels, hand.entry)
                masks.append(mask)
            self._frame_labels = labels
            img = self._warp(canvas)
            movings = [self._warp(m) for m in masks]
            for hand, moving in zip(scene.hands, movings):
                if glare is not None:  # no reflection on the hand or on the cards in the air
                    glare = glare * (1.0 - moving.astype(np.float32) / 255.0)
                before = self._prev_hands.get(hand.seat)
                if before is not None:
                    img = self._motion_blur(img, moving, before, hand.at)
            self._prev_hands = {h.seat: h.at for h in scene.hands}
        # light: a gradient, vignetting, a lamp that moves, a slow flicker of the exposure
        gain = 1.0 + 0.03 * math.sin(2 * math.pi * frame.t / 7.0) + 0.01 * math.sin(2 * math.pi * frame.t / 2.3)
        img = cv2.GaussianBlur(img, (0, 0), self.look.blur_sigma)
        lit = img.astype(np.float32) * (self._light(frame.t) * gain)
        if glare is not None:  # the lamp's reflection washes glossy cards out towards white
            lit += (255.0 - np.minimum(lit, 255.0)) * glare[..., None]
        k = int(self._frame_rng.integers(0, len(self._noise)))
        dy, dx = int(self._frame_rng.integers(0, 64)), int(self._frame_rng.integers(0, 64))
        noise = np.roll(self._noise[k], (dy, dx), axis=(0, 1))
        out = np.clip(lit + noise, 0, 255).astype(np.uint8)
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, self.look.jpeg_quality])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out


def _rot(v: Vec, a: float) -> Vec:
    c, s = math.cos(a), math.sin(a)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


# --------------------------------------------------------------------------------------------- video


class VideoWriter:
    """Frames (BGR) to a video file. ``.mp4``: H.264 through PyAV (libx264, CRF ``crf``, a key frame
    every 10 s) when PyAV is installed, else MPEG-4 part 2 (``mp4v``) through OpenCV, whose pip wheels
    have no H.264 encoder and no bit-rate control (about five times bigger files); ``.avi``: Motion JPEG
    through OpenCV. OpenCV reads all three."""

    def __init__(self, path: Path, size: tuple[int, int], fps: float, crf: int = 26, codec: str = "auto") -> None:
        self.path = Path(path)
        self.size = size
        self._av = None
        self._cv = None
        self._index = 0
        self.codec = ""
        use_av = codec in ("auto", "h264") and self.path.suffix.lower() == ".mp4"
        if use_av:
            try:
                import av
            except ImportError:
                if codec == "h264":
                    raise RuntimeError("H.264 needs PyAV (pip install av)") from None
                use_av = False
        if use_av:
            from fractions import Fraction

            container = av.open(str(self.path), mode="w")
            rate = Fraction(fps).limit_denominator(1000)
            self._time_base = 1 / rate
            stream = container.add_stream("libx264", rate=rate)
            stream.width, stream.height = size
            stream.pix_fmt = "yuv420p"
            stream.options = {"crf": str(crf), "preset": "medium", "g": str(int(round(fps * 10))), "tune": "film",
                              "threads": "1", "x264-params": "threads=1:lookahead-threads=1"}
            stream.codec_context.thread_count = 1  # one thread: the same frames give the same bytes
            self._av = (container, stream)
            self.codec = "h264"
        else:
            import cv2

            fourcc = "MJPG" if self.path.suffix.lower() == ".avi" else "mp4v"
            writer = cv2.VideoWriter(str(self.path), cv2.VideoWriter_fourcc(*fourcc), fps, size)
            if not writer.isOpened():
                raise RuntimeError(f"OpenCV cannot write {fourcc} video to {self.path}")
            self._cv = writer
            self.codec = fourcc.lower()

    def write(self, img: Image) -> None:
        if self._av is not None:
            import av

            container, stream = self._av
            import cv2

            # our own BGR -> YUV 4:2:0 (BT.601, limited range): FFmpeg's converter is not always
            # bit-exact from run to run, which made the same seed give different bytes
            yuv = cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_BGR2YUV_I420)
            frame = av.VideoFrame.from_ndarray(yuv, format="yuv420p")
            frame.pts = self._index
            frame.time_base = self._time_base
            self._index += 1
            for packet in stream.encode(frame):
                container.mux(packet)
        else:
            assert self._cv is not None
            self._cv.write(img)

    def release(self) -> None:
        if self._av is not None:
            container, stream = self._av
            for packet in stream.encode():
                container.mux(packet)
            container.close()
            self._av = None
        if self._cv is not None:
            self._cv.release()
            self._cv = None
