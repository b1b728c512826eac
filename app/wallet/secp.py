"""libsecp256k1 through embit: the backend check, signature encoding rules, verify helpers,
and the signature errors shared by the BIP-322 and BIP-137 modules.

embit silently falls back to a pure-Python curve implementation (about 50x slower and not
constant-time) when its bundled libsecp256k1 cannot be loaded, so the app asserts the native
backend at startup with `assert_native_secp256k1()`.
"""

from __future__ import annotations

from embit.base import EmbitError
from embit.ec import PublicKey
from embit.util import secp256k1

# The curve order; a signature's s above N/2 is "high-S" (malleable, non-standard since 0.11).
_CURVE_ORDER = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
_HALF_ORDER = _CURVE_ORDER // 2


class SecpBackendError(RuntimeError):
    """embit is not using its bundled libsecp256k1 (ctypes) backend."""


class SignatureError(Exception):
    """Base class of every message-signature failure (BIP-322 and BIP-137)."""


class SignatureFormatError(SignatureError):
    """The signature cannot be decoded (base64, witness, transaction or header layout)."""


class SignatureInvalidError(SignatureError):
    """The signature decodes but does not prove the address signed the message."""


class SignatureUnsupportedError(SignatureError):
    """A well-formed signature or address type this wallet cannot sign or verify."""


def native_backend_module() -> str:
    """Name of the module embit's secp256k1 functions come from."""
    return str(secp256k1.ecdsa_sign.__module__)


def assert_native_secp256k1() -> None:
    """Raise SecpBackendError unless embit signs with its bundled libsecp256k1 via ctypes."""
    module = native_backend_module()
    if not module.endswith("ctypes_secp256k1"):
        raise SecpBackendError(
            f"embit is using {module!r} instead of its bundled libsecp256k1 (ctypes): the "
            "pure-Python fallback is slow and not constant-time. Check that "
            "embit/util/prebuilt/ ships the libsecp256k1 library for this platform."
        )


def is_strict_der(der: bytes) -> bool:
    """BIP-66 strict DER check of an ECDSA signature given without its sighash byte.

    A port of Bitcoin Core's IsValidSignatureEncoding, which expects the sighash byte at the
    end, so a placeholder byte is appended.
    """
    sig = der + b"\x01"
    if not 9 <= len(sig) <= 73 or sig[0] != 0x30 or sig[1] != len(sig) - 3:
        return False
    len_r = sig[3]
    if 5 + len_r >= len(sig):
        return False
    len_s = sig[5 + len_r]
    if len_r + len_s + 7 != len(sig) or sig[2] != 0x02 or len_r == 0:
        return False
    if sig[4] & 0x80 or (len_r > 1 and sig[4] == 0x00 and not sig[5] & 0x80):
        return False
    if sig[len_r + 4] != 0x02 or len_s == 0 or sig[len_r + 6] & 0x80:
        return False
    return not (len_s > 1 and sig[len_r + 6] == 0x00 and not sig[len_r + 7] & 0x80)


def is_low_s(der: bytes) -> bool:
    """True when the DER signature parses and its s value is at most N/2."""
    try:
        compact = secp256k1.ecdsa_signature_serialize_compact(
            secp256k1.ecdsa_signature_parse_der(der)
        )
    except (ValueError, TypeError):
        return False
    return 0 < int.from_bytes(compact[32:], "big") <= _HALF_ORDER


def ecdsa_verify(der: bytes, msg32: bytes, pubkey_sec: bytes) -> bool:
    """Verify a DER ECDSA signature; malformed inputs verify as False, never raise."""
    try:
        sig = secp256k1.ecdsa_signature_parse_der(der)
        point = secp256k1.ec_pubkey_parse(pubkey_sec)
        return bool(secp256k1.ecdsa_verify(sig, msg32, point))
    except (ValueError, TypeError):
        return False


def schnorr_verify(sig64: bytes, msg32: bytes, xonly: bytes) -> bool:
    """Verify a BIP-340 signature against an x-only key; malformed inputs give False."""
    if len(sig64) != 64 or len(msg32) != 32 or len(xonly) != 32:
        return False
    try:
        key = PublicKey.from_xonly(xonly)
        return bool(secp256k1.schnorrsig_verify(sig64, msg32, key._xonly()))
    except (EmbitError, ValueError):  # an x with no point on the curve
        return False
