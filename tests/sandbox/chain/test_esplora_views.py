"""Esplora-shaped reads: address stats and UTXOs (chain and mempool), tx JSON and status."""

from __future__ import annotations

from app.sandbox.chain.node import Node
from tests.sandbox.chain.helpers import KeyPair, fund

SENDER = KeyPair.make("esplora-sender")
RECEIVER = KeyPair.make("esplora-receiver", "p2tr")


def test_address_stats_and_utxos_follow_mempool_and_chain(sandbox_node: Node) -> None:
    # Addresses of its own: the module's node keeps what the other tests sent to SENDER and
    # RECEIVER, and these counts are of this test's transactions only.
    sender = KeyPair.make("esplora-stats-sender")
    receiver = KeyPair.make("esplora-stats-receiver", "p2tr")
    utxo = fund(sandbox_node, sender, 100_000)
    assert sandbox_node.address_stats(sender.address) == {
        "address": sender.address,
        "chain_stats": {"funded_txo_count": 1, "funded_txo_sum": 100_000,
                        "spent_txo_count": 0, "spent_txo_sum": 0, "tx_count": 1},
        "mempool_stats": {"funded_txo_count": 0, "funded_txo_sum": 0,
                          "spent_txo_count": 0, "spent_txo_sum": 0, "tx_count": 0},
    }  # fmt: skip
    raw = sender.spend([utxo], [(receiver.script_pubkey, 30_000), (sender.script_pubkey, 69_000)])
    txid = sandbox_node.broadcast(raw)

    stats = sandbox_node.address_stats(sender.address)
    assert stats["mempool_stats"] == {"funded_txo_count": 1, "funded_txo_sum": 69_000,
                                      "spent_txo_count": 1, "spent_txo_sum": 100_000,
                                      "tx_count": 1}  # fmt: skip
    assert sandbox_node.address_utxos(sender.address) == [
        {"txid": txid, "vout": 1, "status": {"confirmed": False}, "value": 69_000}
    ]
    assert sandbox_node.address_utxos(receiver.address)[0]["value"] == 30_000

    height = sandbox_node.mine(1)
    stats = sandbox_node.address_stats(sender.address)
    assert stats["chain_stats"] == {"funded_txo_count": 2, "funded_txo_sum": 169_000,
                                    "spent_txo_count": 1, "spent_txo_sum": 100_000,
                                    "tx_count": 2}  # fmt: skip
    assert stats["mempool_stats"]["tx_count"] == 0
    [utxo_json] = sandbox_node.address_utxos(sender.address)
    assert utxo_json["status"] == {
        "confirmed": True,
        "block_height": height,
        "block_hash": sandbox_node.tip_hash,
        "block_time": sandbox_node._engine.tip.times[height],
    }


def test_tx_json_has_prevouts_fee_and_weight(sandbox_node: Node) -> None:
    utxo = fund(sandbox_node, SENDER, 50_000)
    raw = SENDER.spend([utxo], [(RECEIVER.script_pubkey, 49_000)])
    txid = sandbox_node.broadcast(raw)
    tx = sandbox_node.tx_json(txid)
    assert tx is not None
    assert tx["fee"] == 1_000
    assert tx["size"] == len(raw)
    assert tx["weight"] < 4 * len(raw)  # the witness is discounted
    assert tx["status"] == {"confirmed": False}
    [vin] = tx["vin"]
    assert vin["txid"] == utxo.txid and vin["is_coinbase"] is False
    assert vin["prevout"] == {
        "scriptpubkey": SENDER.script_pubkey.hex(),
        "scriptpubkey_asm": f"OP_0 OP_PUSHBYTES_20 {SENDER.script_pubkey[2:].hex()}",
        "scriptpubkey_type": "v0_p2wpkh",
        "scriptpubkey_address": SENDER.address,
        "value": 50_000,
    }
    assert len(vin["witness"]) == 2 and vin["sequence"] == 0xFFFFFFFD
    assert tx["vout"][0]["scriptpubkey_type"] == "v1_p2tr"
    assert tx["vout"][0]["scriptpubkey_address"] == RECEIVER.address
    assert sandbox_node.tx_hex(txid) == raw.hex()


def test_coinbase_tx_json(sandbox_node: Node) -> None:
    sandbox_node.mine(1)
    txid = sandbox_node._store.conn.execute(
        "SELECT txid FROM txs WHERE height = ? AND coinbase = 1", (sandbox_node.tip_height,)
    ).fetchone()[0]
    tx = sandbox_node.tx_json(txid)
    assert tx is not None
    assert tx["vin"][0]["is_coinbase"] is True and tx["vin"][0]["prevout"] is None
    assert tx["vout"][1]["scriptpubkey_type"] == "op_return"
    assert tx["fee"] == 0


def test_unknown_txid_reads_as_none(sandbox_node: Node) -> None:
    assert sandbox_node.tx_json("00" * 32) is None
    assert sandbox_node.tx_hex("00" * 32) is None
    assert sandbox_node.tx_status("00" * 32) is None


def test_fee_estimates_shape_and_floor(sandbox_node: Node) -> None:
    estimates = sandbox_node.fee_estimates()
    assert list(estimates) == [str(n) for n in [*range(1, 26), 144, 504, 1008]]
    assert all(rate >= 1.0 for rate in estimates.values())


def test_spent_utxo_disappears_from_utxo_list(sandbox_node: Node) -> None:
    key = KeyPair.make("esplora-spent")
    utxo = fund(sandbox_node, key, 10_000)
    assert [u["txid"] for u in sandbox_node.address_utxos(key.address)] == [utxo.txid]
    sandbox_node.broadcast(key.spend([utxo], [(RECEIVER.script_pubkey, 9_000)]))
    assert sandbox_node.address_utxos(key.address) == []
