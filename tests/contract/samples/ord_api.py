"""ord's JSON API bodies (``ord server``, ``Accept: application/json``), current and older.

Sources, in https://github.com/ordinals/ord (snapshot 5241ef3, April 2026):
- DOCS: docs/src/guides/api.md, the examples copied value for value (long lists shortened,
  as noted at each).
- src/api.rs (``Output``, ``Inscription``, ``AddressInfo``) and tests/json_api.rs for shapes the
  docs do not show, serialised as serde writes those structs; older shapes from the struct at
  the tag named (``git show <tag>:<path>``).
"""

from __future__ import annotations

from typing import Any

OUTPOINT = "bc4c30829a9564c0d58e6287195622b53ced54a25711d1b86be7cd3a70ef61ed:0"
TXID = OUTPOINT.split(":")[0]
P2TR = "bc1pz4kvfpurqc2hwgrq0nwtfve2lfxvdpfcdpzc6ujchyr3ztj6gd9sfr6ayf"
SCRIPT_ASM = (
    "OP_PUSHNUM_1 OP_PUSHBYTES_32 156cc4878306157720607cdcb4b32afa4cc6853868458d7258b907112e5a434b"
)
INSCRIPTION = "6fb976ab49dcec017f1e201e84395983204ae1a7c2abf7ced0a85d692e442799i0"

# --- /output/<OUTPOINT> -----------------------------------------------------------------------

# DOCS `GET /output/<OUTPOINT>` (ord >= 0.23: `confirmations`; an output ord has not indexed).
OUTPUT_DOCS: dict[str, Any] = {
    "address": P2TR,
    "confirmations": 6,
    "indexed": False,
    "inscriptions": [],
    "outpoint": OUTPOINT,
    "runes": {},
    "sat_ranges": None,
    "script_pubkey": SCRIPT_ASM,
    "spent": True,
    "transaction": TXID,
    "value": 10000,
}

# tests/json_api.rs `outputs_address`, the runic output: runes is src/api.rs's
# `Option<BTreeMap<SpacedRune, Pile>>` (ord >= 0.18.4), Pile {amount: 1000, divisibility: 0,
# symbol: '¢'} of rune 99246114928149462 ("AAAAAAAAAAAAA").
OUTPUT_RUNIC: dict[str, Any] = {
    **OUTPUT_DOCS,
    "confirmations": 7,
    "indexed": True,
    "runes": {"AAAAAAAAAAAAA": {"amount": 1000, "divisibility": 0, "symbol": "¢"}},
    "spent": False,
}

# tests/json_api.rs `get_output`: three inscriptions; the server runs without --index-runes, so
# `runes` is None (src/api.rs, ord >= 0.22.1: "Return `None` for assets when asset index does
# not exist", #4141).
OUTPUT_NO_RUNE_INDEX: dict[str, Any] = {
    **OUTPUT_DOCS,
    "confirmations": 1,
    "indexed": True,
    "inscriptions": [f"{TXID}i0", f"{TXID}i1", f"{TXID}i2"],
    "runes": None,
    "sat_ranges": [[5000000000, 10000000000], [10000000000, 15000000000]],
    "spent": False,
}
# The same commit, the other index: a server without the inscription index.
OUTPUT_NO_INSCRIPTION_INDEX: dict[str, Any] = {**OUTPUT_RUNIC, "inscriptions": None}

# src/api.rs at tag 0.18.3 (0.16.0-0.18.3): no `outpoint`, runes `Vec<(SpacedRune, Pile)>`,
# script_pubkey as asm text.
OUTPUT_0_18: dict[str, Any] = {
    "address": P2TR,
    "indexed": True,
    "inscriptions": [INSCRIPTION],
    "runes": [["UNCOMMON•GOODS", {"amount": 2, "divisibility": 0, "symbol": "⧉"}]],
    "sat_ranges": None,
    "script_pubkey": SCRIPT_ASM,
    "spent": False,
    "transaction": TXID,
    "value": 10000,
}
# src/templates/output.rs at tag 0.15.0 (0.10.0-0.15.0): no `indexed`, runes
# `BTreeMap<Rune, u128>` (the letters, without spacers).
OUTPUT_0_15: dict[str, Any] = {
    "value": 10000,
    "script_pubkey": SCRIPT_ASM,
    "address": P2TR,
    "transaction": TXID,
    "sat_ranges": None,
    "inscriptions": [],
    "runes": {"UNCOMMONGOODS": 2},
}

# DOCS `POST /outputs`: both outputs of one transaction (this example has no `confirmations`).
OUTPUTS_DOCS: list[dict[str, Any]] = [
    {k: v for k, v in OUTPUT_DOCS.items() if k != "confirmations"},
    {
        "address": "bc1pkc2cdnm6xermt2vzxg9wwcur5prgpl6pms3xf9ydtyax5pnqsgwqvuu5cq",
        "indexed": False,
        "inscriptions": [],
        "outpoint": f"{TXID}:1",
        "runes": {},
        "sat_ranges": None,
        "script_pubkey": "5120b61586cf7a3647b5a982320ae76383a04680ff41dc2264948d593a6a0660821c",
        "spent": True,
        "transaction": TXID,
        "value": 483528,
    },
]

# DOCS `GET /outputs/<ADDRESS>?type=cardinal` (first entry; sat ranges shortened to one).
ADDRESS_OUTPUTS_DOCS: list[dict[str, Any]] = [
    {
        "address": "358mMRwcxuCSkKheuVWaXHJBGKrXo3f6JW",
        "indexed": True,
        "inscriptions": [],
        "outpoint": "6737d77ee9fba5f37e5f4128b03479209030bf44f78ffa3f4e94bf9783691b00:0",
        "runes": {},
        "sat_ranges": [[567775159437503, 567775159443555]],
        "script_pubkey": "a91425c70777dfcf84ba7479483e262e1bc7bb0bf4d587",
        "spent": False,
        "transaction": "6737d77ee9fba5f37e5f4128b03479209030bf44f78ffa3f4e94bf9783691b00",
        "value": 90000,
    }
]

