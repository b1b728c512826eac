"""`/ord/runes`: ord's list of etched runes, a page at a time, the newest first (ord's
`/runes` and `/runes/<PAGE>` in its JSON shape). The app reads it to suggest rune names."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam

from app.sandbox.chain.node import Node
from app.sandbox.http.deps import NodeDep
from app.sandbox.http.errors import error_responses
from app.sandbox.http.schemas_ord import OrdRunesPage

router = APIRouter(prefix="/ord", tags=["ord"], responses=error_responses(400, 500))

# ord's page size for /runes (server.rs `runes_paginated`: `index.runes_paginated(50, ..)`).
RUNES_PER_PAGE = 50
# Far past any sandbox's runes; bounds the SQL offset.
MAX_PAGE = 1_000_000

PagePath = Annotated[int, PathParam(ge=0, le=MAX_PAGE, description="page number, from 0")]


def _page(node: Node, page: int) -> dict[str, Any]:
    entries, more = node.ord_runes_page(page * RUNES_PER_PAGE, RUNES_PER_PAGE)
    return {
        "entries": [list(pair) for pair in entries],
        "more": more,
        "prev": page - 1 if page > 0 else None,
        "next": page + 1 if more else None,
    }


@router.get(
    "/runes",
    response_model=OrdRunesPage,
    summary="the newest etched runes (the first page of ord's list)",
)
def get_runes(node: NodeDep) -> Any:
    return _page(node, 0)


@router.get(
    "/runes/{page}",
    response_model=OrdRunesPage,
    summary=f"etched runes, the newest first, {RUNES_PER_PAGE} a page",
)
def get_runes_page(page: PagePath, node: NodeDep) -> Any:
    return _page(node, page)
