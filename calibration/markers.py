"""ArUco markers on the table: where they lie (a :class:`MarkerLayout`) and finding the homography.

Two layouts ship (both printed by :mod:`calibration.marker_sheet`):

* ``sheet``: the whole printed A4 sheet lies flat on the table; table mm are measured from the sheet's
  top-left corner.
* ``corners``: the four markers are cut out and laid just outside the corners of a ``width x height``
  play area (marker 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left, as player 1 sees it); table
  mm are measured from the play area's top-left corner, which is marker 0's bottom-right corner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from calibration.homography import CalibrationError, Points, TableHomography

DICTIONARY = "DICT_4X4_50"
SHEET_MARKER_MM = 60.0
SHEET_MARGIN_MM = 20.0
A4_MM = (210.0, 297.0)


@dataclass(frozen=True)
class PlacedMarker:
    """Marker ``id`` printed as a ``size_mm`` square whose top-left corner lies at ``(x_mm, y_mm)``,
    upright (its top edge towards smaller ``y``)."""

    id: int
    x_mm: float
    y_mm: float
    size_mm: float

    def corners_mm(self) -> Points:
        """Corners in ArUco order: top-left, top-right, bottom-right, bottom-left."""
        x, y, s = self.x_mm, self.y_mm, self.size_mm
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], dtype=np.float64)

    def centre_mm(self) -> npt.NDArray[np.float64]:
        return np.array([self.x_mm + self.size_mm / 2.0, self.y_mm + self.size_mm / 2.0])


@dataclass(frozen=True)
class MarkerLayout:
    """Where each marker lies on the table, and which ArUco dictionary they come from."""

    markers: tuple[PlacedMarker, ...]
    dictionary: str = DICTIONARY
    name: str = "custom"

    def by_id(self) -> dict[int, PlacedMarker]:
        return {m.id: m for m in self.markers}

    @staticmethod
    def sheet(marker_mm: float = SHEET_MARKER_MM, margin_mm: float = SHEET_MARGIN_MM) -> "MarkerLayout":
        """The printed A4 sheet laid whole on the table (origin: the sheet's top-left corner)."""
        w, h = A4_MM
        far_x, far_y = w - margin_mm - marker_mm, h - margin_mm - marker_mm
        spots = [(margin_mm, margin_mm), (far_x, margin_mm), (far_x, far_y), (margin_mm, far_y)]
        return MarkerLayout(
            tuple(PlacedMarker(i, x, y, marker_mm) for i, (x, y) in enumerate(spots)), name="sheet"
        )

    @staticmethod
    def corners(width_mm: float, height_mm: float, marker_mm: float = SHEET_MARKER_MM) -> "MarkerLayout":
        """Four cut-out markers just outside the corners of a ``width x height`` play area."""
        s = marker_mm
        spots = [(-s, -s), (width_mm, -s), (width_mm, height_mm), (-s, height_mm)]
        return MarkerLayout(
            tuple(PlacedMarker(i, x, y, s) for i, (x, y) in enumerate(spots)), name="corners"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "dictionary": self.dictionary,
            "markers": [
                {"id": m.id, "x_mm": m.x_mm, "y_mm": m.y_mm, "size_mm": m.size_mm} for m in self.markers
            ],
        }


@dataclass
class MarkerFit:
    """The result of a marker calibration: the homography and how well the markers agree with it."""

    homography: TableHomography
    found_ids: list[int]
    rms_error_mm: float
    image_points: Points = field(repr=False)
    table_points: Points = field(repr=False)


def aruco_dictionary(name: str = DICTIONARY) -> Any:
    import cv2

    code = getattr(cv2.aruco, name, None)
    if code is None:
        raise CalibrationError(f"unknown ArUco dictionary {name!r} (e.g. {DICTIONARY!r})")
    return cv2.aruco.getPredefinedDictionary(code)


def detect_markers(image: npt.NDArray[np.uint8], dictionary: str = DICTIONARY) -> dict[int, Points]:
    """Marker id -> its four image corners (sub-pixel), for every marker found in ``image``."""
    import cv2

    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), params)
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, Points] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel()):
        found[int(marker_id)] = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    return found


def _best_turn(image_quad: Points, predicted: Points) -> Points:
    """The image corners re-ordered to match a marker laid turned by 0/90/180/270 degrees."""
    turns = [np.roll(image_quad, -k, axis=0) for k in range(4)]
    errors = [float(np.linalg.norm(t - predicted, axis=1).sum()) for t in turns]
    return turns[int(np.argmin(errors))]


def fit_markers(
    found: dict[int, Points], layout: MarkerLayout, image_size: tuple[int, int]
) -> MarkerFit:
    """Homography from the detected markers that belong to ``layout``.

    With four or more markers their centres fix a first homography, which tells how each marker was
    laid (a marker turned by 90 degrees still counts); then all corners are fitted together.
    """
    placed = layout.by_id()
    known = sorted(i for i in found if i in placed)
    if not known:
        raise CalibrationError(
            f"no marker of the layout {layout.name!r} (ids {sorted(placed)}) found; found ids {sorted(found)}"
        )
    quads = {i: found[i] for i in known}
    if len(known) >= 4:
        centres_img = np.array([quads[i].mean(axis=0) for i in known])
        centres_tab = np.array([placed[i].centre_mm() for i in known])
        rough = TableHomography.from_point_pairs(centres_img, centres_tab, image_size)
        quads = {i: _best_turn(q, rough.to_image(placed[i].corners_mm())) for i, q in quads.items()}
    image_pts = np.vstack([quads[i] for i in known])
    table_pts = np.vstack([placed[i].corners_mm() for i in known])
    homography = TableHomography.from_point_pairs(image_pts, table_pts, image_size)
    residual = homography.to_table(image_pts) - table_pts
    rms = float(np.sqrt((residual**2).sum(axis=1).mean()))
    return MarkerFit(homography, known, rms, image_pts, table_pts)


def calibrate_from_markers(image: npt.NDArray[np.uint8], layout: MarkerLayout) -> MarkerFit:
    """Find the layout's markers in one camera image and fit the table homography."""
    h, w = image.shape[:2]
    return fit_markers(detect_markers(image, layout.dictionary), layout, (w, h))
