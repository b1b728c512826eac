"""What every use case needs: the clients, the keys, the network, the user's limits, time.

`ServiceContext` is built once per connected profile (the GUI builds it after unlock; tests
build it against a sandbox process) and passed to every use case:

    ctx = ServiceContext(clients, keys, fee_bounds=FeeBounds.of(50_000, 200))
    wallet = await get_bidding_wallet(ctx)

It holds no secret itself: signing goes through `ctx.signing_keys()` (a `WalletKeys`, whose
`RoleKey`s sign without exposing the key); a watch-only profile raises `WatchOnlyError` there.
CPU-heavy work goes through `ctx.run_cpu` (an executor) so a GUI loop never stalls.

`outpoint_contents` asks ord what each outpoint carries, for PSBT reviews: an output ord cannot
describe (unreachable, unknown, not indexed yet) raises `OrdUnavailableError` rather than
being taken as empty. `contents_if_indexed` is the same question for coin selection, where an
output ord has not indexed yet (real ord: every mempool output) is a coin to leave aside, not a
reason to stop: it answers None for it, and raises only when ord cannot be asked.

`maker_fee` is what the bid pools count per bid and `maker_fee_source` where that amount came
from (`app.services.maker_fee`: the profile's setting, the service's, or the default).

`acp_ledger` records every ANYONECANPAY signature before it is made (None: none is made);
`service_public_key` is the service's key where it publishes one (the sandbox does), so the
bidding wallet's 1-of-2 address can be recomputed rather than taken on trust.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TypeVar

from app.core.pools import MakerFee
from app.core.psbt_review_context import (
    InscriptionAt,
    KnownUtxo,
    OutpointContents,
    ReviewContext,
    RuneAmount,
)
from app.core.psbt_review_time import ChainTip
from app.core.rune_names import rune_letters
from app.core.signing_policy import FeeBounds
from app.net.clients import NetClients
from app.net.errors import NetError
from app.net.ord import OrdOutput
from app.services.errors import OrdUnavailableError, WatchOnlyError
from app.services.maker_fee import DEFAULT_MAKER_FEE as DEFAULT_MAKER_FEE
from app.services.maker_fee import AssumedMakerFee, MakerFeeSource
from app.services.pacing import AsyncioSleeper, BidPacer, Clock, Sleeper, SystemClock
from app.wallet.acp_ledger import AcpLedger
from app.wallet.addresses import Network, PublicRoleKey
from app.wallet.keys import RoleKey, WalletKeys, WatchOnlyKeys

T = TypeVar("T")

DEFAULT_FEE_BOUNDS = FeeBounds.of(max_fee=500_000, max_rate=1_000, min_rate=1)
CHAIN_OUTPUTS_KEPT = 1_000  # transactions: a few bulk reviews' worth


@dataclass(frozen=True)
class ReviewFacts:
    """What the chain and ord say, as a PSBT review weighs it: each input's contents (ord) and
    coin (the chain), the chain's tip and the fee estimate for the next block (None: unknown)."""

    contents: Mapping[str, OutpointContents] = field(default_factory=dict)
    chain_utxos: Mapping[str, KnownUtxo] = field(default_factory=dict)
    tip: ChainTip | None = None
    fastest_fee_rate: Fraction | None = None


