"""The sandbox's regtest chain: blocks validated by libbitcoinkernel, a mempool, SQLite indexes
and ord-style inscription and rune tracking. The public entry point is `node.Node`."""
