"""The Bid tab's form: ordinals or runes, the target (a collection with completion, or an
inscription-number range), price (sats or BTC, 1,000-sat steps), quantity, expiry (presets or
a date and time), the fee rate the fill is asked at (the service's named rates with their
estimates, or sat/vB) and traits. Each field has its own message line under it, where the preview
shows the rules it breaks. `draft(now_ms)` reads it all as a `BidDraft`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QDateTime, QStringListModel, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QCompleter,
    QDateTimeEdit,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.bid_fee_rate import MIN_BID_FEE_RATE, BidFeeRate, FeeRateName
from app.core.limits import MAX_TRAITS_PER_REQUEST, MIN_BID_EXPIRY_MS
from app.ui import strings
from app.ui.tabs.bid_preview import (
    EXPIRY,
    KIND,
    PRICE,
    QUANTITY,
    SLUG,
    TRAITS,
    BidDraft,
)
from app.ui.widgets import message_label, set_message
from app.ui.widgets.amount_edit import AmountEdit
from app.ui.widgets.fee_picker import FeePicker, FeePreset
from app.ui.widgets.trait_picker import TraitPicker

if TYPE_CHECKING:
    from app.services.sandbox_facts import CollectionInfo

COLLECTION = "collection"
CUSTOM_EXPIRY = -1
MAX_QUANTITY = 1_000_000
# The service's named rates (feeRate), fastestFee first: its default, chosen to start with.
BID_FEE_PRESETS = tuple(
    FeePreset(label, name.target_blocks, unknown, name)
    for label, unknown, name in (
        (strings.BID_FEE_FASTEST, strings.BID_FEE_FASTEST_UNKNOWN, FeeRateName.FASTEST),
        (strings.BID_FEE_HALF_HOUR, strings.BID_FEE_HALF_HOUR_UNKNOWN, FeeRateName.HALF_HOUR),
        (strings.BID_FEE_HOUR, strings.BID_FEE_HOUR_UNKNOWN, FeeRateName.HOUR),
        (strings.BID_FEE_MINIMUM, strings.BID_FEE_MINIMUM_UNKNOWN, FeeRateName.MINIMUM),
    )
)


def _with_message(widget: QWidget, hint: QLabel | None = None) -> tuple[QWidget, QLabel]:
    """`widget` with its error line under it (and an optional hint line)."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    layout.addWidget(widget)
    if hint is not None:
        layout.addWidget(hint)
    label = message_label("error")
    label.setVisible(False)
    layout.addWidget(label)
    return box, label


