"""The runestone the service adds to the PSBTs it builds (`--service-runestones`,
docs/sandbox-listings.md "Runestones"): whether the public service adds one is unknown, so the
sandbox can build each plausible kind and the app is tested against each.

- "none": no runestone; ord's default sends the runes to the first non-OP_RETURN output.
- "edict": an edict per rune the item's output carries (ord's rune id, amount 0 = all that
  remains, output = the one receiving the item); nothing when it carries none.
- "pointer": the pointer at the output receiving the item, present whatever the item carries.

The runestone is appended as the last output, 0 sats, written by ord's own encoder
(`app.core.runestone.encode_runestone`). An edict names a rune by its id, `<block>:<tx>` of its
etching as the sandbox's ord gives it (`Node.ord_rune`): a rune whose etching no block holds
yet has none, so an "edict" PSBT spending it is refused with that reason rather than sent
without the edict.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.errors import ErrorCode
from app.core.runestone import Edict, RuneId, encode_runestone
from app.sandbox.market.errors import MarketError
from app.sandbox.market.service import Market


def runestone_output(
    market: Market, runes: Sequence[str], receiver: int, field: str
) -> tuple[bytes, int] | None:
    """The (runestone script, 0 sats) output sending the `runes` (spaced names) on the item's
    output to output `receiver`, by the market's current setting; None: no runestone."""
    mode = market.runestones
    if mode == "pointer":
        return encode_runestone(pointer=receiver), 0
    if mode == "none" or not runes:
        return None
    edicts = [Edict(_rune_id(market, rune, field), 0, receiver) for rune in runes]
    return encode_runestone(edicts), 0


def _rune_id(market: Market, rune: str, field: str) -> RuneId:
    found = market.node.ord_rune(rune)
    if found is None:
        raise MarketError(
            ErrorCode.SECURE_LISTING_ITEM_UNSUPPORTED,
            f"{field}: rune {rune} has no id yet (no block holds its etching), so the edict "
            "this sandbox adds (--service-runestones edict) cannot name it: mine a block and "
            "ask again",
            field=field,
        )
    return RuneId.parse(found[0])
