"""PSBT in/out: encodings, clear errors on garbage, BIP-371 vectors, embit default-sharing bugs."""

from __future__ import annotations

import base64
import json
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from embit import compact
from embit.psbt import InputScope

from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_fixes import FixedInput, FixedOutput, FixedPSBT, set_unknown
from app.wallet.psbt_io import (
    PsbtDecodeError,
    parse_psbt,
    parse_psbt_base64,
    parse_psbt_bytes,
    parse_psbt_hex,
    psbt_to_base64,
    psbt_to_bytes,
    psbt_to_hex,
)
from app.wallet.psbt_signer import UnsupportedInputError, requests_for, sign_psbt
from tests.wallet.kernel import assert_accepted
from tests.wallet.psbt_builders import (
    build_psbt,
    key_n,
    p2tr_bidding,
    p2tr_key,
    p2wpkh,
    pay_to,
    spent,
)

VECTORS = Path(__file__).parent / "vectors"
BIP174 = json.loads((VECTORS / "psbt_bip174_vectors.json").read_text())
BIP371 = json.loads((VECTORS / "psbt_bip371_vectors.json").read_text())


def _maps(raw: bytes) -> list[dict[bytes, bytes]]:
    """Split a v0 PSBT into its key-value maps (global, inputs..., outputs...), order-free."""
    stream = BytesIO(raw[5:])
    maps: list[dict[bytes, bytes]] = []
    while stream.tell() < len(raw) - 5:
        current: dict[bytes, bytes] = {}
        while True:
            key = stream.read(compact.read_from(stream))
            if not key:
                break
            current[key] = stream.read(compact.read_from(stream))
        maps.append(current)
    return maps


def _sample() -> FixedPSBT:
    me = key_n(1)
    psbt = build_psbt([p2tr_key(me), p2tr_bidding(me, key_n(2))], [pay_to(5, 150_000)])
    sign_psbt(psbt, me, requests_for([0, 1], 0x81))
    return psbt


def test_round_trip_in_all_three_encodings() -> None:
    psbt = _sample()
    raw = psbt_to_bytes(psbt)
    for encoded in (raw, psbt_to_base64(psbt), psbt_to_hex(psbt), psbt_to_hex(psbt).upper()):
        assert psbt_to_bytes(parse_psbt(encoded)) == raw
    assert psbt_to_bytes(parse_psbt_base64(psbt_to_base64(psbt))) == raw
    assert psbt_to_bytes(parse_psbt_hex(psbt_to_hex(psbt))) == raw
    assert psbt_to_bytes(parse_psbt_bytes(raw)) == raw
    b64 = psbt_to_base64(psbt)
    wrapped = "\n".join(b64[i : i + 64] for i in range(0, len(b64), 64))  # as pasted from mail
    assert psbt_to_bytes(parse_psbt(wrapped + "\n")) == raw


def test_tap_key_sig_and_script_sig_survive_round_trip() -> None:
    psbt = _sample()
    again = parse_psbt(psbt_to_base64(psbt))
    assert again.inputs[0].tap_key_sig == psbt.inputs[0].tap_key_sig is not None
    assert dict(again.inputs[1].taproot_sigs) == dict(psbt.inputs[1].taproot_sigs)
    assert again.inputs[0].unknown == {}


def _truncated() -> bytes:
    return psbt_to_bytes(_sample())[:-7]


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ("", "empty"),
        ("   \n", "empty"),
        ("hello world", "invalid base64"),
        ("cHNidP8=====", "invalid base64"),
        ("70736274ff0g", "invalid hex"),
        ("70736274ff0", "invalid hex"),
        (base64.b64encode(b"not a psbt at all").decode(), "magic"),
        (b"\xff\xfe\x00binary", "binary data"),
        (b"psbt\xff", "malformed"),
        (b"psbt\xff\x00", "malformed"),
        (b"psbt\xff" + b"\x01\x00\x05abcde\x00", "malformed"),
        (12345, "expected str or bytes"),
    ],
    ids=[
        "empty",
        "blank",
        "words",
        "bad padding",
        "bad hex digit",
        "odd hex",
        "no magic",
        "binary garbage",
        "magic only",
        "no tx",
        "broken tx",
        "wrong type",
    ],
)
def test_garbage_gives_a_clear_error(data: Any, match: str) -> None:
    with pytest.raises(PsbtDecodeError, match=match):
        parse_psbt(data)


