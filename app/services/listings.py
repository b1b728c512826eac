"""Secure listings, one or up to 100 at once (spec 4.9-4.11), in two steps:

    plan = await prepare_listings(ctx, [ListingItem(100_000, inscription_id=...)], progress=p)
    # the GUI shows each plan.items[i].psbt.review; the user confirms
    done = await execute_listings(ctx, plan, progress=p, cancel=token)

Each secure listing PSBT is reviewed with the secure listing policy (the listed item's input
is ours, signed ALL|ANYONECANPAY or ALL and nothing else of ours is spent, one output pays
exactly the price to the receive address). The service's `indicesToSign` must be exactly the
inputs the policy approved: a service asking for more, or other, signatures is refused. No
two ANYONECANPAY signatures of ours may combine into one purchase: the batch is checked
against itself and against our live signatures (`acp_signatures`) before anything is shown.
Signing runs in the executor item by item with progress; a cancel stops between items, and
nothing is submitted unless every item is signed (one `POST /list/secure` for all).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.core.limits import MAX_LISTINGS_PER_BULK_REQUEST
from app.core.psbt_review_context import ReviewContext
from app.core.psbt_review_summary import sats
from app.core.signing_policy import Refusal, RefusalCode, SecureListingIntent, Verdict
from app.net.errors import MarketplaceError, NetError, SecureListingUnsupported
from app.net.marketplace_requests import Listing, SecureListingSubmission
from app.net.marketplace_responses import CreatedListing, SecureListingPsbt
from app.services.acp_signatures import forget_spent_signatures, refuse_live_collisions
from app.services.context import CancelToken, ReviewFacts, ServiceContext
from app.services.errors import ServiceError
from app.services.psbt_flow import (
    OperationCancelledError,
    Progress,
    PsbtPlan,
    PsbtRefusedError,
    decide,
    gather_facts,
    input_outpoints,
    read_served_psbt,
    sign_plans,
)
from app.wallet.addresses import AddressType, KeyRole

LEDGER_SWEEP_SAMPLE = 16  # live signatures asked about per review, beyond the colliding ones

TAP_TRANSFER_EXPLANATION = (
    "A TAP token transfer inscription cannot be sold as a secure listing: the marketplace "
    "only lists inscriptions and runes that way. List TAP transfers with a regular listing "
    "(the service's POST /intent/sell), or remove them from this batch."
)


class ListingError(ServiceError):
    """The listings could not be prepared or the service refused them; `error_code` is the
    service's when it gave one."""

    def __init__(self, user_message: str, error_code: str | None = None) -> None:
        self.error_code = error_code
        super().__init__(user_message)


class TapTransferNotListableError(ListingError):
    """SECURE_LISTING_UNSUPPORTED: a TAP token transfer was in the request."""


@dataclass(frozen=True)
class ListingItem:
    """What the user lists: an inscription or a whole runes output, for `price` sats."""

    price: int
    inscription_id: str | None = None
    runes_output: str | None = None
    collection_slug: str | None = None

    @property
    def label(self) -> str:
        what = f"inscription {self.inscription_id}" if self.inscription_id else "runes"
        where = "" if self.inscription_id else f" on {self.runes_output}"
        return f"List {what}{where} for {sats(self.price)}"


# What `ListingItem.label` ends with: the ledger of signatures keeps the label, not the price.
_LABEL_PRICE = re.compile(r"^List .* for ([0-9][0-9,]*) sats$")


def listing_price_of(label: str) -> int | None:
    """The price a listing's label names (as `ListingItem.label` writes it); None for any
    other label (another kind of signature, or one recorded without a label)."""
    found = _LABEL_PRICE.match(label)
    return None if found is None else int(found.group(1).replace(",", ""))


@dataclass(frozen=True)
class PlannedListing:
    listing: Listing
    psbt: PsbtPlan
    indices_to_sign: tuple[int, ...]


@dataclass(frozen=True)
class ListingPlan:
    items: tuple[PlannedListing, ...]
    receive_address: str


@dataclass(frozen=True)
class ListingsDone:
    listings: tuple[CreatedListing, ...]


def build_listings(
    ctx: ServiceContext, items: Sequence[ListingItem], receive_address: str | None = None
) -> tuple[Listing, ...]:
    """The wire listings for `items`, all from our ordinals address to one receive address."""
    if not 1 <= len(items) <= MAX_LISTINGS_PER_BULK_REQUEST:
        raise ListingError(
            f"A secure listing request holds 1 to {MAX_LISTINGS_PER_BULK_REQUEST} items, not "
            f"{len(items)}."
        )
    if len({item.inscription_id is None for item in items}) > 1:
        raise ListingError("Inscriptions and runes cannot be listed in the same request.")
    public = ctx.ordinals_public
    tap_key = None
    if public.address_type is AddressType.P2TR:
        tap_key = public.public_key[-32:].hex()  # the x-only internal key (BIP-86)
    return tuple(
        Listing(
            price=item.price,
            seller_ord_address=ctx.ordinals_address,
            seller_receive_address=receive_address or ctx.payment_address,
            inscription_id=item.inscription_id,
            runes_output=item.runes_output,
            collection_slug=item.collection_slug,
            tap_internal_key=tap_key,
        )
        for item in items
    )


