"""The Bid tab's live preview, computed without widgets: from what the form holds (`BidDraft`)
to every rule it breaks (each at its form field, from `app.core.bid_validation`, in the user's
words: `bid_messages`), the number of bids, the pools it touches and whether each fits
(`app.core.pools`; none of these while the price or quantity breaks a rule), the fee rate the
fill is asked at (`feeRate`, not signed), and the exact message the payment key will sign
(`app.core.bid_message`; only once no rule is broken)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from app.core.bid_fee_rate import DEFAULT_BID_FEE_RATE, BidFeeRate, FeeRateName
from app.core.bid_message import bid_message
from app.core.bid_request import (
    META_TYPE_ORDINALS,
    META_TYPE_RUNES,
    CollectionBidRequest,
    Trait,
)
from app.core.bid_validation import validate_bid_request
from app.core.pools import check_request_fits
from app.ui import strings
from app.ui.tabs.bid_messages import user_message
from app.ui.widgets.fee_picker import rate_text

if TYPE_CHECKING:
    from app.services.bids import BidderIdentity, BidSpec
    from app.services.maker_fee import AssumedMakerFee
    from app.services.open_bids import BidListEntry

# Form fields that show messages; "general" is the line above the Place button.
KIND, SLUG, PRICE, QUANTITY, EXPIRY, TRAITS, GENERAL = (
    "kind", "slug", "price", "quantity", "expiry", "traits", "general",
)  # fmt: skip
FORM_FIELDS = (KIND, SLUG, PRICE, QUANTITY, EXPIRY, TRAITS, GENERAL)
_WIRE_TO_FORM = {
    "metaType": KIND,
    "collectionSlug": SLUG,
    "price": PRICE,
    "quantity": QUANTITY,
    "bidExpiry": EXPIRY,
    "attribute": TRAITS,
    "attributes": TRAITS,
}
_NOT_OURS = "signedBiddingMessage"  # signed at placement; not the user's to fix
# Stands in for the wallet's identity while it is locked: valid in form, never sent.
_PLACEHOLDER_ADDRESS = "locked"
_PLACEHOLDER_KEY = "02" + "00" * 32
# The service's named rates in the user's words (the wire name is in the picker's tooltip).
FEE_RATE_LABELS = {
    FeeRateName.FASTEST: strings.BID_FEE_FASTEST_UNKNOWN,
    FeeRateName.HALF_HOUR: strings.BID_FEE_HALF_HOUR_UNKNOWN,
    FeeRateName.HOUR: strings.BID_FEE_HOUR_UNKNOWN,
    FeeRateName.MINIMUM: strings.BID_FEE_MINIMUM_UNKNOWN,
}


def form_field(wire_field: str) -> str:
    """The form field a violation of `wire_field` is shown at ("attributes[3]" -> traits)."""
    return _WIRE_TO_FORM.get(wire_field.split("[", 1)[0], GENERAL)


@dataclass(frozen=True)
class BidDraft:
    runes: bool
    target: str  # the collection slug, a range slug, or the rune name
    price: int | None
    price_error: str  # why the price text is not an amount ("" when it is)
    quantity: int
    expiry_ms: int | None  # None: the chosen date and time is not usable
    traits: tuple[tuple[str, str], ...] = ()
    fee_rate: BidFeeRate = DEFAULT_BID_FEE_RATE

    @property
    def meta_type(self) -> str:
        return META_TYPE_RUNES if self.runes else META_TYPE_ORDINALS


@dataclass(frozen=True)
class PoolLine:
    pool: str
    committed: int
    adding: int
    available: int
    shortfall: int


@dataclass(frozen=True)
class BidPreview:
    errors: dict[str, list[str]] = field(default_factory=dict)
    bid_count: int | None = None
    total: int | None = None
    pools: tuple[PoolLine, ...] = ()
    message: str | None = None
    balance_known: bool = False
    maker_fee: AssumedMakerFee | None = None  # what the pools counted (None: no pools)

    @property
    def fits(self) -> bool:
        return all(p.shortfall == 0 for p in self.pools)

    @property
    def placeable(self) -> bool:
        return not any(self.errors.values()) and self.bid_count is not None and self.fits


def build_unsigned(
    draft: BidDraft, who: BidderIdentity | None, now_ms: int
) -> CollectionBidRequest:
    """The request as the services will build it, unsigned, stamped `now_ms` (a form not
    filled in yet: price 0, expiry now, so the rules say what is missing)."""
    from app.services.bids import BidderIdentity, BidSpec, bid_request

    who = who or BidderIdentity(_PLACEHOLDER_ADDRESS, _PLACEHOLDER_KEY, _PLACEHOLDER_ADDRESS)
    expiry = draft.expiry_ms if draft.expiry_ms is not None else now_ms
    traits = tuple(Trait(t, v) for t, v in draft.traits)
    spec = BidSpec(
        draft.target,
        draft.price or 0,
        draft.quantity,
        expiry,
        traits,
        draft.meta_type,
        draft.fee_rate,
    )
    return bid_request(spec, who, now_ms)


def _form_errors(
    draft: BidDraft, request: CollectionBidRequest, now_ms: int
) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {name: [] for name in FORM_FIELDS}
    skip = {_NOT_OURS}
    if not draft.target.strip():
        errors[SLUG].append(strings.BID_NEED_RUNE if draft.runes else strings.BID_NEED_SLUG)
        skip.add("collectionSlug")
    if draft.price is None:
        errors[PRICE].append(draft.price_error or strings.BID_NEED_PRICE)
        skip.add("price")
    if draft.expiry_ms is None:
        errors[EXPIRY].append(strings.BID_EXPIRY_PAST)
        skip.add("bidExpiry")
    for violation in validate_bid_request(request, now_ms):
        if violation.field.split("[", 1)[0] not in skip:
            text = user_message(violation, draft.runes, draft.target)
            if text:
                errors[form_field(violation.field)].append(text)
    return errors


def preview(
    draft: BidDraft,
    who: BidderIdentity | None,
    open_bids: Sequence[BidListEntry] | None,
    balance: int | None,
    maker_fee: AssumedMakerFee,
    now_ms: int,
) -> BidPreview:
    """Everything the preview panel shows for `draft` at `now_ms` (the service clock)."""
    request = build_unsigned(draft, who, now_ms)
    errors = _form_errors(draft, request, now_ms)
    if draft.price is None or errors[PRICE] or errors[QUANTITY]:
        # No count, total or pool for a price or quantity the service would refuse: the
        # preview would say "places 1 bid … Fits: yes" of a request that cannot be placed.
        return BidPreview(errors, balance_known=balance is not None)
    count = request.bid_count()
    total = draft.price if draft.runes else count * draft.price
    pools: tuple[PoolLine, ...] = ()
    if open_bids is not None and balance is not None:
        from app.services.open_bids import pooled_bids

        pooled, _ = pooled_bids(open_bids)
        report = check_request_fits(max(0, balance), pooled, request, maker_fee.fee)
        pools = tuple(
            PoolLine(str(u.pool), u.committed, u.adding, u.available, u.shortfall)
            for u in report.pools
        )
    # The message is shown only as it would be signed: never for a request with a broken rule.
    message = bid_message(request) if who is not None and not any(errors.values()) else None
    assumed = maker_fee if pools else None
    return BidPreview(errors, count, total, pools, message, balance is not None, assumed)


def fee_rate_text(choice: BidFeeRate, estimate: float | None) -> str:
    """What the preview says of the fill's fee rate: a name with its current estimate (when
    known), or the custom rate."""
    if choice.name is None:
        assert choice.sat_vb is not None
        return strings.BID_PREVIEW_FEE_CUSTOM.format(rate=rate_text(choice.sat_vb))
    name = FEE_RATE_LABELS.get(choice.name, choice.name.value).lower()
    if estimate is None:
        return strings.BID_PREVIEW_FEE_NAMED_UNKNOWN.format(name=name)
    return strings.BID_PREVIEW_FEE_NAMED.format(name=name, rate=rate_text(estimate))


def spec_of(draft: BidDraft) -> BidSpec:
    """The services' request description (the request is rebuilt and re-signed per attempt)."""
    from app.services.bids import BidSpec

    assert draft.price is not None and draft.expiry_ms is not None
    if draft.runes:
        spec = BidSpec.rune(draft.target, draft.price, draft.quantity, draft.expiry_ms)
    else:
        traits = [Trait(t, v) for t, v in draft.traits]
        spec = BidSpec.trait(draft.target, traits, draft.price, draft.quantity, draft.expiry_ms)
    return replace(spec, fee_rate=draft.fee_rate)
