"""One frame's physical cards -> the zones (piles) they lie in, ordered, with backs counted.

A card belongs to the zone that holds the centre of its visible corner indices (else the nearest zone
within ``margin_mm``, else it is *off* every zone: in a hand, or dropped). A card near a zone edge stays
in the zone it was in the frame before while it is within ``hysteresis_mm`` of it, so it does not
flicker between neighbours. In a fanned zone each card's place is the rear-most of its indices along
the fan direction (a covered card shows only the index at its top edge; the top card shows both).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

import numpy as np

from calibration.zones import Zone, ZoneLayout
from vision.card_grouping import PhysicalCard
from vision.detections import BACK

OFF = "off"
"""The pseudo-zone of cards outside every zone."""


@dataclass(frozen=True, slots=True)
class CardInZone:
    card: str
    place: float
    """Position along the zone's fan (mm); 0 in squared zones."""
    confidence: float
    points_mm: tuple[tuple[float, float], ...]


@dataclass
class ZoneView:
    cards: list[CardInZone] = field(default_factory=list)
    back_places: list[float] = field(default_factory=list)
    """Each face-down card showing, by its place along the fan (0 in squared zones)."""

    @property
    def backs(self) -> int:
        return len(self.back_places)


@dataclass
class FrameView:
    """Everything one frame says about the table."""

    t: float
    index: int
    zones: dict[str, ZoneView]
    moving: set[str] = field(default_factory=set)
    """Zones (and ``off``) where something moved since the previous frame."""
    motion_measured: bool = False
    """Whether ``moving`` includes motion measured in the image (hands), not only card shifts."""
    faint: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    """Zone -> (code, score) of the readings too weak to stand for a card (``faint_readings``) in a
    zone where no card is read: what the camera half sees there."""

    def where(self) -> dict[str, str]:
        """Card code -> zone (the first when a code is in several)."""
        out: dict[str, str] = {}
        for name, zv in self.zones.items():
            for c in zv.cards:
                out.setdefault(c.card, name)
        return out


def _locate(card: PhysicalCard, layout: ZoneLayout, previous: Zone | None, margin_mm: float, hysteresis_mm: float) -> Zone | None:
    centre = card.centre_mm
    if previous is not None and previous.distance(centre) <= hysteresis_mm:
        return previous
    return layout.locate(centre, margin_mm)


def _lie_as_indices(d: np.ndarray, offsets: np.ndarray, tolerance_mm: float) -> bool:
    """Does the step ``d`` between two readings lie as one of ``offsets`` (a card's two indices), either
    way round (which of the two is the card's top index is not known)?"""
    return min(float(np.linalg.norm(offsets - d, axis=1).min()), float(np.linalg.norm(offsets + d, axis=1).min())) <= tolerance_mm


def _corner_offsets(cards: list[PhysicalCard]) -> np.ndarray:
    """The table offsets between a card's two indices, from this frame's cards read alike at both (one
    deck design and one camera: the same for all cards turned the same way; a seat's cards turned
    its way give their own)."""
    pairs = [np.subtract(c.points_mm[1], c.points_mm[0]) for c in cards if c.card != BACK and len(c.points_mm) == 2]
    return np.asarray(pairs, dtype=np.float64).reshape(-1, 2)


KEEP_READING_MARGIN = 0.2
"""A card whose indices read as two codes keeps the code the frame before had, unless the other reads
surer by more than this: a reading kept only because it was kept before never gives way (kennard,
three players at 1280x720, Zenuwen seed 182: the far seat's JS read JS at 0.50 and, upside down, 5S
at 0.26, stayed a 5S from its first frames for the whole round)."""


ONE_FACE_SPAN_MM = 10.0
"""On a pile that shows one face, two lone readings lying a card's index span apart (within this of the
median span of the frame's cards read at both indices, whichever way) are that face's two indices: a
big index's reading centre moves with its rank (kennard_4c_big, Stress seed 133: a 3S's indices lay
67 mm apart, the other cards' 73-78 mm, and its far one, read 5S during a stack beside it, was
published as a 5S under the 3S and the stack called illegal)."""


