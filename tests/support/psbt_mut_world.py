"""The world of the guard's fuzzer: what the chain and ord really hold.

The world is the truth the effect of a signature is computed from (tests.support.psbt_effects):
every coin the honest scenario spends, a few spare coins (ours and strangers', some carrying
inscriptions or runes, one unknown to the chain and ord), with their true amount, script and
contents. A mutation may add any of them as an input; the facts served for them are true
(tests.support.psbt_mut_case's flow_setup builds a flow's world and serves those facts).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from embit import ec
from embit.script import Script
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.core.psbt_review_context import NOTHING, InscriptionAt, OutpointContents, RuneAmount
from app.wallet.psbt_fixes import FixedInput, new_transaction
from tests.support.psbt_scenarios import OTHER_INSCRIPTION, RBF_SEQUENCE, Parties, key, p2wpkh_spk

ATTACKER_SPK = p2wpkh_spk(key(666))
STRAY_INSCRIPTION = "5a" * 32 + "i7"  # sits on a coin of our payment address
FOREIGN_INSCRIPTION = "f0" * 32 + "i3"  # a stranger's
RUNE = "UNCOMMON•GOODS"
RuneIdT = tuple[int, int]  # a rune's id (block, tx)
# What ord's index really says about the runes of this world: their ids, what a mint gives.
TRUE_RUNE_IDS: dict[str, RuneIdT] = {RUNE: (840_000, 3), "OTHER•RUNE": (840_001, 7)}
MINT_AMOUNTS: dict[RuneIdT, int] = {(840_000, 3): 100}  # open terms: each mint gives 100


def true_rune_ids() -> dict[str, str]:
    """TRUE_RUNE_IDS as ord serves them ("840000:3")."""
    return {name: f"{block}:{tx}" for name, (block, tx) in TRUE_RUNE_IDS.items()}


@dataclass(frozen=True)
class TrueCoin:
    """A coin as it really is: its previous transaction (so its outpoint), amount, script and
    what it carries; `fill` adds the PSBT fields its owner's wallet would (taproot keys...)."""

    prev_tx: Transaction
    vout: int
    contents: OutpointContents
    fill: Callable[[FixedInput], None] = field(default=lambda inp: None, compare=False)

    @property
    def txout(self) -> TransactionOutput:
        out: TransactionOutput = self.prev_tx.vout[self.vout]
        return out

    @property
    def value(self) -> int:
        return int(self.txout.value)

    @property
    def script_pubkey(self) -> bytes:
        return bytes(self.txout.script_pubkey.data)

    @property
    def outpoint(self) -> str:
        return f"{self.prev_tx.txid().hex()}:{self.vout}"

    def psbt_input(self, sequence: int = RBF_SEQUENCE) -> FixedInput:
        inp = FixedInput(vin=TransactionInput(self.prev_tx.txid(), self.vout, sequence=sequence))
        inp.witness_utxo = self.txout
        self.fill(inp)
        return inp


def true_coin(
    tag: str,
    spk: bytes,
    value: int,
    contents: OutpointContents = NOTHING,
    fill: Callable[[FixedInput], None] | None = None,
) -> TrueCoin:
    """A coin of a deterministic made-up previous transaction (same tag, same outpoint)."""
    src = TransactionInput(hashlib.sha256(b"guard fuzz coin " + tag.encode()).digest(), 0)
    prev = new_transaction(2, 0, [src], [TransactionOutput(value, Script(spk))])
    return TrueCoin(prev, 0, contents, fill or (lambda inp: None))


World = dict[str, TrueCoin]  # outpoint -> the truth about it


def taproot_key_fill(k: ec.PrivateKey) -> Callable[[FixedInput], None]:
    def fill(inp: FixedInput) -> None:
        inp.taproot_internal_key = ec.PublicKey.from_xonly(k.xonly())

    return fill


def spare_coins(p: Parties) -> dict[str, TrueCoin]:
    """Coins the honest PSBTs do not spend, which a hostile service may add as inputs."""
    taproot_payment = p.payment_spk[:1] == b"\x51"
    pay_fill = taproot_key_fill(p.payment) if taproot_payment else None
    ord_fill = taproot_key_fill(p.ordinals) if p.ordinals_spk[:1] == b"\x51" else None
    return {
        "spare payment coin": true_coin("pay", p.payment_spk, 40_000, fill=pay_fill),
        "inscribed payment coin": true_coin(
            "pay-inscribed",
            p.payment_spk,
            20_000,
            OutpointContents((InscriptionAt(STRAY_INSCRIPTION, 5_000),)),
            pay_fill,
        ),
        "spare ordinals coin": true_coin(
            "ord",
            p.ordinals_spk,
            546,
            OutpointContents((InscriptionAt(OTHER_INSCRIPTION, 0),)),
            ord_fill,
        ),
        "spare runes coin": true_coin(
            "runes",
            p.ordinals_spk,
            10_000,
            OutpointContents(runes=(RuneAmount(RUNE, 700),)),
            ord_fill,
        ),
        "spare bidding coin": true_coin("bid", p.bidding_spk, 30_000, fill=p.bidding_fill),
        "stranger coin": true_coin("stranger", p.stranger_spk, 50_000),
        "stranger inscribed coin": true_coin(
            "stranger-inscribed",
            p.stranger_spk,
            546,
            OutpointContents((InscriptionAt(FOREIGN_INSCRIPTION, 0),)),
        ),
        # Neither the chain nor ord knows this one (its facts are never served).
        "unknown coin": true_coin("unknown", p.stranger_spk, 25_000),
    }
