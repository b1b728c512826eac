"""Fund the bidding wallet from the payment address, built and checked here.

Two steps, so a GUI can show the review between them:

    plan = await prepare_funding(ctx, 200_000)        # select, build, review, verdict
    ... show plan.review / plan.verdict ...
    result = await execute_funding(ctx, plan)         # sign what the verdict allows, broadcast

Coin selection only sees coins ord has indexed and says carry nothing: an inscription or runes
on a coin keeps it out (`plan.skipped`); a coin ord has not indexed yet (real ord: every mempool
output, such as the change of the previous funding) is left aside and counted
(`plan.waiting`), and matters only when the others cannot pay (`InsufficientFundsError` says
so). ord unreachable means `OrdUnavailableError`, never a guess. Coin control: `coins=` spends
exactly the coins the user chose (`services.coin_control.payment_coins` lists them), refusing
any that carry something or wait for the indexer (`CoinChoiceError`). The fee rate is the
user's, or Esplora's estimate for `target_blocks`. Change goes back to the payment address.
The PSBT we built ourselves still goes through the funding policy: a bug here must not be
able to pay anyone else either.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from embit.script import Script
from embit.transaction import TransactionInput, TransactionOutput

from app.core.coin_select import (
    Coin,
    CoinSelectionError,
    NotEnoughFunds,
    Selection,
    select_coins,
    spend_coins,
)
from app.core.policy_verdict import FeeConsent
from app.core.psbt_review import Review
from app.core.psbt_review_context import KnownUtxo, OutpointContents, ReviewContext
from app.core.signing_policy import FundingIntent, Verdict
from app.net.errors import BroadcastRejected, NetError, NoFeeEstimates
from app.net.esplora import Utxo
from app.services.bidding_wallet import bidding_wallet_address
from app.services.coin_control import CoinUse, preferred_order, refusal, use_of
from app.services.context import ReviewFacts, ServiceContext
from app.services.errors import (
    BroadcastError,
    CoinChoiceError,
    InsufficientFundsError,
    PolicyRefusedError,
    ServiceError,
)
from app.services.psbt_flow import market_facts
from app.wallet.addresses import AddressType, PublicRoleKey, decode_address
from app.wallet.finalize import FinalizeError, extract_transaction, finalize_psbt
from app.wallet.keys import RoleKey
from app.wallet.psbt_fixes import FixedPSBT, new_transaction
from app.wallet.psbt_io import parse_psbt
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
    waiting: tuple[Coin, ...]  # coins ord has not indexed yet (left aside, not spent)
    chosen: bool  # the user chose the coins (coin control): `selection.coins` are exactly them
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

    @property
    def waiting_sats(self) -> int:
        return sum(c.value for c in self.waiting)


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
    coins: Iterable[str] | None = None,
) -> FundingPlan:
    """Select cardinal coins (or spend exactly `coins`, outpoints the user chose), build the
    PSBT, review it and get the funding verdict.

    Raises `InsufficientFundsError` when the coins cannot pay, `CoinChoiceError` when a chosen
    coin may not fund, and `PolicyRefusedError` (nothing signed) when the policy refuses, with
    its reasons."""
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
    scripts = (payment_script, wallet_script)
    if coins is None:
        checked = await _select_checked(ctx, utxos, amount, rate, *scripts)
    else:
        checked = await _select_chosen(ctx, utxos, coins, amount, rate, *scripts)
    selection, contents = checked.selection, checked.contents
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
    return FundingPlan(
        amount,
        rate,
        wallet,
        selection,
        checked.skipped,
        checked.waiting,
        coins is not None,
        review,
        verdict,
        intent,
        psbt,
    )


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


@dataclass(frozen=True)
class _Checked:
    """Coins selected, with ord's answers about them, and the coins left aside."""

    selection: Selection
    contents: dict[str, OutpointContents]
    skipped: tuple[str, ...] = ()
    waiting: tuple[Coin, ...] = ()


async def _select_checked(
    ctx: ServiceContext,
    utxos: list[Utxo],
    amount: int,
    rate: Fraction,
    payment_script: bytes,
    wallet_script: bytes,
) -> _Checked:
    """Ask ord about the coins in the order selection prefers them, a batch at a time, until
    the cardinal ones among them pay: a wallet with many coins needs few ord answers. Coins
    ord has not indexed yet are left aside; they are counted in the shortfall when the
    others cannot pay."""
    ordered = preferred_order(utxos)
    answers: dict[str, OutpointContents | None] = {}
    checked, batch = 0, ORD_BATCH
    while True:
        answers |= await ctx.contents_if_indexed(
            u.outpoint for u in ordered[checked : checked + batch]
        )
        checked, batch = min(len(ordered), checked + batch), batch * 2
        seen = ordered[:checked]
        uses = {u.outpoint: use_of(answers[u.outpoint]) for u in seen}
        skipped = tuple(u.outpoint for u in seen if uses[u.outpoint] is CoinUse.CARRIES)
        waiting = tuple(_coin(u) for u in seen if uses[u.outpoint] is CoinUse.WAITING)
        spendable = [_coin(u) for u in seen if uses[u.outpoint] is CoinUse.SPENDABLE]
        try:
            selection = select_coins(
                spendable, amount, rate, payment_script, [wallet_script], payment_script
            )
        except NotEnoughFunds as exc:
            if checked < len(ordered):
                continue
            raise InsufficientFundsError(
                exc.needed,
                exc.available,
                len(skipped),
                waiting=len(waiting),
                waiting_sats=sum(c.value for c in waiting),
            ) from None
        except CoinSelectionError as exc:
            raise ServiceError(f"No funding transaction can be built: {exc}.") from None
        contents = {c.outpoint: answers[c.outpoint] for c in selection.coins}
        return _Checked(selection, _known(contents), skipped, waiting)


