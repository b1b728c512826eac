"""`bidwallet psbt inspect` / `psbt sign`, the terminal's offline signer, against the exports
the window's offline signer is tested with (tests/services/test_offline.py: listings exported
by a watch-only profile of the wallet, a withdrawal; the inscription bid of
test_inscription_bid_runestones): the keys unlocked from the profile's vault at the prompt,
no network at all (test_offline.no_network), the signed files imported by the online side,
which verifies every signature against the reviewed transaction, and submitted."""

from __future__ import annotations

import hashlib
import io
import json
import os
import pty
import select
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from app.__main__ import main
from app.services.bidding_wallet import get_bidding_wallet
from app.services.context import ServiceContext
from app.services.inscription_bid import InscriptionBidPlaced, prepare_inscription_bid
from app.services.key_setup import imported_phrase_key, save_new_key
from app.services.listings import ListingItem, ListingsDone, prepare_listings
from app.services.offline import (
    export_offline,
    import_signed,
    inscription_bid_export_items,
    listing_export_items,
    submit_imported,
    withdraw_export_items,
)
from app.services.offline_manifest import MANIFEST_NAME, Manifest
from app.services.profiles import AppProfile, ProfileStore
from app.services.psbt_cli import EXIT_ERROR, EXIT_REFUSED, EXIT_SIGNED
from app.services.qa_vault import QA_KDF
from app.services.withdraw import WithdrawDone, prepare_withdraw
from app.wallet.psbt_io import parse_psbt, psbt_to_bytes
from app.wallet.psbt_reader import unsigned_txid
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from tests.services.conftest import COIN_SATS, ContextFactory, SandboxControl, new_mnemonic
from tests.services.test_inscription_bid import sandbox_held_inscription
from tests.services.test_listings import inscribe_many, listings_of
from tests.services.test_offline import exported_listings, no_network
from tests.services.test_strategy_cli_sandbox import (
    PASSWORD,
    ROOT,
    _controlling_terminal,
    type_password,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")
PROFILE = "Cold"


@dataclass
class OfflineMachine:
    """The offline machine's data folder: a profile whose key is in the vault under PASSWORD;
    `ctx` is that wallet online (funded), `watch_only` the online profile that exports."""

    data: Path
    ctx: ServiceContext
    watch_only: ServiceContext


@pytest.fixture
async def machine(
    make_context: ContextFactory, sandbox: SandboxControl, tmp_path: Path
) -> OfflineMachine:
    data = tmp_path / "offline-data"
    vault = Vault(FileStore(data), QA_KDF)
    key = imported_phrase_key(new_mnemonic(), "", "leather", 0, None)
    keys = save_new_key(vault, "cold-key", "regtest", key, PASSWORD, False)
    store = ProfileStore(data)
    store.save(store.load().with_profile(replace(AppProfile.sandbox(PROFILE), key_name="cold-key")))
    ctx = make_context(keys)
    await sandbox.faucet(ctx.payment_address, COIN_SATS)
    return OfflineMachine(data, ctx, make_context(keys.watch_only()))


def run(
    machine: OfflineMachine,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    passwords: tuple[str, ...] = (PASSWORD,),
    answers: str = "",
) -> tuple[int, str, str]:
    """The command as typed on the offline machine: passwords at getpass's prompt, `answers`
    to its questions on stdin; no network client or connection may be made."""
    typed = list(passwords)
    monkeypatch.setenv("BIDWALLET_DATA_DIR", str(machine.data))
    monkeypatch.setattr("getpass.getpass", lambda _prompt: typed.pop(0))
    monkeypatch.setattr("sys.stdin", Terminal(answers))
    capsys.readouterr()
    with no_network():
        code = main(["psbt", *args])
    out, err = capsys.readouterr()
    return code, out, err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


async def export_listings(
    machine: OfflineMachine, sandbox: SandboxControl, folder: Path, n: int
) -> Manifest:
    ids = await inscribe_many(sandbox, machine.ctx.ordinals_address, n)
    plan = await prepare_listings(machine.watch_only, [ListingItem(70_000, i) for i in ids])
    return export_offline(folder, listing_export_items(plan))


async def test_each_exported_set_is_signed_at_the_terminal_then_imported_and_submitted(
    machine: OfflineMachine,
    sandbox: SandboxControl,
    make_context: ContextFactory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    online = machine.watch_only
    listing = await export_listings(machine, sandbox, tmp_path / "listing", 1)
    _, bulk, _ = await exported_listings(machine.ctx, sandbox, make_context, tmp_path / "bulk")
    await sandbox.faucet((await get_bidding_wallet(online)).address, 90_000)
    withdraw = export_offline(
        tmp_path / "withdraw", withdraw_export_items(await prepare_withdraw(online, 40_000))
    )
    inscription = await sandbox_held_inscription(sandbox, "seller-cli")
    bid = export_offline(
        tmp_path / "bid",
        inscription_bid_export_items(await prepare_inscription_bid(online, inscription, 50_000)),
    )
    sets = {"listing": listing, "bulk": bulk, "withdraw": withdraw, "bid": bid}
    code, out, _ = run(machine, monkeypatch, capsys, ["inspect", str(tmp_path / "bid"), "--json"])
    [reviewed] = json.loads(out)["psbts"]
    seller, payment = reviewed["inputs"][0], reviewed["inputs"][1]
    assert (seller["owner"], seller["carries"]) == ("the seller", f"inscription {inscription}")
    assert payment["owner"] == "your payment address"
    assert reviewed["inscriptions"] == [
        {
            "id": inscription,
            "input": 0,
            "output": 0,
            "toFee": False,
            "where": "output 0, your ordinals address",
        }
    ]
    assert reviewed["verdict"]["toSign"] == [
        {"input": i, "sighash": "ALL"} for i in range(1, len(reviewed["inputs"]))
    ]
    assert reviewed["verdict"]["signer"] == "payment" and reviewed["fee"]["sats"] > 0

    for name, manifest in sets.items():
        folder = tmp_path / name
        code, out, err = run(machine, monkeypatch, capsys, ["inspect", str(folder)])
        assert code == EXIT_SIGNED, err
        assert out.count("Verdict: APPROVED") == len(manifest.items)
        code, out, err = run(machine, monkeypatch, capsys, ["inspect", str(folder), "--json"])
        report = json.loads(out)
        check_schema(report)
        assert report["decision"] == "approved" and report["source"]["flow"] == manifest.flow
        assert [p["txid"] for p in report["psbts"]] == [x.unsigned_txid for x in manifest.items]
        # The first set is confirmed at the prompt, the others with --yes.
        args, answers = (["sign", str(folder), "--profile", PROFILE], "y\n")
        if name != "listing":
            args, answers = ([*args, "--yes"], "")
        code, out, err = run(machine, monkeypatch, capsys, args, answers=answers)
        assert code == EXIT_SIGNED, err
        assert f"{len(manifest.items)} {manifest.flow} PSBT" in out
        for item in manifest.items:
            signed = parse_psbt((folder / item.signed_psbt_file).read_bytes())
            assert unsigned_txid(signed) == item.unsigned_txid

    # Online again: each import checks the signatures against the reviewed transaction,
    # then the service (and the sandbox's kernel) take them.
    for name, manifest in sets.items():
        batch = await import_signed(online, tmp_path / name, expected=manifest)
        result = await submit_imported(online, batch)
        expected = {
            "listing": ListingsDone,
            "bulk": ListingsDone,
            "withdraw": WithdrawDone,
            "bid": InscriptionBidPlaced,
        }[name]
        assert isinstance(result, expected)
    active = await listings_of(sandbox, machine.ctx.ordinals_address)
    assert sum(x["status"] == "active" for x in active) == 4


# The documented schema (docs/offline-signing.md, "inspect --json"): a change here is a change
# of the schema's version.
TOP = {"format", "version", "source", "notes", "decision", "psbts"}
SOURCE = {"kind", "path", "flow", "network", "wallet", "description"}
PSBT = {"name", "file", "label", "txid", "flow", "headline", "summary", "inputs", "outputs"}
PSBT |= {"inscriptions", "runes", "fee", "time", "findings", "verdict"}
INPUT = {"index", "outpoint", "amount", "owner", "address", "carries", "sighash", "final"}
OUTPUT = {"index", "amount", "owner", "address", "inscriptions", "runes"}
LANDING = {"id", "input", "output", "toFee", "where"}
FEE = {"sats", "vsize", "rate", "rateGuessed", "assessed"}
VERDICT = {"decision", "reasons", "codes", "toSign", "signer"}


def check_schema(report: dict[str, Any]) -> None:
    assert set(report) == TOP and set(report["source"]) == SOURCE
    assert (report["format"], report["version"]) == ("bidwallet-psbt-review", 1)
    for psbt in report["psbts"]:
        assert set(psbt) == PSBT
        assert all(set(i) == INPUT for i in psbt["inputs"])
        assert all(
            set(i["sighash"]) == {"name", "value", "risk", "explanation"} for i in psbt["inputs"]
        )
        assert all(set(o) == OUTPUT for o in psbt["outputs"])
        assert all(set(x) == LANDING for x in psbt["inscriptions"])
        assert set(psbt["runes"]) == {"runestone", "decoded", "reason", "burned"}
        assert set(psbt["fee"]) == FEE and set(psbt["verdict"]) == VERDICT


def tamper_price(folder: Path, manifest: Manifest, *, rewrite_manifest: bool) -> None:
    """The price output of the first listing lowered by 20,000 sats; with `rewrite_manifest`
    its digest and txid in the manifest too, so only the policy can catch it."""
    first = manifest.items[0]
    psbt = parse_psbt((folder / first.psbt_file).read_bytes())
    price = max(range(len(psbt.outputs)), key=lambda i: psbt.outputs[i].value)
    psbt.outputs[price].value -= 20_000
    (folder / first.psbt_file).write_bytes(psbt_to_bytes(psbt))
    if rewrite_manifest:
        data = json.loads((folder / MANIFEST_NAME).read_text())
        data["items"][0]["sha256"] = hashlib.sha256(psbt_to_bytes(psbt)).hexdigest()
        data["items"][0]["unsignedTxid"] = unsigned_txid(psbt)
        (folder / MANIFEST_NAME).write_text(json.dumps(data))


async def test_a_tampered_psbt_is_refused_with_its_reason_even_with_yes(
    machine: OfflineMachine,
    sandbox: SandboxControl,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    manifest = await export_listings(machine, sandbox, tmp_path, 2)
    tamper_price(tmp_path, manifest, rewrite_manifest=True)

    code, out, err = run(machine, monkeypatch, capsys, ["inspect", str(tmp_path)])
    assert code == EXIT_REFUSED
    assert "Verdict: REFUSED by the secure listing policy" in out
    assert "Verdict: APPROVED" in out  # the second listing alone would pass
    assert "Verdict for the set: REFUSED" in out
    code, out, err = run(machine, monkeypatch, capsys, ["inspect", str(tmp_path), "--json"])
    report = json.loads(out)
    first = report["psbts"][0]["verdict"]
    assert report["decision"] == "refused" and first["decision"] == "refused"
    assert first["codes"] == ["LISTING_UNDERPAID"] and first["toSign"] == []

    args = ["sign", str(tmp_path), "--profile", PROFILE, "--yes"]
    code, out, err = run(machine, monkeypatch, capsys, args, passwords=())
    assert code == EXIT_REFUSED
    assert err.startswith("bidwallet psbt: nothing was signed: the policy refuses 01-secure")
    assert err.count("\n") == 1
    assert not list(tmp_path.glob("*.signed.*"))

    # Changed without the manifest: the file is not the one exported (an error, before review).
    tamper_price(tmp_path, manifest, rewrite_manifest=False)
    code, out, err = run(machine, monkeypatch, capsys, args, passwords=())
    assert code == EXIT_ERROR
    assert "not the file that was exported" in err and out == ""


async def test_a_wrong_password_a_corrupt_psbt_and_a_lone_file_sign_nothing(
    machine: OfflineMachine,
    sandbox: SandboxControl,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "export"
    manifest = await export_listings(machine, sandbox, folder, 1)
    sign = ["sign", str(folder), "--profile", PROFILE, "--yes"]

    code, _, err = run(machine, monkeypatch, capsys, sign, passwords=("nope",) * 3)
    assert code == EXIT_ERROR
    assert err.splitlines()[-1] == (
        "bidwallet psbt: wrong password (3 tries): the wallet stays locked"
    )
    code, _, err = run(machine, monkeypatch, capsys, [*sign[:-1]], answers="n\n")
    assert code == EXIT_REFUSED and "not confirmed" in err
    assert not list(folder.glob("*.signed.*"))
    code, _, err = run(machine, monkeypatch, capsys, ["sign", str(folder), "--profile", "Nobody"])
    assert code == EXIT_ERROR and "no profile named 'Nobody'" in err
    other = imported_phrase_key(new_mnemonic(), "", "leather", 0, None)
    save_new_key(Vault(FileStore(machine.data), QA_KDF), "other", "regtest", other, PASSWORD, False)
    store = ProfileStore(machine.data)
    store.save(store.load().with_profile(replace(AppProfile.sandbox("Other"), key_name="other")))
    other_sign = ["sign", str(folder), "--profile", "Other"]
    code, _, err = run(machine, monkeypatch, capsys, other_sign, answers="y\n")
    assert code == EXIT_ERROR and "made for another wallet" in err and err.count("\n") == 1

    # A lone PSBT: reviewed, never signed.
    lone = tmp_path / "lone.psbt"
    lone.write_bytes((folder / manifest.items[0].psbt_file).read_bytes())
    code, out, err = run(
        machine, monkeypatch, capsys, ["inspect", str(lone), "--network", "regtest"]
    )
    assert code == EXIT_REFUSED and "REVIEW ONLY" in out and "No manifest says" in out
    lone_sign = ["sign", str(lone), "--profile", PROFILE, "--yes"]
    code, out, err = run(machine, monkeypatch, capsys, lone_sign, passwords=())
    assert code == EXIT_REFUSED and "without its export's manifest is never signed" in err

    # Corrupt: a PSBT file whose manifest digest matches garbage, a garbage lone file, and
    # a manifest that is not JSON.
    garbage = b"psbt\xff\x00 not really"
    (folder / manifest.items[0].psbt_file).write_bytes(garbage)
    data = json.loads((folder / MANIFEST_NAME).read_text())
    data["items"][0]["sha256"] = hashlib.sha256(garbage).hexdigest()
    (folder / MANIFEST_NAME).write_text(json.dumps(data))
    code, out, err = run(machine, monkeypatch, capsys, sign, passwords=())
    assert code == EXIT_ERROR and out == ""
    assert (
        err.startswith(f"bidwallet psbt: {manifest.items[0].psbt_file}: ") and err.count("\n") == 1
    )
    lone.write_bytes(garbage)
    code, _, err = run(machine, monkeypatch, capsys, ["inspect", str(lone)])
    assert code == EXIT_ERROR and err.startswith(f"bidwallet psbt: {lone}: ")
    (folder / MANIFEST_NAME).write_text("{")
    code, _, err = run(machine, monkeypatch, capsys, ["inspect", str(folder)])
    assert code == EXIT_ERROR and err == "bidwallet psbt: manifest.json is not JSON.\n"
    assert not list(folder.glob("*.signed.*"))


async def test_a_fee_above_the_bounds_is_signed_only_once_accepted_at_the_prompt(
    machine: OfflineMachine,
    sandbox: SandboxControl,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    online = machine.watch_only
    await sandbox.faucet((await get_bidding_wallet(online)).address, 90_000)
    export_offline(tmp_path, withdraw_export_items(await prepare_withdraw(online, 40_000)))
    data = json.loads((tmp_path / MANIFEST_NAME).read_text())
    data["items"][0]["intent"]["fees"]["maxFee"] = 100  # the user's bounds: at most 100 sats
    (tmp_path / MANIFEST_NAME).write_text(json.dumps(data))
    sign = ["sign", str(tmp_path), "--profile", PROFILE]

    code, out, err = run(machine, monkeypatch, capsys, ["inspect", str(tmp_path), "--json"])
    assert code == EXIT_REFUSED
    assert json.loads(out)["decision"] == "needs-fee-consent"
    code, out, err = run(machine, monkeypatch, capsys, [*sign, "--yes"], passwords=())
    assert code == EXIT_REFUSED and "--yes never accepts a fee" in err
    assert "NEEDS YOUR CONSENT TO ITS FEE" in out
    code, out, err = run(machine, monkeypatch, capsys, sign, answers="y\nn\n")
    assert code == EXIT_REFUSED and "was not accepted" in err
    assert not list(tmp_path.glob("*.signed.*"))
    code, out, err = run(machine, monkeypatch, capsys, sign, answers="y\ny\n")
    assert code == EXIT_SIGNED, err
    assert "Accept paying" in out and (tmp_path / "01-withdraw.signed.psbt").is_file()


async def test_help_documents_both_commands_and_the_exit_codes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for words in (["psbt", "inspect"], ["psbt", "sign"]):
        with pytest.raises(SystemExit) as done:
            main([*words, "--help"])
        assert done.value.code == 0
        said = " ".join(capsys.readouterr().out.split())
        assert "0 signed" in said and "3 refused" in said and "4 error" in said
        assert "network" in said and "manifest" in said
        if words[1] == "inspect":  # it only prints: saying it signs misled
            assert "nothing is signed here" in said and "Review, and sign" not in said
    assert "--yes" in said and "never an environment variable or an argument" in said


async def test_the_command_asks_the_password_on_its_terminal_and_the_question_on_stdin(
    machine: OfflineMachine, sandbox: SandboxControl, tmp_path: Path
) -> None:
    """`bidwallet psbt sign` as a user runs it: a process whose terminal is a pseudo-terminal,
    the password typed where getpass asks (never an argument or the environment), the set
    confirmed by typing y, then the password typed."""
    folder = tmp_path / "export"
    manifest = await export_listings(machine, sandbox, folder, 1)
    master, slave = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-m", "app", "psbt", "sign", str(folder), "--profile", PROFILE],
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "BIDWALLET_DATA_DIR": str(machine.data)},
        preexec_fn=_controlling_terminal,
    )
    os.close(slave)
    try:
        assert child.stdout is not None
        said = ""
        while "[y/N]" not in said:  # asked before the password: "n" never needs the key
            ready, _, _ = select.select([child.stdout], [], [], 120)
            assert ready and child.poll() is None, said
            said += os.read(child.stdout.fileno(), 4096).decode()
        assert "Verdict for the set: APPROVED" in said
        os.write(master, b"y\n")
        type_password(child, master)
        out, err = child.communicate(timeout=120)
    finally:
        os.close(master)
    assert child.returncode == EXIT_SIGNED, err
    assert "1 secure listing PSBT signed" in out
    assert (folder / manifest.items[0].signed_psbt_file).is_file()


async def test_an_export_changed_while_the_password_is_typed_signs_nothing(
    machine: OfflineMachine,
    sandbox: SandboxControl,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The set signed is the set shown and confirmed: a stick that serves other files (another
    export of this wallet, each PSBT one the policy approves) once the password is asked for
    is refused, nothing signed."""
    folder, other = tmp_path / "shown", tmp_path / "other"
    await export_listings(machine, sandbox, folder, 1)
    await export_listings(machine, sandbox, other, 1)

    def swap_then_type(_prompt: str) -> str:
        for path in folder.iterdir():
            path.unlink()
        for path in other.iterdir():
            (folder / path.name).write_bytes(path.read_bytes())
        return PASSWORD

    monkeypatch.setenv("BIDWALLET_DATA_DIR", str(machine.data))
    monkeypatch.setattr("getpass.getpass", swap_then_type)
    monkeypatch.setattr("sys.stdin", Terminal("y\n"))
    with no_network():
        code = main(["psbt", "sign", str(folder), "--profile", PROFILE])
    err = capsys.readouterr().err
    assert code == EXIT_REFUSED
    assert "changed after its review was shown" in err
    assert not list(folder.glob("*.signed.*"))


async def test_a_set_whose_second_signature_collides_signs_none_of_it(
    machine: OfflineMachine,
    sandbox: SandboxControl,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The ledger refuses the second listing (it would combine with a live signature): the
    first must not be signed either, as the window's batch records the set before signing."""
    from app.core.acp_composition import AcpSignature, acp_signatures
    from app.services.acp_signatures import ledger_of
    from app.services.offline import review_offline

    await export_listings(machine, sandbox, tmp_path, 2)
    second = review_offline(tmp_path, machine.ctx.signing_keys())[1].plan
    (sig,) = acp_signatures(second.review, second.verdict)
    ledger_of(machine.data).record([AcpSignature("ee" * 32 + ":0", sig.commitment, "older")])

    args = ["sign", str(tmp_path), "--profile", PROFILE]
    code, _, err = run(machine, monkeypatch, capsys, args, answers="y\n")
    assert code == EXIT_REFUSED and err.startswith("bidwallet psbt: nothing was signed:")
    assert not list(tmp_path.glob("*.signed.*"))
