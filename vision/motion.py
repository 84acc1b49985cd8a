"""Motion per zone from the image: hands and moving cards, seen as pixels that changed since the frame
before. Cheap: a small grayscale copy of each frame (``width`` px wide), one difference, one count per zone.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from calibration.homography import TableHomography
from calibration.zones import ZoneLayout


class MotionMeter:
    def __init__(
        self,
        homography: TableHomography,
        layout: ZoneLayout,
        *,
        width: int = 320,
        pixel_threshold: int = 25,
        min_fraction: float = 0.02,
    ) -> None:
        """``min_fraction``: share of a zone's pixels that must change for the zone to count as moving."""
        self.homography = homography
        self.layout = layout
        self.width = width
        self.pixel_threshold = pixel_threshold
        self.min_fraction = min_fraction
        self._masks: dict[str, tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], int]] = {}
        self._previous: npt.NDArray[np.uint8] | None = None
        self._size: tuple[int, int] | None = None

    def _build_masks(self, frame_size: tuple[int, int], small: tuple[int, int]) -> None:
        h = self.homography.for_image_size(frame_size)
        scale = small[0] / frame_size[0]
        self._masks = {}
        for zone in self.layout.zones:
            ys, xs = polygon_pixels(h, zone.polygon(), scale, small)
            if len(ys):
                self._masks[zone.name] = (ys, xs, len(ys))
        self._size = frame_size

    def update(self, image: npt.NDArray[np.uint8]) -> set[str]:
        """Zones where the image changed since the previous call."""
        import cv2

        small = small_grey(image, self.width)
        fh, fw = image.shape[:2]
        if self._size != (fw, fh):
            self._build_masks((fw, fh), (small.shape[1], small.shape[0]))
            self._previous = None
        previous, self._previous = self._previous, small
        if previous is None:
            return set()
        changed = cv2.absdiff(small, previous) > self.pixel_threshold
        moving = set()
        for name, (ys, xs, area) in self._masks.items():
            if int(np.count_nonzero(changed[ys, xs])) > self.min_fraction * area:
                moving.add(name)
        return moving


def small_grey(image: npt.NDArray[np.uint8], width: int) -> npt.NDArray[np.uint8]:
    """A small, grey, lightly blurred copy of a frame, for frame differences."""
    import cv2

    fh, fw = image.shape[:2]
    sw = min(width, fw)
    sh = max(1, int(round(fh * sw / fw)))
    shrunk = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
    if shrunk.ndim == 3:
        shrunk = cv2.cvtColor(shrunk, cv2.COLOR_BGR2GRAY)
    return np.asarray(cv2.GaussianBlur(shrunk, (3, 3), 0), dtype=np.uint8)


def polygon_pixels(h: TableHomography, polygon_mm: npt.NDArray[np.float64], scale: float,
                   size: tuple[int, int]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The pixels (rows, columns) of a small copy (``scale`` of the frame, ``size`` = width, height)
    that a table polygon covers."""
    import cv2

    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(mask, [np.round(h.to_image(polygon_mm) * scale).astype(np.int32)], 1)
    ys, xs = np.nonzero(mask)
    return ys, xs
