"""Where a table's far cards are too small for the detector's whole-frame sizes, from the calibration.

The shipped detector reads indices at up to about 2 mm of table per input pixel: on a three-player
Zenuwen table filmed from one side, at its 640 size, the near row (1.8) is read, the centre piles (2.3)
barely, the side seat's far cards (2.5-2.6) and the far seat (2.8) never. The zones beyond
``MAX_MM_PER_INPUT_PX`` are run again at the frame's own resolution, cut out as one tile
(``DetectorConfig.tiles``), which costs far less than running the whole frame larger.
"""

from __future__ import annotations

import numpy as np

from calibration.homography import TableHomography
from calibration.zones import ZoneLayout
from vision.detections import Detection
from vision.detector import CardDetector, DetectorConfig, default_detector

MAX_MM_PER_INPUT_PX = 2.2


def fine_regions(homography: TableHomography, layout: ZoneLayout, frame_size: tuple[int, int],
                 sizes: tuple[int, ...] = (384, 640), max_mm_per_px: float = MAX_MM_PER_INPUT_PX,
                 margin_px: int = 24) -> tuple[tuple[int, int, int, int], ...]:
    """One tile (x1, y1, x2, y2 in frame pixels) around every zone whose table, at the largest of
    ``sizes``, comes to more than ``max_mm_per_px``; none when all zones are fine as they are."""
    w, h = frame_size
    shrink = max(w, h) / max(sizes)
    if shrink <= 1:
        return ()
    cam = homography.for_image_size(frame_size)
    corners = []
    for zone in layout.zones:
        poly = zone.polygon()
        centre = tuple(float(v) for v in poly.mean(axis=0))
        if cam.mm_per_pixel(centre) * shrink > max_mm_per_px:  # type: ignore[arg-type]
            corners.append(cam.to_image(poly))
    if not corners:
        return ()
    pts = np.concatenate(corners)
    x1, y1 = np.floor(pts.min(axis=0)) - margin_px
    x2, y2 = np.ceil(pts.max(axis=0)) + margin_px
    x1, y1, x2, y2 = int(max(0, x1)), int(max(0, y1)), int(min(w, x2)), int(min(h, y2))
    return ((x1, y1, x2, y2),) if x2 - x1 >= 32 and y2 - y1 >= 32 else ()


class TableDetector:
    """A detector (``frame -> detections``) that also looks closer where this table needs it: the
    tiles are chosen at the first frame, from its size. ``detector``: other corner-detector weights
    (default: the shipped ones)."""

    def __init__(self, homography: TableHomography, layout: ZoneLayout, detector: str | None = None,
                 threads: int = 2) -> None:
        self.homography, self.layout, self.weights, self.threads = homography, layout, detector, threads
        self.detector: CardDetector | None = None

    def __call__(self, image: np.ndarray) -> list[Detection]:
        if self.detector is None:
            tiles = fine_regions(self.homography, self.layout, (image.shape[1], image.shape[0]))
            if self.weights is None:
                self.detector = default_detector(self.threads, tiles=tiles)
            else:
                self.detector = CardDetector(detector=self.weights, config=DetectorConfig(threads=self.threads, tiles=tiles))
        return self.detector.detect(image)
