"""Speed of the PSBT signer: median wall time, and its ratio to raw libsecp256k1 signing.

Workloads (each = parse the PSBT from base64, sign with `sign_psbt`, serialize to base64):
- one 1-input taproot PSBT (P2TR key path, SIGHASH_DEFAULT);
- one 10-input P2WPKH PSBT (SIGHASH_ALL);
- 100 one-input secure-listing PSBTs (P2TR key path, SIGHASH_ALL|ANYONECANPAY).
The "raw" baseline signs the same number of 32-byte messages straight through embit's ctypes
libsecp256k1 binding (Schnorr with a prepared keypair, or ECDSA), nothing else. The signing
key is prepared once (`SigningKey`), as the app keeps it while unlocked; a cold-key figure for
the 1-input case is printed too.

Run: .venv/bin/python -m benchmarks.bench_psbt [--rounds 15]
Target: 100 listing PSBTs signed in <= 50 ms.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import time
from collections.abc import Callable

from embit import ec
from embit.util import secp256k1

from app.wallet.psbt_io import parse_psbt, psbt_to_base64
from app.wallet.psbt_signer import SigningKey, requests_for, sign_psbt
from tests.wallet.psbt_builders import build_psbt, key_n, p2tr_key, p2wpkh, pay_to

LISTINGS = 100


def median_seconds(fn: Callable[[], object], rounds: int, min_round_s: float = 0.02) -> float:
    """Median time of one `fn()` call over `rounds` rounds, each repeated for >= min_round_s."""
    reps, start = 0, time.perf_counter()
    while time.perf_counter() - start < min_round_s:
        fn()
        reps += 1
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        samples.append((time.perf_counter() - t0) / reps)
    return statistics.median(samples)


def _sign_all(b64s: list[str], key: SigningKey | ec.PrivateKey, sighash: int) -> list[str]:
    out = []
    for b64 in b64s:
        psbt = parse_psbt(b64)
        sign_psbt(psbt, key, requests_for(range(len(psbt.inputs)), sighash))
        out.append(psbt_to_base64(psbt))
    return out


def _raw_schnorr(count: int) -> Callable[[], None]:
    keypair = secp256k1.keypair_create(key_n(1).secret)
    msgs = [hashlib.sha256(b"%d" % i).digest() for i in range(count)]
    aux = os.urandom(32)
    return lambda: [secp256k1.schnorrsig_sign(m, keypair, None, aux) for m in msgs] and None


def _raw_ecdsa(count: int) -> Callable[[], None]:
    secret = key_n(1).secret
    msgs = [hashlib.sha256(b"%d" % i).digest() for i in range(count)]
    return lambda: [secp256k1.ecdsa_sign(m, secret) for m in msgs] and None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    rounds = parser.parse_args().rounds
    backend = secp256k1.ecdsa_sign.__module__
    print(f"embit secp256k1 backend: {backend}")
    me = key_n(1)
    signer = SigningKey(me)

    one_tr = [psbt_to_base64(build_psbt([p2tr_key(me)], [pay_to(5, 90_000)]))]
    ten_wpkh = [psbt_to_base64(build_psbt([p2wpkh(me)] * 10, [pay_to(5, 900_000)]))]
    listings = [
        psbt_to_base64(build_psbt([p2tr_key(me, 10_000 + i)], [pay_to(5, 50_000 + i)]))
        for i in range(LISTINGS)
    ]
    cases = [
        ("1-input P2TR PSBT (DEFAULT)", lambda: _sign_all(one_tr, signer, 0x00), _raw_schnorr(1)),
        ("1-input P2TR PSBT, cold key", lambda: _sign_all(one_tr, me, 0x00), _raw_schnorr(1)),
        ("10-input P2WPKH PSBT (ALL)", lambda: _sign_all(ten_wpkh, signer, 0x01), _raw_ecdsa(10)),
        (
            f"{LISTINGS} listing PSBTs (P2TR, ALL|ACP)",
            lambda: _sign_all(listings, signer, 0x81),
            _raw_schnorr(LISTINGS),
        ),
    ]
    print(f"{'workload':42} {'median':>11} {'raw secp':>11} {'ratio':>7}")
    for name, work, raw in cases:
        ours, base = median_seconds(work, rounds), median_seconds(raw, rounds)
        print(f"{name:42} {ours * 1e3:8.3f} ms {base * 1e3:8.3f} ms {ours / base:6.1f}x")
    print("target: 100 listing PSBTs <= 50 ms")


if __name__ == "__main__":
    main()
