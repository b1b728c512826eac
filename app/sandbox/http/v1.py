"""The `/v1` marketplace API: router registration, the `Market` dependency, the x-api-key scope
and the `MarketError` envelope.

Every `routes_v1_*.py` module defines `router` (no prefix); `install_v1` mounts them under
`/v1` behind `require_api_key` (the key guards `/v1` only: `/sandbox`, `/esplora` and `/ord`
are the local chain and scenario tools). A router module may also define `install(market)`,
called once with the app's `Market` (e.g. to register a `bid_lister`).
"""

from __future__ import annotations

from types import ModuleType

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse

from app.sandbox.http import (
    routes_sandbox_listings,
    routes_sandbox_market,
    routes_sandbox_market_scenario,
    routes_v1_activity,
    routes_v1_bids,
    routes_v1_cancel,
    routes_v1_catalog,
    routes_v1_collection_stats,
    routes_v1_inscription_bids,
    routes_v1_listings,
    routes_v1_wallet,
    routes_v1_wallet_contents,
    routes_v1_withdraw,
)
from app.sandbox.http.deps import require_api_key
from app.sandbox.market.errors import MarketError
from app.sandbox.market.service import Market

V1_PREFIX = "/v1"
_V1_MODULES: tuple[ModuleType, ...] = (
    routes_v1_wallet,
    routes_v1_catalog,
    routes_v1_bids,
    routes_v1_cancel,
    routes_v1_withdraw,
    routes_v1_inscription_bids,
    routes_v1_listings,
    routes_v1_activity,
    routes_v1_collection_stats,
    routes_v1_wallet_contents,
)
# Market scenario routers (`/sandbox/...`, no API key).
_SANDBOX_MODULES: tuple[ModuleType, ...] = (
    routes_sandbox_market,
    routes_sandbox_listings,
    routes_sandbox_market_scenario,
)


async def _on_market_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, MarketError)
    return JSONResponse(exc.to_json(), status_code=exc.status)


def install_v1(app: FastAPI, market: Market) -> None:
    """Mount `/v1` and the market's scenario routes on `app`, serving `market`."""
    app.state.market = market
    app.add_exception_handler(MarketError, _on_market_error)
    for module in _V1_MODULES:
        install = getattr(module, "install", None)
        if callable(install):
            install(market)
        app.include_router(module.router, prefix=V1_PREFIX, dependencies=[Depends(require_api_key)])
    for module in _SANDBOX_MODULES:
        install = getattr(module, "install", None)
        if callable(install):
            install(market)
        app.include_router(module.router)
