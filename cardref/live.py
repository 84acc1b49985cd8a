"""The live referee: published table states in; moves, illegal moves, calls and a game log out.

This is the join between the camera side (``vision``: steady :class:`~vision.table_state.TableState`
values) and the rules side (``referee``: move inference and the engines). Each published state is
turned into the referee's own :class:`~referee.observation.Observation`, judged, written to the game
log as it happens (one fsync'd line per finding, with its key frame) and handed to listeners (the web
app's hub) as plain JSON messages.

The games that can be followed are registered in :mod:`referee.followers`.
"""

from __future__ import annotations

import logging
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator

from referee.cards import Card
from referee.followers import FOLLOWERS, find_follower
from referee.looks import judge_view
from referee.observation import DOUBT_BELOW, HAND_WAIT, Finding, Observation, SeenPile
from referee.speed_live import SearchBudget, search_budget
from referee.verdict import Event, Illegal, Legal
from vision.table_state import PileState, SeenCard, TableState

log = logging.getLogger(__name__)

Publish = Callable[[dict[str, Any]], None]

SAME_SLAP_S = 2.0
"""A key-pressed slap this close to the camera's slap of the same player is that slap."""

LIVE_GAMES = tuple(sorted(FOLLOWERS))

LOST_AFTER = 3
"""Published states in a row that nothing explained (:meth:`LiveReferee._unexplained`) after which the
referee counts itself lost and searches each state with the follower's smaller ``lost_budget``."""

REJOIN_AFTER = 5
"""Published states in a row that nothing explained after which a follower that can (``rejoin``: Stress,
Klondike and Double Solitaire from the next view of the whole table as it lies, Zenuwen from the next
round's layout) takes the game up again, with a note in the log: a referee that lost the game stops
saying every later view is unrecognised."""
REJOINED = "lost the game: took the table up again as it lies"

PLAYED_ON_AFTER = 2
"""Published states in a row that nothing explained, with an illegal move waiting to be taken back,
after which the referee looks whether the players went on with that move on the table (a legal move
made from the position with it let stand): then it stands, as if a person had let it stand, rather
than every later view going unrecognised while the game waits for a take-back that will not come
(Zenuwen, three players at 1280x720, kennard_4c, seed 169: a legal play called illegal against a
centre top misread earlier; 87 views unrecognised after it, 39 moves missed)."""
PLAYED_ON = "not taken back: play went on with it, so the move stands"

QUIET_AFTER = 1.0
"""Seconds the camera's clock runs on with no new table published (a quiet table) after which a view
the follower left waiting for a clearer one, with no hand over the table, is concluded from what it
shows (:meth:`LiveReferee.tick`): the tracker publishes any change it reads, so a later view would show
nothing more of it, and waiting for the next move's view only reports this one late and out of order
(Zenuwen, three players at 1280x720, simplistic, seed 174: a 3D laid at 16.4 s, its view left unused
for a far pile read at 0.02 that might have been played under it, was said at 23.2 s, after the 6S
laid at 20.3 s and in one batch with it)."""


def observation_from_table(table: TableState, min_confidence: float = 0.5, under_top_below: float = 0.0,
                           second_look: bool = False) -> Observation:
    """The referee's view of a published table: cards read with less than ``min_confidence`` become
    unreadable (``None``) so the rules, not a guess, settle them, and so do the cards under a pile's top
    read with less than ``under_top_below``; held zones are not judged. ``second_look``: the referee's
    look again past doubtful readings (:attr:`referee.observation.Observation.second_look`)."""

    def floor(k: int, pile: PileState) -> float:
        return max(min_confidence, under_top_below) if k < len(pile.cards) - 1 else min_confidence

    piles = {
        name: SeenPile(
            tuple(c.card if c.confidence >= floor(k, pile) else None for k, c in enumerate(pile.cards)),
            pile.backs,
            held=name in table.held,
            guesses=tuple(c.card for c in pile.cards),
            confidences=tuple(c.confidence for c in pile.cards),
            still=None if table.moved is None else name not in table.moved and name not in table.held,
        )
        for name, pile in table.piles.items()
    }
    return Observation(table.t, piles, table.frame, second_look)


