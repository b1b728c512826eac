"""Speed of message signatures: median wall time and its ratio to a raw libsecp256k1 sign.

Operations: BIP-322 simple sign and verify for P2WPKH and P2TR (verify = the `bip322` Rust
package plus our own script check, as `verify_bip322` runs them), BIP-137 sign and verify.
The baseline is one raw signature through embit's ctypes libsecp256k1 binding: ECDSA
(`secp256k1.ecdsa_sign`) for the ECDSA schemes, Schnorr with a prepared keypair
(`secp256k1.schnorrsig_sign`) for taproot. Each round repeats the operation until it has
run for at least 20 ms; the figure is the median of the rounds' per-call times.

Run: .venv/bin/python -m benchmarks.bench_messages [--rounds 15]
Target: BIP-322 sign at most 0.3 ms.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections.abc import Callable

import bip322
from embit.util import secp256k1

from app.wallet.addresses import AddressType, Network
from app.wallet.bip137 import sign_bip137, verify_bip137
from app.wallet.bip322 import sign_bip322, verify_bip322
from app.wallet.keys import MnemonicSeed, RoleKey, derive_wallet_keys
from app.wallet.presets import custom_preset
from app.wallet.secp import assert_native_secp256k1

MESSAGE = "Bid 0.015 BTC on collection 'nodemonkes', expires 1767225600, nonce 8c1f2d"
SIGN_TARGET_MS = 0.3


def median_seconds(operation: Callable[[], object], rounds: int) -> float:
    """Median per-call time over `rounds` rounds of at least 20 ms each."""
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            operation()
        if time.perf_counter() - start >= 0.02:
            break
        calls *= 2
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            operation()
        samples.append((time.perf_counter() - start) / calls)
    return statistics.median(samples)


def role_key(address_type: AddressType, purpose: int) -> RoleKey:
    seed = MnemonicSeed(" ".join(["abandon"] * 11 + ["about"]))
    path = f"m/{purpose}'/{{coin}}'/0'/0/{{n}}"
    preset = custom_preset(path, address_type, path, address_type)
    return derive_wallet_keys(seed, preset, Network.MAINNET).payment


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    rounds = parser.parse_args().rounds
    assert_native_secp256k1()

    p2wpkh = role_key(AddressType.P2WPKH, 84)
    p2tr = role_key(AddressType.P2TR, 86)
    digest = hashlib.sha256(MESSAGE.encode()).digest()
    secret = p2wpkh.private_key.secret
    keypair = secp256k1.keypair_create(p2tr.private_key.secret)
    aux = bytes(32)
    raw_ecdsa = median_seconds(lambda: secp256k1.ecdsa_sign(digest, secret), rounds)
    raw_schnorr = median_seconds(
        lambda: secp256k1.schnorrsig_sign(digest, keypair, None, aux), rounds
    )

    sig_wpkh = sign_bip322(p2wpkh, MESSAGE)
    sig_tr = sign_bip322(p2tr, MESSAGE)
    sig_137 = sign_bip137(p2wpkh, MESSAGE)
    rows: list[tuple[str, Callable[[], object], float, bool]] = [
        ("BIP-322 sign P2WPKH", lambda: sign_bip322(p2wpkh, MESSAGE), raw_ecdsa, True),
        ("BIP-322 sign P2TR", lambda: sign_bip322(p2tr, MESSAGE), raw_schnorr, True),
        (
            "BIP-322 verify P2WPKH",
            lambda: verify_bip322(p2wpkh.address, MESSAGE, sig_wpkh),
            raw_ecdsa,
            False,
        ),
        (
            "BIP-322 verify P2TR",
            lambda: verify_bip322(p2tr.address, MESSAGE, sig_tr),
            raw_schnorr,
            False,
        ),
        (
            "  of which bip322 (Rust) P2WPKH",
            lambda: bip322.verify_simple_encoded(p2wpkh.address, MESSAGE, sig_wpkh),
            raw_ecdsa,
            False,
        ),
        (
            "  of which bip322 (Rust) P2TR",
            lambda: bip322.verify_simple_encoded(p2tr.address, MESSAGE, sig_tr),
            raw_schnorr,
            False,
        ),
        ("BIP-137 sign P2WPKH", lambda: sign_bip137(p2wpkh, MESSAGE), raw_ecdsa, False),
        (
            "BIP-137 verify P2WPKH",
            lambda: verify_bip137(p2wpkh.address, MESSAGE, sig_137),
            raw_ecdsa,
            False,
        ),
    ]

    print(f"median of {rounds} rounds (each >= 20 ms of calls), single thread")
    print(f"{'operation':34} {'median':>10} {'x raw sign':>11}")
    print(f"{'raw libsecp256k1 ECDSA sign':34} {raw_ecdsa * 1e6:8.1f} us {1.0:10.1f}x")
    print(f"{'raw libsecp256k1 Schnorr sign':34} {raw_schnorr * 1e6:8.1f} us {1.0:10.1f}x")
    slowest_sign = 0.0
    for label, operation, baseline, is_bip322_sign in rows:
        seconds = median_seconds(operation, rounds)
        if is_bip322_sign:
            slowest_sign = max(slowest_sign, seconds)
        print(f"{label:34} {seconds * 1e6:8.1f} us {seconds / baseline:10.1f}x")
    verdict = "met" if slowest_sign * 1e3 <= SIGN_TARGET_MS else "MISSED"
    print(f"target: BIP-322 sign <= {SIGN_TARGET_MS} ms: {verdict} ({slowest_sign * 1e3:.3f} ms)")


if __name__ == "__main__":
    main()
