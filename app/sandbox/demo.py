"""First-start demo data: a few collections with traits (some values non-ASCII), inscriptions
in them held by sandbox "other collectors" (inscribed by commit and reveal with ord's envelope,
their traits in its metadata), a TAP transfer and two runes, all created with real
transactions and mined, so a new user sees a market at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.sandbox.chain.node import Node

COLLECTORS = ("collector-1", "collector-2", "collector-3")

DEMO_COLLECTIONS: list[dict[str, Any]] = [
    {
        "slug": "pixel-punks",
        "name": "Pixel Punks",
        "traits": [
            {"trait_type": "Background", "values": ["Blue", "Red", "Ünïcødé Gold"]},
            {"trait_type": "Eyes", "values": ["Laser", "🔥 Fire", "Sleepy"]},
            {"trait_type": "Hat", "values": ["Cap", "Crown", "None"]},
        ],
    },
    {
        "slug": "ordinal-cats",
        "name": "Ordinal Cats 猫",
        "traits": [
            {"trait_type": "Fur", "values": ["黒", "白", "三毛"]},
            {"trait_type": "Mood", "values": ["Happy 😺", "Grumpy"]},
        ],
    },
    {
        "slug": "satoshi-glyphs",
        "name": "Satoshi Glyphs",
        "traits": [{"trait_type": "Glyph", "values": ["₿", "Ω", "∞", "☯"]}],
    },
]

# (collection, attributes, owner index) per inscription.
DEMO_INSCRIPTIONS: list[tuple[str, dict[str, str], int]] = [
    ("pixel-punks", {"Background": "Blue", "Eyes": "Laser", "Hat": "Cap"}, 0),
    ("pixel-punks", {"Background": "Ünïcødé Gold", "Eyes": "🔥 Fire", "Hat": "Crown"}, 1),
    ("pixel-punks", {"Background": "Red", "Eyes": "Sleepy", "Hat": "None"}, 2),
    ("pixel-punks", {"Background": "Blue", "Eyes": "🔥 Fire", "Hat": "Crown"}, 0),
    ("ordinal-cats", {"Fur": "黒", "Mood": "Happy 😺"}, 1),
    ("ordinal-cats", {"Fur": "三毛", "Mood": "Grumpy"}, 2),
    ("ordinal-cats", {"Fur": "白", "Mood": "Happy 😺"}, 0),
    ("satoshi-glyphs", {"Glyph": "₿"}, 1),
    ("satoshi-glyphs", {"Glyph": "∞"}, 2),
]

DEMO_RUNES = [("DOG•GO•TO•THE•MOON", 1_000_000, 0), ("SANDBOX•DEMO•RUNE", 21_000, 1)]


def seed_demo(node: Node) -> None:
    """Create the demo data; skipped for collections that already have their items, so a
    first start interrupted half-way can simply run it again."""
    from app.sandbox.chain.inscribe_items import NewItem

    counts = {c["slug"]: c["inscriptionCount"] for c in node.collections()}
    existing = {slug for slug, count in counts.items() if count}
    owners = [node.sandbox_address(label) for label in COLLECTORS]
    new = [spec for spec in DEMO_COLLECTIONS if spec["slug"] not in existing]
    for spec in new:
        if spec["slug"] not in counts:  # else made before an interruption, still empty
            node.create_collection(spec["slug"], spec["name"], spec["traits"])
    slugs = {spec["slug"] for spec in new}
    # One commit and one reveal for all of them (ord's batch), the TAP transfer included.
    items = [
        NewItem(owners[owner], collection_slug=slug, attributes=attributes)
        for slug, attributes, owner in DEMO_INSCRIPTIONS
        if slug in slugs
    ]
    first_run = "pixel-punks" not in existing  # the extras go with the first collection
    if first_run:
        items.append(NewItem(owners[2], tap_transfer=True))
    if items:
        node.create_inscriptions(items)
    created_any = bool(new)
    if first_run:
        for rune, amount, owner in DEMO_RUNES:
            node.create_runes(owners[owner], rune, amount)
    if created_any:
        node.mine(1)
