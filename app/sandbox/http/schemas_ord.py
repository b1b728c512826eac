"""Response models of the ord subset, shaped like ord's JSON API (`Accept: application/json`)."""

from __future__ import annotations

from pydantic import BaseModel


class RunePile(BaseModel):
    """A rune balance on one output, as ord's `/output` shows it."""

    amount: int
    divisibility: int
    symbol: str | None = None


class OrdOutput(BaseModel):
    address: str | None
    indexed: bool
    inscriptions: list[str]
    outpoint: str
    runes: dict[str, RunePile]
    sat_ranges: list[list[int]] | None
    script_pubkey: str
    spent: bool
    transaction: str
    value: int


class OrdRuneEntry(BaseModel):
    """The fields of ord's rune entry the sandbox knows (ord also has block, etching, mints,
    premine, terms, ...): `spaced_rune` is the rune's one canonical spelling."""

    spaced_rune: str
    divisibility: int
    number: int
    symbol: str | None = None


class OrdRune(BaseModel):
    """ord's `/rune/<RUNE>`: the entry, and `id`/`parent`, null on the sandbox (its runes have
    no etching transaction of ord's kind)."""

    entry: OrdRuneEntry
    id: str | None = None
    mintable: bool = False
    parent: str | None = None


class OrdRunesPage(BaseModel):
    """ord's `/runes` and `/runes/<PAGE>`: `[id, entry]` pairs, the newest rune first, with
    the neighbouring pages. The id is null on the sandbox, as in its `/rune/<RUNE>`."""

    entries: list[tuple[str | None, OrdRuneEntry]]
    more: bool
    prev: int | None = None
    next: int | None = None


class InscriptionTrait(BaseModel):
    trait_type: str
    value: str


class OrdInscription(BaseModel):
    """ord's inscription fields (with the older `genesis_*` names), plus the sandbox's
    `collection`, `traits` and `tap_transfer`. `output`, `offset`, `satpoint`, `address` and
    `value` are null while the inscription sits in a fee (until a coinbase receives it)."""

    id: str
    number: int
    address: str | None
    output: str | None
    offset: int | None
    satpoint: str | None
    value: int | None
    content_type: str | None = None
    genesis_txid: str
    genesis_height: int | None
    genesis_fee: int | None
    timestamp: int
    collection: str | None
    traits: list[InscriptionTrait]
    tap_transfer: bool
    charms: list[str]
    parents: list[str]
    children: list[str]
    sat: int | None


class OrdAddress(BaseModel):
    """ord's address JSON (plus the address itself); `runes_balances` entries are
    `[spaced rune, amount as decimal text, symbol]` as ord prints them."""

    address: str
    outputs: list[str]
    inscriptions: list[str]
    sat_balance: int
    runes_balances: list[list[str | None]]
