"""The table plane: a homography between image pixels and table millimetres.

Table coordinates are millimetres on the table surface: ``x`` to the right and ``y`` towards the first
player's seat (down in a camera image taken from that seat), origin where the calibration puts it (the
marker layout or the four clicked points decide).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import numpy.typing as npt

Points = npt.NDArray[np.float64]
"""An ``(N, 2)`` array of points."""


class CalibrationError(ValueError):
    """Points or markers that do not give a usable homography."""


def _as_points(points: Sequence[Sequence[float]] | npt.ArrayLike) -> Points:
    arr = np.asarray(points, dtype=np.float64)
    if arr.ndim == 1:
        arr = arr.reshape(1, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise CalibrationError(f"expected points of shape (N, 2), got {arr.shape}")
    return arr


def _apply(matrix: npt.NDArray[np.float64], points: Points) -> Points:
    ones = np.ones((points.shape[0], 1))
    mapped = np.hstack([points, ones]) @ matrix.T
    w = mapped[:, 2:3]
    if np.any(np.abs(w) < 1e-12):
        raise CalibrationError("a point maps to infinity (it lies on the horizon of the table plane)")
    return mapped[:, :2] / w


@dataclass(frozen=True)
class TableHomography:
    """``image_to_table`` maps image pixels (of an image ``image_size`` = (width, height)) to table mm.

    Frames of another size than the calibration image are handled by :meth:`for_image_size`, which
    rescales the pixel side (same camera, other resolution).
    """

    image_to_table: npt.NDArray[np.float64]
    image_size: tuple[int, int]

    def __post_init__(self) -> None:
        m = np.asarray(self.image_to_table, dtype=np.float64)
        if m.shape != (3, 3) or not np.all(np.isfinite(m)):
            raise CalibrationError(f"a homography is a finite 3x3 matrix, got {m!r}")
        if abs(np.linalg.det(m)) < 1e-15:
            raise CalibrationError("the homography is singular")
        object.__setattr__(self, "image_to_table", m / m[2, 2] if abs(m[2, 2]) > 1e-12 else m)

    @property
    def table_to_image(self) -> npt.NDArray[np.float64]:
        return np.asarray(np.linalg.inv(self.image_to_table), dtype=np.float64)

    def to_table(self, points: npt.ArrayLike) -> Points:
        """Image pixels -> table mm, ``(N, 2)`` in, ``(N, 2)`` out."""
        return _apply(self.image_to_table, _as_points(points))

    def to_image(self, points: npt.ArrayLike) -> Points:
        """Table mm -> image pixels."""
        return _apply(self.table_to_image, _as_points(points))

    def other_shape(self, size: tuple[int, int], tolerance: float = 0.02) -> str | None:
        """Why frames of ``size`` (width, height) cannot use this calibration: another shape than the
        calibration image (a turned phone, a cropped picture), which no rescaling fits; None when they
        can (the same shape at any resolution)."""
        w, h = self.image_size
        if w <= 0 or h <= 0 or size[0] <= 0 or size[1] <= 0:
            return None
        if abs((size[0] / size[1]) / (w / h) - 1.0) <= tolerance:
            return None
        return (f"the frames are {size[0]}x{size[1]} but the calibration was made on a {w}x{h} picture: another "
                f"shape (a turned or cropped picture), so its zones would lie in the wrong places; calibrate on a "
                f"frame of this video")

    def for_image_size(self, size: tuple[int, int]) -> "TableHomography":
        """The same calibration for frames of ``size`` (width, height) from the same camera."""
        if tuple(size) == tuple(self.image_size):
            return self
        sx = self.image_size[0] / size[0]
        sy = self.image_size[1] / size[1]
        scale = np.diag([sx, sy, 1.0])
        return TableHomography(self.image_to_table @ scale, (int(size[0]), int(size[1])))

    def mm_per_pixel(self, at_table_mm: tuple[float, float]) -> float:
        """How many table mm one image pixel spans near a table point (for tolerances)."""
        p = self.to_image([at_table_mm])[0]
        q = self.to_table([p, p + (1.0, 0.0), p + (0.0, 1.0)])
        return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[0])) / 2.0)

    @staticmethod
    def from_point_pairs(
        image_points: npt.ArrayLike, table_points: npt.ArrayLike, image_size: tuple[int, int]
    ) -> "TableHomography":
        """Least-squares homography from four or more image/table point pairs (e.g. four clicks)."""
        src = _as_points(image_points)
        dst = _as_points(table_points)
        if src.shape != dst.shape or src.shape[0] < 4:
            raise CalibrationError(
                f"need at least four image/table point pairs of equal count, got {src.shape[0]} and {dst.shape[0]}"
            )
        matrix = _dlt(src, dst)
        return TableHomography(matrix, (int(image_size[0]), int(image_size[1])))

    def reprojection_error_mm(self, image_points: npt.ArrayLike, table_points: npt.ArrayLike) -> float:
        """Largest distance in mm between mapped image points and their table points."""
        diff = self.to_table(image_points) - _as_points(table_points)
        return float(np.max(np.linalg.norm(diff, axis=1)))


def _normaliser(points: Points) -> npt.NDArray[np.float64]:
    centre = points.mean(axis=0)
    spread = np.sqrt(((points - centre) ** 2).sum(axis=1)).mean()
    s = np.sqrt(2.0) / spread if spread > 1e-12 else 1.0
    return np.array([[s, 0, -s * centre[0]], [0, s, -s * centre[1]], [0, 0, 1.0]])


def _dlt(src: Points, dst: Points) -> npt.NDArray[np.float64]:
    """Normalised direct linear transform (Hartley & Zisserman, alg. 4.2); no OpenCV needed."""
    ts, td = _normaliser(src), _normaliser(dst)
    s = _apply(ts, src)
    d = _apply(td, dst)
    rows = []
    for (x, y), (u, v) in zip(s, d):
        rows.append([-x, -y, -1, 0, 0, 0, u * x, u * y, u])
        rows.append([0, 0, 0, -x, -y, -1, v * x, v * y, v])
    a = np.asarray(rows)
    _, sv, vt = np.linalg.svd(a)
    if sv.size >= 8 and sv[7] < 1e-10 * max(sv[0], 1e-300):
        raise CalibrationError("the points are degenerate (three or more of them on one line)")
    h = vt[-1].reshape(3, 3)
    m = np.linalg.inv(td) @ h @ ts
    return np.asarray(m / m[2, 2], dtype=np.float64)
