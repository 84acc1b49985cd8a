"""The archive of recorded games (:mod:`cardref.gamelog`): list and search, one game for review,
its key frames, exports (JSONL, CSV), corrections after the fact, deletion."""

from __future__ import annotations

import io
import shutil
from typing import Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from cardref.gamelog import Correction, CorrectionAction, GameBusyError, GameStore, LogFormatError, RecordKind
from cardref.gamelog.export import EXPORTERS

from ..deps import get_store, require_control
from ..review import review

router = APIRouter(prefix="/api/games", tags=["games"])


class GameOut(BaseModel):
    """One recorded game, as the index has it."""

    id: str
    game: str
    rules: str
    players: list[str]
    started: str = Field(description="ISO 8601 UTC")
    finished: bool
    result: str | None
    duration: float = Field(description="game time of the last record, s")
    moves: int
    illegal: int
    calls: int
    unrecognised: int
    corrections: int
    errors: int


class GameCorrectionIn(BaseModel):
    """A correction made on the review page (docs/gamelog-format.md, Corrections)."""

    model_config = ConfigDict(extra="forbid")

    action: Literal["retract", "replace", "insert", "note"] = Field(title="what to do")
    target: int | None = Field(default=None, ge=1, title="record corrected (seq)", description="not for a note")
    kind: Literal["move", "illegal", "call", "unrecognised", "note"] | None = Field(default=None, title="what happened")
    data: dict[str, Any] | None = Field(default=None, title="its payload")
    text: str = Field(default="", max_length=2000, title="note text")
    reason: str = Field(default="", max_length=500, title="why")
    by: str = Field(default="", max_length=40, title="who")


class Written(BaseModel):
    seq: int = Field(title="the new record's seq")


def _summary_out(s: Any) -> GameOut:
    return GameOut(**s.to_json())


def _read(store: GameStore, game_id: str) -> Any:
    try:
        return store.read(game_id)
    except ValueError as exc:
        raise HTTPException(404, str(exc)) from None
    except FileNotFoundError:
        raise HTTPException(404, f"no recorded game {game_id!r}") from None


@router.get("", response_model=list[GameOut], summary="List and search recorded games, newest first")
def list_games(
    q: str | None = Query(None, max_length=200, description="any part of the id, game, rules, result or a player"),
    game: str | None = Query(None, max_length=40),
    player: str | None = Query(None, max_length=40),
    since: str | None = Query(None, description="2026-11-29 or an ISO time (UTC)"),
    until: str | None = Query(None),
    finished: bool | None = Query(None),
    limit: int = Query(100, ge=1, le=1000),
    offset: int = Query(0, ge=0),
    store: GameStore = Depends(get_store),
) -> list[GameOut]:
    try:
        found = store.games(game=game, player=player, text=q, since=since, until=until, finished=finished,
                            limit=limit, offset=offset)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    return [_summary_out(s) for s in found]


@router.get("/{game_id}", response_model=GameOut, summary="One game's index row")
def get_game(game_id: str, store: GameStore = Depends(get_store)) -> GameOut:
    try:
        row = store.index_game(game_id)
    except ValueError as exc:
        raise HTTPException(404, str(exc)) from None
    if row is None:
        raise HTTPException(404, f"no recorded game {game_id!r}")
    return _summary_out(row)


@router.get("/{game_id}/review", summary="The game as corrected, step by step, with states and key frames")
def get_review(game_id: str, store: GameStore = Depends(get_store)) -> dict[str, Any]:
    log = _read(store, game_id)
    try:
        return review(log)
    except ValueError as exc:
        raise HTTPException(422, f"game {game_id!r}: {exc}") from None


@router.get("/{game_id}/frames/{name}", summary="A key frame (JPEG)", response_class=FileResponse,
            responses={200: {"content": {"image/jpeg": {}}}})
def get_frame(game_id: str, name: str, store: GameStore = Depends(get_store)) -> FileResponse:
    try:
        path = store.frame_path(game_id, name)
    except ValueError as exc:
        raise HTTPException(404, str(exc)) from None
    if not path.is_file():
        raise HTTPException(404, f"no key frame {name!r} in game {game_id!r}")
    return FileResponse(path, media_type="image/jpeg", headers={"Cache-Control": "max-age=86400"})


@router.get("/{game_id}/export", summary="Export the log as JSONL (the log format) or CSV",
            responses={200: {"content": {"application/x-ndjson": {}, "text/csv": {}}}})
def export(game_id: str, format: Literal["jsonl", "csv"] = Query("jsonl"),
           store: GameStore = Depends(get_store)) -> Response:
    log = _read(store, game_id)
    out = io.StringIO()
    EXPORTERS[format](log, out)
    media = "application/x-ndjson" if format == "jsonl" else "text/csv"
    return Response(out.getvalue(), media_type=f"{media}; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.{format}"'})


@router.post("/{game_id}/corrections", response_model=Written, status_code=201,
             dependencies=[Depends(require_control)], summary="Correct a recorded game (the original stays)")
def correct(game_id: str, body: GameCorrectionIn, store: GameStore = Depends(get_store)) -> Written:
    log = _read(store, game_id)
    t = log.last_t
    try:
        with store.resume(game_id, t=t, finished_ok=True) as writer:
            if body.action == "note":
                rec = writer.note(t, body.text or body.reason, by=body.by)
            else:
                if body.target is None:
                    raise HTTPException(422, f"a {body.action} needs 'target', the seq of the record it corrects")
                kind = None if body.action == "retract" else RecordKind(body.kind or "move")
                data = None if body.action == "retract" else (body.data or {})
                c = Correction(CorrectionAction(body.action), kind, data, None, body.by, body.reason)
                rec = writer.correct(t, body.target, c)
    except GameBusyError as exc:
        raise HTTPException(409, f"game {game_id!r} is being recorded now: correct it from the referee screen ({exc})") from None
    except (LogFormatError, ValueError) as exc:
        raise HTTPException(422, str(exc)) from None
    return Written(seq=rec.seq)


@router.delete("/{game_id}", status_code=204, dependencies=[Depends(require_control)],
               summary="Delete a recorded game (its folder and index row)")
def delete_game(game_id: str, store: GameStore = Depends(get_store)) -> Response:
    try:
        folder = store.game_dir(game_id)
    except ValueError as exc:
        raise HTTPException(404, str(exc)) from None
    log = folder / "log.jsonl"
    if not log.is_file():
        raise HTTPException(404, f"no recorded game {game_id!r}")
    if _busy(log):
        raise HTTPException(409, f"game {game_id!r} is being recorded now; end it first")
    shutil.rmtree(folder)
    store.sync()
    return Response(status_code=204)


def _busy(path: Any) -> bool:
    """Whether a writer holds the log's lock (docs/gamelog-format.md: one writer per game, flock)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover
        return False
    import os

    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
