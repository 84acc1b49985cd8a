"""The replay source: a recorded Klondike game played through the rules engine into the hub.

For development, tests, screenshots and ``cardref serve --replay``: it is **not** a camera. It takes
the game that ships in ``cardref/demo/`` (or any deal + moves), slips in one illegal move (as
``cardref demo`` does), judges every move with :mod:`referee.klondike`, records the game with
:mod:`cardref.gamelog` and publishes exactly what the live pipeline publishes (``status``, ``frame``,
``state``, ``verdict``, ``call``). Its pictures are drawn from the engine's state (plain rectangles
with the card codes, labelled REPLAY), so the live page has something to outline; the recognised
cards it reports are the true ones.

It also answers the page's commands (pause, resume, end, start again, a correction, a slap) the way
the live pipeline is meant to, so the pages can be tried end to end without a camera.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable, Sequence

from cardref.gamelog import GameStore, GameWriter
from referee import klondike
from referee.klondike import KlondikeState, Move
from referee.verdict import Event, Illegal

from .hub import Command, Hub
from .messages import (
    call_message,
    correction_message,
    frame_message,
    klondike_cards_involved,
    state_message,
    status_message,
    verdict_message,
)

logger = logging.getLogger(__name__)

FRAME_W, FRAME_H = 1280, 960
MARKER_MM = 60.0
"""The replay's table carries the four ``corners`` ArUco markers (calibration.markers) around the
Klondike zone template, so the set-up page can calibrate from it and check the zones."""
CARD_MM = (63.0, 88.0)
INSET_MM = 8.5
DOWN_MM, UP_MM, WASTE_MM = 10.0, 22.0, 18.0
SOURCE_NAME = "replay of a recorded game (no camera)"


def demo_game() -> tuple[klondike.Deal, list[Move]]:
    """The recorded Klondike game that ships with cardref (draw 3, won)."""
    folder = resources.files("cardref") / "demo"
    deal = klondike.Deal.from_json(json.loads((folder / "klondike.deal.json").read_text()))
    lines = (folder / "klondike.moves.jsonl").read_text().splitlines()
    return deal, [Move.from_json(json.loads(line)) for line in lines if line.strip()]


def with_slip(moves: Sequence[Move], at: int = 1) -> list[Move]:
    """The moves with one deliberate mistake inserted at ``at``: the waste card put on pile t1 (K4)."""
    out = list(moves)
    before = out[at - 1].t if at > 0 and out[at - 1].t is not None else 0.0
    out.insert(at, Move.move("waste", "t1", t=float(before or 0.0) + 1.5))
    return out


# --- drawing ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Picture:
    jpeg: bytes
    width: int
    height: int
    cards: list[dict[str, Any]]


class TableGeometry:
    """Table mm -> replay picture px: the Klondike template (calibration.templates) drawn to scale,
    the play area centred, the ``corners`` markers just outside it."""

    def __init__(self, columns: int = 7) -> None:
        from calibration.templates import template, template_size

        self.layout = template("klondike", 1, columns)
        self.width_mm, self.height_mm = template_size(self.layout)
        span_w, span_h = self.width_mm + 2 * MARKER_MM + 40, self.height_mm + 2 * MARKER_MM + 40
        self.scale = min(FRAME_W / span_w, FRAME_H / span_h)
        self.x0 = (FRAME_W - self.width_mm * self.scale) / 2
        self.y0 = (FRAME_H - self.height_mm * self.scale) / 2
        self.background: Any = None

    def px(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        return int(round(self.x0 + x_mm * self.scale)), int(round(self.y0 + y_mm * self.scale))

    def zone_origin(self, name: str) -> tuple[float, float]:
        x, y = self.layout.by_name(name).polygon_mm[0]
        return x + INSET_MM, y + INSET_MM


def _layout(state: KlondikeState, geo: TableGeometry) -> list[tuple[str | None, float, float, float, float]]:
    """(card code or None for a back, x mm, y mm, visible w mm, visible h mm), bottom to top."""
    from referee.cards import SUITS, card_of

    cw, ch = CARD_MM
    out: list[tuple[str | None, float, float, float, float]] = []
    sx, sy = geo.zone_origin("stock")
    if state.stock:
        out.append((None, sx, sy, cw, ch))
    wx, wy = geo.zone_origin("waste")
    fan = state.waste[-state.rules.draw:] if state.waste else ()
    for i, c in enumerate(fan):
        last = i == len(fan) - 1
        out.append((c.code, wx + i * WASTE_MM, wy, cw if last else WASTE_MM, ch))
    for i, suit in enumerate(SUITS):
        top = state.foundations[i]
        if top:
            fx, fy = geo.zone_origin(f"foundation{i + 1}")
            out.append((card_of(top, suit).code, fx, fy, cw, ch))
    for col, (pile, hidden) in enumerate(zip(state.tableau, state.hidden)):
        x, y = geo.zone_origin(f"tableau{col + 1}")
        for j, c in enumerate(pile):
            last = j == len(pile) - 1
            step = DOWN_MM if j < hidden else UP_MM
            out.append((None if j < hidden else c.code, x, y, cw, ch if last else step))
            y += step
    return out


def _draw_markers(img: "Any", geo: TableGeometry) -> None:
    import cv2

    from calibration.marker_sheet import marker_bits
    from calibration.markers import MarkerLayout

    for m in MarkerLayout.corners(geo.width_mm, geo.height_mm, MARKER_MM).markers:
        q = 6.0  # white quiet zone, mm
        cv2.rectangle(img, geo.px(m.x_mm - q, m.y_mm - q), geo.px(m.x_mm + m.size_mm + q, m.y_mm + m.size_mm + q),
                      (255, 255, 255), -1)
        bits = marker_bits(m.id)
        n = bits.shape[0]
        cell = m.size_mm / n
        for r in range(n):
            for c in range(n):
                if bits[r, c]:
                    a = geo.px(m.x_mm + c * cell, m.y_mm + r * cell)
                    b = geo.px(m.x_mm + (c + 1) * cell, m.y_mm + (r + 1) * cell)
                    cv2.rectangle(img, a, (b[0] - 1, b[1] - 1), (0, 0, 0), -1)


_GEOMETRY: dict[int, TableGeometry] = {}


def render(state: KlondikeState, *, quality: int = 80) -> Picture:
    """A top-down picture of the position, as a camera would see the table (cards where the zone
    template puts them, the corner markers around), and the visible cards with their boxes (the
    whole visible part of each face-up card)."""
    import cv2
    import numpy as np

    columns = len(state.tableau)
    geo = _GEOMETRY.setdefault(columns, TableGeometry(columns))
    if geo.background is None:
        plain = np.empty((FRAME_H, FRAME_W, 3), np.uint8)
        plain[:] = (60, 110, 40)  # felt green (BGR)
        felt = cv2.add(plain, np.random.default_rng(7).integers(0, 12, plain.shape, dtype=np.uint8))
        _draw_markers(felt, geo)
        geo.background = felt
    img = geo.background.copy()
    cards: list[dict[str, Any]] = []
    s = geo.scale
    for code, x, y, w, h in _layout(state, geo):
        p1 = geo.px(x, y)
        p2 = geo.px(x + CARD_MM[0], y + CARD_MM[1])
        if code is None:
            cv2.rectangle(img, p1, p2, (150, 60, 30), -1)
            cv2.rectangle(img, (p1[0] + 5, p1[1] + 5), (p2[0] - 5, p2[1] - 5), (200, 120, 80), 2)
        else:
            cv2.rectangle(img, p1, p2, (245, 245, 245), -1)
            colour = (40, 40, 200) if code[-1] in "HD" else (20, 20, 20)
            cv2.putText(img, code, (p1[0] + 3, p1[1] + int(17 * s)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * s, colour,
                        2, cv2.LINE_AA)
            if h >= CARD_MM[1]:
                cv2.putText(img, code, (p1[0] + int(12 * s), p1[1] + int(58 * s)), cv2.FONT_HERSHEY_SIMPLEX,
                            0.9 * s, colour, 2, cv2.LINE_AA)
            q2 = geo.px(x + w, y + h)
            cards.append({"card": code, "box": [p1[0], p1[1], q2[0], q2[1]], "confidence": 1.0})
        cv2.rectangle(img, p1, p2, (90, 90, 90), 1)
    cv2.putText(img, "REPLAY - recorded game, not a camera", (FRAME_W // 2 - 220, FRAME_H - 14),
                cv2.FONT_HERSHEY_SIMPLEX, 0.7, (200, 230, 200), 2, cv2.LINE_AA)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover
        raise RuntimeError("JPEG encoding failed")
    return Picture(buf.tobytes(), FRAME_W, FRAME_H, cards)


def table_size_mm(columns: int = 7) -> tuple[float, float]:
    """The play area of the replay's table (for calibrating from its ``corners`` markers)."""
    geo = TableGeometry(columns)
    return geo.width_mm, geo.height_mm


