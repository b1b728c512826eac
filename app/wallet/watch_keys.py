"""What a watch-only profile may be made from besides an address: an extended public key
(xpub/ypub/zpub, tpub/upub/vpub on the test networks; optionally with its key origin
`[fingerprint/84h/0h/0h]`) or a single-key output descriptor (`wpkh(...)`, `sh(wpkh(...))`,
`pkh(...)`, `tr(...)`, BIP-380 to 386).

    watched = parse_watch_key("zpub6rFR7y4Q...", Network.MAINNET)
    watched.role_key(KeyRole.PAYMENT, Network.MAINNET).address   # bc1qcr8te4kr609gcawutm...

- An extended key alone is an account key: its address is the first receive address, the
  standard `/0/0` below it. Steps written after it (`xpub.../0/5`) are used instead.
- A descriptor says its own path: `/0/*` and `/<0;1>/*` give the first receive key (index 0 of
  branch 0), a path without a wildcard gives exactly that key. A checksum (`#xxxxxxxx`) is
  verified when present.
- The address type: a descriptor's script says it; so do the SLIP-132 versions (ypub/upub
  nested segwit, zpub/vpub native segwit). An xpub or tpub alone says nothing: the caller's
  type (a wallet preset's), else the purpose of its key origin (44', 49', 84', 86'), else
  `AddressTypeNeededError`.
- The key origin (master fingerprint and full path) is kept, for the BIP-32 derivations a
  PSBT carries so hardware wallets and Sparrow recognise their inputs. With no origin, the
  extended key's own fingerprint and the path below it are used, as Bitcoin Core does; a
  signer that looks keys up by its master fingerprint does not recognise those, so
  `WatchedKey.origin_given` says whether the master's origin is known (given, or the key is
  a master key itself).

Every error is a `WatchKeyError` (a ValueError) saying what is wrong without quoting the text:
whatever was pasted may be a private key. Private keys (xprv, WIF) are refused: the app only
watches; so are hardened steps after a public key, keys of another network, and scripts with
more than one key (multisig, taproot script trees).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from embit import base58, bip32, ec
from embit.descriptor.checksum import checksum as descriptor_checksum
from embit.networks import NETWORKS

from app.wallet.addresses import (
    AddressType,
    InvalidAddressError,
    KeyRole,
    Network,
    PublicRoleKey,
    public_role_key,
)

HARDENED: Final = 0x80000000
RECEIVE_STEPS: Final = (0, 0)  # an account key's first receive address: <account>/0/0


class WatchKeyError(ValueError):
    """Not a usable extended public key or descriptor; the message never quotes the text."""


class PrivateKeyGivenError(WatchKeyError):
    """An xprv, a WIF, or a descriptor holding one: the app only watches."""


class DescriptorChecksumError(WatchKeyError):
    """The descriptor's checksum does not match (a typo or a cut-off copy)."""


class WrongNetworkError(WatchKeyError):
    """A mainnet key for a test-network profile, or the other way round."""


class UnsupportedScriptError(WatchKeyError):
    """A descriptor this app cannot watch: multisig, script trees, raw scripts, addresses."""


class HardenedStepError(WatchKeyError):
    """A hardened step after a public key: only its private key can take it."""


class AddressTypeNeededError(WatchKeyError):
    """An xpub or tpub that does not say which address type it is for."""


class KeySource(StrEnum):
    EXTENDED_KEY = "extended public key"
    DESCRIPTOR = "descriptor"


