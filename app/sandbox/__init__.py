"""The embedded sandbox: a local implementation of the marketplace API on a regtest chain
validated by libbitcoinkernel. Shares app.core and app.wallet; never imports the client layers."""
