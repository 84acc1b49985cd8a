"""Games the live referee can follow from the camera, registered by name.

A follower is the per-game half of move inference: how to start from the first steady view, how to
judge the next one, what to show, and when the game is over. The app's live referee
(``cardref/live.py``) only talks to this interface, so a game is added here, not by if-chains there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from . import double_live, double_solitaire, klondike, klondike_live, stress, stress_live, zenuwen, zenuwen_live
from .observation import Finding, Observation
from .verdict import Event


@dataclass(frozen=True)
class Follower:
    name: str
    rules_from_spec: Callable[[str], Any]
    """Rule options as ``key=value,...`` (an :class:`~referee.options.OptionError` when wrong)."""
    start: Callable[[Observation, Any], Any]
    """The running picture from the first steady view; ValueError while the deal is not readable."""
    observe: Callable[[Any, Observation], tuple[Any, list[Finding]]]
    """Judge the next steady view: the new picture and what was concluded."""
    public_state: Callable[[Any], dict[str, object]]
    """The position for the screens, without anything the players cannot see."""
    ending: Callable[[Any, float], tuple[str, Event] | None]
    """``(result, call)`` once the game is over."""
    involved_cards: Callable[[Any, Finding], list[str]]
    """Card codes an illegal move involves, for the referee screen."""
    rules_spec: Callable[[Any], str]
    inputs: Mapping[str, Callable[..., tuple[Any, list[Finding]]]] = field(default_factory=dict)
    """What the camera cannot see, given by a key press or screen tap: name -> ``f(live, ...)``
    returning ``(live, findings)`` like ``observe`` (e.g. Stress ``slap(live, player, t, pile=0)``)."""
    slappers: Callable[[Any], frozenset[int]] = lambda live: frozenset()
    """The players whose slap is awaited now (a called stress), so that whatever watches the hands
    (the camera's reach watch, cardref/pipeline.py) knows when to look and whom for."""
    slap_key: Callable[[Any], object] = lambda live: None
    """What the slaps awaited now are for: when it changes, the watch starts afresh (Stress: a stress
    called, or centre tops nobody read that may match)."""
    observe_further: Callable[[Any, Observation], tuple[Any, list[Finding]]] | None = None
    """A last, costlier look at a view ``observe`` could not explain, even past doubtful readings
    (Klondike: two moves in one view)."""
    observe_misread: Callable[[Any, Observation], tuple[Any, list[Finding]]] | None = None
    """The view judged with one card read in earlier views taken as misread (Klondike): weighed
    against the second look's nothing happened (:mod:`referee.looks`)."""
    observe_undone: Callable[[Any, Observation], tuple[Any, list[Finding]]] | None = None
    """The view judged as the last legal move taken back (Klondike, Double Solitaire): weighed against
    a move the second look finds past doubtful readings (:mod:`referee.looks`)."""
    settle: Callable[[Any, Observation, bool], tuple[Any, list[Finding]]] | None = None
    """The last view judged as final, when no later view will come (a recording ended): what was
    left waiting for a clearer view is concluded from it. With ``quiet`` (the table has been still
    since, ``cardref.live.QUIET_AFTER``), explanations left open wait on for a view that tells them
    apart."""
    let_stand: Callable[[Any, float], tuple[Any, list[Finding]] | None] | None = None
    """The illegal move waiting to be taken back, let stand at time ``t``: a person said the referee
    was wrong (:func:`~referee.observation.stands`). None: nothing waits, or the game's position
    cannot hold that move."""
    resume: Callable[[Mapping[str, Any], Any, float], Any] | None = None
    """The running picture from ``public_state``'s picture of a position, at time ``t``: a game taken
    up again from its log after cardref stopped without ending it (ValueError: not a position of the
    game). None: the game cannot be taken up in the middle."""
    rejoin: Callable[[Any, Observation], Any] | None = None
    """The running picture taken afresh from one view of the whole table (None when the view does not
    show enough), for a referee that has lost the game (``cardref.live.REJOIN_AFTER``): the game goes
    on from the table as it lies instead of every later view going unrecognised (Klondike and Double
    Solitaire: the columns as read, their backs and the waste's depth as they were). None: the game's
    follower cannot."""
    quick_zones: frozenset[str] = frozenset()
    """Zones worth a first look before the table settles (``StabilityFilter.glimpse``) ..."""
    quick_calls: frozenset[str] = frozenset()
    """... for these calls only: a look that makes none of them is thrown away (Stress: the stress
    call, S8, from the two centre tops, while the playing hand still refills its row)."""
    feed_budget: int | None = None
    """Positions all the looks at one published state may search together
    (:func:`~referee.speed_live.search_budget`), so that no state takes the live referee long; None:
    the game's searches bound themselves."""
    lost_budget: int | None = None
    """The same for a referee that has lost the game (several states in a row nothing explained,
    ``cardref.live.LOST_AFTER``): each such state would otherwise spend the whole ``feed_budget``, and
    a live referee fall ever further behind the camera. None: ``feed_budget`` still."""
    opening: Callable[[Any], tuple[Any, list[Finding]]] | None = None
    """The moves the first view shows made before the layout was seen (Zenuwen's first turn): the
    running picture after ``start`` without them, and them, logged at once."""
    table: str = ""
    """The zone template the game is laid out on, when not its own name (Double Solitaire: Klondike's
    for two players, calibration/templates.py)."""

    @property
    def layout_game(self) -> str:
        """The game whose zone template (calibration) this game is played on."""
        return self.table or self.name


FOLLOWERS: dict[str, Follower] = {
    "klondike": Follower(
        "klondike",
        klondike.KlondikeRules.from_spec,
        klondike_live.start,
        lambda live, obs: klondike_live.observe(live, obs, pairs=False),
        klondike_live.public_state,
        klondike_live.ending,
        klondike_live.involved_cards,
        lambda rules: rules.spec(),
        observe_further=klondike_live.observe_further,
        observe_misread=klondike_live.observe_misread,
        observe_undone=klondike_live.observe_undone,
        let_stand=klondike_live.let_stand,
        resume=klondike_live.resume,
        rejoin=klondike_live.rejoin,
    ),
    "double_solitaire": Follower(
        "double_solitaire",
        double_solitaire.DoubleRules.from_spec,
        double_live.start,
        double_live.observe,
        double_live.public_state,
        double_live.ending,
        double_live.involved_cards,
        double_live.rules_spec,
        observe_further=double_live.observe_further,
        observe_misread=double_live.observe_misread,
        observe_undone=double_live.observe_undone,
        let_stand=double_live.let_stand,
        resume=double_live.resume,
        rejoin=double_live.rejoin,
        table="klondike",
    ),
    "stress": Follower(
        "stress",
        stress.StressRules.from_spec,
        stress_live.start,
        stress_live.observe,
        stress_live.public_state,
        stress_live.ending,
        stress_live.involved_cards,
        stress_live.rules_spec,
        {"slap": stress_live.slap, "new_round": stress_live.new_round},
        stress_live.slappers,
        slap_key=stress_live.slap_key,
        let_stand=stress_live.let_stand,
        resume=stress_live.resume,
        rejoin=stress_live.rejoin,
        quick_zones=frozenset(stress_live.CENTRE_ZONES),
        quick_calls=frozenset({"stress"}),
    ),
    "zenuwen": Follower(
        "zenuwen",
        zenuwen.ZenuwenRules.from_spec,
        zenuwen_live.start,
        zenuwen_live.observe,
        zenuwen_live.public_state,
        zenuwen_live.ending,
        zenuwen_live.involved_cards,
        zenuwen_live.rules_spec,
        {"choose": zenuwen_live.choose, "slap": zenuwen_live.slap, "new_round": zenuwen_live.new_round},
        zenuwen_live.slappers,
        settle=zenuwen_live.settle,
        let_stand=zenuwen_live.let_stand,
        resume=zenuwen_live.resume,
        rejoin=zenuwen_live.rejoin,
        opening=zenuwen_live.opening,
        feed_budget=zenuwen_live.FEED_BUDGET,
        lost_budget=zenuwen_live.LOST_BUDGET,
    ),
}


def find_follower(name: str) -> Follower:
    """The follower for a game; a ValueError naming the games that can be followed otherwise."""
    try:
        return FOLLOWERS[name]
    except KeyError:
        raise ValueError(f"the camera referee follows {', '.join(sorted(FOLLOWERS))}; not {name!r}") from None
