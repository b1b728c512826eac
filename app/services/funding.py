"""Fund the bidding wallet from the payment address, built and checked here.

Two steps, so a GUI can show the review between them:

    plan = await prepare_funding(ctx, 200_000)        # select, build, review, verdict
    ... show plan.review / plan.verdict ...
    result = await execute_funding(ctx, plan)         # sign what the verdict allows, broadcast

Coin selection only sees coins ord says carry nothing (an inscription or runes on a coin keeps
it out; ord unreachable means `OrdUnavailableError`, never a guess). The fee rate is the
user's, or Esplora's estimate for `target_blocks`. Change goes back to the payment address.
The PSBT we built ourselves still goes through the funding policy: a bug here must not be
able to pay anyone else either.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from embit.script import Script
from embit.transaction import TransactionInput, TransactionOutput

from app.core.coin_select import Coin, CoinSelectionError, NotEnoughFunds, Selection, select_coins
from app.core.policy_verdict import FeeConsent
from app.core.psbt_review import Review
from app.core.psbt_review_context import KnownUtxo, OutpointContents, ReviewContext
from app.core.signing_policy import FundingIntent, Verdict
from app.net.errors import BroadcastRejected, NetError, NoFeeEstimates
from app.net.esplora import Utxo
from app.services.bidding_wallet import bidding_wallet_address
from app.services.context import ReviewFacts, ServiceContext
from app.services.errors import (
    BroadcastError,
    InsufficientFundsError,
    PolicyRefusedError,
    ServiceError,
)
from app.services.psbt_flow import market_facts
from app.wallet.addresses import AddressType, PublicRoleKey, decode_address
from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.keys import RoleKey
from app.wallet.psbt_fixes import FixedPSBT, new_transaction
from app.wallet.psbt_signer import sign_psbt
from app.wallet.signing_gate import approved_sign_requests, guard

# Opt-in RBF so a stuck funding transaction can be bumped from another wallet.
RBF_SEQUENCE = 0xFFFFFFFD
DEFAULT_TARGET_BLOCKS = 3
# Coins asked about per ord round trip at first (doubling after each round that falls short).
ORD_BATCH = 25


@dataclass(frozen=True)
class FundingPlan:
    """A reviewed, unsigned funding transaction: what the dialog shows before signing. Its
    verdict is approved, or refused only for its fee (`needs_fee_consent`): then
    `accept_funding_fee` approves it once the user accepts that fee."""

    amount: int
    fee_rate: Fraction
    bidding_wallet: str
    selection: Selection
    skipped: tuple[str, ...]  # coins ord said carry inscriptions or runes (never spent)
    review: Review
    verdict: Verdict
    intent: FundingIntent
    psbt: FixedPSBT = field(repr=False)

    @property
    def needs_fee_consent(self) -> bool:
        return self.verdict.needs_fee_consent

    @property
    def label(self) -> str:
        return f"Fund the bidding wallet with {self.amount:,} sats"

    @property
    def fee(self) -> int:
        return self.selection.fee

    @property
    def change(self) -> int:
        return self.selection.change


@dataclass(frozen=True)
class FundingResult:
    txid: str
    amount: int
    fee: int
    change: int


async def choose_fee_rate(
    ctx: ServiceContext, target_blocks: int = DEFAULT_TARGET_BLOCKS
) -> Fraction:
    """Esplora's estimate (sat/vB) for confirmation within `target_blocks`."""
    try:
        estimates = await ctx.clients.esplora.fee_estimates()
    except NoFeeEstimates:
        raise ServiceError(
            "The fee estimator has no estimate right now: choose a fee rate (sat/vB) yourself."
        ) from None
    return Fraction(str(estimates.for_target(target_blocks)))


async def fee_estimates(ctx: ServiceContext) -> dict[int, float]:
    """The network's fee rates (sat/vB) by confirmation target (blocks), for a fee picker;
    `NetError` (`NoFeeEstimates` among them) when the estimator has none or cannot be read."""
    estimates = await ctx.clients.esplora.fee_estimates()
    return dict(estimates.by_target)


async def prepare_funding(
    ctx: ServiceContext,
    amount: int,
    *,
    fee_rate: float | Fraction | None = None,
    target_blocks: int = DEFAULT_TARGET_BLOCKS,
) -> FundingPlan:
    """Select cardinal coins, build the PSBT, review it and get the funding verdict.

    Raises `PolicyRefusedError` (nothing signed) when the policy refuses, with its reasons."""
    if amount <= 0:
        raise ServiceError("The amount to fund must be a positive number of sats.")
    payment = ctx.payment_public
    payment_type = payment.address_type
    if payment_type is AddressType.P2PKH:
        raise ServiceError(
            "Funding from a legacy (P2PKH) payment address is not supported: pay the bidding "
            "wallet from another wallet with the payment link instead."
        )
    wallet = await bidding_wallet_address(ctx)
    wallet_script = decode_address(wallet, ctx.network).script_pubkey
    rate = (
        Fraction(str(fee_rate))
        if fee_rate is not None
        else await choose_fee_rate(ctx, target_blocks)
    )
    if rate <= 0:
        raise ServiceError("The fee rate must be positive.")
    utxos = await ctx.clients.esplora.address_utxos(ctx.payment_address)
    payment_script = payment.script_pubkey
    selection, contents, skipped = await _select_checked(
        ctx, utxos, amount, rate, payment_script, wallet_script
    )
    psbt = _build_psbt(selection, wallet_script, payment)
    tip, fastest = await market_facts(ctx)
    facts = ReviewFacts(
        contents={c.outpoint: contents[c.outpoint] for c in selection.coins},
        chain_utxos={c.outpoint: KnownUtxo(c.value, payment_script) for c in selection.coins},
        tip=tip,
        fastest_fee_rate=fastest,
    )
    context = ctx.review_context(facts)
    intent = FundingIntent(amount, ctx.fee_bounds)
    review, verdict = guard(psbt, context, intent)
    if not verdict.approved and not verdict.needs_fee_consent:
        raise PolicyRefusedError(verdict, review)
    return FundingPlan(amount, rate, wallet, selection, skipped, review, verdict, intent, psbt)