class ServiceContext:
    """One connected profile: clients, keys (or watch-only), limits, clock and sleeper."""

    def __init__(
        self,
        clients: NetClients,
        keys: WalletKeys | WatchOnlyKeys,
        *,
        fee_bounds: FeeBounds = DEFAULT_FEE_BOUNDS,
        maker_fee: MakerFee = DEFAULT_MAKER_FEE,
        maker_fee_source: MakerFeeSource = MakerFeeSource.DEFAULT,
        clock: Clock | None = None,
        sleeper: Sleeper | None = None,
        executor: Executor | None = None,
        acp_ledger: AcpLedger | None = None,
        service_public_key: bytes | None = None,
    ) -> None:
        self.clients = clients
        self.keys = keys
        self.acp_ledger = acp_ledger
        self.service_public_key = service_public_key
        self.fee_bounds = fee_bounds
        self.maker_fee = maker_fee
        self.maker_fee_source = maker_fee_source
        self.clock: Clock = clock or SystemClock()
        self.sleeper: Sleeper = sleeper or AsyncioSleeper()
        self.executor = executor
        # One pacer per context: the per-address bid pace spans every bid use case.
        self.pacer = BidPacer(self.clock)
        self._bidding_wallet: str | None = None
        #: Each transaction's outputs by txid, as verified against its bytes (never stale).
        self.chain_outputs: dict[str, tuple[KnownUtxo, ...]] = {}
        #: Rune ids ord gave, by the rune's letters: a runestone's edicts name runes by id,
        #: ord's outputs by name, so a review follows edicts only with these.
        self.rune_ids: dict[str, str] = {}

    @property
    def assumed_maker_fee(self) -> AssumedMakerFee:
        """The maker fee the pools count, with where it came from (for the figures' wording)."""
        return AssumedMakerFee(self.maker_fee, self.maker_fee_source)

    # --- identity -----------------------------------------------------------------------

    @property
    def payment_public(self) -> PublicRoleKey:
        """Public facts of the payment key (address type, script, public key)."""
        payment = self.keys.payment
        return payment.public if isinstance(payment, RoleKey) else payment

    @property
    def ordinals_public(self) -> PublicRoleKey:
        ordinals = self.keys.ordinals
        return ordinals.public if isinstance(ordinals, RoleKey) else ordinals

    @property
    def network(self) -> Network:
        return self.payment_public.network

    @property
    def payment_address(self) -> str:
        return self.keys.payment.address

    @property
    def ordinals_address(self) -> str:
        return self.keys.ordinals.address

    @property
    def payment_public_key_hex(self) -> str:
        """The compressed (33-byte) payment public key, as the service wants it."""
        return self.payment_public.public_key.hex()

    @property
    def can_sign(self) -> bool:
        return isinstance(self.keys, WalletKeys)

    def signing_keys(self) -> WalletKeys:
        if not isinstance(self.keys, WalletKeys):
            raise WatchOnlyError(
                "This profile is watch-only: it has no private keys, so it cannot sign. "
                "Sign on the machine that holds the keys (offline signing), or import them."
            )
        return self.keys

    @property
    def bidding_wallet_address(self) -> str | None:
        """The bidding wallet the service gave us, once `get_bidding_wallet` ran."""
        return self._bidding_wallet

    def remember_bidding_wallet(self, address: str) -> None:
        self._bidding_wallet = address

    def remember_chain_outputs(self, txid: str, outputs: tuple[KnownUtxo, ...]) -> None:
        """Keep a verified transaction's outputs, the latest `CHAIN_OUTPUTS_KEPT` of them."""
        self.chain_outputs[txid] = outputs
        while len(self.chain_outputs) > CHAIN_OUTPUTS_KEPT:
            del self.chain_outputs[next(iter(self.chain_outputs))]

    # --- work off the event loop --------------------------------------------------------

    async def run_cpu(self, fn: Callable[..., T], *args: object) -> T:
        """Run `fn(*args)` in the executor (the default one when none was given)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, fn, *args)

    # --- what outputs carry -------------------------------------------------------------

    async def outpoint_contents(self, outpoints: Iterable[str]) -> dict[str, OutpointContents]:
        """ord's answer for each "txid:vout", with each inscription's offset in its output.

        Raises `OrdUnavailableError` when ord cannot say, for any of them (not indexed yet
        included: a review never takes an unindexed input as empty)."""
        wanted = list(dict.fromkeys(outpoints))
        outputs = await self._ord_outputs(wanted)
        for outpoint, output in zip(wanted, outputs, strict=True):
            if output.indexed is False:
                raise OrdUnavailableError(
                    f"ord has not indexed output {outpoint} yet, so what it carries is "
                    "unknown; try again once ord has caught up with the chain."
                )
        described = await self._described(wanted, outputs)
        await self._learn_rune_ids(r.rune for c in described.values() for r in c.runes)
        return described

    async def _learn_rune_ids(self, names: Iterable[str]) -> None:
        """The id of each rune not known yet, from ord's entry (one request per rune). One ord
        cannot give stays unknown: a review then refuses to follow edicts naming runes."""
        wanted = {rune_letters(n): n for n in names if rune_letters(n) not in self.rune_ids}
        if not wanted:
            return
        entries = await asyncio.gather(
            *(self.clients.ord.rune(n) for n in wanted.values()), return_exceptions=True
        )
        for letters, entry in zip(wanted, entries, strict=True):
            if isinstance(entry, BaseException):
                if isinstance(entry, NetError):
                    continue  # unknown: edicts naming it are not followed
                raise entry
            if entry is not None and entry.rune_id is not None and entry.letters == letters:
                self.rune_ids[letters] = entry.rune_id

    async def contents_if_indexed(
        self, outpoints: Iterable[str]
    ) -> dict[str, OutpointContents | None]:
        """ord's answer for each "txid:vout", None for an output ord has not indexed yet (its
        contents are unknown: such a coin is left aside, never taken as empty).

        Raises `OrdUnavailableError` when ord cannot be asked or does not know an output."""
        wanted = list(dict.fromkeys(outpoints))
        outputs = await self._ord_outputs(wanted)
        indexed = [
            (o, out) for o, out in zip(wanted, outputs, strict=True) if out.indexed is not False
        ]
        described = await self._described([o for o, _ in indexed], [out for _, out in indexed])
        return {o: described.get(o) for o in wanted}

    async def _ord_outputs(self, wanted: list[str]) -> list[OrdOutput]:
        if not wanted:
            return []
        try:
            outputs = await self.clients.ord.outputs(wanted)
            if any(o.indexed is None for o in outputs):
                outputs = await self._settle_indexing(wanted, outputs)
        except NetError as exc:
            raise OrdUnavailableError(
                "ord could not be asked what your coins carry, so nothing will be spent or "
                f"signed rather than risk an inscription or runes ({type(exc).__name__}: "
                f"{exc})."
            ) from exc
        return outputs

    async def _settle_indexing(
        self, wanted: list[str], outputs: list[OrdOutput]
    ) -> list[OrdOutput]:
        """An ord before 0.16 does not say `indexed`, and shows a mempool output it has not
        indexed as empty. Such an output counts as indexed only when its transaction is
        confirmed at or below the last block ord has indexed; otherwise it is not indexed
        (unknown), never empty."""
        ord_height = await self.clients.ord.block_height()
        unsure = {o for o, out in zip(wanted, outputs, strict=True) if out.indexed is None}
        txids = sorted({o.rpartition(":")[0] for o in unsure})
        statuses = await asyncio.gather(*(self.clients.esplora.tx_status(t) for t in txids))
        seen = {
            txid: status.confirmed
            and status.block_height is not None
            and status.block_height <= ord_height
            for txid, status in zip(txids, statuses, strict=True)
        }
        return [
            replace(out, indexed=seen[o.rpartition(":")[0]]) if o in unsure else out
            for o, out in zip(wanted, outputs, strict=True)
        ]

    async def _described(
        self, wanted: list[str], outputs: list[OrdOutput]
    ) -> dict[str, OutpointContents]:
        """Each output's inscriptions located (one batch lookup for all: a bulk listing asks
        about up to 100 items) and its runes."""
        held = [
            (o, i) for o, output in zip(wanted, outputs, strict=True) for i in output.inscriptions
        ]
        located = await self._locate(held)
        at = iter(located)
        return {
            o: OutpointContents(
                tuple(next(at) for _ in output.inscriptions),
                tuple(RuneAmount(r.name, r.amount) for r in output.runes),
            )
            for o, output in zip(wanted, outputs, strict=True)
        }

    async def _locate(self, held: list[tuple[str, str]]) -> list[InscriptionAt]:
        """Each (outpoint, inscription id) with the inscription's offset there; ord placing it
        anywhere else is refused (its answers disagree)."""
        ids = list(dict.fromkeys(i for _, i in held))
        try:
            locations = dict(zip(ids, await self.clients.ord.inscriptions(ids), strict=True))
        except NetError as exc:
            raise OrdUnavailableError(
                f"ord could not say where the inscriptions sit ({type(exc).__name__}: {exc}); "
                "refusing rather than guessing."
            ) from exc
        found = []
        for outpoint, inscription_id in held:
            location = locations[inscription_id]
            if location.output.lower() != outpoint.lower():
                raise OrdUnavailableError(
                    f"ord lists inscription {inscription_id} on {outpoint} but locates it at "
                    f"{location.satpoint}; its answers disagree, so nothing is signed."
                )
            found.append(InscriptionAt(inscription_id, location.offset))
        return found

    def review_context(
        self, facts: ReviewFacts | None = None, service: Iterable[tuple[str, str]] = ()
    ) -> ReviewContext:
        """Our addresses (payment, ordinals, the bidding wallet when known) and the facts."""
        facts = facts or ReviewFacts()
        return ReviewContext.for_wallet(
            self.network.value,
            self.payment_address,
            self.ordinals_address,
            self._bidding_wallet,
            service,
            facts.contents,
            facts.chain_utxos,
            facts.tip,
            facts.fastest_fee_rate,
            self.rune_ids,
        )

    def __repr__(self) -> str:
        return (
            f"ServiceContext({self.clients.config.profile.value}, {self.payment_address}, "
            f"{self.ordinals_address})"
        )


class CancelToken:
    """Cooperative cancel for long operations: checked between items, never inside one."""

    def __init__(self) -> None:
        self._cancelled = False

    def cancel(self) -> None:
        self._cancelled = True

    @property
    def cancelled(self) -> bool:
        return self._cancelled
