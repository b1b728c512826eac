"""Derivation layouts of the wallets our users come from (notes/bitcoin-signing.md section 5).

Each preset names, for the payment and the ordinals role, an address type and a path template
where `{coin}` is the BIP-44 coin type (0 mainnet, 1 test networks) and `{n}` the wallet's
account number N. Where N sits differs: Xverse, Unisat and OKX count it in the last position,
Leather and Magic Eden in the account' position; so an import check derives every layout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.wallet.addresses import AddressType, Network

_HARDENED = 0x80000000
_PATH_RE = re.compile(r"^m(/\d+['h]?)*$")


class PresetError(ValueError):
    """Unknown preset id, or a custom layout that is not a valid derivation path."""


@dataclass(frozen=True)
class RoleLayout:
    """Address type and path template of one role (payment or ordinals)."""

    address_type: AddressType
    path_template: str

    def path(self, network: Network, n: int) -> str:
        """The concrete derivation path for account number `n` on `network`."""
        if n < 0 or n >= _HARDENED:
            raise PresetError(f"account number {n} is out of range")
        path = self.path_template.format(coin=network.coin_type, n=n)
        validate_path(path)
        return path


@dataclass(frozen=True)
class Preset:
    """A wallet's layout: where its payment and ordinals keys live."""

    id: str
    label: str
    payment: RoleLayout
    ordinals: RoleLayout


def validate_path(path: str) -> None:
    """Raise PresetError unless `path` reads like m/84'/0'/0'/0/0 with 31-bit indexes."""
    if not _PATH_RE.match(path):
        raise PresetError(f"{path!r} is not a derivation path like m/84'/0'/0'/0/0")
    for part in path.split("/")[1:]:
        if int(part.rstrip("'h")) >= _HARDENED:
            raise PresetError(f"index {part!r} in {path!r} is out of range")


def _layout(address_type: AddressType, purpose: int, account: str, index: str) -> RoleLayout:
    return RoleLayout(address_type, f"m/{purpose}'/{{coin}}'/{account}'/0/{index}")


_P2TR_LAST = _layout(AddressType.P2TR, 86, "0", "{n}")
_P2TR_ACCOUNT = _layout(AddressType.P2TR, 86, "{n}", "0")


def _unisat(suffix: str, label: str, address_type: AddressType, purpose: int) -> Preset:
    # Unisat wallets hold one address type, used for payments and inscriptions alike.
    layout = _layout(address_type, purpose, "0", "{n}")
    return Preset(f"unisat-{suffix}", f"Unisat ({label})", layout, layout)


XVERSE = Preset(
    "xverse", "Xverse (nested segwit)", _layout(AddressType.P2SH_P2WPKH, 49, "0", "{n}"), _P2TR_LAST
)
XVERSE_NATIVE = Preset(
    "xverse-native",
    "Xverse (native segwit)",
    _layout(AddressType.P2WPKH, 84, "0", "{n}"),
    _P2TR_LAST,
)
LEATHER = Preset("leather", "Leather", _layout(AddressType.P2WPKH, 84, "{n}", "0"), _P2TR_ACCOUNT)
MAGIC_EDEN = Preset(
    "magic-eden", "Magic Eden", _layout(AddressType.P2WPKH, 84, "{n}", "0"), _P2TR_ACCOUNT
)
OKX = Preset("okx", "OKX", _layout(AddressType.P2WPKH, 84, "0", "{n}"), _P2TR_LAST)
UNISAT_P2WPKH = _unisat("p2wpkh", "native segwit", AddressType.P2WPKH, 84)
UNISAT_P2TR = _unisat("p2tr", "taproot", AddressType.P2TR, 86)
UNISAT_P2SH_P2WPKH = _unisat("p2sh-p2wpkh", "nested segwit", AddressType.P2SH_P2WPKH, 49)
UNISAT_P2PKH = _unisat("p2pkh", "legacy", AddressType.P2PKH, 44)
UNISAT_M44_P2WPKH = _unisat("m44-p2wpkh", "native segwit on m/44'", AddressType.P2WPKH, 44)
UNISAT_M44_P2TR = _unisat("m44-p2tr", "taproot on m/44'", AddressType.P2TR, 44)

PRESETS: tuple[Preset, ...] = (
    XVERSE,
    XVERSE_NATIVE,
    LEATHER,
    MAGIC_EDEN,
    UNISAT_P2WPKH,
    UNISAT_P2TR,
    UNISAT_P2SH_P2WPKH,
    UNISAT_P2PKH,
    UNISAT_M44_P2WPKH,
    UNISAT_M44_P2TR,
    OKX,
)
PRESETS_BY_ID: dict[str, Preset] = {preset.id: preset for preset in PRESETS}


def get_preset(preset_id: str) -> Preset:
    """The built-in preset with this id."""
    try:
        return PRESETS_BY_ID[preset_id]
    except KeyError:
        known = ", ".join(PRESETS_BY_ID)
        raise PresetError(f"unknown preset {preset_id!r}; known presets: {known}") from None


def custom_preset(
    payment_path: str,
    payment_type: AddressType,
    ordinals_path: str,
    ordinals_type: AddressType = AddressType.P2TR,
) -> Preset:
    """A user-given layout; paths may use the `{coin}` and `{n}` placeholders."""
    payment = RoleLayout(payment_type, payment_path)
    ordinals = RoleLayout(ordinals_type, ordinals_path)
    for layout in (payment, ordinals):
        try:
            layout.path(Network.MAINNET, 0)
        except PresetError:
            raise
        except (KeyError, IndexError, ValueError):  # str.format on an unknown placeholder
            raise PresetError(
                f"{layout.path_template!r} may only use the {{coin}} and {{n}} placeholders"
            ) from None
    return Preset("custom", "Custom paths", payment, ordinals)
