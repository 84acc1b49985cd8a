"""Klondike truth videos: the referee engine plays (or replays) a game, the :class:`~vision.render.TableScene`
acts it out with a hand, the :class:`~vision.render.Painter` films it.

The moves are legal moves of :mod:`referee.klondike` (from a replay file, or chosen by a simple greedy
player), with deliberately illegal moves slipped in: a card put where the rules forbid it (a red card on
a red card, preferably), left on the table for a moment, then taken back. Files written to the output
folder (docs/truth-videos.md describes them):

- ``video.mp4`` (or ``.avi``): the frames;
- ``calibration.json``: the camera's homography and the Klondike zone layout (``--calibration``);
- ``truth.jsonl``: one line per frame, the true visible table in STATES.jsonl's shape, plus ``at_rest``;
- ``moves.jsonl``: the true moves, illegal ones and their take-backs marked, with times and frames;
- ``deal.json``: the deal (DEAL.json); ``render.json``: how the video was made.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from calibration.store import LayoutSpec, make_calibration, save_calibration
from calibration.templates import Spacing
from calibration.templates import klondike as klondike_layout
from referee import klondike
from referee.cards import Card
from referee.klondike import SUIT_INDEX, Deal, KlondikeRules, KlondikeState, Move
from referee.verdict import Illegal, Legal
from vision.render import Faces, Look, Painter, TableScene, VideoWriter, make_camera
from vision.synthetic_scenes import BACK_STEP, CARD_H, FACE_STEP, Action, Frame, Noise, Pile
from vision.table_state import PileState, SeenCard, TableState

FOUNDATIONS = tuple(f"foundation{i + 1}" for i in range(4))


@dataclass
class Step:
    """One visit of the hand: an engine move (legal or not), or the take-back of an illegal one."""

    kind: str  # "legal", "illegal", "take_back", "hover"
    move: Move
    rule: str = ""
    reason: str = ""
    takes_back: int | None = None
    zone: str = ""
    """hover: the zone the hand lingers over."""


# ------------------------------------------------------------------------------------------- zones


def _tableau_zone(name: str) -> str:
    return "tableau" + name[1:]


def _foundation_zone(scene: TableScene, suit: str) -> str:
    """Where a card of ``suit`` goes up: the foundation already holding that suit, else the first empty."""
    for z in FOUNDATIONS:
        faces = scene.piles[z].faces
        if faces and faces[-1][-1] == suit:
            return z
    for z in FOUNDATIONS:
        if not scene.piles[z].faces:
            return z
    return FOUNDATIONS[0]


def _src_zone(scene: TableScene, src: str) -> str:
    if src == "waste":
        return "waste"
    if src.startswith("foundation:"):
        return _foundation_zone(scene, src.split(":")[1])
    return _tableau_zone(src)


def actions_for(scene: TableScene, state: KlondikeState, move: Move, after: KlondikeState | None) -> list[Action]:
    """The hand actions that carry out ``move`` from ``state`` (``after``: the engine's next position,
    None for an illegal move, which never turns a card up)."""
    if move.op == "draw":
        n = min(state.rules.draw, len(state.stock))
        return [Action("turn", "stock", "waste", n, tuple(c.code for c in state.stock[:n]))]
    if move.op == "recycle":
        return [Action("recycle", "waste", "stock", len(state.waste))]
    src = _src_zone(scene, move.src)
    moving = scene.piles[src].faces[-move.count:]
    if move.dst == "foundation":
        dst = _foundation_zone(scene, moving[-1][-1])
    else:
        dst = _tableau_zone(move.dst)
    out = [Action("move", src, dst, move.count, tuple(moving))]
    if after is not None and move.src.startswith("t"):
        i = int(move.src[1:]) - 1
        if after.hidden[i] < state.hidden[i]:
            out.append(Action("flip", src, "", 1, (after.tableau[i][after.hidden[i]].code,)))
    return out


# ------------------------------------------------------------------------------------- the player


def _greedy(state: KlondikeState, rng: np.random.Generator, stale: int) -> Move | None:
    """A plain human-like choice: aces and twos up, moves that turn up a card, waste to tableau,
    otherwise draw. None when stuck (a full pass through the stock changed nothing)."""
    legal = list(klondike.legal_moves(state))
    scored: list[tuple[float, int, Move]] = []
    for k, m in enumerate(legal):
        if m.op != "move":
            continue
        score = -1.0
        if m.dst == "foundation":
            score = 5.0
        elif m.src.startswith("t"):
            i = int(m.src[1:]) - 1
            up = len(state.tableau[i]) - state.hidden[i]
            if m.count == up and state.hidden[i] > 0:
                score = 4.0  # turns a card up
            elif m.count == up and state.hidden[i] == 0 and state.tableau[int(m.dst[1:]) - 1]:
                score = -1.0  # shuffling a whole column about: pointless
        elif m.src == "waste":
            score = 3.0
        if score > 0:
            scored.append((score + float(rng.uniform(0, 0.5)), k, m))
    if scored:
        return max(scored)[2]
    if stale > len(state.stock) + len(state.waste) + 2:
        return None
    return Move.draw() if state.stock else (Move.recycle() if state.waste else None)


def _illegal_candidates(state: KlondikeState) -> list[tuple[float, Move, Illegal]]:
    """Single-card moves a careless hand could make that the rules forbid, best-looking mistakes first
    (a card one lower in rank but the same colour, K4); none that would uncover a face-down card."""
    out: list[tuple[float, Move, Illegal]] = []
    sources: list[tuple[str, Card]] = []
    if state.waste:
        sources.append(("waste", state.waste[-1]))
    for i, (pile, h) in enumerate(zip(state.tableau, state.hidden)):
        if len(pile) - h >= 2:
            sources.append((f"t{i + 1}", pile[-1]))
    for src, card in sources:
        up = Move.move(src, "foundation")
        verdict = klondike.apply(state, up)
        if isinstance(verdict, Illegal):  # a card put up too early (a 3 on the ace)
            have = state.foundations[SUIT_INDEX[card.suit]]
            out.append((2.0 if card.rank == have + 2 else 0.5, up, verdict))
        for j, pile in enumerate(state.tableau):
            dst = f"t{j + 1}"
            if dst == src or not pile:
                continue
            m = Move.move(src, dst)
            verdict = klondike.apply(state, m)
            if not isinstance(verdict, Illegal):
                continue
            top = pile[-1]
            score = 0.0
            if top.rank == card.rank + 1 and top.red == card.red:
                score = 3.0  # red on red, black on black
            elif abs(top.rank - card.rank) <= 2 and top.red != card.red:
                score = 1.0  # the right colour, the wrong rank
            out.append((score, m, verdict))
    out.sort(key=lambda x: -x[0])
    return out


def plan(deal: Deal, rules: KlondikeRules, moves: Sequence[Move] | None, max_moves: int,
         illegal: int, seed: int, hovers: int = 0) -> list[Step]:
    """The game to film: ``max_moves`` legal moves (from ``moves`` or the greedy player) with
    ``illegal`` deliberately illegal moves (each followed by its take-back) and ``hovers`` visits of
    the hand that touch nothing, spread among them."""
    rng = np.random.default_rng([seed, 7])
    state = klondike.new_game(deal, rules)
    legal: list[Move] = []
    states = [state]
    stale = 0
    source = list(moves) if moves is not None else None
    while len(legal) < max_moves:
        if source is not None:
            if len(legal) >= len(source):
                break
            m = replace(source[len(legal)], t=None)
        else:
            got = _greedy(state, rng, stale)
            if got is None:
                break
            m = got
        verdict = klondike.apply(state, m)
        if isinstance(verdict, Illegal):
            raise ValueError(f"move {len(legal) + 1} ({m}) is illegal: {verdict.rule}: {verdict.reason}")
        before = state.foundation_count, sum(state.hidden), len(state.waste) + len(state.stock)
        state = verdict.state
        after = state.foundation_count, sum(state.hidden), len(state.waste) + len(state.stock)
        stale = stale + 1 if m.op in ("draw", "recycle") and before[:2] == after[:2] else 0
        legal.append(m)
        states.append(state)
        if state.won:
            break
    # where the illegal moves go: spread over the game, at a position that offers a good mistake
    slots: dict[int, tuple[Move, Illegal]] = {}
    used: set[str] = set()  # the same mistake (same cards) twice is dull
    for k in range(illegal):
        want = int(round((k + 1) * len(legal) / (illegal + 1)))
        for pos in list(range(want, len(legal) + 1)) + list(range(want - 1, 0, -1)):
            if pos in slots:
                continue
            cands = [c for c in _illegal_candidates(states[pos]) if c[0] > 0 and c[2].reason not in used]
            if cands:
                slots[pos] = (cands[0][1], cands[0][2])
                used.add(cands[0][2].reason)
                break
    hover_at: dict[int, str] = {}
    for k in range(hovers):
        pos = int((k + 0.5) * len(legal) / max(hovers, 1)) + 1
        while pos in slots and pos < len(legal):
            pos += 1
        hover_at[pos] = f"tableau{int(rng.integers(1, rules.columns + 1))}"
    steps: list[Step] = []
    for pos in range(len(legal) + 1):
        if pos in hover_at:
            steps.append(Step("hover", Move("hover"), zone=hover_at[pos]))
        if pos in slots:
            m, verdict = slots[pos]
            steps.append(Step("illegal", m, verdict.rule, verdict.reason))
            steps.append(Step("take_back", Move.move(m.dst, m.src), takes_back=len(steps) - 1))
        if pos < len(legal):
            steps.append(Step("legal", legal[pos]))
    return steps


# ------------------------------------------------------------------------------------------ filming


def _fan_length(the_deal: Deal, rules: KlondikeRules, steps: Sequence[Step]) -> float:
    """How long the tableau zones must be (mm) for the longest column of the game, so the camera can
    frame the cards the game uses rather than the template's 480 mm (at least 200 mm)."""
    state = klondike.new_game(the_deal, rules)

    def depth(s: KlondikeState, extra: int = 0, column: int = -1) -> float:
        best = 0.0
        for i, (p, h) in enumerate(zip(s.tableau, s.hidden)):
            up = len(p) - h + (extra if i == column else 0)
            if up:
                best = max(best, 4 + h * BACK_STEP + (up - 1) * FACE_STEP + CARD_H)
            elif h:
                best = max(best, 4 + (h - 1) * BACK_STEP + CARD_H)
        return best

    deepest = depth(state)
    for step in steps:
        if step.kind == "legal":
            verdict = klondike.apply(state, step.move)
            if isinstance(verdict, Legal):
                state = verdict.state
                deepest = max(deepest, depth(state))
        elif step.kind == "illegal" and step.move.dst.startswith("t"):
            deepest = max(deepest, depth(state, 1, int(step.move.dst[1:]) - 1))
    return float(max(200.0, 10.0 * math.ceil(deepest / 10.0) + 10.0))



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