@dataclass(frozen=True)
class WatchedKey:
    """The one public key a watch-only role uses, its address type and its key origin."""

    address_type: AddressType
    public_key: bytes  # 33-byte SEC (P2TR: the BIP-86 internal key; 65 bytes only for pkh)
    fingerprint: bytes | None  # the origin's master fingerprint; None for a bare key
    path: str | None  # from that fingerprint, e.g. "m/84'/0'/0'/0/0"; None for a bare key
    source: KeySource
    derived: str  # the steps taken below the given key, e.g. "/0/0" ("" when none)
    origin_given: bool = True  # False: no [fingerprint/path] of the master was given

    @property
    def origin(self) -> str | None:
        """BIP-380 origin text, e.g. "73c5da0a/84'/0'/0'/0/0" (None without a fingerprint)."""
        if self.fingerprint is None or self.path is None:
            return None
        return self.fingerprint.hex() + self.path[1:]

    def role_key(self, role: KeyRole, network: Network) -> PublicRoleKey:
        try:
            return public_role_key(
                role, self.public_key, self.address_type, network, self.path, self.fingerprint
            )
        except InvalidAddressError as exc:
            raise WatchKeyError(str(exc)) from None


# --- extended key versions ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Version:
    name: str  # how people call it: xpub, zpub, tpub, vpub, ...
    mainnet: bool
    private: bool
    address_type: AddressType | None  # None: the version does not say (xpub, tpub)
    multisig: bool = False


def _versions() -> dict[bytes, _Version]:
    table: dict[bytes, _Version] = {}
    names = {  # embit's table names -> (mainnet name, test name, address type, multisig)
        "xpub": ("xpub", "tpub", None, False),
        "ypub": ("ypub", "upub", AddressType.P2SH_P2WPKH, False),
        "zpub": ("zpub", "vpub", AddressType.P2WPKH, False),
        "Ypub": ("Ypub", "Upub", None, True),
        "Zpub": ("Zpub", "Vpub", None, True),
    }
    for key, (main_name, test_name, kind, multisig) in names.items():
        for net, name in (("main", main_name), ("test", test_name)):
            table[NETWORKS[net][key]] = _Version(name, net == "main", False, kind, multisig)
            private = key.replace("pub", "prv")
            table[NETWORKS[net][private]] = _Version(
                name.replace("pub", "prv"), net == "main", True, kind, multisig
            )
    return table


_VERSIONS: Final = _versions()
_PURPOSES: Final = {
    44 | HARDENED: AddressType.P2PKH,
    49 | HARDENED: AddressType.P2SH_P2WPKH,
    84 | HARDENED: AddressType.P2WPKH,
    86 | HARDENED: AddressType.P2TR,
}
_SCRIPTS: Final = {  # descriptor head -> (address type, closing brackets)
    "wpkh(": (AddressType.P2WPKH, 1),
    "sh(wpkh(": (AddressType.P2SH_P2WPKH, 2),
    "pkh(": (AddressType.P2PKH, 1),
    "tr(": (AddressType.P2TR, 1),
}
_FUNCTION_RE: Final = re.compile(r"^([a-z_]+)\(")
_HEX_RE: Final = re.compile(r"^[0-9a-fA-F]+$")
_STEP_RE: Final = re.compile(r"^(\d+)(['hH]?)$")


def looks_like_key_or_descriptor(text: str) -> bool:
    """Whether `text` is meant as an extended key or a descriptor (else: an address)."""
    stripped = text.strip()
    if not stripped:
        return False
    if stripped.startswith("[") or _FUNCTION_RE.match(stripped):
        return True
    if stripped[1:4] in ("pub", "prv") and len(stripped) > 100:
        return True
    try:  # a WIF pasted here is refused as a private key, not as a bad address
        return _is_wif(bytes(base58.decode_check(stripped)))
    except Exception:
        return False


def parse_watch_key(
    text: str, network: Network, address_type: AddressType | None = None
) -> WatchedKey:
    """The key `text` watches on `network`: an extended public key (with optional origin and
    steps) or a single-key descriptor. `address_type` is the type for an xpub or tpub that
    does not say its own (a wallet preset's); a descriptor or a ypub/zpub says its own."""
    stripped = text.strip()
    if not stripped:
        raise WatchKeyError("nothing was entered")
    if _FUNCTION_RE.match(stripped):
        return _parse_descriptor(stripped, network)
    if "#" in stripped:
        raise WatchKeyError("a checksum (#...) belongs after a descriptor such as wpkh(...)")
    key = _parse_key_expression(stripped, network, KeySource.EXTENDED_KEY)
    return key.watched(network, address_type, None)


