"""Settings of the sandbox HTTP service (what `bidwallet sandbox serve` passes to `create_app`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

BiddingWalletKind = Literal["taproot", "p2wsh"]

DEFAULT_MAX_BODY_BYTES = 1024 * 1024


@dataclass(frozen=True)
class SandboxSettings:
    """Knobs of one running sandbox service.

    `api_key`: when set, the marketplace routes require it in the `x-api-key` header; it is a
    credential, so it is kept out of the repr.
    `bidding_wallet`: which kind of 1-of-2 bidding wallet the marketplace hands out (next issue).
    `max_body_bytes`: requests with a larger body get 413 before the body is read.
    """

    api_key: str | None = field(default=None, repr=False)
    bidding_wallet: BiddingWalletKind = "taproot"
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    block_interval_s: float | None = None

    def __post_init__(self) -> None:
        if self.bidding_wallet not in ("taproot", "p2wsh"):
            raise ValueError(
                f"bidding_wallet must be 'taproot' or 'p2wsh', not {self.bidding_wallet!r}"
            )
        if self.max_body_bytes < 1:
            raise ValueError("max_body_bytes must be positive")
        if self.block_interval_s is not None and self.block_interval_s <= 0:
            raise ValueError("block_interval_s must be positive")
        if self.api_key == "":
            raise ValueError("api_key must not be empty (leave it unset to disable the check)")
