"""Table models the PSBT review dialog draws: inputs and outputs (the rows of a bulk review's
list of PSBTs: `review_plans`).

Pure formatting of `app.core.psbt_review.Review`: no decision is taken here. Each cell is a
`Cell` (text, optional colour name from the theme, tooltip) held in a read-only `RowsModel`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from app.ui import strings
from app.ui.theme import ThemeState
from app.ui.widgets import plain_tooltip

if TYPE_CHECKING:
    # Typing only: `RowsModel` is used by tabs built at startup; the core review model loads
    # with the first review. Roles and risks are string enums, so the tables below key on
    # their values.
    from app.core.psbt_review import InputReview, OutputReview, Review
    from app.core.psbt_review_context import Role
    from app.core.psbt_review_parties import Party
    from app.core.signing_policy import Verdict

# Role colours, chosen to read on both themes' table backgrounds (light first, dark second).
ROLE_COLORS: dict[str, tuple[str, str]] = {
    "your payment address": ("#1f5fbf", "#8ab4ff"),
    "your ordinals address": ("#7c3aed", "#c4a7ff"),
    "your bidding wallet": ("#0f766e", "#5eead4"),
    "the service": ("#a16207", "#facc15"),
    "someone else": ("#b42318", "#ff8a80"),
    "OP_RETURN (data, burned)": ("#6b7280", "#9aa3b2"),
    "unknown (no UTXO data)": ("#b42318", "#ff8a80"),
}
RISK_COLOR_NAMES = {"ok": "ok", "note": "warning", "danger": "error"}

SIZE_FROM_ROWS = 25  # tables size their columns from this many rows (Qt measures all by default)
_Index = QModelIndex | QPersistentModelIndex


class ReviewedPsbt(Protocol):
    """What the dialog draws: a services plan (approved) or a refusal (PsbtRefusedError)."""

    @property
    def review(self) -> Review: ...

    @property
    def verdict(self) -> Verdict: ...

    @property
    def label(self) -> str: ...  # what the user asked ("" when nothing better)


def psbt_text(plan: object) -> str | None:
    """The PSBT of a reviewed plan as served (base64), for export; None when the plan holds
    none (a refusal drawn from an error carries only its review and verdict)."""
    text = getattr(plan, "psbt_base64", None)
    return text if isinstance(text, str) and text else None


def role_color(role: Role | str) -> str:
    light, dark = ROLE_COLORS[str(role)]
    return dark if ThemeState.name == "dark" else light


def sats(value: int | None) -> str:
    return strings.REVIEW_UNKNOWN if value is None else f"{value:,} sats"


def short(text: str, keep: int = 10) -> str:
    """'bcrt1qxy…9f3k': long ids and addresses fit a column; the tooltip has them whole."""
    return text if len(text) <= 2 * keep + 1 else f"{text[:keep]}…{text[-keep:]}"


@dataclass(frozen=True)
class Cell:
    text: str
    color: str | None = None  # a colour (#rrggbb) or a theme colour name
    tooltip: str | None = None


class RowsModel(QAbstractTableModel):
    """A read-only table of `Cell`s; `set_rows` replaces everything in one reset."""

    def __init__(self, headers: Sequence[str]) -> None:
        super().__init__()
        self._headers = tuple(headers)
        self._rows: list[tuple[Cell, ...]] = []

    def set_rows(self, rows: Sequence[Sequence[Cell]]) -> None:
        self.beginResetModel()
        self._rows = [tuple(r) for r in rows]
        self.endResetModel()

    def cell(self, row: int, column: int) -> Cell:
        return self._rows[row][column]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headers[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        cell = self._rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return cell.text
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(cell.tooltip or cell.text)
        if role == Qt.ItemDataRole.ForegroundRole and cell.color is not None:
            color = ThemeState.colors.get(cell.color, cell.color)
            return QBrush(QColor(color))
        return None


def sighash_cell(inp: InputReview) -> Cell:
    """The sighash an input of ours is signed with, its risk in words when not OK."""
    if not inp.is_ours:  # its owner signs it: what the PSBT asks of them is not a risk of ours
        return Cell(strings.REVIEW_SIGHASH_THEIRS, "muted", strings.REVIEW_SIGHASH_THEIRS_TIP)
    risk = str(inp.sighash.risk)
    name = strings.REVIEW_SIGHASH_DEFAULT if inp.sighash.value is None else inp.sighash.name
    if risk != "ok":
        name = strings.REVIEW_SIGHASH_RISK.format(name=name, risk=strings.REVIEW_RISKS[risk])
    return Cell(name, RISK_COLOR_NAMES[risk], inp.sighash.explanation)


def input_rows(review: Review, parties: Sequence[Party]) -> list[tuple[Cell, ...]]:
    """One row per input; `parties` names each input's owner (`psbt_review_parties`)."""
    return [_input_row(inp, p) for inp, p in zip(review.inputs, parties, strict=True)]


def _input_row(inp: InputReview, party: Party) -> tuple[Cell, ...]:
    if inp.contents is None:
        carries = Cell(strings.REVIEW_UNKNOWN, "error", "ord could not say what this coin holds")
    else:
        text = inp.contents.describe()
        parts = [f"inscription {short(i.inscription_id, 6)}" for i in inp.contents.inscriptions]
        parts += [f"{r.amount:,} {r.rune}" for r in inp.contents.runes]
        marked = "◆ " + ", ".join(parts) if parts else text
        carries = Cell(marked, "accent" if parts else None, text)
    address = inp.address or strings.REVIEW_UNKNOWN
    return (
        Cell(str(inp.index)),
        Cell(short(inp.outpoint, 8), tooltip=inp.outpoint),  # the address has the width
        Cell(address),  # whole: the column wraps it
        Cell(sats(inp.value), None if inp.value is not None else "error"),
        Cell(party.name, role_color(party.role), party.tip or address),
        carries,
        sighash_cell(inp),
    )


def output_rows(review: Review, parties: Sequence[Party]) -> list[tuple[Cell, ...]]:
    """One row per output; `parties` names whom each pays (`psbt_review_parties`)."""
    return [_output_row(out, p) for out, p in zip(review.outputs, parties, strict=True)]


def _output_row(out: OutputReview, party: Party) -> tuple[Cell, ...]:
    items = [f"inscription {i}" for i in out.inscriptions]
    runes = [f"{r.amount:,} {r.rune}" for r in out.runes]
    if runes and out.is_op_return:  # ord burns what an OP_RETURN output receives
        burned = strings.REVIEW_RUNES_BURNED.format(runes=", ".join(runes))
        shown = ", ".join([*(short(x, 12) for x in items), burned])
        receives = Cell("◆ " + shown, "error", strings.REVIEW_RUNES_BURNED_TIP)
    else:
        items += runes
        receives = Cell(
            "◆ " + ", ".join(short(x, 12) for x in items) if items else "",
            "accent" if items else None,
            "\n".join(items) or None,
        )
    address = out.address or out.script_type.value
    return (
        Cell(str(out.index)),
        Cell(address),  # whole: the column wraps it
        Cell(sats(out.value)),
        Cell(party.name, role_color(party.role), party.tip or address),
        receives,
    )
