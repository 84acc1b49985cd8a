"""Where the detector must look again, from the calibration: far cards too small for its whole-frame
sizes, and a side seat's cards lying sideways.

The shipped detector reads indices at up to about 2 mm of table per input pixel: on a three-player
Zenuwen table filmed from one side, at its 640 size, the near row (1.8) is read, the centre piles (2.3)
barely, the side seat's far cards (2.5-2.6) and the far seat (2.8) never. The zones beyond
``MAX_MM_PER_INPUT_PX`` are run again at the frame's own resolution, cut out as one tile
(``DetectorConfig.tiles``), which costs far less than running the whole frame larger.

A Klondike waste fans three cards a step of about two index widths apart: at the whole-frame sizes
the middle index, pressed between its neighbours, is found at 0.1-0.2 or not at all. Each waste is run
again at the frame's own resolution as a tile of its own (``fan_regions``). In every fanned zone (the
wastes and the columns) an unsure reading is also read again from crops shifted around its box
(``reread_regions``, ``DetectorConfig.reread``).

A seat at the side of the picture has its cards turned a quarter: the models, which learnt upright
and upside-down indices, barely read them. Each such seat's zones are cut out as one tile turned to
stand its cards up (``DetectorConfig.turned``). Which way a zone's cards lie comes from its polygon:
templates list a zone's corners from the top-left as its seat sees it, so the first corner to the
last runs down the card.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.homography import TableHomography
from calibration.zones import Zone, ZoneLayout
from vision.detections import Detection
from vision.detector import CardDetector, DetectorConfig, TopDown, Turned, default_detector

MAX_MM_PER_INPUT_PX = 2.2


def fine_regions(homography: TableHomography, layout: ZoneLayout, frame_size: tuple[int, int],
                 sizes: tuple[int, ...] = (384, 640), max_mm_per_px: float = MAX_MM_PER_INPUT_PX,
                 margin_px: int = 24) -> tuple[tuple[int, int, int, int], ...]:
    """One tile (x1, y1, x2, y2 in frame pixels) around every zone whose table, at the largest of
    ``sizes``, comes to more than ``max_mm_per_px``; none when all zones are fine as they are."""
    cam = homography.for_image_size(frame_size)
    corners = [cam.to_image(z.polygon()) for z in _far_zones(cam, layout, frame_size, sizes, max_mm_per_px)]
    if not corners:
        return ()
    tile = _tile(np.concatenate(corners), margin_px, frame_size)
    return (tile,) if tile is not None else ()


def fan_regions(homography: TableHomography, layout: ZoneLayout, frame_size: tuple[int, int],
                sizes: tuple[int, ...] = (384, 640), margin_px: int = 24) -> tuple[tuple[int, int, int, int], ...]:
    """One tile (x1, y1, x2, y2 in frame pixels) around each waste, when the whole frame is shrunk for the
    detector. A draw-3 fan lays three indices side by side, a step of about two index widths apart: shrunk
    to 640, the middle one between its neighbours is found at 0.1-0.2 or not at all (simplistic, draw 3,
    seed 602 at 1280x720: a 3H under an 8H missed for 8 s), at the frame's own resolution at 0.6."""
    if max(frame_size) <= max(sizes):
        return ()
    cam = homography.for_image_size(frame_size)
    tiles = (_tile(cam.to_image(z.polygon()), margin_px, frame_size) for z in layout.zones if z.role == "waste")
    return tuple(t for t in tiles if t is not None)


