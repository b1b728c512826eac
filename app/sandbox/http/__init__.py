"""The sandbox's HTTP service: `app.create_app(node, settings)` builds the ASGI app (routers per
API area in `routes_*.py`), `server.serve` runs it as the `bidwallet sandbox serve` process.

Kept empty of imports so `settings` can be imported without loading FastAPI or the chain.
"""
