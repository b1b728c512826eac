"""Hostile input on the issue-6 routes: schemathesis builds valid and invalid requests from the
OpenAPI document; none may give a 5xx, and every 4xx carries the error envelope."""

from __future__ import annotations

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import BaseSchema, Case, GenerationMode

OPERATIONS = [
    ("POST", "/v1/intent/bid"),
    ("GET", "/v1/address/inscription-bids"),
    ("GET", "/v1/inscription-bids/{bidId}"),
    ("POST", "/v1/intent/secure-sell"),
    ("POST", "/v1/intent/secure-bulk-sell"),
    ("POST", "/v1/list/secure"),
    ("POST", "/v1/intent/secure-purchase"),
    ("GET", "/v1/listings"),
    ("GET", "/v1/listings/{listingId}"),
    ("POST", "/sandbox/inscription-bids/accept"),
    ("POST", "/sandbox/listings/purchase"),
    ("GET", "/sandbox/addresses/{label}"),
]
EXAMPLES = 20


@pytest.fixture(scope="module")
def schema(sandbox_app: FastAPI) -> BaseSchema:
    return schemathesis.openapi.from_asgi("/openapi.json", sandbox_app)


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_no_server_error_and_errors_have_the_envelope(
    schema: BaseSchema, method: str, path: str
) -> None:
    operation = schema[path][method]
    cases = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )

    @given(case=cases)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def run(case: Case) -> None:
        response = case.call(headers={"content-type": "application/json"})
        assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.text}"
        if response.status_code >= 400:
            body = response.json()
            assert isinstance(body.get("errorCode"), str) and body["errorCode"], response.text
            assert isinstance(body.get("message"), str), response.text

    run()
