"""Rune names: ord's rules for what a name is, and comparing names whatever their spacers.

ord's rules (crates/ordinals, `Rune` and `SpacedRune` `from_str`):
- a rune is letters A-Z only, read as a bijective base-26 number that must fit in 128 bits
  (so at most 28 letters, and a 28-letter name at most `BCGDENLQRQWDSLRUGSNLBTMFIJAV`);
- its spaced name may put one spacer, '•' or '.', between two letters: never before the first
  letter, never after the last, never two in a row. ord writes every spacer as '•'.

Spacers are display only: the rune is its letters, so two names with the same letters name
the same rune, and its one canonical spelling is the `spaced_rune` of ord's entry (the
spacers chosen when it was etched). People type names loosely, so `parse_typed_rune`
also takes lower case, surrounding blanks and spacer look-alikes (`RUNE_SPACER_LOOKALIKES`)
before applying ord's rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SPACER: Final = "•"
# What ord accepts as a spacer when it reads a name.
ORD_SPACERS: Final = frozenset("•.")
# What people type for one: ord's two, the middle dots and bullets that look like them, a space.
RUNE_SPACER_LOOKALIKES: Final = frozenset("•.·∙‧⋅● ")
MAX_RUNE_LETTERS: Final = 28
MAX_RUNE_VALUE: Final = 2**128 - 1


class RuneNameError(ValueError):
    """Not a rune name by ord's rules; the message says which rule, in plain words."""


@dataclass(frozen=True)
class SpacedRune:
    """A rune name as ord holds it: the letters, and a spacer after letter i when bit i is set."""

    letters: str
    spacers: int = 0

    def __str__(self) -> str:
        out = []
        for i, letter in enumerate(self.letters):
            out.append(letter)
            if i < len(self.letters) - 1 and self.spacers & (1 << i):
                out.append(SPACER)
        return "".join(out)


def parse_spaced_rune(text: str) -> SpacedRune:
    """A name exactly as ord reads one (`SpacedRune::from_str`), or `RuneNameError`."""
    letters: list[str] = []
    spacers = 0
    for ch in text:
        if "A" <= ch <= "Z":
            letters.append(ch)
        elif ch in ORD_SPACERS:
            if not letters:
                raise RuneNameError("a rune name cannot start with a spacer")
            flag = 1 << (len(letters) - 1)
            if spacers & flag:
                raise RuneNameError("a rune name cannot have two spacers in a row")
            spacers |= flag
        else:
            raise RuneNameError(
                f"{ch!r} cannot be in a rune name: only letters A-Z, with '•' between them"
            )
    if not letters:
        raise RuneNameError("a rune name needs at least one letter")
    if spacers >> (len(letters) - 1):
        raise RuneNameError("a rune name cannot end with a spacer")
    name = "".join(letters)
    if rune_value(name) > MAX_RUNE_VALUE:
        raise RuneNameError(
            f"{name} is past the last rune name ({MAX_RUNE_LETTERS} letters at most, "
            "BCGDENLQRQWDSLRUGSNLBTMFIJAV the highest)"
        )
    return SpacedRune(name, spacers)


def rune_value(letters: str) -> int:
    """The number ord gives a name of letters A-Z (A = 0, Z = 25, AA = 26, ...)."""
    value = 0
    for i, ch in enumerate(letters):
        if i > 0:
            value += 1
        value = value * 26 + (ord(ch) - ord("A"))
    return value


def parse_typed_rune(text: str) -> SpacedRune:
    """What a user typed, read kindly: blanks around it dropped, letters upper-cased, each
    spacer look-alike read as '•'; then ord's rules (`RuneNameError` says which one failed)."""
    cleaned = "".join(SPACER if ch in RUNE_SPACER_LOOKALIKES else ch for ch in text.strip())
    return parse_spaced_rune(cleaned.upper())


def rune_letters(name: str) -> str:
    """The letters of a name, every spacer (or look-alike) dropped and upper-cased: the rune
    itself. Does not judge the name; `parse_typed_rune` does."""
    return "".join(ch for ch in name if ch not in RUNE_SPACER_LOOKALIKES).upper()


def same_rune(a: str, b: str) -> bool:
    """Whether two spellings name the same rune: equal letters, spacers ignored."""
    return rune_letters(a) == rune_letters(b)


# ord's `Rune` constants (crates/ordinals/src/rune.rs): names unlock over the first halving
# interval after the network's first rune height (0 on regtest and signet, 840,000 on
# mainnet), from 13 letters down to 1, a letter each `_UNLOCK_INTERVAL` blocks.
SUBSIDY_HALVING_INTERVAL: Final = 210_000
REGTEST_FIRST_RUNE_HEIGHT: Final = 0
_UNLOCKED: Final = 12
_UNLOCK_INTERVAL: Final = SUBSIDY_HALVING_INTERVAL // 12
# STEPS[n]: the value of the first name of n + 1 letters ("A" * (n + 1)).
_STEPS: Final = tuple(rune_value("A" * n) for n in range(1, MAX_RUNE_LETTERS + 1))
# The first reserved rune ("A" * 27): ord names unnamed etchings from here, never a chosen name.
RESERVED_RUNE_VALUE: Final = rune_value("A" * 27)


def rune_name(value: int) -> str:
    """The letters of rune number `value` (ord's `Display for Rune`); `rune_value` inverted."""
    if not 0 <= value <= MAX_RUNE_VALUE:
        raise ValueError(f"{value} is not a rune number (0 to 2^128 - 1)")
    n = value + 1
    letters: list[str] = []
    while n > 0:
        letters.append(chr(ord("A") + (n - 1) % 26))
        n = (n - 1) // 26
    return "".join(reversed(letters))


def minimum_at_height(height: int, first_rune_height: int = REGTEST_FIRST_RUNE_HEIGHT) -> int:
    """The lowest rune number ord lets a transaction of block `height` etch
    (`Rune::minimum_at_height`): a name below it is not etched."""
    offset = height + 1
    end = first_rune_height + SUBSIDY_HALVING_INTERVAL
    if offset < first_rune_height:
        return _STEPS[_UNLOCKED]
    if offset >= end:
        return 0
    progress = offset - first_rune_height
    length = _UNLOCKED - progress // _UNLOCK_INTERVAL
    low, high = _STEPS[length - 1], _STEPS[length]
    return high - (high - low) * (progress % _UNLOCK_INTERVAL) // _UNLOCK_INTERVAL


def rune_commitment(letters: str) -> bytes:
    """What an etching's commit must push in a tapscript (`Rune::commitment`): the rune's
    number in little-endian bytes, trailing zero bytes dropped."""
    value = rune_value(letters)
    return value.to_bytes(16, "little").rstrip(b"\x00")


def reserved_rune(block: int, tx: int) -> int:
    """The rune number ord gives an etching without a name (`Rune::reserved`), from the
    block and the transaction's index in it: never a name anyone can choose."""
    return RESERVED_RUNE_VALUE + ((block << 32) | tx)
