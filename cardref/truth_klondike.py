"""Klondike truth videos: the referee engine plays (or replays) a game, the :class:`~vision.render.TableScene`
acts it out with a hand, the :class:`~vision.render.Painter` films it.

The moves are legal moves of :mod:`referee.klondike` (from a replay file, or chosen by a simple greedy
player), with deliberately illegal moves slipped in: a card put where the rules forbid it (a red card on
a red card, preferably), left on the table for a moment, then taken back. The filming and the files
are shared with the other games (:mod:`cardref.truth_video`); written to the output folder
(docs/truth-videos.md describes them):

- ``video.mp4`` (or ``.avi``): the frames;
- ``calibration.json``: the camera's homography and the Klondike zone layout (``--calibration``);
- ``truth.jsonl``: one line per frame, the true visible table in STATES.jsonl's shape, plus ``at_rest``;
- ``moves.jsonl``: the true moves, illegal ones and their take-backs marked, with times and frames;
- ``deal.json``: the deal (DEAL.json); ``render.json``: how the video was made.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from calibration.store import LayoutSpec
from calibration.templates import Spacing
from calibration.templates import klondike as klondike_layout
from referee import klondike
from referee.cards import Card
from referee.klondike import SUIT_INDEX, Deal, KlondikeRules, KlondikeState, Move
from referee.verdict import Illegal, Legal
from vision.render import HandVisit, TableScene
from vision.synthetic_scenes import BACK_STEP, CARD_H, FACE_STEP, Action, Pile

from .truth_video import Filming, RenderSettings, Visited, truth_line

__all__ = ["RenderSettings", "Step", "actions_for", "plan", "render_klondike", "truth_line"]

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
    player: int | None = None
    """Double Solitaire: whose move (0 or 1)."""


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
    if src in ("stock", "waste"):
        return src
    if src.startswith("foundation:"):
        return _foundation_zone(scene, src.split(":")[1])
    return _tableau_zone(src)


def actions_for(scene: TableScene, state: KlondikeState, move: Move, after: KlondikeState | None,
                zone_of: Callable[[str], str] | None = None, foundation_of: Callable[[str], str] | None = None) -> list[Action]:
    """The hand actions that carry out ``move`` from ``state`` (``after``: the engine's next position,
    None for an illegal move, which never turns a card up). ``zone_of`` names the zone of an engine
    pile (``stock``, ``waste``, ``t3``, a foundation source), ``foundation_of`` the foundation zone a card
    goes up to; by default one player's Klondike table."""
    zone_of = zone_of or (lambda name: _src_zone(scene, name))
    foundation_of = foundation_of or (lambda code: _foundation_zone(scene, code[-1]))
    if move.op == "draw":
        n = min(state.rules.draw, len(state.stock))
        return [Action("turn", zone_of("stock"), zone_of("waste"), n, tuple(c.code for c in state.stock[:n]))]
    if move.op == "recycle":
        return [Action("recycle", zone_of("waste"), zone_of("stock"), len(state.waste))]
    src = zone_of(move.src)
    moving = scene.piles[src].faces[-move.count:]
    dst = foundation_of(moving[-1]) if move.dst == "foundation" else zone_of(move.dst)
    out = [Action("move", src, dst, move.count, tuple(moving))]
    if after is not None and move.src.startswith("t"):
        i = int(move.src[1:]) - 1
        if after.hidden[i] < state.hidden[i]:
            out.append(Action("flip", src, "", 1, (after.tableau[i][after.hidden[i]].code,)))
    return out


def take_back_of(a: Action) -> Action:
    """The hand action that undoes ``a``: the cards carried back (a draw: put back on the stock face down)."""
    return Action("unturn" if a.kind == "turn" else "move", a.dst, a.src, a.count, a.cards)


# ------------------------------------------------------------------------------------- the player


def best_move(state: KlondikeState, legal: Sequence[Move], rng: np.random.Generator) -> Move | None:
    """A plain human-like choice among ``legal``: aces and twos up, moves that turn up a card, waste to
    tableau; None when none of those is there (then a player draws)."""
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
    return max(scored)[2] if scored else None


def _greedy(state: KlondikeState, rng: np.random.Generator, stale: int) -> Move | None:
    """:func:`best_move`, otherwise draw. None when stuck (a full pass through the stock changed nothing)."""
    best = best_move(state, list(klondike.legal_moves(state)), rng)
    if best is not None:
        return best
    if stale > len(state.stock) + len(state.waste) + 2:
        return None
    if state.stock:
        return Move.draw()
    # (a recycle only while the passes allow one, K10: Vegas draw 3 allows three passes, and seed 814
    # went on past them)
    return Move.recycle() if state.waste and isinstance(klondike.apply(state, Move.recycle()), Legal) else None


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


def column_depth(s: KlondikeState, extra: int = 0, column: int = -1) -> float:
    """How far (mm) the longest column of ``s`` reaches from its zone's edge (``extra`` cards more on
    ``column``: an illegal move's card)."""
    best = 0.0
    for i, (p, h) in enumerate(zip(s.tableau, s.hidden)):
        up = len(p) - h + (extra if i == column else 0)
        if up:
            best = max(best, 4 + h * BACK_STEP + (up - 1) * FACE_STEP + CARD_H)
        elif h:
            best = max(best, 4 + (h - 1) * BACK_STEP + CARD_H)
    return best


def fan_zone_length(deepest: float) -> float:
    """The tableau zones' length (mm) for a game whose longest column reaches ``deepest``, so the camera
    can frame the cards the game uses rather than the template's 480 mm (at least 200 mm)."""
    return float(max(200.0, 10.0 * math.ceil(deepest / 10.0) + 10.0))


