"""Offline signing follows a runestone's edicts as the online review does (issue 18, F5): the
manifest records the rune ids ord gave at export, the offline review uses them, and ids that
lie are left unknown offline exactly as online. No sandbox: the scenarios' runes listing,
exported and reviewed through the files."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from app.core.psbt_review_context import OutpointContents, RuneAmount
from app.core.signing_policy import RefusalCode, Verdict
from app.services.offline import ExportItem, export_offline, review_offline
from app.services.offline_manifest import MANIFEST_NAME, ManifestError
from app.services.psbt_flow import PsbtPlan, PsbtRefusedError, decide
from app.wallet.addresses import AddressType, KeyRole, Network
from app.wallet.keys import WalletKeys, role_key_from_private
from app.wallet.psbt_io import psbt_to_base64
from tests.support import psbt_scenarios as scenarios
from tests.support.psbt_scenarios import Scenario, addr, build_psbt, key
from tests.support.runestones import encipher

GOODS, OTHER = "UNCOMMON•GOODS", "OTHER•RUNE"
HONEST_IDS = {GOODS: "840000:3"}
BOTH_IDS = {GOODS: "840000:3", OTHER: "840001:7"}
# Sends every listed rune with the item to output 0, the escrow.
WITH_THE_ITEM = encipher([(840_000, 3, 0, 0)])


def runestone_listing(ids: dict[str, str], *, second_rune: bool = False) -> Scenario:
    s = scenarios.secure_listing(runes=True)
    p = s.parties
    outputs = [(p.service_escrow_spk, 10_000), (p.payment_spk, 100_000), (WITH_THE_ITEM, 0)]
    contents = dict(s.context.contents)
    if second_rune:
        held = (RuneAmount(GOODS, 2_500), RuneAmount(OTHER, 700))
        contents[s.coins[0].outpoint] = OutpointContents(runes=held)
    context = dataclasses.replace(s.context, contents=contents, rune_ids=ids)
    return s.with_(psbt=build_psbt(s.coins, outputs, sighash={0: 0x81}), context=context)


def online(s: Scenario) -> Verdict:
    """The online review's verdict (decide raises on a refusal: its verdict is returned)."""
    try:
        return exported_plan(s).verdict
    except PsbtRefusedError as exc:
        return exc.verdict


def exported_plan(s: Scenario) -> PsbtPlan:
    return decide(psbt_to_base64(s.psbt), s.context, s.intent, KeyRole.ORDINALS, "listing")


def exported(folder: Path, s: Scenario) -> Path:
    export_offline(folder, [ExportItem(exported_plan(s), {})])
    return folder


def offline(folder: Path) -> Verdict:
    """The offline review's verdict, from the files alone."""
    payment = role_key_from_private(key(1), AddressType.P2WPKH, Network.REGTEST, KeyRole.PAYMENT)
    ordinals = role_key_from_private(key(2), AddressType.P2TR, Network.REGTEST, KeyRole.ORDINALS)
    keys = WalletKeys(payment, ordinals, "test", 0)
    try:
        [signed] = review_offline(folder, keys)
    except PsbtRefusedError as exc:
        return exc.verdict
    return signed.plan.verdict


def rewrite(folder: Path, change: dict[str, object], drop: tuple[str, ...] = ()) -> None:
    path = folder / MANIFEST_NAME
    data = json.loads(path.read_text())
    data.update(change)
    for name in drop:
        del data[name]
    path.write_text(json.dumps(data))


def test_the_wallet_keys_are_the_scenarios() -> None:
    p = scenarios.parties()
    payment = role_key_from_private(key(1), AddressType.P2WPKH, Network.REGTEST, KeyRole.PAYMENT)
    ordinals = role_key_from_private(key(2), AddressType.P2TR, Network.REGTEST, KeyRole.ORDINALS)
    assert (payment.address, ordinals.address) == (addr(p.payment_spk), addr(p.ordinals_spk))


def test_an_honest_runestone_listing_is_approved_online_and_offline(tmp_path: Path) -> None:
    s = runestone_listing(HONEST_IDS)
    assert online(s).approved
    folder = exported(tmp_path, s)
    written = json.loads((folder / MANIFEST_NAME).read_text())
    assert written["version"] == 3 and written["runeIdsAtExport"] == HONEST_IDS
    verdict = offline(folder)
    assert verdict.approved, verdict.reasons()
    assert [(p.input_index, p.sighash) for p in verdict.to_sign] == [(0, 0x81)]


def test_a_version_2_manifest_still_reads_and_refuses_edicts_as_before(tmp_path: Path) -> None:
    folder = exported(tmp_path, runestone_listing(HONEST_IDS))
    rewrite(folder, {"version": 2}, drop=("runeIdsAtExport",))
    verdict = offline(folder)
    assert not verdict.approved
    assert RefusalCode.RUNESTONE_NOT_DECODED.value in verdict.codes


LIES = {
    "two runes given one id": {GOODS: "840000:3", OTHER: "840000:3"},
    "an id of block 0": {GOODS: "0:3"},
    "the etched rune's key 0:0": {GOODS: "0:0"},
}


@pytest.mark.parametrize("lie", sorted(LIES))
def test_ids_that_lie_are_left_unknown_offline_as_online(tmp_path: Path, lie: str) -> None:
    """Exported honest, then the manifest's ids lie: offline refuses as the online review
    refuses with the same lie (the ids are left unknown, the edicts not followed)."""
    ids = LIES[lie]
    folder = exported(tmp_path, runestone_listing(BOTH_IDS, second_rune=True))
    rewrite(folder, {"runeIdsAtExport": ids})
    on, off = online(runestone_listing(ids, second_rune=True)), offline(folder)
    assert not on.approved and not off.approved
    assert RefusalCode.RUNESTONE_NOT_DECODED.value in off.codes
    assert sorted(off.codes) == sorted(on.codes)


def test_the_export_records_the_ids_of_held_runes_and_their_sharers(tmp_path: Path) -> None:
    """ord gave the held rune's id to another rune too (on no input here): online that id is
    left unknown, so the export records both entries; an unrelated rune's id is not recorded."""
    ids = {GOODS: "840000:3", "UNRELATED•RUNE": "840000:3", "ELSEWHERE•RUNE": "840002:1"}
    plain = scenarios.secure_listing(runes=True)  # no runestone: approved whatever the ids
    s = plain.with_(context=dataclasses.replace(plain.context, rune_ids=ids))
    assert s.context.rune_id_of(GOODS) is None
    export_offline(tmp_path, [ExportItem(exported_plan(s), {})])
    written = json.loads((tmp_path / MANIFEST_NAME).read_text())
    assert written["runeIdsAtExport"] == {GOODS: "840000:3", "UNRELATED•RUNE": "840000:3"}
    assert offline(tmp_path).approved


@pytest.mark.parametrize("bad", [{GOODS: 840000}, {GOODS: "840000"}, {GOODS: "a:b"}, ["x"]])
def test_a_malformed_rune_id_is_refused_by_name(tmp_path: Path, bad: object) -> None:
    folder = exported(tmp_path, runestone_listing(HONEST_IDS))
    rewrite(folder, {"runeIdsAtExport": bad})
    with pytest.raises(ManifestError, match="runeIdsAtExport"):
        offline(folder)
