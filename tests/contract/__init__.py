"""Contract tests: the app's HTTP clients fed the documented response bodies of the services they
talk to (Satflow's marketplace API and its market maker, ord, Esplora/mempool.space, the
sandbox's own API), each sample naming its source, each test asserting what was parsed."""
