"""The error code table: the spec's codes verbatim, and docs/error-codes.md in step with it."""

from __future__ import annotations

import re
from pathlib import Path

from app.core.errors import ERROR_CODES, ErrorCode, RuleViolation

DOC = Path(__file__).resolve().parents[2] / "docs" / "error-codes.md"
SPEC_CODES = {
    "BIDDING_WALLET_IDENTITY_MISMATCH": 400,
    "COLLECTION_BID_TOO_MANY_ORDERS": 400,
    "COLLECTION_BID_TOO_MANY_ATTRIBUTES": 400,
    "COLLECTION_BID_SIGNATURE_USED": 400,
    "COLLECTION_BID_ATTRIBUTES_NOT_SIGNED": 400,
    "SUBMIT_BID_RATE_LIMITED": 429,
    "SECURE_LISTING_UNSUPPORTED": 400,
}


def test_every_code_has_a_table_row_and_its_value_is_its_name() -> None:
    assert set(ERROR_CODES) == set(ErrorCode)
    assert all(code.value == code.name for code in ErrorCode)


def test_spec_codes_are_verbatim_with_the_spec_status() -> None:
    spec = {c.value: info.status for c, info in ERROR_CODES.items() if info.source == "spec"}
    assert spec == SPEC_CODES
    assert ERROR_CODES[ErrorCode.COLLECTION_BID_TOO_MANY_ORDERS].extra_fields == (
        "field",
        "details.limit",
        "details.requested",
    )
    assert ERROR_CODES[ErrorCode.SUBMIT_BID_RATE_LIMITED].extra_fields == ("retryAfterMs",)


def _doc_rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\|\s*`([A-Z_]+)`\s*\|", line)
        if match:
            assert match.group(1) not in rows, f"{match.group(1)} appears twice in the doc"
            rows[match.group(1)] = [cell.strip() for cell in line.strip("|").split("|")]
    return rows


def test_the_doc_table_lists_every_code_with_its_status_source_and_enforcer() -> None:
    rows = _doc_rows()
    assert set(rows) == {code.value for code in ErrorCode}
    for code, info in ERROR_CODES.items():
        _, status, source, enforced_by, condition, extra = rows[code.value]
        assert (int(status), source, enforced_by) == (info.status, info.source, info.enforced_by)
        assert condition == info.condition, code
        listed = [x.strip(" `") for x in extra.split(",")] if extra != "none" else []
        assert listed == list(info.extra_fields), code


def test_violation_body_and_status() -> None:
    v = RuleViolation(ErrorCode.SUBMIT_BID_RATE_LIMITED, "", "Wait 200 ms: then send it again.")
    assert v.status == 429
    assert v.to_json() == {"errorCode": "SUBMIT_BID_RATE_LIMITED", "message": v.message}
