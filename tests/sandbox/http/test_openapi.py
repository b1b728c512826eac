"""The OpenAPI document lists every endpoint with its schemas, and a schemathesis run against
it finds no 5xx and no 4xx without the error envelope."""

from __future__ import annotations

from typing import Any

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
    response_schema_conformance,
    status_code_conformance,
)

EXPECTED_OPERATIONS = {
    ("get", "/esplora/address/{address}"),
    ("get", "/esplora/address/{address}/utxo"),
    ("get", "/esplora/tx/{txid}"),
    ("get", "/esplora/tx/{txid}/hex"),
    ("get", "/esplora/tx/{txid}/status"),
    ("get", "/esplora/tx/{txid}/outspend/{vout}"),
    ("post", "/esplora/tx"),
    ("get", "/esplora/fee-estimates"),
    ("get", "/esplora/v1/fees/recommended"),
    ("get", "/esplora/blocks/tip/height"),
    ("get", "/esplora/blocks/tip/hash"),
    ("get", "/esplora/block/{hash}"),
    ("get", "/ord/blockheight"),
    ("get", "/ord/output/{outpoint}"),
    ("post", "/ord/outputs"),
    ("post", "/ord/inscriptions"),
    ("get", "/ord/inscription/{inscription_id}"),
    ("get", "/ord/content/{inscription_id}"),
    ("get", "/ord/address/{address}"),
    ("get", "/ord/rune/{name}"),
    ("get", "/ord/runes"),
    ("get", "/ord/runes/{page}"),
    ("get", "/sandbox/info"),
    ("post", "/sandbox/faucet"),
    ("post", "/sandbox/mine"),
    ("post", "/sandbox/collections"),
    ("get", "/sandbox/collections"),
    ("get", "/sandbox/collections/{slug}"),
    ("post", "/sandbox/inscriptions"),
    ("post", "/sandbox/inscribe"),
    ("post", "/sandbox/runes"),
    ("post", "/sandbox/transfer"),
    ("post", "/sandbox/clock"),
    ("post", "/sandbox/ord/mempool"),
    ("post", "/sandbox/mempool/traffic"),
    ("get", "/sandbox/addresses/{label}"),
    ("post", "/sandbox/bids/fill"),
    ("post", "/sandbox/inscription-bids/accept"),
    ("post", "/sandbox/listings/purchase"),
    ("post", "/sandbox/market/runestones"),
    # The market's other participants (issue 16).
    ("post", "/sandbox/market/listings"),
    ("delete", "/sandbox/market/listings/{listingId}"),
    ("post", "/sandbox/market/bids"),
    ("delete", "/sandbox/market/bids/{bidId}"),
    ("post", "/sandbox/market/sale"),
    ("post", "/sandbox/market/floor"),
    ("post", "/sandbox/market/simulate"),
    # Faults on demand (issue 20).
    ("post", "/sandbox/faults"),
    ("get", "/sandbox/faults"),
    ("delete", "/sandbox/faults"),
    ("delete", "/sandbox/faults/{faultId}"),
    ("get", "/sandbox/faults/tampers"),
    ("get", "/sandbox/requests"),
    ("delete", "/sandbox/requests"),
    # The marketplace API of the spec, plus the sandbox's read-only views of its own state.
    ("get", "/v1/collection"),
    ("get", "/v1/address/bidding-wallet"),
    ("get", "/v1/address/bids"),
    ("post", "/v1/bid/place"),
    ("get", "/v1/challenge"),
    ("get", "/v1/challenge/verify"),
    ("post", "/v1/cancel"),
    ("post", "/v1/intent/withdraw"),
    ("post", "/v1/withdraw"),
    ("post", "/v1/intent/bid"),
    ("get", "/v1/address/inscription-bids"),
    ("get", "/v1/inscription-bids/{bidId}"),
    ("post", "/v1/intent/secure-sell"),
    ("post", "/v1/intent/secure-bulk-sell"),
    ("post", "/v1/list/secure"),
    ("post", "/v1/intent/secure-purchase"),
    ("get", "/v1/listings"),
    ("get", "/v1/listings/{listingId}"),
    # Market reads in the public service's shapes (issue 16).
    ("get", "/v1/activity/listings"),
    ("get", "/v1/activity/bids"),
    ("get", "/v1/activity/sales"),
    ("get", "/v1/collection-stats"),
    ("get", "/v1/collection-stats/floors"),
    ("get", "/v1/address/wallet-contents"),
}
# The extra fields an error body may carry (spec section 7 and docs/error-codes.md).
ERROR_EXTRAS = {"field", "details", "retryAfterMs", "violations"}
# Enough examples to hit every operation with edge values; the whole file stays well under 60 s.
FUZZ_EXAMPLES = 50