class BidForm(QWidget):
    changed = Signal()
    slug_committed = Signal(str)  # the user finished typing or picked a collection slug

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._collections: dict[str, CollectionInfo] = {}
        self._shown_traits: tuple[tuple[str, tuple[str, ...]], ...] = ()
        self.ordinals_radio = QRadioButton(strings.BID_KIND_ORDINALS)
        self.runes_radio = QRadioButton(strings.BID_KIND_RUNES)
        self.ordinals_radio.setChecked(True)
        self.kind_group = QButtonGroup(self)
        self.kind_group.addButton(self.ordinals_radio)
        self.kind_group.addButton(self.runes_radio)
        kind_row = QWidget()
        kind_layout = QHBoxLayout(kind_row)
        kind_layout.setContentsMargins(0, 0, 0, 0)
        kind_layout.addWidget(self.ordinals_radio)
        kind_layout.addWidget(self.runes_radio)
        kind_layout.addStretch(1)

        self.scope = QComboBox()
        for scope_key, scope_label in strings.BID_SCOPES.items():
            self.scope.addItem(scope_label, scope_key)
        self.slug = QLineEdit()
        self.slug_names = QStringListModel(self)
        completer = QCompleter(self.slug_names, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.slug.setCompleter(completer)
        self.slug_hint = message_label("hint")  # what the catalog says of the slug
        self.slug_hint.setVisible(False)
        self._searchable = True  # the suggestions are every collection the service has
        self._etched: set[str] = set()  # rune names ord confirmed as etched spellings
        self.price = AmountEdit(step=1_000)
        self.price.setMaximumWidth(320)
        self.price_hint = message_label("hint")
        self.quantity = QSpinBox()
        self.quantity.setRange(0, MAX_QUANTITY)
        self.quantity.setValue(1)
        self.quantity.setGroupSeparatorShown(True)
        self.quantity.setMaximumWidth(160)
        self.expiry_preset = QComboBox()
        for label, minutes in strings.BID_EXPIRY_PRESETS:
            self.expiry_preset.addItem(label, minutes)
        self.expiry_preset.addItem(strings.BID_EXPIRY_CUSTOM, CUSTOM_EXPIRY)
        self.expiry_preset.setCurrentIndex(3)  # 1 day
        self.expiry_at = QDateTimeEdit(QDateTime.currentDateTime().addDays(1))
        self.expiry_at.setCalendarPopup(True)
        self.expiry_at.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.expiry_at.setVisible(False)
        expiry_row = QWidget()
        expiry_layout = QHBoxLayout(expiry_row)
        expiry_layout.setContentsMargins(0, 0, 0, 0)
        expiry_layout.addWidget(self.expiry_preset)
        expiry_layout.addWidget(self.expiry_at, 1)
        self.fee_rate = FeePicker(
            presets=BID_FEE_PRESETS, default_preset=0, min_rate=MIN_BID_FEE_RATE
        )
        fee_row = QWidget()
        fee_layout = QVBoxLayout(fee_row)
        fee_layout.setContentsMargins(0, 0, 0, 0)
        fee_layout.setSpacing(2)
        fee_layout.addWidget(self.fee_rate)
        fee_hint = message_label("hint")
        fee_hint.setText(strings.BID_FEE_RATE_HINT)
        fee_layout.addWidget(fee_hint)
        fee_row.setFocusProxy(self.fee_rate)
        self.traits = TraitPicker(MAX_TRAITS_PER_REQUEST)

        self.messages: dict[str, QLabel] = {}
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        rows: Sequence[tuple[str, str | None, QWidget]] = (
            (strings.BID_KIND, KIND, kind_row),
            (strings.BID_SCOPE, None, self.scope),
            (strings.BID_COLLECTION, SLUG, self.slug),
            (strings.BID_PRICE, PRICE, self.price),
            (strings.BID_QUANTITY, QUANTITY, self.quantity),
            (strings.BID_EXPIRY, EXPIRY, expiry_row),
            (strings.BID_FEE_RATE, None, fee_row),
            (strings.BID_TRAITS, TRAITS, self.traits),
        )
        self.labels: dict[str, QLabel] = {}
        for text, field_key, widget in rows:
            row_label = QLabel(text)
            if field_key is None:
                form.addRow(row_label, widget)
            else:
                hint = {PRICE: self.price_hint, SLUG: self.slug_hint}.get(field_key)
                box, message = _with_message(widget, hint)
                self.messages[field_key] = message
                form.addRow(row_label, box)
                self.labels[field_key] = row_label
            row_label.setBuddy(widget.focusProxy() or widget)
        self.labels[SLUG].setBuddy(self.slug)
        self.labels[PRICE].setBuddy(self.price.edit)
        self.labels[TRAITS].setBuddy(self.traits.search)
        self.labels[KIND].setBuddy(self.ordinals_radio)

        for signal in (
            self.ordinals_radio.toggled,
            self.scope.currentIndexChanged,
            self.expiry_preset.currentIndexChanged,
        ):
            signal.connect(self._layout_changed)
        self.slug.textChanged.connect(self._slug_changed)
        self.slug.editingFinished.connect(self._slug_committed)
        completer.activated.connect(self._slug_committed)
        self.price.changed.connect(self.changed)
        self.quantity.valueChanged.connect(self.changed)
        self.expiry_at.dateTimeChanged.connect(self.changed)
        self.fee_rate.changed.connect(self.changed)
        self.traits.changed.connect(self.changed)
        self._layout_changed()

    # -- reading ------------------------------------------------------------------------------

    @property
    def runes(self) -> bool:
        return self.runes_radio.isChecked()

    def target(self) -> str:
        scope = str(self.scope.currentData())
        if not self.runes and scope != COLLECTION:
            return scope
        return self.slug.text().strip()

    def expiry_ms(self, now_ms: int) -> int | None:
        """A preset counts from `now_ms` (the service clock); a date and time must be at least
        15 minutes ahead of it."""
        minutes = self.expiry_preset.currentData()
        if minutes != CUSTOM_EXPIRY:
            return now_ms + int(minutes) * 60_000
        chosen = self.expiry_at.dateTime().toMSecsSinceEpoch()
        return chosen if chosen >= now_ms + MIN_BID_EXPIRY_MS else None

    def fee_rate_choice(self) -> BidFeeRate:
        """The service's named rate chosen, or the custom sat/vB (its range keeps it valid)."""
        preset = self.fee_rate.preset()
        if preset is not None and isinstance(preset.key, FeeRateName):
            return BidFeeRate.named(preset.key)
        return BidFeeRate.custom(self.fee_rate.custom.value())

    def draft(self, now_ms: int) -> BidDraft:
        return BidDraft(
            runes=self.runes,
            target=self.target(),
            price=self.price.value(),
            price_error=self.price.error(),
            quantity=self.quantity.value(),
            expiry_ms=self.expiry_ms(now_ms),
            traits=tuple(self.traits.selected()) if self._traits_apply() else (),
            fee_rate=self.fee_rate_choice(),
        )

    # -- showing ------------------------------------------------------------------------------

    def set_collections(
        self, collections: Sequence[CollectionInfo], *, searchable: bool = True
    ) -> None:
        """The collections to suggest; `searchable` False: they are only some (ours), and the
        user is told to type the slug."""
        known = {c.slug: c for c in self._collections.values() if c.traits}
        self._collections = {c.slug: c for c in collections} | known
        self._searchable = searchable
        self.slug_names.setStringList([] if self.runes else sorted(self._collections))
        self._slug_changed()

    def add_collection(self, info: CollectionInfo) -> None:
        """A collection the service described (its traits), kept for completion."""
        self._collections[info.slug] = info
        self.slug_names.setStringList([] if self.runes else sorted(self._collections))
        self._slug_changed()

    def collection(self, slug: str) -> CollectionInfo | None:
        return self._collections.get(slug.strip())

    def show_slug_note(self, text: str, level: str = "hint") -> None:
        """The catalog's word on the slug (empty: none)."""
        set_message(self.slug_hint, text, level)
        self.slug_hint.setVisible(bool(text))

    def _slug_committed(self, *_: object) -> None:
        slug = self.slug.text().strip()
        if slug and (self.runes or self.scope.currentData() == COLLECTION):
            self.slug_committed.emit(slug)

    def mark_etched(self, name: str) -> None:
        """`name` is a rune's etched spelling, as ord gave it."""
        self._etched.add(name)
        self.changed.emit()

    def rune_is_etched(self) -> bool:
        """The rune field holds an etched spelling: the message shown is the one signed."""
        return self.slug.text().strip() in self._etched

    def show_errors(self, errors: dict[str, list[str]]) -> None:
        for key, label in self.messages.items():
            set_message(label, "\n".join(errors.get(key, [])), "error")

    def _traits_apply(self) -> bool:
        return not self.runes and self.scope.currentData() == COLLECTION

    def _layout_changed(self, *_: object) -> None:
        runes = self.runes
        collection = self.scope.currentData() == COLLECTION
        self.scope.setEnabled(not runes)
        self.slug.setEnabled(runes or collection)
        self.labels[SLUG].setText(strings.BID_RUNE if runes else strings.BID_COLLECTION)
        self.slug.setPlaceholderText(
            strings.BID_RUNE_PLACEHOLDER if runes else strings.BID_COLLECTION_PLACEHOLDER
        )
        self.slug_names.setStringList([] if runes else sorted(self._collections))
        self.labels[PRICE].setText(strings.BID_RUNE_PRICE if runes else strings.BID_PRICE)
        self.price_hint.setText(strings.BID_RUNE_PRICE_HINT if runes else strings.BID_PRICE_HINT)
        self.price.step = 10_000 if runes else 1_000
        self.labels[QUANTITY].setText(strings.BID_UNITS if runes else strings.BID_QUANTITY)
        self.expiry_at.setVisible(self.expiry_preset.currentData() == CUSTOM_EXPIRY)
        self.traits.setEnabled(self._traits_apply())
        self._show_search_note()
        self.changed.emit()

    def _slug_changed(self, *_: object) -> None:
        info = self._collections.get(self.slug.text().strip())
        traits = () if info is None else info.traits
        if traits != self._shown_traits:
            self._shown_traits = traits
            self.traits.set_traits(traits)
        self.traits.setEnabled(self._traits_apply())
        self._show_search_note()
        self.changed.emit()

    def _show_search_note(self) -> None:
        """Off the sandbox nothing lists every collection: say so while no slug is typed."""
        if self.runes or self.scope.currentData() != COLLECTION:
            self.show_slug_note("")
        elif not self.slug.text().strip():
            self.show_slug_note("" if self._searchable else strings.BID_CATALOG_SEARCH_NONE)
