"""`/ord`: the subset of ord's JSON API the app uses (outputs, inscriptions, addresses)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.sandbox.http.deps import NodeDep
from app.sandbox.http.errors import NOT_FOUND, ApiError, error_responses
from app.sandbox.http.params import AddressPath, InscriptionIdPath, OutpointPath
from app.sandbox.http.schemas_ord import OrdAddress, OrdInscription, OrdOutput

router = APIRouter(prefix="/ord", tags=["ord"], responses=error_responses(400, 413, 500))


@router.get(
    "/output/{outpoint}",
    response_model=OrdOutput,
    responses=error_responses(404),
    summary="an output: value, address, inscriptions and runes on it",
)
def get_output(outpoint: OutpointPath, node: NodeDep) -> Any:
    output = node.ord_output(outpoint.lower())
    if output is None:
        raise ApiError(404, NOT_FOUND, f"output {outpoint} not found")
    return output


@router.get(
    "/inscription/{inscription_id}",
    response_model=OrdInscription,
    responses=error_responses(404),
    summary="an inscription: owner, output, satpoint, collection and traits",
)
def get_inscription(inscription_id: InscriptionIdPath, node: NodeDep) -> Any:
    inscription = node.ord_inscription(inscription_id.lower())
    if inscription is None:
        raise ApiError(404, NOT_FOUND, f"inscription {inscription_id} not found")
    return inscription


@router.get(
    "/address/{address}",
    response_model=OrdAddress,
    summary="outputs, inscriptions and rune balances of an address",
)
def get_address(address: AddressPath, node: NodeDep) -> Any:
    # A Response skips FastAPI's re-validation of long output lists; the model documents it.
    return JSONResponse(node.ord_address(address))
