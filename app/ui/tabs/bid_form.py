"""The Bid tab's form: ordinals or runes, the target (a collection with completion, or an
inscription-number range), price (sats or BTC, 1,000-sat steps), quantity, expiry (presets or
a date and time), the fee rate the fill is asked at (the service's named rates with their
estimates, or sat/vB) and traits. Each field has its own message line under it, where the preview
shows the rules it breaks: one line of height is kept for it even when empty, so nothing moves
under the cursor while the user types, and a field that starts empty says it is missing only
once it was edited (or Place was tried). Ordinals and runes each keep their own values
(`bid_kind_memory`): switching shows the other kind's, never carries a name, price or quantity
across. The rune field suggests the service's rune names matched whatever their spacers
(`bid_rune_completion`). `draft(now_ms)` reads it all
as a `BidDraft`; the rune's lookup in ord (pending, failed, etched) and a collection the service
said it does not know are kept here for the tab to decide whether anything can be signed."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
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
    QListView,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.bid_fee_rate import MIN_BID_FEE_RATE, BidFeeRate, FeeRateName
from app.core.limits import MAX_TRAITS_PER_REQUEST, MIN_BID_EXPIRY_MS
from app.ui import strings
from app.ui.tabs.bid_form_lines import MessageLine, with_message
from app.ui.tabs.bid_kind_memory import STARTS_EMPTY, KindValues, apply_values, read_values
from app.ui.tabs.bid_preview import (
    EXPIRY,
    KIND,
    PRICE,
    QUANTITY,
    SLUG,
    TRAITS,
    BidDraft,
)
from app.ui.tabs.bid_rune_completion import RuneCompletion
from app.ui.widgets import message_label
from app.ui.widgets.amount_edit import AmountEdit
from app.ui.widgets.fee_picker import FeePicker, FeePreset
from app.ui.widgets.trait_picker import TraitPicker

if TYPE_CHECKING:
    from app.services.sandbox_facts import CollectionInfo

COLLECTION = "collection"
RUNE_SCOPE = "rune"
CUSTOM_EXPIRY = -1
# A preset's expiry is fixed when Place is pressed, then the question is answered, the message
# signed and sent (a rate-limit wait included): the service counts its 15 minutes from the
# request's arrival, so "15 minutes" from the click alone would always arrive too short.
PRESET_SPARE_MS = 2 * 60_000
MAX_QUANTITY = 1_000_000
# Long choices are elided in the closed box rather than widening the form (about 24 letters).
COMBO_MIN_CHARS = 24
# The service's named rates (feeRate), fastestFee first: its default, chosen to start with.
# The wire name is said in the tooltip; the label says what it means.
BID_FEE_PRESETS = tuple(
    FeePreset(
        label,
        name.target_blocks,
        unknown,
        name,
        strings.BID_FEE_NAME_TIP.format(name=name.value)
        + (strings.BID_FEE_DEFAULT_TIP if name is FeeRateName.FASTEST else ""),
    )
    for label, unknown, name in (
        (strings.BID_FEE_FASTEST, strings.BID_FEE_FASTEST_UNKNOWN, FeeRateName.FASTEST),
        (strings.BID_FEE_HALF_HOUR, strings.BID_FEE_HALF_HOUR_UNKNOWN, FeeRateName.HALF_HOUR),
        (strings.BID_FEE_HOUR, strings.BID_FEE_HOUR_UNKNOWN, FeeRateName.HOUR),
        (strings.BID_FEE_MINIMUM, strings.BID_FEE_MINIMUM_UNKNOWN, FeeRateName.MINIMUM),
    )
)


class RuneLookup(Enum):
    """Where ord's answer on the rune field's name stands."""

    PENDING = "pending"  # not asked yet, or asking: its etched spelling is not known
    FAILED = "failed"  # not a rune name, no such rune, or ord could not be asked
    ETCHED = "etched"  # the field holds the etched spelling ord gave


class BidForm(QWidget):
    changed = Signal()
    edited = Signal()  # the user changed a field (not the estimates or a lookup arriving)
    slug_committed = Signal(str)  # the user finished typing or picked a collection slug

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._collections: dict[str, CollectionInfo] = {}
        # The traits in the picker and their counts (type, value, count)
        self._shown_traits: tuple[
            tuple[tuple[str, tuple[str, ...]], ...], tuple[tuple[str, str, int], ...]
        ] = ((), ())
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
        self.scope.setToolTip("\n".join(strings.BID_SCOPES.values()))
        # What the (disabled) target says of a rune bid; never offered in the ordinals list.
        self.scope.addItem(strings.BID_SCOPE_RUNE, RUNE_SCOPE)
        self.rune_scope = self.scope.count() - 1
        self.slug = QLineEdit()
        self.slug_names = QStringListModel(self)
        completer = QCompleter(self.slug_names, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.slug_completer = completer
        self.slug.setCompleter(completer)
        self.rune_completion = RuneCompletion(self.slug, self)
        self.slug_hint = message_label("hint")  # what the catalog says of the slug
        self.slug_hint.setVisible(False)
        self._searchable = True  # the suggestions are every collection the service has
        self._etched: set[str] = set()  # rune names ord confirmed as etched spellings
        self._rune_failures: dict[str, str] = {}  # a typed rune name -> why ord refused it
        self._unknown_slugs: set[str] = set()  # slugs the service said it knows no collection of
        self._noted_slug = ""  # the slug the catalog's note (show_slug_note) is about
        self._traits_typed: set[str] = set()  # slugs whose traits the service cannot list
        self._looked_up: set[str] = set()  # slugs the service described (their traits known)
        self._pristine = set(STARTS_EMPTY)  # fields not edited since they were emptied
        self._kept: dict[bool, KindValues] = {}  # runes? -> the values of the kind not shown
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
        for combo in (self.scope, self.fee_rate.choice):
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(COMBO_MIN_CHARS)
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
        self.lines: dict[str, MessageLine] = {}
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
                # Kind is never wrong from the form alone; nothing is below the traits.
                line = MessageLine(
                    {PRICE: self.price_hint, SLUG: self.slug_hint}.get(field_key),
                    reserve=field_key not in (KIND, TRAITS),
                    lines=2 if field_key == SLUG else 1,  # the catalog's notes run to two
                )
                self.lines[field_key] = line
                self.messages[field_key] = line.error
                form.addRow(row_label, with_message(widget, line))
                self.labels[field_key] = row_label
            row_label.setBuddy(widget.focusProxy() or widget)
        self.labels[SLUG].setBuddy(self.slug)
        self.labels[PRICE].setBuddy(self.price.edit)
        self.labels[TRAITS].setBuddy(self.traits.search)
        self.labels[KIND].setBuddy(self.ordinals_radio)

        self.ordinals_radio.toggled.connect(self._kind_switched)
        for signal in (self.scope.currentIndexChanged, self.expiry_preset.currentIndexChanged):
            signal.connect(self._layout_changed)
        self.slug.textChanged.connect(self._slug_changed)
        self.slug.editingFinished.connect(self._slug_committed)
        completer.activated.connect(self._slug_committed)
        self.rune_completion.chosen.connect(self._rune_chosen)
        self.price.changed.connect(self.changed)
        self.quantity.valueChanged.connect(self.changed)
        self.expiry_at.dateTimeChanged.connect(self.changed)
        self.fee_rate.changed.connect(self.changed)
        self.traits.changed.connect(self.changed)
        self.slug.textEdited.connect(lambda _text: self._touched(SLUG))
        self.price.edit.textEdited.connect(lambda _text: self._touched(PRICE))
        self.price.edit.stepped.connect(lambda _step: self._touched(PRICE))
        for user_signal in (
            self.price.unit.activated,
            self.quantity.valueChanged,
            self.scope.activated,
            self.expiry_preset.activated,
            self.expiry_at.dateTimeChanged,
            self.fee_rate.choice.activated,
            self.fee_rate.custom.valueChanged,
            self.traits.changed,
        ):
            user_signal.connect(self.edited)
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
        """A preset counts from `now_ms` (the service clock) with `PRESET_SPARE_MS` to spare;
        a date and time must be at least 15 minutes ahead of it."""
        minutes = self.expiry_preset.currentData()
        if minutes != CUSTOM_EXPIRY:
            return now_ms + int(minutes) * 60_000 + PRESET_SPARE_MS
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
        self._looked_up.add(info.slug)
        self._unknown_slugs.discard(info.slug)
        self.slug_names.setStringList([] if self.runes else sorted(self._collections))
        self._slug_changed()

    def set_rune_names(self, names: Sequence[str]) -> None:
        """The service's etched rune names, suggested in the rune field."""
        self.rune_completion.set_names(names)

    def collection(self, slug: str) -> CollectionInfo | None:
        return self._collections.get(slug.strip())

    def show_slug_note(self, text: str, level: str = "hint") -> None:
        """The catalog's word on the slug (empty: none)."""
        self.lines[SLUG].set_hint(text, level)

    def _slug_committed(self, *_: object) -> None:
        slug = self.slug.text().strip()
        if slug and (self.runes or self.scope.currentData() == COLLECTION):
            self._pristine.discard(SLUG)
            self.slug_committed.emit(slug)

    def _rune_chosen(self, _name: str) -> None:
        self._touched(SLUG)
        self._slug_committed()

    # -- what the catalog learnt -----------------------------------------------------------

    def mark_etched(self, name: str) -> None:
        """`name` is a rune's etched spelling, as ord gave it."""
        self._etched.add(name)
        self.changed.emit()

    def mark_rune_looking(self, typed: str) -> None:
        """ord is asked (again) about `typed`: an earlier failure no longer stands."""
        if self._rune_failures.pop(typed, None) is not None:
            self.changed.emit()

    def mark_rune_failed(self, typed: str, reason: str) -> None:
        """`typed` is not a rune ord knows (or ord could not say): nothing can be signed."""
        self._rune_failures[typed] = reason
        self.changed.emit()

    def rune_is_etched(self) -> bool:
        """The rune field holds an etched spelling: the message shown is the one signed."""
        return self.slug.text().strip() in self._etched

    def rune_lookup(self) -> tuple[RuneLookup, str]:
        """Where the rune field's name stands in ord, with the reason of a failure."""
        typed = self.slug.text().strip()
        if typed in self._etched:
            return RuneLookup.ETCHED, ""
        if typed in self._rune_failures:
            return RuneLookup.FAILED, self._rune_failures[typed]
        return RuneLookup.PENDING, ""

    def mark_unknown_collection(self, slug: str) -> None:
        """The service said it knows no collection `slug`: a bid on it would be refused."""
        self._unknown_slugs.add(slug)
        self._slug_changed()

    def collection_unknown(self) -> bool:
        """The collection field holds a slug the service said it does not know."""
        return self._traits_apply() and self.slug.text().strip() in self._unknown_slugs

    def mark_traits_typed(self, slug: str) -> None:
        """The service cannot list `slug`'s traits (no catalog, or not reachable): typed."""
        self._traits_typed.add(slug)
        self._slug_changed()

    # -- messages ----------------------------------------------------------------------------

    def show_errors(self, errors: dict[str, list[str]]) -> None:
        """Each field's broken rules under it; a field that starts empty only once edited."""
        for key, line in self.lines.items():
            shown = [] if key in self._pristine else errors.get(key, [])
            line.set_error("\n".join(shown))

    def reveal_errors(self) -> None:
        """Place was tried: every field says what it is missing, edited or not."""
        self._pristine.clear()
        self.changed.emit()

    def _touched(self, field_key: str) -> None:
        self._pristine.discard(field_key)
        self.edited.emit()

    def _traits_apply(self) -> bool:
        return not self.runes and self.scope.currentData() == COLLECTION

    def _kind_switched(self, *_: object) -> None:
        """Ordinals <-> runes: the kind left keeps its values, the kind chosen gets its own
        back (empty the first time); nothing crosses (`bid_kind_memory`)."""
        leaving = not self.runes
        self._kept[leaving] = read_values(self, leaving)
        apply_values(self, self._kept.get(self.runes, KindValues()))
        self._layout_changed()
        self.edited.emit()

    def pristine_fields(self) -> set[str]:
        return set(self._pristine)

    def set_pristine_fields(self, fields: frozenset[str]) -> None:
        self._pristine = set(fields)

    def refresh_slug(self) -> None:
        """Re-read the name field (its traits, notes), as after an edit."""
        self._slug_changed()

    def _layout_changed(self, *_: object) -> None:
        runes = self.runes
        collection = self.scope.currentData() == COLLECTION
        self.scope.setEnabled(not runes)
        scope_list = self.scope.view()
        if isinstance(scope_list, QListView):
            scope_list.setRowHidden(self.rune_scope, not runes)
        self.slug.setEnabled(runes or collection)
        self.labels[SLUG].setText(strings.BID_RUNE if runes else strings.BID_COLLECTION)
        self.slug.setPlaceholderText(
            strings.BID_RUNE_PLACEHOLDER if runes else strings.BID_COLLECTION_PLACEHOLDER
        )
        self.slug_names.setStringList([] if runes else sorted(self._collections))
        # The rune field has its own suggestions (spacers ignored): Qt's would compare text.
        self.slug.setCompleter(None if runes else self.slug_completer)  # type: ignore[arg-type]
        self.rune_completion.active = runes
        self.labels[PRICE].setText(strings.BID_RUNE_PRICE if runes else strings.BID_PRICE)
        self.lines[PRICE].set_hint(strings.BID_RUNE_PRICE_HINT if runes else strings.BID_PRICE_HINT)
        self.price.step = 10_000 if runes else 1_000
        self.labels[QUANTITY].setText(strings.BID_UNITS if runes else strings.BID_QUANTITY)
        self.expiry_at.setVisible(self.expiry_preset.currentData() == CUSTOM_EXPIRY)
        self.traits.setEnabled(self._traits_apply())
        self.traits.set_not_applicable(
            strings.BID_TRAITS_NOT_RUNES
            if runes
            else None
            if collection
            else strings.BID_TRAITS_NOT_RANGES
        )
        self._show_search_note()
        self.changed.emit()

    def _slug_changed(self, *_: object) -> None:
        slug = self.slug.text().strip()
        if slug != self._noted_slug:  # the catalog's word was on another slug: it goes
            self._noted_slug = slug
            self.show_slug_note("")
        info = self._collections.get(slug)
        traits = () if info is None else info.traits
        shown = (traits, () if info is None else info.trait_counts)  # counts may come later
        if shown != self._shown_traits:
            # Only the counts came: what was ticked stays ticked.
            keep = self.traits.selected() if traits == self._shown_traits[0] else []
            self._shown_traits = shown
            self.traits.set_traits(traits, None if info is None else info.count_of)
            self.traits.restore((), keep)
        # Until the service answered on this slug, its traits are still to come; once it
        # listed none (or cannot list any), they are typed.
        settled = bool(traits) or slug in self._looked_up or slug in self._traits_typed
        self.traits.set_waiting(not settled)
        self.traits.setEnabled(self._traits_apply())
        self._show_search_note()
        self.changed.emit()

    def _show_search_note(self) -> None:
        """Off the sandbox nothing lists every collection: say so while no slug is typed. Only
        that note goes when it no longer applies: the catalog's word on the name typed stays
        (the suggestions read again once cleared "“AB.” is not a rune name")."""
        empty_collection = (
            not self.runes
            and self.scope.currentData() == COLLECTION
            and not self.slug.text().strip()
        )
        if empty_collection and not self._searchable:
            self.show_slug_note(strings.BID_CATALOG_SEARCH_NONE)
        elif self.lines[SLUG].hint_shown()[0] == strings.BID_CATALOG_SEARCH_NONE:
            self.show_slug_note("")