def _tile(points: np.ndarray, margin_px: int, frame_size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The rectangle (x1, y1, x2, y2 frame pixels) around ``points``, grown by ``margin_px``, within the
    frame; None when it is too small for the detector (under 32 pixels either way)."""
    w, h = frame_size
    x1, y1 = np.floor(points.min(axis=0)) - margin_px
    x2, y2 = np.ceil(points.max(axis=0)) + margin_px
    x1, y1, x2, y2 = int(max(0, x1)), int(max(0, y1)), int(min(w, x2)), int(min(h, y2))
    return (x1, y1, x2, y2) if x2 - x1 >= 32 and y2 - y1 >= 32 else None


def _far_zones(cam: TableHomography, layout: ZoneLayout, frame_size: tuple[int, int], sizes: tuple[int, ...],
               max_mm_per_px: float) -> list[Zone]:
    """The zones whose table, at the largest of ``sizes``, comes to more than ``max_mm_per_px``."""
    shrink = max(frame_size) / max(sizes)
    if shrink <= 1:
        return []
    return [z for z in layout.zones
            if cam.mm_per_pixel(tuple(float(v) for v in z.polygon().mean(axis=0))) * shrink > max_mm_per_px]  # type: ignore[arg-type]


def _outline(corners: list[np.ndarray], margin_px: int, frame_size: tuple[int, int]) -> np.ndarray:
    """The convex outline around the corners (frame pixels), grown by ``margin_px``, within the frame."""
    hull = cv2.convexHull(np.concatenate(corners).astype(np.float32))[:, 0]
    away = hull - hull.mean(axis=0)
    grown = hull + away / np.maximum(np.linalg.norm(away, axis=1, keepdims=True), 1e-6) * margin_px
    return np.asarray(np.clip(grown, 0, frame_size), np.float32)


def sideways_regions(homography: TableHomography, layout: ZoneLayout, frame_size: tuple[int, int],
                     margin_px: int = 8) -> tuple[Turned, ...]:
    """One region per seat whose cards lie sideways in the picture (more across than along the
    picture's vertical): the outline around its zones, and the quarter turns that stand its cards up."""
    cam = homography.for_image_size(frame_size)
    seats: dict[tuple[int, int], list[np.ndarray]] = {}
    for zone in layout.zones:
        poly = zone.polygon()
        if len(poly) != 4:
            continue
        img = cam.to_image(poly)
        dx, dy = img[3] - img[0]  # down the card, in the picture
        if abs(dx) <= abs(dy):
            continue
        turns = 1 if dx < 0 else 3  # np.rot90 takes a vector (dx, dy) to (dy, -dx), three times to (-dy, dx)
        seats.setdefault((zone.seat, turns), []).append(img)
    out = []
    for (_, turns), corners in sorted(seats.items()):
        grown = _outline(corners, margin_px, frame_size)
        x1, y1 = grown.min(axis=0)
        x2, y2 = grown.max(axis=0)
        if x2 - x1 >= 32 and y2 - y1 >= 32:
            out.append(Turned(turns, tuple((float(x), float(y)) for x, y in grown)))
    return tuple(out)


def top_down_regions(homography: TableHomography, layout: ZoneLayout, frame_size: tuple[int, int],
                     sizes: tuple[int, ...] = (384, 640), max_mm_per_px: float = MAX_MM_PER_INPUT_PX,
                     mm_per_px: float = 0.5, margin_mm: float = 10.0, margin_px: int = 8) -> tuple[TopDown, ...]:
    """One top-down view per seat facing the camera or away from it with a zone beyond
    ``max_mm_per_px`` (as for :func:`fine_regions`): its zones warped through the calibration to
    ``mm_per_px``, turned so its cards stand upright. Only a row of squared piles: its picture is
    small enough to be read at the usual sizes (a Double Solitaire seat's fanned columns would come
    to 1160 x 1210 pixels, 1.8 mm per pixel at 640: coarser than the far tile). A side seat read so,
    beside its turned-up reading in the frame, lost 4 of 30 and 8 of 24 tops: not offered."""
    cam = homography.for_image_size(frame_size)
    far = {z.seat for z in _far_zones(cam, layout, frame_size, sizes, max_mm_per_px) if z.seat}
    out = []
    for seat in sorted(far):
        zones = [z for z in layout.zones if z.seat == seat]
        if any(z.fan is not None or len(z.polygon_mm) != 4 for z in zones):
            continue  # not a row of squared piles (Stress, Zenuwen)
        polys = [z.polygon() for z in zones]
        # quarter turns that make the seat's cards run down the picture (first corner to last: down the card)
        dx, dy = polys[0][3] - polys[0][0]
        if abs(dx) > abs(dy):
            continue  # a side seat: read turned up in the frame (sideways_regions) it fares better
        turns = 0 if dy > 0 else 2
        pts = np.concatenate(polys)
        (x0, y0), (x1, y1) = pts.min(axis=0) - margin_mm, pts.max(axis=0) + margin_mm
        tw, th = int(np.ceil((x1 - x0) / mm_per_px)), int(np.ceil((y1 - y0) / mm_per_px))
        to_tile = np.array([[1 / mm_per_px, 0, -x0 / mm_per_px], [0, 1 / mm_per_px, -y0 / mm_per_px], [0, 0, 1]])
        for _ in range(turns):  # np.rot90 once: (x, y) of a w x h picture goes to (y, w - x)
            to_tile = np.array([[0, 1, 0], [-1, 0, tw], [0, 0, 1]]) @ to_tile
            tw, th = th, tw
        matrix = to_tile @ cam.image_to_table
        grown = _outline([cam.to_image(p) for p in polys], margin_px, frame_size)
        out.append(TopDown(tuple(float(v) for v in (matrix / matrix[2, 2]).ravel()), (tw, th),
                           tuple((float(x), float(y)) for x, y in grown)))
    return tuple(out)


def reread_regions(homography: TableHomography, layout: ZoneLayout, frame_size: tuple[int, int],
                   margin_px: int = 24) -> tuple[tuple[int, int, int, int], ...]:
    """One region (x1, y1, x2, y2 in frame pixels) around each fanned zone (a Klondike waste, a column),
    where an unsure reading is read again from crops shifted around its box: there the crop around an
    index holds its neighbours' too, and a pixel of the box tips a reading. Not squared piles (Stress,
    Zenuwen): there a far card's steady misreading became a wavering faint truth that the referee waited
    on (docs/truth-videos.md, eighteenth session)."""
    cam = homography.for_image_size(frame_size)
    regions = (_tile(cam.to_image(z.polygon()), margin_px, frame_size) for z in layout.zones if z.fan is not None)
    return tuple(r for r in regions if r is not None)


class TableDetector:
    """A detector (``frame -> detections``) that also looks closer where this table needs it (far zones,
    wastes), turns its side seats' cards up and reads its far seats from above: the parts are chosen at
    the first frame, from its size. ``detector``: other corner-detector weights (default: the shipped
    ones)."""

    def __init__(self, homography: TableHomography, layout: ZoneLayout, detector: str | None = None,
                 threads: int = 2) -> None:
        self.homography, self.layout, self.weights, self.threads = homography, layout, detector, threads
        self.detector: CardDetector | None = None

    def __call__(self, image: np.ndarray) -> list[Detection]:
        if self.detector is None:
            size = (image.shape[1], image.shape[0])
            fans = fan_regions(self.homography, self.layout, size)
            tiles = fine_regions(self.homography, self.layout, size) + fans
            turned = sideways_regions(self.homography, self.layout, size)
            top_down = top_down_regions(self.homography, self.layout, size)
            reread = reread_regions(self.homography, self.layout, size)
            if self.weights is None:
                self.detector = default_detector(self.threads, tiles=tiles, turned=turned, top_down=top_down,
                                                 reread=reread)
            else:
                config = DetectorConfig(threads=self.threads, tiles=tiles, turned=turned, top_down=top_down,
                                        reread=reread)
                self.detector = CardDetector(detector=self.weights, config=config)
        return self.detector.detect(image)
