"""Each kind of bid keeps its own form values: what was typed for an ordinals bid (target,
collection, price per item, quantity, ticked traits) comes back when the user returns from
runes, and the rune bid's name, total and units come back the other way. Nothing crosses:
a collection slug is no rune name, a price per item no total, a quantity of items no number
of units (a 500-unit rune bid once came back as 500 items of a sub10k range). The expiry and
the fill's fee rate mean the same for both kinds and are shared."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.ui.tabs.bid_preview import PRICE, SLUG

if TYPE_CHECKING:
    from app.ui.tabs.bid_form import BidForm

Pair = tuple[str, str]
# Fields that start empty: "missing" is said only once the user edited them (or tried Place).
STARTS_EMPTY = frozenset({SLUG, PRICE})


@dataclass(frozen=True)
class KindValues:
    """One kind's form values; the defaults are a form nobody has touched."""

    scope: int = 0  # index of the ordinals target (a collection or a range)
    slug: str = ""
    price_unit: int = 0  # sats
    price_text: str = ""
    quantity: int = 1
    traits_listed: tuple[Pair, ...] = ()  # every pair offered, typed ones included
    traits_checked: tuple[Pair, ...] = ()
    pristine: frozenset[str] = STARTS_EMPTY
    slug_note: tuple[str, str] = ("", "hint")  # the catalog's word on the name, as shown


def read_values(form: BidForm, runes: bool) -> KindValues:
    """What the form holds now, for the kind it showed (`runes`: the kind radio has already
    moved on when this is read)."""
    return KindValues(
        scope=form.scope.currentIndex(),
        slug=form.slug.text(),
        price_unit=form.price.unit.currentIndex(),
        price_text=form.price.edit.text(),
        quantity=form.quantity.value(),
        traits_listed=() if runes else tuple(form.traits.pairs()),
        traits_checked=() if runes else tuple(form.traits.selected()),
        pristine=frozenset(form.pristine_fields()),
        slug_note=form.lines[SLUG].hint_shown(),
    )


def apply_values(form: BidForm, values: KindValues) -> None:
    """Put `values` back in the form without reporting them as the user's edits."""
    widgets = (form.scope, form.slug, form.price.edit, form.price.unit, form.quantity)
    for widget in widgets:
        widget.blockSignals(True)
    try:
        form.scope.setCurrentIndex(form.rune_scope if form.runes else values.scope)
        form.slug.setText(values.slug)
        form.quantity.setValue(values.quantity)
        form.price.edit.clear()  # the unit first: a unit change converts the text it finds
    finally:
        for widget in widgets:
            widget.blockSignals(False)
    form.price.unit.setCurrentIndex(values.price_unit)
    form.price.edit.blockSignals(True)
    form.price.edit.setText(values.price_text)
    form.price.edit.blockSignals(False)
    form.set_pristine_fields(values.pristine)
    form.refresh_slug()  # the collection's traits for the slug, as the catalog knows them
    if values.traits_checked or values.traits_listed:
        form.traits.restore(values.traits_listed, values.traits_checked)
    form.show_slug_note(*values.slug_note)
