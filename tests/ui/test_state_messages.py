"""Every state message is true when it shows: while the sandbox profile starts (its child
process, the demo wallet, the clients) the tabs say "Connecting…", never "Not connected…
restart with the sandbox" beside a status bar naming the sandbox; nothing is red; once
connected the notice goes. A start that ends without a connection says so then."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.services.profiles import AppProfile, ProfileStore
from app.ui import strings
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.state.wallet_state import WalletState
from app.ui.tabs.wallet_tab import WalletTab

STARTUP_TIMEOUT_MS = 120_000


def _watch(app: AppHarness) -> list[tuple[str, str, str]]:
    """(message, its colour role, the status bar's service text) at each message shown."""
    seen: list[tuple[str, str, str]] = []
    wallet = app.window.tab("wallet")
    assert isinstance(wallet, WalletTab)

    def shown(text: str) -> None:
        status = app.window.status.service_label.text()
        seen.append((text, str(wallet.notice.property("role")), status))

    WalletState.of(app.context).failed.connect(shown)
    return seen


def test_a_sandbox_start_says_connecting_until_connected(
    qtbot: QtBot, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> None:
    app = open_app(make_options(sandbox=True))
    seen = _watch(app)
    qtbot.waitSignal(app.window.controller.ready, timeout=STARTUP_TIMEOUT_MS).wait()
    assert app.context.connection is not None
    assert seen, "the start showed no state at all"
    for text, role, status in seen:
        assert text == strings.CONNECTING_HINT, (text, status)
        assert role != "error"
    wallet = app.window.tab("wallet")
    assert isinstance(wallet, WalletTab)
    qtbot.waitUntil(lambda: WalletState.of(app.context).view is not None, timeout=20_000)
    assert not wallet.notice.isVisible() or not wallet.notice.text()
    assert app.window.status.service_label.text().startswith("Sandbox: http")


def test_a_start_that_ends_unconnected_says_not_connected(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    """The sandbox cannot start (its data folder is a file): "Not connected" is true then."""
    blocked = ProfileStore(data_dir).profile_dir(AppProfile.sandbox()) / "sandbox"
    blocked.parent.mkdir(parents=True)
    blocked.write_text("not a folder")
    app = open_app(make_options(sandbox=True))
    seen = _watch(app)
    qtbot.waitSignal(app.window.controller.ready, timeout=STARTUP_TIMEOUT_MS).wait()
    assert app.context.connection is None and not app.context.connecting
    assert app.window.status.service_label.text() == strings.STATUS_NOT_CONNECTED
    texts = [text for text, _, _ in seen]
    assert texts[0] == strings.CONNECTING_HINT and texts[-1] == strings.NOT_CONNECTED_HINT
    first_not = texts.index(strings.NOT_CONNECTED_HINT)  # "connecting" until the start failed
    assert set(texts[:first_not]) == {strings.CONNECTING_HINT}
    assert set(texts[first_not:]) == {strings.NOT_CONNECTED_HINT}
    for text, role, status in seen:
        assert role != "error"
        if text == strings.NOT_CONNECTED_HINT:
            assert status == strings.STATUS_NOT_CONNECTED  # both say the same, both true
