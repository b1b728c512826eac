"""HTTP clients (httpx.AsyncClient): marketplace v1 API, Esplora, ord. No Qt.

- ``marketplace.MarketplaceClient``: every endpoint of the spec, typed requests
  (``marketplace_requests``) and responses (``marketplace_responses``, ``marketplace_bids``).
- ``esplora.EsploraClient``: balance, UTXOs, transactions, fee estimates, broadcast, tip.
- ``ord.OrdClient``: what an output carries, where an inscription is, address contents.
- ``config.ServiceConfig`` / ``Profile``: URLs per profile (sandbox, Satflow, custom) and the key;
  ``clients.NetClients`` opens the three clients of one config.
- ``errors``: the typed exceptions; ``http.HttpClient``: the shared base (timeouts, API key,
  JSON decoding, logging without bodies or keys).

The clients never retry on their own: the spec's retry rules live in ``app.services``.
"""
