"""Mempool acceptance: each refusal carries our code, Core's reason and the failing input."""

from __future__ import annotations

import pytest

from app.sandbox.chain.errors import InvalidRequest, TxRejected
from app.sandbox.chain.node import Node
from app.sandbox.chain.spend import Utxo
from tests.sandbox.chain.helpers import KeyPair, fund

OTHER = KeyPair.make("policy-other", "p2tr")


@pytest.fixture(scope="module")
def key() -> KeyPair:
    return KeyPair.make("policy")


def _rejected(node: Node, raw: bytes) -> TxRejected:
    with pytest.raises(TxRejected) as caught:
        node.broadcast(raw)
    return caught.value


def test_missing_input_names_the_input(sandbox_node: Node, key: KeyPair) -> None:
    real = fund(sandbox_node, key, 50_000)
    ghost = Utxo("ab" * 32, 3, 50_000, key.script_pubkey)
    err = _rejected(sandbox_node, key.spend([real, ghost], [(OTHER.script_pubkey, 90_000)]))
    assert (err.code, err.reason, err.input_index) == (
        "MISSING_INPUTS",
        "bad-txns-inputs-missingorspent",
        1,
    )
    assert f"{'ab' * 32}:3" in err.message


def test_double_spend_of_a_mempool_input(sandbox_node: Node, key: KeyPair) -> None:
    utxo = fund(sandbox_node, key, 50_000)
    first = sandbox_node.broadcast(key.spend([utxo], [(OTHER.script_pubkey, 49_000)]))
    err = _rejected(sandbox_node, key.spend([utxo], [(key.script_pubkey, 48_000)]))
    assert (err.code, err.reason, err.input_index) == (
        "MEMPOOL_CONFLICT",
        "txn-mempool-conflict",
        0,
    )
    assert first in err.message
    sandbox_node.mine(1)
    err = _rejected(sandbox_node, key.spend([utxo], [(key.script_pubkey, 47_000)]))
    assert err.code == "INPUT_SPENT"


def test_bad_signature_fails_the_kernel_interpreter(sandbox_node: Node, key: KeyPair) -> None:
    good = fund(sandbox_node, key, 50_000)
    wrong_key = KeyPair.make("not-the-owner")
    stolen = fund(sandbox_node, key, 50_000)
    # Input 1 is signed by a key that does not own it: its witness is the wrong key's.
    raw = wrong_key.spend(
        [Utxo(good.txid, good.vout, good.value, wrong_key.script_pubkey),
         Utxo(stolen.txid, stolen.vout, stolen.value, wrong_key.script_pubkey)],
        [(OTHER.script_pubkey, 99_000)],
    )  # fmt: skip
    err = _rejected(sandbox_node, raw)
    assert (err.code, err.reason, err.input_index) == (
        "SCRIPT_VERIFY_FAILED",
        "mandatory-script-verify-flag-failed",
        0,
    )
    # A valid input 0 and a tampered input 1: the error names input 1.
    fixed = bytearray(key.spend([good, stolen], [(OTHER.script_pubkey, 99_000)]))
    fixed[-40] ^= 1
    assert _rejected(sandbox_node, bytes(fixed)).input_index == 1


def test_taproot_signature_over_other_amounts_fails(sandbox_node: Node) -> None:
    tr = KeyPair.make("policy-tr", "p2tr")
    utxo = fund(sandbox_node, tr, 50_000)
    lying = Utxo(utxo.txid, utxo.vout, 60_000, utxo.script_pubkey)  # signs the wrong amount
    err = _rejected(sandbox_node, tr.spend([lying], [(OTHER.script_pubkey, 49_000)]))
    assert (err.code, err.input_index) == ("SCRIPT_VERIFY_FAILED", 0)


@pytest.mark.parametrize(("kind", "threshold"), [("p2wpkh", 294), ("p2tr", 330)])
def test_dust_outputs_are_refused(
    sandbox_node: Node, key: KeyPair, kind: str, threshold: int
) -> None:
    receiver = KeyPair.make(f"dust-{kind}", kind)
    utxo = fund(sandbox_node, key, 20_000)
    err = _rejected(
        sandbox_node,
        key.spend([utxo], [(receiver.script_pubkey, threshold - 1), (key.script_pubkey, 19_000)]),
    )
    assert (err.code, err.reason) == ("DUST", "dust")
    assert f"{threshold} sats" in err.message
    sandbox_node.broadcast(
        key.spend([utxo], [(receiver.script_pubkey, threshold), (key.script_pubkey, 19_000)])
    )


def test_op_return_may_carry_zero_sats(sandbox_node: Node, key: KeyPair) -> None:
    utxo = fund(sandbox_node, key, 20_000)
    op_return = bytes.fromhex("6a0568656c6c6f")
    sandbox_node.broadcast(key.spend([utxo], [(op_return, 0), (key.script_pubkey, 19_000)]))