def join_split_readings(cards: list[PhysicalCard], before: frozenset[str] = frozenset(),
                        tolerance_mm: float = 6.0, faint: Sequence[PhysicalCard] = (),
                        one_face: Callable[[PhysicalCard, PhysicalCard], bool] | None = None) -> list[PhysicalCard]:
    """Two lone indices that lie as a card's two indices lie (an offset learnt from the cards read alike
    at both) are one card whose indices were read as two codes (the J of a JH read as a 5 at one
    corner; a 2C on a foundation read 2S at the other): it keeps the reading the frame ``before`` had
    (a card does not change while it lies), else the surer one, with the margin between the two as its
    confidence. A covered card's index lies a fan step away from where the top card's own index would
    be, and the next card of a row a card's width, so they are not taken. The other index may also be
    one of the ``faint`` readings, too weak to count as a card (penguins seed 13: a QH's upside-down
    index read 6H at 0.37 and its upright one QH at 0.23, and the tracker published a 6H on the QH).
    The reading the frame before had gives way to one surer by ``KEEP_READING_MARGIN``. Two readings
    that ``one_face`` says lie on a pile showing one face need only lie a card's index span apart
    (``ONE_FACE_SPAN_MM``)."""
    offsets = _corner_offsets(cards)
    if not len(offsets):
        return cards
    span = float(np.median(np.linalg.norm(offsets, axis=1)))
    lone = [c for c in cards if c.card != BACK and len(c.points_mm) == 1]
    out = list(cards)
    for one in lone:
        if one not in out:
            continue
        for other in [*lone, *faint]:
            if other is one or (other not in out and other not in faint) or other.card == one.card:
                continue
            d = np.subtract(other.points_mm[0], one.points_mm[0])
            if (not _lie_as_indices(d, offsets, tolerance_mm)
                    and not (one_face is not None and abs(float(np.linalg.norm(d)) - span) <= ONE_FACE_SPAN_MM and one_face(one, other))):
                continue
            if (one.card in before) != (other.card in before):
                kept, new = (one, other) if one.card in before else (other, one)
                code = new.card if new.confidence - kept.confidence > KEEP_READING_MARGIN else kept.card
            else:
                code = one.card if one.confidence >= other.confidence else other.card
            out.remove(one)
            if other in out:
                out.remove(other)
            # the two readings contradict each other: only the margin between them is confidence, so
            # that a close call reaches the referee as unread and the rules settle it
            out.append(PhysicalCard(code, one.points_mm + other.points_mm, abs(one.confidence - other.confidence)))
            break
    return out


SITE_MM = 20.0
"""Readings of one code closer than this are one index read twice (two boxes, two scales), not two."""


def drop_far_index_phantoms(cards: list[PhysicalCard], tolerance_mm: float = 6.0) -> list[PhysicalCard]:
    """A card made only of other cards' far indices misread alike is no card. The grouping makes one card
    of a code's readings within a card's span (one deck holds it once), so two far indices misread as one
    code become a card read at two places that lie as no card's two indices lie (kennard_big, Klondike
    seed 807: column 3's JS and column 4's 3C, both read at their near index, were read JC at their far
    ones, 79 mm apart; the JC was published on the 3C and no view fitted the game from there). Such a
    card, each of whose places lies as a card's two indices lie from another card's reading, is dropped:
    the offsets are learnt from the other cards read alike at both indices, at least two of them (a
    phantom's own offset would otherwise join two cards' near indices, :func:`join_split_readings`)."""
    out = list(cards)
    for card in cards:
        sites = _sites(card.points_mm) if card.card != BACK else []
        offsets = _corner_offsets([c for c in cards if c is not card])
        if len(sites) < 2 or len(offsets) < 2:
            continue
        if any(_lie_as_indices(np.subtract(b, a), offsets, ONE_FACE_SPAN_MM) for i, a in enumerate(sites) for b in sites[i + 1:]):
            continue  # (its places lie as one card's indices: a card, whatever else lies near)
        others = [p for c in cards if c is not card and c.card not in (BACK, card.card) for p in c.points_mm]
        if all(any(_lie_as_indices(np.subtract(p, site), offsets, tolerance_mm) for p in others) for site in sites):
            out.remove(card)
    return out


def _sites(points: tuple[tuple[float, float], ...]) -> list[tuple[float, float]]:
    """Points of one card's readings, those within :data:`SITE_MM` of an earlier one left out."""
    sites: list[tuple[float, float]] = []
    for p in points:
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) > SITE_MM for q in sites):
            sites.append(p)
    return sites


