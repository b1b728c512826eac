"""`POST /sandbox/inscribe`: an inscription made as ord makes one, by commit and reveal.

The reveal's witness carries ord's envelope (content type, body, optional pointer and parent)
and the indexer derives the inscription from it by ord's rules (chain/envelope_index.py): on
the first sat of the reveal's first output, or on the sat its pointer names; with no outputs
the reveal pays everything to the fee (its only output an OP_RETURN of 0 sats) and the
inscription goes to the coinbase of the block that confirms it. A parent must sit on a
sandbox-held output: the reveal spends it first and returns it whole to the same address, and
the child joins the parent's collection, with `attributes` (checked against the collection's
traits) carried as the envelope's CBOR metadata. `POST /sandbox/inscriptions` makes an item the
same way with less to say (its address, collection, traits, postage; the body by default).
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field, model_validator

from app.core.inscription_envelope import Inscription, inscription_id_value, pointer_field
from app.sandbox.chain.addresses import script_for_address
from app.sandbox.chain.inscribe import child_metadata, inscribe, parent_input
from app.sandbox.chain.inscribe_items import MAX_BODY_BYTES, MAX_CONTENT_TYPE, MAX_POSTAGE
from app.sandbox.http.deps import NodeDep
from app.sandbox.http.errors import error_responses
from app.sandbox.http.params import INSCRIPTION_ID_PATTERN
from app.sandbox.http.schemas_scenario import MAX_TRAITS, Address, StrictRequest, Trait

router = APIRouter(prefix="/sandbox", tags=["sandbox"], responses=error_responses(400, 413, 500))

MAX_REVEAL_OUTPUTS = 10
FEE_ONLY_OUTPUT = b"\x6a\x03ord"  # OP_RETURN "ord": 0 sats, keeps the reveal above 65 bytes
_HEX = re.compile(r"^(?:[0-9a-fA-F]{2})*$")


class RevealOutput(StrictRequest):
    address: Address
    value: Annotated[int, Field(ge=1, le=MAX_POSTAGE)]


class InscribeRequest(StrictRequest):
    outputs: Annotated[list[RevealOutput], Field(max_length=MAX_REVEAL_OUTPUTS)]
    contentType: Annotated[str, Field(min_length=1, max_length=MAX_CONTENT_TYPE)] | None = (
        "text/plain;charset=utf-8"
    )
    body: Annotated[str, Field(max_length=MAX_BODY_BYTES)] | None = None
    bodyHex: Annotated[str, Field(max_length=2 * MAX_BODY_BYTES)] | None = None
    pointer: Annotated[int, Field(ge=0, le=2**64 - 1)] | None = None
    parent: Annotated[str, Field(pattern=INSCRIPTION_ID_PATTERN)] | None = None
    attributes: Annotated[list[Trait], Field(max_length=MAX_TRAITS)] | None = None

    @model_validator(mode="after")
    def _one_body(self) -> InscribeRequest:
        if self.body is not None and self.bodyHex is not None:
            raise ValueError("give body (text) or bodyHex, not both")
        if self.bodyHex is not None and not _HEX.match(self.bodyHex):
            raise ValueError("bodyHex must be hex digits, two per byte")
        if (
            self.body is not None
            and len(self.body.encode("utf-8", "surrogatepass")) > MAX_BODY_BYTES
        ):
            raise ValueError(f"body must be at most {MAX_BODY_BYTES} bytes in UTF-8")
        return self

    def inscription(self, metadata: bytes | None = None) -> Inscription:
        body = None
        if self.body is not None:
            body = self.body.encode("utf-8", "surrogatepass")
        elif self.bodyHex is not None:
            body = bytes.fromhex(self.bodyHex)
        return Inscription(
            content_type=None if self.contentType is None else self.contentType.encode(),
            body=body,
            pointer=None if self.pointer is None else pointer_field(self.pointer),
            parents=() if self.parent is None else (inscription_id_value(self.parent.lower()),),
            metadata=metadata,
        )


class Inscribed(BaseModel):
    inscriptionId: str
    commitTxid: str
    revealTxid: str


@router.post(
    "/inscribe",
    response_model=Inscribed,
    status_code=201,
    responses=error_responses(404, 409),
    summary="inscribe by commit and reveal: ord's envelope in the reveal's witness",
)
def post_inscribe(body: InscribeRequest, node: NodeDep) -> Any:
    outputs = [(script_for_address(o.address), o.value) for o in body.outputs]
    parent = None if body.parent is None else body.parent.lower()
    with node.lock:  # the parent's output must not move between the look-up and the reveal
        metadata = None
        if body.attributes:
            traits = [{"trait_type": a.trait_type, "value": a.value} for a in body.attributes]
            metadata = child_metadata(node, parent, traits)
        parents = [] if parent is None else [parent_input(node, parent)]
        returned = [(p.script_pubkey, p.value) for p in parents]
        revealed = inscribe(
            node,
            [body.inscription(metadata)],
            returned + (outputs or [(FEE_ONLY_OUTPUT, 0)]),
            parents,
        )
    return {
        "inscriptionId": revealed.inscription_ids[0],
        "commitTxid": revealed.commit_txid,
        "revealTxid": revealed.reveal_txid,
    }
