"""What every truth video shares (docs/truth-videos.md), whatever the game: the render settings, the
camera and the look drawn from the seed, the painter, the video writer, the per-frame files
(``truth.jsonl``, ``boxes.jsonl.gz``), and ``calibration.json``, ``deal.json``, ``moves.jsonl``,
``render.json``.

A game module (:mod:`cardref.truth_klondike`, :mod:`cardref.truth_speed`) decides what is played and
which hand actions carry each move out; :class:`Filming` films those visits of the hands and the rests
between them, and writes the files.
"""

from __future__ import annotations

import gzip
import json
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from calibration.store import LayoutSpec, make_calibration, save_calibration
from calibration.zones import ZoneLayout
from vision.render import Faces, HandVisit, Look, Painter, TableScene, VideoWriter, make_camera
from vision.synthetic_scenes import Frame, Noise, Pile
from vision.table_state import PileState, SeenCard, TableState


@dataclass(frozen=True)
class RenderSettings:
    size: tuple[int, int] = (1280, 720)
    fps: float = 10.0
    px_per_mm: float = 3.0
    deck: str = "simplistic"
    decks_root: str | None = None
    texture: str | None = None
    seconds: float | None = None
    """Stop starting new moves after this many seconds (the last visit still ends at rest)."""
    crf: int = 27
    """H.264 constant rate factor (higher: smaller file, coarser picture)."""
    boxes: bool = False
    """Also write ``boxes.jsonl.gz``: every frame's corner-index boxes in image pixels, with visibility."""


def _table_state(frame: Frame) -> TableState:
    piles = {
        name: PileState(backs, tuple(SeenCard(c, 1.0) for c in cards))
        for name, (backs, cards) in sorted(frame.truth.items())
    }
    return TableState(frame.t, frame.index, piles)


def _mm(v: Any) -> list[float]:
    return [round(float(x), 1) for x in v]


def truth_line(frame: Frame, scene: TableScene) -> dict[str, Any]:
    """One line of truth.jsonl: the TableState JSON of the true visible table (STATES.jsonl's shape),
    plus whether the table is at rest, what the hands carry and where the (first) hand is; with
    several hands over the table, ``hands_mm`` lists every palm."""
    out = _table_state(frame).to_json()
    out["at_rest"] = frame.at_rest
    out["carried"] = [c for c, _ in scene.carried]
    out["hand_mm"] = None if scene.hand is None else _mm(scene.hand)
    if len(scene.hands) > 1:
        out["hands_mm"] = [_mm(h.at) for h in scene.hands]
    return out


def dump(obj: Any) -> str:
    return json.dumps(obj, separators=(", ", ": "))


@dataclass(frozen=True)
class Visited:
    """When a visit of the hands happened, in video time and frames."""

    t_start: float
    """When the (first) hand came in."""
    frame_start: int
    t_rest: float
    """When the table was at rest again (the first at-rest frame)."""
    frame_rest: int
    touches: tuple[tuple[int, int, float], ...]
    """(seat, action number, time) when each hand reached the pile of each of its actions."""

    def touched(self, seat: int, action: int = 0) -> float:
        return next(t for s, k, t in self.touches if s == seat and k == action)