# --- /inscription/<ID> ------------------------------------------------------------------------

# DOCS `GET /inscription/<INSCRIPTION_ID>` (children and properties shortened).
INSCRIPTION_DOCS: dict[str, Any] = {
    "address": "bc1ppth27qnr74qhusy9pmcyeaelgvsfky6qzquv9nf56gqmte59vfhqwkqguh",
    "charms": [],
    "children": ["681b5373c03e3f819231afd9227f54101395299c9e58356bda278e2f32bef2cdi0"],
    "content_length": 793,
    "content_type": "image/png",
    "effective_content_type": "image/png",
    "fee": 322,
    "height": 767430,
    "id": INSCRIPTION,
    "metaprotocol": "LOL-420",
    "next": "26482871f33f1051f450f2da9af275794c0b5f1c61ebf35e4467fb42c2813403i0",
    "number": 0,
    "parents": [],
    "previous": None,
    "properties": {"attributes": {"title": "hello", "traits": {"color": "blue"}}},
    "rune": None,
    "sat": None,
    "satpoint": "47c7260764af2ee17aa584d9c035f2e5429aefd96b8016cfe0e3f0bcf04869a3:0:0",
    "timestamp": 1671049920,
    "value": 606,
}
# src/templates/inscription.rs at tag 0.15.0 (`InscriptionJson`, before 0.16.0 renamed
# inscription_id/inscription_number/output_value/genesis_* to id/number/value/fee/height).
INSCRIPTION_0_15: dict[str, Any] = {
    "address": INSCRIPTION_DOCS["address"],
    "charms": [],
    "children": [],
    "content_length": 793,
    "content_type": "image/png",
    "genesis_fee": 322,
    "genesis_height": 767430,
    "inscription_id": INSCRIPTION,
    "inscription_number": 0,
    "next": None,
    "output_value": 606,
    "parent": None,
    "previous": None,
    "rune": None,
    "sat": None,
    "satpoint": INSCRIPTION_DOCS["satpoint"],
    "timestamp": 1671049920,
}

# --- /address/<ADDRESS> -----------------------------------------------------------------------

# DOCS `GET /address/<ADDRESS>` (outputs and inscriptions shortened to three each).
ADDRESS_DOCS: dict[str, Any] = {
    "outputs": [
        "ddf44a0e0080f458a1a1b6255a9fa0957f2611883a483c1901ccb0f59e3eb302:0",
        "77c5a00da7dcf2c8f965effd25dda16ec8ec8d6b8937e89bbbdf10a1dc5aeb0d:0",
        "36f5a76644ee3002483e08345feaa97a71c7a210050333a8f02e942af1294227:1434",
    ],
    "inscriptions": [
        "77c5a00da7dcf2c8f965effd25dda16ec8ec8d6b8937e89bbbdf10a1dc5aeb0di0",
        "1417086d6abf96f68287b799b13b0081ec895d0b4a5fb7b70d2fde404eeb8aa1i0",
        "eb6636995ba074472e4193dbf65bb268ef5379509d9fffb20ddd5857039f80abi1",
    ],
    "sat_balance": 22635,
    "runes_balances": [
        ["RSIC•AUBERGINE", "1100000000", "🍆"],
        ["SPACEY•CODARMOR", "279550", "🚀"],
        ["ISABEL•FOXEN•DUKE", "10000", "⚡"],
        ["EPIC•EPIC•EPIC•EPIC", "1000", "💥"],
    ],
}
# src/api.rs `AddressInfo` (ord >= 0.22.1): inscriptions and runes_balances are None without
# their index.
ADDRESS_NO_ASSET_INDEX: dict[str, Any] = {
    **ADDRESS_DOCS,
    "inscriptions": None,
    "runes_balances": None,
}

# --- /rune/<RUNE>, /blockheight ----------------------------------------------------------------

# DOCS `GET /rune/<RUNE>` (http://localhost/rune/UNCOMMONGOODS).
RUNE_DOCS: dict[str, Any] = {
    "entry": {
        "block": 1,
        "burned": 139,
        "divisibility": 0,
        "etching": "0000000000000000000000000000000000000000000000000000000000000000",
        "mints": 33891693,
        "number": 0,
        "premine": 0,
        "spaced_rune": "UNCOMMON•GOODS",
        "symbol": "⧉",
        "terms": {
            "amount": 1,
            "cap": 340282366920938463463374607431768211455,
            "height": [840000, 1050000],
            "offset": [None, None],
        },
        "timestamp": 0,
        "turbo": True,
    },
    "id": "1:0",
    "mintable": True,
    "parent": None,
}
# src/index/entry.rs at tag 0.16.0 (`RuneEntry` before `spaced_rune`, 0.15.0-0.16.x): the
# letters and a spacers bit field (bit 7: a spacer after the 8th letter).
RUNE_0_16: dict[str, Any] = {
    "entry": {
        "burned": 139,
        "divisibility": 0,
        "etching": "0000000000000000000000000000000000000000000000000000000000000000",
        "mint": None,
        "mints": 0,
        "number": 0,
        "rune": "UNCOMMONGOODS",
        "spacers": 128,
        "supply": 0,
        "symbol": "⧉",
        "timestamp": 0,
    },
    "id": "1:0",
    "mintable": False,
    "parent": None,
}

# DOCS `GET /blockheight`.
BLOCKHEIGHT_DOCS = 864330
