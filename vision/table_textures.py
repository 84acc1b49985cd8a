"""Procedural table tops for the truth-video renderer (:mod:`vision.render`), drawn in table millimetres.

Every texture is made at a given resolution (pixels per mm) so that its features have a physical size:
the weave of a cloth is a millimetre or two, wood grain runs along planks about 90-150 mm wide, felt is a
fine fuzz with soft blotches. The same ``rng`` state gives the same texture.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

KINDS = ("felt", "wood", "linen", "check", "laminate")

Image = npt.NDArray[np.uint8]


def _smooth_noise(rng: np.random.Generator, w: int, h: int, cell_px: float, channels: int = 1) -> npt.NDArray[np.float32]:
    """Noise with features about ``cell_px`` pixels across, unit spread."""
    import cv2

    gw, gh = max(2, int(w / cell_px) + 2), max(2, int(h / cell_px) + 2)
    n = rng.normal(0.0, 1.0, (gh, gw, channels)).astype(np.float32)
    out = cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)
    return out.reshape(h, w, channels)


def _fine_noise(rng: np.random.Generator, w: int, h: int, sigma: float) -> npt.NDArray[np.float32]:
    return rng.normal(0.0, sigma, (h, w, 1)).astype(np.float32)


def felt(rng: np.random.Generator, w: int, h: int, px_per_mm: float) -> npt.NDArray[np.float32]:
    base = rng.choice(np.array([[40, 100, 30], [95, 60, 25], [40, 40, 120], [70, 70, 70], [30, 80, 90]], np.float32))
    base = base * rng.uniform(0.8, 1.25)
    img = base[None, None, :] * (1.0 + 0.06 * _smooth_noise(rng, w, h, 60 * px_per_mm))
    img = img * (1.0 + 0.05 * _smooth_noise(rng, w, h, 1.5 * px_per_mm))
    return img + _fine_noise(rng, w, h, 5.0)


def wood(rng: np.random.Generator, w: int, h: int, px_per_mm: float) -> npt.NDArray[np.float32]:
    """Planks running left to right (or top to bottom), grain as stretched noise and soft rings."""
    import cv2

    vertical = bool(rng.random() < 0.4)
    if vertical:
        w, h = h, w
    tone = np.array([rng.uniform(60, 110), rng.uniform(100, 150), rng.uniform(150, 210)], np.float32)
    plank_px = rng.uniform(90, 150) * px_per_mm
    img = np.empty((h, w, 3), np.float32)
    rows = np.arange(h, dtype=np.float32)
    plank = (rows // plank_px).astype(np.int32)
    shade = 1.0 + 0.08 * rng.normal(0, 1, plank.max() + 1).astype(np.float32)
    # grain: noise stretched a lot along the planks
    grain = rng.normal(0, 1, (max(2, int(h / (0.8 * px_per_mm))), max(2, int(w / (120 * px_per_mm))))).astype(np.float32)
    grain = cv2.resize(grain, (w, h), interpolation=cv2.INTER_CUBIC)
    wobble = _smooth_noise(rng, w, h, 80 * px_per_mm)[..., 0] * 6 * px_per_mm
    rings = np.sin((rows[:, None] + wobble) / (rng.uniform(2.5, 5.0) * px_per_mm)) * 0.5 + 0.5
    f = shade[plank][:, None] * (1.0 + 0.07 * grain + 0.06 * rings)
    img[:] = tone[None, None, :] * f[..., None]
    seam = (rows % plank_px) < max(1.0, 0.6 * px_per_mm)
    img[seam] *= 0.55
    img = img + _fine_noise(rng, w, h, 3.0)
    if vertical:
        img = np.ascontiguousarray(np.transpose(img, (1, 0, 2)))
    return img


def linen(rng: np.random.Generator, w: int, h: int, px_per_mm: float) -> npt.NDArray[np.float32]:
    """A woven cloth: fine crossing threads, a plain colour."""
    palette = np.array([[200, 215, 225], [150, 160, 120], [110, 130, 170], [180, 150, 120], [220, 220, 215]], np.float32)
    base = palette[int(rng.integers(0, len(palette)))] * rng.uniform(0.85, 1.05)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    pitch = rng.uniform(0.8, 1.6) * px_per_mm
    weave = np.sin(2 * np.pi * xx / pitch) * np.sin(2 * np.pi * yy / pitch)
    img = base[None, None, :] * (1.0 + 0.05 * weave[..., None] + 0.04 * _smooth_noise(rng, w, h, 40 * px_per_mm))
    return img + _fine_noise(rng, w, h, 4.0)


def check(rng: np.random.Generator, w: int, h: int, px_per_mm: float) -> npt.NDArray[np.float32]:
    """A checked (gingham) table cloth, the squares 15-40 mm."""
    a = np.array([rng.uniform(225, 245)] * 3, np.float32)  # white and a colour: red, blue, green, ...
    colours = np.array([[40, 40, 190], [160, 80, 30], [50, 130, 40], [40, 140, 200], [110, 60, 120], [50, 50, 50]], np.float32)
    b = colours[int(rng.integers(0, len(colours)))] * rng.uniform(0.8, 1.1)
    s = rng.uniform(15, 40) * px_per_mm
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    mx = ((xx // s) % 2).astype(np.float32)
    my = ((yy // s) % 2).astype(np.float32)
    m = (mx + my) / 2.0  # 0, 0.5 (one band), 1 (both bands)
    img = a[None, None, :] * (1 - m[..., None]) + b[None, None, :] * m[..., None]
    pitch = 1.0 * px_per_mm
    img = img * (1.0 + 0.04 * (np.sin(2 * np.pi * xx / pitch) * np.sin(2 * np.pi * yy / pitch))[..., None])
    return img + _fine_noise(rng, w, h, 4.0)


def laminate(rng: np.random.Generator, w: int, h: int, px_per_mm: float) -> npt.NDArray[np.float32]:
    """A plain kitchen-table top: one colour (white, grey, beige, a muted tone), faint speckle and cloudiness."""
    palette = np.array([[225, 228, 230], [170, 172, 175], [150, 185, 205], [120, 130, 120], [95, 110, 140],
                        [200, 200, 185], [60, 62, 66]], np.float32)
    base = palette[int(rng.integers(0, len(palette)))] * rng.uniform(0.9, 1.08)
    img = base[None, None, :] * (1.0 + 0.025 * _smooth_noise(rng, w, h, 30 * px_per_mm))
    speck = rng.random((h, w, 1)).astype(np.float32) < 0.01
    img = img - 25.0 * speck
    return img + _fine_noise(rng, w, h, 2.5)


_MAKERS = {"felt": felt, "wood": wood, "linen": linen, "check": check, "laminate": laminate}


def texture(kind: str, rng: np.random.Generator, w: int, h: int, px_per_mm: float) -> Image:
    """A ``h`` x ``w`` BGR table top of ``kind`` (one of :data:`KINDS`) at ``px_per_mm``."""
    if kind not in _MAKERS:
        raise ValueError(f"unknown table texture {kind!r}; textures: {', '.join(KINDS)}")
    img = _MAKERS[kind](rng, w, h, px_per_mm)
    return np.clip(img, 0, 255).astype(np.uint8)