@dataclass
class LiveReferee:
    """Follows one game. Feed it every published table state with :meth:`feed`.

    ``writer`` is a :class:`cardref.gamelog.writer.GameWriter` (or None: no log); ``publish`` receives
    every message for the web app (or None).
    """

    game: str
    rules: Any
    writer: Any = None
    publish: Publish | None = None
    min_confidence: float = 0.3
    """Below this a published card counts as unreadable. A card's confidence is the detector's score x
    the classifier's probability averaged over the settle window; right reads of the small indices of
    a whole table score 0.3-0.8 with the shipped model, and at 0.5 the demo clip's deal was never seen
    (one column read at 0.496) and a draw of two half-read cards was taken for nothing happening. A
    misread that gets through makes the table match no position: an unrecognised change, reported."""
    doubt_below: float = DOUBT_BELOW
    """When a view matches no position, it is looked at again with cards read below this left unread,
    first only those under the piles' tops, then all: an illegal verdict is drawn only from the first
    (every top read as before), never from the full second look (a card it leaves unread may be the
    one that decides), which gives only a move, a take-back, or nothing happened."""
    live: Any = None
    ended: str | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    last_t: float = 0.0
    verdict_seqs: list[int] = field(default_factory=list)
    """Log sequence numbers of the move and illegal records, for corrections from the pages."""
    waiting_seq: int | None = None
    """Log sequence number of the illegal record whose move the game waits to see taken back (a person
    who retracts it lets the move stand, :meth:`correct`)."""
    move_seqs: list[int] = field(default_factory=list)
    """Log sequence numbers of the legal moves' records: a move taken back on the table retracts its own."""
    call_seqs: dict[str, int] = field(default_factory=dict)
    """Log sequence number of the last call of each kind: a call the table proves wrong is retracted."""
    camera_slaps: list[tuple[int, float]] = field(default_factory=list)
    """(player, t) of the last slaps the camera saw."""
    unexplained: str | None = None
    """What the last view nothing explained showed, while nothing since was explained: the same
    unrecognised change again (the table sat still, published again for a change elsewhere) is not
    reported again: the referee screen and the log would fill with copies (a three-player Zenuwen
    render logged one view 9 times)."""
    waiting_for_deal: str | None = None
    """Why the last view was not taken for the game's deal, while no deal has been seen (a table
    calibrated wrong, the wrong game, or a deal half covered): said to the pages, and by ``cardref
    analyze`` when a video ends without a game."""
    on_input: Callable[[dict[str, Any]], None] | None = None
    """Called with each thing the referee is given, as a JSON line, before it is judged: every table
    state :meth:`feed` is given, each look :meth:`glimpse` takes, each quiet frame :meth:`tick`
    concludes a view from, each input :meth:`act` and :meth:`seen_slap` judge (``cardref analyze
    --tables-out``: what led to every verdict, in order, to judge again without the video:
    :mod:`cardref.replay_tables`)."""

    lost: int = 0
    """Published states in a row that nothing explained (:data:`LOST_AFTER`)."""

    named: dict[str, str] = field(default_factory=dict)
    """Cards a person named where the camera cannot read them (zone -> card code, :meth:`name_card`)."""
    last_table: TableState | None = None
    """The last table state judged, as published."""
    last_jpeg: bytes | None = None
    """The key frame of ``last_table``."""
    quiet_judged: TableState | None = None
    """The last table :meth:`tick` concluded a waiting view from (once per table)."""

    def __post_init__(self) -> None:
        self.follower = find_follower(self.game)
        if isinstance(self.rules, str):
            self.rules = self.follower.rules_from_spec(self.rules)

    def name_card(self, zone: str, card: str, t: float, by: str = "") -> list[Finding]:
        """A person names the card on top of ``zone`` that the camera cannot read (a card turned onto a
        centre pile whose index the camera never reads keeps a Zenuwen game waiting for it). Logged as
        a note; every view then shows that card there while the camera reads the top unsurely, until
        it reads another card there surely (the pile changed). The last view is judged again."""
        code = Card.parse(card).code
        last = self.last_table
        if last is not None and zone not in last.piles:
            raise ValueError(f"no pile {zone!r} on this table")
        self.named[zone] = code
        if self.writer is not None:
            self.writer.note(t, f"{by or 'a person'} named the card on {zone}: {code}")
        self._send({"type": "status", "t": t, "referee": f"the card on {zone} named {code}"})
        return self.feed(last) if last is not None else []

    def correct(self, t: float, target: int | None = None, by: str = "", reason: str = "") -> list[Finding]:
        """A person says the referee was wrong about verdict ``target`` (a log ``seq``; default the
        latest verdict): its record is retracted, the log keeping both. When it is the illegal move
        the game waits to see taken back, the move stands (the follower's ``let_stand``: a card the
        camera misread, or the players play it so) and the last view is judged again from there: the
        game goes on instead of waiting for a take-back that will not come. A legal move retracted is
        only logged: the position keeps it (the table, not a tap, says where the cards lie)."""
        if self.writer is not None:
            if target is None:
                if not self.verdict_seqs:
                    raise ValueError("there is no verdict to correct yet")
                target = self.verdict_seqs[-1]
            seq = self.writer.retract(t, target, by=by, reason=reason).seq
            self._send({"type": "verdict", "kind": "correction", "t": t, "action": "retract", "target": target,
                        "reason": reason, "by": by, "cards": [], "seq": seq})
        if self.live is None or self.ended is not None or self.follower.let_stand is None:
            return []
        if target is not None and target != self.waiting_seq:
            return []
        let = self.follower.let_stand(self.live, t)
        if let is None:
            if self._waits_for_take_back():
                self._send({"type": "status", "t": t, "referee": "the move cannot stand as it lies: take it back"})
            return []
        self.live, findings = let
        self.waiting_seq = None
        self.unexplained = None
        self._conclude(findings, t, None)
        if self.last_table is not None and self.ended is None:
            findings += self.feed(self.last_table)
        return findings

    def _with_named(self, table: TableState) -> TableState:
        """The table with the cards people named where the camera reads the top unsurely."""
        named = {}
        for zone, code in list(self.named.items()):
            pile = table.piles.get(zone)
            top = pile.cards[-1] if pile is not None and pile.cards else None
            if pile is None or top is None:
                continue  # nothing there to name (a hand over it, or the card gone)
            if top.confidence >= self.doubt_below:
                if top.card != code:
                    del self.named[zone]  # read surely as another card: the pile has changed
                continue
            named[zone] = replace(pile, cards=pile.cards[:-1] + (SeenCard(code, 1.0),))
        return replace(table, piles={**table.piles, **named}) if named else table

    def feed(self, table: TableState, jpeg: bytes | None = None) -> list[Finding]:
        """Judge one published table state; returns what was concluded (also logged and published)."""
        self._given(table.to_json())
        self.last_table, self.last_jpeg = table, jpeg
        if self.named:
            table = self._with_named(table)
        obs = observation_from_table(table, self.min_confidence)
        self.last_t = max(self.last_t, table.t)
        if self.live is None:
            try:
                self.live = self.follower.start(obs, self.rules)
            except ValueError as exc:
                self.waiting_for_deal = str(exc)
                self._send({"type": "status", "t": table.t, "referee": f"waiting for the deal: {exc}"})
                return []
            self.waiting_for_deal = None
            self._send({"type": "state", "t": table.t, **self.state_message()})
            if self.writer is not None:
                self.writer.note(table.t, "deal seen: game starts", frame=jpeg, state=self.follower.public_state(self.live))
            if self.follower.opening is None:
                return []
            self.live, opened = self.follower.opening(self.live)
            self._conclude(opened, table.t, jpeg)
            return opened
        if self.ended is not None:
            return []
        budget, lost = self.follower.feed_budget, False
        if self.lost >= LOST_AFTER and self.follower.lost_budget is not None:
            # a referee that has lost the game looks for the short way back (the table as it knew
            # it, a move or two from there), not through every reading of a table it cannot explain
            budget, lost = self.follower.lost_budget, True
        with search_budget(budget, lost) if budget is not None else nullcontext() as searched:
            findings = self._judge(table, obs)
        if not findings:
            self.unexplained = None  # nothing happened: the table is explained again
        self.lost = self.lost + 1 if self._unexplained(findings, budget, searched) else 0
        if self.lost >= PLAYED_ON_AFTER:
            went_on = self._played_on(obs, budget, lost)
            if went_on is not None:
                findings, self.lost = went_on, 0
        if self.lost >= REJOIN_AFTER and self.follower.rejoin is not None:
            again = self.follower.rejoin(self.live, obs)
            if again is not None:
                self.live, self.lost = again, 0
                self.waiting_seq = None  # (a move waited on to be taken back is no longer: the table is as it lies)
                findings = [Finding("rejoined", table.t, frame=table.frame, detail=REJOINED)]
        if [f.kind for f in findings] == ["unrecognised"] and self.lost < LOST_AFTER and any(p.held for p in obs.piles.values()):
            # what nothing explains while a hand covers part of the table may lie under the hand: said
            # as a wait, not flashed on the referee screen as a change nothing explains (Stress 90: a
            # card nobody read played onto a centre pile, the hand still over it). A referee that
            # has lost the game says so, hands or not.
            findings = [replace(findings[0], kind="ambiguous", detail=HAND_WAIT)]
        self._conclude(findings, table.t, jpeg)
        return findings

    def _played_on(self, obs: Observation, budget: int | None, lost: bool) -> list[Finding] | None:
        """The illegal move the game waits to see taken back let stand, if the view is then explained by
        a move at least (:data:`PLAYED_ON_AFTER`): the move's finding and theirs; None otherwise. The
        illegal verdict stays in the log: the move broke the rule, the players played on with it."""
        if self.follower.let_stand is None or self.live is None:
            return None
        let = self.follower.let_stand(self.live, obs.t)
        if let is None:
            return None
        standing, stood = let
        with search_budget(budget, lost) if budget is not None else nullcontext():
            after, more = self.follower.observe(standing, obs)
        kinds = {f.kind for f in more}
        if "move" not in kinds or not kinds <= {"move", "call"}:
            return None
        self.live = after
        self.waiting_seq = None
        return [replace(f, detail=f"{f.move}: {PLAYED_ON}") if f.kind == "move" else f for f in stood] + more

    def _unexplained(self, findings: list[Finding], budget: int | None, searched: SearchBudget | None) -> bool:
        """Did nothing explain the state (:data:`LOST_AFTER`)? Unrecognised, or left unused after a
        search of at least the lost budget's size: a referee that has lost the game waits on hands
        and clearer readings too, each at the whole feed budget (four players, seed 130 with 20 s of
        states left out: three states left unused at 2-5 s each before the first unrecognised one).
        A state explained costs a few dozen positions."""
        if [f.kind for f in findings] == ["unrecognised"]:
            return True
        lost_budget = self.follower.lost_budget
        return (not findings and searched is not None and budget is not None and lost_budget is not None
                and budget - searched.left >= lost_budget)

    def _judge(self, table: TableState, obs: Observation) -> list[Finding]:
        """The follower's looks at one published state (:func:`referee.looks.judge_view`); sets the new
        picture and returns what was concluded."""

        def second_looks() -> Iterator[Observation]:
            yield observation_from_table(table, self.min_confidence, self.doubt_below, second_look=True)
            yield observation_from_table(table, self.doubt_below, second_look=True)

        self.live, findings = judge_view(self.follower, self.live, obs, second_looks)
        return findings

    def _conclude(self, findings: list[Finding], t: float, jpeg: bytes | None) -> None:
        """Log and publish what a view was found to show; the new position too when it moved."""
        for finding in findings:
            self._record(finding, jpeg)
        if any(f.kind in ("move", "call", "illegal", "taken_back", "rejoined") for f in findings):
            # (an illegal move and its take-back change what the game waits for, which the pages show)
            self._send({"type": "state", "t": t, **self.state_message()})
            self._check_end(t, jpeg)

    def settle(self) -> list[Finding]:
        """No view will follow the last one (a recording ended): what waits for a clearer view is
        concluded from the last table judged, by the game's follower where it can; logged and
        published like any finding. Called once, at the end."""
        return self._settle(quiet=False)

    def tick(self, t: float) -> list[Finding]:
        """The camera's clock at ``t`` (a frame that published no table): once the table has been
        quiet for :data:`QUIET_AFTER` since the last table, with no hand over it, a view left waiting
        for a clearer one is concluded from that table, as at a recording's end; several explanations
        left open still wait for a view that tells them apart. Cheap when there is nothing to do: the
        frame loop calls it every frame."""
        table = self.last_table
        if table is None or table is self.quiet_judged or t - table.t < QUIET_AFTER:
            return []
        self.quiet_judged = table
        self._given({"t": t, "tick": True})
        return self._settle(quiet=True)

    def _settle(self, quiet: bool) -> list[Finding]:
        """The follower's ``settle`` on the last table; ``quiet``: not while a hand is over it."""
        if self.live is None or self.ended is not None or self.last_table is None or self.follower.settle is None:
            return []
        table = self._with_named(self.last_table) if self.named else self.last_table
        obs = observation_from_table(table, self.min_confidence)
        if quiet and any(p.held for p in obs.piles.values()):
            return []
        self.live, findings = self.follower.settle(self.live, obs, quiet)
        self._conclude(findings, table.t, self.last_jpeg)
        return findings

    def glimpse(self, table: TableState, jpeg: bytes | None = None) -> list[Finding]:
        """A first look at a few zones before the table settles (``StabilityFilter.glimpse``: the rest
        held). Taken only when it makes one of the follower's quick calls (a stress, the moment both
        centre tops match); anything else it would conclude is left to the steady state that follows,
        so a look at a card still in a hand can never bring an illegal verdict or an unrecognised
        change. The moves it brings are logged like any others."""
        if self.live is None or self.ended is not None or not self.follower.quick_calls:
            return []
        obs = observation_from_table(table, self.min_confidence)
        live, findings = self.follower.observe(self.live, obs)
        quick = any(f.kind == "call" and f.verdict.kind in self.follower.quick_calls for f in findings)
        if not quick or any(f.kind not in ("move", "call") for f in findings):
            return []
        self._given({**table.to_json(), "glimpse": True})
        self.live = live
        self.last_t = max(self.last_t, table.t)
        for finding in findings:
            self._record(finding, jpeg)
        self._send({"type": "state", "t": table.t, **self.state_message()})
        self._check_end(table.t, jpeg)
        return findings

    def act(self, name: str, t: float, **kwargs: Any) -> list[Finding]:
        """What the camera cannot see, given by a key press or a tap (a Stress slap, a Zenuwen pile
        choice): judged by the game's follower, then logged and published like any finding. A slap the
        camera already gave for that player within ``SAME_SLAP_S`` is the same slap, not a second one
        (which, the stress settled, would be a false slap)."""
        if name == "slap" and any(p == kwargs.get("player") and abs(t - at) <= SAME_SLAP_S for p, at in self.camera_slaps):
            return []
        return self._act(name, t, **kwargs)

    def seen_slap(self, player: int, t: float, pile: int) -> list[Finding]:
        """A slap the camera saw (cardref/pipeline.py: the player's hand reached centre pile ``pile``).
        Only a slap judged is one a key press may repeat: a hand that reached a pile whose card nobody
        read may have played there, and a slap keyed in after it is the player's own. A player whose
        slap the game does not await (not :meth:`slappers`) reached the pile to play: no slap (a
        tables file given again to a changed referee may hold hands it would not have watched)."""
        if player not in self.slappers():
            return []
        findings = self._act("slap", t, player=player, pile=pile, seen=True)
        if any(f.kind in ("move", "illegal") for f in findings):
            self.camera_slaps.append((player, t))
            del self.camera_slaps[:-8]
        return findings

    def _act(self, name: str, t: float, **kwargs: Any) -> list[Finding]:
        action = self.follower.inputs.get(name)
        if action is None:
            raise ValueError(f"{self.game} takes no {name!r} input; it takes: {', '.join(self.follower.inputs) or 'none'}")
        if self.live is None:
            raise ValueError("the game has not started: the deal has not been seen yet")
        self._given({"t": t, "act": name, **kwargs})
        self.live, findings = action(self.live, t=t, **kwargs)
        for finding in findings:
            self._record(finding, None)
        if findings:
            self._send({"type": "state", "t": t, **self.state_message()})
            self._check_end(t, None)
        return findings

    def _given(self, line: dict[str, Any]) -> None:
        if self.on_input is not None:
            self.on_input(line)

    def slappers(self) -> frozenset[int]:
        """The players (0-based) whose slap the game awaits now."""
        return self.follower.slappers(self.live) if self.live is not None and self.ended is None else frozenset()

    def slap_key(self) -> object:
        """What the slaps awaited now are for: a new key starts the watch for them afresh."""
        return self.follower.slap_key(self.live) if self.live is not None else None

    def state_message(self) -> dict[str, Any]:
        picture = self.follower.public_state(self.live)
        header = getattr(self.writer, "header", None)
        message = {
            "game_id": getattr(self.writer, "id", None),
            "game": self.game,
            "rules": self.follower.rules_spec(self.rules),
            "players": list(getattr(header, "players", ()) or ()),
            "inputs": sorted(self.follower.inputs),
            "state": picture,
        }
        # the facts the pages show beside the table
        for key in ("score", "scores", "moves", "cards_left", "standings", "passes_left", "waiting_for",
                    "waiting_for_take_back", "choosing", "free_piles"):
            if key in picture:
                message[key] = picture[key]
        return message

    def _record(self, finding: Finding, jpeg: bytes | None) -> None:
        t = finding.t
        if finding.kind in ("unrecognised", "ambiguous"):
            if finding.detail == self.unexplained:
                return
            self.unexplained = finding.detail
        else:
            self.unexplained = None
        message: dict[str, Any] = {"type": "verdict", **finding.to_json()}
        put_back = finding.kind == "taken_back" and isinstance(finding.verdict, Legal)  # a legal move, not an illegal one
        if finding.kind == "move":
            verdict = finding.verdict
            assert isinstance(verdict, Legal)
            message.update(
                ok=True,
                text=str(finding.move),
                score=getattr(verdict.state, "score", None),  # Zenuwen keeps no score
                score_delta=verdict.score_delta,  # the live page's move list says "(+5)", as the review's
                events=[e.to_json() for e in verdict.events],
            )
            if self.writer is not None:
                # the position as the referee knows it: the engine's carries made-up cards for the
                # face-down and stock cards nobody has seen, which a review would take for the truth
                position = self.follower.public_state(replace(self.live, state=verdict.state))
                seq = self.writer.move(t, verdict, frame=jpeg, position=position).seq
                self.verdict_seqs.append(seq)
                self.move_seqs.append(seq)
                message["seq"] = seq  # what the pages name when they correct it
                message["number"] = len(self.move_seqs)  # the move's place in the game (put-backs go out)
        elif finding.kind == "illegal":
            message.update(ok=False, text=str(finding.move), cards=self.follower.involved_cards(self.live, finding))
            if self.writer is not None:
                illegal = Illegal(finding.move, finding.rule, finding.reason)
                seq = self.writer.illegal(t, illegal, frame=jpeg).seq
                self.verdict_seqs.append(seq)
                message["seq"] = seq
                if self._waits_for_take_back():  # not a false slap: nothing to take back there
                    self.waiting_seq = seq
        elif finding.kind == "call":
            event = finding.verdict
            assert isinstance(event, Event)
            message = {"type": "call", "call": event.kind, **{k: v for k, v in event.to_json().items() if k != "type"}}
            if self.writer is not None:
                self.call_seqs[event.kind] = self.writer.call(t, event, frame=jpeg).seq
        elif finding.kind == "withdrawn":
            # a call the table proved wrong: its record is retracted, so a review shows both
            event = finding.verdict
            assert isinstance(event, Event)
            message.update(call=event.kind)
            seq = self.call_seqs.pop(event.kind, None)
            if self.writer is not None and seq is not None:
                self.writer.retract(t, seq, by="referee", reason=finding.detail)
        elif put_back:
            # a legal move put back on the table: its record is retracted, so a review and a resumed
            # game follow the table, and the log keeps both
            message.update(text=str(finding.move))
            if self.writer is not None and self.move_seqs:
                seq = self.move_seqs.pop()
                self.verdict_seqs.remove(seq)
                self.writer.retract(t, seq, by="referee", reason=finding.detail)
        elif finding.kind == "taken_back":
            self.waiting_seq = None
            if self.writer is not None:
                self.writer.note(t, f"the illegal move {finding.move} was taken back", frame=jpeg)
        elif finding.kind in ("unrecognised", "ambiguous"):
            if self.writer is not None:
                self.writer.unrecognised(t, finding.detail, data={"why": finding.kind}, frame=jpeg)
        elif finding.kind == "rejoined":
            if self.writer is not None:  # the new position, as a resumed game's and a review's next step
                self.writer.note(t, finding.detail, frame=jpeg, state=self.follower.public_state(self.live))
        if finding.kind in ("move", "illegal", "taken_back") and finding.detail and self.writer is not None and not put_back:
            self.writer.note(t, finding.detail)  # how the referee got there (a card it had misread)
        self.history.append(message)
        self._send(message)

    def _waits_for_take_back(self) -> bool:
        return self.live is not None and self.follower.public_state(self.live).get("waiting_for_take_back") is not None

    def _check_end(self, t: float, jpeg: bytes | None) -> None:
        end = self.follower.ending(self.live, t)
        if end is None:
            return
        result, event = end
        self._send({"type": "call", "call": event.kind, **{k: v for k, v in event.to_json().items() if k != "type"}})
        if self.writer is not None:
            self.writer.call(t, event, frame=jpeg)
            self.writer.end(t, result, reason=event.detail, data={"state": self.follower.public_state(self.live)})
        self.ended = result

    def _send(self, message: dict[str, Any]) -> None:
        if self.publish is None:
            return
        try:
            self.publish(message)
        except Exception:  # a viewer's trouble must never stop the referee
            log.exception("publishing a referee message failed")


