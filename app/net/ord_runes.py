"""Rune balances as ord reports them, across the JSON shapes its versions have used.

``/output`` ``runes`` field:
- current (0.18.4 on): ``{"UNCOMMON•GOODS": {"amount": 2, "divisibility": 0, "symbol": "⧉"}}``
- 0.16.0-0.18.3: ``[["UNCOMMON•GOODS", {"amount": 2, "divisibility": 0, "symbol": "⧉"}]]``
- older: ``{"UNCOMMONGOODS": 2}`` (versions per ord's git tags; tests/contract/test_ord_contract.py)
``/runes`` and ``/runes/<PAGE>`` (etched runes, the newest first): ``{"entries": [["840000:3",
  {...an entry as above...}], ...], "more": true, "prev": null, "next": 1}`` (older: ``entries``
  alone).
``/address`` ``runes_balances``: ``[["RSIC•AUBERGINE", "1100000000", "🍆"], ...]`` (decimal text).
``/rune/<NAME>`` (a rune's entry):
- current: ``{"entry": {"spaced_rune": "UNCOMMON•GOODS", "divisibility": 0, "symbol": "⧉",
  "number": 0, ...}, "id": "1:0", "mintable": true, "parent": null}``
- older (before ``spaced_rune``): ``{"entry": {"rune": "UNCOMMONGOODS", "spacers": 128, ...},
  "id": ...}``

Output runes are parsed strictly (the funding coin selection relies on them); a malformed or
missing value raises ``BadResponse`` instead of being read as "no runes".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.core.rune_names import RuneNameError, SpacedRune, parse_spaced_rune
from app.net.errors import BadResponse
from app.net.fields import Reader, as_int, as_str, is_int


@dataclass(frozen=True)
class RuneBalance:
    """``amount`` is in the rune's smallest units (shift by ``divisibility`` to display)."""

    name: str
    amount: int
    divisibility: int | None = None
    symbol: str | None = None


@dataclass(frozen=True)
class RuneHolding:
    """An address's balance of one rune; ``amount`` is ord's decimal text (e.g. "12.5")."""

    name: str
    amount: str
    symbol: str | None = None


@dataclass(frozen=True)
class RuneEntry:
    """What ord says of one etched rune; ``spaced_name`` is its one canonical spelling."""

    spaced_name: str
    rune_id: str | None = None
    divisibility: int | None = None
    symbol: str | None = None
    number: int | None = None

    @property
    def letters(self) -> str:
        return self.spaced_name.replace("•", "")


def parse_rune_entry(r: Reader, body: Any) -> RuneEntry:
    """Either shape of ``/rune/<NAME>``; a name that breaks ord's rules is a ``BadResponse``."""
    outer = r.obj(body)
    entry = r.obj(outer.get("entry"), "entry")
    spaced = as_str(entry.get("spaced_rune"))
    try:
        if spaced is not None:
            name = str(parse_spaced_rune(spaced))
        else:
            letters, spacers = as_str(entry.get("rune")), as_int(entry.get("spacers")) or 0
            if letters is None:
                raise r.error("the rune entry has no name (spaced_rune or rune)", "spaced_rune")
            name = str(SpacedRune(parse_spaced_rune(letters).letters, spacers))
    except RuneNameError as exc:
        raise r.error(f"the rune entry's name is not a rune name: {exc}", "spaced_rune") from None
    return RuneEntry(
        spaced_name=name,
        rune_id=as_str(outer.get("id")),
        divisibility=as_int(entry.get("divisibility")),
        symbol=as_str(entry.get("symbol")),
        number=as_int(entry.get("number")),
    )


@dataclass(frozen=True)
class RunesPage:
    """One page of ord's rune list; ``next_page`` None when it is the last."""

    entries: tuple[RuneEntry, ...]
    next_page: int | None


def parse_runes_page(r: Reader, body: Any, page: int) -> RunesPage:
    """``/runes/<PAGE>`` in either shape. A malformed entry is a ``BadResponse``."""
    outer = r.obj(body)
    listed = outer.get("entries")
    if not isinstance(listed, list):
        raise r.error("missing field entries", "entries")
    entries = []
    for item in listed:
        if not (isinstance(item, list) and len(item) == 2):
            raise r.error("an entry is not an [id, entry] pair", "entries")
        entries.append(parse_rune_entry(r, {"entry": item[1], "id": item[0]}))
    more = outer.get("more")
    following = as_int(outer.get("next"))
    next_page = (following if following is not None else page + 1) if more is True else None
    return RunesPage(tuple(entries), next_page)


def parse_output_runes(r: Reader, value: Any, where: str) -> tuple[RuneBalance, ...]:
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, list):
        pairs = []
        for item in value:
            if not (isinstance(item, list) and len(item) == 2):
                raise _bad(r, where, "a runes entry is not a [name, balance] pair")
            pairs.append((item[0], item[1]))
    else:
        raise _bad(
            r,
            where,
            "ord did not report the runes on this output; refusing to treat it as carrying none",
        )
    return tuple(_balance(r, name, pile, where) for name, pile in pairs)


def _balance(r: Reader, name: Any, pile: Any, where: str) -> RuneBalance:
    if not isinstance(name, str) or not name:
        raise _bad(r, where, "a rune has no name")
    if isinstance(pile, Mapping):
        amount = as_int(pile.get("amount"))
        divisibility = as_int(pile.get("divisibility"))
        symbol = as_str(pile.get("symbol"))
    else:
        amount, divisibility, symbol = as_int(pile), None, None
    if amount is None or amount < 0:
        raise _bad(r, where, f"rune {name} has no readable amount")
    return RuneBalance(name=name, amount=amount, divisibility=divisibility, symbol=symbol)


def parse_runes_balances(value: Any) -> tuple[RuneHolding, ...] | None:
    """Tolerant: entries that do not look like ``[name, amount, symbol?]`` are skipped."""
    if not isinstance(value, list):
        return None
    holdings = []
    for item in value:
        if isinstance(item, list) and len(item) >= 2 and isinstance(item[0], str):
            raw = item[1]
            amount = raw if isinstance(raw, str) else str(raw) if is_int(raw) else None
            if amount:
                symbol = as_str(item[2]) if len(item) > 2 else None
                holdings.append(RuneHolding(item[0], amount, symbol))
    return tuple(holdings)


def _bad(r: Reader, where: str, problem: str) -> BadResponse:
    return r.error(f"{where}: {problem}", "runes")
