"""Health and version, for tools and for the pages' header."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field
from starlette.requests import Request

import cardref

from ..deps import Services, control_allowed, get_services

router = APIRouter(prefix="/api", tags=["meta"])


class Health(BaseModel):
    ok: bool = True
    version: str = Field(title="cardref version")
    local_only: bool = Field(title="listening on this machine only")
    control: bool = Field(title="this caller may use control actions")
    hub: dict[str, Any] = Field(title="hub counters")
    limits: dict[str, int] = Field(title="size limits", description="bytes")


@router.get("/health", response_model=Health, summary="Is cardref up; counters and limits")
def health(request: Request, svc: Services = Depends(get_services)) -> Health:
    s = svc.settings
    return Health(version=getattr(cardref, "__version__", "0"), local_only=s.local_only,
                  control=control_allowed(request, s), hub=svc.hub.stats(),
                  limits={"upload": s.max_upload_bytes, "frame": s.max_frame_bytes})
