"""`/ord`: the subset of ord's JSON API the app uses (outputs, inscriptions, addresses, runes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Path
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from app.sandbox.chain.ord_envelope_fields import content
from app.sandbox.http.deps import NodeDep
from app.sandbox.http.errors import NOT_ACCEPTABLE, NOT_FOUND, ApiError, error_responses
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
            "a rune name: its letters, or spaced with '•' or '.' (e.g. DOG•GO); a rune id "
            "`<block>:<tx>`; or a rune number"
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


# ord's server/r.rs `content_response` (ord run without --csp-origin or --decompress).
CONTENT_CACHE_CONTROL = "public, max-age=1209600, immutable"
CONTENT_SECURITY_POLICIES = (
    "default-src 'self' 'unsafe-eval' 'unsafe-inline' data: blob:",
    "default-src *:*/content/ *:*/blockheight *:*/blockhash *:*/blockhash/ *:*/blocktime "
    "*:*/r/ 'unsafe-eval' 'unsafe-inline' data: blob:",
)
OCTET_STREAM = "application/octet-stream"


@router.get(
    "/content/{inscription_id}",
    response_class=Response,
    responses={
        **error_responses(404, 406),
        200: {
            "content": {OCTET_STREAM: {"schema": {"type": "string", "format": "binary"}}},
            "description": "the body, in the envelope's content type",
        },
    },
    summary="an inscription's content, as ord's `/content/<id>` serves it",
    description=(
        "The envelope's body (a delegate's when it names one) with its content type (else "
        "application/octet-stream) and ord's Cache-Control and Content-Security-Policy; a "
        "content encoding is passed on when Accept-Encoding names it, else 406. 404 for an "
        "unknown inscription, or one without a body."
    ),
)
def get_content(
    inscription_id: InscriptionIdPath,
    node: NodeDep,
    accept_encoding: Annotated[str | None, Header()] = None,
) -> Response:
    confirmed_only = not node.ord_indexes_mempool
    found = node.read_index(lambda conn: content(conn, inscription_id.lower(), confirmed_only))
    response = Response(found.body, headers={"cache-control": CONTENT_CACHE_CONTROL})
    response.headers["content-type"] = _header_text(found.content_type) or OCTET_STREAM
    for policy in CONTENT_SECURITY_POLICIES:
        response.headers.append("content-security-policy", policy)
    if found.content_encoding is not None:
        encoding = _header_text(_utf8_or_empty(found.content_encoding))
        if encoding is not None:
            offered = (accept_encoding or "").split(",")
            if not any(v.split(";")[0].strip() == encoding for v in offered):
                raise ApiError(
                    406,
                    NOT_ACCEPTABLE,
                    f"inscription content encoding `{encoding}` is not acceptable",
                )
            response.headers["content-encoding"] = encoding
    return response


def _utf8_or_empty(value: bytes) -> str:
    try:  # ord: `str::from_utf8(..).unwrap_or_default()`
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return ""


def _header_text(value: bytes | str | None) -> str | None:
    """A header value as ord's `HeaderValue` takes one (tab, or bytes from space on but DEL),
    as latin-1 text so it is sent byte for byte; None when it is not one."""
    if value is None:
        return None
    raw = value.encode("utf-8") if isinstance(value, str) else value
    if any(not ((b >= 0x20 and b != 0x7F) or b == 0x09) for b in raw):
        return None
    return raw.decode("latin-1")


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
    summary=(
        "a rune's entry and id `<block>:<tx>`, by its name (letters or spaced), its id or its "
        "number"
    ),
    description=(
        "404 until a block holds its etching. `mintable`: a mint in the next block would "
        "count; `parent`: the inscription `<etching>i0`, when the etching made one."
    ),
)
def get_rune(name: RuneNamePath, node: NodeDep) -> Any:
    found = node.ord_rune_api(name)  # a malformed name raises InvalidRequest: 400
    if found is None:
        raise ApiError(404, NOT_FOUND, f"rune {name} not found")
    return found


@router.get(
    "/blockheight",
    response_model=int,
    summary="the height of the last block ord has indexed (the sandbox indexes every block)",
)
def get_block_height(node: NodeDep) -> Any:
    return node.tip_height