def resume_point(log: Any) -> tuple[Any, float]:
    """Where a game cardref stopped without ending is taken up again (``log``: its
    :class:`~cardref.gamelog.GameLog`): the follower's running picture rebuilt from the referee's last
    picture of the position (the last record of the game as corrected that has one: a move's, or the
    deal's note), and the game time of the last record. ValueError, saying why, when it cannot be."""
    header = log.header
    if header is None:
        raise ValueError("its log has no readable header")
    if log.finished:
        raise ValueError(f"game {header.id} has ended ({log.result}): nothing to take up")
    follower = find_follower(header.game)
    if follower.resume is None:
        raise ValueError(f"a {header.game} game cannot be taken up in the middle yet: start a new one")
    picture = None
    for entry in log.effective():
        state = entry.record.data.get("state")
        if isinstance(state, dict):
            picture = state
    if picture is None:
        raise ValueError(f"game {header.id} shows no position yet (its deal was never seen): start a new one")
    try:
        return follower.resume(picture, follower.rules_from_spec(header.rules), log.last_t), log.last_t
    except ValueError as exc:
        if "moves" not in picture:  # the engine's own picture: logs written before the referee's went in
            raise ValueError(f"game {header.id} was recorded by an older cardref, whose log does not say which "
                             f"cards were read ({exc}): start a new one") from None
        raise ValueError(f"game {header.id}: {exc}") from None


def taken_up(writer: Any, publish: Publish | None = None) -> LiveReferee:
    """The referee of a game cardref stopped without ending (a crash), taken up again: ``writer`` is its
    log reopened (:meth:`cardref.gamelog.GameStore.resume`, which records the resumption). The game,
    rules and players are the log's; the position the referee's last picture of it
    (:func:`resume_point`), the cards nobody has read standing in anew; game time goes on from the
    last record's. The table is expected as the log left it: a move made meanwhile is found as any."""
    log = writer.log
    live, t = resume_point(log)
    header = log.header
    referee = LiveReferee(header.game, header.rules, writer=writer, publish=publish)
    referee.live = live
    referee.last_t = t
    for entry in log.effective():
        if entry.record.kind.value in ("move", "illegal") and entry.original is None and entry.correction is None:
            referee.verdict_seqs.append(entry.record.seq)
            if entry.record.kind.value == "move":
                referee.move_seqs.append(entry.record.seq)
    referee._send({"type": "state", "t": t, **referee.state_message()})
    return referee
