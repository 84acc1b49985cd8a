"""The calibration file: one JSON document per camera set-up (docs/calibration-format.md).

It holds the homography (or the point pairs it comes from), how it was found, and optionally the zone
layout. Validated with pydantic (``extra="forbid"``), so a typo in a hand-edited file is an error that
names the field, not a silent default.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from calibration.homography import CalibrationError, TableHomography
from calibration.templates import Spacing, template
from calibration.zones import ZoneLayout

FORMAT_VERSION = 1

Pair = tuple[float, float]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PointPairs(_Strict):
    """Four or more image points (px) and where they lie on the table (mm), in the same order."""

    image_px: list[Pair] = Field(min_length=4, title="image points", description="pixels in the calibration image")
    table_mm: list[Pair] = Field(min_length=4, title="table points", description="the same points on the table, mm")

    @model_validator(mode="after")
    def _same_count(self) -> "PointPairs":
        if len(self.image_px) != len(self.table_mm):
            raise ValueError(f"{len(self.image_px)} image points but {len(self.table_mm)} table points")
        return self


class MarkerEntry(_Strict):
    id: int = Field(ge=0, title="ArUco id")
    x_mm: float = Field(title="left edge", description="table x of the marker's top-left corner")
    y_mm: float = Field(title="top edge", description="table y of the marker's top-left corner")
    size_mm: float = Field(gt=0, le=1000, title="side", description="printed black square side")


class MarkersUsed(_Strict):
    name: str = Field(default="custom", title="layout name", description="sheet, corners or custom")
    dictionary: str = Field(default="DICT_4X4_50", title="ArUco dictionary")
    markers: list[MarkerEntry] = Field(min_length=1, title="markers", description="where each marker lies")


class ZoneEntry(_Strict):
    name: str = Field(min_length=1, title="zone name", description="unique; e.g. tableau3, p2.pile1, centre1")
    role: str = Field(min_length=1, title="pile kind", description="tableau, stock, waste, foundation, pile, centre")
    seat: int = Field(default=0, ge=0, le=4, title="owner", description="player 1..4, 0 when shared")
    polygon_mm: list[Pair] = Field(min_length=3, title="outline", description="corners in table mm")
    fan: Pair | None = Field(default=None, title="fan direction", description="where upper cards lie; null = squared")


class LayoutSpec(_Strict):
    """A zone layout: a template by name (placed and sized by the fields), or an explicit zone list."""

    game: Literal["klondike", "stress", "zenuwen"] = Field(title="game")
    players: int | None = Field(default=None, ge=1, le=4, title="players", description="default: 1 / 2 / 2")
    columns: Literal[7, 8] = Field(default=7, title="Klondike columns", description="K2 (7) or K16 (8)")
    origin_mm: Pair = Field(default=(0.0, 0.0), title="shift", description="where the template's (0,0) goes")
    rotation_deg: float = Field(default=0.0, ge=-360, le=360, title="turn", description="about the template's top-left")
    card_mm: Pair = Field(default=(63.0, 88.0), title="card size", description="width, height of one card")
    gap_mm: float = Field(default=17.0, ge=0, le=200, title="gap between piles")
    fan_len_mm: float = Field(default=480.0, gt=0, le=2000, title="length of a fanned column")
    zones: list[ZoneEntry] | None = Field(default=None, title="explicit zones", description="replace the template")

    def build(self) -> ZoneLayout:
        if self.zones is not None:
            from calibration.zones import Zone

            players = self.players or max([z.seat for z in self.zones] + [1])
            return ZoneLayout(self.game, players, tuple(Zone.from_json(z.model_dump()) for z in self.zones))
        sp = Spacing(self.card_mm[0], self.card_mm[1], self.gap_mm, self.fan_len_mm)
        layout = template(self.game, self.players, self.columns, sp)
        if self.origin_mm != (0.0, 0.0) or self.rotation_deg:
            layout = layout.moved(self.origin_mm[0], self.origin_mm[1], self.rotation_deg)
        return layout


class CalibrationFile(_Strict):
    """The calibration JSON document."""

    version: Literal[1] = Field(default=1, title="format version")
    image_size: tuple[int, int] = Field(title="image size", description="width, height of the calibration image")
    image_to_table: list[list[float]] | None = Field(
        default=None, title="homography", description="3x3, image px -> table mm (rows)"
    )
    points: PointPairs | None = Field(default=None, title="point pairs", description="used when no matrix is given")
    method: Literal["markers", "points", "manual"] = Field(default="manual", title="how it was found")
    markers: MarkersUsed | None = Field(default=None, title="marker layout used")
    rms_error_mm: float | None = Field(default=None, ge=0, title="fit error", description="markers: RMS corner error")
    layout: LayoutSpec | None = Field(default=None, title="zone layout")

    @model_validator(mode="after")
    def _has_geometry(self) -> "CalibrationFile":
        if self.image_to_table is None and self.points is None:
            raise ValueError("a calibration needs 'image_to_table' (3x3) or 'points' (four or more pairs)")
        if self.image_to_table is not None and (
            len(self.image_to_table) != 3 or any(len(r) != 3 for r in self.image_to_table)
        ):
            raise ValueError("'image_to_table' must be 3 rows of 3 numbers")
        return self

    def layout_for(self, game: str, players: int | None = None, columns: int | None = None) -> ZoneLayout:
        """Where ``game``'s piles lie on this table. The file's layout when it names its own zones;
        otherwise the template for ``game`` (``players``, Klondike ``columns``: what the rules say,
        where given) placed and sized as the file's layout is, so that one calibration of a table
        serves whichever game is set up on it next."""
        spec = self.layout
        if spec is None:
            return template(game, players, columns or 7)
        if spec.zones is not None:
            if spec.game != game:
                raise ValueError(f"the calibration's own zones are for {spec.game}, not {game}")
            return spec.build()
        update: dict[str, Any] = {"game": game}
        if players is not None or spec.game != game:
            update["players"] = players
        if columns is not None:
            update["columns"] = columns
        return spec.model_copy(update=update).build()

    def homography(self) -> TableHomography:
        import numpy as np

        if self.image_to_table is not None:
            return TableHomography(np.asarray(self.image_to_table, dtype=np.float64), self.image_size)
        assert self.points is not None
        return TableHomography.from_point_pairs(self.points.image_px, self.points.table_mm, self.image_size)


def make_calibration(
    homography: TableHomography,
    method: Literal["markers", "points", "manual"] = "manual",
    **extra: Any,
) -> CalibrationFile:
    matrix = [[float(v) for v in row] for row in homography.image_to_table]
    return CalibrationFile(image_size=homography.image_size, image_to_table=matrix, method=method, **extra)


def load_calibration(path: str | Path) -> CalibrationFile:
    text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{path}: not JSON: {exc}") from exc
    try:
        return CalibrationFile.model_validate(data)
    except ValueError as exc:
        raise CalibrationError(f"{path}: not a calibration file: {exc}") from exc


def to_text(cal: CalibrationFile) -> str:
    """The file's text: indented, with each list of numbers on one line."""
    text = json.dumps(cal.model_dump(mode="json", exclude_none=True), indent=2)
    number_list = re.compile(r"\[\s*(-?[0-9.eE+-]+(?:,\s*-?[0-9.eE+-]+)*)\s*\]")
    return number_list.sub(lambda m: "[" + ", ".join(v.strip() for v in m.group(1).split(",")) + "]", text) + "\n"


def save_calibration(cal: CalibrationFile, path: str | Path) -> None:
    """Write the file whole or not at all (a crash while saving keeps the calibration before it)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    part.write_text(to_text(cal), encoding="utf-8")
    os.replace(part, path)


def default_calibration_file() -> Path:
    """Where a table's calibration is kept unless told otherwise: ``$XDG_CONFIG_HOME/cardref/
    calibration.json``, else ``~/.config/cardref/calibration.json``."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "cardref" / "calibration.json"