def _place_far_index(view: ZoneView, zone: Zone, offsets: np.ndarray) -> None:
    """A column's top card read only at its far index (the one at its foot, which only the top card
    shows) gets the place of its near one. Its place is taken from the index nearest the pile's top:
    read at its foot alone, it lay a card's index span too far along (aguilar Klondike 802: a 4S,
    its upper index unread, placed 86 mm past the 5H under it; the 3H laid on the 4S, 38 mm past the
    5H, then looked like the 4S read otherwise and was held back 10 s). Told by the gap to the card
    below: more than the span between a card's two indices (from this frame's cards read at both),
    which no fan's step comes near."""
    if len(view.cards) < 2 or not len(offsets) or zone.fan is None:
        return
    top, below = view.cards[-1], view.cards[-2]
    span = float(np.median(np.abs(offsets @ np.asarray(zone.fan, dtype=np.float64))))
    if len(top.points_mm) == 1 and top.place - below.place > span:
        view.cards[-1] = replace(top, place=top.place - span)


def assign_piles(
    cards: list[PhysicalCard],
    layout: ZoneLayout,
    t: float,
    index: int,
    previous: FrameView | None = None,
    *,
    margin_mm: float = 15.0,
    hysteresis_mm: float = 10.0,
    faint: Sequence[PhysicalCard] = (),
) -> FrameView:
    """The zones' cards in one frame; ``faint``: readings too weak to be cards (:func:`join_split_readings`)."""
    before = previous.where() if previous is not None else {}
    by_name = {z.name: z for z in layout.zones}

    def one_face_pile(card: PhysicalCard) -> Zone | None:
        zone = _locate(card, layout, by_name.get(before.get(card.card, "")), margin_mm, hysteresis_mm)
        return zone if zone is not None and zone.role == "pile" and zone.fan is None else None

    def one_face(a: PhysicalCard, b: PhysicalCard) -> bool:
        pile = one_face_pile(a)
        return pile is not None and pile is one_face_pile(b)

    cards = join_split_readings(drop_far_index_phantoms(cards), frozenset(before), faint=faint, one_face=one_face)
    zones = {z.name: ZoneView() for z in layout.zones}
    zones[OFF] = ZoneView()
    for card in cards:
        prev_zone = by_name.get(before.get(card.card, ""))
        zone = _locate(card, layout, prev_zone, margin_mm, hysteresis_mm)
        view = zones[zone.name] if zone is not None else zones[OFF]
        place = card.rear_along(zone.fan) if zone is not None and zone.fan is not None else 0.0
        if card.card == BACK:
            if zone is not None:
                view.back_places.append(place)
            continue
        view.cards.append(CardInZone(card.card, place, card.confidence, card.points_mm))
    offsets = _corner_offsets(cards)
    for name, view in zones.items():
        view.cards.sort(key=lambda c: c.place)
        view.back_places.sort()
        if name in by_name and by_name[name].role == "tableau":
            _place_far_index(view, by_name[name], offsets)
        if view.cards and name in by_name and by_name[name].role in NO_BACK_UNDER_FACES:
            view.back_places.clear()
    return FrameView(t, index, zones)


NO_BACK_UNDER_FACES = frozenset({"waste", "pile", "centre", "foundation"})
"""Zones where no back shows once a face is read there, so a back boxed among faces is none; a back
alone there is a face the camera cannot read, and stays. Nothing lies face down on a waste: a back
among its faces is the fan's edge or the stock beside it (Double Solitaire filmed from the table's end,
the stock just beyond the waste: slivers of the waste's edge boxed as backs, 13 of penguins seed 13's
13 wastes published with two backs). A squared pile whose cards lie face up (a Stress or Zenuwen pile,
a centre pile, a foundation) shows one face, its top, and no back under it (docs/states-format.md): a
back boxed there is that face (an ace's bare middle: kennard_4c_big, Zenuwen seed 186, a side seat's
AC published on a back for 30 s) or the stock beside it reaching in. Not a stock: a waste card reaching
over it is no top of it."""


FAN_GAP_MM = 4.0
"""A faint reading this far along a fan from every card read there is a card of its own, not one of
theirs read again (the tightest fan step in the tests is 4 mm, SAME_INDEX_MM in vision.stability)."""


FAN_BEYOND_MM = 45.0
"""How far beyond a waste's last card read a faint reading in line with its index may be the next card of
the fan (a draw-3 fan steps 15-20 mm; the read card's own other index lies a card's width on)."""