async def _select_chosen(
    ctx: ServiceContext,
    utxos: list[Utxo],
    chosen: Iterable[str],
    amount: int,
    rate: Fraction,
    payment_script: bytes,
    wallet_script: bytes,
) -> _Checked:
    """Exactly the coins the user chose, once each is an unspent coin of the payment address
    that ord has indexed and says carries nothing."""
    wanted = list(dict.fromkeys(o.strip().lower() for o in chosen))
    if not wanted:
        raise ServiceError("Choose at least one coin to fund with, or let the wallet choose.")
    by_outpoint = {u.outpoint.lower(): u for u in utxos}
    known = [o for o in wanted if o in by_outpoint]
    answers = await ctx.contents_if_indexed(known)
    refused: dict[str, str] = {}
    for outpoint in wanted:
        if outpoint not in by_outpoint:
            refused[outpoint] = (
                "is not an unspent coin of the payment address (spent already, or not yours)"
            )
        elif (why := refusal(answers[outpoint])) is not None:
            refused[outpoint] = why
    if refused:
        raise CoinChoiceError(refused)
    coins = [_coin(by_outpoint[o]) for o in wanted]
    try:
        selection = spend_coins(
            coins, amount, rate, payment_script, [wallet_script], payment_script
        )
    except NotEnoughFunds as exc:
        raise InsufficientFundsError(exc.needed, exc.available, 0, chosen=True) from None
    except CoinSelectionError as exc:
        raise ServiceError(f"No funding transaction can be built: {exc}.") from None
    return _Checked(selection, _known({by_outpoint[o].outpoint: answers[o] for o in wanted}))


def _coin(utxo: Utxo) -> Coin:
    return Coin(utxo.outpoint, utxo.value, utxo.confirmed)


def _known(answers: dict[str, OutpointContents | None]) -> dict[str, OutpointContents]:
    """The answers of coins about to be spent: every one indexed (selection saw to it)."""
    known = {o: c for o, c in answers.items() if c is not None}
    if len(known) != len(answers):  # pragma: no cover - selection only takes indexed coins
        raise ServiceError("A coin ord has not indexed was about to be spent; nothing was built.")
    return known


async def execute_funding(ctx: ServiceContext, plan: FundingPlan) -> FundingResult:
    """Sign exactly what the verdict approved, finalize, broadcast through Esplora."""
    if not plan.verdict.approved:
        raise PolicyRefusedError(plan.verdict, plan.review)  # a fee the user did not accept
    keys = ctx.signing_keys()
    raw_hex = await ctx.run_cpu(_sign_and_extract, plan.psbt, plan.verdict, keys.payment)
    txid = await _broadcast(ctx, raw_hex)
    return FundingResult(txid, plan.amount, plan.fee, plan.change)


async def submit_signed_funding(ctx: ServiceContext, amount: int, signed: str) -> FundingResult:
    """Finalize and broadcast a funding PSBT signed elsewhere (base64, already checked against
    its review by `offline.import_signed`: the approved signatures only)."""
    psbt = parse_psbt(signed)
    raw_hex, fee, change = await ctx.run_cpu(
        _finalize_and_extract, psbt, ctx.payment_public.script_pubkey
    )
    return FundingResult(await _broadcast(ctx, raw_hex), amount, fee, change)


async def _broadcast(ctx: ServiceContext, raw_hex: str) -> str:
    try:
        return await ctx.clients.esplora.broadcast(raw_hex)
    except BroadcastRejected as exc:
        raise BroadcastError(f"The network refused the funding transaction: {exc.reason}") from exc
    except NetError as exc:
        raise BroadcastError(
            f"The funding transaction could not be sent ({type(exc).__name__}); check the "
            "payment address's history before trying again, it may have gone through."
        ) from exc


def _finalize_and_extract(psbt: FixedPSBT, change_script: bytes) -> tuple[str, int, int]:
    """(raw transaction hex, fee, change back to `change_script`) of a signed PSBT."""
    spent = sum(int(inp.witness_utxo.value) for inp in psbt.inputs if inp.witness_utxo)
    paid = sum(int(out.value) for out in psbt.outputs)
    change = sum(
        int(out.value) for out in psbt.outputs if bytes(out.script_pubkey.data) == change_script
    )
    try:
        finalize_psbt(psbt)
    except FinalizeError as exc:
        raise ServiceError(f"The signed funding transaction cannot be completed: {exc}.") from None
    return str(extract_transaction(psbt).serialize().hex()), spent - paid, change


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