# --- the source ------------------------------------------------------------------------------------


class ReplaySource:
    """Plays a recorded Klondike game into ``hub`` (and into ``store``, if given).

    Drive it by hand with :meth:`begin` and :meth:`step` (tests), or run it in a thread with
    :meth:`start` (``cardref serve --replay``), which waits ``Δt / speed`` between moves, sends the
    picture ``fps`` times a second and obeys the commands on ``hub.commands``.
    """

    def __init__(
        self,
        hub: Hub,
        store: GameStore | None = None,
        *,
        deal: klondike.Deal | None = None,
        moves: Sequence[Move] | None = None,
        rules: str = "draw=3",
        players: Sequence[str] = ("Anna",),
        slip_at: int | None = 1,
        speed: float = 1.0,
        fps: float = 2.0,
        loop: bool = False,
        frames: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if deal is None or moves is None:
            deal, moves = demo_game()
        self.hub = hub
        self.store = store
        self.deal = deal
        self.moves = with_slip(moves, slip_at) if slip_at is not None else list(moves)
        self.rules = klondike.KlondikeRules.from_spec(rules)
        self.players = list(players)
        self.speed = speed
        self.fps = fps
        self.loop = loop
        self.frames = frames
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.writer: GameWriter | None = None
        self.state: KlondikeState = klondike.new_game(deal, self.rules)
        self.index = 0
        self.number = 0
        self.t = 0.0
        self.paused = False
        self.over = False
        self.game_id: str | None = None
        self.last_verdict_seq: int | None = None
        self.picture: Picture | None = None
        self.decide_times: list[float] = []
        """Seconds each :meth:`step` spent judging the move and publishing it (the referee's timing)."""

    # -- one game ---------------------------------------------------------------------------------

    def begin(self) -> None:
        """Start (or start again) the game: a new log, the dealt position published."""
        self._close_writer()
        self.state = klondike.new_game(self.deal, self.rules)
        self.index = self.number = 0
        self.t = 0.0
        self.over = self.paused = False
        self.last_verdict_seq = None
        if self.store is not None:
            self.writer = self.store.new_game("klondike", self.rules.spec(), self.players, deal=self.deal.to_json())
            self.game_id = self.writer.id
        else:
            self.game_id = f"replay-{time.time_ns()}"
        self.hub.publish(status_message("replay", fps=self.fps, source=SOURCE_NAME))
        self._publish_state()
        self._publish_frame()

    def _phase(self) -> str:
        return "over" if self.over else "paused" if self.paused else "playing"

    def _publish_state(self) -> None:
        self.hub.publish(state_message(
            "klondike", self.state, game_id=self.game_id, rules=self.rules.spec(), players=self.players,
            t=self.t, moves=self.number, phase=self._phase(),
            extra={"passes_left": self.state.passes_left, "source": "replay"},
        ))

    def _publish_frame(self) -> None:
        if not self.frames:
            return
        self.picture = render(self.state)
        self.hub.publish(frame_message(self.picture.jpeg, self.picture.width, self.picture.height,
                                       self.picture.cards, t=self.t))

    def step(self) -> bool:
        """Judge the next recorded move, log it and publish it. False when no move is left."""
        with self.hub.batch():
            return self._step()

    def _step(self) -> bool:
        if self.over:
            return False
        if self.index >= len(self.moves):
            self._finish()
            return False
        move = self.moves[self.index]
        self.index += 1
        started = time.perf_counter()
        self.t = float(move.t) if move.t is not None else self.t
        before = self.state
        verdict = klondike.apply(before, move)
        frame = self.picture.jpeg if self.picture is not None else None
        if isinstance(verdict, Illegal):
            seq = self.writer.illegal(self.t, verdict, frame=frame).seq if self.writer else None
            self.last_verdict_seq = seq
            self.hub.publish(verdict_message(verdict, t=self.t, seq=seq, player=0,
                                             cards=klondike_cards_involved(before, move)))
            self.decide_times.append(time.perf_counter() - started)
            return True
        self.number += 1
        self.state = verdict.state
        drawing = time.perf_counter()
        if self.frames:
            self.picture = render(self.state)  # the key frame shows the table after the move
            frame = self.picture.jpeg
        drawn = time.perf_counter() - drawing
        seq = self.writer.move(self.t, verdict, frame=frame).seq if self.writer else None
        self.last_verdict_seq = seq
        self.hub.publish(verdict_message(verdict, t=self.t, number=self.number, seq=seq, player=0,
                                         cards=klondike_cards_involved(before, move)))
        for event in verdict.events:
            if event.kind == "won":
                self._call(event)
        self._publish_state()
        self.decide_times.append(time.perf_counter() - started - drawn)
        if self.frames and self.picture is not None:
            self.hub.publish(frame_message(self.picture.jpeg, self.picture.width, self.picture.height,
                                           self.picture.cards, t=self.t))
        if self.state.won:
            self._finish()
        return True

    def _call(self, event: Event) -> None:
        seq = self.writer.call(self.t, event).seq if self.writer else None
        text = {"won": "Won! All 52 cards are on the foundations", "no_moves_left": "No useful move is left"}
        self.hub.publish(call_message(event, t=self.t, seq=seq, text=text.get(event.kind)))

    def _finish(self) -> None:
        if self.over:
            return
        end = klondike.outcome(self.state)
        if end is None:
            result, reason = "abandoned", "the recording ended"
        else:
            result, reason = end.result, end.reason
            if end.result == "lost":
                self._call(Event("no_moves_left", t=self.t, detail=end.reason))
        if self.writer is not None and not self.writer.ended:
            self.writer.end(self.t, result, reason=reason, data={"score": self.state.score})
        self.over = True
        self._publish_state()

    def _close_writer(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    # -- commands ---------------------------------------------------------------------------------

    def handle(self, command: Command) -> None:
        """Do what a page asked for (see :class:`cardref.web.hub.Command`)."""
        kind = command.kind
        if kind == "pause" and not self.over:
            self.paused = True
            self._publish_state()
        elif kind == "resume" and not self.over:
            self.paused = False
            self._publish_state()
        elif kind == "end" and not self.over:
            if self.writer is not None and not self.writer.ended:
                self.writer.end(self.t, "abandoned", reason="ended on the setup page")
            self.over = True
            self._publish_state()
        elif kind in ("start", "setup"):
            if kind == "setup":
                players = command.data.get("players")
                if isinstance(players, list) and players:
                    self.players = [str(p.get("name") if isinstance(p, dict) else p) for p in players][:1]
                return
            self.begin()
        elif kind == "correction":
            self._correct(command.data)
        elif kind == "slap":
            who = command.data.get("player")
            self.hub.publish({"type": "verdict", "kind": "slap", "t": self.t, "player": who, "cards": [],
                              "detail": "slap recorded (Klondike has no stress)"})
            if self.writer is not None:
                self.writer.note(self.t, f"slap by player {who}", by=str(command.data.get("by") or ""))

    def _correct(self, data: dict[str, Any]) -> None:
        target = data.get("target") or self.last_verdict_seq
        reason = str(data.get("reason") or "")
        by = str(data.get("by") or "")
        seq = None
        if self.writer is not None and isinstance(target, int):
            try:
                seq = self.writer.retract(self.t, target, by=by, reason=reason).seq
            except ValueError as exc:
                logger.warning("correction refused: %s", exc)
                return
        self.hub.publish(correction_message("retract", t=self.t, target=target if isinstance(target, int) else None,
                                            reason=reason, by=by, seq=seq))

    # -- running in a thread ----------------------------------------------------------------------

    def start(self) -> threading.Thread:
        self._thread = threading.Thread(target=self.run, name="cardref-replay", daemon=True)
        self._thread.start()
        return self._thread

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._close_writer()

    def run(self) -> None:
        self.begin()
        next_move = self._clock() + 1.0 / self.speed
        next_frame = self._clock()
        while not self._stop.is_set():
            now = self._clock()
            wait = min(next_move, next_frame) - now
            command = self.hub.commands.get(timeout=max(0.0, min(wait, 0.2)))
            if command is not None:
                self.handle(command)
                continue
            now = self._clock()
            if self.frames and now >= next_frame:
                if self.picture is not None:
                    self.hub.publish(frame_message(self.picture.jpeg, self.picture.width, self.picture.height,
                                                   self.picture.cards, t=self.t))
                next_frame = now + 1.0 / self.fps
            if now < next_move or self.paused:
                if self.paused:
                    next_move = now + 0.2
                continue
            if self.over:
                if self.loop:
                    self._stop.wait(5.0)
                    self.begin()
                    next_move = self._clock() + 1.0 / self.speed
                else:
                    next_move = now + 3600.0
                continue
            prev_t = self.t
            self.step()
            nxt = self.moves[self.index] if self.index < len(self.moves) else None
            gap = (float(nxt.t) - prev_t) if nxt is not None and nxt.t is not None else 2.0
            next_move = self._clock() + max(0.05, gap) / self.speed
        self._close_writer()


def record_demo_game(store: GameStore, *, players: Sequence[str] = ("Anna",), moves: int | None = None) -> str:
    """Record the demo game (with its slip) into ``store`` without a hub's viewers; returns its id.
    ``moves`` stops early (an unfinished game)."""
    source = ReplaySource(Hub(), store, players=players, frames=True)
    source.begin()
    n = 0
    while source.step():
        n += 1
        if moves is not None and n >= moves:
            break
    gid = source.game_id
    source._close_writer()
    assert gid is not None
    return gid
