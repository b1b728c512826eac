"""The catalogue of named PSBT tampers a `tamper` fault serves (`/sandbox/faults`).

Each tamper is something a hostile marketplace could do to the PSBT it asks the user to sign,
and each is one the app's PSBT guard refuses (`raise-fee` asks the user's consent to the fee
instead, as any fee above the user's bounds does). The fault middleware applies the request,
then hands each PSBT of the intent's answer to `tamper_answer`, which rewrites it (base64 and
hex alike) and, when the tamper adds an input to sign, the answer's `indicesToSign`.

Tampers find what they change from the request (the address the user is paid at, the address
that pays) and the answer (`indicesToSign`; a withdrawal signs every input), never by a fixed
output index. A tamper that cannot apply (no change output, no other coin of the user)
raises `TamperNotApplicable`; the fault then answers 500 saying so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from embit.script import Script
from embit.transaction import TransactionInput, TransactionOutput

from app.sandbox.chain.node import Node
from app.wallet.addresses import decode_address
from app.wallet.psbt_fixes import FixedInput, FixedPSBT
from app.wallet.psbt_io import parse_psbt, psbt_to_base64, psbt_to_hex

WITHDRAW = "/v1/intent/withdraw"
BID = "/v1/intent/bid"
SELL = "/v1/intent/secure-sell"
BULK_SELL = "/v1/intent/secure-bulk-sell"
INTENT_PATHS = frozenset({WITHDRAW, BID, SELL, BULK_SELL})
TAMPER_ADDRESS_LABEL = "fault-tamper"  # the sandbox-held key a redirected output pays
SIGHASH_NONE_ANYONECANPAY = 0x82


class TamperNotApplicable(Exception):
    """The tamper has nothing to change in this PSBT (the message says why)."""


@dataclass
class TamperSpot:
    """Where a PSBT was served: the intent, its request body, which of the answer's PSBTs
    (a bulk listing's index), and the inputs the user is asked to sign (a tamper may add)."""

    node: Node
    path: str
    request: Mapping[str, Any]
    index: int
    to_sign: list[int]

    def listing(self) -> Mapping[str, Any]:
        if self.path == BULK_SELL:
            listing: Mapping[str, Any] = self.request["listings"][self.index]
            return listing
        return self.request

    def paid_address(self) -> str:
        """The address at which the user receives what the PSBT gives them."""
        if self.path == WITHDRAW:
            return str(self.request["userAddress"])
        if self.path == BID:
            return str(self.request["bidderTokenReceiveAddress"])
        return str(self.listing()["sellerReceiveAddress"])


Mutation = Callable[[FixedPSBT, TamperSpot], str]


@dataclass(frozen=True)
class Tamper:
    name: str
    description: str  # one line, for GET /sandbox/faults/tampers
    paths: frozenset[str]  # the intents it applies to
    refusal: str  # what the app's guard answers (the code of docs/guard.md)
    mutate: Mutation  # changes the PSBT in place; returns what it changed


def _output_paying(psbt: FixedPSBT, address: str) -> int:
    spk = decode_address(address).script_pubkey
    for i, out in enumerate(psbt.outputs):
        if out.script_pubkey.data == spk:
            return i
    raise TamperNotApplicable(f"no output pays {address}")


def redirect_payment(psbt: FixedPSBT, spot: TamperSpot) -> str:
    i = _output_paying(psbt, spot.paid_address())
    thief = spot.node.sandbox_address(TAMPER_ADDRESS_LABEL, "p2wpkh")
    psbt.outputs[i].script_pubkey = Script(decode_address(thief).script_pubkey)
    return f"output {i} now pays {thief}"


def cut_payment(psbt: FixedPSBT, spot: TamperSpot) -> str:
    i = _output_paying(psbt, spot.paid_address())
    cut = psbt.outputs[i].value // 2
    psbt.outputs[i].value -= cut
    return f"output {i} cut by {cut} sats (left to the fee)"


def sighash_none(psbt: FixedPSBT, spot: TamperSpot) -> str:
    for i in spot.to_sign:
        psbt.inputs[i].sighash_type = SIGHASH_NONE_ANYONECANPAY
    return f"inputs {_listed(spot.to_sign)} ask for SIGHASH_NONE|ANYONECANPAY"


def drop_utxo(psbt: FixedPSBT, spot: TamperSpot) -> str:
    i = spot.to_sign[0]
    psbt.inputs[i].witness_utxo = None
    psbt.inputs[i].non_witness_utxo = None
    return f"input {i} without its previous output"


def extra_input(psbt: FixedPSBT, spot: TamperSpot) -> str:
    listing = spot.listing()
    owner = str(listing.get("sellerPaymentAddress") or listing["sellerReceiveAddress"])
    spent = {(inp.txid.hex(), inp.vout) for inp in psbt.inputs}
    coins = [u for u in spot.node.address_utxos(owner) if (u["txid"], u["vout"]) not in spent]
    if not coins:
        raise TamperNotApplicable(f"{owner} has no other coin to add")
    coin = max(coins, key=lambda u: (u["status"]["confirmed"], u["value"]))
    template = psbt.inputs[spot.to_sign[0]]
    added = FixedInput(vin=TransactionInput(bytes.fromhex(coin["txid"]), coin["vout"]))
    added.sequence = template.sequence
    added.witness_utxo = TransactionOutput(
        coin["value"], Script(decode_address(owner).script_pubkey)
    )
    added.sighash_type = template.sighash_type
    psbt.inputs.append(added)
    index = len(psbt.inputs) - 1
    spot.to_sign.append(index)
    return f"input {index} spends {coin['txid']}:{coin['vout']} of {owner}"


def raise_fee(psbt: FixedPSBT, spot: TamperSpot) -> str:
    if spot.path == WITHDRAW:  # the change returns to the bidding wallet that pays
        utxo = psbt.inputs[0].witness_utxo
        change_spk = None if utxo is None else utxo.script_pubkey.data
    else:
        change_spk = decode_address(str(spot.request["bidderAddress"])).script_pubkey
    for i, out in enumerate(psbt.outputs):
        if out.script_pubkey.data == change_spk:
            cut = out.value // 2
            out.value -= cut
            return f"change output {i} cut by {cut} sats, added to the fee"
    raise TamperNotApplicable("the PSBT has no change output to take the fee from")


def _listed(indices: list[int]) -> str:
    return ", ".join(str(i) for i in indices)


_LISTINGS = frozenset({SELL, BULK_SELL})
TAMPERS: tuple[Tamper, ...] = (
    Tamper(
        "redirect-payment",
        "what the user receives (a withdrawal's amount, a listing's price, an inscription "
        "bid's inscription) goes to a sandbox-held address instead",
        INTENT_PATHS,
        "OUTPUT_NOT_ALLOWED, LISTING_UNDERPAID or INSCRIPTION_NOT_RECEIVED",
        redirect_payment,
    ),
    Tamper(
        "cut-payment",
        "the output paying the user (a withdrawal's amount, a listing's price) is halved, the "
        "rest left to the network fee",
        frozenset({WITHDRAW}) | _LISTINGS,
        "AMOUNT_MISMATCH or LISTING_UNDERPAID",
        cut_payment,
    ),
    Tamper(
        "sighash-none",
        "every input the user signs asks for SIGHASH_NONE|ANYONECANPAY (the outputs could be "
        "changed after signing)",
        INTENT_PATHS,
        "SIGHASH_NOT_ALLOWED",
        sighash_none,
    ),
    Tamper(
        "drop-utxo",
        "the first input the user signs loses its previous-output data (witness and "
        "non-witness UTXO), so its amount cannot be checked",
        INTENT_PATHS,
        "MISSING_WITNESS_UTXO",
        drop_utxo,
    ),
    Tamper(
        "extra-input",
        "another coin of the seller's payment address is added to a listing's inputs to sign "
        "(a buyer would take it)",
        _LISTINGS,
        "EXTRA_INPUT_OF_OURS",
        extra_input,
    ),
    Tamper(
        "raise-fee",
        "the user's change (a withdrawal's, an inscription bid's) is halved, the other half "
        "added to the network fee (the guard asks the user's consent to that fee)",
        frozenset({WITHDRAW, BID}),
        "a fee code (FEE_TOO_HIGH, ...): the user's consent is asked",
        raise_fee,
    ),
)
TAMPERS_BY_NAME = {t.name: t for t in TAMPERS}


def tamper_answer(
    tamper: Tamper, node: Node, path: str, request: Mapping[str, Any], data: dict[str, Any]
) -> list[str]:
    """Tamper every PSBT of an intent answer's `data` in place; returns what changed in each
    (a `TamperNotApplicable` or a KeyError on an answer of another shape goes to the caller)."""
    if path == WITHDRAW:
        holders = [(data, "unsignedPSBTBase64", "unsignedPSBTHex", None)]
    elif path == BID:
        bidder = data["bidder"]
        holders = [(bidder, "unsignedBiddingPSBTBase64", "unsignedBiddingPSBTHex", bidder)]
    else:
        holders = [(e, "base64", "hex", e) for e in data["seller"]["secureListingPSBTs"]]
    changes = []
    for index, (holder, b64_key, hex_key, signs) in enumerate(holders):
        psbt = parse_psbt(holder[b64_key])
        to_sign = list(range(len(psbt.inputs))) if signs is None else list(signs["indicesToSign"])
        spot = TamperSpot(node, path, request, index, to_sign)
        changes.append(tamper.mutate(psbt, spot))
        holder[b64_key] = psbt_to_base64(psbt)
        if hex_key in holder:
            holder[hex_key] = psbt_to_hex(psbt)
        if signs is not None:
            signs["indicesToSign"] = spot.to_sign
    return changes
