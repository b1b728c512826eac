"""A minimal BIP-174 key-value codec: a PSBT's serialized bytes split into its maps, and back.

A PSBT is the magic `psbt\\xff`, then the global map, one map per input and one per output.
Each map is a list of key-value pairs ended by a 0x00 byte; a key and a value are each a
compact-size length followed by that many bytes, and a key's first byte is its type (the rest
is key data). The number of input and output maps comes from the global unsigned transaction
(PSBTv0, BIP-174) or from PSBT_GLOBAL_INPUT_COUNT / OUTPUT_COUNT (PSBTv2, BIP-370).

Unlike embit's objects, which drop or refuse what they do not model, the maps keep every pair
as it is (unknown keys, duplicate keys, PSBTv2 fields). Field numbers, by source:

- BIP-174 (PSBTv0): global 0x00 UNSIGNED_TX, 0x01 XPUB, 0xFB VERSION, 0xFC PROPRIETARY; input
  0x00 NON_WITNESS_UTXO .. 0x08 FINAL_SCRIPTWITNESS; output 0x00 REDEEM_SCRIPT, 0x01
  WITNESS_SCRIPT, 0x02 BIP32_DERIVATION.
- BIP-370 (PSBTv2): global 0x02 TX_VERSION, 0x03 FALLBACK_LOCKTIME, 0x04 INPUT_COUNT,
  0x05 OUTPUT_COUNT, 0x06 TX_MODIFIABLE; input 0x0e PREVIOUS_TXID, 0x0f OUTPUT_INDEX,
  0x10 SEQUENCE, 0x11 REQUIRED_TIME_LOCKTIME, 0x12 REQUIRED_HEIGHT_LOCKTIME; output 0x03
  AMOUNT, 0x04 SCRIPT.
- BIP-371 (taproot): input 0x13 TAP_KEY_SIG .. 0x18 TAP_MERKLE_ROOT; output 0x05
  TAP_INTERNAL_KEY, 0x06 TAP_TREE, 0x07 TAP_BIP32_DERIVATION.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO
from typing import Literal

from embit import compact
from embit.transaction import Transaction

MAGIC = b"psbt\xff"

# BIP-174 / BIP-370 global types.
GLOBAL_UNSIGNED_TX = 0x00
GLOBAL_XPUB = 0x01
GLOBAL_TX_VERSION = 0x02  # BIP-370
GLOBAL_FALLBACK_LOCKTIME = 0x03  # BIP-370
GLOBAL_INPUT_COUNT = 0x04  # BIP-370
GLOBAL_OUTPUT_COUNT = 0x05  # BIP-370
GLOBAL_TX_MODIFIABLE = 0x06  # BIP-370
GLOBAL_VERSION = 0xFB  # BIP-174
PROPRIETARY = 0xFC  # BIP-174, in every map
# BIP-174 / BIP-370 / BIP-371 input types the raw mutations use.
IN_NON_WITNESS_UTXO = 0x00
IN_WITNESS_UTXO = 0x01
IN_PARTIAL_SIG = 0x02
IN_SIGHASH_TYPE = 0x03
IN_PREVIOUS_TXID = 0x0E  # BIP-370
IN_OUTPUT_INDEX = 0x0F  # BIP-370
IN_SEQUENCE = 0x10  # BIP-370
IN_REQUIRED_TIME_LOCKTIME = 0x11  # BIP-370
IN_REQUIRED_HEIGHT_LOCKTIME = 0x12  # BIP-370
IN_TAP_KEY_SIG = 0x13  # BIP-371
# BIP-370 output types.
OUT_AMOUNT = 0x03
OUT_SCRIPT = 0x04

Pair = tuple[bytes, bytes]  # (key: type byte + key data, value)


class RawDecodeError(ValueError):
    """The bytes are not a PSBT this codec can split into maps."""


def _read_string(stream: BytesIO) -> bytes:
    try:
        n = compact.read_from(stream)
    except Exception as exc:  # embit raises on a truncated compact size
        raise RawDecodeError("truncated length") from exc
    data = stream.read(n)
    if len(data) != n:
        raise RawDecodeError("truncated key or value")
    return data


def _read_map(stream: BytesIO) -> list[Pair]:
    pairs: list[Pair] = []
    while True:
        key = _read_string(stream)
        if not key:
            return pairs
        pairs.append((key, _read_string(stream)))


def _string(data: bytes) -> bytes:
    return bytes(compact.to_bytes(len(data))) + data


def u32(n: int) -> bytes:
    """`n` as 4 little-endian bytes (a version, lock time, sequence or index field)."""
    return n.to_bytes(4, "little")


@dataclass
class RawPsbt:
    """The maps of a PSBT, in order, and whatever follows the last map (normally nothing)."""

    globals: list[Pair]
    inputs: list[list[Pair]]
    outputs: list[list[Pair]]
    trailer: bytes = b""

    @classmethod
    def decode(cls, data: bytes) -> RawPsbt:
        if not data.startswith(MAGIC):
            raise RawDecodeError("no PSBT magic")
        stream = BytesIO(data[len(MAGIC) :])
        glob = _read_map(stream)
        n_in, n_out = _map_counts(glob)
        inputs = [_read_map(stream) for _ in range(n_in)]
        outputs = [_read_map(stream) for _ in range(n_out)]
        return cls(glob, inputs, outputs, stream.read())

    def encode(self) -> bytes:
        out = bytearray(MAGIC)
        for pairs in (self.globals, *self.inputs, *self.outputs):
            for key, value in pairs:
                out += _string(key) + _string(value)
            out += b"\x00"
        return bytes(out) + self.trailer

    def scope(self, kind: Scope, index: int) -> list[Pair] | None:
        """The global map, or input/output map `index` (modulo their number; None if none)."""
        if kind == "global":
            return self.globals
        maps = self.inputs if kind == "input" else self.outputs
        return maps[index % len(maps)] if maps else None

    def unsigned_tx(self) -> Transaction | None:
        value = get(self.globals, bytes([GLOBAL_UNSIGNED_TX]))
        return None if value is None else Transaction.parse(value)


Scope = Literal["global", "input", "output"]


def _map_counts(glob: list[Pair]) -> tuple[int, int]:
    tx = get(glob, bytes([GLOBAL_UNSIGNED_TX]))
    if tx is not None:
        try:
            parsed = Transaction.parse(tx)
        except Exception as exc:
            raise RawDecodeError("unreadable unsigned transaction") from exc
        return len(parsed.vin), len(parsed.vout)
    counts = [get(glob, bytes([t])) for t in (GLOBAL_INPUT_COUNT, GLOBAL_OUTPUT_COUNT)]
    if counts[0] is None or counts[1] is None:
        raise RawDecodeError("neither an unsigned transaction nor PSBTv2 counts")
    try:
        return compact.from_bytes(counts[0]), compact.from_bytes(counts[1])
    except Exception as exc:
        raise RawDecodeError("unreadable PSBTv2 counts") from exc


def get(pairs: list[Pair], key: bytes) -> bytes | None:
    return next((v for k, v in pairs if k == key), None)


def put(pairs: list[Pair], key: bytes, value: bytes) -> None:
    """Replace the first pair with `key` (keeping its place), or append one."""
    for i, (k, _) in enumerate(pairs):
        if k == key:
            pairs[i] = (key, value)
            return
    pairs.append((key, value))
