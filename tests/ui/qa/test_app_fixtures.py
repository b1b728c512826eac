"""The `bidwallet_app` and `bidwallet_app_factory` fixtures: each window on a profile of its
own (its own data directory and wallet), unlocked, funded by the sandbox, and on it."""

from __future__ import annotations

from collections.abc import Callable

from app.ui.qa.app import App


def test_two_windows_each_on_its_own_funded_unlocked_profile(
    bidwallet_app: App, bidwallet_app_factory: Callable[..., App]
) -> None:
    other = bidwallet_app_factory()
    for app in (bidwallet_app, other):
        assert app.keys is not None  # unlocked
        assert app.assets is not None and app.assets.inscription_ids
        assert app.root_url is not None and app.context.options.data_dir.exists()
        assert app.window.isVisible()
    first, second = bidwallet_app.keys, other.keys
    assert first is not None and second is not None
    assert first.payment.address != second.payment.address
    assert bidwallet_app.context.options.data_dir != other.context.options.data_dir
    assert bidwallet_app.root_url == other.root_url
