"""The animated QR's format in profiles.json: BBQr by default (also for a file written before
the setting existed), UR kept once chosen, and a format this app does not show refused."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.animated_qr import QrFormat
from app.services.profiles import AppProfile, AppSettings, ProfileFileError, ProfileStore


def test_bbqr_by_default_and_ur_kept(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    settings = AppSettings().with_profile(AppProfile.sandbox())
    assert settings.qr_format is QrFormat.BBQR
    store.save(replace(settings, qr_format=QrFormat.UR))
    loaded = store.load()
    assert loaded.qr_format is QrFormat.UR and loaded.confirm_bids is True
    assert loaded.with_active(AppProfile.sandbox().name).qr_format is QrFormat.UR


def test_a_file_from_before_the_setting_shows_bbqr(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(replace(AppSettings(), qr_format=QrFormat.UR))
    doc = json.loads(store.path.read_text())
    del doc["qr_format"]
    store.path.write_text(json.dumps(doc))
    assert store.load().qr_format is QrFormat.BBQR


def test_an_unknown_format_is_refused(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(AppSettings())
    doc = json.loads(store.path.read_text())
    doc["qr_format"] = "qr-sequence"
    store.path.write_text(json.dumps(doc))
    with pytest.raises(ProfileFileError, match="qr-sequence"):
        store.load()
