"""Stress and Zenuwen truth videos: the referee engine plays a round of a speed game, every player's
hand acts it out from the own side of the table, :class:`~cardref.truth_video.Filming` films it.

The engines (:mod:`referee.stress`, :mod:`referee.zenuwen`) play; a simple player for each game
chooses the moves (a play when there is one, now and then a stack or a join, new centre cards when
nobody can play; in Stress a play that makes both centre tops the same rank is taken when it comes, so
the video shows the stress call and the slaps). The hands do what each verdict's events say: a play
and its refill from the stock (Stress) or the play and the card turned up under it (Zenuwen), all
players laying or turning their centre cards at the same moment, two hands slapping a centre pile
one after the other and the last one taking the centre piles under the own stock. ``illegal``
deliberate mistakes are slipped in (a row or pile card put on a centre pile it does not fit, two
ranks away preferably), left on the table, then taken back.

``moves.jsonl`` is the true event list in the replay format of docs/stress-zenuwen-format.md, so
``cardref referee stress|zenuwen --deal deal.json < moves.jsonl`` judges it: every line is an event
(``op``), with the Klondike clips' extra fields (``seq``, ``kind``, times and frames, ``cards``,
``zones``) and the ``calls`` the engine makes on it; an illegal event carries its take-back in
``taken_back`` (there is no take-back event in that format). docs/truth-videos.md describes the files.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from calibration.store import LayoutSpec
from calibration.templates import stress as stress_layout
from calibration.templates import zenuwen as zenuwen_layout
from calibration.zones import ZoneLayout
from referee import stress, zenuwen
from referee.options import to_spec
from referee.speed_live import centre_zone, pile_zone, stock_zone
from referee.verdict import Event, Illegal, Legal
from vision.render import HandVisit
from vision.synthetic_scenes import Action, Pile

from .truth_video import Filming, RenderSettings

Hands = list[tuple[int, list[Action]]]
"""Per visiting hand: its seat (player + 1) and what it does, in order."""


@dataclass
class Beat:
    """One visit of the hands: the engine moves it carries out, in time order, and what each hand does."""

    kind: str  # "legal", "illegal", "take_back"
    moves: list[Any]
    verdicts: list[Any]
    hands: Hands
    timed_by: list[int] = field(default_factory=list)
    """Per move: the index in ``hands`` of the hand whose first touch is the move's time (a slap), or -1:
    the move's time is when the table is at rest again."""


def _ranks_apart(a: int, b: int, wrap: bool) -> int:
    d = abs(a - b)
    return min(d, 13 - d) if wrap else d


def _calls(verdict: Any, calls: frozenset[str]) -> list[str]:
    return [e.kind for e in getattr(verdict, "events", ()) if e.kind in calls]


def _player(e: Event) -> int:
    """The player of an event that has one (a refill, a lay, a turn, a take)."""
    assert e.player is not None, e
    return e.player


def _zones(hands: Hands) -> list[str]:
    """The zones the hands took cards from or put cards on, in order (slaps: the pile slapped)."""
    out: list[str] = []
    for _, actions in hands:
        for a in actions:
            for z in (a.src, a.dst):
                if z and z not in out:
                    out.append(z)
    return out


def _new_deal(before: dict[str, Pile], after: dict[str, Pile], players: int) -> Hands:
    """A new round's deal: each player gathers the own cards still on the table (the centre piles
    too, where they are still there) and lays the next round's cards out, the stock first."""
    hands: Hands = []
    for p in range(players):
        seat = f"p{p + 1}."
        mine = [z for z in before if z.startswith(seat)] + ([centre_zone(p)] if centre_zone(p) in before else [])
        actions = [Action("take", z) for z in mine if before[z].backs or before[z].faces]
        new = sorted((z for z in after if z.startswith(seat)), key=lambda z: (z != stock_zone(p), z))
        actions += [Action("put", z, z, after[z].backs, tuple(after[z].faces)) for z in new if after[z].backs or after[z].faces]
        if actions:
            hands.append((p + 1, actions))
    return hands


# ------------------------------------------------------------------------------------------ the games