async def request_listing_psbts(
    ctx: ServiceContext, listings: Sequence[Listing]
) -> tuple[SecureListingPsbt, ...]:
    """The service's unsigned secure listing PSBTs, one per listing, in order."""
    market = ctx.clients.marketplace
    try:
        if len(listings) == 1:
            served = await market.create_secure_sell_intent(listings[0])
        else:
            served = await market.create_secure_bulk_sell_intent(listings)
    except SecureListingUnsupported as exc:
        raise TapTransferNotListableError(
            f"{TAP_TRANSFER_EXPLANATION} (The service says: {exc.message})", exc.error_code
        ) from exc
    except MarketplaceError as exc:
        raise ListingError(
            f"The service would not prepare the listings: {exc.message}", exc.error_code
        ) from exc
    if len(served.psbts) != len(listings):
        raise ListingError(
            f"The service built {len(served.psbts)} listing PSBTs for {len(listings)} "
            "listings; nothing was signed."
        )
    return served.psbts


def intent_of(listing: Listing) -> SecureListingIntent:
    return SecureListingIntent(
        listing.price,
        listing.seller_receive_address,
        inscription_id=listing.inscription_id,
        runes_outpoint=listing.runes_output,
    )


async def prepare_listings(
    ctx: ServiceContext,
    items: Sequence[ListingItem],
    receive_address: str | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> ListingPlan:
    """Request the listing PSBTs and review every one; raises `PsbtRefusedError` (naming the
    item in its label) on the first refused, so nothing of the batch is signed."""
    listings = build_listings(ctx, items, receive_address)
    # Asked while the service builds the PSBTs: the facts of where the items sit now, and the
    # ledger's upkeep. The review weighs only the PSBTs' own inputs, asked again if unforeseen.
    foreseen = asyncio.ensure_future(foreseen_facts(ctx, items))
    upkeep = asyncio.ensure_future(forget_spent_signatures(ctx, sample=LEDGER_SWEEP_SAMPLE))
    try:
        served = await request_listing_psbts(ctx, listings)
        outpoints = [
            o
            for s in served
            for o in input_outpoints(read_served_psbt(s.psbt_base64, "secure listing PSBT"))
        ]
        facts = await facts_of_inputs(ctx, outpoints, await foreseen)
        await upkeep
    finally:
        for task in (foreseen, upkeep):
            if not task.done():
                task.cancel()
            elif not task.cancelled():
                task.exception()  # retrieved: the error told is the one raised above
    context = ctx.review_context(facts)
    loop = asyncio.get_running_loop()

    def report(done: int, total: int) -> None:  # from the executor: progress runs on the loop
        if progress is not None:
            loop.call_soon_threadsafe(progress, done, total)

    reviews = [
        (listing, psbt, item.label)
        for item, listing, psbt in zip(items, listings, served, strict=True)
    ]
    planned = await ctx.run_cpu(review_listings, context, reviews, report, cancel)
    await refuse_live_collisions(ctx, [p.psbt for p in planned])
    return ListingPlan(tuple(planned), listings[0].seller_receive_address)


async def foreseen_facts(
    ctx: ServiceContext, items: Sequence[ListingItem]
) -> tuple[frozenset[str], ReviewFacts] | None:
    """The facts of the outputs the items sit on now (where ord locates each inscription, a
    runes item's own output), with those outputs; None when they cannot be had this way."""
    try:
        ids = [item.inscription_id for item in items if item.inscription_id]
        located = await ctx.clients.ord.inscriptions(ids) if ids else []
        where = [x.output for x in located] + [i.runes_output for i in items if i.runes_output]
        outpoints = list(dict.fromkeys(o.lower() for o in where))
        return frozenset(outpoints), await gather_facts(ctx, outpoints)
    except (NetError, ServiceError):
        return None  # asked again once the PSBTs name their inputs, where errors are told


async def facts_of_inputs(
    ctx: ServiceContext,
    outpoints: Sequence[str],
    foreseen: tuple[frozenset[str], ReviewFacts] | None,
) -> ReviewFacts:
    """The facts of exactly these inputs: the foreseen ones when they cover every input, else
    asked now."""
    wanted = list(dict.fromkeys(outpoints))
    if foreseen is None or not foreseen[0].issuperset(wanted):
        return await gather_facts(ctx, wanted)
    facts = foreseen[1]
    return replace(
        facts,
        contents={o: facts.contents[o] for o in wanted if o in facts.contents},
        chain_utxos={o: facts.chain_utxos[o] for o in wanted if o in facts.chain_utxos},
    )


def review_listings(
    context: ReviewContext,
    reviews: Sequence[tuple[Listing, SecureListingPsbt, str]],
    progress: Progress,
    cancel: CancelToken | None,
) -> list[PlannedListing]:
    """Every (listing, served PSBT, label) reviewed with the secure listing policy and its
    `indicesToSign` checked: one CPU pass (an executor), a cancel taking effect between
    items. The batch's ANYONECANPAY signatures are checked after (`refuse_live_collisions`)."""
    planned: list[PlannedListing] = []
    for listing, psbt, label in reviews:
        if cancel is not None and cancel.cancelled:
            raise OperationCancelledError(len(planned), len(reviews))
        plan = decide(psbt.psbt_base64, context, intent_of(listing), KeyRole.ORDINALS, label)
        check_indices(plan, psbt.indices_to_sign)
        planned.append(PlannedListing(listing, plan, psbt.indices_to_sign))
        progress(len(planned), len(reviews))
    return planned


def check_indices(plan: PsbtPlan, indices_to_sign: Sequence[int]) -> None:
    """The service's `indicesToSign` must be exactly what the policy approved."""
    approved = sorted(p.input_index for p in plan.verdict.to_sign)
    if sorted(indices_to_sign) == approved:
        return
    refusal = Refusal(
        RefusalCode.INPUT_NOT_ALLOWED,
        f"The service asks for signatures on {_inputs(sorted(indices_to_sign))}, but the "
        f"review approves only {_inputs(approved)}.",
    )
    verdict = Verdict(plan.flow, plan.txid, plan.verdict.psbt_digest, (), (refusal,))
    raise PsbtRefusedError(plan.review, verdict, plan.label)


def _inputs(indices: Sequence[int]) -> str:
    """'no input', 'input 0', 'inputs 0, 1'."""
    if not indices:
        return "no input"
    listed = ", ".join(str(i) for i in indices)
    return f"input {listed}" if len(indices) == 1 else f"inputs {listed}"


async def execute_listings(
    ctx: ServiceContext,
    plan: ListingPlan,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> ListingsDone:
    """Sign every listing (executor, with progress and cancel), then submit them all."""
    signed = await sign_plans(ctx, [item.psbt for item in plan.items], progress, cancel)
    listings = tuple(item.listing for item in plan.items)
    return await submit_listings(ctx, listings, [s.base64 for s in signed])


async def submit_listings(
    ctx: ServiceContext, listings: Sequence[Listing], signed_base64: Sequence[str]
) -> ListingsDone:
    """`POST /list/secure`; once sent, a cancel waits for the answer (never half-submitted)."""
    submission = SecureListingSubmission(tuple(listings), tuple(signed_base64))
    sending = asyncio.ensure_future(ctx.clients.marketplace.list_secure(submission))
    try:
        result = await asyncio.shield(sending)
    except asyncio.CancelledError:
        await asyncio.wait([sending])  # let the request finish; the caller still sees the cancel
        if not sending.cancelled():
            sending.exception()  # retrieved: its outcome was the service's, the cancel is ours
        raise
    except SecureListingUnsupported as exc:
        raise TapTransferNotListableError(
            f"{TAP_TRANSFER_EXPLANATION} (The service says: {exc.message})", exc.error_code
        ) from exc
    except MarketplaceError as exc:
        raise ListingError(
            f"The service refused the signed listings: {exc.message}", exc.error_code
        ) from exc
    return ListingsDone(result.listings)


def listing_from_wire(data: Mapping[str, Any]) -> Listing:
    """A `Listing` back from its `to_wire()` JSON (an offline manifest keeps it that way)."""

    def text(name: str) -> str | None:
        value = data.get(name)
        return value if isinstance(value, str) else None

    price, ord_address, receive = (
        data.get("price"),
        text("sellerOrdAddress"),
        text("sellerReceiveAddress"),
    )
    if not isinstance(price, int) or ord_address is None or receive is None:
        raise ListingError("A recorded listing lacks its price or addresses.")
    return Listing(
        price=price,
        seller_ord_address=ord_address,
        seller_receive_address=receive,
        inscription_id=text("inscriptionId"),
        runes_output=text("runesOutput"),
        collection_slug=text("collectionSlug"),
        tap_internal_key=text("tapInternalKey"),
    )