def accept_funding_fee(plan: FundingPlan) -> FundingPlan:
    """The same funding PSBT decided again with the user's consent to its fee (bound to this
    PSBT and this fee). Raises `PolicyRefusedError` if anything else refuses it."""
    if plan.verdict.approved:
        return plan
    if plan.review.fee is None or not plan.verdict.needs_fee_consent:
        raise PolicyRefusedError(plan.verdict, plan.review)
    intent = replace(plan.intent, fee_consent=FeeConsent(plan.review.view.digest, plan.review.fee))
    context: ReviewContext = plan.review.context
    review, verdict = guard(plan.psbt, context, intent)
    if not verdict.approved:
        raise PolicyRefusedError(verdict, review)
    return replace(plan, review=review, verdict=verdict, intent=intent)


async def _select_checked(
    ctx: ServiceContext,
    utxos: list[Utxo],
    amount: int,
    rate: Fraction,
    payment_script: bytes,
    wallet_script: bytes,
) -> tuple[Selection, dict[str, OutpointContents], tuple[str, ...]]:
    """Ask ord about the coins in the order selection prefers them, a batch at a time, until
    the cardinal ones among them pay: a wallet with many coins needs few ord answers."""
    ordered = sorted(utxos, key=lambda u: (not u.confirmed, -u.value, u.outpoint))
    contents: dict[str, OutpointContents] = {}
    checked, batch = 0, ORD_BATCH
    while True:
        contents |= await ctx.outpoint_contents(
            u.outpoint for u in ordered[checked : checked + batch]
        )
        checked, batch = min(len(ordered), checked + batch), batch * 2
        seen = ordered[:checked]
        skipped = tuple(u.outpoint for u in seen if not contents[u.outpoint].is_cardinal)
        coins = [
            Coin(u.outpoint, u.value, u.confirmed) for u in seen if contents[u.outpoint].is_cardinal
        ]
        try:
            selection = select_coins(
                coins, amount, rate, payment_script, [wallet_script], payment_script
            )
        except NotEnoughFunds as exc:
            if checked < len(ordered):
                continue
            raise InsufficientFundsError(exc.needed, exc.available, len(skipped)) from None
        except CoinSelectionError as exc:
            raise ServiceError(f"No funding transaction can be built: {exc}.") from None
        return selection, contents, skipped


async def execute_funding(ctx: ServiceContext, plan: FundingPlan) -> FundingResult:
    """Sign exactly what the verdict approved, finalize, broadcast through Esplora."""
    if not plan.verdict.approved:
        raise PolicyRefusedError(plan.verdict, plan.review)  # a fee the user did not accept
    keys = ctx.signing_keys()
    raw_hex = await ctx.run_cpu(_sign_and_extract, plan.psbt, plan.verdict, keys.payment)
    try:
        txid = await ctx.clients.esplora.broadcast(raw_hex)
    except BroadcastRejected as exc:
        raise BroadcastError(f"The network refused the funding transaction: {exc.reason}") from exc
    except NetError as exc:
        raise BroadcastError(
            f"The funding transaction could not be sent ({type(exc).__name__}); check the "
            "payment address's history before trying again, it may have gone through."
        ) from exc
    return FundingResult(txid, plan.amount, plan.fee, plan.change)


async def fund_bidding_wallet(
    ctx: ServiceContext,
    amount: int,
    *,
    fee_rate: float | Fraction | None = None,
    target_blocks: int = DEFAULT_TARGET_BLOCKS,
) -> FundingResult:
    """Both steps at once, for callers that need no review dialog in between."""
    plan = await prepare_funding(ctx, amount, fee_rate=fee_rate, target_blocks=target_blocks)
    return await execute_funding(ctx, plan)


def _sign_and_extract(psbt: FixedPSBT, verdict: Verdict, key: RoleKey) -> str:
    # Sign a copy: the plan keeps the unsigned PSBT the user reviewed.
    signed = FixedPSBT.parse(psbt.serialize())
    requests = approved_sign_requests(signed, verdict)
    sign_psbt(signed, key.private_key, requests)
    finalize_psbt(signed)
    return str(extract_transaction(signed).serialize().hex())


def _build_psbt(selection: Selection, wallet_script: bytes, payment: PublicRoleKey) -> FixedPSBT:
    payment_script = payment.script_pubkey
    vin = [
        TransactionInput(
            bytes.fromhex(c.outpoint[:64]), int(c.outpoint[65:]), sequence=RBF_SEQUENCE
        )
        for c in selection.coins
    ]
    vout = [TransactionOutput(selection.amount, Script(wallet_script))]
    if selection.change:
        vout.append(TransactionOutput(selection.change, Script(payment_script)))
    psbt = FixedPSBT(new_transaction(2, 0, vin, vout))
    for inp, coin in zip(psbt.inputs, selection.coins, strict=True):
        inp.witness_utxo = TransactionOutput(coin.value, Script(payment_script))
        if payment.redeem_script is not None:  # P2SH-P2WPKH: the signer needs it
            inp.redeem_script = Script(payment.redeem_script)
    return psbt
