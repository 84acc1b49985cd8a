"""Double Solitaire truth videos (RULES.md K17): the engine plays both players' turns, each player's hand
acts them out from the own side of the table, :class:`~cardref.truth_video.Filming` films it.

The table is Klondike's two-player template: player 1's layout (``p1.`` zones) nearer the camera's
first seat, player 2's (``p2.``) turned to face the other way, the eight shared foundations in a row
between them; player 2's deck has another back design than player 1's (the other held-out deck's).
The camera stands at the end of the table, so the long table fills the picture's width.
Each player in turn plays like the one-player clips' player (aces up, moves that turn a card up, waste
to tableau, else draw) until a card turned from the stock cannot be placed and the turn passes (K17).

The deliberate mistakes alternate between a card of the player on turn put on a column where the
rules forbid it (K4, K8) and a move of the other player out of turn (K17); each lies on the table a
moment and is then taken back. ``moves.jsonl`` lines are ``cardref referee double_solitaire`` input
(each with its ``player``, 0 or 1; foundation sources ``f1`` .. ``f8`` in the order the piles were
started) plus the Klondike clips' extra fields; docs/truth-videos.md describes the files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from calibration.store import LayoutSpec
from calibration.templates import Spacing
from calibration.templates import klondike as klondike_layout
from referee import double_solitaire, klondike
from referee.cards import Card
from referee.double_solitaire import MAX_FOUNDATIONS, DoubleMove, DoubleRules, DoubleState
from referee.klondike import Deal, KlondikeRules, KlondikeState, Move
from referee.verdict import Illegal, Legal
from vision.synthetic_scenes import Action, Pile

from .truth_klondike import Step, actions_for, best_move, column_depth, fan_zone_length, film_step, take_back_of
from .truth_klondike import _illegal_candidates as wrong_card_candidates
from .truth_video import Filming, RenderSettings

__all__ = ["plan", "render_double"]

FOUNDATIONS = tuple(f"foundation{i + 1}" for i in range(MAX_FOUNDATIONS))


def seat_zone(player: int, name: str) -> str:
    """The zone of one player's own pile (``stock``, ``waste``, ``t3``)."""
    prefix = f"p{player + 1}."
    if name in ("stock", "waste"):
        return prefix + name
    if name.startswith("t") and name[1:].isdigit():
        return prefix + "tableau" + name[1:]
    raise ValueError(f"not a pile of a player's own layout: {name!r}")


@dataclass
class FoundationZones:
    """Which zone holds each shared foundation pile, in the engine's order (the order they were
    started; a pile emptied again drops out of it, as in the engine)."""

    zones: list[str] = field(default_factory=list)

    def of_pile(self, name: str) -> str:
        return self.zones[int(name[1:]) - 1]

    def for_card(self, state: DoubleState, code: str) -> str:
        """Where ``code`` goes up: the pile the engine puts it on, or the first free zone for an ace."""
        index = double_solitaire._foundation_for(state, Card.parse(code))
        if index is not None and index < len(self.zones):
            return self.zones[index]
        return next(z for z in FOUNDATIONS if z not in self.zones)

    def follow(self, before: DoubleState, after: DoubleState, zone: str) -> None:
        """Keep step with the engine after a move to or from the foundation in ``zone``."""
        if len(after.foundations) > len(before.foundations):
            self.zones.append(zone)
        elif len(after.foundations) < len(before.foundations):
            self.zones.remove(zone)


def _progress(state: DoubleState) -> tuple[int, int]:
    return sum(len(pile) for pile in state.foundations), sum(sum(lay.hidden) for lay in state.layouts)


