"""The PSBT handed to another signer (a hardware wallet, Sparrow, Bitcoin Core, or this app's
offline signer): what it needs to sign the approved inputs, and nothing else from the service.

A service's PSBT may carry fields signers act on: global xpubs (Coldcard can register a
multisig wallet from a PSBT's xpubs), output derivations (a hardware wallet hides an output it
takes for its own change, even one that only claims its fingerprint), derivations on inputs the
review did not approve, proprietary and unknown fields. `psbt_for_signer` keeps the unsigned
transaction and, on every input, the output it spends (witness_utxo, non_witness_utxo: taproot
sighashes commit to all of them, and a signer checks the fee with them); on the approved inputs
only, the scripts that spend it (redeem and witness scripts, taproot leaves, internal key and
merkle root) and the approved sighash type; then it names our keys there by origin
(`psbt_origins.add_key_origins`). Outputs carry their amount and script, nothing more.

What the other signer returns is never submitted as it is: the import copies the approved
signatures into the PSBT that was reviewed (`services.psbt_signed.approved_signatures_only`),
so our key origins, added here for that signer, never reach the service.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence

from app.wallet.addresses import PublicRoleKey
from app.wallet.psbt_fixes import FixedInput, FixedPSBT
from app.wallet.psbt_origins import add_key_origins
from app.wallet.psbt_reader import unsigned_txid


def psbt_for_signer(
    psbt: FixedPSBT, keys: Sequence[PublicRoleKey], approved: Iterable[int]
) -> FixedPSBT:
    """A new PSBT of `psbt`'s transaction with only what signing the `approved` inputs needs,
    `keys` named by origin on them; `psbt` is left as it is."""
    wanted = set(approved)
    minimal = FixedPSBT(psbt.tx)
    for index, (source, target) in enumerate(zip(psbt.inputs, minimal.inputs, strict=True)):
        _copy_spent_output(source, target)
        if index in wanted:
            _copy_spending_scripts(source, target)
    copy: FixedPSBT = FixedPSBT.parse(minimal.serialize())  # no object shared with `psbt`
    add_key_origins(copy, keys, wanted)
    if unsigned_txid(copy) != unsigned_txid(psbt):  # the same transaction, or nothing
        raise ValueError("the PSBT for the signer is not the reviewed transaction")
    return copy


def _copy_spent_output(source: FixedInput, target: FixedInput) -> None:
    target.witness_utxo = source.witness_utxo
    target.non_witness_utxo = source.non_witness_utxo


def _copy_spending_scripts(source: FixedInput, target: FixedInput) -> None:
    target.sighash_type = source.sighash_type
    target.redeem_script = source.redeem_script
    target.witness_script = source.witness_script
    target.taproot_internal_key = source.taproot_internal_key
    target.taproot_merkle_root = source.taproot_merkle_root
    target.taproot_scripts = OrderedDict(source.taproot_scripts)


__all__ = ["psbt_for_signer"]
