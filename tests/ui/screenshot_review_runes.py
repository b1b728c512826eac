"""Shoot the review dialog with runestones (issue 18), light then dark, at its own first size (a
QA tool, not a test): a runes listing whose runestone splits the listed runes (each output's
runes shown, the refusal naming the outputs), and the hidden risk (the runes sent to the
service's fee output, refused). PSBTs from tests/core/test_policy_runes.py; no sandbox needed.

    xvfb-run -a -s "-screen 0 1024x700x24" \
        .venv/bin/python -m tests.ui.screenshot_review_runes OUT
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

SHOTS = {
    "split": "a runestone splitting the listed runes among the outputs",
    "hidden-risk": "a runestone sending the listed runes to the service's fee output",
}


def _wait(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def main(out: Path) -> None:
    from app.core.signing_policy import evaluate
    from app.services.profiles import Theme
    from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
    from app.ui.theme import apply_theme
    from tests.core.test_policy_runes import edict, listing_outputs, rune_listing
    from tests.support.runestones import encipher
    from tests.ui.test_psbt_review_dialog import Reviewed

    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    out.mkdir(parents=True, exist_ok=True)
    stones = {"split": encipher([edict(0, 4)]), "hidden-risk": encipher([edict(0, 2)])}
    for theme in (Theme.LIGHT, Theme.DARK):
        name = apply_theme(app, theme)
        for shot, stone in stones.items():
            s = rune_listing(listing_outputs(stone))
            review = s.review()
            plan = Reviewed(review, evaluate(review, s.intent), "List 2,500 UNCOMMON•GOODS")
            dialog = PsbtReviewDialog([plan], title="List", action="&Sign 1 listing")
            dialog.show()
            _wait(400)
            path = out / f"review-runes-{name}-{shot}.png"
            dialog.grab().save(str(path))
            print(path)
            dialog.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts/screenshots"))