def _mistakes(state: DoubleState, kind: str) -> list[tuple[float, DoubleMove, Illegal]]:
    """Moves a careless player could make here that the rules forbid, best-looking first: ``wrong_card``
    (the player on turn puts a card where K4/K8 forbid it) or ``out_of_turn`` (the other player turns
    cards from the own stock, or moves a card the own layout would take, K17). None uncovers a
    face-down card, so a take-back restores all."""
    out: list[tuple[float, DoubleMove, Illegal]] = []
    if kind == "wrong_card":
        p = state.turn
        for score, m, _ in wrong_card_candidates(state.layouts[p]):
            if score <= 0 or m.dst == "foundation":
                continue
            verdict = double_solitaire.apply(state, DoubleMove(p, m))
            if isinstance(verdict, Illegal):
                out.append((score, DoubleMove(p, m), verdict))
        return out
    q = 1 - state.turn
    layout = state.layouts[q]
    if layout.stock:  # the eager player's mistake: turning the own stock while the other is still playing
        verdict = double_solitaire.apply(state, DoubleMove(q, Move.draw()))
        if isinstance(verdict, Illegal):
            out.append((3.0, DoubleMove(q, Move.draw()), verdict))
    for m in klondike.legal_moves(layout):
        if m.op != "move" or m.dst == "foundation" or m.src.startswith("foundation"):
            continue
        if m.src.startswith("t"):
            i = int(m.src[1:]) - 1
            if len(layout.tableau[i]) - layout.hidden[i] <= m.count:
                continue
        verdict = double_solitaire.apply(state, DoubleMove(q, m))
        if isinstance(verdict, Illegal):
            out.append((2.0 if m.src == "waste" else 1.0, DoubleMove(q, m), verdict))
    out.sort(key=lambda x: -x[0])
    return out


def plan(deals: tuple[Deal, Deal], rules: KlondikeRules, max_moves: int, illegal: int, seed: int) -> list[Step]:
    """The game to film: up to ``max_moves`` legal moves of both players in turn, with ``illegal``
    deliberate mistakes (each followed by its take-back) spread among them."""
    rng = np.random.default_rng([seed, 7])
    state = double_solitaire.new_game(deals, rules)
    legal: list[DoubleMove] = []
    states = [state]
    stale = 0
    while len(legal) < max_moves and state.winner is None:
        moves = [dm.move for dm in double_solitaire.legal_moves(state)]
        p = state.turn
        m = best_move(state.layouts[p], moves, rng)
        if m is None:
            if stale > sum(len(lay.stock) + len(lay.waste) for lay in state.layouts) + 4:
                break  # both players drew through their stocks and nothing changed: stuck
            m = next((x for x in moves if x.op in ("draw", "recycle")), None)
            if m is None:
                break
        verdict = double_solitaire.apply(state, DoubleMove(p, m))
        if isinstance(verdict, Illegal):
            raise AssertionError(f"the player chose an illegal move {m}: {verdict.reason}")
        stale = stale + 1 if m.op in ("draw", "recycle") and _progress(verdict.state) == _progress(state) else 0
        state = verdict.state
        legal.append(DoubleMove(p, m))
        states.append(state)
    slots: dict[int, tuple[DoubleMove, Illegal]] = {}
    used: set[str] = set()
    for k in range(illegal):
        want = int(round((k + 1) * len(legal) / (illegal + 1)))
        kinds = ("out_of_turn", "wrong_card") if k % 2 == 0 else ("wrong_card", "out_of_turn")
        # never before the first move: until someone has moved, whoever moves has the turn
        positions = list(range(max(want, 1), len(legal) + 1)) + list(range(want - 1, 0, -1))
        for kind in kinds:
            got = next(((pos, c) for pos in positions if pos not in slots
                        for c in _mistakes(states[pos], kind) if c[2].reason not in used), None)
            if got is not None:
                pos, (_, dm, verdict) = got
                slots[pos] = (dm, verdict)
                used.add(verdict.reason)
                break
    steps: list[Step] = []
    for pos in range(len(legal) + 1):
        if pos in slots:
            dm, verdict = slots[pos]
            steps.append(Step("illegal", dm.move, verdict.rule, verdict.reason, player=dm.player))
            back = dm.move if dm.move.op == "draw" else Move.move(dm.move.dst, dm.move.src)
            steps.append(Step("take_back", back, takes_back=len(steps) - 1, player=dm.player))
        if pos < len(legal):
            steps.append(Step("legal", legal[pos].move, player=legal[pos].player))
    return steps


def _fan_length(deals: tuple[Deal, Deal], rules: KlondikeRules, steps: Sequence[Step]) -> float:
    state = double_solitaire.new_game(deals, rules)
    deepest = max(column_depth(lay) for lay in state.layouts)
    for step in steps:
        p = step.player or 0
        if step.kind == "legal":
            verdict = double_solitaire.apply(state, DoubleMove(p, step.move))
            if isinstance(verdict, Legal):
                state = verdict.state
                deepest = max(deepest, *(column_depth(lay) for lay in state.layouts))
        elif step.kind == "illegal" and step.move.dst.startswith("t"):
            deepest = max(deepest, column_depth(state.layouts[p], 1, int(step.move.dst[1:]) - 1))
    return fan_zone_length(deepest)


