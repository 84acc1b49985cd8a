"""Which look at a view the referee takes (referee/looks.py), with a scripted follower: each look
answers by what the view it is given reads, so the weighing alone is under test."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator

from referee.followers import FOLLOWERS
from referee.looks import judge_view
from referee.observation import Finding, Observation, SeenPile

AS_READ = Observation(1.0, {"t1": SeenPile(("2S",))})
UNDERS = Observation(1.0, {"t1": SeenPile((None,))}, second_look=True)
WHOLE = Observation(1.0, {"t1": SeenPile(())}, second_look=True)


def said(*kinds: str) -> list[Finding]:
    return [Finding(k, 1.0) for k in kinds]


def scripted(answers: dict[int, list[Finding]], misread: list[Finding] | None = None, further: list[Finding] | None = None,
             undone: list[Finding] | None = None, calls: list[str] | None = None) -> Any:
    """A follower whose ``observe`` answers ``answers[id of the view]`` with the view's name as its new
    picture, and whose costlier looks answer as given (None: it has no such look)."""
    names = {id(AS_READ): "as read", id(UNDERS): "unders", id(WHOLE): "whole"}
    calls = [] if calls is None else calls

    def look(name: str, found: list[Finding] | None) -> Any:
        def answer(live: Any, obs: Observation) -> tuple[Any, list[Finding]]:
            calls.append(f"{name} on {names[id(obs)]}")
            return name, found or []
        return None if found is None else answer

    def observe(live: Any, obs: Observation) -> tuple[Any, list[Finding]]:
        calls.append(f"observe on {names[id(obs)]}")
        return names[id(obs)], answers[id(obs)]

    return replace(FOLLOWERS["klondike"], observe=observe, observe_misread=look("misread", misread),
                   observe_further=look("further", further), observe_undone=look("undone", undone))


def second_looks() -> Iterator[Observation]:
    yield UNDERS
    yield WHOLE


def test_a_view_explained_as_read_takes_no_second_look() -> None:
    calls: list[str] = []
    follower = scripted({id(AS_READ): said("move")}, misread=said(), calls=calls)
    assert judge_view(follower, "before", AS_READ, second_looks) == ("as read", said("move"))
    assert calls == ["observe on as read"]


def test_nothing_happened_past_the_doubtful_readings_is_taken() -> None:
    follower = scripted({id(AS_READ): said("unrecognised"), id(UNDERS): said("unrecognised"), id(WHOLE): []})
    assert judge_view(follower, "before", AS_READ, second_looks) == ("whole", [])


def test_one_card_misread_earlier_beats_nothing_happened() -> None:
    follower = scripted({id(AS_READ): said("unrecognised"), id(UNDERS): []}, misread=said("move"))
    assert judge_view(follower, "before", AS_READ, second_looks) == ("misread", said("move"))


def test_an_illegal_move_on_the_tops_as_read_stands_unless_a_misread_explains_it() -> None:
    answers = {id(AS_READ): said("unrecognised"), id(UNDERS): said("illegal")}
    assert judge_view(scripted(answers, misread=said("unrecognised")), "before", AS_READ, second_looks) == ("unders", said("illegal"))
    assert judge_view(scripted(answers, misread=said()), "before", AS_READ, second_looks) == ("misread", [])


def test_a_move_past_unsure_readings_gives_way_to_the_last_move_taken_back() -> None:
    answers = {id(AS_READ): said("unrecognised"), id(UNDERS): said("unrecognised"), id(WHOLE): said("move")}
    assert judge_view(scripted(answers, undone=said("taken_back")), "before", AS_READ, second_looks) == ("undone", said("taken_back"))
    assert judge_view(scripted(answers, undone=said("unrecognised")), "before", AS_READ, second_looks) == ("whole", said("move"))


def test_moves_shown_one_after_another_must_not_rest_on_the_unsure_readings() -> None:
    answers = {id(AS_READ): said("unrecognised"), id(UNDERS): said("unrecognised"), id(WHOLE): []}
    calls: list[str] = []
    follower = scripted(answers, misread=said("unrecognised"), further=said("move", "move"), calls=calls)
    assert judge_view(follower, "before", AS_READ, second_looks) == ("further", said("move", "move"))
    # the costlier look at the view as read is taken once, however many weighings ask for it
    assert calls.count("further on as read") == 1 and calls.count("misread on as read") == 1
    assert "further on whole" in calls


def test_a_view_nothing_explains_gets_the_costliest_look_last() -> None:
    answers = {id(AS_READ): said("unrecognised"), id(UNDERS): said("unrecognised"), id(WHOLE): said("ambiguous")}
    assert judge_view(scripted(answers, further=said("unrecognised")), "before", AS_READ, second_looks) == ("further", said("unrecognised"))
    assert judge_view(scripted(answers), "before", AS_READ, second_looks) == ("as read", said("unrecognised"))


def test_one_move_past_a_misread_beats_several_pairs_of_moves_nothing_tells_apart() -> None:
    answers = {id(AS_READ): said("unrecognised"), id(UNDERS): said("unrecognised"), id(WHOLE): said("unrecognised")}
    assert judge_view(scripted(answers, misread=said("move"), further=said("ambiguous")), "before", AS_READ, second_looks) == ("misread", said("move"))
    assert judge_view(scripted(answers, misread=said("unrecognised"), further=said("ambiguous")), "before", AS_READ, second_looks) == ("further", said("ambiguous"))
    # (two moves the view shows stand: the misread look weighs only against a view left open)
    assert judge_view(scripted(answers, misread=said("move"), further=said("move", "move")), "before", AS_READ, second_looks) == ("further", said("move", "move"))
