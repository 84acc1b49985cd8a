"""The clip source: a recorded table video played into the hub, with its truth (a dev/test source).

Plays a truth video made by ``cardref render`` (the shipped one is ``cardref/demo/clips/klondike``:
``video.mp4``, ``truth.jsonl`` the true table per frame, ``moves.jsonl`` the true moves,
``deal.json``, ``calibration.json``) at its own pace, so the pages can be seen and tested against a
real-looking camera picture before the live pipeline is connected:

* ``frame``: the video's pictures (a few per second), with the true printed corner indices of that
  frame (``boxes.jsonl[.gz]``) when the clip has them, else the cards of the frame's truth outlined
  where the scene geometry puts them (truth, not a detector: the live pipeline sends its own
  detections).
* ``verdict`` / ``state`` / ``call``: each true move, when the video shows it done, judged by
  :mod:`referee.klondike` from the deal (so the illegal move gets the engine's rule and reason, and
  its take-back is shown as such).

It is a replay of a recording, never presented as a live camera (``status.camera`` is ``replay``).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from referee import klondike
from referee.verdict import Illegal

from .hub import Hub
from .messages import call_message, frame_message, klondike_cards_involved, state_message, status_message, verdict_message

logger = logging.getLogger(__name__)

CARD_MM = (63.0, 88.0)


def default_clip() -> Path:
    return Path(str(resources.files("cardref") / "demo" / "clips" / "klondike"))


def clip_info(folder: Path) -> dict[str, Any]:
    """The clip's ``render.json``; ValueError (one line) for a folder that is not a Klondike truth video:
    the verdicts come from the Klondike engine and the clip's deal."""
    try:
        info = json.loads((folder / "render.json").read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"{folder} is not a truth video made by cardref render (render.json: {exc})") from None
    if not isinstance(info, dict):
        raise ValueError(f"{folder} is not a truth video made by cardref render (render.json is not an object)")
    if info.get("game", "klondike") != "klondike":
        raise ValueError(f"{folder} is a {info.get('game')} video: the clip replay plays Klondike truth videos only "
                         "(cardref analyze referees any game's video)")
    return info


def _read_boxes(folder: Path) -> list[list[dict[str, Any]]] | None:
    from vision.jsonl_files import open_jsonl

    for name in ("boxes.jsonl.gz", "boxes.jsonl"):
        path = folder / name
        if path.is_file():
            with open_jsonl(path) as fh:
                return [list(json.loads(line).get("boxes", [])) for line in fh if line.strip()]
    return None