def _piles(state: DoubleState) -> dict[str, Pile]:
    piles: dict[str, Pile] = {}
    for p, lay in enumerate(state.layouts):
        for i, (cards, h) in enumerate(zip(lay.tableau, lay.hidden)):
            piles[seat_zone(p, f"t{i + 1}")] = Pile(h, [c.code for c in cards[h:]])
        piles[seat_zone(p, "stock")] = Pile(len(lay.stock), [])
    return piles


def render_double(out_dir: Path, seed: int, rules: DoubleRules | None = None,
                  deals: tuple[Deal, Deal] | None = None, illegal: int = 1, max_moves: int = 1000,
                  settings: RenderSettings = RenderSettings(), video_name: str = "video.mp4",
                  progress: Callable[[int, float], None] | None = None, command: str | None = None) -> dict[str, Any]:
    """Film a Double Solitaire game into ``out_dir``; returns the summary also written to ``render.json``."""
    rules = rules or DoubleRules()
    krules = rules.klondike
    deals = deals or double_solitaire.deal(seed)
    if settings.seconds is not None:  # about 3.3 s a hand visit; the filming loop also watches the clock
        max_moves = min(max_moves, max(1, int((settings.seconds - 3.5) / 3.3) - 2 * illegal))
    steps = plan(deals, krules, max_moves, illegal, seed)
    fan_len = _fan_length(deals, krules, steps)
    layout = klondike_layout(2, 7, Spacing(fan_len=fan_len))
    engine = double_solitaire.new_game(deals, krules)
    spec = LayoutSpec(game="klondike", players=2, fan_len_mm=fan_len)
    move_lines: list[dict[str, Any]] = []
    shared = FoundationZones()
    # a camera at the end of the table: the two layouts side by side across the picture's width
    with Filming(out_dir, seed, layout, spec, _piles(engine), settings, video_name, settings.seconds or 3.0 * len(steps),
                 visible_waste=krules.draw, progress=progress, camera_yaw_deg=90.0) as film:
        film.painter.use_back(2, film.faces.other_back(settings.decks_root))  # each player's own deck (K17)
        film.write_json("deal.json", {"players": [d.to_json() for d in deals]})
        scene = film.scene
        film.hold(2.0)
        illegal_actions: dict[int, list[Action]] = {}
        for k, step in enumerate(steps):
            if film.out_of_time() and step.kind != "take_back":
                break
            p = step.player or 0
            lay: KlondikeState = engine.layouts[p]
            after: DoubleState | None = None
            if step.kind == "legal":
                verdict = double_solitaire.apply(engine, DoubleMove(p, step.move))
                assert isinstance(verdict, Legal), verdict
                after = verdict.state
            if step.kind == "take_back":
                actions = [take_back_of(illegal_actions[step.takes_back or 0][0])]
            else:
                def zone_of(name: str, player: int = p) -> str:
                    return shared.of_pile(name) if name.startswith("f") else seat_zone(player, name)

                actions = actions_for(scene, lay, step.move, None if after is None else after.layouts[p],
                                      zone_of, lambda code: shared.for_card(engine, code))
            if step.kind == "illegal":
                illegal_actions[k] = actions
            move_lines.append(film_step(film, len(move_lines), step, actions, seat=p + 1))
            if after is not None:
                if step.move.dst == "foundation":
                    shared.follow(engine, after, actions[0].dst)
                elif step.move.src.startswith("f"):
                    shared.follow(engine, after, actions[0].src)
                engine = after
        film.hold(1.5)
    players = [m["player"] for m in move_lines if m["kind"] == "legal"]
    counts = {
        "moves": len(players),
        "illegal": sum(1 for m in move_lines if m["kind"] == "illegal"),
        "turns": sum(1 for k, p in enumerate(players) if k == 0 or p != players[k - 1]),
    }
    return film.finish("double_solitaire", rules.spec(), move_lines, counts, command)
