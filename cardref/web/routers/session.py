"""The table session: set-up (game, rule options, players and seats), start/pause/resume/end, and
what people record on the referee screen (a slap, a correction, a card the camera cannot read named).
Every action here is a control action (see :func:`cardref.web.deps.require_control`) and reaches the
pipeline as a command."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from ..deps import Services, control_allowed, get_services, require_control
from ..session import TableSetup, game_catalogue
from starlette.requests import Request

router = APIRouter(prefix="/api/session", tags=["session"])


class SessionOut(BaseModel):
    setup: TableSetup = Field(title="set-up")
    phase: Literal["idle", "playing", "paused", "ended"] = Field(title="phase")
    changed: float = Field(title="last change", description="Unix time")
    control: bool = Field(title="may control", description="whether this caller may use the control actions")


class SlapIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player: int = Field(ge=0, le=3, title="player", description="seat index from 0")
    pile: int | None = Field(default=None, ge=0, le=7, title="centre pile slapped")
    by: str = Field(default="", max_length=40, title="recorded by")


class ChooseIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player: int = Field(ge=0, le=3, title="player", description="seat index from 0")
    pile: int = Field(ge=0, le=3, title="centre pile taken", description="from 0")
    by: str = Field(default="", max_length=40, title="recorded by")


class CorrectionIn(BaseModel):
    """A person fixing the referee from the referee screen. ``target`` is the game-log ``seq`` of the
    verdict (default: the latest one)."""

    model_config = ConfigDict(extra="forbid")

    action: Literal["retract", "replace", "insert", "note"] = Field(default="retract", title="what to do")
    target: int | None = Field(default=None, ge=1, title="record corrected", description="default: the latest verdict")
    kind: Literal["move", "illegal", "call", "unrecognised", "note"] | None = Field(default=None, title="what happened")
    data: dict[str, Any] | None = Field(default=None, title="its payload", description="as docs/gamelog-format.md")
    reason: str = Field(default="", max_length=500, title="why")
    by: str = Field(default="", max_length=40, title="who")


class NameIn(BaseModel):
    """A person names the card the camera cannot read on top of a pile (the referee screen offers it
    when the referee waits for a card it cannot read)."""

    model_config = ConfigDict(extra="forbid")

    zone: str = Field(pattern=r"^[a-z0-9.]{1,24}$", title="pile", description="a zone name, e.g. centre1 or p2.pile3")
    card: str = Field(min_length=2, max_length=3, title="card", description="a card code, e.g. QS or 10H")
    by: str = Field(default="", max_length=40, title="who")


class TakeUpIn(BaseModel):
    """A game cardref stopped without ending (a crash), to take up again from its log's last position."""

    model_config = ConfigDict(extra="forbid")

    game_id: str = Field(min_length=1, max_length=80, title="game", description="its id, as GET /api/session/unfinished lists")


class UnfinishedOut(BaseModel):
    id: str
    game: str
    players: list[str]
    started: str
    moves: int


class Accepted(BaseModel):
    accepted: bool = True
    command: str


def _out(svc: Services, request: Request) -> SessionOut:
    snap = svc.session.snapshot()
    return SessionOut(setup=TableSetup(**snap["setup"]), phase=snap["phase"], changed=snap["changed"],
                      control=control_allowed(request, svc.settings))


@router.get("", response_model=SessionOut, summary="The set-up and phase")
def get_session(request: Request, svc: Services = Depends(get_services)) -> SessionOut:
    return _out(svc, request)


@router.get("/games", summary="Games on offer, their player counts and rule options")
def games_on_offer() -> list[dict[str, Any]]:
    return game_catalogue()


@router.put("/setup", response_model=SessionOut, dependencies=[Depends(require_control)],
            summary="Choose the game, rule options, players and seats")
def put_setup(setup: TableSetup, request: Request, svc: Services = Depends(get_services)) -> SessionOut:
    svc.session.configure(setup)
    return _out(svc, request)


def _action(kind: str) -> Any:
    def act(request: Request, svc: Services = Depends(get_services)) -> SessionOut:
        svc.session.act(kind)
        return _out(svc, request)

    act.__name__ = f"session_{kind}"
    return act


for _kind, _summary in (("start", "Start a game with the current set-up"), ("pause", "Pause the game"),
                        ("resume", "Resume a paused game"), ("end", "End the game")):
    router.add_api_route(f"/{_kind}", _action(_kind), methods=["POST"], response_model=SessionOut,
                         dependencies=[Depends(require_control)], summary=_summary)


@router.post("/slap", response_model=Accepted, status_code=202, dependencies=[Depends(require_control)],
             summary="Record a slap (Stress S8, Zenuwen Z10) from the referee screen")
def slap(body: SlapIn, svc: Services = Depends(get_services)) -> Accepted:
    svc.session.forward("slap", body.model_dump())
    return Accepted(command="slap")


@router.post("/choose", response_model=Accepted, status_code=202, dependencies=[Depends(require_control)],
             summary="Record which centre pile a player takes at the end of a Zenuwen round (Z10/Z11)")
def choose(body: ChooseIn, svc: Services = Depends(get_services)) -> Accepted:
    svc.session.forward("choose", body.model_dump())
    return Accepted(command="choose")


@router.post("/name", response_model=Accepted, status_code=202, dependencies=[Depends(require_control)],
             summary="Name the card on a pile that the camera cannot read (the game may be waiting for it)")
def name_card(body: NameIn, svc: Services = Depends(get_services)) -> Accepted:
    svc.session.forward("name", body.model_dump())
    return Accepted(command="name")


@router.post("/correction", response_model=Accepted, status_code=202, dependencies=[Depends(require_control)],
             summary="Correct the referee during a game (the pipeline logs it)")
def correction(body: CorrectionIn, svc: Services = Depends(get_services)) -> Accepted:
    svc.session.forward("correction", body.model_dump(exclude_none=True))
    return Accepted(command="correction")


def _can_take_up(svc: Services, game_id: str) -> str | None:
    """Why ``game_id`` cannot be taken up again at this table (None: it can)."""
    from cardref.live import resume_point

    if not svc.session.takes_up:
        return "this cardref referees no camera table (a replay): nothing is taken up here"
    latest = svc.hub.latest("state")
    if latest is not None and latest.get("game_id") == game_id and svc.session.phase in ("playing", "paused"):
        return f"game {game_id} is the one being recorded"
    try:
        resume_point(svc.store.read(game_id))
    except FileNotFoundError:
        return f"no game {game_id!r}"
    except ValueError as exc:
        return str(exc)
    return None


@router.get("/unfinished", response_model=list[UnfinishedOut],
            summary="Games cardref stopped without ending (a crash) that this table can take up again, newest first")
def unfinished(svc: Services = Depends(get_services)) -> list[UnfinishedOut]:
    if not svc.session.takes_up:
        return []
    out = []
    for g in svc.store.games(finished=False, limit=10):
        if _can_take_up(svc, g.id) is None:
            out.append(UnfinishedOut(id=g.id, game=g.game, players=list(g.players), started=g.started, moves=g.moves))
    return out[:5]


@router.post("/take-up", response_model=SessionOut, dependencies=[Depends(require_control)],
             summary="Take up again a game cardref stopped without ending, from its log's last position")
def take_up(body: TakeUpIn, request: Request, svc: Services = Depends(get_services)) -> SessionOut:
    why = _can_take_up(svc, body.game_id)
    if why is not None:
        raise HTTPException(409, why)
    svc.session.act("start", {"take_up": body.game_id})
    return _out(svc, request)
