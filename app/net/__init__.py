"""HTTP clients (httpx.AsyncClient): marketplace v1 API, Esplora, ord. No Qt."""
