"""Script helpers for the bidding wallet: multi_a / multisig layouts, NUMS key, addresses."""

from __future__ import annotations

import hashlib

import pytest

from app.wallet.scripts import (
    NUMS_H,
    ScriptError,
    address_of,
    bidding_p2wsh_1of2,
    bidding_taproot_1of2,
    checksig_leaf,
    control_block_commits,
    multi_a_leaf,
    parse_checksig_leaf,
    parse_multi_a_leaf,
    parse_multisig_script,
    script_pushes,
    sorted_multisig_script,
    taproot_output,
    tweak_xonly,
)
from tests.wallet.psbt_builders import key_n

USER, SERVICE = key_n(1), key_n(2)


def test_nums_point_is_bip341_h() -> None:
    # BIP-341: H = lift_x(sha256(uncompressed generator G)).
    g = bytes.fromhex(
        "0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
        "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8"
    )
    assert hashlib.sha256(g).digest() == NUMS_H


def test_multi_a_leaf_layout_sorts_keys() -> None:
    a, b = sorted([USER.xonly(), SERVICE.xonly()])
    expected = b"\x20" + a + b"\xac" + b"\x20" + b + b"\xba" + b"\x51\x9c"
    assert multi_a_leaf(1, [USER.xonly(), SERVICE.xonly()]) == expected
    assert multi_a_leaf(1, [SERVICE.xonly(), USER.xonly()]) == expected
    assert parse_multi_a_leaf(expected) == (1, [a, b])


@pytest.mark.parametrize(
    ("threshold", "keys"),
    [(0, 2), (3, 2), (1, 1)],
    ids=["zero threshold", "threshold above n", "single key"],
)
def test_multi_a_leaf_rejects_bad_shapes(threshold: int, keys: int) -> None:
    with pytest.raises(ScriptError):
        multi_a_leaf(threshold, [key_n(i).xonly() for i in range(keys)])


def test_multi_a_leaf_rejects_duplicate_and_wrong_size_keys() -> None:
    with pytest.raises(ScriptError):
        multi_a_leaf(1, [USER.xonly(), USER.xonly()])
    with pytest.raises(ScriptError):
        multi_a_leaf(1, [USER.sec(), SERVICE.sec()])


def test_leaf_parsers_reject_other_scripts() -> None:
    leaf = multi_a_leaf(1, [USER.xonly(), SERVICE.xonly()])
    assert parse_multi_a_leaf(leaf[:-1] + b"\x87") is None  # OP_EQUAL, not OP_NUMEQUAL
    assert parse_multi_a_leaf(checksig_leaf(USER.xonly())) is None
    assert parse_checksig_leaf(checksig_leaf(USER.xonly())) == USER.xonly()
    assert parse_checksig_leaf(leaf) is None


def test_bidding_taproot_uses_nums_internal_key_and_one_leaf() -> None:
    out = bidding_taproot_1of2(USER.xonly(), SERVICE.xonly())
    assert out.internal_key == NUMS_H
    assert len(out.leaves) == 1
    leaf = out.leaves[0]
    assert leaf.script == multi_a_leaf(1, [USER.xonly(), SERVICE.xonly()])
    assert out.merkle_root == leaf.leaf_hash
    assert leaf.control_block == bytes([0xC0 | out.parity]) + NUMS_H
    assert (out.output_key, out.parity) == tweak_xonly(NUMS_H, leaf.leaf_hash)
    assert control_block_commits(out.output_key, leaf.script, 0xC0, leaf.control_block)
    assert out == bidding_taproot_1of2(SERVICE.xonly(), USER.xonly())  # order-independent


def test_bidding_taproot_addresses_per_network() -> None:
    out = bidding_taproot_1of2(USER.xonly(), SERVICE.xonly())
    assert out.address("regtest").startswith("bcrt1p")
    assert out.address("mainnet").startswith("bc1p")
    assert out.address("testnet").startswith("tb1p")
    assert out.address("signet").startswith("tb1p")
    with pytest.raises(ScriptError):
        out.address("dogecoin")


def test_bidding_p2wsh_sorted_multisig() -> None:
    wallet = bidding_p2wsh_1of2(USER.sec(), SERVICE.sec())
    a, b = sorted([USER.sec(), SERVICE.sec()])
    assert wallet.witness_script == b"\x51\x21" + a + b"\x21" + b + b"\x52\xae"
    assert wallet == bidding_p2wsh_1of2(SERVICE.sec(), USER.sec())
    assert wallet.script_pubkey == b"\x00\x20" + hashlib.sha256(wallet.witness_script).digest()
    assert parse_multisig_script(wallet.witness_script) == (1, [a, b])
    address = wallet.address("regtest")
    assert address.startswith("bcrt1q") and len(address) == 64


def test_sorted_multisig_rejects_bad_keys() -> None:
    with pytest.raises(ScriptError):
        sorted_multisig_script(1, [USER.xonly(), SERVICE.xonly()])
    with pytest.raises(ScriptError):
        sorted_multisig_script(3, [USER.sec(), SERVICE.sec()])


def test_taproot_tree_control_blocks_commit_only_to_their_own_leaf() -> None:
    scripts = [checksig_leaf(key_n(i).xonly()) for i in range(3)]
    out = taproot_output(USER.xonly(), scripts)
    for leaf in out.leaves:
        assert control_block_commits(out.output_key, leaf.script, 0xC0, leaf.control_block)
    first, second = out.leaves[0], out.leaves[1]
    assert not control_block_commits(out.output_key, second.script, 0xC0, first.control_block)
    assert not control_block_commits(out.output_key, first.script, 0xC0, first.control_block[:-1])


def test_key_only_output_is_bip86_style() -> None:
    out = taproot_output(USER.xonly())
    assert out.merkle_root is None and out.leaves == ()
    assert out.output_key == tweak_xonly(USER.xonly(), None)[0]


def test_script_pushes_handles_pushdata_and_truncation() -> None:
    data = bytes(80)
    assert script_pushes(b"\x4c\x50" + data + b"\xac") == [data]
    assert script_pushes(b"\x51\x02\xab\xcd\x87") == [b"\xab\xcd"]
    with pytest.raises(ScriptError):
        script_pushes(b"\x05\x01")


def test_address_of_rejects_non_standard_scripts() -> None:
    with pytest.raises(ScriptError):
        address_of(b"\x6a\x01\x00")
