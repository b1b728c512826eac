"""`/esplora`: the subset of Blockstream Esplora's HTTP API the app uses, on the sandbox chain,
and mempool.space's `/v1/fees/recommended` (which clients of the public service ask its
Esplora-compatible indexer for)."""

from __future__ import annotations

import math
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.concurrency import run_in_threadpool

from app.sandbox.chain.consensus import MIN_RELAY_FEE_RATE
from app.sandbox.http.deps import NodeDep
from app.sandbox.http.errors import INVALID_REQUEST, NOT_FOUND, ApiError, error_responses
from app.sandbox.http.params import AddressPath, BlockHashPath, TxidPath, VoutPath
from app.sandbox.http.schemas_esplora import (
    AddressInfo,
    Block,
    Outspend,
    RecommendedFees,
    Transaction,
    TxStatus,
    Utxo,
)

router = APIRouter(prefix="/esplora", tags=["esplora"], responses=error_responses(400, 413, 500))

_TEXT = {"content": {"text/plain": {"schema": {"type": "string"}}}}
_RAW_TX_BODY = {
    "requestBody": {
        "required": True,
        "description": "the raw transaction, hex encoded",
        "content": {"text/plain": {"schema": {"type": "string", "pattern": "^([0-9a-fA-F]{2})+$"}}},
    }
}


def _tx_not_found(txid: str) -> ApiError:
    return ApiError(404, NOT_FOUND, f"transaction {txid} not found")


@router.get(
    "/address/{address}",
    response_model=AddressInfo,
    response_model_exclude_unset=True,
    summary="address statistics (confirmed and mempool)",
)
def get_address(address: AddressPath, node: NodeDep) -> Any:
    return node.address_stats(address)


@router.get(
    "/address/{address}/utxo",
    response_model=list[Utxo],
    response_model_exclude_unset=True,
    summary="unspent outputs of an address, confirmed and unconfirmed",
)
def get_address_utxo(address: AddressPath, node: NodeDep) -> Any:
    # Returned as a Response, FastAPI skips re-validating each of possibly 10,000s of entries
    # (4x the chain's own time); `response_model` still documents the shape.
    return JSONResponse(node.address_utxos(address))


@router.get(
    "/tx/{txid}",
    response_model=Transaction,
    response_model_exclude_unset=True,
    responses=error_responses(404),
    summary="a transaction with its prevouts, fee and status",
)
def get_tx(txid: TxidPath, node: NodeDep) -> Any:
    tx = node.tx_json(txid.lower())
    if tx is None:
        raise _tx_not_found(txid)
    return tx


@router.get(
    "/tx/{txid}/hex",
    response_class=PlainTextResponse,
    responses={200: _TEXT, **error_responses(404)},
    summary="the raw transaction, hex encoded",
)
def get_tx_hex(txid: TxidPath, node: NodeDep) -> str:
    raw = node.tx_hex(txid.lower())
    if raw is None:
        raise _tx_not_found(txid)
    return raw


@router.get(
    "/tx/{txid}/status",
    response_model=TxStatus,
    response_model_exclude_unset=True,
    responses=error_responses(404),
    summary="confirmation status of a transaction",
)
def get_tx_status(txid: TxidPath, node: NodeDep) -> Any:
    status = node.tx_status(txid.lower())
    if status is None:
        raise _tx_not_found(txid)
    return status


@router.get(
    "/tx/{txid}/outspend/{vout}",
    response_model=Outspend,
    response_model_exclude_unset=True,
    summary="whether an output is spent, and by which input (mempool spends included)",
    description="As in Esplora, an unknown transaction or a vout past its outputs answers "
    '`{"spent": false}`, not 404.',
)
def get_tx_outspend(txid: TxidPath, vout: VoutPath, node: NodeDep) -> Any:
    return node.outspend(txid.lower(), vout)


@router.post(
    "/tx",
    response_class=PlainTextResponse,
    responses={200: {"description": "the txid", **_TEXT}},
    openapi_extra=_RAW_TX_BODY,
    summary="broadcast a raw transaction into the sandbox mempool",
)
async def post_tx(request: Request, node: NodeDep) -> str:
    raw = _parse_tx_hex(await request.body())
    txid: str = await run_in_threadpool(node.broadcast, raw)
    return txid


def _parse_tx_hex(body: bytes) -> bytes:
    try:
        text = body.decode("ascii").strip()
        raw = bytes.fromhex(text)
    except ValueError as exc:  # UnicodeDecodeError is a ValueError too
        raise ApiError(400, INVALID_REQUEST, "request body must be the transaction in hex") from exc
    if not raw:
        raise ApiError(
            400, INVALID_REQUEST, "request body is empty: expected the transaction in hex"
        )
    return raw


@router.get(
    "/fee-estimates",
    response_model=dict[str, float],
    summary="fee rate (sat/vB) by confirmation target in blocks",
)
def get_fee_estimates(node: NodeDep) -> Any:
    return node.fee_estimates()


@router.get(
    "/v1/fees/recommended",
    response_model=RecommendedFees,
    summary="mempool.space's recommended fee rates (whole sat/vB), from the same estimates",
)
def get_recommended_fees(node: NodeDep) -> Any:
    estimates = node.fee_estimates()

    def rate(target: int) -> int:
        return math.ceil(estimates[str(target)])

    return {
        "fastestFee": rate(1),
        "halfHourFee": rate(3),
        "hourFee": rate(6),
        "economyFee": rate(144),
        "minimumFee": math.ceil(MIN_RELAY_FEE_RATE),
    }


@router.get(
    "/blocks/tip/height",
    response_class=PlainTextResponse,
    responses={200: _TEXT},
    summary="height of the chain tip",
)
def get_tip_height(node: NodeDep) -> str:
    return str(node.tip_height)


@router.get(
    "/blocks/tip/hash",
    response_class=PlainTextResponse,
    responses={200: _TEXT},
    summary="hash of the chain tip",
)
def get_tip_hash(node: NodeDep) -> str:
    return str(node.tip_hash)


@router.get(
    "/block/{hash}",
    response_model=Block,
    responses=error_responses(404),
    summary="a block of the active chain: header fields, size, weight, median time past",
)
def get_block(hash: BlockHashPath, node: NodeDep) -> Any:
    block = node.block_json(hash.lower())
    if block is None:
        raise ApiError(404, NOT_FOUND, f"block {hash} not found")
    return block
