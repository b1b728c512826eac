"""The maker fee the pools assume: the profile's setting, else the service's, else the
default; kept with the profile in profiles.json; and what the pool figures count, end to end
against the sandbox."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.pools import MakerFee, bid_cost
from app.services.bids import BidSpec, place_bid
from app.services.context import ServiceContext
from app.services.maker_fee import (
    DEFAULT_MAKER_FEE,
    AssumedMakerFee,
    MakerFeeSource,
    assumed_maker_fee,
    service_default,
)
from app.services.open_bids import load_open_bids
from app.services.profiles import (
    AppProfile,
    AppSettings,
    ProfileFileError,
    ProfileSettingsError,
    ProfileStore,
)
from tests.services.conftest import hour_from_now

OWN = MakerFee(basis_points=50, flat_sats=2_500)
PUBLISHED = MakerFee(basis_points=0, flat_sats=700)


@pytest.mark.parametrize(
    ("setting", "published", "expected"),
    [
        (OWN, PUBLISHED, AssumedMakerFee(OWN, MakerFeeSource.PROFILE)),
        (OWN, None, AssumedMakerFee(OWN, MakerFeeSource.PROFILE)),
        (None, PUBLISHED, AssumedMakerFee(PUBLISHED, MakerFeeSource.SERVICE)),
        (None, None, AssumedMakerFee(DEFAULT_MAKER_FEE, MakerFeeSource.DEFAULT)),
    ],
)
def test_the_profile_setting_then_the_service_then_the_default(
    setting: MakerFee | None, published: MakerFee | None, expected: AssumedMakerFee
) -> None:
    assert assumed_maker_fee(setting, published) == expected
    assert service_default(published) == assumed_maker_fee(None, published)
    assert MakerFee(0, 1_000) == DEFAULT_MAKER_FEE  # what third parties report


def test_a_profile_keeps_its_maker_fee_in_profiles_json(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    own = replace(AppProfile.satflow(), maker_fee=OWN)
    store.save(AppSettings().with_profile(own).with_profile(AppProfile.sandbox()))
    doc = json.loads(store.path.read_text())
    saved = {p["name"]: p.get("maker_fee") for p in doc["profiles"]}
    assert saved == {"Satflow": {"flat_sats": 2_500, "basis_points": 50}, "Sandbox": None}
    loaded = store.load()
    assert loaded.get("Satflow") == own and loaded.get("Sandbox") == AppProfile.sandbox()


def test_a_profiles_file_from_before_the_setting_reads_as_the_default(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(AppSettings().with_profile(AppProfile.satflow()))
    doc = json.loads(store.path.read_text())
    doc["profiles"][0].pop("maker_fee", None)
    store.path.write_text(json.dumps(doc))
    profile = store.load().get("Satflow")
    assert profile is not None and profile.maker_fee is None


@pytest.mark.parametrize(
    "stored",
    [
        {"flat_sats": 1_000},
        {"flat_sats": 1_000, "basis_points": 0, "extra": 1},
        {"flat_sats": True, "basis_points": 0},
        {"flat_sats": 1_000.0, "basis_points": 0},
        {"flat_sats": -1, "basis_points": 0},
        {"flat_sats": 100_000_001, "basis_points": 0},
        {"flat_sats": 0, "basis_points": 10_001},
        "1000",
    ],
)
def test_a_malformed_stored_maker_fee_is_refused_by_name(tmp_path: Path, stored: object) -> None:
    store = ProfileStore(tmp_path)
    store.save(AppSettings().with_profile(AppProfile.satflow()))
    doc = json.loads(store.path.read_text())
    doc["profiles"][0]["maker_fee"] = stored
    store.path.write_text(json.dumps(doc))
    with pytest.raises(ProfileFileError, match="maker"):
        store.load()


def test_out_of_range_settings_say_the_range() -> None:
    with pytest.raises(ProfileSettingsError, match="0 to 100,000,000 sats"):
        replace(AppProfile.satflow(), maker_fee=MakerFee(0, 100_000_001))
    with pytest.raises(ProfileSettingsError, match="0 to 10,000 bps"):
        replace(AppProfile.satflow(), maker_fee=MakerFee(10_001, 0))


on_session_loop = pytest.mark.asyncio(loop_scope="session")  # the sandbox fixtures' loop


@on_session_loop
async def test_the_pool_figures_count_the_assumed_fee_and_name_it(
    bidder: ServiceContext, collection: str
) -> None:
    bidder.maker_fee, bidder.maker_fee_source = OWN, MakerFeeSource.PROFILE
    await place_bid(bidder, BidSpec.collection(collection, 40_000, 2, hour_from_now(bidder)))
    view = await load_open_bids(bidder)
    assert view.maker_fee == AssumedMakerFee(OWN, MakerFeeSource.PROFILE)
    [pool] = [p for p in view.pools if str(p.pool) == collection]
    assert pool.committed == 2 * bid_cost(40_000, OWN) == 2 * (40_000 + 2_700)