async def openapi_document(client: httpx.AsyncClient) -> dict[str, Any]:
    response = await client.get("/openapi.json")
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


async def test_document_lists_every_endpoint(sandbox_client: httpx.AsyncClient) -> None:
    document = await openapi_document(sandbox_client)
    operations = {(method, path) for path, item in document["paths"].items() for method in item}
    assert operations == EXPECTED_OPERATIONS


async def test_every_operation_has_response_and_request_schemas(
    sandbox_client: httpx.AsyncClient,
) -> None:
    document = await openapi_document(sandbox_client)
    schemas = document["components"]["schemas"]
    for path, item in document["paths"].items():
        for method, operation in item.items():
            where = f"{method.upper()} {path}"
            responses = operation["responses"]
            assert "422" not in responses, where  # validation errors are 400 INVALID_REQUEST
            success = responses.get("200") or responses.get("201")
            assert success is not None, where
            [(media_type, content)] = success["content"].items()
            # ord's /content/<id> serves the body as it is, in the envelope's content type
            binary = (
                media_type == "application/octet-stream" and path == "/ord/content/{inscription_id}"
            )
            assert media_type in ("application/json", "text/plain") or binary, where
            assert content["schema"], where
            assert responses["400"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/ErrorBody"
            }, where
            if method == "post":
                body = operation["requestBody"]["content"]
                [(media_type, content)] = body.items()
                assert content["schema"], where
    assert set(schemas["ErrorBody"]["required"]) == {"errorCode", "message"}
    assert set(schemas["ErrorBody"]["properties"]) == {"errorCode", "message"} | ERROR_EXTRAS
    assert "HTTPValidationError" not in schemas


@pytest.fixture(scope="module")
def sandbox_schema(sandbox_app: FastAPI) -> BaseSchema:
    return schemathesis.openapi.from_asgi("/openapi.json", sandbox_app)


# Beyond "no 5xx": 2xx bodies match their schemas, every status and content type is documented,
# and schema-violating requests are refused.
CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
    negative_data_rejection,
]


def check_case(case: Case) -> None:
    response = case.call_and_validate(checks=CHECKS)
    where = f"{case.method} {case.formatted_path} -> {response.status_code}: {response.text[:300]}"
    if response.status_code >= 400:
        body = response.json()
        assert {"errorCode", "message"} <= set(body) <= {"errorCode", "message"} | ERROR_EXTRAS
        assert isinstance(body["errorCode"], str) and body["errorCode"], where
        assert isinstance(body["message"], str) and body["message"], where


# One test per operation, each a hypothesis run over valid and invalid requests built from the
# OpenAPI document. (schemathesis' lazy `from_fixture` does not work with this pytest version.)
@pytest.mark.parametrize(("method", "path"), sorted(EXPECTED_OPERATIONS))
def test_fuzz_no_5xx_and_every_4xx_has_the_envelope(
    sandbox_schema: BaseSchema, sandbox_app: FastAPI, method: str, path: str
) -> None:
    operation = sandbox_schema[path][method.upper()]
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
        try:
            check_case(case)
        finally:
            sandbox_app.state.faults.clear()  # a fault the fuzzer armed must not hit the next case

    run()
