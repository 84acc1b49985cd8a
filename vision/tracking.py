"""The tracker: frame after frame, detections -> which cards lie in which pile -> a steady table state.

    detections (px) --group_cards--> physical cards (mm) --assign_piles--> a FrameView per frame
    FrameView + motion (image and card shifts) --StabilityFilter--> published TableState

Knows nothing of game rules (vision never imports ``referee``); the zone layout says where piles lie.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field

from calibration.homography import TableHomography
from calibration.zones import ZoneLayout
from vision.card_grouping import faint_cards, faint_readings, group_cards
from vision.detections import Detection
from vision.back_edges import back_edges
from vision.pips import PipReader
from vision.motion import MotionMeter
from vision.pile_assignment import OFF, FrameView, assign_piles, fill_fan_gaps, moved_zones
from vision.stability import StabilityFilter
from vision.table_state import TableState

FAINT_SHARE = 0.6
"""Readings down to this share of the detection threshold are looked at as a card's other index read
otherwise (``faint_readings``): 0.15 at the default 0.25, the detector's own reporting threshold."""


class TrackerSettings(BaseModel):
    """The tracker's knobs; defaults suit 25-30 fps at 1280x720 with poker-size cards."""

    model_config = ConfigDict(extra="forbid", title="tracker")

    settle_s: float = Field(default=0.25, gt=0, le=10, title="settle time",
                            description="how long a zone must be steady before its state is published")
    min_frames: int = Field(default=3, ge=1, le=100, title="frames per window", description="fewest frames to judge")
    present_above: float = Field(default=0.65, gt=0.5, le=1, title="present share",
                                 description="share of window frames a card must be seen in")
    absent_below: float = Field(default=0.2, ge=0, lt=0.5, title="absent share",
                                description="seen in at most this share of frames: not there")
    new_absent_below: float = Field(default=0.34, ge=0, lt=1, title="noise share",
                                    description="a card not published yet and seen in at most this share of frames is a misreading")
    scope: Literal["table", "zone"] = Field(default="table", title="publish scope",
                                            description="table: only when every zone is steady; zone: each on its own")
    min_confidence: float = Field(default=0.25, ge=0, le=1, title="detection threshold")
    card_span_mm: float = Field(default=110.0, gt=0, le=500, title="card span",
                                description="farthest apart two indices of one card can be")
    back_merge_mm: float = Field(default=8.0, ge=0, le=200, title="back merge",
                                 description="back detections closer than this are one card")
    zone_margin_mm: float = Field(default=15.0, ge=0, le=200, title="zone margin",
                                  description="a card this close outside a zone still belongs to it")
    hysteresis_mm: float = Field(default=10.0, ge=0, le=200, title="zone hysteresis")
    move_tolerance_mm: float = Field(default=15.0, gt=0, le=200, title="card shift",
                                     description="a card that shifts more than this between frames is moving")
    slow_settle_s: float = Field(default=1.0, gt=0, le=30, title="slow settle time",
                                 description="a zone whose cards are read only now and then, with no motion, is judged over this longer window")
    slow_present_above: float = Field(default=0.4, gt=0, le=1, title="slow present share")
    slow_absent_below: float = Field(default=0.15, ge=0, lt=1, title="slow absent share")
    vanish_hold_s: float = Field(default=2.0, ge=0, le=60, title="vanish hold",
                                 description="cards that vanish without showing up elsewhere are believed gone after this")
    decks: int = Field(default=1, ge=1, le=2, title="decks", description="copies of each card in play")
    join_across_zones: bool = Field(default=True, title="join across zones",
                                    description="one code read in two zones may be one card's two indices "
                                                "(false: cards lie each in its own place, as in Stress and Zenuwen)")
    backs_from_edges: bool = Field(default=True, title="backs from edges",
                                   description="count a fanned pile's face-down cards from their edges in the image, "
                                               "not from back detections (vision/back_edges.py)")
    pips: bool = Field(default=False, title="pips",
                       description="check a squared pile's top read by its index against its pips: their count "
                                   "re-reads its rank where they disagree, and for a top read unsurely "
                                   "their look (shape, colour) gives its suit too (vision/pips.py)")
    image_motion: bool = Field(default=True, title="image motion", description="hold zones where pixels change")
    motion_pixel_threshold: int = Field(default=25, ge=1, le=255, title="pixel change")
    motion_fraction: float = Field(default=0.02, gt=0, le=1, title="zone change share")

    @classmethod
    def for_game(cls, game: str, players: int | None = None, **changes: object) -> "TrackerSettings":
        """Defaults per game: Stress and Zenuwen are played by all at once, so zones publish one by one, and
        cards leave the table there; Double Solitaire and Zenuwen for three or four use two decks."""
        simultaneous = game in ("stress", "zenuwen")
        two_decks = (game == "klondike" and (players or 1) >= 2) or (game == "zenuwen" and (players or 2) >= 3)
        # cards do leave the table there (S8 piles into a stock, Z9 cards into a hand): believe it sooner
        # each card of theirs lies in a place of its own: one code read in two neighbouring places is
        # two readings, one of them wrong (Stress, penguins at 1920x1080, seed 45: a far 10H's second
        # index read QH, 80 mm from the QH beside it, was joined to it, and the two places were
        # published swapped until the QH was played)
        defaults = {"scope": "zone" if simultaneous else "table", "decks": 2 if two_decks else 1,
                    "vanish_hold_s": 1.0 if simultaneous else 2.0, "join_across_zones": not simultaneous,
                    # every pile top of theirs shows its whole face, and the far and side seats' indices are tiny
                    "pips": simultaneous}
        return cls.model_validate({**defaults, **changes})


