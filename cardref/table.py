"""One table for the web app: the live pipeline, the game being recorded, and what people ask for.

:class:`TableRunner` is the ``source`` the web app starts (``create_app(source=...)``): it runs
:class:`~cardref.pipeline.Pipeline` on a camera, stream, the phone page's camera or a video; records
each game in the games directory; and answers the page commands (start, pause, resume, end, slap,
correction, setup, calibration) that arrive on ``hub.commands``. Until the table is calibrated, and
after a game is ended on the set-up page, it shows the picture only (:class:`~cardref.pipeline.Preview`),
so the set-up page can calibrate from it; a new calibration carries on the game being played with the
new geometry. A recorded video can play at its own speed, in a loop (the demo): each pass is a new game.
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass
from typing import Any

from calibration.store import CalibrationFile
from vision.frame_sources import FrameSource

from referee.followers import find_follower

from .live import LiveReferee
from .pipeline import Detect, FrameLoop, Pipeline, Preview, Replay

log = logging.getLogger(__name__)


@dataclass
class TableConfig:
    source: str | FrameSource
    calibration: CalibrationFile | None
    """None: not calibrated yet (the picture is shown until the set-up page calibrates)."""
    game: str = "klondike"
    rules: str = ""
    players: tuple[str, ...] = ("Player 1",)
    realtime: bool = True
    loop: bool = False
    detector: str = "the shipped detector"
    """Where the corner boxes come from, as the pages say it."""
    camera_size: tuple[int, int] | None = None
    """What a webcam is asked for (default: vision.frame_sources.WEBCAM_SIZE)."""
    resume: str | None = None
    """A game cardref stopped without ending, to take up again first (its id; ``cardref serve --resume``)."""


class TableRunner:
    """Runs the pipeline for the web app's services (``services.hub``, ``services.store``)."""

    def __init__(self, services: Any, config: TableConfig, detect: Detect | None = None,
                 replay: Replay | None = None) -> None:
        self.services = services
        self.config = config
        self.detect = detect
        self.replay = replay
        self.paused = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.RLock()
        self.referee: LiveReferee | None = None
        self.judge: _Judge | None = None
        self.pipeline: FrameLoop | None = None
        self._interrupt = threading.Event()
        """Set when a page command stops the frame loop to go on differently (new game, new calibration, end)."""
        self._fresh = True
        """The next pipeline starts a new game."""
        self._idle = False
        """A game was ended on the set-up page: the picture only, until the next start."""
        self._threads: list[threading.Thread] = []
        self.games: list[str] = []
        self._t0 = 0.0
        """Where the game's time starts on the frames' clock (a game taken up again goes on from its log's)."""

    # -- life ---------------------------------------------------------------------------------------

    def start(self) -> "TableRunner":
        self._report("idle")  # the set-up page shows the game, rules and players this table was started with
        session = getattr(self.services, "session", None)
        if session is not None:
            session.takes_up = True  # the set-up page offers the games left unfinished
        for target, name in ((self._run, "cardref-table"), (self._commands, "cardref-commands")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        self._stop.set()
        if self.pipeline is not None:
            self.pipeline.stop()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=5.0)
        self._end_game("stopped", "cardref was stopped")

    def _run(self) -> None:
        while not self._stop.is_set():
            self._interrupt.clear()
            cfg = self.config
            if cfg.calibration is None or self._idle:
                self.pipeline = Preview(cfg.source, publish=self.services.hub.publish, realtime=cfg.realtime,
                                        camera_size=cfg.camera_size)
                if cfg.calibration is None:
                    self.services.hub.publish({"type": "status", "referee": "not calibrated: calibrate on the set-up page"})
                self._loop_frames()
                if not (self._stop.is_set() or self._interrupt.is_set() or cfg.loop):
                    return  # a video shown uncalibrated has ended
                continue
            if self._fresh or self.referee is None or self.judge is None:
                self._new_game()
                self._fresh = False
            referee, judge = self.referee, self.judge
            assert referee is not None and judge is not None
            self.pipeline = Pipeline(
                cfg.source,
                cfg.calibration,
                judge,  # type: ignore[arg-type]
                detect=self.detect,
                publish=self.services.hub.publish,
                realtime=cfg.realtime,
                replay=self.replay,
                camera_size=cfg.camera_size,
            )
            self.pipeline.t0 = self._t0
            failed = self._loop_frames()
            if self._stop.is_set():
                return
            if self._interrupt.is_set():
                continue  # a page command: the new game, calibration or end is set up already
            if failed and getattr(cfg.source, "live", False):
                continue  # a camera's game goes on after an error (shown on the pages) with a new frame loop
            judge.drain()  # the last states are judged before the result is read
            self._end_game("unfinished" if referee.ended is None else referee.ended, "the video ended")
            self._fresh = True
            if not cfg.loop:
                return

    def _loop_frames(self) -> bool:
        """Run the frame loop made last in this thread until its source ends or it is stopped; True
        when it stopped on an error."""
        loop = self.pipeline
        assert loop is not None
        if self._interrupt.is_set():
            return False  # a command came while the loop was being made
        try:
            loop.run()
        except Exception as exc:  # shown on the pages, never silent
            log.exception("the table pipeline stopped")
            self.services.hub.publish({"type": "status", "camera": "error", "error": str(exc)})
            self._stop.wait(2.0)
            return True
        return False

    def _restart(self) -> None:
        """Stop the frame loop so that :meth:`_run` goes on as the flags now say."""
        self._interrupt.set()
        if self.pipeline is not None:
            self.pipeline.stop()

    # -- games --------------------------------------------------------------------------------------

    def _new_game(self) -> None:
        from cardref.web.session import seated_rules

        cfg = self.config
        self._t0 = 0.0
        if cfg.resume is not None:
            from .gamelog.writer import GameBusyError

            game_id, cfg.resume = cfg.resume, None  # once: the games after it are new
            try:
                self._take_up(game_id)
                return
            except (ValueError, OSError, GameBusyError) as exc:  # said on the pages; a new game starts instead
                log.warning("game %s cannot be taken up again: %s", game_id, exc)
                self.services.hub.publish({"type": "status", "referee": f"game {game_id} cannot be taken up again: {exc}"})
        with self._lock:
            follower = find_follower(cfg.game)
            rules = seated_rules(cfg.game, cfg.rules, len(cfg.players))
            spec = follower.rules_spec(follower.rules_from_spec(rules))
            writer = self.services.store.new_game(cfg.game, spec, list(cfg.players))
            self.referee = LiveReferee(cfg.game, rules, writer=writer, publish=self.services.hub.publish)
            self.judge = _Judge(self.referee, self.paused, self._lock, self.services.hub.publish)
            self.games.append(writer.id)
        self.services.hub.publish(
            {"type": "status", "referee": f"recording game {writer.id}", "detector": self.config.detector}
        )
        self._report("playing")

    def _take_up(self, game_id: str) -> None:
        """Take up again a game cardref stopped without ending (:func:`cardref.live.taken_up`)."""
        from .live import resume_point, taken_up

        resume_point(self.services.store.read(game_id))  # says why not before the log is reopened
        writer = self.services.store.resume(game_id)
        try:
            with self._lock:
                referee = taken_up(writer, publish=self.services.hub.publish)
                header = writer.header
                self.config.game, self.config.rules, self.config.players = header.game, header.rules, tuple(header.players)
                self.referee = referee
                self.judge = _Judge(referee, self.paused, self._lock, self.services.hub.publish)
                self.games.append(writer.id)
                self._t0 = referee.last_t + 1.0  # the frames' clock starts again at 0
        except BaseException:
            writer.close()
            raise
        self.services.hub.publish({"type": "status", "referee": f"game {writer.id} taken up again: the table as it was left",
                                   "detector": self.config.detector})
        self._report("playing")

    def _end_game(self, result: str, reason: str) -> None:
        judge = self.judge
        if judge is not None:
            judge.drain()  # the states published before the end are judged first
        with self._lock:
            if judge is not None and judge is self.judge:
                judge.close()
                self.judge = None
            referee = self.referee
            if referee is None or referee.writer is None or referee.writer.closed:
                return
            if not referee.writer.ended:
                referee.settle()  # no view will follow: what waited for a clearer one is concluded
            if not referee.writer.ended:
                referee.writer.end(referee.last_t, result, reason=reason)
            referee.writer.close()
        self._report("ended")

    def _report(self, phase: str) -> None:
        session = getattr(self.services, "session", None)
        if session is None:
            return
        from cardref.web.session import PlayerSeat, TableSetup

        cfg = self.config
        players = [PlayerSeat(name=name or f"Player {i + 1}", seat=i + 1) for i, name in enumerate(cfg.players)]
        session.report(phase, TableSetup(game=cfg.game, rules=cfg.rules, players=players))  # type: ignore[arg-type]

    # -- what people ask for on the pages -----------------------------------------------------------

    def _commands(self) -> None:
        while not self._stop.is_set():
            command = self.services.hub.commands.get(timeout=0.2)
            if command is None:
                continue
            try:
                self.handle(command.kind, command.data or {})
            except (ValueError, KeyError, TypeError) as exc:
                self.services.hub.publish({"type": "status", "referee": f"{command.kind}: {exc}"})

    def handle(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "pause":
            self.paused.set()
        elif kind == "resume":
            self.paused.clear()
        elif kind in ("setup", "start"):
            setup = data.get("setup", data)
            self.config.game = setup.get("game", self.config.game)
            self.config.rules = setup.get("rules", self.config.rules)
            self.config.players = tuple(p.get("name", "") for p in setup.get("players", [])) or self.config.players
            if kind == "start":
                self.config.resume = data.get("take_up")  # (the set-up page: a game left unfinished)
                self._end_game("abandoned", "a new game was started")
                self._fresh, self._idle = True, False
                self.paused.clear()
                self._restart()  # the run loop starts the next game on the same source
        elif kind == "end":
            self._end_game("ended", "ended on the set-up page")
            self._idle = True
            self._restart()
        elif kind == "calibration":
            from calibration.store import CalibrationFile

            self.config.calibration = CalibrationFile.model_validate(data)
            self.services.hub.publish({"type": "status", "referee": "calibrated: the table is read with the new geometry"})
            self._restart()  # the game in progress goes on
        elif kind in ("slap", "choose"):
            with self._lock:  # not while the pipeline's thread judges a view
                referee = self.referee
                if referee is not None:
                    referee.act(kind, t=referee.last_t, player=int(data.get("player", 0)), pile=int(data.get("pile") or 0))
        elif kind == "correction":
            with self._lock:  # not while the judge's thread judges a view: the move may be let stand
                self._correct(data)
        elif kind == "name":
            with self._lock:  # not while the judge's thread judges a view
                referee = self.referee
                if referee is None:
                    raise ValueError("no game is being refereed")
                referee.name_card(str(data["zone"]), str(data["card"]), t=referee.last_t, by=str(data.get("by", "")))

    def _correct(self, data: dict[str, Any]) -> None:
        referee = self.referee
        if referee is None or referee.writer is None:
            raise ValueError("no game is being recorded")
        if data.get("action", "retract") != "retract":
            raise ValueError("the live page can retract a verdict; replace and insert are made on the review page")
        target = data.get("target")
        referee.correct(referee.last_t, None if target is None else int(target), by=str(data.get("by", "")),
                        reason=str(data.get("reason", "")))


class _Judge:
    """The referee as the frame loop sees it. Published states are queued and judged in order in a
    thread of their own, so that a view that takes seconds to judge (four-player Zenuwen with hands
    over the table and unsure readings: up to 5 s) holds back neither the camera picture nor the
    tracker. States published while the game is paused are not judged, nor any once it has ended.
    The runner's lock is held while judging, so that a page command (end, slap) waits for the
    judgement in progress instead of closing the log under it; :meth:`drain` waits for the queue."""

    def __init__(self, referee: LiveReferee, paused: threading.Event, lock: threading.RLock, publish: Any) -> None:
        self._referee = referee
        self._paused = paused
        self._lock = lock
        self._publish = publish
        self._queue: queue.Queue[tuple[str, tuple[Any, ...]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._work, name="cardref-judge", daemon=True)
        self._thread.start()

    def _open(self) -> bool:
        writer = self._referee.writer
        return writer is None or not writer.closed

    def _put(self, name: str, *args: Any) -> list[Any]:
        if not self._paused.is_set() and self._open():
            self._queue.put((name, args))
        return []

    def feed(self, table: Any, jpeg: bytes | None = None) -> list[Any]:
        return self._put("feed", table, jpeg)

    def glimpse(self, table: Any, jpeg: bytes | None = None) -> list[Any]:
        return self._put("glimpse", table, jpeg)

    def seen_slap(self, player: int, t: float, pile: int) -> list[Any]:
        return self._put("seen_slap", player, t, pile)

    def tick(self, t: float) -> list[Any]:
        return self._put("tick", t)

    def drain(self) -> None:
        """Wait until every state queued so far is judged."""
        if self._thread.is_alive():
            self._queue.join()

    def close(self) -> None:
        self._queue.put(None)

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                name, args = item
                with self._lock:
                    if self._open():
                        getattr(self._referee, name)(*args)
            except Exception as exc:  # shown on the pages, never silent; the next state is judged
                log.exception("judging a table state failed")
                self._publish({"type": "status", "referee": f"error while judging: {exc}"})
            finally:
                self._queue.task_done()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._referee, name)