# --- descriptors -------------------------------------------------------------------------------


def _parse_descriptor(text: str, network: Network) -> WatchedKey:
    body, hash_mark, given = text.partition("#")
    try:
        expected = descriptor_checksum(body)
    except Exception:  # embit's message quotes the offending character
        raise WatchKeyError("the descriptor holds a character descriptors never use") from None
    if hash_mark and given != expected:
        if len(given) != 8:
            raise DescriptorChecksumError(
                f"a descriptor checksum has 8 characters, this one has {len(given)}"
            )
        raise DescriptorChecksumError(
            "the descriptor's checksum does not match: check it was copied whole and unchanged"
        )
    head = next((h for h in _SCRIPTS if body.startswith(h)), None)
    if head is None:
        name = _FUNCTION_RE.match(body)
        raise UnsupportedScriptError(_unsupported(name.group(1) if name else body[:3], body))
    kind, closing = _SCRIPTS[head]
    inner = body[len(head) :]
    if not inner.endswith(")" * closing):
        raise WatchKeyError(f"the descriptor does not end with {')' * closing}")
    expression = inner[: len(inner) - closing]
    if kind is AddressType.P2TR and "," in expression:
        raise UnsupportedScriptError(
            "tr() with a script tree is not watched: only a single key (its key path) is"
        )
    if "(" in expression or ")" in expression or "," in expression:
        raise UnsupportedScriptError(
            "only single-key descriptors are watched: wpkh(KEY), sh(wpkh(KEY)), pkh(KEY), tr(KEY)"
        )
    key = _parse_key_expression(expression, network, KeySource.DESCRIPTOR, kind)
    return key.watched(network, kind, kind)


def _unsupported(name: str, body: str) -> str:
    if name in ("multi", "sortedmulti", "multi_a", "sortedmulti_a") or "multi" in body:
        return "multisig descriptors are not watched: only single-key ones"
    if name in ("wsh", "sh"):
        return f"{name}() scripts are not watched, except sh(wpkh(KEY))"
    if name in ("addr", "raw", "rawtr", "combo", "pk"):
        return f"{name}() descriptors are not watched: use wpkh, sh(wpkh), pkh or tr"
    return "not a descriptor this app watches (wpkh, sh(wpkh), pkh or tr)"


# --- key expressions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _KeyExpression:
    """A parsed KEY: the key, its origin, the steps after it (with a wildcard index filled)."""

    source: KeySource
    hd: bip32.HDKey | None  # an extended public key, or None for a plain public key
    sec: bytes  # the plain key's SEC (the extended key's own before any step)
    version: _Version | None
    origin_fingerprint: bytes | None
    origin_path: tuple[int, ...]
    steps: tuple[int, ...] | None  # None: no steps written

    def watched(
        self, network: Network, wanted: AddressType | None, script: AddressType | None
    ) -> WatchedKey:
        kind = self._address_type(wanted, script)
        steps = self.steps
        if steps is None:
            steps = RECEIVE_STEPS if self.source is KeySource.EXTENDED_KEY and self.hd else ()
        if self.hd is None:
            sec = self.sec
            fingerprint = self.origin_fingerprint
            path = _path_text(self.origin_path) if fingerprint is not None else None
        else:
            sec = bytes(self.hd.derive(list(steps)).sec())
            fingerprint = self.origin_fingerprint or bytes(self.hd.my_fingerprint)
            path = _path_text((*self.origin_path, *steps))
        if len(sec) != 33 and kind is not AddressType.P2PKH:
            raise WatchKeyError(f"{kind.value} addresses need a compressed public key")
        derived = "".join(f"/{step}" for step in steps)
        master = self.origin_fingerprint is not None or (self.hd is not None and self.hd.depth == 0)
        return WatchedKey(kind, sec, fingerprint, path, self.source, derived, master)

    def _address_type(self, wanted: AddressType | None, script: AddressType | None) -> AddressType:
        said = None if self.version is None else self.version.address_type
        if said is not None and script is not None and said is not script:
            name = self.version.name if self.version else "key"
            raise WatchKeyError(
                f"{_a(name)} is for {said.value} addresses but the descriptor says {script.value}"
            )
        # What the text says wins; the caller's type (a preset's) only fills in for an xpub.
        found = script or said or wanted or self._purpose_type()
        if found is None:
            name = self.version.name if self.version else "key"
            raise AddressTypeNeededError(
                f"{_a(name)} does not say which address type it is for: choose the wallet it "
                "comes from, or paste a descriptor such as wpkh(...) or tr(...)"
            )
        return found

    def _purpose_type(self) -> AddressType | None:
        return _PURPOSES.get(self.origin_path[0]) if self.origin_path else None


