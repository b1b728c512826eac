"""Keys and signatures: derivation presets, BIP-322, BIP-137, the PSBT signer, the key vault.
No Qt, no network."""
