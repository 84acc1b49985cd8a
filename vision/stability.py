"""The stability filter: publish a table state only when it has been steady for ``settle_s``.

Every frame's view goes into a window of the last ``settle_s`` seconds. For each zone, a card counts as
present when it was seen there in at least ``present_above`` of the window's frames and as absent below
``absent_below``; anything in between (a card arriving, leaving, or read only now and then) means the
zone is still changing. A zone is *settled* when none of its cards is in between, its backs count is
agreed by ``present_above`` of the frames, and nothing moved in it (motion from the image, or a card
that shifted) during the window. A zone that is not settled keeps its last published state.

``scope="table"`` publishes only when every zone is settled at once (turn games: nothing half-done is
ever published). ``scope="zone"`` publishes each zone as soon as it settles while others are held
(games where players play at the same time, Stress and Zenuwen, where the whole table is seldom calm).
A state is published when it differs from the last one published. The same table again with fewer
zones held is not published, but kept once for the referee (:meth:`StabilityFilter.take_clearer`),
and :meth:`StabilityFilter.glimpse` gives a first look at a few squared piles before they settle.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Iterable, Literal

import numpy as np

from vision.pile_assignment import OFF, CardInZone, FrameView
from vision.table_state import Key, PileState, SeenCard, TableState

CardKey = tuple[str, int]
"""A card code and which copy of it in the zone (0, or 1 for a second deck's card)."""


@dataclass(frozen=True)
class Vote:
    settled: bool
    pile: PileState
    why: str = ""
    flaky: bool = False
    """Unsettled only because some card or back is seen now and then (no motion): a longer look may settle it."""
    places: tuple[float, ...] = ()
    """Each card's place along a fan (mm), as ``pile.cards``; empty for squared piles."""
    doubt: bool = False
    """Unsettled only because the camera doubts what it reads there with nothing moving (a card or a
    back stopped showing): the rest of the table does not wait for it (:meth:`StabilityFilter._compose`)."""


def _keys(cards: list[str]) -> list[CardKey]:
    seen: Counter[str] = Counter()
    out = []
    for c in cards:
        out.append((c, seen[c]))
        seen[c] += 1
    return out


def _median_place(hits: list[tuple[float, float, int]]) -> float:
    places = sorted(h[0] for h in hits)
    return places[len(places) // 2]


def _back_groups(places: list[tuple[float, int]], gap: float) -> list[set[int]]:
    """Face-down cards across the window: places closer than ``gap`` (mm along the fan) are one card;
    each group gives the set of frames that saw it."""
    groups: list[set[int]] = []
    last = None
    for place, frame in sorted(places):
        if last is None or place - last > gap:
            groups.append(set())
        groups[-1].add(frame)
        last = place
    return groups


SAME_INDEX_MM = 2.0
"""Two readings in a fan this close along it are one index: a card laid on another, even so tightly
that it hides the index under it, lies farther on (4 mm in the tightest test)."""

HIDDEN_SUIT_MM = 20.0
"""A card laid on a fan's card hides the lower part of its index, the suit first: what still shows, the
rank, is boxed nearer the card's top edge, so that its place falls short of the card's by up to half a
big index (10.7 mm for kennard_big at 1280x720). A new reading of a covered card's rank this far short
of it is that card, its suit guessed (:meth:`StabilityFilter._twin_reading`)."""

TWIN_STEP_SHARE = 0.7
"""A new reading in a tableau, between a published card's neighbours, is that card read otherwise when
it lies closer to the card's place than this share of the fan step there (:meth:`StabilityFilter._twin_place`)."""


def _settled(votes: dict[str, Vote], zone: str) -> bool:
    """Whether ``zone`` settled this frame. A card a hand carries shows in zones that have not: a reading
    in a settled zone that its pile does not hold is a misread (a QC read 10C now and then held the
    table of fresh truth video seed 308 for 1.5 s, the 10C of another column taken for one in a hand)."""
    vote = votes.get(zone)
    return vote is not None and vote.settled


class StabilityFilter:
    def __init__(
        self,
        zones: dict[str, bool],
        *,
        settle_s: float = 0.25,
        min_frames: int = 3,
        present_above: float = 0.75,
        absent_below: float = 0.25,
        scope: Literal["table", "zone"] = "table",
        decks: int = 1,
        back_gap_mm: float = 8.0,
        same_place_mm: float = 10.0,
        same_spot_mm: float = 5.0,
        vanish_hold_s: float = 2.0,
        slow_settle_s: float = 1.0,
        slow_present_above: float = 0.4,
        slow_absent_below: float = 0.15,
        new_absent_below: float = 0.34,
        keep_covered: frozenset[str] = frozenset(),
    ) -> None:
        """``zones``: zone name -> whether it is fanned (ordered by place) or squared (ordered by arrival)."""
        self.fanned = dict(zones)
        self.fanned.setdefault(OFF, False)
        self.settle_s = settle_s
        self.min_frames = min_frames
        self.hi = present_above
        self.lo = absent_below
        self.scope = scope
        self.decks = decks
        self.back_gap_mm = back_gap_mm
        self.same_place_mm = same_place_mm
        self.same_spot_mm = same_spot_mm
        self.vanish_hold_s = vanish_hold_s
        self.slow_s = max(slow_settle_s, settle_s)
        self.slow_hi = slow_present_above
        self.slow_lo = slow_absent_below
        self.new_lo = new_absent_below
        self.keep_covered = keep_covered
        self.history: deque[FrameView] = deque()
        self._moved_since_published: set[str] = set()
        self._unmeasured_since_published = False  # a frame without motion measured since: moved unknown
        self._candidate_since: dict[str, tuple[Key, float]] = {}
        self._last_t: float | None = None
        self.blind_gap_s = max(0.2, settle_s)
        self._steady_since: dict[str, tuple[tuple[str, ...], float]] = {}
        self.window: deque[FrameView] = deque()
        self.first_t: float | None = None
        self.published: TableState | None = None
        self.clearer: TableState | None = None
        self._stack_order: dict[str, list[CardKey]] = {}
        self._places: dict[str, dict[str, float]] = {}
        """Zone -> card -> its place along the fan when last published."""
        self.last_votes: dict[str, Vote] = {}

    def push(self, view: FrameView) -> TableState | None:
        """Add one frame; returns a new table state when one is published."""
        if self.first_t is None:
            self.first_t = view.t
        self.window.append(view)
        while len(self.window) > self.min_frames and self.window[0].t <= view.t - self.settle_s:
            self.window.popleft()  # (at a low frame rate the window stretches to min_frames frames)
        self.history.append(view)
        while len(self.history) > self.min_frames and self.history[0].t <= view.t - self.slow_s:
            self.history.popleft()
        covered = view.t - self.first_t >= self.settle_s and len(self.window) >= self.min_frames
        slow_covered = view.t - self.first_t >= self.slow_s and len(self.history) >= self.min_frames
        votes = {}
        for name in self.fanned:
            vote = self._vote(name, covered, self.window, self.hi, self.lo)
            if not vote.settled and vote.flaky and slow_covered:
                slow = self._vote(name, True, self.history, self.slow_hi, self.slow_lo)
                if slow.settled:
                    vote = slow
            votes[name] = vote
        self._moved_since_published |= view.moving
        self._unmeasured_since_published |= not view.motion_measured
        if self._last_t is not None and view.t - self._last_t > self.blind_gap_s:
            self._moved_since_published |= set(self.fanned)  # frames were lost: anything may have moved
        self._last_t = view.t
        if view.motion_measured:
            votes = self._hold_unmoved(votes, view.t)
        votes = self._keep_covered_cards(votes, view)
        votes = self._hold_vanished(votes, view)
        self.last_votes = votes
        state = self._compose(votes, view)
        if state is None:
            return None
        if state.same_table(self.published):
            if self._fewer_held(state):
                self.published = self.clearer = state
            return None
        self._moved_since_published -= {z for z, v in votes.items() if v.settled}
        self._unmeasured_since_published = False
        self.published = state
        for z, v in votes.items():
            if v.settled and v.places:
                self._places[z] = dict(zip(v.pile.codes, v.places))
        return state

    def take_clearer(self) -> TableState | None:
        """The published table seen again with fewer zones held, once (None when there is none)."""
        clearer, self.clearer = self.clearer, None
        return clearer

    def _fewer_held(self, state: TableState) -> bool:
        """Zones published as held that now settled with the same cards. Not a new table (not published),
        but news to a referee that waits to see them (a Stress view that would make a call while a row
        was under a hand): kept as ``clearer`` for :meth:`take_clearer`."""
        return self.published is not None and set(state.held) < set(self.published.held)

    def _hold_unmoved(self, votes: dict[str, Vote], now: float) -> dict[str, Vote]:
        """Cards do not come or go without a hand: a zone whose pile differs from the published one while
        nothing moved there since is misread for now, unless that reading has lasted ``slow_s``."""
        if self.published is None:
            return votes
        out = dict(votes)
        for zone, vote in votes.items():
            key: Key = ((("", vote.pile.backs, vote.pile.codes),), ())
            first = self._candidate_since.get(zone)
            if first is None or first[0] != key:
                self._candidate_since[zone] = first = (key, now)
            if not vote.settled or zone in self._moved_since_published:
                continue
            before = self._published_pile(zone)
            if (vote.pile.backs, vote.pile.codes) != (before.backs, before.codes) and now - first[1] < self.slow_s:
                if vote.pile.codes == before.codes:  # only the count of backs flickers: keep the old one
                    out[zone] = replace(vote, pile=replace(vote.pile, backs=before.backs))
                elif self._under_top_only(zone, vote.pile, before):
                    out[zone] = replace(vote, pile=before)
                else:
                    out[zone] = Vote(False, vote.pile, "changed with nothing moving there: a misreading?", doubt=True)
        return out

    # -- one zone -------------------------------------------------------------------------------
    def _vote(self, zone: str, covered: bool, window: deque[FrameView], hi: float, lo: float) -> Vote:
        """The zone's pile over ``window``: present at a share of frames >= ``hi``, absent <= ``lo``."""
        n = len(window)
        seen: dict[CardKey, list[tuple[float, float, int]]] = {}
        spots: dict[CardKey, list[tuple[float, float]]] = {}
        back_places: list[tuple[float, int]] = []
        moved = False
        for i, view in enumerate(window):
            zv = view.zones.get(zone)
            # a frame's motion is its difference from the frame before; the window's first frame's
            # difference lies before the window, so only the later ones say the window was not steady
            moved = moved or (i > 0 and zone in view.moving)
            if zv is None:
                continue
            back_places.extend((place, i) for place in zv.back_places)
            for key, c in zip(_keys([c.card for c in zv.cards]), zv.cards):
                seen.setdefault(key, []).append((c.place, c.confidence, i))
                spots.setdefault(key, []).extend(c.points_mm)
        before = self._published_pile(zone)
        known = set(_keys(list(before.codes)))
        seen = self._one_reading_per_place(zone, seen, known, spots, self.fanned[zone])
        present: list[CardKey] = []
        between = []
        for key, hits in seen.items():
            share = len(hits) / n
            if share >= hi or (key in known and share > lo):
                present.append(key)  # a published card stays while it is seen now and then
            elif share > (lo if key in known else max(lo, min(self.new_lo, hi - 0.01))):
                between.append(key)  # (a card not published yet, seen once or twice, is a misreading)
        fading = [k for k in present if k in known and len(seen[k]) / n < hi]
        if fading and any(k not in known for k in present):
            between += fading  # an old card fading out as a new one comes in: a change under way
            present = [k for k in present if k not in fading]
        back_shares = [len(frames) / n for frames in _back_groups(back_places, self.back_gap_mm)]
        sure = sum(1 for share in back_shares if share >= hi)
        maybe = sum(1 for share in back_shares if share > lo)
        keep_backs = self.published is not None and sure <= before.backs <= maybe
        backs_between = sure != maybe and not keep_backs
        back_count = before.backs if sure != maybe and keep_backs else sure
        back_share = min([share for share in back_shares if share > lo], default=1.0)
        ordered = self._order(zone, present, seen)
        cards = tuple(SeenCard(k[0], sum(h[1] for h in seen[k]) / n) for k in ordered)
        if not cards and not back_count and not between and not self.fanned[zone]:
            cards = self._faint_card(zone, window)
        places = tuple(_median_place(seen[k]) for k in ordered) if self.fanned[zone] else ()
        pile = PileState(back_count, cards, back_share)
        why = ("not enough frames yet" if not covered else "motion" if moved
               else f"changing: {sorted(k[0] for k in between)}" if between
               else "backs changing" if backs_between else "")
        settled = not why
        if settled and not self.fanned[zone]:
            self._stack_order[zone] = ordered
        return Vote(settled, pile, why, flaky=covered and not moved and bool(between or backs_between), places=places)

    def _one_reading_per_place(
        self,
        zone: str,
        seen: dict[CardKey, list[tuple[float, float, int]]],
        known: set[CardKey],
        spots: dict[CardKey, list[tuple[float, float]]],
        fanned: bool,
    ) -> dict[CardKey, list[tuple[float, float, int]]]:
        """One index read as one code in some frames and as another in the rest (9C / 8C) is one card,
        the better supported reading (a published one counts half again); it is seen in the frames of
        both readings, its confidence comes from its own readings only. In a fan two cards cannot lie
        within ``same_place_mm`` along it, and in a tableau a new reading is a published card's twin where
        :meth:`_twin_place` says so. In a squared pile a card laid on the top card lies where
        that one lay, so there only readings at one spot (within ``same_spot_mm``) that alternate from
        frame to frame count; one reading giving way to another is a card laid on it."""
        def place(k: CardKey) -> float:
            return _median_place(seen[k])

        known_codes = {k[0] for k in known}
        twins = fanned and zone in self.keep_covered  # a pile that keeps its cards (a tableau, not a waste)

        def support(k: CardKey) -> float:
            return sum(h[1] for h in seen[k]) * (1.5 if k in known else 1.0)

        def same(a: CardKey, b: CardKey) -> bool:
            if a[0] == b[0]:
                return False
            if fanned:
                if abs(place(b) - place(a)) < self.same_place_mm:
                    return True
                return twins and any(old[0] in known_codes and new[0] not in known_codes
                                     and self._twin_place(zone, old[0], place(new)) for old, new in ((a, b), (b, a)))
            fa, fb = sorted(h[2] for h in seen[a]), sorted(h[2] for h in seen[b])
            alternate = fa[0] < fb[-1] and fb[0] < fa[-1]
            pa, pb = np.asarray(spots[a]), np.asarray(spots[b])
            near = float(np.linalg.norm(pa[:, None, :] - pb[None, :, :], axis=2).min()) < self.same_spot_mm
            return alternate and near

        out = dict(seen)
        keys = sorted(seen, key=place)
        for a, b in combinations(keys, 2):
            if a not in out or b not in out or not same(a, b):
                continue
            keep, drop = (a, b) if support(a) >= support(b) else (b, a)
            frames = {h[2] for h in out[keep]}
            out[keep] = out[keep] + [(p, 0.0, i) for p, _, i in out[drop] if i not in frames]
            del out[drop]
        return out

    def _under_top_only(self, zone: str, pile: PileState, before: PileState) -> bool:
        """In a fan whose cards are covered by the next ones (a draw-3 waste), only cards under an
        unchanged top read now and then: that is no change (the published pile stays), and it must
        not hold the table while the readings flicker."""
        return (self._covering_fan(zone) and bool(pile.codes)
                and pile.codes[-1:] == before.codes[-1:] and pile.backs == before.backs)

    def _covering_fan(self, zone: str) -> bool:
        """A fan whose cards are covered by the next ones, and leave it from the top (a waste, not a
        column: a column's covered cards are :meth:`_keep_covered_cards`'s)."""
        return self.fanned[zone] and zone not in self.keep_covered

    def glimpse(self, zones: Iterable[str], quick_s: float = 0.1, min_frames: int = 2,
                shift_mm: float = 5.0) -> TableState | None:
        """A first look at ``zones`` before they are steady, for calls that must come faster than a
        table can settle (a stress, S8, while the playing hand still refills its row). In each zone, a
        card not in its published pile that every frame of the last ``quick_s`` (at least
        ``min_frames``) reads, lying still (its indices moved less than ``shift_mm``), is taken as the
        new top of that squared pile. Returns the published table with those tops added and every
        other zone held (not to be judged), or None when no zone shows exactly one such card.

        Not a published state (it may be a card still in a hand held still over the pile): it goes to
        the referee alone, which takes it only when it makes the call, never to STATES.jsonl."""
        if self.published is None:
            return None
        recent = [v for v in self.history if v.t >= self.history[-1].t - quick_s - 1e-6] if self.history else []
        if len(recent) < min_frames:
            recent = list(self.history)[-min_frames:]
        if len(recent) < min_frames:
            return None
        piles = dict(self.published.piles)
        changed = False
        wanted = set(zones)
        for zone in wanted:
            if self.fanned.get(zone, True):
                continue  # fans settle through the window; only squared piles' tops are glimpsed
            before = self._published_pile(zone)
            new = self._still_newcomers(zone, recent, set(before.codes), shift_mm)
            if len(new) == 1:
                piles[zone] = replace(before, cards=before.cards + new)
                changed = True
        if not changed:
            return None
        last = recent[-1]
        held = tuple(sorted(z for z in self.fanned if z != OFF and z not in wanted))
        return TableState(last.t, last.index, piles, self.published.off, held)

    @staticmethod
    def _still_newcomers(zone: str, frames: list[FrameView], old: set[str], shift_mm: float) -> tuple[SeenCard, ...]:
        """Cards read in ``zone`` in every one of ``frames``, not in ``old``, that did not move."""
        readings: dict[str, list[CardInZone]] = {}
        for view in frames:
            zv = view.zones.get(zone)
            codes = {c.card: c for c in zv.cards} if zv is not None else {}
            for code, card in codes.items():
                readings.setdefault(code, []).append(card)
        out = []
        for code, seen in readings.items():
            if code in old or len(seen) < len(frames):
                continue
            # the nearest indices of the first and last reading (a card may show one index, then two)
            shift = min(float(np.hypot(a[0] - b[0], a[1] - b[1])) for a in seen[0].points_mm for b in seen[-1].points_mm)
            if shift <= shift_mm:
                out.append(SeenCard(code, float(np.mean([c.confidence for c in seen]))))
        return tuple(out)

    def first_face_place(self, zone: str) -> float | None:
        """Where the first (lowest) face-up card of ``zone``'s published pile lay along its fan."""
        pile = self._published_pile(zone)
        return self._places.get(zone, {}).get(pile.cards[0].card) if pile.cards else None

    def _published_pile(self, zone: str) -> PileState:
        if self.published is None:
            return PileState()
        if zone == OFF:
            return PileState(0, self.published.off)
        return self.published.piles.get(zone, PileState())

    def _order(self, zone: str, present: list[CardKey], seen: dict[CardKey, list[tuple[float, float, int]]]) -> list[CardKey]:
        if self.fanned[zone]:
            return sorted(present, key=lambda k: _median_place(seen[k]))
        before = [k for k in self._stack_order.get(zone, []) if k in present]
        # Of the cards come onto a squared pile, the one seen first lies lower. Two seen first together:
        # the top card shows its whole face and reads more surely than a sliver of one under it (Stress
        # 124: a 3D laid on a centre pile read at 0.74, and beside it a KD at 0.40 that no card there
        # was; put on top, the KD left the lay unexplained for four seconds and the stress called late).
        new = sorted((k for k in present if k not in before), key=lambda k: (seen[k][0][2], sum(h[1] for h in seen[k])))
        return before + new

    def _taken_for_backs(self, zone: str, pile: PileState, before: PileState) -> int:
        """How many of a column's published first face-up cards, none of them read now, are counted as
        backs beyond the published count (0 for other zones)."""
        if zone not in self.keep_covered or pile.backs <= before.backs:
            return 0
        codes = set(pile.codes)
        lost = 0
        for c in before.cards:
            if c.card in codes:
                break
            lost += 1
        return min(lost, pile.backs - before.backs)

    def _hold_vanished(self, votes: dict[str, Vote], view: FrameView) -> dict[str, Vote]:
        """Hold a settled zone that lost published cards which did not settle anywhere else: while such a
        card is still seen somewhere (carried in a hand), or, when nothing new came on top in its place,
        until that has lasted ``vanish_hold_s`` (a still hand covering it, or a card that left the table)."""
        if self.published is None:
            return votes
        now = view.t
        out = dict(votes)
        published_codes = {c for p in self.published.piles.values() for c in p.codes}
        new_faces = any(c not in published_codes for v in votes.values() if v.settled for c in v.pile.codes)
        # cards turned face down somewhere (the waste turned over onto the stock) explain vanished faces
        new_backs = any(v.pile.backs > self._published_pile(z).backs for z, v in votes.items() if v.settled)
        for zone, vote in votes.items():
            if zone == OFF or not vote.settled:
                self._steady_since.pop(zone, None)
                continue
            codes = vote.pile.codes
            first = self._steady_since.get(zone)
            if first is None or first[0] != codes:
                self._steady_since[zone] = first = (codes, now)
            before = self.published.piles.get(zone)
            if before is None:
                continue
            taken = self._taken_for_backs(zone, vote.pile, before)
            if taken:
                # a column's face-down cards never grow under its face-up ones (they are only ever turned
                # up): its first face-up cards, no longer read, where as many more backs are counted, are
                # those cards, their court pictures taken for backs (penguins, draw 3, seed 701: a KH
                # counted as a fifth back once a QC lay on it, the column published as 5 backs and a 9C)
                cards = tuple(replace(c, confidence=c.confidence / 2) for c in before.cards[:taken]) + vote.pile.cards
                old_places = [self._places.get(zone, {}).get(c.card) for c in before.cards[:taken]]
                places = (tuple(p for p in old_places if p is not None) + vote.places
                          if None not in old_places and len(vote.places) == len(vote.pile.cards) else ())
                out[zone] = vote = replace(vote, pile=replace(vote.pile, backs=vote.pile.backs - taken, cards=cards), places=places)
                codes = vote.pile.codes
                self._steady_since[zone] = first = (codes, first[1])
            if vote.pile.backs < before.backs and self.fanned[zone] and codes[:1] == before.codes[:1] != ():
                # a fan's face-down cards lie under its first face-up card: while that card stays, so do
                # they (counted from their edges, they are missed under a brighter lamp or on a white
                # check of the cloth, never made up)
                out[zone] = vote = replace(vote, pile=replace(vote.pile, backs=before.backs))
            gone = [c for c in before.codes if c not in codes]
            # a fan's back goes only by being turned up there; a squared stock's as its cards are dealt
            turned_up = any(c not in before.codes for c in codes) if self.fanned[zone] else new_faces
            if vote.pile.backs < before.backs and not turned_up and now - first[1] < self.vanish_hold_s:
                # its face-up cards went to another pile, and the back they lay on was turned up (K6),
                # too faint to read: a column of backs, not a card gone (Double Solitaire penguins seed
                # 37: a far column's 10C turned up under a 3S never boxed held the table until the next
                # move came, and the two were published as one view). The top card tells: the run under
                # it may be read too faintly to be found where it went (Klondike penguins seed 781: 8D 7C
                # 6D moved, only the 6D found on the 9C)
                moved_off = not codes and self.fanned[zone] and self._top_settled_elsewhere(votes, zone, before)
                if codes == before.codes:  # a back missed for now: keep the count, not the whole table
                    out[zone] = replace(vote, pile=replace(vote.pile, backs=before.backs))
                elif not moved_off:
                    out[zone] = Vote(False, vote.pile, "face-down cards vanished, nothing turned up", doubt=True)
                continue
            if not gone:
                continue
            settled_elsewhere: Counter[str] = Counter()
            seen_elsewhere: set[str] = set()
            for other, v in votes.items():
                if other != zone and v.settled:
                    settled_elsewhere.update(v.pile.codes)
                if other != zone and other in view.zones and not _settled(votes, other):
                    seen_elsewhere.update(c.card for c in view.zones[other].cards)
            lost = [c for c in gone if settled_elsewhere[c] == 0]
            carried = [c for c in lost if c in seen_elsewhere]
            came = [c for c in codes if c not in before.codes]
            if carried:
                out[zone] = Vote(False, vote.pile, f"card in hand: {carried}")
            elif lost and not came and (faint := self._faint_top(zone, vote.pile)) is not None:
                # (whatever turned face down elsewhere: a reading in most frames says a card lies here)
                out[zone] = replace(vote, pile=faint)
            elif lost and not came and (kept := self._still_under(zone, vote, before, lost)) is not None:
                out[zone] = kept
            elif lost and not came and not new_backs and now - first[1] < self.vanish_hold_s:
                # (cards only under an unchanged waste top were kept by _still_under above)
                out[zone] = Vote(False, vote.pile, f"vanished, maybe covered: {lost}", doubt=True)
        return out

    def _top_settled_elsewhere(self, votes: dict[str, Vote], zone: str, before: PileState) -> bool:
        """Has the top card ``zone`` showed (``before``) newly settled in another zone?"""
        return bool(before.codes) and any(
            before.codes[-1] in v.pile.codes and before.codes[-1] not in self._published_pile(other).codes
            for other, v in votes.items() if other != zone and v.settled)

    def _still_under(self, zone: str, vote: Vote, before: PileState, lost: list[str]) -> Vote | None:
        """In a fan whose cards are covered by the next ones (a draw-3 waste) cards leave from the top
        only: published cards that stopped showing, all below a published card that still shows, lie
        there still, covered or read too weakly (penguins, draw 3, seed 602: once the AH above them
        went up, the 3H under the 8H was read at 0.1-0.28, and "vanished" held the whole table for 9 s
        while hands passed and two moves went by). The pile is the published one up to the highest
        card that still shows, less the cards that settled elsewhere; a lost card above it is a card
        that went somewhere, and holds the zone as before."""
        if not self._covering_fan(zone) or not vote.pile.codes:
            return None
        order = list(before.codes)
        if any(c not in order for c in vote.pile.codes):
            return None
        top = max(order.index(c) for c in vote.pile.codes)
        if any(order.index(c) > top for c in lost):
            return None
        now = dict(zip(vote.pile.codes, vote.pile.cards))
        old_places = self._places.get(zone, {})
        seen_places = dict(zip(vote.pile.codes, vote.places))
        cards, places = [], []
        for c in before.cards[:top + 1]:
            if c.card in now or c.card in lost:
                cards.append(now.get(c.card, SeenCard(c.card, c.confidence / 2)))
                places.append(seen_places.get(c.card, old_places.get(c.card)))
        pile = replace(vote.pile, cards=tuple(cards))
        return Vote(True, pile, places=tuple(p for p in places if p is not None) if None not in places else ())

    def _faint_top(self, zone: str, pile: PileState) -> PileState | None:
        """A fanned pile whose published top vanished while nothing readable shows there, but a reading
        too weak to stand for a card does in most frames: a card lies there, not read. Published with
        its weak score, so that a referee takes it for a card it cannot read (the camera's guess in
        hand) instead of the whole table being held until the next draw covers it (penguins seed 15: a
        10H drawn on the waste, read at 0.17-0.33, lay there 3 s and its draw was never seen), or the
        pile taken for empty (penguins, draw 3, seed 48: the first column's lone 6S, read at 0.08-0.36,
        published as an empty column, and its card taken for moved). (A squared pile gets its faint
        card in :meth:`_vote`, whatever was published before.)"""
        if not self.fanned[zone] or pile.codes:
            return None
        faint = self._faint_card(zone, self.window)
        return replace(pile, cards=faint) if faint else None

    def _faint_card(self, zone: str, window: deque[FrameView]) -> tuple[SeenCard, ...]:
        """The reading too weak to stand for a card that shows in the zone in most frames of ``window``
        (the best supported one, with its mean score over the window), or none. A squared pile that
        shows nothing readable and no back, but such a reading, holds a card the camera cannot read
        (a far seat's cards, their indices a few pixels high: four players, seed 27, a queen of
        diamonds read at 0.18-0.25 in every frame was published as an empty pile for the whole game)."""
        frames = [view.faint.get(zone, []) for view in window]
        if not frames or sum(1 for f in frames if f) < self.hi * len(frames):
            return ()
        scores: dict[str, float] = {}
        for readings in frames:
            for code, score in readings:
                scores[code] = scores.get(code, 0.0) + score
        code = max(scores, key=lambda c: scores[c])
        return (SeenCard(code, scores[code] / len(frames)),)

    def _keep_covered_cards(self, votes: dict[str, Vote], view: FrameView) -> dict[str, Vote]:
        """In a fanned pile that keeps its cards (a tableau, not a waste) cards come off the top only: a
        published card that stopped showing while a card above it still shows (or new cards came on top),
        and that shows nowhere else, is covered (a card laid too close, a finger): it stays in the pile.
        Not when the nearest card above it that shows now shows in another pile: they left together,
        as a run, and the card unseen there is one the camera missed where it went."""
        if self.published is None or not self.keep_covered:
            return votes
        out = dict(votes)
        for zone in self.keep_covered:
            vote = votes.get(zone)
            before = self._published_pile(zone)
            if vote is None or not vote.settled or not before.cards:
                continue
            codes = vote.pile.codes
            gained = any(c not in before.codes for c in codes)
            elsewhere = {c for z, v in votes.items() if z != zone for c in v.pile.codes}
            elsewhere |= {c.card for z, zv in view.zones.items() if z != zone and not _settled(votes, z) for c in zv.cards}
            # the seen cards in the order of their places; each covered card goes right above the card
            # it lay on before (as low as it can: the card that hides an index is the one laid over it)
            cards = list(vote.pile.cards)
            places: list[float | None] = list(vote.places) if len(vote.places) == len(cards) else [None] * len(cards)
            old_places = self._places.get(zone, {})
            inferred = False
            for i, c in enumerate(before.cards):
                if c.card in codes:
                    continue
                # the nearest card above it that shows anywhere: still here, it covers it; elsewhere,
                # they left together as a run (cards leave a column from the top: one that stayed
                # above it means it stayed too, whatever left higher up)
                above = next((b.card for b in before.cards[i + 1:] if b.card in codes or b.card in elsewhere), None)
                was = old_places.get(c.card)
                # a new card covers it only if it lies over it, beyond its place: a card turned up where
                # the top card left lies below that place (penguins seed 13: an unread QH that left was
                # kept under the 2C turned up in its column), and one read where it lay is that card read
                # otherwise (simplistic seed 311: a 3S read 3C at last, 0.1 mm beyond, was published as a
                # 3C laid on the 3S)
                laid_on = gained if was is None else any(
                    x.card not in before.codes and p is not None and p > was + SAME_INDEX_MM
                    for x, p in zip(cards, places))
                # (a card above it that shows here and elsewhere is still here: with two decks the other
                # copy, as a 9D drawn by the other player of Double Solitaire, kennard seed 60, whose
                # column's 10S under its own 9D, read KS, was then published as a KS)
                if c.card not in elsewhere and (above in codes or above not in elsewhere) and (laid_on or above is not None):
                    twin = self._twin_reading(zone, c, was, cards, places, before, above)
                    if twin is not None:
                        cards[twin] = SeenCard(c.card, c.confidence / 2)
                    else:
                        below = before.cards[i - 1].card if i else None
                        at = next((k + 1 for k, x in enumerate(cards) if x.card == below), 0)
                        cards.insert(at, SeenCard(c.card, c.confidence / 2))
                        places.insert(at, was)
                    inferred = True
            if inferred:
                pile = PileState(vote.pile.backs, tuple(cards), vote.pile.backs_confidence)
                out[zone] = Vote(True, pile, places=tuple(p if p is not None else 0.0 for p in places))
        return out

    def _twin_reading(self, zone: str, covered: SeenCard, was: float | None, cards: list[SeenCard],
                      places: list[float | None], before: PileState, above: str | None) -> int | None:
        """Where a covered card of a fan shows read as another card now (9C / 8C), the index in ``cards`` of
        that reading; the published card stays. Such a reading is new to the pile and either lies right
        where the card lay and is less sure, or, under a card above it that still shows, is its twin
        (:meth:`_twin_place`), or is of its rank and falls short of it by up to :data:`HIDDEN_SUIT_MM` (its
        suit covered: a guess, less telling than the suit read before; nothing new comes under a card).
        Farther off, it is a card the camera had not read there before."""
        best: tuple[float, int] | None = None
        for k, (x, p) in enumerate(zip(cards, places)):
            if x.card in before.codes or p is None:
                continue
            near = was is not None and abs(p - was) < self.same_place_mm and x.confidence < covered.confidence
            near |= was is not None and x.card[:-1] == covered.card[:-1] and -HIDDEN_SUIT_MM < p - was <= 0
            # (``above`` is the nearest card above it that shows, and it shows here: the caller keeps
            # no card whose nearest shown card above went elsewhere)
            if near or (above is not None and self._twin_place(zone, covered.card, p)):
                gap = abs(p - was) if was is not None else 0.0
                if best is None or gap < best[0]:
                    best = (gap, k)
        return None if best is None else best[1]

    def _twin_place(self, zone: str, code: str, place: float) -> bool:
        """Whether a new reading at ``place`` in a fan is published card ``code`` read otherwise: it lies
        between the published cards below and above it (cards are laid on a fan's top only, so nothing
        new comes under a card) and closer to where ``code`` lay than ``TWIN_STEP_SHARE`` of the fan's
        step there, the nearer of its neighbours (a card unread between two makes one gap two steps).
        An 8S was read 8D half a card lower, 10.7 mm, in fresh truth video seed 308."""
        codes = self._published_pile(zone).codes
        old = self._places.get(zone, {})
        if code not in codes or code not in old:
            return False
        i, was = codes.index(code), old[code]
        below = old.get(codes[i - 1]) if i > 0 else None
        above = old.get(codes[i + 1]) if i + 1 < len(codes) else None
        if above is None:
            return False  # the top card: a new reading beyond it may be a card laid on it
        step = min(abs(n - was) for n in (below, above) if n is not None)
        return abs(place - was) < TWIN_STEP_SHARE * step and (below is None or place > below) and place < above

    # -- the table ------------------------------------------------------------------------------
    def _compose(self, votes: dict[str, Vote], view: FrameView) -> TableState | None:
        """The table to publish, or None. Scope ``table``: once every zone settled, or once every zone
        not settled only doubts what it reads with nothing moving there; those are published held, with
        their published piles (a card the detector finds now and then held a whole Klondike table
        for 22 s, while the draws went by unpublished). Scope ``zone``: any zone still changing is held."""
        if all(v.settled for v in votes.values()):
            return self._state(view, {z: v.pile for z, v in votes.items()}, ())
        if self.published is None or (self.scope == "table" and not all(v.settled or v.doubt for v in votes.values())):
            return None
        piles: dict[str, PileState] = {}
        held: list[str] = []
        previous = dict(self.published.piles)
        previous[OFF] = PileState(0, self.published.off)
        for zone, vote in votes.items():
            if vote.settled:
                piles[zone] = vote.pile
            else:
                piles[zone] = previous.get(zone, PileState())
                held.append(zone)
        if self._stale_copies(piles, held):
            return None  # a card left a zone that is still changing: wait until that zone settles too
        return self._state(view, piles, tuple(z for z in held if z != OFF))

    def _stale_copies(self, piles: dict[str, PileState], held: list[str]) -> bool:
        """Whether a card that newly settled somewhere is still shown by a held zone (it probably came
        from there, and that zone is still changing). With two decks it may be the other copy; waiting
        for the held zone to settle costs only time."""
        assert self.published is not None
        held_codes = {c for zone in held for c in piles[zone].codes}
        if not held_codes:
            return False
        for zone, pile in piles.items():
            if zone in held:
                continue
            before = self.published.piles.get(zone) if zone != OFF else PileState(0, self.published.off)
            old = set(before.codes) if before is not None else set()
            if any(c in held_codes for c in pile.codes if c not in old):
                return True
        return False

    def _state(self, view: FrameView, piles: dict[str, PileState], held: tuple[str, ...]) -> TableState:
        off = piles.pop(OFF, PileState())
        # (the referee weighs a reading that changed where nothing moved as a misreading, not a move)
        moved = None if self._unmeasured_since_published else tuple(sorted(self._moved_since_published - {OFF}))
        return TableState(view.t, view.index, piles, off.cards, held, moved)
