"""Path parameter types shared by the routers: validated shapes, so bad input is a 400."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

from app.sandbox.chain.catalog import SLUG_PATTERN

TXID_PATTERN = r"^[0-9a-fA-F]{64}$"
OUTPOINT_PATTERN = r"^[0-9a-fA-F]{64}:[0-9]{1,10}$"
INSCRIPTION_ID_PATTERN = r"^[0-9a-fA-F]{64}i[0-9]{1,10}$"
# bech32 addresses are at most 90 characters; a little slack for future formats.
MAX_ADDRESS_CHARS = 128

TxidPath = Annotated[str, Path(pattern=TXID_PATTERN, description="transaction id (64 hex)")]
AddressPath = Annotated[
    str, Path(min_length=1, max_length=MAX_ADDRESS_CHARS, description="a regtest address")
]
BlockHashPath = Annotated[str, Path(pattern=TXID_PATTERN, description="block hash (64 hex)")]
VoutPath = Annotated[
    int, Path(ge=0, le=0xFFFFFFFF, description="output index in the transaction (0 to 2^32 - 1)")
]
OutpointPath = Annotated[str, Path(pattern=OUTPOINT_PATTERN, description="`<txid>:<vout>`")]
InscriptionIdPath = Annotated[
    str, Path(pattern=INSCRIPTION_ID_PATTERN, description="inscription id `<txid>i<n>`")
]
Slug = Annotated[
    str,
    Path(pattern=SLUG_PATTERN.pattern, description="collection slug: lower-case, digits, hyphens"),
]
