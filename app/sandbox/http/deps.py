"""FastAPI dependencies shared by the routers: the Node, the settings and the API-key check."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Header, Request

from app.sandbox.chain.node import Node
from app.sandbox.http.errors import UNAUTHORIZED, ApiError
from app.sandbox.http.settings import SandboxSettings


def get_node(request: Request) -> Node:
    node: Node = request.app.state.node
    return node


def get_settings(request: Request) -> SandboxSettings:
    settings: SandboxSettings = request.app.state.settings
    return settings


def require_api_key(
    settings: Annotated[SandboxSettings, Depends(get_settings)],
    x_api_key: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> None:
    """No-op unless the service was started with an API key; then `x-api-key` must match it."""
    if settings.api_key is None:
        return
    if x_api_key is None or not hmac.compare_digest(
        x_api_key.encode("utf-8", "surrogatepass"), settings.api_key.encode("utf-8")
    ):
        # Never echo the key (either one) in the message.
        raise ApiError(401, UNAUTHORIZED, "missing or wrong x-api-key header")


NodeDep = Annotated[Node, Depends(get_node)]
SettingsDep = Annotated[SandboxSettings, Depends(get_settings)]
