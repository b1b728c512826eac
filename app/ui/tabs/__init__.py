"""The window's tabs, registered from a list: adding a tab is one `TabSpec` line here.

Each tab is a small module whose widget class takes `(context, controller)`. Modules are
imported when the window builds its tabs, so the registry itself stays cheap to import.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.ui import strings

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from app.ui.context import AppContext
    from app.ui.controller import AppController


@dataclass(frozen=True)
class TabSpec:
    key: str
    title: str
    icon: str  # a file name in resources/icons, without .svg
    factory: str  # "module:Class"
    online: bool = True  # shown in the normal window
    offline: bool = False  # shown in the --offline signer

    def build(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> QWidget:
        """The tab's widget. Built inside `parent` (its place in the window) so the tab order
        it sets up is made within the window: a widget moved into a shown window later keeps
        only part of its own focus chain."""
        module_name, _, class_name = self.factory.partition(":")
        widget_class = getattr(importlib.import_module(module_name), class_name)
        widget: QWidget = widget_class(context, controller, parent)
        widget.setObjectName(f"tab_{self.key}")
        return widget


TABS: tuple[TabSpec, ...] = (
    TabSpec(
        "psbt_files",
        strings.TAB_PSBT_FILES,
        "psbt",
        "app.ui.tabs.psbt_files_tab:PsbtFilesTab",
        online=False,
        offline=True,
    ),
    TabSpec("wallet", strings.TAB_WALLET, "wallet", "app.ui.tabs.wallet_tab:WalletTab"),
    TabSpec("bid", strings.TAB_BID, "bid", "app.ui.tabs.bid_tab:BidTab"),
    TabSpec(
        "open_bids", strings.TAB_OPEN_BIDS, "open-bids", "app.ui.tabs.open_bids_tab:OpenBidsTab"
    ),
    TabSpec(
        "strategies",
        strings.TAB_STRATEGIES,
        "strategies",
        "app.ui.tabs.strategies_tab:StrategiesTab",
    ),
    TabSpec("withdraw", strings.TAB_WITHDRAW, "withdraw", "app.ui.tabs.withdraw_tab:WithdrawTab"),
    TabSpec(
        "inscription_bid",
        strings.TAB_INSCRIPTION_BID,
        "inscription-bid",
        "app.ui.tabs.inscription_bid_tab:InscriptionBidTab",
    ),
    TabSpec("listings", strings.TAB_LISTINGS, "listings", "app.ui.tabs.listings_tab:ListingsTab"),
    TabSpec(
        "activity",
        strings.TAB_ACTIVITY,
        "activity",
        "app.ui.tabs.activity_tab:ActivityTab",
        offline=True,
    ),
    TabSpec(
        "settings",
        strings.TAB_SETTINGS,
        "settings",
        "app.ui.tabs.settings_tab:SettingsTab",
        offline=True,
    ),
)


def tabs_for(offline: bool) -> tuple[TabSpec, ...]:
    return tuple(spec for spec in TABS if (spec.offline if offline else spec.online))
