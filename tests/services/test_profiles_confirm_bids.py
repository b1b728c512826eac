"""The "Ask before signing a bid" setting in profiles.json (the Bid tab's "Don't ask again"):
on by default (also for a file written before it existed), kept when turned off and back on,
independent of the other settings, and a malformed value refused."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from app.services.profiles import AppProfile, AppSettings, ProfileFileError, ProfileStore


def test_on_by_default_kept_off_and_back_on(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    settings = AppSettings().with_profile(AppProfile.sandbox())
    assert settings.confirm_bids is True
    store.save(replace(settings, confirm_bids=False))
    loaded = store.load()
    assert loaded.confirm_bids is False and loaded.notifications is True
    assert loaded.with_active(AppProfile.sandbox().name).confirm_bids is False  # kept by edits
    store.save(replace(loaded, confirm_bids=True))
    assert store.load().confirm_bids is True


def test_a_file_from_before_the_setting_asks(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(replace(AppSettings(), confirm_bids=False))
    doc = json.loads(store.path.read_text())
    del doc["confirm_bids"]
    store.path.write_text(json.dumps(doc))
    assert store.load().confirm_bids is True


def test_a_malformed_value_is_refused(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(AppSettings())
    doc = json.loads(store.path.read_text())
    doc["confirm_bids"] = 0
    store.path.write_text(json.dumps(doc))
    with pytest.raises(ProfileFileError, match="confirm_bids must be true or false"):
        store.load()