def test_fee_below_one_sat_per_vbyte(sandbox_node: Node, key: KeyPair) -> None:
    utxo = fund(sandbox_node, key, 20_000)
    raw = key.spend([utxo], [(OTHER.script_pubkey, 20_000 - 100)])  # ~121 vB for 100 sats
    err = _rejected(sandbox_node, raw)
    assert (err.code, err.reason) == ("FEE_TOO_LOW", "min relay fee not met")
    assert "1 sat/vB" in err.message


def test_outputs_above_inputs(sandbox_node: Node, key: KeyPair) -> None:
    utxo = fund(sandbox_node, key, 20_000)
    err = _rejected(sandbox_node, key.spend([utxo], [(OTHER.script_pubkey, 20_001)]))
    assert (err.code, err.reason) == ("INPUTS_BELOW_OUTPUTS", "bad-txns-in-belowout")


def test_coinbase_matures_after_100_blocks(sandbox_node: Node) -> None:
    coinbase_height = sandbox_node.mine(1)
    row = sandbox_node._store.conn.execute(
        "SELECT o.txid, o.value, o.script_pubkey FROM outputs o JOIN txs t ON t.txid = o.txid "
        "WHERE t.height = ? AND t.coinbase = 1 AND o.vout = 0",
        (coinbase_height,),
    ).fetchone()
    utxo = Utxo(row[0], 0, row[1], bytes(row[2]))
    unsigned = OTHER.spend([utxo], [(OTHER.script_pubkey, row[1] - 10_000)])
    raw = sandbox_node.sign_with_sandbox_keys(unsigned)  # the miner key is the sandbox's
    err = _rejected(sandbox_node, raw)
    assert (err.code, err.reason, err.input_index) == (
        "IMMATURE_COINBASE",
        "bad-txns-premature-spend-of-coinbase",
        0,
    )
    assert f"from height {coinbase_height + 100}" in err.message
    sandbox_node.mine(98)  # the next block would be only 99 blocks deep
    assert _rejected(sandbox_node, raw).code == "IMMATURE_COINBASE"
    sandbox_node.mine(1)
    txid = sandbox_node.broadcast(raw)
    sandbox_node.mine(1)
    assert sandbox_node.tx_status(txid)["confirmed"] is True


def test_non_final_locktime_and_relative_lock(sandbox_node: Node, key: KeyPair) -> None:
    utxo = fund(sandbox_node, key, 20_000)
    future = sandbox_node.tip_height + 5
    err = _rejected(
        sandbox_node, key.spend([utxo], [(OTHER.script_pubkey, 19_000)], locktime=future)
    )
    assert (err.code, err.reason) == ("NON_FINAL", "non-final")
    # nSequence 10 blocks of relative lock on a coin confirmed 1 block ago (BIP-68).
    err = _rejected(sandbox_node, key.spend([utxo], [(OTHER.script_pubkey, 19_000)], sequence=10))
    assert (err.code, err.reason, err.input_index) == ("NON_BIP68_FINAL", "non-BIP68-final", 0)
    txid = sandbox_node.broadcast(
        key.spend([utxo], [(OTHER.script_pubkey, 19_000)], locktime=sandbox_node.tip_height)
    )
    assert sandbox_node.tx_status(txid) == {"confirmed": False}


def test_duplicate_inputs(sandbox_node: Node, key: KeyPair) -> None:
    utxo = fund(sandbox_node, key, 20_000)
    err = _rejected(sandbox_node, key.spend([utxo, utxo], [(OTHER.script_pubkey, 30_000)]))
    assert (err.code, err.input_index) == ("DUPLICATE_INPUT", 1)


def test_rebroadcast_is_acknowledged_again(sandbox_node: Node, key: KeyPair) -> None:
    utxo = fund(sandbox_node, key, 20_000)
    raw = key.spend([utxo], [(OTHER.script_pubkey, 19_000)])
    assert sandbox_node.broadcast(raw) == sandbox_node.broadcast(raw.hex())
    sandbox_node.mine(1)
    assert _rejected(sandbox_node, raw).code == "ALREADY_CONFIRMED"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("zz", "INVALID_HEX"),
        ("0200", "TX_DECODE_FAILED"),
        ("", "TX_DECODE_FAILED"),
    ],
)
def test_undecodable_transactions(sandbox_node: Node, raw: str, code: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        sandbox_node.broadcast(raw)
    assert caught.value.code == code


def test_trailing_bytes_are_refused(sandbox_node: Node, key: KeyPair) -> None:
    utxo = Utxo("cd" * 32, 0, 20_000, key.script_pubkey)
    raw = key.spend([utxo], [(OTHER.script_pubkey, 19_000)])
    with pytest.raises(InvalidRequest) as caught:
        sandbox_node.broadcast(raw + b"\x00")
    assert caught.value.code == "TX_DECODE_FAILED"
