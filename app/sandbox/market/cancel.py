"""`POST /cancel` (spec 4.6): the maker cancels open bids with a signed challenge.

- `signature` must sign a live challenge of `makerAddress` (challenge.py): else 403
  CANCEL_CREDENTIAL_INVALID and nothing happens.
- The maker of a bid is the address it is keyed by (`Market.keyed_address`: its ordinals
  address, or its payment address with `--bids-keyed-by payment`). Any id that is a bid of
  another maker: 403 CANCEL_NOT_MAKER and nothing is cancelled.
- Otherwise each open bid of the maker is cancelled; ids that are unknown, expired or already
  ended are reported as failed. The response follows the public service's shape (`success`,
  `summary`, `successCount`, `failedCount`) plus explicit `cancelledIds` / `failedIds`.
Under the market lock a bid ends once: 50 concurrent cancels of it count one success.
"""

from __future__ import annotations

from typing import Any

from app.core.errors import ErrorCode
from app.sandbox.market.bid_store import bid_states, end_bids
from app.sandbox.market.body_fields import require_object, require_str
from app.sandbox.market.challenge import signed_challenge
from app.sandbox.market.errors import MarketError
from app.sandbox.market.service import Json, Market

MAX_IDS_PER_CANCEL = 1_000
_ID_MAX_CHARS = 64


def _bid_ids(body: Any) -> list[str]:
    raw: Any = body.get("_ids")
    if raw is None:
        raw = [body["_id"]] if body.get("_id") is not None else None
    if raw is None:
        raise MarketError(
            ErrorCode.MISSING_FIELD, "send the bid id as _id, or several as _ids", field="_ids"
        )
    if (
        not isinstance(raw, list)
        or not raw
        or len(raw) > MAX_IDS_PER_CANCEL
        or not all(isinstance(i, str) and 0 < len(i) <= _ID_MAX_CHARS for i in raw)
    ):
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            f"_id must be a bid id string and _ids a list of 1-{MAX_IDS_PER_CANCEL} of them",
            field="_ids",
        )
    return list(dict.fromkeys(raw))


def cancel_bids(market: Market, body: Any) -> Json:
    body = require_object(body)
    maker = require_str(body, "makerAddress", 128)
    order_type = require_str(body, "orderType", 16)
    signature = require_str(body, "signature", 4096)
    if order_type != "bid":
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            f'orderType {order_type!r} cannot be cancelled here: send "bid"',
            field="orderType",
        )
    ids = _bid_ids(body)
    if signed_challenge(market, maker, signature) is None:
        raise MarketError(
            ErrorCode.CANCEL_CREDENTIAL_INVALID,
            "signature is not a signature by makerAddress of a live challenge: get one from "
            "GET /challenge?address=<makerAddress>, sign it (BIP-322) and send that signature",
        )
    with market.lock, market.store.transaction() as conn:
        now = market.now_ms()
        states = bid_states(conn, ids)
        makers = {
            bid_id: market.keyed_address(state.maker, state.bidder_address)
            for bid_id, state in states.items()
        }
        for external in market.external_bids:
            makers.update(external.makers([i for i in ids if i not in makers]))
        foreign = [i for i in ids if i in makers and makers[i] != maker]
        if foreign:
            raise MarketError(
                ErrorCode.CANCEL_NOT_MAKER,
                f"{len(foreign)} of the ids are bids of another maker; nothing was cancelled: "
                "send only bids of makerAddress",
                details={"ids": foreign},
            )
        cancelled = set(end_bids(conn, [i for i in ids if i in states], "cancelled", "maker", now))
        others = [i for i in ids if i in makers and i not in states]
        for external in market.external_bids:
            cancelled.update(external.cancel(others, now))
    summary = [
        {"id": i, "success": i in cancelled}
        | ({} if i in cancelled else {"reason": _reason(i, makers)})
        for i in ids
    ]
    failed = [i for i in ids if i not in cancelled]
    return {
        "success": not failed,
        "summary": summary,
        "successCount": len(ids) - len(failed),
        "failedCount": len(failed),
        "cancelledIds": [i for i in ids if i in cancelled],
        "failedIds": failed,
    }


def _reason(bid_id: str, makers: dict[str, str]) -> str:
    return "not an open bid (expired, filled or cancelled)" if bid_id in makers else "no such bid"
