"""The live table: the WebSocket that pushes every hub message, and a snapshot for tools that poll."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import Response
from pydantic import BaseModel, Field

from ..deps import Services, get_hub, get_services
from ..hub import MESSAGE_TYPES, Hub

router = APIRouter(tags=["live"])


class LiveSnapshot(BaseModel):
    """What a viewer that connects now is sent first, as one JSON document."""

    status: dict[str, Any] | None = Field(title="camera status", description="the latest status message")
    session: dict[str, Any] | None = Field(title="set-up and phase")
    state: dict[str, Any] | None = Field(title="the table", description="the latest state message")
    history: list[dict[str, Any]] = Field(title="verdicts and calls of the current game, oldest first")
    hub: dict[str, Any] = Field(title="hub counters", description="viewers, published, dropped ...")


@router.get("/api/live", response_model=LiveSnapshot, summary="The live table as one document")
def live_snapshot(hub: Hub = Depends(get_hub)) -> LiveSnapshot:
    return LiveSnapshot(status=hub.latest("status"), session=hub.latest("session"), state=hub.latest("state"),
                        history=hub.history(), hub=hub.stats())


@router.get("/api/live/frame.jpg", summary="The latest camera picture", response_class=Response,
            responses={200: {"content": {"image/jpeg": {}}}, 404: {"description": "no picture yet"}})
def live_frame(hub: Hub = Depends(get_hub)) -> Response:
    latest = hub.latest_frame()
    if latest is None:
        raise HTTPException(404, "no camera picture yet")
    return Response(latest[1], media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.websocket("/ws/live")
async def live_socket(
    ws: WebSocket,
    frames: bool = Query(True, description="send camera pictures (false for the referee screen)"),
    types: str = Query("", description="comma-separated message types to receive; empty: all"),
    svc: Services = Depends(get_services),
) -> None:
    """Every hub message as it is published: JSON text; a ``frame`` message is followed by one binary
    message with its JPEG. The snapshot (latest status, session, state, frame and the game's verdicts
    and calls) comes first."""
    hub = svc.hub
    wanted = frozenset(t for t in types.split(",") if t) or frozenset(MESSAGE_TYPES)
    if not wanted <= frozenset(MESSAGE_TYPES):
        await ws.close(code=1008, reason=f"unknown types {sorted(wanted - frozenset(MESSAGE_TYPES))}")
        return
    if hub.stats()["viewers"] >= svc.settings.max_viewers:
        await ws.close(code=1013, reason="too many viewers")
        return
    await ws.accept()
    sub = hub.subscribe(frames=frames, types=wanted)
    closed = asyncio.Event()

    async def watch_close() -> None:
        try:
            while True:
                message = await ws.receive()  # viewers send nothing that matters; this notices a close
                if message.get("type") == "websocket.disconnect":
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            closed.set()

    watcher = asyncio.create_task(watch_close())
    try:
        while not closed.is_set():
            getter = asyncio.ensure_future(sub.get())
            done, _ = await asyncio.wait({getter, watcher}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                break
            item = getter.result()
            await ws.send_text(item.text)
            hub.delivered(item)
            if item.jpeg is not None:
                await ws.send_bytes(item.jpeg)
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass
    finally:
        sub.close()
        watcher.cancel()
