"""The Bid form's note under the name field says what the catalog found about the name typed,
and stays until the name changes: the suggestions read again (the tab shown again, a refresh)
once cleared a rune refusal a moment after it was said (a CI run on 70c3323 saw the line
empty under `AB.`). The search note ("type the slug") comes and goes with an empty field."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.ui import strings
from app.ui.tabs.bid_form import BidForm


def _form(qtbot: QtBot, *, runes: bool) -> BidForm:
    form = BidForm()
    qtbot.addWidget(form)
    (form.runes_radio if runes else form.ordinals_radio).setChecked(True)
    return form


def test_a_rune_refusal_stays_when_the_suggestions_arrive(qtbot: QtBot) -> None:
    form = _form(qtbot, runes=True)
    form.slug.setText("AB.")
    refusal = strings.BID_RUNE_MALFORMED.format(name="AB.", reason="it ends with a spacer")
    form.show_slug_note(refusal, "error")

    form.set_collections([], searchable=False)
    form.set_rune_names(["UNCOMMON•GOODS"])
    form.refresh_slug()

    assert form.slug_hint.text() == refusal
    form.slug.setText("ABC")  # another name: the word on the old one goes
    assert form.slug_hint.text() == ""


def test_the_search_note_follows_the_empty_field(qtbot: QtBot) -> None:
    form = _form(qtbot, runes=False)
    form.set_collections([], searchable=False)
    assert form.slug_hint.text() == strings.BID_CATALOG_SEARCH_NONE
    form.slug.setText("frogs")
    assert form.slug_hint.text() == ""
    form.slug.setText("")
    assert form.slug_hint.text() == strings.BID_CATALOG_SEARCH_NONE
    form.runes_radio.setChecked(True)  # a rune is named, not searched
    assert form.slug_hint.text() == ""
