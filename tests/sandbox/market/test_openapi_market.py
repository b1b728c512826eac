"""The marketplace routes in the OpenAPI document, fuzzed by schemathesis: no 5xx, every
status documented, every error body carries `errorCode` and `message`."""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import BaseSchema, Case, GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    status_code_conformance,
)

MARKET_OPERATIONS = [
    ("get", "/v1/address/bidding-wallet"),
    ("get", "/v1/address/bids"),
    ("post", "/v1/bid/place"),
    ("get", "/v1/challenge"),
    ("get", "/v1/challenge/verify"),
    ("post", "/v1/cancel"),
    ("post", "/v1/intent/withdraw"),
    ("post", "/v1/withdraw"),
    ("post", "/sandbox/bids/fill"),
]
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    negative_data_rejection,
]
FUZZ_EXAMPLES = 40


async def test_document_lists_the_market_routes(sandbox_client: httpx.AsyncClient) -> None:
    document = (await sandbox_client.get("/openapi.json")).json()
    operations = {(method, path) for path, item in document["paths"].items() for method in item}
    assert set(MARKET_OPERATIONS) <= operations


@pytest.fixture(scope="module")
def market_schema(sandbox_app: FastAPI) -> BaseSchema:
    return schemathesis.openapi.from_asgi("/openapi.json", sandbox_app)


def check_case(case: Case) -> None:
    response = case.call_and_validate(checks=CHECKS)
    where = f"{case.method} {case.formatted_path} -> {response.status_code}: {response.text[:300]}"
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("errorCode"), str) and body["errorCode"], where
        assert isinstance(body.get("message"), str) and body["message"], where


@pytest.mark.parametrize(("method", "path"), MARKET_OPERATIONS)
def test_fuzz_market_routes(market_schema: BaseSchema, method: str, path: str) -> None:
    operation = market_schema[path][method.upper()]
    cases = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )

    @given(case=cases)
    @settings(
        max_examples=FUZZ_EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def run(case: Case) -> None:
        check_case(case)

    run()