class SpeedScript:
    """What the filming needs from one speed game: its layout, the table as Scene piles, a player, the
    mistakes a careless hand makes, and the hand actions that carry out a verdict."""

    name = ""
    calls: frozenset[str] = frozenset()

    def __init__(self, rules: Any, deal: Any, rounds: int = 1) -> None:
        self.rules = rules
        self.deal = deal
        self.rounds = rounds
        """Rounds to play: after the last one :meth:`next_moves` stops at the round's end."""

    def start(self) -> Any:
        raise NotImplementedError

    def apply(self, state: Any, move: Any) -> Any:
        raise NotImplementedError

    def layout(self) -> tuple[ZoneLayout, LayoutSpec]:
        raise NotImplementedError

    def piles(self, state: Any) -> dict[str, Pile]:
        raise NotImplementedError

    def next_moves(self, state: Any, rng: np.random.Generator, seen: dict[str, int]) -> list[Any]:
        """The legal moves of the next visit (one, or both slaps of a stress; at a round's end the pile
        choices and the next round's deal while :attr:`rounds` last); [] when the filming is over."""
        raise NotImplementedError

    def hands(self, state: Any, moves: Sequence[Any], verdicts: Sequence[Legal[Any]]) -> tuple[Hands, list[int]]:
        """The hands that carry out these legal moves from ``state`` (read from the verdicts' events)
        and, per move, the hand whose first touch is its time (:attr:`Beat.timed_by`)."""
        raise NotImplementedError

    def mistakes(self, state: Any) -> list[tuple[float, Any, Illegal]]:
        """Plays a careless hand could make that the rules forbid, best-looking first."""
        raise NotImplementedError

    def late(self, state: Any, move: Any) -> bool:
        """Whether ``move`` (legal in ``state``) changes nothing: a Zenuwen slap after the race is decided."""
        return False

    def mistake_hands(self, move: Any, state: Any, back: bool) -> Hands:
        """The hand that makes the illegal play (``back``: that takes it back)."""
        raise NotImplementedError


