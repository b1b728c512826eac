"""Where the app keeps its files: $BIDWALLET_DATA_DIR if set (tests, portable installs), else the
platform's user data directory. Outside the layers and light (no app.wallet, whose import
loads embit's secp256k1): the window asks for it before it is built, the vault file and the
profiles store use it too."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

import platformdirs

DATA_DIR_ENV: Final = "BIDWALLET_DATA_DIR"


def default_data_dir() -> Path:
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_data_dir("bidwallet"))
