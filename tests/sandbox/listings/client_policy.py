"""The app's own review and signing policy (`app.core` + `app.wallet.signing_gate.guard`) run on
PSBTs the sandbox built, with ord's and the chain's answers read from the sandbox: what a user
of the app would be shown and allowed to sign."""

from __future__ import annotations

from fractions import Fraction

from app.core.psbt_review_context import (
    InscriptionAt,
    KnownUtxo,
    OutpointContents,
    ReviewContext,
    RuneAmount,
)
from app.core.psbt_review_time import ChainTip
from app.core.signing_policy import Intent, Verdict
from app.sandbox.chain.node import Node
from app.wallet.keys import WalletKeys
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.signing_gate import guard
from tests.sandbox.listings.helpers import inscription_info, output_info


def contents_of(node: Node, psbt: FixedPSBT) -> dict[str, OutpointContents]:
    contents = {}
    for inp in psbt.inputs:
        outpoint = f"{inp.txid.hex()}:{inp.vout}"
        out = output_info(node, outpoint)
        assert out is not None
        inscriptions = tuple(
            InscriptionAt(i, inscription_info(node, i)["offset"]) for i in out["inscriptions"]
        )
        runes = tuple(RuneAmount(name, r["amount"]) for name, r in out["runes"].items())
        contents[outpoint] = OutpointContents(inscriptions, runes)
    return contents


def chain_utxos_of(node: Node, psbt: FixedPSBT) -> dict[str, KnownUtxo]:
    """Each input's amount and script as the chain (the sandbox's Esplora) reports them."""
    utxos = {}
    for inp in psbt.inputs:
        txid = inp.txid.hex()
        tx = node.tx_json(txid)
        assert tx is not None, txid
        out = tx["vout"][inp.vout]
        utxos[f"{txid}:{inp.vout}"] = KnownUtxo(out["value"], bytes.fromhex(out["scriptpubkey"]))
    return utxos


def chain_tip(node: Node) -> ChainTip:
    block = node.block_json(node.tip_hash)
    assert block is not None
    return ChainTip(block["height"], block["mediantime"])


def client_verdict(node: Node, keys: WalletKeys, psbt: FixedPSBT, intent: Intent) -> Verdict:
    """The app's verdict with the facts its services gather: ord's contents, the chain's
    amounts and scripts of the inputs, the chain's tip and the next block's fee estimate."""
    context = ReviewContext.for_wallet(
        "regtest",
        keys.payment.address,
        keys.ordinals.address,
        contents=contents_of(node, psbt),
        chain_utxos=chain_utxos_of(node, psbt),
        tip=chain_tip(node),
        fastest_fee_rate=Fraction(str(node.fee_estimates()["1"])),
    )
    _, verdict = guard(psbt, context, intent)
    return verdict
