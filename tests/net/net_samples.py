"""Sample values and helpers shared by the marketplace client tests."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
from net_router import Router

from app.net.marketplace import MarketplaceClient

BASE = "http://market.test/v1"
ORD = "bc1pmzfrwwndsqmk5yh69yjr5lfgfg4ev8c0tsc06e"
PAY = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
PUBKEY = "02" + "11" * 32
TXID = "bc4c30829a9564c0d58e6287195622b53ced54a25711d1b86be7cd3a70ef61ed"
INSCRIPTION = TXID + "i0"
PSBT_B64 = base64.b64encode(b"psbt\xff\x01\x00unsigned").decode()


def client(router: Router) -> MarketplaceClient:
    return MarketplaceClient(BASE, transport=router.transport)


def body_of(request: httpx.Request) -> Any:
    return json.loads(request.content)
