"""The payer's side of the marketplace's PSBTs: its key and address type, the coins it may
spend (never one carrying an inscription or runes), and coin selection with the network fee.

Used by single-inscription bids (the bidder pays) and secure purchases (the buyer pays).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from app.core.errors import ErrorCode
from app.sandbox.chain.consensus import dust_threshold
from app.sandbox.chain.node import Node
from app.sandbox.market.errors import MarketError
from app.sandbox.market.listings_items import read_output
from app.sandbox.market.psbt_build import Coin, InputSpec, estimate_vsize, fee_for
from app.sandbox.market.wallets import decode_regtest, parse_pubkey, payment_type_of
from app.wallet.addresses import AddressType, p2wpkh_redeem_script

MAX_FUNDING_INPUTS = 100
_SUPPORTED = (AddressType.P2WPKH, AddressType.P2SH_P2WPKH, AddressType.P2TR)


@dataclass(frozen=True)
class PaymentKey:
    """A payment address and its public key (checked to belong together)."""

    address: str
    script_pubkey: bytes
    address_type: AddressType
    pubkey: bytes  # 33 bytes, or 32 (x-only) for a taproot address

    def input_spec(self, coin: Coin) -> InputSpec:
        """The PSBT input spending `coin`, with what a signer of this type needs."""
        if self.address_type is AddressType.P2SH_P2WPKH:
            return InputSpec(coin, redeem_script=p2wpkh_redeem_script(self.pubkey))
        if self.address_type is AddressType.P2TR:
            return InputSpec(coin, tap_internal_key=self.pubkey[-32:])
        return InputSpec(coin)


def payment_key(address: str, pubkey_hex: str, address_field: str, key_field: str) -> PaymentKey:
    decoded = decode_regtest(address, address_field)
    pubkey = parse_pubkey(pubkey_hex, key_field)
    address_type = payment_type_of(pubkey, decoded, key_field)
    if address_type not in _SUPPORTED:
        raise MarketError(
            ErrorCode.UNSUPPORTED_ADDRESS_TYPE,
            f"{address_field}: a {address_type.value} payment address cannot fund this PSBT; "
            "use a P2WPKH, P2SH-P2WPKH or P2TR payment address",
            field=address_field,
        )
    return PaymentKey(address, decoded.script_pubkey, address_type, pubkey)


def spendable_coins(node: Node, address: str, allowed: Collection[str] | None = None) -> list[Coin]:
    """Unspent coins of `address` carrying no inscription or rune, confirmed first, large
    first; only those in `allowed` (outpoints) when given."""
    utxos = node.address_utxos(address)
    utxos.sort(key=lambda u: (not u["status"]["confirmed"], -u["value"]))
    coins = []
    for utxo in utxos:
        outpoint = f"{utxo['txid']}:{utxo['vout']}"
        if allowed is not None and outpoint not in allowed:
            continue
        output = read_output(node, outpoint)
        if output is None or output.inscriptions or output.runes:
            continue
        coins.append(output.coin)
        if len(coins) >= MAX_FUNDING_INPUTS:
            break
    return coins


@dataclass(frozen=True)
class Funding:
    coins: tuple[Coin, ...]
    change: int  # 0: no change output (what is left above the estimate goes to the fee)
    network_fee: int


def select_funding(
    coins: Sequence[Coin],
    fixed_inputs: Sequence[bytes],
    fixed_outputs: Sequence[bytes],
    due: int,
    payer_script: bytes,
    fee_rate: float,
) -> Funding:
    """Coins paying `due` sats plus the network fee of the whole transaction, with change back
    to `payer_script` when it clears dust. Raises INSUFFICIENT_FUNDS saying what is missing."""
    chosen: list[Coin] = []
    total = 0
    dust = dust_threshold(payer_script)
    for coin in coins:
        chosen.append(coin)
        total += coin.value
        inputs = [*fixed_inputs, *(c.script_pubkey for c in chosen)]
        fee_with_change = fee_for(estimate_vsize(inputs, [*fixed_outputs, payer_script]), fee_rate)
        change = total - due - fee_with_change
        if change >= dust:
            return Funding(tuple(chosen), change, fee_with_change)
        fee_plain = fee_for(estimate_vsize(inputs, fixed_outputs), fee_rate)
        if total - due >= fee_plain:
            return Funding(tuple(chosen), 0, total - due)
    inputs = [*fixed_inputs, *(c.script_pubkey for c in chosen or [Coin("", 0, 0, payer_script)])]
    needed = due + fee_for(estimate_vsize(inputs, fixed_outputs), fee_rate)
    raise MarketError(
        ErrorCode.INSUFFICIENT_FUNDS,
        f"the payment address can spend {total:,} sats (coins without inscriptions or runes) "
        f"but {needed:,} are needed: {needed - total:,} sats are missing; fund the address "
        "and try again",
        details={"needed": needed, "available": total, "shortfall": needed - total},
    )
