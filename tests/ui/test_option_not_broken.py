"""The export message names the offline signer's option, "bidwallet --offline", in non-breaking
hyphens: a wrapped label broke it at its hyphens ("-" at a line's end, "-offline" below). Laid
out at every width from 150 to 700 px, no line ends in a hyphen of it."""

from __future__ import annotations

from PySide6.QtGui import QTextLayout, QTextOption
from PySide6.QtWidgets import QApplication

from app.ui import strings


def wrapped_lines(app: QApplication, text: str, width: int) -> list[str]:
    layout = QTextLayout(text, app.font())
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    lines = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
        lines.append(text[line.textStart() : line.textStart() + line.textLength()])
    layout.endLayout()
    return lines


def test_the_offline_option_is_never_broken_at_its_hyphens(qapp: QApplication) -> None:
    for count in (1, 2):
        text = strings.counted(strings.LISTINGS_EXPORTED, count, folder="/home/me/export")
        assert "\u2011\u2011offline" in text
        for width in range(150, 700):
            lines = wrapped_lines(qapp, text, width)
            assert "".join(lines) == text
            assert not any(line.rstrip().endswith(("-", "\u2011")) for line in lines), width
