"""Where an item (an inscription, or a runes output) sits now, read from the sandbox's ord
index (mempool included): the output, its amount and script, and what else it carries.

Shared by single-inscription bids and secure listings: both spend the item's output as input 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.core.errors import ErrorCode
from app.sandbox.chain.errors import ChainError
from app.sandbox.chain.node import Node
from app.sandbox.market.errors import MarketError
from app.sandbox.market.psbt_build import Coin


@dataclass(frozen=True)
class ItemOutput:
    """An unspent output as ord sees it."""

    coin: Coin
    address: str | None
    inscriptions: tuple[str, ...]
    runes: tuple[str, ...]  # spaced rune names

    def others_than(self, inscription_id: str | None) -> list[str]:
        """What the output carries besides `inscription_id` (everything, for None)."""
        found = [f"inscription {i}" for i in self.inscriptions if i != inscription_id]
        return found + [f"rune {r}" for r in self.runes]


@dataclass(frozen=True)
class LocatedInscription:
    inscription_id: str
    output: ItemOutput
    offset: int  # of the inscribed sat inside the output
    tap_transfer: bool
    collection: str | None


def _inscription_json(node: Node, inscription_id: str, field: str) -> dict[str, Any]:
    try:
        info = node.ord_inscription(inscription_id)
    except ChainError:
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            f"{field} must be an inscription id: <64 hex txid>i<index>",
            field=field,
        ) from None
    if info is None:
        raise MarketError(
            ErrorCode.INSCRIPTION_NOT_FOUND,
            f"{field}: the sandbox knows no inscription {inscription_id}",
            field=field,
        )
    return info


def is_tap_transfer(node: Node, inscription_id: str, field: str) -> bool:
    return bool(_inscription_json(node, inscription_id, field)["tap_transfer"])


def locate_inscription(node: Node, inscription_id: str, field: str) -> LocatedInscription:
    info = _inscription_json(node, inscription_id, field)
    if info["output"] is None:
        raise MarketError(
            ErrorCode.INSCRIPTION_NOT_INDEXED,
            f"{field}: inscription {inscription_id} sits on no output (it went to a fee or was "
            "lost), so nothing can spend it",
            field=field,
        )
    output = read_output(node, info["output"])
    if output is None:  # the index answered for the inscription: its output exists
        raise MarketError(
            ErrorCode.INSCRIPTION_NOT_INDEXED,
            f"{field}: the output of inscription {inscription_id} is not indexed",
            field=field,
        )
    return LocatedInscription(
        inscription_id,
        output,
        int(info["offset"]),
        bool(info["tap_transfer"]),
        info.get("collection"),
    )


def read_output(node: Node, outpoint: str) -> ItemOutput | None:
    """The unspent output `outpoint`, or None when it does not exist or is spent."""
    try:
        out = node.ord_output(outpoint)
    except ChainError:
        return None
    if out is None or out["spent"]:
        return None
    txid, vout = outpoint.split(":")
    coin = Coin(txid, int(vout), int(out["value"]), bytes.fromhex(out["script_pubkey"]))
    return ItemOutput(coin, out["address"], tuple(out["inscriptions"]), tuple(out["runes"]))


def is_spent(node: Node, outpoint: str) -> bool:
    """True when `outpoint` exists and is spent (in a block or in the mempool)."""
    try:
        out = node.ord_output(outpoint)
    except ChainError:
        return False
    return bool(out is not None and out["spent"])
