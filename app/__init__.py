"""Bidwallet: a desktop bidding wallet for Bitcoin inscriptions and runes.

Layers (arrows point down only; import-linter enforces them, see pyproject.toml):
ui -> services -> (net, wallet) -> core. The sandbox shares core and wallet and is
started by the app as a separate process.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("bidwallet")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