class StressScript(SpeedScript):
    name = "stress"
    calls = stress.CALLS

    def start(self) -> stress.StressState:
        return stress.new_game(self.deal, self.rules).state

    def apply(self, state: stress.StressState, move: Any) -> Any:
        return stress.apply(state, move)

    def layout(self) -> tuple[ZoneLayout, LayoutSpec]:
        return stress_layout(2), LayoutSpec(game="stress", players=2)

    def piles(self, state: stress.StressState) -> dict[str, Pile]:
        out: dict[str, Pile] = {}
        for p, seat in enumerate(state.seats):
            for i, pile in enumerate(seat.row):
                out[pile_zone(p, i)] = Pile(0, [c.code for c in pile])
            out[stock_zone(p)] = Pile(len(seat.stock), [])
        for j, pile in enumerate(state.centre):
            out[centre_zone(j)] = Pile(0, [c.code for c in pile])
        return out

    def next_moves(self, state: stress.StressState, rng: np.random.Generator, seen: dict[str, int]) -> list[Any]:
        phase = state.phase
        if phase is stress.Phase.LAY:
            return [stress.Lay()]
        if phase is stress.Phase.STRESS:
            first = int(rng.integers(0, 2))
            return [stress.Slap(first, int(rng.integers(0, 2))), stress.Slap(1 - first, int(rng.integers(0, 2)))]
        if phase is stress.Phase.ROUND_OVER and state.round < self.rounds:
            return [stress.NewRound()]  # S11: the engine reshuffles the cards into the next deal
        if phase is not stress.Phase.PLAY:
            return []
        options = [m for m in stress.legal_moves(state) if isinstance(m, (stress.Play, stress.Stack))]
        plays = [m for m in options if isinstance(m, stress.Play)]
        stacks = [m for m in options if isinstance(m, stress.Stack)]
        makes_stress = [m for m in plays if "stress" in _calls(stress.apply(state, m), self.calls)]
        if makes_stress and (not seen.get("stress") or rng.random() < 0.3):
            return [makes_stress[int(rng.integers(0, len(makes_stress)))]]
        if stacks and (not plays or rng.random() < 0.15):
            return [stacks[int(rng.integers(0, len(stacks)))]]
        if plays:
            # fast players: either may be first; a player with several plays takes any of them
            player = int(rng.integers(0, 2))
            mine = [m for m in plays if m.player == player] or plays
            return [mine[int(rng.integers(0, len(mine)))]]
        return [stress.Lay()]  # nobody can play (S9: stuck)

    def hands(self, state: stress.StressState, moves: Sequence[Any], verdicts: Sequence[Legal[Any]]) -> tuple[Hands, list[int]]:
        move, verdict = moves[0], verdicts[0]
        if isinstance(move, stress.NewRound):
            return _new_deal(self.piles(state), self.piles(verdict.state), 2), [-1]
        if isinstance(move, stress.Slap):
            hands: Hands = []
            for m, v in zip(moves, verdicts):
                actions = [Action("slap", centre_zone(m.pile))]
                for e in v.events:
                    if e.kind == "take":  # the last slapper takes the centre piles under the own stock
                        for j in dict(e.data)["piles"]:
                            actions.append(Action("recycle", centre_zone(j), stock_zone(_player(e))))
                hands.append((m.player + 1, actions))
            return hands, list(range(len(moves)))
        if isinstance(move, stress.Lay):
            take = {_player(e) for e in verdict.events if e.kind == "take_centre"}
            given = {dict(e.data)["to"]: _player(e) for e in verdict.events if e.kind == "give"}
            hands = []
            for e in verdict.events:
                if e.kind != "lay":
                    continue
                p = _player(e)
                actions = []
                if p in take:
                    actions.append(Action("recycle", centre_zone(p), stock_zone(p)))
                src = stock_zone(given.get(p, p))
                actions.append(Action("turn", src, centre_zone(p), 1, tuple(c.code for c in e.cards)))
                hands.append((p + 1, actions))
            return hands, [-1]
        p = move.player
        assert isinstance(move.source, int)
        src = pile_zone(p, move.source)
        pile = state.seats[p].row[move.source]
        if isinstance(move, stress.Play):
            assert isinstance(move.to, int)
            dst = centre_zone(move.to)
        else:
            assert isinstance(move.onto, int)
            dst = pile_zone(p, move.onto)
        actions = [Action("move", src, dst, len(pile), tuple(c.code for c in pile))]
        for e in verdict.events:
            if e.kind == "refill":
                actions.append(Action("turn", stock_zone(p), src, 1, tuple(c.code for c in e.cards)))
        return [(p + 1, actions)], [-1]

    def mistakes(self, state: stress.StressState) -> list[tuple[float, Any, Illegal]]:
        if state.phase is not stress.Phase.PLAY:
            return []
        out: list[tuple[float, Any, Illegal]] = []
        for p, seat in enumerate(state.seats):
            for i, pile in enumerate(seat.row):
                if not pile:
                    continue
                for j, top in enumerate(state.tops()):
                    if top is None:
                        continue
                    m = stress.Play(p, i, j)
                    v = stress.apply(state, m)
                    if isinstance(v, Illegal):
                        apart = _ranks_apart(pile[-1].rank, top.rank, self.rules.wrap)
                        out.append((3.0 if apart == 2 else 1.0 if apart == 0 else 0.5, m, v))
        out.sort(key=lambda x: -x[0])
        return out

    def mistake_hands(self, move: Any, state: stress.StressState, back: bool) -> Hands:
        pile = state.seats[move.player].row[move.source]
        a, b = pile_zone(move.player, move.source), centre_zone(move.to)
        src, dst = (b, a) if back else (a, b)
        return [(move.player + 1, [Action("move", src, dst, len(pile), tuple(c.code for c in pile))])]


