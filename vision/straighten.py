"""A rectangle of the table cut out of a camera frame and seen from straight above.

Whatever looks at the cards' own picture rather than the detector's boxes (the edges of a fan's backs,
vision/back_edges.py; a pile top's pips, vision/pips.py) first straightens the part of the table it
needs through the calibration's homography, so that millimetres on the table are pixels at one scale.
"""

from __future__ import annotations

from typing import Any, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from calibration.homography import TableHomography

Vector = Sequence[float] | npt.NDArray[np.float64]


def straightened(image: npt.NDArray[Any], h: TableHomography, origin: Vector, along: Vector,
                 across: Vector, size: tuple[int, int], px_per_mm: float,
                 interpolation: int = cv2.INTER_LINEAR) -> npt.NDArray[Any]:
    """The table from ``origin`` (mm), ``size`` = (across, along) pixels at ``px_per_mm``: the picture's
    columns run along the unit vector ``across``, its rows along ``along``. ``h`` is for ``image``'s size;
    the picture keeps the image's channels and type."""
    picture_to_table = np.array(
        [[across[0] / px_per_mm, along[0] / px_per_mm, origin[0]],
         [across[1] / px_per_mm, along[1] / px_per_mm, origin[1]],
         [0.0, 0.0, 1.0]]
    )
    return cv2.warpPerspective(image, h.table_to_image @ picture_to_table, size,
                               flags=interpolation | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