class Filming:
    """One truth video being made: the seed's look and camera over ``layout``, the Scene holding
    ``piles``, the painter, the video and the per-frame truth. Use as a context manager; film with
    :meth:`hold` and :meth:`visit`; :meth:`finish` writes the moves and ``render.json``.

    ``camera_yaw_deg`` turns the camera about the table's vertical beyond the look's few degrees (a
    table longer than it is wide is filmed from its end). The seed's random streams: ``[seed, 1]`` the look and the camera's distance, ``[seed, 3]``
    (:attr:`pace`) the game module's timing of each visit and rest."""

    def __init__(self, out_dir: Path, seed: int, layout: ZoneLayout, layout_spec: LayoutSpec, piles: dict[str, Pile],
                 settings: RenderSettings, video_name: str, est_seconds: float, visible_waste: int = 3,
                 progress: Callable[[int, float], None] | None = None, camera_yaw_deg: float = 0.0) -> None:
        self.started = time.perf_counter()
        self.out_dir = out_dir
        self.seed = seed
        self.settings = settings
        self.video_name = video_name
        self.progress = progress
        rng = np.random.default_rng([seed, 1])
        self.look = Look.draw(rng, est_seconds, settings.texture)
        x0, y0, x1, y1 = layout.bounds_mm()
        self.camera = make_camera((x0 - 15, y0 - 15, x1 + 15, y1 + 15), settings.size, self.look.tilt_deg,
                                  self.look.roll_deg, self.look.yaw_deg + camera_yaw_deg,
                                  distance_mm=float(rng.uniform(800, 1000)))
        self.faces = Faces.load(settings.deck, settings.decks_root)
        self.painter = Painter(layout, self.camera, self.faces, self.look, seed, settings.px_per_mm, settings.fps)
        self.painter.with_boxes = settings.boxes
        self.scene = TableScene(layout, self.camera.homography, piles, fps=settings.fps, noise=Noise(), seed=seed,
                                images=False, visible_waste=visible_waste, image_width=settings.size[0])
        self.pace = np.random.default_rng([seed, 3])
        """The game module's random timing of visits and rests."""
        out_dir.mkdir(parents=True, exist_ok=True)
        save_calibration(make_calibration(self.camera.homography, "manual", layout=layout_spec), out_dir / "calibration.json")
        self.writer = VideoWriter(out_dir / video_name, settings.size, settings.fps, crf=settings.crf)
        self.frames = 0
        self._boxes: list[str] = []
        self._truth = open(out_dir / "truth.jsonl", "w", encoding="utf-8")

    def __enter__(self) -> "Filming":
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.writer.release()
        self._truth.close()
        if kind is None and self.settings.boxes:  # gzip with no time stamp inside: the same render, the same bytes
            data = gzip.compress("".join(self._boxes).encode("utf-8"), 9, mtime=0)
            (self.out_dir / "boxes.jsonl.gz").write_bytes(data)

    @property
    def t(self) -> float:
        return self.scene.t

    def out_of_time(self) -> bool:
        """Past ``settings.seconds``: no new move should start."""
        return self.settings.seconds is not None and self.scene.t >= self.settings.seconds

    def _film(self, frames: Iterator[Frame]) -> int:
        first = -1
        for fr in frames:
            if first < 0:
                first = fr.index
            img = self.painter.paint(self.scene, fr)
            self.writer.write(img)
            self._truth.write(dump(truth_line(fr, self.scene)) + "\n")
            if self.settings.boxes:
                self._boxes.append(dump({"t": round(fr.t, 4), "frame": fr.index, "boxes": self.painter.index_boxes()}) + "\n")
            self.frames += 1
            if self.progress is not None:
                self.progress(self.frames, fr.t)
        return first

    def hold(self, seconds: float) -> None:
        """The table at rest for about ``seconds``."""
        self._film(self.scene.hold(seconds))

    def visit(self, hands: Sequence[HandVisit]) -> Visited:
        """The hands come in together, do their actions and leave."""
        t_start = self.scene.t
        first = self._film(self.scene.visit_together(hands))
        return Visited(t_start, first, self.scene.t, self.scene.index, tuple(self.scene.touches))

    def write_json(self, name: str, obj: Any) -> None:
        (self.out_dir / name).write_text(dump(obj) + "\n", encoding="utf-8")

    def finish(self, game: str, rules: str, move_lines: Sequence[dict[str, Any]], counts: dict[str, Any],
               command: str | None) -> dict[str, Any]:
        """Write ``moves.jsonl`` and ``render.json``; returns the summary (plus the render's own speed)."""
        with open(self.out_dir / "moves.jsonl", "w", encoding="utf-8") as fh:
            for line in move_lines:
                fh.write(dump(line) + "\n")
        s, look, camera = self.settings, self.look, self.camera
        summary: dict[str, Any] = {
            "game": game,
            "seed": self.seed,
            "rules": rules,
            "deck": self.faces.name,
            "texture": look.texture,
            "size": list(s.size),
            "fps": s.fps,
            "px_per_mm": s.px_per_mm,
            "frames": self.frames,
            "seconds": round(self.frames / s.fps, 2),
            **counts,
            **({"command": command} if command else {}),
            "video": self.video_name,
            "codec": self.writer.codec,
            "camera": {"tilt_deg": round(camera.tilt_deg, 2), "roll_deg": round(camera.roll_deg, 2),
                       "yaw_deg": round(camera.yaw_deg, 2), "distance_mm": round(camera.distance_mm, 1)},
            "look": {"skin_bgr": list(look.skin_bgr), "blur_sigma": round(look.blur_sigma, 3),
                     "noise_sigma": round(look.noise_sigma, 3), "jpeg_quality": look.jpeg_quality,
                     "light_change_s": [round(v, 2) for v in look.light_change_s], "shutter": round(look.shutter, 3),
                     "glare": None if look.glare is None else [round(v, 3) for v in look.glare]},
        }
        (self.out_dir / "render.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        elapsed = time.perf_counter() - self.started
        summary["render_seconds"] = round(elapsed, 1)  # not in render.json: the files depend on the seed only
        summary["render_fps"] = round(self.frames / max(elapsed, 1e-9), 2)
        return summary
