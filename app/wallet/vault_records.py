"""JSON form of a stored profile: clear metadata and watch-only keys, plus the encrypted secret.

    {"format": "bidwallet-profile", "version": 1,
     "meta": {"name", "network", "layout": {"preset", "account", "custom_paths"}, "created_at"},
     "watch_only": {"payment_address", ...} | null,
     "secret": <vault_crypto envelope> | null}

`meta` and `watch_only` are bound to the ciphertext as AEAD context, exactly as stored, so a
changed network, path or receive address makes decryption fail instead of misleading the user.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from app.wallet.vault_crypto import Envelope, canonical_json, parse_envelope
from app.wallet.vault_errors import (
    CorruptVaultError,
    InvalidProfileError,
    InvalidSecretError,
    UnsupportedVaultVersionError,
)
from app.wallet.vault_models import (
    DerivationLayout,
    MnemonicSecret,
    ProfileMeta,
    WalletSecret,
    WatchOnlyAddresses,
    WifSecret,
)

RECORD_FORMAT: Final = "bidwallet-profile"
RECORD_VERSION: Final = 1


@dataclass(frozen=True)
class ProfileRecord:
    meta: ProfileMeta
    watch_only: WatchOnlyAddresses | None
    envelope: Envelope | None
    context: bytes  # the authenticated context of `envelope`


def clear_parts(meta: ProfileMeta, watch_only: WatchOnlyAddresses | None) -> dict[str, Any]:
    layout = meta.layout
    return {
        "meta": {
            "name": meta.name,
            "network": meta.network,
            "layout": {
                "preset": layout.preset,
                "account": layout.account,
                "custom_paths": dict(layout.custom_paths),
            },
            "created_at": meta.created_at.isoformat(),
        },
        "watch_only": None if watch_only is None else _watch_only_json(watch_only),
    }


def context_of(parts: dict[str, Any]) -> bytes:
    return canonical_json({"meta": parts.get("meta"), "watch_only": parts.get("watch_only")})


def record_to_text(parts: dict[str, Any], envelope: Envelope | None) -> str:
    doc = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        **parts,
        "secret": None if envelope is None else envelope.to_json_obj(),
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def record_from_text(text: str, name: str) -> ProfileRecord:
    where = f"stored profile {name!r}"
    try:
        doc: Any = json.loads(text)
    except ValueError:
        raise CorruptVaultError(f"{where} is not valid JSON (truncated?)") from None
    if not isinstance(doc, dict) or doc.get("format") != RECORD_FORMAT:
        raise CorruptVaultError(f"{where} is not a Bidwallet profile record")
    if doc.get("version") != RECORD_VERSION:
        raise UnsupportedVaultVersionError(
            f"{where} has record version {doc.get('version')!r}; this build reads {RECORD_VERSION}"
        )
    try:
        meta = _meta_from_json(doc.get("meta"))
        watch_only = _watch_only_from_json(doc.get("watch_only"))
        if watch_only is not None:
            watch_only.check_network(meta.network)
    except (InvalidProfileError, KeyError, TypeError, ValueError) as exc:
        raise CorruptVaultError(f"{where} has invalid metadata: {exc}") from None
    if meta.name != name:
        raise CorruptVaultError(f"{where} carries the name {meta.name!r}")
    secret = doc.get("secret")
    envelope = None if secret is None else parse_envelope(secret)
    return ProfileRecord(meta, watch_only, envelope, context_of(doc))


def secret_to_payload(secret: WalletSecret) -> bytes:
    if isinstance(secret, MnemonicSecret):
        obj = {"kind": "bip39", "mnemonic": secret.mnemonic, "passphrase": secret.passphrase}
    else:
        obj = {"kind": "wif", "wif": secret.wif}
    return canonical_json(obj)


def payload_to_secret(payload: bytes) -> WalletSecret:
    """Rebuild the secret from decrypted bytes; errors never quote the payload."""
    secret: WalletSecret | None = None
    try:
        obj = json.loads(payload.decode("utf-8"))
        if obj["kind"] == "bip39":
            secret = MnemonicSecret(obj["mnemonic"], obj["passphrase"])
        elif obj["kind"] == "wif":
            secret = WifSecret(obj["wif"])
    except (ValueError, KeyError, TypeError, AttributeError, InvalidSecretError):
        secret = None
    if secret is None:
        raise CorruptVaultError("decrypted secret has an unknown or malformed form")
    return secret


def _meta_from_json(obj: Any) -> ProfileMeta:
    layout = obj["layout"]
    paths = layout["custom_paths"]
    if not isinstance(paths, dict) or not all(isinstance(v, str) for v in paths.values()):
        raise TypeError("custom_paths must map roles to path strings")
    return ProfileMeta(
        name=_str(obj["name"]),
        network=_str(obj["network"]),
        layout=DerivationLayout(_str(layout["preset"]), _int(layout["account"]), paths),
        created_at=datetime.fromisoformat(_str(obj["created_at"])),
    )


_ORIGIN_FIELDS = ("payment_key_origin", "ordinals_key_origin")


def _watch_only_json(keys: WatchOnlyAddresses) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "payment_address": keys.payment_address,
        "ordinals_address": keys.ordinals_address,
        "payment_public_key": keys.payment_public_key,
        "ordinals_public_key": keys.ordinals_public_key,
    }
    # Written only when known: records made before key origins existed stay byte-identical.
    for name, origin in zip(
        _ORIGIN_FIELDS, (keys.payment_key_origin, keys.ordinals_key_origin), strict=True
    ):
        if origin is not None:
            doc[name] = origin
    return doc


def _watch_only_from_json(obj: Any) -> WatchOnlyAddresses | None:
    if obj is None:
        return None
    optional = [obj[k] for k in ("payment_public_key", "ordinals_public_key")]
    optional += [obj.get(k) for k in _ORIGIN_FIELDS]
    if not all(v is None or isinstance(v, str) for v in optional):
        raise TypeError("public keys and key origins must be strings or null")
    return WatchOnlyAddresses(
        _str(obj["payment_address"]), _str(obj["ordinals_address"]), *optional
    )


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected an integer, got {type(value).__name__}")
    return value