class ZenuwenScript(SpeedScript):
    name = "zenuwen"
    calls = zenuwen.CALLS

    def start(self) -> zenuwen.ZenuwenState:
        return zenuwen.new_game(self.deal, self.rules).state

    def apply(self, state: zenuwen.ZenuwenState, move: Any) -> Any:
        return zenuwen.apply(state, move)

    def layout(self) -> tuple[ZoneLayout, LayoutSpec]:
        n = self.rules.players
        return zenuwen_layout(n), LayoutSpec(game="zenuwen", players=n)

    def piles(self, state: zenuwen.ZenuwenState) -> dict[str, Pile]:
        out: dict[str, Pile] = {}
        for p, seat in enumerate(state.seats):
            for i, pile in enumerate(seat.piles):
                out[pile_zone(p, i)] = Pile(len(pile.cards) - pile.up, [c.code for c in pile.visible])
            out[stock_zone(p)] = Pile(len(seat.stock), [])
        for j, cp in enumerate(state.centre):
            out[centre_zone(j)] = Pile(0, [c.code for c in cp])
        return out

    def next_moves(self, state: zenuwen.ZenuwenState, rng: np.random.Generator, seen: dict[str, int]) -> list[Any]:
        if state.phase is zenuwen.Phase.TURN:
            return [zenuwen.Turn()]
        if state.phase is zenuwen.Phase.CHOOSE and state.round < self.rounds:
            # Z10/Z11: the smallest free pile, as players normally take, now and then another one;
            # under slap_race every player slaps: the fastest hand gets the pile it went for, the others
            # come down late (changing nothing) on the same pile or on the one they would take next;
            # then the others choose in turn
            free = sorted(zenuwen.free_piles(state), key=lambda i: (len(state.centre[i]), i))
            pile = free[0] if len(free) == 1 or rng.random() < 0.75 else free[int(rng.integers(1, len(free)))]
            if self.rules.pile_choice == "slap_race" and not state.raced:
                order = [int(p) for p in rng.permutation(state.players)]
                others = [i for i in free if i != pile]
                return [zenuwen.Slap(order[0], pile)] + [
                    zenuwen.Slap(p, pile if not others or rng.random() < 0.5 else others[0]) for p in order[1:]]
            return [zenuwen.Choose(zenuwen.choice_order(state)[0], pile)]
        if state.phase is zenuwen.Phase.NEXT and state.round < self.rounds:
            packets = []
            for packet in zenuwen._packets(state):  # Z11: each player shuffles the own cards and lays them out
                cards = list(packet)
                rng.shuffle(cards)
                packets.append(zenuwen.lay_out(cards))
            return [zenuwen.NewRound(layout=zenuwen.Layout(tuple(packets)))]
        if state.phase is not zenuwen.Phase.PLAY:
            return []
        options = list(zenuwen.legal_moves(state))
        plays = [m for m in options if isinstance(m, zenuwen.Play) and not m.from_hand]

        def turns_up(m: zenuwen.Join) -> bool:  # onto a pile of the same value, freeing a face-down card
            assert isinstance(m.source, int) and isinstance(m.onto, int)  # legal_moves names piles by position
            src, dst = state.seats[m.player].piles[m.source], state.seats[m.player].piles[m.onto]
            return bool(dst.cards) and len(src.cards) > src.up

        joins = [m for m in options if isinstance(m, zenuwen.Join) and turns_up(m)]
        if joins and (not plays or rng.random() < 0.12):
            return [joins[int(rng.integers(0, len(joins)))]]
        if plays:
            player = int(rng.integers(0, state.players))
            mine = [m for m in plays if m.player == player] or plays
            return [mine[int(rng.integers(0, len(mine)))]]
        return [zenuwen.Turn()]  # nobody can play (Z7): all turn a new card

    def hands(self, state: zenuwen.ZenuwenState, moves: Sequence[Any], verdicts: Sequence[Legal[Any]]) -> tuple[Hands, list[int]]:
        move, verdict = moves[0], verdicts[0]
        if isinstance(move, (zenuwen.Choose, zenuwen.Slap)):  # each player takes the own centre pile up, the first first
            takes = {_player(e): int(dict(e.data)["centre"]) for e in verdict.events if e.kind in ("take_pile", "slap")}
            if isinstance(move, zenuwen.Slap):
                # the race's winner slaps the pile and takes it up; the late slappers follow in the
                # order they came (a slapper whose pile the race settled takes it up after slapping)
                hands: Hands = []
                for m in moves:
                    actions = [Action("slap", centre_zone(m.pile))]
                    if m.player in takes:
                        actions.append(Action("take", centre_zone(takes.pop(m.player))))
                    hands.append((m.player + 1, actions))
                timed_by = list(range(len(moves)))
            else:
                hands, timed_by = [], [-1]
            return hands + [(p + 1, [Action("take", centre_zone(k))]) for p, k in takes.items()], timed_by
        if isinstance(move, zenuwen.NewRound):  # the centre piles went with the choices
            before = {z: pile for z, pile in self.piles(state).items() if z.startswith("p")}
            return _new_deal(before, self.piles(verdict.state), state.players), [-1]
        if isinstance(move, zenuwen.Turn):
            per: dict[int, list[Action]] = {}
            for e in verdict.events:
                if e.kind == "recycle":  # no stock anywhere: the own centre pile back, face down (Z8)
                    p = _player(e)
                    per.setdefault(p, []).append(Action("recycle", centre_zone(p), stock_zone(p)))
                elif e.kind == "turn":
                    p = _player(e)
                    owner = int(dict(e.data).get("stock_of", p))
                    per.setdefault(p, []).append(
                        Action("turn", stock_zone(owner), centre_zone(p), 1, tuple(c.code for c in e.cards)))
            return [(p + 1, per[p]) for p in sorted(per)], [-1]
        p = move.player
        assert isinstance(move.source, int)
        src = pile_zone(p, move.source)
        if isinstance(move, zenuwen.Play):
            assert isinstance(move.to, int)
            top = state.seats[p].piles[move.source].top
            assert top is not None
            actions = [Action("move", src, centre_zone(move.to), 1, (top.code,))]
        else:
            assert isinstance(move.onto, int)
            moving = state.seats[p].piles[move.source].visible
            actions = [Action("move", src, pile_zone(p, move.onto), len(moving), tuple(c.code for c in moving))]
        for e in verdict.events:
            if e.kind == "turned_up":
                actions.append(Action("flip", src, "", 1, tuple(c.code for c in e.cards)))
        return [(p + 1, actions)], [-1]

    def late(self, state: zenuwen.ZenuwenState, move: Any) -> bool:
        return isinstance(move, zenuwen.Slap) and state.raced

    def mistakes(self, state: zenuwen.ZenuwenState) -> list[tuple[float, Any, Illegal]]:
        if state.phase is not zenuwen.Phase.PLAY:
            return []
        out: list[tuple[float, Any, Illegal]] = []
        for p, seat in enumerate(state.seats):
            for i, pile in enumerate(seat.piles):
                if pile.top is None or len(pile.cards) < 2:  # never one that leaves a pile empty
                    continue
                for j, top in enumerate(state.tops()):
                    if top is None:
                        continue
                    m = zenuwen.Play(p, i, j)
                    v = zenuwen.apply(state, m)
                    if isinstance(v, Illegal):
                        apart = _ranks_apart(pile.top.rank, top.rank, True)
                        out.append((3.0 if apart == 2 else 1.0 if apart == 0 else 0.5, m, v))
        out.sort(key=lambda x: -x[0])
        return out

    def mistake_hands(self, move: Any, state: zenuwen.ZenuwenState, back: bool) -> Hands:
        top = state.seats[move.player].piles[move.source].top
        assert top is not None
        a, b = pile_zone(move.player, move.source), centre_zone(move.to)
        src, dst = (b, a) if back else (a, b)
        return [(move.player + 1, [Action("move", src, dst, 1, (top.code,))])]