def truth_line(frame: Frame, scene: TableScene) -> dict[str, Any]:
    """One line of truth.jsonl: the TableState JSON of the true visible table (STATES.jsonl's shape),
    plus whether the table is at rest and what the hand carries."""
    out = _table_state(frame).to_json()
    out["at_rest"] = frame.at_rest
    out["carried"] = [c for c, _ in scene.carried]
    out["hand_mm"] = None if scene.hand is None else [round(float(v), 1) for v in scene.hand]
    return out


def _dump(obj: Any) -> str:
    return json.dumps(obj, separators=(", ", ": "))


def render_klondike(out_dir: Path, seed: int, rules: KlondikeRules | None = None, the_deal: Deal | None = None,
                    moves: Sequence[Move] | None = None, illegal: int = 1, max_moves: int = 1000, hovers: int = 0,
                    settings: RenderSettings = RenderSettings(), video_name: str = "video.mp4",
                    progress: Callable[[int, float], None] | None = None, command: str | None = None) -> dict[str, Any]:
    """Film a Klondike game into ``out_dir``; returns the summary also written to ``render.json``."""
    started = time.perf_counter()
    rules = rules or KlondikeRules.make()
    the_deal = the_deal or klondike.deal(seed, rules.columns)
    if settings.seconds is not None:  # about 3.3 s a hand visit; the filming loop also watches the clock
        max_moves = min(max_moves, max(1, int((settings.seconds - 3.5) / 3.3) - 2 * illegal - hovers))
    steps = plan(the_deal, rules, moves, max_moves, illegal, seed, hovers)
    fan_len = _fan_length(the_deal, rules, steps)
    layout = klondike_layout(1, rules.columns, Spacing(fan_len=fan_len))
    rng = np.random.default_rng([seed, 1])
    est_seconds = settings.seconds or 3.0 * len(steps)
    look = Look.draw(rng, est_seconds, settings.texture)
    x0, y0, x1, y1 = layout.bounds_mm()
    camera = make_camera((x0 - 15, y0 - 15, x1 + 15, y1 + 15), settings.size, look.tilt_deg, look.roll_deg, look.yaw_deg,
                         distance_mm=float(rng.uniform(800, 1000)))
    faces = Faces.load(settings.deck, settings.decks_root)
    painter = Painter(layout, camera, faces, look, seed, settings.px_per_mm, settings.fps)
    painter.with_boxes = settings.boxes

    state = klondike.new_game(the_deal, rules)
    piles = {f"tableau{i + 1}": Pile(h, [c.code for c in p[h:]]) for i, (p, h) in enumerate(zip(state.tableau, state.hidden))}
    piles["stock"] = Pile(len(state.stock), [])
    scene = TableScene(layout, camera.homography, piles, fps=settings.fps, noise=Noise(), seed=seed, images=False,
                       visible_waste=rules.draw, image_width=settings.size[0])

    out_dir.mkdir(parents=True, exist_ok=True)
    cal = make_calibration(camera.homography, "manual", layout=LayoutSpec(game="klondike", columns=rules.columns, fan_len_mm=fan_len))
    save_calibration(cal, out_dir / "calibration.json")
    (out_dir / "deal.json").write_text(_dump(the_deal.to_json()) + "\n", encoding="utf-8")
    writer = VideoWriter(out_dir / video_name, settings.size, settings.fps, crf=settings.crf)
    frames = 0
    move_lines: list[dict[str, Any]] = []
    vr = np.random.default_rng([seed, 3])
    try:
        box_lines: list[str] = []
        with open(out_dir / "truth.jsonl", "w", encoding="utf-8") as truth:

            def film(it: Iterator[Frame]) -> int:
                nonlocal frames
                first = -1
                for fr in it:
                    if first < 0:
                        first = fr.index
                    img = painter.paint(scene, fr)
                    writer.write(img)
                    truth.write(_dump(truth_line(fr, scene)) + "\n")
                    if settings.boxes:
                        box_lines.append(_dump({"t": round(fr.t, 4), "frame": fr.index, "boxes": painter.index_boxes()}) + "\n")
                    frames += 1
                    if progress is not None:
                        progress(frames, fr.t)
                return first

            film(scene.hold(2.0))
            engine = state
            illegal_actions: dict[int, list[Action]] = {}
            for k, step in enumerate(steps):
                if settings.seconds is not None and scene.t >= settings.seconds and step.kind != "take_back":
                    break
                after: KlondikeState | None = None
                if step.kind == "legal":
                    verdict = klondike.apply(engine, step.move)
                    assert isinstance(verdict, Legal), verdict
                    after = verdict.state
                if step.kind == "take_back":
                    a = illegal_actions[step.takes_back or 0][0]
                    actions = [Action("move", a.dst, a.src, a.count, a.cards)]
                elif step.kind == "hover":
                    actions = [Action("hover", step.zone)]
                else:
                    actions = actions_for(scene, engine, step.move, after)
                if step.kind == "illegal":
                    illegal_actions[k] = actions
                t_start = scene.t
                first = film(scene.visit(actions, reach_s=float(vr.uniform(0.45, 0.7)), carry_s=float(vr.uniform(0.5, 0.8)),
                                         leave_s=float(vr.uniform(0.35, 0.55))))
                t_rest, rest_frame = scene.t, scene.index
                hold = 1.2 if step.kind != "illegal" else 2.5  # an illegal move lies there long enough to be seen
                film(scene.hold(float(vr.uniform(hold, hold + 0.8))))
                if after is not None:
                    engine = after
                line: dict[str, Any] = {"seq": len(move_lines), "kind": step.kind}
                if step.kind != "hover":
                    line.update(step.move.to_json())
                line["t"] = round(t_rest, 3)
                line["t_start"] = round(t_start, 3)
                line["frame_start"] = first
                line["frame_rest"] = rest_frame
                line["cards"] = list(actions[0].cards) if actions[0].kind != "recycle" else []
                line["zones"] = [actions[0].src, actions[0].dst or actions[0].src]
                flips = [a.cards[0] for a in actions if a.kind == "flip"]
                if flips:
                    line["turned_up"] = flips[0]
                if step.kind == "illegal":
                    line["rule"], line["reason"] = step.rule, step.reason
                if step.kind == "take_back":
                    line["takes_back"] = step.takes_back
                move_lines.append(line)
            film(scene.hold(1.5))
    finally:
        writer.release()
    if settings.boxes:  # gzip with no time stamp inside: the same render, the same bytes
        import gzip

        (out_dir / "boxes.jsonl.gz").write_bytes(gzip.compress("".join(box_lines).encode("utf-8"), 9, mtime=0))
    for i, line in enumerate(move_lines):  # plan-step numbers -> move-line numbers
        if line["kind"] == "take_back":
            line["takes_back"] = i - 1  # a take-back always follows its illegal move
        if line["kind"] == "hover":
            del line["cards"]
    with open(out_dir / "moves.jsonl", "w", encoding="utf-8") as fh:
        for line in move_lines:
            fh.write(_dump(line) + "\n")
    elapsed = time.perf_counter() - started
    summary: dict[str, Any] = {
        "game": "klondike",
        "seed": seed,
        "rules": rules.spec(),
        "deck": faces.name,
        "texture": look.texture,
        "size": list(settings.size),
        "fps": settings.fps,
        "px_per_mm": settings.px_per_mm,
        "frames": frames,
        "seconds": round(frames / settings.fps, 2),
        "moves": sum(1 for m in move_lines if m["kind"] == "legal"),
        "illegal": sum(1 for m in move_lines if m["kind"] == "illegal"),
        "hovers": sum(1 for m in move_lines if m["kind"] == "hover"),
        **({"command": command} if command else {}),
        "video": video_name,
        "codec": writer.codec,
        "camera": {"tilt_deg": round(camera.tilt_deg, 2), "roll_deg": round(camera.roll_deg, 2),
                   "yaw_deg": round(camera.yaw_deg, 2), "distance_mm": round(camera.distance_mm, 1)},
        "look": {"skin_bgr": list(look.skin_bgr), "blur_sigma": round(look.blur_sigma, 3),
                 "noise_sigma": round(look.noise_sigma, 3), "jpeg_quality": look.jpeg_quality,
                 "light_change_s": [round(v, 2) for v in look.light_change_s], "shutter": round(look.shutter, 3),
                 "glare": None if look.glare is None else [round(v, 3) for v in look.glare]},
    }
    (out_dir / "render.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    summary["render_seconds"] = round(elapsed, 1)  # not in render.json: the files depend on the seed only
    summary["render_fps"] = round(frames / max(elapsed, 1e-9), 2)
    return summary
