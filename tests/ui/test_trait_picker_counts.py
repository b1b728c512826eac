"""The trait picker shows how many items carry each trait where the service says (the public
service's /collection?categoryAttributes=true counts, the sandbox's alike), and only the pair
where it does not; search and ticking work on the pair either way."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.services.catalog import CollectionInfo
from app.ui.widgets.trait_picker import PAIR_ROLE, TraitPicker

INFO = CollectionInfo(
    slug="punks",
    name="Punks",
    traits=(("Background", ("Blue", "Gold")), ("Hat", ("Cap",))),
    total_items=1_500,
    trait_counts=(("Background", "Blue", 1_200), ("Background", "Gold", 7)),
)


def texts(picker: TraitPicker) -> list[str]:
    return [picker.model.item(r).text() for r in range(picker.model.rowCount())]


def test_counts_are_shown_where_the_service_gives_them(qtbot: QtBot) -> None:
    picker = TraitPicker(limit=5)
    qtbot.addWidget(picker)
    picker.set_traits(INFO.traits, INFO.count_of)
    assert texts(picker) == ["Background: Blue (1,200)", "Background: Gold (7)", "Hat: Cap"]
    assert picker.model.item(1).data(PAIR_ROLE) == ("Background", "Gold")
    assert picker.set_checked(("Background", "Gold"), True)
    assert picker.selected() == [("Background", "Gold")]

    picker.set_traits(INFO.traits)  # no counts known: the pairs alone
    assert texts(picker) == ["Background: Blue", "Background: Gold", "Hat: Cap"]
