"""`/ord`: the subset of ord's JSON API the app uses (outputs, inscriptions, addresses, runes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path
from fastapi.responses import JSONResponse
from pydantic import Field

from app.sandbox.http.deps import NodeDep
from app.sandbox.http.errors import NOT_FOUND, ApiError, error_responses
from app.sandbox.http.params import (
    INSCRIPTION_ID_PATTERN,
    OUTPOINT_PATTERN,
    AddressPath,
    InscriptionIdPath,
    OutpointPath,
)
from app.sandbox.http.schemas_ord import OrdAddress, OrdInscription, OrdOutput, OrdRune

router = APIRouter(prefix="/ord", tags=["ord"], responses=error_responses(400, 413, 500))

RuneNamePath = Annotated[
    str,
    Path(
        min_length=1,
        max_length=64,
        description=(
            "a rune name: its letters, or spaced with '•' or '.' (e.g. DOG•GO); or a rune id "
            "`<block>:<tx>`"
        ),
    ),
]


@router.get(
    "/output/{outpoint}",
    response_model=OrdOutput,
    responses=error_responses(404),
    summary="an output: value, address, inscriptions and runes on it",
    description=(
        "As real ord, from the confirmed chain: an output of a mempool transaction is "
        "`indexed: false` with no inscriptions or runes; one spent in the mempool keeps what "
        "it held, with `spent: true`; one spent in a block is `indexed: false` and empty. "
        '`POST /sandbox/ord/mempool {"indexed": true}` shows the mempool instead.'
    ),
)
def get_output(outpoint: OutpointPath, node: NodeDep) -> Any:
    output = node.ord_served("output", outpoint.lower())
    if output is None:
        raise ApiError(404, NOT_FOUND, f"output {outpoint} not found")
    return output


# ord's batch lookups take any number; the sandbox bounds a request to what a bulk review needs.
MAX_BATCH = 1000
OutpointList = Annotated[
    list[Annotated[str, Field(pattern=OUTPOINT_PATTERN)]],
    Body(max_length=MAX_BATCH, description="`<txid>:<vout>` strings"),
]
InscriptionIdList = Annotated[
    list[Annotated[str, Field(pattern=INSCRIPTION_ID_PATTERN)]],
    Body(max_length=MAX_BATCH, description="inscription ids `<txid>i<n>`"),
]


@router.post(
    "/outputs",
    response_model=list[OrdOutput],
    responses=error_responses(404),
    summary="several outputs in one request, in the order asked (ord's `POST /outputs`)",
    description="404 when any of them is unknown, as `GET /ord/output/{outpoint}` answers.",
)
def post_outputs(outpoints: OutpointList, node: NodeDep) -> Any:
    return _each(outpoints, lambda key: node.ord_served("output", key), "output")


@router.post(
    "/inscriptions",
    response_model=list[OrdInscription],
    responses=error_responses(404),
    summary="several inscriptions in one request, in the order asked (ord's `POST /inscriptions`)",
    description="404 when any of them is unknown, as `GET /ord/inscription/{id}` answers.",
)
def post_inscriptions(inscription_ids: InscriptionIdList, node: NodeDep) -> Any:
    return _each(inscription_ids, lambda key: node.ord_served("inscription", key), "inscription")


def _each(keys: list[str], look_up: Callable[[str], Any], what: str) -> JSONResponse:
    """A batch lookup's answer: each key's single lookup in the order asked, or a 404 naming
    the first unknown one. A Response skips FastAPI's re-validation of up to MAX_BATCH
    entries; the route's model documents them."""
    found = []
    for key in keys:
        entry = look_up(key.lower())
        if entry is None:
            raise ApiError(404, NOT_FOUND, f"{what} {key} not found")
        found.append(entry)
    return JSONResponse(found)


@router.get(
    "/inscription/{inscription_id}",
    response_model=OrdInscription,
    responses=error_responses(404),
    summary="an inscription: owner, output, satpoint, collection and traits",
    description="Where the last block left it; 404 while its reveal is in the mempool.",
)
def get_inscription(inscription_id: InscriptionIdPath, node: NodeDep) -> Any:
    inscription = node.ord_served("inscription", inscription_id.lower())
    if inscription is None:
        raise ApiError(404, NOT_FOUND, f"inscription {inscription_id} not found")
    return inscription


@router.get(
    "/address/{address}",
    response_model=OrdAddress,
    summary="outputs, inscriptions and rune balances of an address",
    description="The last block's unspent outputs (those spent in the mempool included).",
)
def get_address(address: AddressPath, node: NodeDep) -> Any:
    # A Response skips FastAPI's re-validation of long output lists; the model documents it.
    return JSONResponse(node.ord_served("address", address))


@router.get(
    "/rune/{name}",
    response_model=OrdRune,
    responses=error_responses(404),
    summary="a rune's entry and id `<block>:<tx>`, by its name (letters or spaced) or its id",
    description="404 until a block holds the transaction that created the rune's first balance.",
)
def get_rune(name: RuneNamePath, node: NodeDep) -> Any:
    found = node.ord_rune(name)  # a malformed name raises InvalidRequest: 400
    if found is None:
        raise ApiError(404, NOT_FOUND, f"rune {name} not found")
    rune_id, entry = found
    return {"entry": entry, "id": rune_id, "mintable": False, "parent": None}


@router.get(
    "/blockheight",
    response_model=int,
    summary="the height of the last block ord has indexed (the sandbox indexes every block)",
)
def get_block_height(node: NodeDep) -> Any:
    return node.tip_height