def test_truncated_and_trailing_bytes_are_rejected() -> None:
    raw = psbt_to_bytes(_sample())
    with pytest.raises(PsbtDecodeError, match="malformed"):
        parse_psbt(raw[:-7])
    with pytest.raises(PsbtDecodeError, match="malformed"):
        parse_psbt(raw + b"\x00")


def test_unsigned_tx_with_a_script_sig_is_rejected() -> None:
    psbt = _sample()
    tx = psbt.tx
    tx.vin[0].script_sig.data = b"\x51"
    raw_tx = tx.serialize()
    raw = b"psbt\xff" + b"\x01\x00" + compact.to_bytes(len(raw_tx)) + raw_tx + b"\x00"
    raw += b"\x00" * (len(tx.vin) + len(tx.vout))
    with pytest.raises(PsbtDecodeError, match="scriptSig or witness"):
        parse_psbt(raw)


@pytest.mark.parametrize("case", BIP174["invalid"], ids=lambda c: c["case"][:48])
def test_bip174_invalid_vectors_are_rejected(case: dict[str, str]) -> None:
    assert bytes.fromhex(case["hex"]) == base64.b64decode(case["base64"])
    with pytest.raises(PsbtDecodeError):
        parse_psbt(case["base64"])


@pytest.mark.parametrize("case", BIP174["valid"], ids=lambda c: c["case"][:48])
def test_bip174_valid_vectors_round_trip(case: dict[str, str]) -> None:
    raw = bytes.fromhex(case["hex"])
    assert raw == base64.b64decode(case["base64"])
    assert _maps(psbt_to_bytes(parse_psbt(case["base64"]))) == _maps(raw)


@pytest.mark.parametrize("case", BIP371["invalid"], ids=lambda c: c["case"][:48])
def test_bip371_invalid_vectors_are_rejected(case: dict[str, str]) -> None:
    assert bytes.fromhex(case["hex"]) == base64.b64decode(case["base64"])
    with pytest.raises(PsbtDecodeError, match="malformed PSBT: PSBT_"):
        parse_psbt(case["base64"])


@pytest.mark.parametrize("case", BIP371["valid"], ids=lambda c: c["case"][:48])
def test_bip371_valid_vectors_round_trip(case: dict[str, str]) -> None:
    raw = bytes.fromhex(case["hex"])
    assert raw == base64.b64decode(case["base64"])
    psbt = parse_psbt(case["base64"])
    # Field order may differ (embit's writer order); the key-value maps must not.
    assert _maps(psbt_to_bytes(psbt)) == _maps(raw)
    assert all(not inp.unknown for inp in psbt.inputs)  # every taproot field was understood


def test_bip371_key_path_signature_is_read_into_tap_key_sig() -> None:
    case = next(c for c in BIP371["valid"] if "and signature" in c["case"])
    sig = parse_psbt(case["hex"]).inputs[0].tap_key_sig
    assert sig is not None and sig.hex().startswith("bb53ec917bad9d906af1ba87181c48b8")


def test_bip371_script_path_signatures_and_leaves_are_read() -> None:
    case = next(c for c in BIP371["valid"] if "script path signatures" in c["case"])
    inp = parse_psbt(case["hex"]).inputs[0]
    assert len(inp.taproot_sigs) == 3 and len(inp.taproot_scripts) == 3
    assert inp.taproot_merkle_root.hex().startswith("f0362e2f")


