"""What an effect of our signatures is, for the guard's fuzzer: `Effect` (what the
signatures allow: sats sent and received per role of ours, the fee, where each item ends),
`Earliest` (when the transaction can confirm), the labels an item can end at, and the
transaction helpers the effect and the fuzz property share. tests.support.psbt_effects
computes effects, tests.support.psbt_eff_compare judges them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from embit.transaction import Transaction, TransactionOutput

from app.core.psbt_review_context import Role
from app.wallet.psbt_fixes import FixedPSBT

OURS = (Role.PAYMENT, Role.ORDINALS, Role.BIDDING_WALLET)
FEE = "the fee (the miner)"
OPEN = "open (the buyer orders the inputs)"
UNDECODED = "a runestone ord's own code cannot read"
# The service has two outputs in a listing: labelled apart, runes sent to the wrong one show.
ESCROW = "the service's escrow"
SERVICE_FEE = "the service's fee output"
NOT_WHOLE = "no one output (the item's sats split evenly, or mostly the fee)"
BURNED = "burned (no output but OP_RETURN)"


@dataclass(frozen=True)
class Earliest:
    """When the transaction can confirm at the earliest: the lowest block height and median
    time past (BIP-113) its nLockTime allows (0: no limit), and the longest BIP-68 relative
    lock of an input (counted from its coin's confirmation)."""

    height: int = 0
    median_time: int = 0
    relative_blocks: int = 0
    relative_seconds: int = 0

    def describe(self) -> str:
        parts = [f"block {self.height:,}"] if self.height else []
        parts += [f"median time {self.median_time:,}"] if self.median_time else []
        if self.relative_blocks or self.relative_seconds:
            parts.append(f"{self.relative_blocks} blocks/{self.relative_seconds} s after its coin")
        return "from " + ", ".join(parts) if parts else "no lock"


@dataclass(frozen=True)
class Effect:
    """What our signatures allow. `void` says why no transaction can use them (then nothing
    else matters). `items` maps each inscription or rune balance of ours, or landing on us,
    to where it ends: one of our roles' names, another party's, the fee, or OPEN."""

    void: str | None = None
    open: bool = False
    sent: Mapping[Role, int] = field(default_factory=dict)
    received: Mapping[Role, int] = field(default_factory=dict)
    fee: int | None = None
    items: Mapping[str, str] = field(default_factory=dict)
    earliest: Earliest = Earliest()
    signatures: tuple[tuple[str, int], ...] = ()  # (outpoint, sighash) of each of ours
    commitments: tuple[tuple[str, str], ...] = ()  # (outpoint, commitment) per ANYONECANPAY
    blank: tuple[str, ...] = ()  # signatures committing to no output (NONE, SINGLE)
    moved: frozenset[str] = frozenset()  # the items on coins the transaction spends
    vsize: int | None = None  # of the fixed transaction once signed (true_vsize)
    # Each rune balance on a coin signed ANYONECANPAY -> the output receiving most of that
    # coin's sats, inputs ordered as in the PSBT (its label; NOT_WHOLE): where a sale sends the
    # item (honestly the escrow, receiving it whole).
    with_item: Mapping[str, str] = field(default_factory=dict)

    @property
    def fee_rate(self) -> Fraction | None:
        if self.fee is None or not self.vsize:
            return None
        return Fraction(self.fee, self.vsize)

    def net(self, roles: Iterable[Role]) -> int:
        return sum(self.received.get(r, 0) - self.sent.get(r, 0) for r in roles)

    def describe(self) -> str:
        if self.void:
            return f"void: {self.void}"
        flows = ", ".join(
            f"{r.value} -{self.sent.get(r, 0):,}/+{self.received.get(r, 0):,}"
            for r in OURS
            if self.sent.get(r) or self.received.get(r)
        )
        fee = "open (the buyer's)" if self.fee is None else f"{self.fee:,}"
        items = [f"{k} -> {v}" for k, v in sorted(self.items.items()) if k in self.moved]
        moved = "".join(f"; {item}" for item in items)
        return f"[{flows}], fee {fee}{moved}; confirms {self.earliest.describe()}"


def outpoint_of(tx: Transaction, i: int) -> str:
    return f"{tx.vin[i].txid.hex()}:{tx.vin[i].vout}"


def claimed_utxos(psbt: FixedPSBT) -> list[TransactionOutput | None]:
    """What the PSBT says each input spends (witness UTXO first, as the signer uses it)."""
    claimed: list[TransactionOutput | None] = []
    for inp in psbt.inputs:
        utxo = inp.witness_utxo
        if utxo is None and inp.non_witness_utxo is not None:
            vout = inp.non_witness_utxo.vout
            utxo = vout[inp.vout] if 0 <= inp.vout < len(vout) else None
        claimed.append(utxo)
    return claimed


def commitment(tx: Transaction) -> str:
    """SHA-256 of what an ALL|ANYONECANPAY signature fixes besides its own input: version,
    lock time and every output (an independent serialization, not app.core's)."""
    data = tx.version.to_bytes(4, "little") + tx.locktime.to_bytes(4, "little")
    data += b"".join(out.serialize() for out in tx.vout)
    return hashlib.sha256(data).hexdigest()
