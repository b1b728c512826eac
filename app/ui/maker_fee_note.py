"""The maker fee in words: what a pool figure assumes, and the amount a setting holds.

One wording for every pool figure of the window (Wallet chart, Open bids pools, Bid preview,
Withdraw's bids at risk) and for the default the profile settings show."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.ui import strings

if TYPE_CHECKING:
    from app.core.pools import MakerFee
    from app.services.maker_fee import AssumedMakerFee


def maker_fee_text(fee: MakerFee) -> str:
    """ "1,000 sats", "0.5% of its price", or both joined; "0 sats" when there is none."""
    flat = strings.SATS.format(sats=fee.flat_sats)
    if not fee.basis_points:
        return flat
    share = strings.MAKER_FEE_SHARE.format(percent=f"{fee.basis_points / 100:g}")
    if not fee.flat_sats:
        return share
    return strings.MAKER_FEE_FLAT_AND_SHARE.format(flat=flat, share=share)


def source_text(assumed: AssumedMakerFee) -> str:
    return strings.MAKER_FEE_SOURCES[assumed.source.value]


def maker_fee_note(assumed: AssumedMakerFee) -> str:
    """The sentence under a pool figure: the fee it counts per bid, and where that came from."""
    fee = assumed.fee
    if not fee.flat_sats and not fee.basis_points:
        return strings.MAKER_FEE_ASSUMED_NONE.format(source=source_text(assumed))
    return strings.MAKER_FEE_ASSUMED.format(fee=maker_fee_text(fee), source=source_text(assumed))
