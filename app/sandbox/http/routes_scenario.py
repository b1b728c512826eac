"""`/sandbox`: the scenario API for demo mode, QA and tests (fund, mine, mint, move, time).

The `/ord` views answer like real ord, which indexes blocks only: an output of a mempool
transaction is `indexed: false` with no inscriptions or runes until a block confirms it.
`POST /sandbox/ord/mempool {"indexed": true}` makes them describe the mempool at once (not what
real ord does); `{"indexed": false}` (the default) restores real ord's answers. It lasts until
changed or the sandbox restarts; `GET /sandbox/info` shows it as `ordIndexesMempool`. The
market's own checks read the current state either way.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.sandbox.http.deps import NodeDep
from app.sandbox.http.errors import NOT_FOUND, ApiError, error_responses
from app.sandbox.http.params import Slug as SlugPath
from app.sandbox.http.schemas_scenario import (
    ClockRequest,
    ClockResponse,
    Collection,
    CreateCollectionRequest,
    CreateInscriptionRequest,
    CreateRunesRequest,
    FaucetRequest,
    FaucetResponse,
    Info,
    InscriptionCreated,
    MempoolTrafficRequest,
    MempoolTrafficResponse,
    MineRequest,
    MineResponse,
    OrdMempoolMode,
    RunesCreated,
    TransferRequest,
    TransferResponse,
)

router = APIRouter(prefix="/sandbox", tags=["sandbox"], responses=error_responses(400, 413, 500))


@router.get("/info", response_model=Info, summary="network, tip, service key and fee settings")
def get_info(node: NodeDep, request: Request) -> Any:
    info = node.info()
    market = getattr(request.app.state, "market", None)
    if market is not None:  # maker fee, bidding wallet kind and service key of the market
        info.update(market.info())
    return info


@router.post(
    "/faucet",
    response_model=FaucetResponse,
    responses=error_responses(409),
    summary="pay regtest coins to an address (unconfirmed until the next block)",
)
def post_faucet(body: FaucetRequest, node: NodeDep) -> Any:
    txid, vout = node.faucet(body.address, body.sats)
    return {"txid": txid, "vout": vout}


@router.post("/mine", response_model=MineResponse, summary="mine blocks now, mempool first")
def post_mine(body: MineRequest, node: NodeDep) -> Any:
    return {"height": node.mine(body.blocks)}


@router.post(
    "/collections",
    response_model=Collection,
    status_code=201,
    responses=error_responses(409),
    summary="create a collection with its traits",
)
def post_collection(body: CreateCollectionRequest, node: NodeDep) -> Any:
    traits = [{"trait_type": t.trait_type, "values": list(t.values)} for t in body.traits]
    return node.create_collection(body.slug, body.name, traits)


@router.get("/collections", response_model=list[Collection], summary="all collections")
def get_collections(node: NodeDep) -> Any:
    return node.collections()


@router.get(
    "/collections/{slug}",
    response_model=Collection,
    responses=error_responses(404),
    summary="one collection with its traits (for a trait picker)",
)
def get_collection(slug: SlugPath, node: NodeDep) -> Any:
    collection = node.collection(slug)
    if collection is None:
        raise ApiError(404, NOT_FOUND, f"collection {slug!r} not found")
    return collection


@router.post(
    "/inscriptions",
    response_model=InscriptionCreated,
    status_code=201,
    responses=error_responses(404, 409),
    summary="inscribe by commit and reveal (ord's envelope: content type, body, traits)",
)
def post_inscription(body: CreateInscriptionRequest, node: NodeDep) -> Any:
    attributes = (
        None
        if body.attributes is None
        else [{"trait_type": a.trait_type, "value": a.value} for a in body.attributes]
    )
    return node.create_inscription(
        body.address,
        collection_slug=body.collectionSlug,
        attributes=attributes,
        postage=body.postage,
        tap_transfer=body.tapTransfer,
        content_type=body.contentType,
        body=None if body.body is None else body.body.encode("utf-8", "surrogatepass"),
    )


@router.post(
    "/runes",
    response_model=RunesCreated,
    status_code=201,
    responses=error_responses(409),
    summary="runes onto a new output of an address by runestones: a new rune etched (5 "
    "blocks mined), an etched one sent from the sandbox's reserve",
)
def post_runes(body: CreateRunesRequest, node: NodeDep) -> Any:
    return node.create_runes(body.address, body.rune, body.amount)


@router.post(
    "/transfer",
    response_model=TransferResponse,
    responses=error_responses(404, 409),
    summary="move an inscription held by a sandbox key, with a real transaction",
)
def post_transfer(body: TransferRequest, node: NodeDep) -> Any:
    return {"txid": node.transfer_inscription(body.inscriptionId.lower(), body.toAddress)}


@router.post("/clock", response_model=ClockResponse, summary="move the service clock forward")
def post_clock(body: ClockRequest, node: NodeDep) -> Any:
    clock_ms = node.clock.advance(body.advanceMs)
    return {"clockMs": clock_ms, "clockOffsetMs": node.clock.offset_ms}


@router.post(
    "/mempool/traffic",
    response_model=MempoolTrafficResponse,
    responses=error_responses(409),
    summary="fill the mempool with transactions at a fee rate (a busy network's fee estimates)",
    description=(
        "The sandbox's wallet sends about `vbytes` of transactions paying `feeRate` sat/vB "
        "(OP_RETURN data: ord ignores them). Fee estimates follow the mempool by projected "
        "block, so with more than a block's worth waiting they differ by confirmation target; "
        "mining confirms them best fee rate first. Refused (409 MEMPOOL_BUSY) while the "
        "mempool holds more than 6,000,000 vbytes."
    ),
)
def post_mempool_traffic(body: MempoolTrafficRequest, node: NodeDep) -> Any:
    txids = node.add_traffic(body.feeRate, body.vbytes)
    return {"txids": txids, "feeEstimates": node.fee_estimates()}


@router.post(
    "/ord/mempool",
    response_model=OrdMempoolMode,
    summary="whether the /ord views describe the mempool, or answer like real ord (the default)",
    description=(
        '`{"indexed": false}` (the default): the `/ord` views answer from the confirmed chain '
        "as real ord does: an output whose transaction is still in the mempool is `indexed: "
        'false` with no inscriptions or runes. `{"indexed": true}` describes the mempool at '
        "once (outputs, inscriptions, addresses). Not kept across restarts."
    ),
)
def post_ord_mempool(body: OrdMempoolMode, node: NodeDep) -> Any:
    return {"indexed": node.set_ord_indexes_mempool(body.indexed)}