def _a(name: str) -> str:
    """`name` with its article as said aloud: "an xpub" (ex-pub), "a tpub", "a upub"."""
    return f"{'an' if name[:1].lower() == 'x' else 'a'} {name}"


def _parse_key_expression(
    text: str, network: Network, source: KeySource, script: AddressType | None = None
) -> _KeyExpression:
    fingerprint, origin, rest = _split_origin(text)
    key_text, _, steps_text = rest.partition("/")
    if not key_text:
        raise WatchKeyError("a key origin must be followed by a key")
    if _HEX_RE.match(key_text):
        if steps_text:
            raise WatchKeyError("derivation steps can only follow an extended public key")
        sec = _plain_public_key(key_text, script)
        return _KeyExpression(source, None, sec, None, fingerprint, origin, None)
    hd, version = _extended_key(key_text, network)
    steps = _steps(steps_text) if steps_text else None
    return _KeyExpression(source, hd, bytes(hd.sec()), version, fingerprint, origin, steps)


def _split_origin(text: str) -> tuple[bytes | None, tuple[int, ...], str]:
    if not text.startswith("["):
        if "]" in text:
            raise WatchKeyError("a key origin starts with [ and ends with ]")
        return None, (), text
    inside, closing, rest = text[1:].partition("]")
    if not closing:
        raise WatchKeyError("the key origin has no closing ]")
    if "[" in inside or rest.startswith("["):
        raise WatchKeyError("a key has at most one origin [fingerprint/path]")
    fingerprint_text, _, path_text = inside.partition("/")
    if len(fingerprint_text) != 8 or not _HEX_RE.match(fingerprint_text):
        raise WatchKeyError("a key origin starts with an 8-character hex fingerprint")
    path: tuple[int, ...] = ()
    if path_text or inside.endswith("/"):
        path = tuple(
            _index(part, hardened_ok=True, where="key origin") for part in path_text.split("/")
        )
    return bytes.fromhex(fingerprint_text), path, rest


def _steps(text: str) -> tuple[int, ...]:
    """Steps after an extended public key; a wildcard or a multipath group takes its first
    receive choice (index 0, branch 0)."""
    parts = text.split("/")
    wildcards = sum(1 for p in parts if p.startswith("*"))
    groups = sum(1 for p in parts if p.startswith("<"))
    if wildcards > 1 or groups > 1:
        raise WatchKeyError("a key has at most one * and one <a;b> group")
    if wildcards and not parts[-1].startswith("*"):
        raise WatchKeyError("the wildcard * must be the last step")
    steps = []
    for part in parts:
        if part in ("*h", "*'", "*H"):
            raise HardenedStepError(_HARDENED_AFTER_PUBLIC)
        if part == "*":
            steps.append(0)
        elif part.startswith("<") and part.endswith(">"):
            choices = part[1:-1].split(";")
            if len(choices) < 2:
                raise WatchKeyError("a multipath group <a;b> lists at least two steps")
            indexes = [_index(c, hardened_ok=False, where="multipath group") for c in choices]
            steps.append(indexes[0])  # the first branch is the receive one
        else:
            steps.append(_index(part, hardened_ok=False, where="derivation"))
    return tuple(steps)


