"""The libsecp256k1 backend assertion and the signature encoding checks in app.wallet.secp."""

from __future__ import annotations

import hashlib
import types

import coincurve
import pytest
from embit.util import py_secp256k1

from app.wallet import secp
from app.wallet.secp import (
    SecpBackendError,
    assert_native_secp256k1,
    ecdsa_verify,
    is_low_s,
    is_strict_der,
    schnorr_verify,
)

N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
KEY = coincurve.PrivateKey(hashlib.sha256(b"secp test key").digest())
DIGEST = hashlib.sha256(b"a message").digest()


def _der(r: int, s: int) -> bytes:
    def integer(value: int) -> bytes:
        body = value.to_bytes((value.bit_length() + 8) // 8, "big")  # keeps a sign byte
        return b"\x02" + bytes([len(body)]) + body

    payload = integer(r) + integer(s)
    return b"\x30" + bytes([len(payload)]) + payload


def _r_s(der: bytes) -> tuple[int, int]:
    len_r = der[3]
    r = int.from_bytes(der[4 : 4 + len_r], "big")
    s = int.from_bytes(der[6 + len_r :], "big")
    return r, s


def test_embit_uses_the_bundled_libsecp256k1() -> None:
    assert_native_secp256k1()
    assert secp.native_backend_module() == "embit.util.ctypes_secp256k1"


def test_the_pure_python_fallback_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    fallback = types.SimpleNamespace(ecdsa_sign=py_secp256k1.ecdsa_sign)
    monkeypatch.setattr(secp, "secp256k1", fallback)
    with pytest.raises(SecpBackendError, match="pure-Python fallback"):
        assert_native_secp256k1()


def test_strict_der_and_low_s_checks() -> None:
    der = KEY.sign(DIGEST, hasher=None)
    r, s = _r_s(der)
    assert is_strict_der(der) and is_low_s(der)
    assert ecdsa_verify(der, DIGEST, KEY.public_key.format())
    high = _der(r, N - s)
    assert is_strict_der(high) and not is_low_s(high)
    assert not ecdsa_verify(high, DIGEST, KEY.public_key.format())  # libsecp wants low S
    padded_r = b"\x02" + bytes([der[3] + 1]) + b"\x00" + der[4 : 4 + der[3]]
    padded = b"\x30" + bytes([der[1] + 1]) + padded_r + der[4 + der[3] :]
    assert not is_strict_der(padded)  # an extra zero byte before r is BIP-66 excess padding
    assert not is_strict_der(der[:-1])
    assert not is_strict_der(b"\x31" + der[1:])
    assert not is_strict_der(b"")
    assert not is_low_s(b"\x30\x00")


def test_verify_helpers_return_false_on_garbage() -> None:
    der = KEY.sign(DIGEST, hasher=None)
    assert not ecdsa_verify(der, hashlib.sha256(b"other").digest(), KEY.public_key.format())
    assert not ecdsa_verify(der, DIGEST, b"\x02" + b"\xff" * 32)
    assert not ecdsa_verify(b"junk", DIGEST, KEY.public_key.format())
    sig = KEY.sign_schnorr(DIGEST)
    xonly = KEY.public_key.format()[1:]
    assert schnorr_verify(sig, DIGEST, xonly)
    assert not schnorr_verify(sig, hashlib.sha256(b"other").digest(), xonly)
    assert not schnorr_verify(sig[:63], DIGEST, xonly)
    assert not schnorr_verify(sig, DIGEST, b"\xff" * 32)


def test_importing_the_wallet_layer_runs_the_backend_check() -> None:
    # A fresh interpreter whose embit backend is forced to the pure-Python fallback must refuse
    # to import app.wallet at all.
    import subprocess
    import sys

    code = (
        "import embit.util.secp256k1 as S, embit.util.py_secp256k1 as P\n"
        "S.ecdsa_sign = P.ecdsa_sign\n"
        "import app.wallet\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode != 0
    assert "pure-Python fallback" in proc.stderr
