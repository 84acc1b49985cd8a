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

FRAME_W, FRAME_H = 1280, 720
CARD_W, CARD_H = 96, 134
DOWN_STEP, UP_STEP, WASTE_STEP = 12, 26, 24
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


def _layout(state: KlondikeState) -> list[tuple[str | None, int, int, int, int]]:
    """(card code or None for a back, x, y, visible w, visible h) bottom to top, in drawing order."""
    out: list[tuple[str | None, int, int, int, int]] = []
    if state.stock:
        out.append((None, 30, 24, CARD_W, CARD_H))
    fan = state.waste[-state.rules.draw:] if state.waste else ()
    for i, c in enumerate(fan):
        last = i == len(fan) - 1
        out.append((c.code, 150 + i * WASTE_STEP, 24, CARD_W if last else WASTE_STEP, CARD_H))
    from referee.cards import SUITS, card_of

    for i, suit in enumerate(SUITS):
        top = state.foundations[i]
        if top:
            out.append((card_of(top, suit).code, 700 + i * 130, 24, CARD_W, CARD_H))
    columns = len(state.tableau)
    pitch = min(175, (FRAME_W - 60) // max(columns, 1))
    for col, (pile, hidden) in enumerate(zip(state.tableau, state.hidden)):
        x = 30 + col * pitch
        y = 200
        for j, c in enumerate(pile):
            last = j == len(pile) - 1
            step = DOWN_STEP if j < hidden else UP_STEP
            out.append((None if j < hidden else c.code, x, y, CARD_W, CARD_H if last else step))
            y += step
    return out


def render(state: KlondikeState, *, quality: int = 80) -> Picture:
    """A top-down picture of the position, as a camera would see the table, and the visible cards
    with their boxes (the whole visible part of each face-up card)."""
    import cv2
    import numpy as np

    img = np.empty((FRAME_H, FRAME_W, 3), np.uint8)
    img[:] = (60, 110, 40)  # felt green (BGR)
    rng = np.random.default_rng(7)
    img = cv2.add(img, rng.integers(0, 12, img.shape, dtype=np.uint8))
    cards: list[dict[str, Any]] = []
    for code, x, y, w, h in _layout(state):
        x2, y2 = x + CARD_W, y + CARD_H
        if code is None:
            cv2.rectangle(img, (x, y), (x2, y2), (150, 60, 30), -1)
            cv2.rectangle(img, (x + 6, y + 6), (x2 - 6, y2 - 6), (200, 120, 80), 2)
        else:
            cv2.rectangle(img, (x, y), (x2, y2), (245, 245, 245), -1)
            red = code[-1] in "HD"
            colour = (40, 40, 200) if red else (20, 20, 20)
            cv2.putText(img, code, (x + 4, y + 20), cv2.FONT_HERSHEY_SIMPLEX, 0.62, colour, 2, cv2.LINE_AA)
            if h >= CARD_H:
                cv2.putText(img, code, (x + 18, y + 85), cv2.FONT_HERSHEY_SIMPLEX, 1.1, colour, 3, cv2.LINE_AA)
            cards.append({"card": code, "box": [x, y, x + w, y + h], "confidence": 1.0})
        cv2.rectangle(img, (x, y), (x2, y2), (90, 90, 90), 1)
    cv2.putText(img, "REPLAY - recorded game, not a camera", (30, FRAME_H - 20), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                (200, 230, 200), 2, cv2.LINE_AA)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover
        raise RuntimeError("JPEG encoding failed")
    return Picture(buf.tobytes(), FRAME_W, FRAME_H, cards)


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
            self.game_id = f"replay-{int(time.time())}"
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