# ------------------------------------------------------------------------------------------ planning


def plan(script: SpeedScript, max_moves: int, illegal: int, seed: int) -> list[Beat]:
    """The round to film: legal moves of the script's player (at most ``max_moves``, or until the round
    is over) with ``illegal`` mistakes spread among them, each followed by its take-back."""
    rng = np.random.default_rng([seed, 7])
    state = script.start()
    beats: list[Beat] = []
    states = [state]
    seen: dict[str, int] = {}
    count = 0
    while count < max_moves:
        moves = script.next_moves(state, rng, seen)
        if not moves:
            break
        before = state
        verdicts = []
        for m in moves:
            v = script.apply(state, m)
            if not isinstance(v, Legal):
                raise AssertionError(f"the {script.name} player chose an illegal move {m}: {v}")
            verdicts.append(v)
            state = v.state
            for c in _calls(v, script.calls):
                seen[c] = seen.get(c, 0) + 1
        hands, timed_by = script.hands(before, moves, verdicts)
        beats.append(Beat("legal", moves, verdicts, hands, timed_by))
        states.append(state)
        count += len(moves)
    slots: dict[int, tuple[Any, Illegal]] = {}
    used: set[str] = set()
    for k in range(illegal):
        want = int(round((k + 1) * len(beats) / (illegal + 1)))
        for pos in list(range(want, len(beats) + 1)) + list(range(want - 1, 0, -1)):
            if pos in slots:
                continue
            cands = [c for c in script.mistakes(states[pos]) if c[2].reason not in used]
            if cands:
                slots[pos] = (cands[0][1], cands[0][2])
                used.add(cands[0][2].reason)
                break
    out: list[Beat] = []
    for pos in range(len(beats) + 1):
        if pos in slots:
            m, v = slots[pos]
            out.append(Beat("illegal", [m], [v], script.mistake_hands(m, states[pos], back=False), [-1]))
            out.append(Beat("take_back", [m], [v], script.mistake_hands(m, states[pos], back=True), [-1]))
        if pos < len(beats):
            out.append(beats[pos])
    return out