class ClipSource:
    """Plays ``folder``'s video and truth into ``hub`` (see the module doc). ``speed`` > 1 plays
    faster; ``fps`` is how many pictures a second are published (the video has more)."""

    def __init__(self, hub: Hub, folder: str | Path | None = None, *, speed: float = 1.0, fps: float = 4.0,
                 loop: bool = False, players: tuple[str, ...] = ("Anna",), width: int = 960,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.hub = hub
        self.folder = Path(folder) if folder is not None else default_clip()
        self.speed = speed
        self.fps = fps
        self.loop = loop
        self.players = list(players)
        self.width = width
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        info = clip_info(self.folder)
        self.video_fps = float(info.get("fps", 10.0))
        self.rules = klondike.KlondikeRules.from_spec(str(info.get("rules", "")))
        self.deal = klondike.Deal.from_json(json.loads((self.folder / "deal.json").read_text()))
        self.moves = [json.loads(x) for x in (self.folder / "moves.jsonl").read_text().splitlines() if x.strip()]
        self.truth = [json.loads(x) for x in (self.folder / "truth.jsonl").read_text().splitlines() if x.strip()]
        self.boxes = _read_boxes(self.folder)
        """Per frame, the true printed corner indices (``boxes.jsonl[.gz]``, when the clip has them)."""
        self._geometry: Any = None
        self.game_id = ""
        self.state = klondike.new_game(self.deal, self.rules)
        self.number = 0
        self.published_frames = 0

    # -- geometry: where the truth's cards lie in the picture -----------------------------------

    def _scene(self) -> Any:
        if self._geometry is None:
            from calibration.store import load_calibration
            from calibration.templates import template
            from vision.synthetic_scenes import Scene

            cal = load_calibration(self.folder / "calibration.json")
            layout = cal.layout.build() if cal.layout is not None else template("klondike")
            self._geometry = Scene(layout, cal.homography(), {}, images=False)
        return self._geometry

    def cards_at(self, index: int, scale: float) -> list[dict[str, Any]]:
        """The visible cards of truth frame ``index`` with their boxes in a picture scaled by ``scale``."""
        import numpy as np

        from vision.synthetic_scenes import Pile

        if not 0 <= index < len(self.truth):
            return []
        scene = self._scene()
        out: list[dict[str, Any]] = []
        for name, pile in self.truth[index]["piles"].items():
            if name not in scene.zones:
                continue
            faces = [c["card"] for c in pile.get("cards", [])]
            frames = scene._card_frames(name, Pile(int(pile.get("backs", 0)), faces))
            zone = scene.zones[name]
            d = np.asarray(scene.down[zone.seat], dtype=np.float64)
            r = np.array([d[1], -d[0]])
            for i, (code, centre, covered) in enumerate(frames):
                hw, hh = CARD_MM[0] / 2, CARD_MM[1] / 2
                corners = [centre + r * sx * hw + d * sy * hh for sx in (-1, 1) for sy in (-1, 1)]
                if covered and i + 1 < len(frames):  # only the strip up to the next card shows
                    nxt = frames[i + 1][1]
                    corners = [c for c in corners] + [nxt + r * sx * hw + d * (-hh) for sx in (-1, 1)]
                    corners = [c for c in corners if float((c - nxt) @ (nxt - centre)) <= 1e-6]
                px = scene.h.to_image(np.asarray(corners)) * scale
                out.append({"card": code, "box": [round(float(px[:, 0].min()), 1), round(float(px[:, 1].min()), 1),
                                                  round(float(px[:, 0].max()), 1), round(float(px[:, 1].max()), 1)],
                            "confidence": 1.0, "zone": name})
        return out

    # -- the game ---------------------------------------------------------------------------------

    def _publish_state(self, t: float, phase: str = "playing") -> None:
        self.hub.publish(state_message("klondike", self.state, game_id=self.game_id, rules=self.rules.spec(),
                                       players=self.players, t=t, moves=self.number, phase=phase,
                                       extra={"source": "replay"}))

    def begin(self) -> None:
        self.state = klondike.new_game(self.deal, self.rules)
        self.number = 0
        self.game_id = f"clip-{time.time_ns()}"
        self.hub.publish(status_message("replay", fps=self.fps, source=f"replay of the recorded video {self.folder.name}/video.mp4"))
        self._publish_state(0.0)

    def judge(self, m: dict[str, Any]) -> None:
        """One true move of the clip, judged by the engine and published."""
        t = float(m["t"])
        if m.get("kind") not in ("legal", "illegal", "take_back") or (m.get("kind") != "take_back" and not m.get("op")):
            return  # a hand that hovers and touches nothing is no move
        if m.get("kind") == "take_back":
            self.hub.publish({"type": "verdict", "kind": "taken_back", "t": t, "text": f"{m.get('from')}->{m.get('to')}",
                              "cards": m.get("cards", []), "detail": "the illegal move was taken back"})
            return
        move = klondike.Move.from_json({k: m[k] for k in ("op", "from", "to", "count") if k in m})
        before = self.state
        with self.hub.batch():
            verdict = klondike.apply(before, move)
            cards = klondike_cards_involved(before, move)
            if isinstance(verdict, Illegal):
                self.hub.publish(verdict_message(verdict, t=t, player=0, cards=cards))
                return
            self.number += 1
            self.state = verdict.state
            self.hub.publish(verdict_message(verdict, t=t, number=self.number, player=0, cards=cards))
            for event in verdict.events:
                if event.kind == "won":
                    self.hub.publish(call_message(event, t=t))
            self._publish_state(t)

    # -- playing ----------------------------------------------------------------------------------

    def start(self) -> threading.Thread:
        self._thread = threading.Thread(target=self.run, name="cardref-clip", daemon=True)
        self._thread.start()
        return self._thread

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def run(self) -> None:
        while not self._stop.is_set():
            self.play_once()
            if not self.loop:
                break
            self._stop.wait(3.0)

    def play_once(self) -> None:
        import cv2

        capture = cv2.VideoCapture(str(self.folder / "video.mp4"))
        if not capture.isOpened():
            self.hub.publish(status_message("error", detail=f"cannot open {self.folder / 'video.mp4'}"))
            return
        self.begin()
        pending = sorted(self.moves, key=lambda m: float(m["t"]))
        started = self._clock()
        next_picture = 0.0
        index = 0
        try:
            while not self._stop.is_set():
                ok, image = capture.read()
                if not ok:
                    break
                t = index / self.video_fps
                ahead = started + t / self.speed - self._clock()
                if ahead > 0:
                    self._stop.wait(ahead)
                while pending and float(pending[0]["t"]) <= t:
                    self.judge(pending.pop(0))
                if t >= next_picture:
                    next_picture = t + 1.0 / self.fps
                    self._picture(image, index, t)
                index += 1
        finally:
            capture.release()
        for m in pending:
            self.judge(m)
        self._publish_state(index / self.video_fps, phase="over")

    def _picture(self, image: Any, index: int, t: float) -> None:
        import cv2

        h, w = image.shape[:2]
        scale = min(1.0, self.width / w)
        if scale < 1.0:
            image = cv2.resize(image, (int(round(w * scale)), int(round(h * scale))), interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if not ok:  # pragma: no cover
            return
        if self.boxes is not None:  # what a corner-index detector would report: the true index boxes
            cards = [{"card": b["card"], "box": [round(v * scale, 1) for v in b["box"]],
                      "confidence": round(float(b.get("visible", 1.0)), 3)}
                     for b in (self.boxes[index] if index < len(self.boxes) else []) if b.get("visible", 1.0) >= 0.5]
        else:
            at_rest = bool(self.truth[index].get("at_rest", True)) if index < len(self.truth) else True
            cards = self.cards_at(index, scale) if at_rest else []  # a hand over the table: no steady view
        self.hub.publish(frame_message(buf.tobytes(), image.shape[1], image.shape[0], cards, t=t))
        self.published_frames += 1
