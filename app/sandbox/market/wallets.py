"""Bidding wallets: derivation from the payment key and the service key, and the identity
binding of spec 2.1 (the first request ties a wallet to (ordinals, payment, payment pubkey)).

The user's key in the multisig is the payment public key itself (the Taproot internal key for
a P2TR payment address, untweaked). A Taproot payment key may arrive compressed (33 bytes) or
x-only (32 bytes): the x-only key is the identity, so both forms are the same wallet.
Uniqueness: one wallet per ordinals address, per payment address and per payment key.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from embit import hashes
from embit.ec import PublicKey

from app.core.errors import ErrorCode
from app.sandbox.market.errors import MarketError
from app.sandbox.market.service import NETWORK, Market
from app.wallet.addresses import (
    AddressType,
    DecodedAddress,
    InvalidAddressError,
    ScriptKind,
    decode_address,
    p2wpkh_redeem_script,
    taproot_output_key,
)
from app.wallet.scripts import bidding_p2wsh_1of2, bidding_taproot_1of2

TYPE_NAMES = {
    AddressType.P2WPKH: "P2WPKH",
    AddressType.P2SH_P2WPKH: "P2SH-P2WPKH",
    AddressType.P2TR: "P2TR (Taproot)",
    AddressType.P2PKH: "P2PKH",
}
_COLUMNS = (
    "id, ordinals_address, payment_address, payment_type, payment_pubkey, key_xonly, kind, "
    "multisig_address, created_ms"
)


@dataclass(frozen=True)
class BiddingWallet:
    id: int
    ordinals_address: str
    payment_address: str
    payment_type: AddressType
    payment_pubkey: bytes  # as first sent: 33 bytes, or 32 (x-only) for a Taproot payment key
    key_xonly: bytes
    kind: str  # "taproot" | "p2wsh"
    multisig_address: str
    created_ms: int


def decode_regtest(address: str, field: str) -> DecodedAddress:
    """The decoded address, or 400 INVALID_ADDRESS naming the field."""
    try:
        return decode_address(address, NETWORK)
    except InvalidAddressError as exc:
        raise MarketError(
            ErrorCode.INVALID_ADDRESS, f"{field}: {exc}; send a regtest address", field=field
        ) from None


def parse_pubkey(text: str, field: str) -> bytes:
    """A 33-byte compressed or 32-byte x-only public key on the curve, from hex."""
    try:
        raw = bytes.fromhex(text)
        if len(raw) == 33 and raw[0] in (2, 3):
            PublicKey.parse(raw)
            return raw
        if len(raw) == 32:
            PublicKey.from_xonly(raw)
            return raw
    except Exception:  # embit raises several types for bad hex or off-curve points
        pass
    raise MarketError(
        ErrorCode.INVALID_FIELD,
        f"{field} must be a public key in hex: 66 digits starting 02 or 03 (compressed), or 64 "
        "(x-only, Taproot payment addresses only); send the key of the payment address",
        field=field,
    )


def payment_type_of(pubkey: bytes, decoded: DecodedAddress, field: str) -> AddressType:
    """The payment address type, after checking that `pubkey` is the address's key
    (P2WPKH, P2PKH: hash160; P2SH: P2SH-P2WPKH of the key; P2TR: BIP-86 output key)."""
    xonly = pubkey[-32:]
    kind = decoded.kind
    if kind is ScriptKind.P2TR:
        if taproot_output_key(xonly) == decoded.program:
            return AddressType.P2TR
    elif len(pubkey) == 33:
        key_hash = bytes(hashes.hash160(pubkey))
        if kind is ScriptKind.P2WPKH and key_hash == decoded.program:
            return AddressType.P2WPKH
        if kind is ScriptKind.P2PKH and key_hash == decoded.program:
            return AddressType.P2PKH
        redeem = p2wpkh_redeem_script(pubkey)
        if kind is ScriptKind.P2SH and bytes(hashes.hash160(redeem)) == decoded.program:
            return AddressType.P2SH_P2WPKH
    elif kind in (ScriptKind.P2WPKH, ScriptKind.P2PKH, ScriptKind.P2SH):
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            f"{field}: a 32-byte x-only key is accepted for a Taproot payment address only; "
            "send the 33-byte compressed key",
            field=field,
        )
    if kind is ScriptKind.P2WSH:
        raise MarketError(
            ErrorCode.INVALID_ADDRESS,
            "a P2WSH payment address is not supported: use a P2WPKH, P2SH-P2WPKH, P2TR or "
            "P2PKH payment address",
            field="paymentAddress",
        )
    raise MarketError(
        ErrorCode.PUBKEY_ADDRESS_MISMATCH,
        f"{field} is not the public key of {decoded.address}: send the key of that payment address",
        field=field,
    )


def multisig_address(market: Market, kind: str, pubkey: bytes) -> str:
    if kind == "taproot":
        return bidding_taproot_1of2(pubkey[-32:], market.service_xonly).address("regtest")
    if len(pubkey) != 33:
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            "paymentPubkey: this sandbox hands out P2WSH bidding wallets, which need the "
            "33-byte compressed key on the first request; send that form",
            field="paymentPubkey",
        )
    return bidding_p2wsh_1of2(pubkey, market.service_pubkey).address("regtest")


def _row(row: Any) -> BiddingWallet:
    return BiddingWallet(
        row[0],
        row[1],
        row[2],
        AddressType(row[3]),
        bytes.fromhex(row[4]),
        bytes.fromhex(row[5]),
        row[6],
        row[7],
        row[8],
    )


def wallet_by_payment(conn: sqlite3.Connection, payment_address: str) -> BiddingWallet | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM wallets WHERE payment_address = ?", (payment_address,)
    ).fetchone()
    return None if row is None else _row(row)


def wallet_by_id(conn: sqlite3.Connection, wallet_id: int) -> BiddingWallet | None:
    row = conn.execute(f"SELECT {_COLUMNS} FROM wallets WHERE id = ?", (wallet_id,)).fetchone()
    return None if row is None else _row(row)


def load_wallet_addresses(market: Market) -> None:
    with market.store.reading() as conn:
        rows = conn.execute("SELECT multisig_address, id FROM wallets").fetchall()
    market.wallet_ids_by_address.update({address: wallet_id for address, wallet_id in rows})


def tie_wallet(market: Market, ordinals: str, payment: str, pubkey_hex: str) -> BiddingWallet:
    """The wallet of this triple, created on first use; 400 when it conflicts with a wallet
    tied before (the message says how to fix it)."""
    decode_regtest(ordinals, "ordinalsAddress")
    decoded = decode_regtest(payment, "paymentAddress")
    pubkey = parse_pubkey(pubkey_hex, "paymentPubkey")
    payment_type = payment_type_of(pubkey, decoded, "paymentPubkey")
    xonly = pubkey[-32:]
    with market.lock, market.store.transaction() as conn:
        rows = [
            _row(r)
            for r in conn.execute(
                f"SELECT {_COLUMNS} FROM wallets "
                "WHERE ordinals_address = ? OR payment_address = ? OR key_xonly = ?",
                (ordinals, payment, xonly.hex()),
            )
        ]
        if not rows:
            return _create(market, conn, ordinals, payment, payment_type, pubkey)
        wallet = rows[0]
        if len(rows) == 1 and (wallet.ordinals_address, wallet.payment_address) == (
            ordinals,
            payment,
        ):
            return wallet  # same key too: the address checks above tie key and address
        raise identity_mismatch(wallet, ordinals, payment, payment_type)


def _create(
    market: Market,
    conn: sqlite3.Connection,
    ordinals: str,
    payment: str,
    payment_type: AddressType,
    pubkey: bytes,
) -> BiddingWallet:
    kind = market.settings.bidding_wallet
    address = multisig_address(market, kind, pubkey)
    now = market.now_ms()
    cursor = conn.execute(
        "INSERT INTO wallets (ordinals_address, payment_address, payment_type, payment_pubkey, "
        "key_xonly, kind, multisig_address, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            ordinals,
            payment,
            payment_type.value,
            pubkey.hex(),
            pubkey[-32:].hex(),
            kind,
            address,
            now,
        ),
    )
    wallet_id = int(cursor.lastrowid or 0)
    market.wallet_ids_by_address[address] = wallet_id
    return BiddingWallet(
        wallet_id, ordinals, payment, payment_type, pubkey, pubkey[-32:], kind, address, now
    )


def identity_mismatch(
    wallet: BiddingWallet, ordinals: str, payment: str, payment_type: AddressType
) -> MarketError:
    """BIDDING_WALLET_IDENTITY_MISMATCH, with what to do in the message."""
    if wallet.ordinals_address == ordinals:
        if wallet.payment_type is not payment_type:
            message = (
                f"this wallet is tied to a {TYPE_NAMES[wallet.payment_type]} payment address "
                f"({wallet.payment_address}), not a {TYPE_NAMES[payment_type]} one; select that "
                "address type in your wallet or use a new ordinals address"
            )
        else:
            message = (
                f"this wallet is tied to the payment address {wallet.payment_address}; switch "
                "to the wallet account that owns it or use a new ordinals address"
            )
    elif wallet.payment_address == payment:
        message = (
            f"the payment address {payment} is tied to the bidding wallet of the ordinals "
            f"address {wallet.ordinals_address}; use that ordinals address (the same wallet "
            "account) or a new payment address"
        )
    else:
        message = (
            "this payment key already backs the bidding wallet of the ordinals address "
            f"{wallet.ordinals_address} and the payment address {wallet.payment_address}; use "
            "those addresses"
        )
    return MarketError(ErrorCode.BIDDING_WALLET_IDENTITY_MISMATCH, message)
