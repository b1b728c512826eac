"""Bidwallet: a desktop bidding wallet for Bitcoin inscriptions and runes.

Layers (arrows point down only; import-linter enforces them, see pyproject.toml):
ui -> services -> (net, wallet) -> core. The sandbox shares core and wallet and is
started by the app as a separate process.

`__version__` (or `version()`) is read from the installed package's metadata when first asked:
importlib.metadata costs ~20 ms, which the window does not wait for.
"""

from __future__ import annotations

_version: str | None = None


def version() -> str:
    """The installed package's version; `0.0.0+unknown` in a source tree never installed."""
    global _version
    if _version is None:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as package_version

        try:
            _version = package_version("bidwallet")
        except PackageNotFoundError:
            _version = "0.0.0+unknown"
    return _version


def __getattr__(name: str) -> str:
    if name == "__version__":
        return version()
    raise AttributeError(f"module 'app' has no attribute {name!r}")
