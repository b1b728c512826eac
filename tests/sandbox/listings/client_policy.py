"""The app's own review and signing policy (`app.core` + `app.wallet.psbt_view.guard`) run on
PSBTs the sandbox built, with ord's answers read from the sandbox: what a user of the app would
be shown and allowed to sign."""

from __future__ import annotations

from app.core.psbt_review_context import (
    InscriptionAt,
    OutpointContents,
    ReviewContext,
    RuneAmount,
)
from app.core.signing_policy import Intent, Verdict
from app.sandbox.chain.node import Node
from app.wallet.keys import WalletKeys
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_view import guard
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


def client_verdict(node: Node, keys: WalletKeys, psbt: FixedPSBT, intent: Intent) -> Verdict:
    context = ReviewContext.for_wallet(
        "regtest", keys.payment.address, keys.ordinals.address, contents=contents_of(node, psbt)
    )
    _, verdict = guard(psbt, context, intent)
    return verdict
