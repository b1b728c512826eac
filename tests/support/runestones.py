"""Runestone scripts for tests, written the way ord writes them (crates/ordinals/src/runestone.rs
`encipher`, ordinals/ord at 5241ef311e015cff4759a379085c8cc8913e621a): tag/value varints, then
the body tag and the edicts sorted by id, each id a delta from the previous one."""

from __future__ import annotations

from collections.abc import Sequence

# ord's Tag values (runestone/tag.rs) and Flag masks (runestone/flag.rs)
BODY, FLAGS, RUNE, PREMINE, CAP, AMOUNT = 0, 2, 4, 6, 8, 10
HEIGHT_START, HEIGHT_END, OFFSET_START, OFFSET_END, MINT, POINTER = 12, 14, 16, 18, 20, 22
TAG_CENOTAPH, DIVISIBILITY, SPACERS, SYMBOL, NOP = 126, 1, 3, 5, 127
ETCHING, TERMS, TURBO, FLAG_CENOTAPH = 1 << 0, 1 << 1, 1 << 2, 1 << 127
OP_RETURN, OP_13 = b"\x6a", b"\x5d"


def varint(n: int) -> bytes:
    """ord's LEB128 varint (varint.rs `encode`)."""
    out = bytearray()
    while n >> 7:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def push(data: bytes) -> bytes:
    if len(data) <= 75:
        return bytes([len(data)]) + data
    if len(data) <= 255:
        return b"\x4c" + bytes([len(data)]) + data
    return b"\x4d" + len(data).to_bytes(2, "little") + data


def stone_script(integers: Sequence[int]) -> bytes:
    """OP_RETURN OP_13 and the integers in one push."""
    return OP_RETURN + OP_13 + push(b"".join(varint(i) for i in integers))


def encipher(
    edicts: Sequence[tuple[int, int, int, int]] = (),
    *,
    pointer: int | None = None,
    mint: tuple[int, int] | None = None,
    etch: str | None = None,
    premine: int | None = None,
) -> bytes:
    """A runestone: edicts as (block, tx, amount, output); `etch` the etched rune's letters
    ("" to etch without a name)."""
    integers: list[int] = []
    if etch is not None:
        integers += [FLAGS, ETCHING]
        if etch:
            integers += [RUNE, rune_number(etch)]
        if premine is not None:
            integers += [PREMINE, premine]
    if mint is not None:
        integers += [MINT, mint[0], MINT, mint[1]]
    if pointer is not None:
        integers += [POINTER, pointer]
    if edicts:
        integers.append(BODY)
        block, tx = 0, 0
        for b, t, amount, output in sorted(edicts, key=lambda e: (e[0], e[1])):
            integers += [b - block, t - tx if b == block else t, amount, output]
            block, tx = b, t
    return stone_script(integers)


def rune_number(letters: str) -> int:
    """ord's `Rune` number of a name (bijective base 26: A = 0, Z = 25, AA = 26)."""
    n = 0
    for i, c in enumerate(letters):
        if i:
            n += 1
        n = n * 26 + (ord(c) - ord("A"))
    return n