def test_fresh_scopes_never_share_unknown_dicts() -> None:
    """embit's `unknown={}` default is shared; poisoning it once broke every later InputScope."""
    a, b = FixedInput(), FixedInput()
    set_unknown(a, b"\xfc\x01", b"x")
    assert b.unknown == {} and FixedInput().unknown == {}
    assert FixedOutput().unknown is not FixedOutput().unknown
    assert FixedPSBT().unknown is not FixedPSBT().unknown
    psbt = _sample()
    set_unknown(psbt.inputs[0], b"\xfc\x02", b"y")
    assert InputScope().unknown == {}  # embit's own default dict stays clean too
    assert parse_psbt(psbt_to_bytes(psbt)).inputs[0].unknown == {b"\xfc\x02": b"y"}


def test_psbt_v2_round_trips_and_signs() -> None:
    """BIP-370 PSBTv2 (per-input outpoints and sequences): parsed, signed, valid for Core."""
    me = key_n(1)
    utxos = [p2tr_key(me), p2wpkh(me)]
    psbt = build_psbt(utxos, [pay_to(5, 90_000)], locktime=500, sequences=[0, 5])
    psbt.version = 2
    again = parse_psbt(psbt_to_base64(psbt))
    assert again.version == 2 and b"\x01\x00" not in psbt_to_bytes(again)[:7]
    assert [i.sequence for i in again.tx.vin] == [0, 5] and again.tx.locktime == 500
    sign_psbt(again, me, requests_for([0, 1], 0x01))
    signed = parse_psbt(psbt_to_hex(again))
    finalize_psbt(signed)
    assert_accepted(extract_transaction(signed), spent(utxos))


def test_psbt_v2_with_required_lock_times_is_refused() -> None:
    me = key_n(1)
    psbt = build_psbt([p2wpkh(me)], [pay_to(5, 90_000)])
    psbt.version = 2
    set_unknown(psbt.inputs[0], b"\x11", (600_000_000).to_bytes(4, "little"))
    with pytest.raises(UnsupportedInputError, match="lock times"):
        sign_psbt(parse_psbt(psbt_to_bytes(psbt)), me, requests_for([0], 0x01))


@pytest.mark.parametrize(
    ("where", "key_type"),
    [("global", 0x02), ("global", 0x03), ("input", 0x10), ("input", 0x0E), ("output", 0x03)],
)
def test_a_version_0_psbt_with_version_2_fields_is_refused(where: str, key_type: int) -> None:
    """BIP-370: these fields must be excluded from version 0. embit would let them override
    the unsigned transaction, so another parser would read another transaction."""
    from tests.support.psbt_scenarios import SCENARIOS

    raw = bytearray(SCENARIOS["funding"]().psbt.serialize())
    value = (2).to_bytes(4, "little")
    entry = bytes([1, key_type, len(value)]) + value
    # Insert the entry at the start of the wanted map: the global map follows the magic; the
    # first input map follows the global map's terminating 0x00, found by re-serialising.
    if where == "global":
        at = len(b"psbt\xff")
    else:
        psbt = SCENARIOS["funding"]().psbt
        global_len = len(psbt.serialize()) - sum(
            len(m.serialize()) for m in (*psbt.inputs, *psbt.outputs)
        )
        at = (
            global_len
            if where == "input"
            else global_len + sum(len(m.serialize()) for m in psbt.inputs)
        )
    raw[at:at] = entry
    with pytest.raises(PsbtDecodeError, match="version 2 field"):
        parse_psbt(bytes(raw))


@pytest.mark.parametrize("version", [1, 3, 0xFFFFFFFF])
def test_a_psbt_of_a_version_other_than_0_or_2_is_refused(version: int) -> None:
    """BIP-174: a parser must fail on a version it does not support. A fuzzer found a version
    1 PSBT that parsed, was approved, and no longer parsed once written out again."""
    from tests.support.psbt_scenarios import SCENARIOS

    raw = bytearray(SCENARIOS["funding"]().psbt.serialize())
    value = version.to_bytes(4, "little")
    raw[len(b"psbt\xff") : len(b"psbt\xff")] = bytes([1, 0xFB, len(value)]) + value
    with pytest.raises(PsbtDecodeError, match=f"unsupported PSBT version {version}"):
        parse_psbt(bytes(raw))
