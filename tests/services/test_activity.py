"""The activity log: redaction of anything secret-looking, persistence across restarts,
errorCode/message/txid capture, trimming."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.net.errors import ConnectFailed, HttpError
from app.services.activity import (
    REDACTED,
    ActivityEntry,
    ActivityLog,
    describe_error,
    redact,
)

MNEMONIC_12 = "abandon " * 11 + "about"
MNEMONIC_24 = ("abandon " * 23 + "art").strip()
WIF_MAIN = "KwFfpDsaF7yxCELuyrH9gP5XL7TAt5b9HPWC1xCQbmrxvhJgMQHb"
WIF_REGTEST = "cMcfH8sRgBgDMfpBNG6H3haaxLkaYXgqMRef8Nev6tWyBSNr6c3n"
WIF_UNCOMPRESSED = "5HpjKrb7dH5kKQQzmbjB87Mxova7mek5bXUTWfndcX6tBoqUwzm"
XPRV = (
    "xprv9s21ZrQH143K4VHfAaPWRTm4aoHAZhJHunsZZTQptR82FSTZRjBGXBP8kQKHrUVUE8vMM2Z3h7UoG9x9XCt9"
    "FHQ1t1nHU7zQDqrEszAg28q"
)
TPRV = (
    "tprv8ZgxMBicQKsPfJXBq9F1b7P3tvhNoDLJFLngRsqHNPcW33CeR6X22vkafaUwrqsnbaT8M8AorU4bj1VteRE6"
    "4LfcQezb8UiT8wbfKg6ZvSw"
)
TXID = "b5ec3d107f6c57510ee779f318ab1fdf9b080fbd2e715575aa836688b43c42e0"
ADDRESS = "bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x"
INSCRIPTION = f"{TXID}i0"
SECRETS = (MNEMONIC_12, MNEMONIC_24, WIF_MAIN, WIF_REGTEST, WIF_UNCOMPRESSED, XPRV, TPRV)


@pytest.mark.parametrize("secret", SECRETS)
def test_secret_values_are_removed_wherever_they_appear(secret: str) -> None:
    text = redact(f"failed to import {secret}; errno 22")
    assert secret not in text and REDACTED in text
    assert text.startswith("failed to import") and text.endswith("; errno 22")


def test_a_mnemonic_in_any_case_and_spacing_is_removed() -> None:
    shouted = "\n".join(MNEMONIC_12.upper().split())
    assert "ABANDON" not in redact(f"phrase: {shouted}")
    # 11 words are not a phrase: ordinary prose made of list words survives.
    short = " ".join(MNEMONIC_12.split()[:11])
    assert redact(short) == short


def test_fields_named_like_secrets_are_dropped_even_when_harmless_looking() -> None:
    details = {
        "password": "hunter2",
        "API-Key": "k",
        "nested": {"mnemonic": "x", "wif": "y", "privateKey": "z", "seed": [1, 2]},
        "items": [{"x-api-key": "q", "txid": TXID}],
        "amount": 1000,
    }
    cleaned = redact(details)
    assert cleaned == {
        "password": REDACTED,
        "API-Key": REDACTED,
        "nested": {"mnemonic": REDACTED, "wif": REDACTED, "privateKey": REDACTED, "seed": REDACTED},
        "items": [{"x-api-key": REDACTED, "txid": TXID}],
        "amount": 1000,
    }


def test_public_data_is_kept() -> None:
    text = f"broadcast {TXID} to {ADDRESS}, inscription {INSCRIPTION}, Bearer-free"
    assert redact(text) == text


def test_known_secret_values_and_bearer_tokens_are_removed() -> None:
    assert redact("echo: sk_live_42abc", ["sk_live_42abc"]) == f"echo: {REDACTED}"
    assert "abc.def" not in redact("Authorization: Bearer abc.def")


def test_entries_persist_across_instances_and_never_hold_secrets(tmp_path: Path) -> None:
    log = ActivityLog.in_dir(tmp_path, known_secrets=["my-api-key-123"])
    log.record("sandbox.faucet", ok=True, txid=TXID, details={"address": ADDRESS})
    log.record(
        "wallet.import",
        ok=False,
        message=f"bad phrase {MNEMONIC_12} with key my-api-key-123",
        error_code="BAD_INPUT",
        details={"wif": WIF_MAIN, "note": WIF_REGTEST},
    )
    text = log.path.read_text(encoding="utf-8")
    for secret in (*SECRETS[:2], WIF_MAIN, WIF_REGTEST, "my-api-key-123"):
        assert secret not in text
    again = ActivityLog.in_dir(tmp_path)
    assert [(e.action, e.ok, e.txid, e.error_code) for e in again.entries()] == [
        ("sandbox.faucet", True, TXID, None),
        ("wallet.import", False, None, "BAD_INPUT"),
    ]
    assert again.entries()[0].details == {"address": ADDRESS}


def test_damaged_lines_are_skipped(tmp_path: Path) -> None:
    log = ActivityLog.in_dir(tmp_path)
    log.record("a", ok=True)
    with log.path.open("a", encoding="utf-8") as handle:
        handle.write("{not json\n")
        handle.write(json.dumps({"no": "fields"}) + "\n")
    log.record("b", ok=True)
    assert [e.action for e in ActivityLog.in_dir(tmp_path).entries()] == ["a", "b"]


def test_the_file_is_trimmed_to_the_newest_entries(tmp_path: Path) -> None:
    log = ActivityLog.in_dir(tmp_path, max_entries=10)
    for number in range(13):
        log.record(f"step {number}", ok=True)
    kept = [e.action for e in ActivityLog.in_dir(tmp_path, max_entries=10).entries()]
    assert kept == [f"step {n}" for n in range(3, 13)]
    assert len(log.path.read_text().splitlines()) <= 12


async def test_track_records_success_with_txid_and_failure_with_error_code(
    tmp_path: Path,
) -> None:
    log = ActivityLog.in_dir(tmp_path)
    seen: list[ActivityEntry] = []
    unsubscribe = log.subscribe(seen.append)
    async with log.track("bid.place", collection="pixel-punks") as result:
        result.txid = TXID
        result.message = "placed"
    with pytest.raises(HttpError):
        async with log.track("bid.cancel", bid="b1"):
            raise HttpError("marketplace", 400, "bid already filled", "BID_FILLED")
    unsubscribe()
    log.record("after", ok=True)
    assert [(e.action, e.ok) for e in seen] == [("bid.place", True), ("bid.cancel", False)]
    placed, cancelled = seen
    assert placed.txid == TXID and placed.details == {"collection": "pixel-punks"}
    assert cancelled.error_code == "BID_FILLED"
    assert cancelled.message == "bid already filled (HTTP 400)"


def test_describe_error_gives_plain_messages() -> None:
    failed = ConnectFailed(
        "esplora", "GET", "/tx", "could not connect: the request was not applied"
    )
    assert describe_error(failed) == (
        None,
        "esplora: could not connect: the request was not applied",
    )
    assert describe_error(ValueError("price below 10000")) == (None, "price below 10000")
    assert describe_error(RuntimeError()) == (None, "RuntimeError")


def test_entry_json_round_trip_keeps_the_time_zone() -> None:
    entry = ActivityEntry(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), "x", True, txid=TXID)
    assert ActivityEntry.from_json(entry.to_json()) == entry
