"""The phone as the table camera: the phone page sends JPEG frames here (POST or WebSocket); the
pipeline reads them through :class:`cardref.web.phone.PhoneCamera`. Sending frames is a control
action (a stranger must not be able to feed the referee pictures)."""

from __future__ import annotations


from fastapi import APIRouter, Depends, HTTPException, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field

from ..deps import Services, control_allowed, get_services, require_control
from ..phone import FrameTooLarge

router = APIRouter(tags=["camera"])


class CameraStatus(BaseModel):
    received: int = Field(title="frames received")
    dropped: int = Field(title="frames dropped", description="replaced before the pipeline read them")
    rejected: int = Field(title="frames refused", description="too large or not JPEG")
    corrupt: int = Field(title="frames that did not decode")
    fps: float = Field(title="frames per second, recently")
    last_at: float | None = Field(title="last frame", description="Unix time")
    max_bytes: int = Field(title="frame size limit")
    target_fps: float = Field(title="rate the phone page sends at")


def _status(svc: Services) -> CameraStatus:
    return CameraStatus(**svc.phone.status(), max_bytes=svc.phone.max_bytes, target_fps=svc.settings.phone_fps)


@router.get("/api/camera", response_model=CameraStatus, summary="The phone camera's counters")
def camera_status(svc: Services = Depends(get_services)) -> CameraStatus:
    return _status(svc)


@router.post("/api/camera/frame", response_model=CameraStatus, status_code=202, dependencies=[Depends(require_control)],
             summary="One JPEG frame from the phone (request body: image/jpeg)",
             openapi_extra={"requestBody": {"content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}}})
async def post_frame(request: Request, svc: Services = Depends(get_services)) -> CameraStatus:
    body = await request.body()
    try:
        svc.phone.put(body)
    except FrameTooLarge as exc:
        raise HTTPException(413, str(exc)) from None
    except ValueError as exc:
        raise HTTPException(415, str(exc)) from None
    return _status(svc)


@router.websocket("/ws/camera")
async def camera_socket(ws: WebSocket, svc: Services = Depends(get_services)) -> None:
    """Binary messages, one JPEG each; the server answers each with a small JSON status. Closes with
    1008 without the token (from another machine) and 1009 for a frame over the limit."""
    if not control_allowed(ws, svc.settings):
        await ws.close(code=1008, reason="the phone camera needs the control token")
        return
    await ws.accept()
    try:
        while True:
            message = await ws.receive()
            if message.get("type") == "websocket.disconnect":
                break
            data = message.get("bytes")
            if data is None:
                continue
            try:
                svc.phone.put(data)
            except FrameTooLarge as exc:
                await ws.close(code=1009, reason=str(exc)[:120])
                return
            except ValueError as exc:
                await ws.send_json({"error": str(exc)})
                continue
            await ws.send_json({"received": svc.phone.received, "dropped": svc.phone.dropped})
    except (WebSocketDisconnect, RuntimeError):
        pass
