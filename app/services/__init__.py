"""Async use cases that combine net, wallet and core: fund, bid, cancel, withdraw,
inscription bid, secure listing, offline signing. No widgets."""