def _fan_length(the_deal: Deal, rules: KlondikeRules, steps: Sequence[Step]) -> float:
    state = klondike.new_game(the_deal, rules)
    deepest = column_depth(state)
    for step in steps:
        if step.kind == "legal":
            verdict = klondike.apply(state, step.move)
            if isinstance(verdict, Legal):
                state = verdict.state
                deepest = max(deepest, column_depth(state))
        elif step.kind == "illegal" and step.move.dst.startswith("t"):
            deepest = max(deepest, column_depth(state, 1, int(step.move.dst[1:]) - 1))
    return fan_zone_length(deepest)


def film_step(film: Filming, seq: int, step: Step, actions: Sequence[Action], seat: int = 1) -> dict[str, Any]:
    """The hand of ``seat`` comes, does ``actions`` and leaves, the table rests (an illegal move lies
    there long enough to be seen); returns the step's line of moves.jsonl."""
    vr = film.pace
    seen = film.visit([HandVisit(seat, tuple(actions), reach_s=float(vr.uniform(0.45, 0.7)),
                                 carry_s=float(vr.uniform(0.5, 0.8)), leave_s=float(vr.uniform(0.35, 0.55)))])
    hold = 1.2 if step.kind != "illegal" else 2.5
    film.hold(float(vr.uniform(hold, hold + 0.8)))
    return move_line(seq, step, seen, actions)


def move_line(seq: int, step: Step, seen: Visited, actions: Sequence[Action]) -> dict[str, Any]:
    """One line of moves.jsonl: the move as the engine's notation, when the hand came and when the table
    was at rest again, the cards and zones, the card turned up, an illegal move's rule."""
    line: dict[str, Any] = {"seq": seq, "kind": step.kind}
    if step.player is not None:
        line["player"] = step.player
    if step.kind != "hover":
        line.update(step.move.to_json())
    line.update(t=round(seen.t_rest, 3), t_start=round(seen.t_start, 3), frame_start=seen.frame_start,
                frame_rest=seen.frame_rest)
    if step.kind != "hover":
        line["cards"] = list(actions[0].cards) if actions[0].kind != "recycle" else []
    line["zones"] = [actions[0].src, actions[0].dst or actions[0].src]
    flips = [a.cards[0] for a in actions if a.kind == "flip"]
    if flips:
        line["turned_up"] = flips[0]
    if step.kind == "illegal":
        line["rule"], line["reason"] = step.rule, step.reason
    if step.kind == "take_back":
        line["takes_back"] = seq - 1  # a take-back always follows its illegal move
    return line


def render_klondike(out_dir: Path, seed: int, rules: KlondikeRules | None = None, the_deal: Deal | None = None,
                    moves: Sequence[Move] | None = None, illegal: int = 1, max_moves: int = 1000, hovers: int = 0,
                    settings: RenderSettings = RenderSettings(), video_name: str = "video.mp4",
                    progress: Callable[[int, float], None] | None = None, command: str | None = None) -> dict[str, Any]:
    """Film a Klondike game into ``out_dir``; returns the summary also written to ``render.json``."""
    rules = rules or KlondikeRules.make()
    the_deal = the_deal or klondike.deal(seed, rules.columns)
    if settings.seconds is not None:  # about 3.3 s a hand visit; the filming loop also watches the clock
        max_moves = min(max_moves, max(1, int((settings.seconds - 3.5) / 3.3) - 2 * illegal - hovers))
    steps = plan(the_deal, rules, moves, max_moves, illegal, seed, hovers)
    fan_len = _fan_length(the_deal, rules, steps)
    layout = klondike_layout(1, rules.columns, Spacing(fan_len=fan_len))
    state = klondike.new_game(the_deal, rules)
    piles = {f"tableau{i + 1}": Pile(h, [c.code for c in p[h:]]) for i, (p, h) in enumerate(zip(state.tableau, state.hidden))}
    piles["stock"] = Pile(len(state.stock), [])
    spec = LayoutSpec(game="klondike", columns=rules.columns, fan_len_mm=fan_len)
    move_lines: list[dict[str, Any]] = []
    with Filming(out_dir, seed, layout, spec, piles, settings, video_name, settings.seconds or 3.0 * len(steps),
                 visible_waste=rules.draw, progress=progress) as film:
        film.write_json("deal.json", the_deal.to_json())
        scene = film.scene
        film.hold(2.0)
        engine = state
        illegal_actions: dict[int, list[Action]] = {}
        for k, step in enumerate(steps):
            if film.out_of_time() and step.kind != "take_back":
                break
            after: KlondikeState | None = None
            if step.kind == "legal":
                verdict = klondike.apply(engine, step.move)
                assert isinstance(verdict, Legal), verdict
                after = verdict.state
            if step.kind == "take_back":
                actions = [take_back_of(illegal_actions[step.takes_back or 0][0])]
            elif step.kind == "hover":
                actions = [Action("hover", step.zone)]
            else:
                actions = actions_for(scene, engine, step.move, after)
            if step.kind == "illegal":
                illegal_actions[k] = actions
            move_lines.append(film_step(film, len(move_lines), step, actions))
            if after is not None:
                engine = after
        film.hold(1.5)
    counts = {
        "moves": sum(1 for m in move_lines if m["kind"] == "legal"),
        "illegal": sum(1 for m in move_lines if m["kind"] == "illegal"),
        "hovers": sum(1 for m in move_lines if m["kind"] == "hover"),
    }
    return film.finish("klondike", rules.spec(), move_lines, counts, command)
