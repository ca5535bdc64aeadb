"""How the game server runs on uvicorn: the transport settings every way of serving it shares."""

from __future__ import annotations

from typing import Any, Final

import uvicorn
from starlette.types import ASGIApp

__all__ = ["MAX_WEBSOCKET_FRAME", "uvicorn_config"]

MAX_WEBSOCKET_FRAME: Final = 1024 * 1024
"""Frames up to this size reach the game, which answers anything over 64 KiB with an error;
larger ones make uvicorn close the connection."""


def uvicorn_config(app: ASGIApp, **options: Any) -> uvicorn.Config:
    """A uvicorn configuration for ``app`` with Miau's transport settings; ``options`` add to it."""
    return uvicorn.Config(app, log_level="warning", ws_max_size=MAX_WEBSOCKET_FRAME, **options)
