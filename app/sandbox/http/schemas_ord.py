"""Response models of the ord subset, shaped like ord's JSON API (`Accept: application/json`):
`api::Output`, `api::Inscription`, `api::Rune` with `RuneEntry` and `api::AddressInfo` of
ordinals/ord src/api.rs and src/index/entry.rs (compared field by field in
tests/sandbox/http/test_ord_like_real_ord.py)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class RunePile(BaseModel):
    """A rune balance on one output, as ord's `/output` shows it."""

    amount: int
    divisibility: int
    symbol: str | None = None


class OrdOutput(BaseModel):
    """An output as the last block left it: `indexed` false (and no inscriptions or runes)
    for an output of a mempool transaction or one spent in a block; `spent` counts the
    mempool, as ord's (Bitcoin Core's `gettxout` with the mempool)."""

    address: str | None
    confirmations: int
    indexed: bool
    inscriptions: list[str]
    outpoint: str
    runes: dict[str, RunePile]
    sat_ranges: list[list[int]] | None
    script_pubkey: str
    spent: bool
    transaction: str
    value: int


class OrdRuneTerms(BaseModel):
    amount: int | None = None
    cap: int | None = None
    height: tuple[int | None, int | None]
    offset: tuple[int | None, int | None]


class OrdRuneEntry(BaseModel):
    """ord's `RuneEntry`. A sandbox rune's etching is the transaction of its first balance:
    its first issue is the premine, each later one a mint (without terms)."""

    block: int
    burned: int
    divisibility: int
    etching: str
    mints: int
    number: int
    premine: int
    spaced_rune: str
    symbol: str | None = None
    terms: OrdRuneTerms | None = None
    timestamp: int
    turbo: bool


class OrdRune(BaseModel):
    """ord's `/rune/<RUNE>`: the entry, the id `<block>:<tx>` of its etching, whether a mint
    in the next block would count, and the parent inscription (`<etching>i0`, if any)."""

    entry: OrdRuneEntry
    id: str
    mintable: bool
    parent: str | None = None


class OrdRunesPage(BaseModel):
    """ord's `/runes` and `/runes/<PAGE>`: `[id, entry]` pairs, the newest rune first, with
    the neighbouring pages."""

    entries: list[tuple[str, OrdRuneEntry]]
    more: bool
    prev: int | None = None
    next: int | None = None


class InscriptionTrait(BaseModel):
    trait_type: str
    value: str


class OrdInscription(BaseModel):
    """ord's `api::Inscription` fields, plus the sandbox's `collection`, `traits` and
    `tap_transfer` and the older `output`, `offset` and `genesis_*` names. `satpoint`,
    `output`, `offset`, `address` and `value` are null for an inscription lost to fees."""

    address: str | None
    charms: list[str]
    child_count: int
    children: list[str]
    content_length: int | None
    content_type: str | None = None
    effective_content_type: str | None
    fee: int | None
    height: int | None
    id: str
    metaprotocol: str | None
    next: str | None
    number: int
    parents: list[str]
    previous: str | None
    properties: dict[str, Any]
    rune: str | None
    sat: int | None
    satpoint: str | None
    timestamp: int
    value: int | None
    output: str | None
    offset: int | None
    genesis_txid: str
    genesis_height: int | None
    genesis_fee: int | None
    collection: str | None
    traits: list[InscriptionTrait]
    tap_transfer: bool


class OrdAddress(BaseModel):
    """ord's address JSON (plus the address itself); `runes_balances` entries are
    `[spaced rune, amount as decimal text, symbol]` as ord prints them."""

    address: str
    outputs: list[str]
    inscriptions: list[str]
    sat_balance: int
    runes_balances: list[list[str | None]]
