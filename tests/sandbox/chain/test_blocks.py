"""Blocks built in Python and processed by libbitcoinkernel; rejected blocks leave no trace."""

from __future__ import annotations

import pytest

from app.sandbox.chain import blocks as block_builder
from app.sandbox.chain.blocks import build_block, height_push, merkle_root
from app.sandbox.chain.consensus import block_subsidy, sha256d
from app.sandbox.chain.errors import BlockRejected
from app.sandbox.chain.node import Node
from tests.sandbox.chain.helpers import KeyPair, fund, kernel_tip, stored_heights


@pytest.mark.parametrize(
    ("height", "expected"),
    [(0, "00"), (1, "51"), (16, "60"), (17, "0111"), (127, "017f"), (128, "028000"),
     (255, "02ff00"), (256, "020001"), (65_535, "03ffff00"), (1_000_000, "0340420f")],
)  # fmt: skip
def test_height_push_matches_core_script_number(height: int, expected: str) -> None:
    assert height_push(height).hex() == expected


def test_merkle_root_duplicates_the_odd_hash() -> None:
    a, b, c = (bytes([i]) * 32 for i in (1, 2, 3))
    assert merkle_root([a]) == a
    assert merkle_root([a, b, c]) == sha256d(sha256d(a + b) + sha256d(c + c))


def test_mined_block_is_the_kernel_tip_and_stored(sandbox_node: Node) -> None:
    height = sandbox_node.mine(2)
    assert kernel_tip(sandbox_node) == (height, sandbox_node.tip_hash)
    assert stored_heights(sandbox_node)[-2:] == [height - 1, height]


def test_block_with_segwit_and_taproot_spends_is_accepted(sandbox_node: Node) -> None:
    for kind in ("p2wpkh", "p2tr"):
        key = KeyPair.make(f"blocks-{kind}", kind)
        utxo = fund(sandbox_node, key, 100_000)
        txid = sandbox_node.broadcast(key.spend([utxo], [(key.script_pubkey, 99_000)]))
        height = sandbox_node.mine(1)
        assert sandbox_node.tx_status(txid) == _confirmed_at(sandbox_node, height)


def test_header_times_stay_above_median_time_past(sandbox_node: Node) -> None:
    sandbox_node.mine(12)
    tip = sandbox_node._engine.tip
    for height in range(tip.height - 10, tip.height + 1):
        assert tip.times[height] > tip.median_time_past(height - 1)
        assert tip.times[height] >= tip.times[height - 1]


def _tamper(monkeypatch: pytest.MonkeyPatch, **changes: object) -> None:
    """Make the next block builds produce a block the kernel must refuse."""
    original = block_builder.build_block

    def build(**kwargs: object) -> block_builder.BuiltBlock:
        return original(**{**kwargs, **changes})

    monkeypatch.setattr("app.sandbox.chain.engine.build_block", build)


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"coinbase_value": 100 * 10**8}, "bad-cb-amount"),
        ({"height": 5}, "bad-cb-height"),
    ],
)
def test_rejected_block_is_not_recorded_and_mempool_kept(
    sandbox_node: Node, monkeypatch: pytest.MonkeyPatch, changes: dict[str, int], reason: str
) -> None:
    key = KeyPair.make("rejected-block")
    pending, _ = sandbox_node.faucet(key.address, 50_000)
    before = (sandbox_node.tip_height, sandbox_node.tip_hash, stored_heights(sandbox_node))
    _tamper(monkeypatch, **changes)
    with pytest.raises(BlockRejected) as caught:
        sandbox_node.mine(1)
    assert reason in caught.value.reason
    assert (sandbox_node.tip_height, sandbox_node.tip_hash, stored_heights(sandbox_node)) == before
    assert kernel_tip(sandbox_node) == before[:2]
    assert sandbox_node.tx_status(pending) == {"confirmed": False}
    monkeypatch.undo()
    sandbox_node.mine(1)
    assert sandbox_node.tx_status(pending)["confirmed"] is True


def test_block_with_a_transaction_the_kernel_refuses_evicts_it_and_retries(
    sandbox_node: Node, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tx that slipped past the mempool's script check (simulated) makes the kernel refuse
    the block; the mempool is re-validated, the tx evicted with its reason, the block mined."""
    key = KeyPair.make("evict")
    utxo = fund(sandbox_node, key, 60_000)
    good, _ = sandbox_node.faucet(key.address, 40_000)
    bad_raw = bytearray(key.spend([utxo], [(key.script_pubkey, 59_000)]))
    bad_raw[-40] ^= 1  # inside the signature
    monkeypatch.setattr(sandbox_node._kernel, "failing_input", lambda tx, spent: None)
    bad = sandbox_node.broadcast(bytes(bad_raw))
    monkeypatch.undo()
    height = sandbox_node.mine(1)
    assert sandbox_node.tx_status(good) == _confirmed_at(sandbox_node, height)
    assert sandbox_node.tx_json(bad) is None
    reason = sandbox_node._store.conn.execute(
        "SELECT reason FROM evicted_txs WHERE txid = ?", (bad,)
    ).fetchone()[0]
    assert "mandatory-script-verify-flag-failed" in reason
    assert sandbox_node.address_utxos(key.address)[0]["txid"] in (utxo.txid, good)


def _confirmed_at(node: Node, height: int) -> dict[str, object]:
    tip = node._engine.tip
    return {
        "confirmed": True,
        "block_height": height,
        "block_hash": tip.hashes[height],
        "block_time": tip.times[height],
    }


def test_block_subsidy_halves_every_150_regtest_blocks() -> None:
    assert block_subsidy(149) == 50 * 10**8
    assert block_subsidy(150) == 25 * 10**8
    assert block_subsidy(64 * 150) == 0


def test_build_block_commits_to_witnesses() -> None:
    block = build_block(
        prev_hash=b"\x00" * 32, height=1, time=1_700_000_000, txs=[],
        payout_script=bytes.fromhex("0014" + "11" * 20), coinbase_value=50 * 10**8,
    )  # fmt: skip
    commitment = block.coinbase.outputs[1].script_pubkey
    assert commitment[:6].hex() == "6a24aa21a9ed"
    assert block.coinbase.inputs[0].witness == (b"\x00" * 32,)
    assert block.coinbase.inputs[0].script_sig == bytes([0x51, 0x00])


def test_block_wide_refusal_retries_with_a_prefix_of_the_template(
    sandbox_node: Node, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the kernel refuses a block although each transaction is valid (a block-wide limit),
    the block is retried with fewer transactions; the others wait in the mempool."""
    key = KeyPair.make("prefix")
    txids = [sandbox_node.faucet(key.address, 10_000 + i)[0] for i in range(3)]
    real_submit = sandbox_node._kernel.submit_block

    def at_most_one_tx(raw: bytes, expected_hash: str) -> None:
        if len(block_builder.block_transactions(raw)) > 2:
            raise BlockRejected("too much for this test", "test-limit")
        real_submit(raw, expected_hash)

    monkeypatch.setattr(sandbox_node._kernel, "submit_block", at_most_one_tx)
    sandbox_node.mine(1)
    confirmed = [t for t in txids if sandbox_node.tx_status(t)["confirmed"]]  # type: ignore[index]
    assert len(confirmed) == 1
    monkeypatch.undo()
    sandbox_node.mine(1)
    assert all(sandbox_node.tx_status(t)["confirmed"] for t in txids)  # type: ignore[index]