# ------------------------------------------------------------------------------------------ filming


def _describe(line: dict[str, Any], hands: Hands, players: int) -> None:
    """The Klondike clips' ``cards`` (what each hand's first move or turn carried: the pile played, the
    centre cards laid in seat order), ``zones``, and what followed in the same visit: ``refill`` (the
    stock card laid in the freed row place, Stress) or ``turned_up`` (Zenuwen)."""
    firsts = [next((a for a in actions if a.kind in ("move", "turn")), None) for _, actions in hands]
    cards = [c for a in firsts if a is not None for c in a.cards]
    if line.get("op") == "lay" and len(cards) != players:
        cards = []  # a Stress lay's cards are checked against the stocks: only when everyone laid one
    if cards:
        line["cards"] = cards
    line["zones"] = _zones(hands)
    for _, actions in hands:
        for a in actions[1:]:
            if a.kind == "turn" and a.dst.split(".")[-1].startswith("pile"):
                line["refill"] = a.cards[0]
            elif a.kind == "flip":
                line["turned_up"] = a.cards[0]


def _at(move: Any, t: float) -> Any:
    return replace(move, t=round(t, 3))


def render_speed(script: SpeedScript, out_dir: Path, seed: int, illegal: int = 1, max_moves: int = 1000,
                 settings: RenderSettings = RenderSettings(), video_name: str = "video.mp4",
                 progress: Callable[[int, float], None] | None = None, command: str | None = None) -> dict[str, Any]:
    """Film a round of ``script``'s game into ``out_dir``; returns the summary also written to ``render.json``."""
    if settings.seconds is not None:  # about 3.5 s a visit with its rest; the filming also watches the clock
        max_moves = min(max_moves, max(1, int((settings.seconds - 2.0) / 3.5) - 2 * illegal))
    beats = plan(script, max_moves, illegal, seed)
    layout, spec = script.layout()
    state = script.start()
    move_lines: list[dict[str, Any]] = []
    with Filming(out_dir, seed, layout, spec, script.piles(state), settings, video_name,
                 settings.seconds or 3.5 * len(beats), progress=progress) as film:
        film.write_json("deal.json", script.deal.to_json())
        pace = film.pace
        film.hold(2.0)
        for beat in beats:
            if film.out_of_time() and beat.kind != "take_back":
                break
            visits = []
            delay = 0.0
            for k, (seat, actions) in enumerate(beat.hands):
                slap = beat.kind == "legal" and k in beat.timed_by
                if slap and k > 0:  # each later slapper after the one before (the slappers' hands come first)
                    delay += float(pace.uniform(0.3, 0.5)) if k == 1 else float(pace.uniform(0.1, 0.3))
                visits.append(HandVisit(seat, tuple(actions), reach_s=float(pace.uniform(0.4, 0.6)),
                                        carry_s=float(pace.uniform(0.4, 0.65)), leave_s=float(pace.uniform(0.3, 0.45)),
                                        delay_s=delay if slap else 0.0))
            seen = film.visit(visits)
            hold = 2.5 if beat.kind == "illegal" else 1.0  # an illegal play lies there long enough to be seen
            film.hold(float(pace.uniform(hold, hold + 0.7)))
            if beat.kind == "take_back":
                move_lines[-1]["taken_back"] = {"t": round(seen.t_rest, 3), "t_start": round(seen.t_start, 3),
                                                "frame_start": seen.frame_start, "frame_rest": seen.frame_rest}
                continue
            for move, verdict, hand in zip(beat.moves, beat.verdicts, beat.timed_by):
                t = seen.t_rest if hand < 0 else seen.touched(beat.hands[hand][0])
                timed = _at(move, t)
                again = script.apply(state, timed)  # judged again at its filmed time: the same verdict
                late = beat.kind == "legal" and script.late(state, timed)
                if beat.kind == "legal":
                    assert isinstance(again, Legal), again
                    state = again.state
                else:
                    assert isinstance(again, Illegal) and again.rule == verdict.rule, again
                line: dict[str, Any] = {"seq": len(move_lines), "kind": beat.kind, **timed.to_json()}
                line.update(t_start=round(seen.t_start, 3), frame_start=seen.frame_start, frame_rest=seen.frame_rest)
                if late:
                    line["late"] = True
                if hand < 0:
                    _describe(line, beat.hands, len(state.seats))
                else:
                    line["zones"] = _zones([beat.hands[hand]])
                if beat.kind == "illegal":
                    line["rule"], line["reason"] = verdict.rule, verdict.reason
                called = _calls(again, script.calls)
                if called:
                    line["calls"] = called
                move_lines.append(line)
        film.hold(1.5)
    calls: dict[str, int] = {}
    for m in move_lines:
        for c in m.get("calls", []):
            calls[c] = calls.get(c, 0) + 1
    counts = {
        "players": len(state.seats),
        "moves": sum(1 for m in move_lines if m["kind"] == "legal"),
        "illegal": sum(1 for m in move_lines if m["kind"] == "illegal"),
        "calls": calls,
    }
    return film.finish(script.name, _rules_spec(script), move_lines, counts, command)