_HARDENED_AFTER_PUBLIC: Final = (
    "a hardened step (such as 0h) after an extended public key can only be taken with its "
    "private key: give the public key at that depth, with its origin [fingerprint/path]"
)


def _index(part: str, *, hardened_ok: bool, where: str) -> int:
    match = _STEP_RE.match(part)
    if match is None:
        raise WatchKeyError(f"a {where} step must be a number, optionally followed by h or '")
    number, mark = int(match.group(1)), match.group(2)
    if number >= HARDENED:
        raise WatchKeyError(f"a {where} step is out of range (at most {HARDENED - 1})")
    if mark == "H":
        raise WatchKeyError(f"write a hardened {where} step with h or ', not H")
    if mark and not hardened_ok:
        raise HardenedStepError(_HARDENED_AFTER_PUBLIC)
    return number | HARDENED if mark else number


def _plain_public_key(text: str, script: AddressType | None) -> bytes:
    raw = bytes.fromhex(text) if len(text) % 2 == 0 else b""
    if len(raw) == 32 and script is AddressType.P2TR:
        raw = b"\x02" + raw  # tr() may name its key x-only
    if len(raw) not in (33, 65) or raw[0] not in (2, 3, 4) or (len(raw) == 65) != (raw[0] == 4):
        raise WatchKeyError("not a public key (33 bytes compressed, or 32 x-only in tr())")
    try:
        ec.PublicKey.parse(raw)
    except Exception:
        raise WatchKeyError("this public key is not a point on the curve") from None
    return raw


def _extended_key(text: str, network: Network) -> tuple[bip32.HDKey, _Version]:
    try:
        payload = base58.decode_check(text)
    except Exception:  # bad characters or checksum; embit's message may quote the text
        payload = b""
    version = _VERSIONS.get(payload[:4]) if len(payload) == 78 else None
    if version is None:
        if _is_wif(payload):
            raise PrivateKeyGivenError(_PRIVATE)
        raise WatchKeyError(
            "not an extended public key (xpub, ypub, zpub, tpub, upub or vpub): check it was "
            "copied whole"
        )
    if version.private:
        raise PrivateKeyGivenError(_PRIVATE)
    if version.multisig:
        raise UnsupportedScriptError(
            f"a {version.name} is a multisig key: only single-key wallets are watched"
        )
    if version.mainnet != (network is Network.MAINNET):
        want = "xpub, ypub or zpub" if network is Network.MAINNET else "tpub, upub or vpub"
        raise WrongNetworkError(
            f"a {version.name} is a {'mainnet' if version.mainnet else 'test-network'} key but "
            f"the profile is on {network.name.lower()}: use its {want}"
        )
    try:
        hd = bip32.HDKey.parse(payload)
    except Exception:
        raise WatchKeyError("this extended public key is damaged (its key is not valid)") from None
    return hd, version


_PRIVATE: Final = (
    "this is a private key: the app only watches, so give the public key (xpub, ypub, zpub, "
    "tpub, upub, vpub) or a descriptor without private keys, and keep the private key in "
    "the wallet that signs"
)


def _is_wif(payload: bytes) -> bool:
    wif_bytes = {NETWORKS[n]["wif"] for n in NETWORKS}
    return len(payload) in (33, 34) and payload[:1] in wif_bytes


def _path_text(indexes: tuple[int, ...]) -> str:
    parts = [f"{i - HARDENED}'" if i >= HARDENED else str(i) for i in indexes]
    return "/".join(["m", *parts])