INDEX_ROW_MM = 20.0
"""How far across a fan a faint reading may lie from the last card read's index and still be in its
row of indices (the card's other index lies a card's length across, 70 mm and more)."""


def fill_fan_gaps(view: FrameView, faint: Sequence[PhysicalCard], layout: ZoneLayout,
                  margin_mm: float = 15.0, gap_mm: float = FAN_GAP_MM) -> None:
    """A reading too weak to stand for a card, lying in a waste's fan between two cards read there and
    apart from each, is the card between them: a draw-3 fan's middle card shows only its index, pressed
    between its neighbours' (simplistic, Double Solitaire draw 3, seed 59: a waste's KD between its KC and
    10C read at 0.18-0.22 in every frame, the steady states published without it 7/18). Between read
    cards it cannot be the top card's other index, which lies beyond the top card; a reading already
    joined to a card as its other index (:func:`join_split_readings`) or a code read anywhere in the
    frame is not taken again. So too a reading beyond the last card read, in its row of indices and
    within :data:`FAN_BEYOND_MM`: the cards drawn onto it (kennard_4c_big, draw 3, seed 808: a draw of
    3H QC 9S, the 3H read at 0.47 and the QC and 9S at 0.2-0.23, published as the 3H alone; the referee
    learned the 3H as the waste's top, and the 9S laid from there was taken for another draw). Only
    wastes: in a column a faint reading between two cards may be a card's other index read otherwise,
    which its own reading there joins only sometimes."""
    used = {p for z in view.zones.values() for c in z.cards for p in c.points_mm}
    read = {c.card for z in view.zones.values() for c in z.cards}
    for card in faint:
        if card.card in read or card.card == BACK or any(p in used for p in card.points_mm):
            continue
        zone = layout.locate(card.centre_mm, margin_mm)
        if zone is None or zone.fan is None or zone.role != "waste":
            continue
        zv = view.zones[zone.name]
        places = [c.place for c in zv.cards]
        place = card.rear_along(zone.fan)
        between = len(places) >= 2 and min(places) < place < max(places)
        if not between and not (places and _next_in_fan(card, place, zv, zone.fan)):
            continue
        if min(abs(place - p) for p in places) < gap_mm:
            continue
        zv.cards.append(CardInZone(card.card, place, card.confidence, card.points_mm))
        zv.cards.sort(key=lambda c: c.place)
        read.add(card.card)


def _next_in_fan(card: PhysicalCard, place: float, zv: ZoneView, fan: tuple[float, float]) -> bool:
    """Whether a faint reading at ``place`` lies beyond the fan's last card read, within
    :data:`FAN_BEYOND_MM` of it and in its row of indices (:data:`INDEX_ROW_MM`)."""
    last = max(zv.cards, key=lambda c: c.place)
    if not 0.0 < place - last.place <= FAN_BEYOND_MM:
        return False
    across = np.array([-fan[1], fan[0]])
    return any(abs(float((np.asarray(p) - np.asarray(q)) @ across)) <= INDEX_ROW_MM
               for p in card.points_mm for q in last.points_mm)


def moved_zones(now: FrameView, before: FrameView | None, tolerance_mm: float, corner_gap_mm: float = 50.0) -> set[str]:
    """Zones where a card that is seen in both frames moved by more than ``tolerance_mm``.

    A card moved when none of its index points is still near one of its points of the frame before
    (a corner that appears or disappears is not a move), and the nearest are closer than
    ``corner_gap_mm`` (farther apart they are two different corners of the card, which says nothing)."""
    if before is None:
        return set()
    moving: set[str] = set()
    for name, view in now.zones.items():
        old = before.zones.get(name)
        if old is None or not view.cards:
            continue
        old_points: dict[str, list[tuple[float, float]]] = {}
        for c in old.cards:
            old_points.setdefault(c.card, []).extend(c.points_mm)
        for c in view.cards:
            prev = old_points.get(c.card)
            if not prev:
                continue
            cur = np.asarray(c.points_mm)[:, None, :]
            d = np.linalg.norm(cur - np.asarray(prev)[None, :, :], axis=2).min(axis=1)
            if tolerance_mm < float(d.min()) < corner_gap_mm:
                moving.add(name)
                break
    return moving
