"""Addresses <-> scriptPubKeys for one network, with errors that say what is wrong."""

from __future__ import annotations

from dataclasses import dataclass

from embit import base58, bech32
from embit.networks import NETWORKS

from app.sandbox.chain.errors import InvalidRequest

SUPPORTED_NETWORKS = ("regtest",)
_OTHER_HRPS = {"bc": "mainnet", "tb": "testnet/signet"}
MAX_ADDRESS_LENGTH = 100
# Invalid input is not echoed: a user may paste a key into the wrong field.
_NOT_AN_ADDRESS = "not a valid regtest address"


@dataclass(frozen=True)
class _NetworkParams:
    hrp: str
    p2pkh: bytes
    p2sh: bytes


_PARAMS = {
    "regtest": _NetworkParams(
        str(NETWORKS["regtest"]["bech32"]),
        bytes(NETWORKS["regtest"]["p2pkh"]),
        bytes(NETWORKS["regtest"]["p2sh"]),
    )
}
_MAINNET_PREFIXES = (bytes(NETWORKS["main"]["p2pkh"]), bytes(NETWORKS["main"]["p2sh"]))


def _params(network: str) -> _NetworkParams:
    if network not in SUPPORTED_NETWORKS:
        raise InvalidRequest(f"unsupported network {network!r}", "UNSUPPORTED_NETWORK")
    return _PARAMS[network]


def script_for_address(address: str, network: str = "regtest") -> bytes:
    """scriptPubKey of `address`; InvalidRequest(INVALID_ADDRESS | WRONG_NETWORK) otherwise."""
    params = _params(network)
    if not isinstance(address, str) or not address or len(address) > MAX_ADDRESS_LENGTH:
        raise InvalidRequest(
            "address must be a non-empty string of at most 100 characters", "INVALID_ADDRESS"
        )
    hrp = params.hrp
    lowered = address.lower()
    if "1" in lowered:
        prefix = lowered.rsplit("1", 1)[0]
        if prefix == hrp:
            return _segwit_script(hrp, address)
        if prefix in _OTHER_HRPS and bech32.decode(prefix, lowered) != (None, None):
            raise InvalidRequest(
                f"{address!r} is a {_OTHER_HRPS[prefix]} address; the sandbox runs {network}",
                "WRONG_NETWORK",
            )
    return _base58_script(address, params, network)


def _segwit_script(hrp: str, address: str) -> bytes:
    version, program = bech32.decode(hrp, address)
    if version is None or program is None:
        raise InvalidRequest(_NOT_AN_ADDRESS + " (bad bech32/bech32m)", "INVALID_ADDRESS")
    op = 0 if version == 0 else 0x50 + version
    return bytes([op, len(program), *program])


def _base58_script(address: str, params: _NetworkParams, network: str) -> bytes:
    try:
        data = bytes(base58.decode_check(address))
    except Exception:
        raise InvalidRequest(_NOT_AN_ADDRESS, "INVALID_ADDRESS") from None
    if len(data) != 21:
        raise InvalidRequest(_NOT_AN_ADDRESS, "INVALID_ADDRESS")
    prefix, payload = data[:1], data[1:]
    if prefix == params.p2pkh:
        return b"\x76\xa9\x14" + payload + b"\x88\xac"
    if prefix == params.p2sh:
        return b"\xa9\x14" + payload + b"\x87"
    if prefix in _MAINNET_PREFIXES:
        raise InvalidRequest(
            f"{address!r} is a mainnet address; the sandbox runs {network}", "WRONG_NETWORK"
        )
    raise InvalidRequest(_NOT_AN_ADDRESS, "INVALID_ADDRESS")


def address_for_script(script_pubkey: bytes, network: str = "regtest") -> str | None:
    """The address of a standard scriptPubKey, or None (OP_RETURN, bare scripts, ...)."""
    params = _params(network)
    spk = script_pubkey
    if len(spk) == 25 and spk[:3] == b"\x76\xa9\x14" and spk[23:] == b"\x88\xac":
        return str(base58.encode_check(params.p2pkh + spk[3:23]))
    if len(spk) == 23 and spk[:2] == b"\xa9\x14" and spk[22] == 0x87:
        return str(base58.encode_check(params.p2sh + spk[2:22]))
    if 4 <= len(spk) <= 42 and spk[1] + 2 == len(spk) and (spk[0] == 0 or 0x51 <= spk[0] <= 0x60):
        version = 0 if spk[0] == 0 else spk[0] - 0x50
        encoded = bech32.encode(params.hrp, version, list(spk[2:]))
        return str(encoded) if encoded else None
    return None
