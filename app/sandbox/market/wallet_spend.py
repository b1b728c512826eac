"""Spending a bidding wallet: its scripts as PSBT input fields, input weights for fee
estimates, and unsigned transactions over its coins.

Taproot: NUMS internal key, one `multi_a(1, user, service)` leaf; an input carries
witness_utxo, tap_internal_key, tap_merkle_root, the leaf with its control block and a
PSBT_IN_TAP_BIP32_DERIVATION hint naming the user's key and the leaf (fingerprint 00000000,
empty path: the service does not know the user's derivation). P2WSH: witness_utxo and the
`OP_1 <k1> <k2> OP_2 OP_CHECKMULTISIG` witness script.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from embit.ec import PublicKey
from embit.psbt import DerivationPath
from embit.script import Script
from embit.transaction import TransactionInput, TransactionOutput

from app.sandbox.market.service import Market
from app.sandbox.market.wallets import BiddingWallet
from app.wallet.psbt_fixes import FixedInput, FixedPSBT, new_transaction
from app.wallet.scripts import TapLeaf, bidding_p2wsh_1of2, bidding_taproot_1of2

RBF_SEQUENCE = 0xFFFFFFFD
# Sandbox transactions pay 2 sat/vB: above the relay minimum, so they always enter the mempool.
FEE_RATE_SAT_VB = 2.0
_TX_OVERHEAD_WU = (4 + 4 + 1 + 1) * 4 + 2  # version, locktime, counts; segwit marker+flag
_INPUT_BASE_WU = (32 + 4 + 1 + 4) * 4  # outpoint, empty scriptSig, sequence
# Witness of a 1-of-2 spend, largest signature: taproot [sig65, "", leaf(70), cb(33)];
# P2WSH ["", der+hashtype(73), script(71)]; each item with its length byte, plus the count.
_TAPROOT_WITNESS_WU = 1 + (1 + 65) + 1 + (1 + 70) + (1 + 33)
_P2WSH_WITNESS_WU = 1 + 1 + (1 + 73) + (1 + 71)
_NO_FINGERPRINT = b"\x00" * 4


@dataclass(frozen=True)
class Coin:
    txid: str
    vout: int
    value: int
    script_pubkey: bytes


@dataclass(frozen=True)
class WalletScripts:
    """How one bidding wallet's outputs are spent."""

    wallet: BiddingWallet
    script_pubkey: bytes
    leaf: TapLeaf | None
    internal_key: bytes | None
    merkle_root: bytes | None
    witness_script: bytes | None

    @property
    def input_weight(self) -> int:
        witness = _TAPROOT_WITNESS_WU if self.leaf is not None else _P2WSH_WITNESS_WU
        return _INPUT_BASE_WU + witness

    def fill_input(self, inp: FixedInput, value: int) -> None:
        inp.witness_utxo = TransactionOutput(value, Script(self.script_pubkey))
        if self.witness_script is not None:
            inp.witness_script = Script(self.witness_script)
            return
        assert self.leaf is not None and self.internal_key is not None
        inp.taproot_internal_key = PublicKey.from_xonly(self.internal_key)
        inp.taproot_merkle_root = self.merkle_root
        inp.taproot_scripts[self.leaf.control_block] = self.leaf.script + bytes(
            [self.leaf.leaf_version]
        )
        user = PublicKey.from_xonly(self.wallet.key_xonly)
        inp.taproot_bip32_derivations[user] = (
            [self.leaf.leaf_hash],
            DerivationPath(_NO_FINGERPRINT, []),
        )


def wallet_scripts(market: Market, wallet: BiddingWallet) -> WalletScripts:
    if wallet.kind == "taproot":
        out = bidding_taproot_1of2(wallet.key_xonly, market.service_xonly)
        return WalletScripts(
            wallet, out.script_pubkey, out.leaves[0], out.internal_key, out.merkle_root, None
        )
    multisig = bidding_p2wsh_1of2(wallet.payment_pubkey, market.service_pubkey)
    return WalletScripts(wallet, multisig.script_pubkey, None, None, None, multisig.witness_script)


def wallet_coins(market: Market, scripts: WalletScripts) -> list[Coin]:
    """Unspent outputs of the wallet (mempool included), largest first."""
    utxos = market.node.address_utxos(scripts.wallet.multisig_address)
    coins = [Coin(u["txid"], u["vout"], u["value"], scripts.script_pubkey) for u in utxos]
    return sorted(coins, key=lambda c: (-c.value, c.txid, c.vout))


def output_weight(script_pubkey: bytes) -> int:
    return (8 + 1 + len(script_pubkey)) * 4


def fee_for(weight: int, sat_vb: float = FEE_RATE_SAT_VB) -> int:
    return math.ceil(math.ceil(weight / 4) * sat_vb)


def tx_weight(input_weights: Sequence[int], output_scripts: Sequence[bytes]) -> int:
    return _TX_OVERHEAD_WU + sum(input_weights) + sum(output_weight(s) for s in output_scripts)


def unsigned_psbt(
    inputs: Sequence[Coin], outputs: Sequence[tuple[bytes, int]], scripts: WalletScripts | None
) -> FixedPSBT:
    """A PSBT over `inputs` -> `outputs`; every input gets its witness_utxo, and the inputs of
    the bidding wallet (`scripts`) get the script fields a signer needs."""
    tx = new_transaction(
        2,
        0,
        [TransactionInput(bytes.fromhex(c.txid), c.vout, sequence=RBF_SEQUENCE) for c in inputs],
        [TransactionOutput(value, Script(spk)) for spk, value in outputs],
    )
    psbt = FixedPSBT(tx)
    for inp, coin in zip(psbt.inputs, inputs, strict=True):
        if scripts is not None and coin.script_pubkey == scripts.script_pubkey:
            scripts.fill_input(inp, coin.value)
        else:
            inp.witness_utxo = TransactionOutput(coin.value, Script(coin.script_pubkey))
    return psbt
