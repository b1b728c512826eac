"""App profiles: validation, persistence in profiles.json, per-profile directories, the
service configuration of each kind, and API keys kept only in a keychain."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from keyring.backends.fail import Keyring as FailKeyring

from app.core.rate_limit import RateLimit
from app.services.profiles import (
    SATFLOW_API_URL,
    ApiKeyStore,
    ApiKeyUnavailableError,
    AppProfile,
    AppSettings,
    FeeBounds,
    ProfileFileError,
    ProfileSettingsError,
    ProfileStore,
    ServiceKind,
    Theme,
)
from app.services.qa_vault import MemoryKeyring


def custom(name: str = "Mine", **changes: object) -> AppProfile:
    profile = AppProfile(
        name=name,
        kind=ServiceKind.CUSTOM,
        network="signet",
        marketplace_url="https://market.example/v1",
        esplora_url="https://esplora.example/api",
        ord_url="https://ord.example",
    )
    return replace(profile, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": ""}, "1 to 64"),
        ({"name": " padded"}, "outer spaces"),
        ({"network": "litecoin"}, "network must be one of"),
        ({"esplora_url": "ftp://x"}, r"esplora url must be an http\(s\) URL"),
        ({"ord_url": None}, "ord url is required"),
        ({"lock_timeout_s": 5}, "lock timeout"),
    ],
)
def test_invalid_profiles_are_refused_with_a_clear_message(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(ProfileSettingsError, match=message):
        custom(**changes)


def test_kind_specific_rules() -> None:
    with pytest.raises(ProfileSettingsError, match="regtest"):
        replace(AppProfile.sandbox(), network="mainnet")
    with pytest.raises(ProfileSettingsError, match="public service"):
        replace(AppProfile.satflow(), marketplace_url="https://evil.example/v1")
    with pytest.raises(ProfileSettingsError, match="minimum <= maximum"):
        FeeBounds(min_sat_vb=10, max_sat_vb=5)
    with pytest.raises(ProfileSettingsError, match="1 sat to 1 BTC"):
        FeeBounds(max_fee_sats=0)


def test_settings_round_trip_through_the_file(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "data")
    assert store.load() == AppSettings()
    settings = (
        AppSettings(theme=Theme.DARK)
        .with_profile(AppProfile.sandbox())
        .with_profile(custom(fee_bounds=FeeBounds(2, 300, 90_000), lock_timeout_s=120))
        .with_active("Mine")
    )
    store.save(settings)
    assert store.load() == settings
    assert store.path.stat().st_mode & 0o777 == 0o600


def test_damaged_or_foreign_files_are_reported_not_overwritten(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    for content in (
        "{half",
        json.dumps({"format": "other"}),
        json.dumps({"format": "bidwallet-profiles", "version": 99}),
    ):
        store.path.write_text(content)
        with pytest.raises(ProfileFileError):
            store.load()
        assert store.path.read_text() == content


def test_with_profile_replaces_renames_and_refuses_duplicates() -> None:
    settings = AppSettings().with_profile(custom("A")).with_profile(custom("B")).with_active("A")
    renamed = settings.with_profile(custom("A2"), previous_name="A")
    assert [p.name for p in renamed.profiles] == ["A2", "B"] and renamed.active == "A2"
    with pytest.raises(ProfileSettingsError, match="already exists"):
        settings.with_profile(custom("B"), previous_name="A")
    assert settings.without("A").active == "B"
    assert settings.without("A").without("B").active is None
    with pytest.raises(ProfileSettingsError):
        settings.with_active("nope")


def test_profile_directories_are_safe_and_distinct(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    names = ["Main", "main", "../../etc", "Ünïcødé 🚀", "a/b"]
    dirs = {store.profile_dir(custom(name)) for name in names}
    assert len(dirs) == len(names)
    for directory in dirs:
        assert directory.parent == tmp_path / "profiles"
        assert "/" not in directory.name and ".." not in directory.name


def test_service_config_of_each_kind() -> None:
    sandbox = AppProfile.sandbox().service_config(api_key=None, sandbox_url="http://127.0.0.1:5")
    assert (sandbox.marketplace_url, sandbox.esplora_url, sandbox.ord_url) == (
        "http://127.0.0.1:5/v1",
        "http://127.0.0.1:5/esplora",
        "http://127.0.0.1:5/ord",
    )
    with pytest.raises(ProfileSettingsError, match="not running"):
        AppProfile.sandbox().service_config(api_key=None)
    satflow = AppProfile.satflow().service_config(api_key="k")
    assert satflow.marketplace_url == SATFLOW_API_URL and satflow.api_key == "k"
    mine = custom().service_config(api_key=None)
    assert mine.esplora_url == "https://esplora.example/api" and not mine.has_api_key


def test_request_rate_defaults_by_kind_and_can_be_set_or_turned_off(tmp_path: Path) -> None:
    url = "http://127.0.0.1:5"
    assert AppProfile.sandbox().service_config(api_key=None, sandbox_url=url).rate_limit is None
    assert AppProfile.satflow().service_config(api_key=None).rate_limit == RateLimit(5, 10)
    assert custom().rate_limit == RateLimit(5, 10)
    assert replace(custom(), request_rate="off").rate_limit is None
    slower = replace(AppProfile.satflow(), request_rate="2/3")
    assert slower.service_config(api_key=None).rate_limit == RateLimit(2, 3)
    paced_sandbox = replace(AppProfile.sandbox(), request_rate="50")
    assert paced_sandbox.service_config(api_key=None, sandbox_url=url).rate_limit == RateLimit(
        50, 100
    )
    with pytest.raises(ProfileSettingsError, match=r"request rate: .* at most 1,000"):
        replace(custom(), request_rate="5000/1")
    store = ProfileStore(tmp_path)
    store.save(AppSettings().with_profile(slower))
    assert store.load().get(slower.name) == slower


def test_api_keys_live_in_the_keychain_only(tmp_path: Path) -> None:
    keychain = MemoryKeyring()
    keys = ApiKeyStore(keychain)
    assert keys.available and keys.get("Satflow") is None
    keys.set("Satflow", "  sk-123  ")
    assert keys.get("Satflow") == "sk-123"
    assert list(keychain.items) == [("bidwallet-api-key", "Satflow")]
    store = ProfileStore(tmp_path)
    store.save(AppSettings().with_profile(AppProfile.satflow()))
    assert "sk-123" not in store.path.read_text()
    assert keys.delete("Satflow") and not keys.delete("Satflow")


def test_without_a_real_keychain_api_keys_are_refused_not_written_elsewhere() -> None:
    keys = ApiKeyStore(FailKeyring())
    assert not keys.available and keys.get("x") is None
    with pytest.raises(ApiKeyUnavailableError, match="no system keychain"):
        keys.set("x", "sk-123")
    assert "sk-123" not in repr(keys)
