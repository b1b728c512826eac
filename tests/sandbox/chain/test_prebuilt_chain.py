"""The prebuilt demo chain (app/sandbox/prebuilt_chain.py): a first start caches its chain, the
next first start opens from it with every block handed to a new kernel, and a cached chain that
is tampered with, damaged or built by other code is refused with a warning and built again."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.sandbox.chain.node import Node
from app.sandbox.prebuilt_chain import KEY_META, cached_chain_path, chain_key, open_node
from tests.sandbox.chain.helpers import KeyPair, kernel_tip

KEY = KeyPair.make("prebuilt", "p2wpkh")
REFUSED = "was refused and is deleted"


def _views(node: Node) -> dict[str, Any]:
    collector = node.sandbox_address("collector-1")
    return {
        "tip": (node.tip_height, node.tip_hash),
        "collections": node.collections(),
        "ord": node.ord_address(collector),
        "utxos": node.address_utxos(collector),
    }


def _build_cache(path: Path, cache: Path) -> dict[str, Any]:
    node = open_node(path, cache)
    try:
        return _views(node)
    finally:
        node.close()


def _with_cached_db(cache: Path, change: str, *params: object) -> None:
    conn = sqlite3.connect(cached_chain_path(cache))
    with conn:
        conn.execute(change, params)
    conn.close()


def _coinbase_tampered(raw: bytes) -> bytes:
    """The block with one byte of its coinbase's scriptSig changed (the header's merkle root
    no longer matches; the block still parses)."""
    at = 80 + 1 + 4  # header, transaction count, coinbase version
    if raw[at] == 0 and raw[at + 1] == 1:  # segwit marker and flag
        at += 2
    at += 1 + 36  # input count, the null outpoint
    script_end = at + 1 + raw[at]
    return raw[: script_end - 1] + bytes([raw[script_end - 1] ^ 0x01]) + raw[script_end:]


def test_a_first_start_from_the_cache_hands_every_block_to_a_new_kernel(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = tmp_path / "cache"
    (cache).mkdir()
    (cache / "demo-chain-0123456789ab.sqlite3").write_bytes(b"built by older code")
    built = _build_cache(tmp_path / "first", cache)
    assert [p.name for p in cache.iterdir()] == [cached_chain_path(cache).name]  # old one gone

    caplog.set_level(logging.INFO)
    node = open_node(tmp_path / "second", cache)
    try:
        assert _views(node) == built
        assert kernel_tip(node) == built["tip"]  # the kernel took the chain, block by block
        assert f"replayed blocks 1-{built['tip'][0]} into the kernel" in caplog.text
        assert "index was missing or outdated: rebuilt" in caplog.text  # not the cache's index
        assert REFUSED not in caplog.text
        txid, _ = node.faucet(KEY.address, 50_000)  # a usable chain: the faucet pays, mines
        assert node.mine(1) == built["tip"][0] + 1
        assert node.tx_status(txid)["confirmed"] is True  # type: ignore[index]
    finally:
        node.close()


def test_a_tampered_cached_block_is_refused_by_the_kernel_and_the_chain_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = tmp_path / "cache"
    built = _build_cache(tmp_path / "first", cache)
    tip_height = built["tip"][0]
    conn = sqlite3.connect(cached_chain_path(cache))
    (raw,) = conn.execute("SELECT raw FROM blocks WHERE height = ?", (tip_height,)).fetchone()
    conn.close()
    _with_cached_db(
        cache, "UPDATE blocks SET raw = ? WHERE height = ?", _coinbase_tampered(raw), tip_height
    )

    node = open_node(tmp_path / "second", cache)
    try:
        assert REFUSED in caplog.text
        assert f"the kernel does not take the stored chain (block {tip_height}" in caplog.text
        assert node.tip_hash != built["tip"][1]  # built afresh, not the tampered chain
        assert kernel_tip(node) == (node.tip_height, node.tip_hash)
    finally:
        node.close()
    caplog.clear()
    _build_cache(tmp_path / "third", cache)  # the rebuilt chain was cached in its place
    assert REFUSED not in caplog.text


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ("garbage", "file is not a database"),
        ("other code", "it was built by other sandbox code"),
        ("unfinished", "its demo data was never completed"),
    ],
)
def test_a_damaged_or_stale_cached_chain_is_refused_with_its_reason_and_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str, reason: str
) -> None:
    cache = tmp_path / "cache"
    _build_cache(tmp_path / "first", cache)
    if damage == "garbage":
        cached_chain_path(cache).write_bytes(b"\x00not sqlite\xff" * 100)
    elif damage == "other code":
        _with_cached_db(cache, "UPDATE meta SET value = 'older' WHERE key = ?", KEY_META)
    else:
        _with_cached_db(cache, "DELETE FROM meta WHERE key = 'initialized'")

    node = open_node(tmp_path / "second", cache)
    try:
        assert REFUSED in caplog.text and reason in caplog.text
        assert kernel_tip(node) == (node.tip_height, node.tip_hash)
        assert len(node.collections()) == len(_views(node)["collections"]) > 0
    finally:
        node.close()
    with sqlite3.connect(cached_chain_path(cache)) as conn:  # cached again, sound
        assert conn.execute("SELECT value FROM meta WHERE key = ?", (KEY_META,)).fetchone() == (
            chain_key(),
        )


def test_a_data_directory_in_use_never_reads_the_cache(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = tmp_path / "cache"
    built = _build_cache(tmp_path / "data", cache)
    cached_chain_path(cache).write_bytes(b"damaged after the first start")
    node = open_node(tmp_path / "data", cache)  # a restart: its own chain, no cache
    try:
        assert node.tip_hash == built["tip"][1]
        assert REFUSED not in caplog.text
    finally:
        node.close()
    assert cached_chain_path(cache).read_bytes() == b"damaged after the first start"


def test_the_key_follows_the_code_and_in_a_bundle_its_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.sandbox import prebuilt_chain

    sources = tmp_path / "sandbox"
    (sources / "chain").mkdir(parents=True)
    (sources / "chain" / "node.py").write_text("INITIAL_BLOCKS = 150\n")
    monkeypatch.setattr(prebuilt_chain, "_SANDBOX", sources)
    first = chain_key()
    (sources / "chain" / "node.py").write_text("INITIAL_BLOCKS = 151\n")
    assert chain_key() != first  # changed code: another chain
    # A bundle: no sources beside the modules; the program file tells builds apart.
    (sources / "chain" / "node.py").unlink()
    program = tmp_path / "bidwallet"
    program.write_bytes(b"build 1")
    monkeypatch.setattr("sys.executable", str(program))
    bundled = chain_key()
    assert bundled == chain_key()
    program.write_bytes(b"build 2, a little longer")
    assert chain_key() != bundled