class TableTracker:
    """Feed it frames' detections with :meth:`update`; it returns a :class:`TableState` when one is published."""

    def __init__(self, layout: ZoneLayout, homography: TableHomography, settings: TrackerSettings | None = None) -> None:
        self.layout = layout
        self.homography = homography
        self.settings = s = settings or TrackerSettings()
        self.filter = StabilityFilter(
            {z.name: z.fan is not None for z in layout.zones},
            settle_s=s.settle_s, min_frames=s.min_frames, present_above=s.present_above,
            absent_below=s.absent_below, scope=s.scope, decks=s.decks, back_gap_mm=s.back_merge_mm * 0.6,
            vanish_hold_s=s.vanish_hold_s, slow_settle_s=s.slow_settle_s,
            slow_present_above=s.slow_present_above, slow_absent_below=s.slow_absent_below,
            new_absent_below=s.new_absent_below,
            keep_covered=frozenset(z.name for z in layout.zones if z.fan is not None and z.role != "waste"),
        )
        self._edge_zones = [z for z in layout.zones if z.fan is not None and z.role == "tableau"] if s.backs_from_edges else []
        self.pips = PipReader(layout) if s.pips else None
        self.motion = MotionMeter(homography, layout, pixel_threshold=s.motion_pixel_threshold,
                                  min_fraction=s.motion_fraction) if s.image_motion else None
        self.previous: FrameView | None = None
        self.frames = 0

    def _zone_name(self, point: tuple[float, float]) -> str:
        zone = self.layout.locate(point, self.settings.zone_margin_mm)
        return zone.name if zone is not None else OFF

    def _homography_for(self, image: npt.NDArray[np.uint8] | None, frame_size: tuple[int, int] | None) -> TableHomography:
        if frame_size is None and image is not None:
            frame_size = (image.shape[1], image.shape[0])
        if frame_size is None:
            return self.homography
        return self.homography.for_image_size(frame_size)

    def view(self, t: float, index: int, detections: list[Detection],
             image: npt.NDArray[np.uint8] | None = None, frame_size: tuple[int, int] | None = None) -> FrameView:
        """What this one frame shows (no filtering). Detections are in the pixels of a frame of
        ``frame_size`` (default: the image's size, else the calibration's); ``image`` may be a smaller copy."""
        s = self.settings
        camera = self._homography_for(image, frame_size)
        apart = s.decks > 1 or not s.join_across_zones
        cards = group_cards(detections, camera, min_confidence=s.min_confidence, card_span_mm=s.card_span_mm,
                            back_merge_mm=s.back_merge_mm, decks=s.decks, zone_of=self._zone_name if apart else None)
        faint = faint_readings(detections, camera, below=s.min_confidence, above=s.min_confidence * FAINT_SHARE)
        view = assign_piles(cards, self.layout, t, index, self.previous,
                            margin_mm=s.zone_margin_mm, hysteresis_mm=s.hysteresis_mm, faint=faint)
        readings = faint_cards(faint, s.card_span_mm)
        fill_fan_gaps(view, sorted(readings, key=lambda r: -r.confidence), self.layout, s.zone_margin_mm)
        for reading in readings:
            zone = self._zone_name(reading.centre_mm)
            if zone in view.zones and not view.zones[zone].cards:
                view.faint.setdefault(zone, []).append((reading.card, reading.confidence))
        if image is not None and self._edge_zones:
            self._count_backs_from_edges(view, image)
        view.moving = moved_zones(view, self.previous, s.move_tolerance_mm, s.card_span_mm / 2.0)
        if self.motion is not None and image is not None:
            view.moving |= self.motion.update(image)
            view.motion_measured = True
        if self.pips is not None and image is not None:
            self.pips.check(view, image, self.homography.for_image_size((image.shape[1], image.shape[0])))
        return view

    def _count_backs_from_edges(self, view: FrameView, image: npt.NDArray[np.uint8]) -> None:
        """The face-down cards above each fanned pile's first face-up card, from their top edges (the
        detector boxes a tight stack of backs as one or two); left to the back boxes where the edges
        cannot be told."""
        h = self.homography.for_image_size((image.shape[1], image.shape[0]))
        for zone in self._edge_zones:
            zv = view.zones[zone.name]
            if not zv.cards:
                continue
            first = min(c.place for c in zv.cards)
            # the published first card, unread in this frame, still lies under the first one read
            # (cards leave a fan from the top): the strip must reach its edge. Not when none of the
            # pile's published cards shows: they left, and the card read is one turned up above where
            # they lay (aguilar Klondike 799: a JS turned up on four backs, the strip run on to where
            # the card moved off had lain, through the JS, and the count left to one back box)
            lowest = self.filter.first_face_place(zone.name)
            pile = self.filter.published.piles.get(zone.name) if self.filter.published is not None else None
            if pile is not None and not {c.card for c in zv.cards} & set(pile.codes):
                lowest = None
            # where backs are boxed above the first face-up card read, a box below it adds none: a court
            # card's picture boxed as a back (aguilar Double Solitaire, seed 58: a KS on one back counted
            # two). Alone, such a box is the pile boxed whole, its back with the face on it (aguilar
            # Klondike 804: a 6D on one back).
            if any(p < first for p in zv.back_places):
                zv.back_places = [p for p in zv.back_places if p < first]
            edges = back_edges(image, h, zone, first if lowest is None else max(first, lowest), boxed=zv.back_places)
            if edges is not None:
                zv.back_places = edges

    def update(self, t: float, index: int, detections: list[Detection],
               image: npt.NDArray[np.uint8] | None = None, frame_size: tuple[int, int] | None = None) -> TableState | None:
        """One frame in; the newly published table state out, or ``None`` when nothing new is steady."""
        view = self.view(t, index, detections, image, frame_size)
        self.previous = view
        self.frames += 1
        return self.filter.push(view)

    @property
    def published(self) -> TableState | None:
        return self.filter.published

    def unsettled(self) -> dict[str, str]:
        """Zones not settled at the last frame, with why (for logs and the UI)."""
        return {z: v.why for z, v in self.filter.last_votes.items() if not v.settled}


__all__ = ["OFF", "TableTracker", "TrackerSettings"]
