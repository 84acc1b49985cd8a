"""Which of a follower's looks at one published table state the referee takes.

A follower's ``observe`` judges a view as the camera read it. When nothing explains it, a misread
may be all it was (a 2C read 2S at 0.43): the view is looked at again with its doubtful readings left
unread, first only the cards under the piles' tops (they say nothing of a move; the tops do), then
every reading under the doubt line. What such a second look finds is weighed against the follower's
costlier looks at the view as read: one card read in an earlier view taken as misread
(``observe_misread``), several moves in one view (``observe_further``), the last move taken back
(``observe_undone``). Each weighing below names the match that taught it.

Kept apart from ``cardref.live``, which builds the looks from the camera's table, so that the policy
is game logic like the rest of ``referee``: no vision, no clock, total.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from .followers import Follower
from .observation import Finding, Observation

Answer = tuple[Any, list[Finding]]
Look = Callable[[Any, Observation], Answer]


def kinds(answer: Answer) -> list[str]:
    return [f.kind for f in answer[1]]


class Looks:
    """A follower's looks at one view from the position before it; each costlier look at the view as
    read taken once, however many second looks weigh it."""

    def __init__(self, follower: Follower, before: Any, obs: Observation) -> None:
        self.follower, self.before, self.obs = follower, before, obs
        self._taken: dict[Look, Answer] = {}

    def _on_view(self, look: Look | None) -> Answer | None:
        if look is None:
            return None
        if look not in self._taken:
            self._taken[look] = look(self.before, self.obs)
        return self._taken[look]

    def misread(self) -> Answer | None:
        return self._on_view(self.follower.observe_misread)

    def further(self) -> Answer | None:
        return self._on_view(self.follower.observe_further)


def judge_view(follower: Follower, before: Any, obs: Observation, second_looks: Callable[[], Iterable[Observation]]) -> Answer:
    """The new running picture and the findings for view ``obs`` from position ``before``: the
    follower's own look, or, where nothing explains it, the first second look taken
    (:func:`_past_doubts`; ``second_looks``: the view with only the cards under the tops left
    unread where doubtful, then with every doubtful reading left unread), or a costlier look
    (several moves in one view)."""
    looks = Looks(follower, before, obs)
    answer = follower.observe(before, obs)
    if kinds(answer) != ["unrecognised"]:
        return answer
    for n, doubtful in enumerate(second_looks()):
        if doubtful.piles != obs.piles and (taken := _past_doubts(looks, doubtful, unders=n == 0)) is not None:
            return taken
    further = looks.further()
    if further is None:
        return answer
    misread = looks.misread() if kinds(further) == ["ambiguous"] else None
    if misread is not None and kinds(misread) == ["move"]:
        # one move, with a card read in few views taken as misread, beats several pairs of moves
        # nothing tells apart (Double Solitaire, simplistic, draw 3, seed 69: a draw's 3C read 3S
        # at 0.49 and learned so, laid on a 4H while a hand was over the waste; with the fan's AS
        # under it showing, a draw and a move from three piles fitted, and the game was lost)
        return misread
    return further


def _past_doubts(looks: Looks, doubtful: Observation, unders: bool) -> Answer | None:
    """One second look at the view (``unders``: only the cards under the piles' tops left unread):
    the answer taken, or None to look on."""
    answer = looks.follower.observe(looks.before, doubtful)
    if unders and kinds(answer) == ["illegal"]:
        return _illegal_past_unders(looks, answer)
    if not answer[1] and (misread := looks.misread()) is not None:
        # nothing happened, every unsure reading that says otherwise a misread now, or one legal
        # move, one card read unsurely in an earlier view a misread: the second assumes less
        # (Klondike penguins, draw 3, seed 752: a 10H read QH at 0.30 moved onto a JC, read there at
        # 0.38 and the 10D turned up under it at 0.54, was taken for nothing happening; the next move
        # left every view unrecognised for ten seconds)
        if kinds(misread) == ["illegal"]:
            # judged on the view's own readings, so it may stand against the rules (Double
            # Solitaire, penguins seed 34: a deal's 2S learned as 2D, read 2S in the view where the
            # other player laid a 9D on a 7S; the look with every reading under 0.6 left unread took
            # it for nothing happening)
            return misread
        if kinds(misread) == ["move"]:
            answer = misread
        elif not unders and (further := _further_either_way(looks, doubtful)) is not None:
            return further
    if unders and kinds(answer) == ["move"] and (misread := looks.misread()) is not None and not misread[1]:
        # and so does a move found with only the cards under the tops left unread: a move changes two
        # piles, a misread one (Double Solitaire simplistic, seed 63: the 3C read 3S, then 3C again,
        # taken for its column laid on a card nobody read)
        return misread
    if "move" in kinds(answer) and looks.follower.observe_undone is not None:
        # the table as it was before the last move, on the view's own readings, is that move taken
        # back: it assumes less than a move past every unsure reading (Double Solitaire, penguins
        # seed 36: a stock turned out of turn and put back, taken for a second draw with the 7C read
        # at 0.39 on the waste left unread)
        undone = looks.follower.observe_undone(looks.before, looks.obs)
        if kinds(undone) == ["taken_back"]:
            answer = undone
    found = kinds(answer)
    if all(k in ("move", "taken_back", "call") for k in found) and ("call" not in found or "move" in found):
        # (with the calls its moves make: Stress, penguins, seed 79, the winner's last card read 6C
        # at 0.33 on the JC it went onto, a misread, and the round's end)
        return answer
    return None


def _illegal_past_unders(looks: Looks, answer: Answer) -> Answer:
    """An illegal move found with only the cards under the tops left unread: every top read as the
    first look read it, so it rests on what the first look rests on (Klondike penguins, eight columns,
    seed 794: a 2S laid on a 3C against K4, the fan under it read in the wrong order, 3C 4D 2S; the
    full second look, the waste's new top left unread too, took it for a draw), unless one card read
    earlier, misread, explains the view with no move against the rules (Double Solitaire simplistic,
    seed 63: a 3C read 3S, then 3C, then 3S again, taken for its column moved onto another against
    K4)."""
    misread = looks.misread()
    return misread if misread is not None and kinds(misread) in ([], ["move"]) else answer


def _further_either_way(looks: Looks, doubtful: Observation) -> Answer | None:
    """Moves the view shows read, one after another, the same whether its unsure readings are read or
    not (Double Solitaire penguins, seed 67: a 2S laid on a 3D, never seen there, then both moved
    onto a 4C; the look with every reading under 0.6 left unread took the QC turned up, read at 0.50,
    and the 6H, at 0.45, for nothing happening, and the game was lost; at 123 s: a 2S on its
    foundation read 2D at 0.36, taken for two cards played up). None otherwise."""
    look, further = looks.follower.observe_further, looks.further()
    if look is None or further is None or not further[1] or any(f.kind != "move" for f in further[1]):
        return None
    _, again = look(looks.before, doubtful)
    return further if [(f.kind, str(f.move)) for f in again] == [(f.kind, str(f.move)) for f in further[1]] else None
