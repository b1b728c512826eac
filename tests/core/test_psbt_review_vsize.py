"""The size estimate behind the fee rate, against real signed transactions; script typing and
address network prefixes."""

from __future__ import annotations

import pytest
from embit.transaction import Transaction, TransactionInput

from app.core.psbt_size import estimate_vsize
from app.core.psbt_view import (
    ScriptType,
    address_networks,
    normalize_address,
    script_type,
)
from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_reader import view_of
from app.wallet.psbt_signer import SignRequest, sign_psbt
from app.wallet.signing_gate import approved_sign_requests
from tests.support.psbt_scenarios import NETWORK, SCENARIOS


def real_vsize(tx: Transaction) -> int:
    stripped = Transaction(
        version=tx.version,
        locktime=tx.locktime,
        vin=[TransactionInput(i.txid, i.vout, i.script_sig, i.sequence) for i in tx.vin],
        vout=list(tx.vout),
    )
    weight = 3 * len(stripped.serialize()) + len(tx.serialize())
    return (weight + 3) // 4


@pytest.mark.parametrize(
    "name", ["withdraw", "funding", "inscription_bid", "inscription_bid_taproot"]
)
def test_estimate_matches_the_signed_transaction(name: str) -> None:
    s = SCENARIOS[name]()
    verdict = s.verdict()
    estimate = s.review().vsize.vsize
    sign_psbt(s.psbt, s.signer, approved_sign_requests(s.psbt, verdict))
    if name.startswith("inscription_bid"):
        sign_psbt(s.psbt, s.parties.seller_ordinals, [SignRequest(0, 0x01)])
    finalize_psbt(s.psbt)
    actual = real_vsize(extract_transaction(s.psbt))
    # DER signatures vary by a byte and a taproot ALL signature is one byte longer than DEFAULT.
    assert abs(estimate - actual) <= 2, (estimate, actual)
    # Final witnesses are never trusted for size (anyone can swap a stranger's): a finalised
    # PSBT is sized from script types, which can only come out too small, never too large.
    assert s.review().vsize.vsize <= actual + 2


def test_unknown_script_types_are_reported_as_guessed() -> None:
    s = SCENARIOS["inscription_bid"]()
    s.psbt.inputs[0].witness_utxo = None
    s.psbt.inputs[0].non_witness_utxo = None
    assert estimate_vsize(view_of(s.psbt, NETWORK), trusted=()).guessed_inputs == (0,)


@pytest.mark.parametrize(
    ("spk", "kind"),
    [
        (b"\x76\xa9\x14" + b"\x01" * 20 + b"\x88\xac", ScriptType.P2PKH),
        (b"\xa9\x14" + b"\x01" * 20 + b"\x87", ScriptType.P2SH),
        (b"\x00\x14" + b"\x01" * 20, ScriptType.P2WPKH),
        (b"\x00\x20" + b"\x01" * 32, ScriptType.P2WSH),
        (b"\x51\x20" + b"\x01" * 32, ScriptType.P2TR),
        (b"\x6a", ScriptType.OP_RETURN),
        (b"\x00\x14" + b"\x01" * 19, ScriptType.UNKNOWN),
        (b"", ScriptType.UNKNOWN),
    ],
)
def test_script_types(spk: bytes, kind: ScriptType) -> None:
    assert script_type(spk) is kind


@pytest.mark.parametrize(
    ("address", "networks"),
    [
        ("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", {"main"}),
        ("BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ", {"main"}),
        ("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", {"test", "signet"}),
        ("bcrt1qs758ursh4q9z627kt3pp5yysm78ddny6txaqgw", {"regtest"}),
        ("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", {"main"}),
        ("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", {"main"}),
        ("mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", {"test", "signet", "regtest"}),
        ("2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc", {"test", "signet", "regtest"}),
        ("ltc1qxyz", set()),
    ],
)
def test_address_networks_by_prefix(address: str, networks: set[str]) -> None:
    assert address_networks(address) == networks


def test_bech32_is_compared_lowercased_and_base58_as_is() -> None:
    assert normalize_address(" BCRT1QABC ") == "bcrt1qabc"
    assert normalize_address("mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn") == (
        "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn"
    )
