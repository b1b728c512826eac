"""Keys and signatures: derivation presets, BIP-322, BIP-137, the PSBT signer, the key vault.
No Qt, no network.

Importing this package checks that embit signs with its bundled libsecp256k1: its silent
pure-Python fallback is ~50x slower and not constant-time (notes/bitcoin-signing.md, section 4).
Every process that signs (the app, the offline signer, the sandbox) imports it first.
"""

from app.wallet.secp import assert_native_secp256k1

assert_native_secp256k1()
