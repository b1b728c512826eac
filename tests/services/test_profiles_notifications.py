"""The "Desktop notifications" setting in profiles.json: on by default (also for a file
written before it existed), kept when turned off, and a malformed value refused."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from app.services.profiles import AppProfile, AppSettings, ProfileFileError, ProfileStore


def test_on_by_default_and_kept_when_turned_off(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    settings = AppSettings().with_profile(AppProfile.sandbox())
    assert settings.notifications is True
    store.save(replace(settings, notifications=False))
    assert store.load().notifications is False
    store.save(settings)
    assert store.load().notifications is True


def test_a_file_from_before_the_setting_has_them_on(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(AppSettings())
    doc = json.loads(store.path.read_text())
    del doc["notifications"]
    store.path.write_text(json.dumps(doc))
    assert store.load().notifications is True


def test_a_malformed_value_is_refused(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(AppSettings())
    doc = json.loads(store.path.read_text())
    doc["notifications"] = "yes"
    store.path.write_text(json.dumps(doc))
    with pytest.raises(ProfileFileError, match="notifications must be true or false"):
        store.load()