def _rules_spec(script: SpeedScript) -> str:
    return to_spec(script.rules)


def render_stress(out_dir: Path, seed: int, rules: stress.StressRules | None = None,
                  the_deal: stress.StressDeal | None = None, rounds: int = 1, **kwargs: Any) -> dict[str, Any]:
    """Film ``rounds`` Stress rounds (two players) into ``out_dir`` (arguments of :func:`render_speed`)."""
    script = StressScript(rules or stress.StressRules(), the_deal or stress.deal(seed), rounds)
    return render_speed(script, out_dir, seed, **kwargs)


def render_zenuwen(out_dir: Path, seed: int, rules: zenuwen.ZenuwenRules | None = None,
                   the_deal: zenuwen.ZenuwenDeal | None = None, players: int = 2, rounds: int = 1,
                   **kwargs: Any) -> dict[str, Any]:
    """Film ``rounds`` Zenuwen rounds (2-4 players) into ``out_dir`` (arguments of :func:`render_speed`)."""
    from .replay_speed import zenuwen_rules

    the_deal = the_deal or zenuwen.deal(seed, players)
    rules = rules or zenuwen_rules("", the_deal)
    return render_speed(ZenuwenScript(rules, the_deal, rounds), out_dir, seed, **kwargs)


# ------------------------------------------------------------------------------------------ checking


def referee_video(folder: Path, min_visible: float = 0.6, camera_slaps: bool = False) -> Any:
    """The whole camera referee (:class:`cardref.pipeline.Pipeline` with a :class:`cardref.live.LiveReferee`)
    over a speed-game truth video made with ``--boxes``: the detector replaced by the recorded corner
    boxes (an index counts when ``min_visible`` of it shows), and what a camera cannot see, the Stress
    slaps of ``moves.jsonl``, given as the referee's inputs at their true times (as the web app's key
    presses would); ``camera_slaps``: the pipeline also watches for them (both, as at a real table).
    Returns the LiveReferee; its ``history`` holds every finding and call."""
    import json

    from calibration.store import load_calibration
    from vision.detection_replay import replay_detector
    from vision.frame_sources import ReadStatus, VideoFileSource

    from .live import LiveReferee
    from .pipeline import Pipeline

    info = json.loads((folder / "render.json").read_text(encoding="utf-8"))
    lines = [json.loads(x) for x in (folder / "moves.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    slaps = [m for m in lines if m.get("op") == "slap"]
    referee = LiveReferee(info["game"], info["rules"])
    video = folder / info["video"]
    pipeline = Pipeline(str(video), load_calibration(folder / "calibration.json"), referee, realtime=False,
                        replay=replay_detector(folder / "boxes.jsonl.gz", min_visible=min_visible),
                        watch_slaps=camera_slaps)
    source = VideoFileSource(video)
    source.open()
    index = 0
    try:
        while True:
            read = source.read()
            if read.status is ReadStatus.END:
                break
            if read.image is None or read.t is None:
                continue
            while slaps and slaps[0]["t"] <= read.t + 1e-6:
                m = slaps.pop(0)
                referee.act("slap", m["t"], player=m["player"], pile=m["pile"])
            pipeline.step(read.image, read.t, index)
            index += 1
    finally:
        source.close()
    return referee


__all__ = ["Beat", "StressScript", "ZenuwenScript", "plan", "referee_video", "render_speed", "render_stress",
           "render_zenuwen"]
