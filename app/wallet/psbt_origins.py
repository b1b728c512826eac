"""Key origins in a PSBT for a wallet that signs elsewhere (BIP-174 PSBT_IN_BIP32_DERIVATION,
BIP-371 PSBT_IN_TAP_BIP32_DERIVATION and PSBT_IN_TAP_INTERNAL_KEY).

Hardware wallets, Sparrow and Bitcoin Core sign an input when it names one of their keys by
master fingerprint and path. `add_key_origins` names our keys on exactly the inputs approved
for signing, where each key is really used by the spent script (a P2WPKH or P2SH-P2WPKH
output of the key, its BIP-86 taproot output, a P2WSH multisig or taproot leaf holding it),
and removes any derivation of our fingerprints from every other input, so no signer is
invited to sign what the review did not approve. A P2SH-P2WPKH input of ours gets its redeem
script when the PSBT lacks it (the signer needs it; the review checks it hashes to the output).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from embit import bip32, ec
from embit.psbt import DerivationPath
from embit.script import Script

from app.wallet.addresses import AddressType, PublicRoleKey
from app.wallet.psbt_fixes import FixedInput, FixedPSBT
from app.wallet.psbt_signer import PsbtSigningError, spent_output
from app.wallet.scripts import (
    TAPSCRIPT_LEAF_VERSION,
    control_block_commits,
    parse_multisig_script,
    script_pushes,
    tapleaf_hash,
)


def add_key_origins(psbt: FixedPSBT, keys: Sequence[PublicRoleKey], approved: Iterable[int]) -> int:
    """Name `keys` (those with a master fingerprint and path) on the `approved` inputs that
    spend them, and strip our fingerprints' derivations from every other input; in place.
    Returns how many derivations were added."""
    known = [k for k in keys if k.master_fingerprint is not None and k.derivation_path]
    fingerprints = {k.master_fingerprint for k in known}
    wanted = set(approved)
    added = 0
    for index, inp in enumerate(psbt.inputs):
        _strip(inp, fingerprints)
        if index in wanted:
            added += sum(_name(psbt, index, inp, key) for key in known)
    return added


def _derivation(key: PublicRoleKey) -> DerivationPath:
    assert key.master_fingerprint is not None and key.derivation_path is not None
    return DerivationPath(key.master_fingerprint, bip32.parse_path(key.derivation_path))


def _strip(inp: FixedInput, fingerprints: set[bytes | None]) -> None:
    # New dicts: embit may share a scope's default containers between instances.
    inp.bip32_derivations = OrderedDict(
        (pub, der)
        for pub, der in inp.bip32_derivations.items()
        if der.fingerprint not in fingerprints
    )
    inp.taproot_bip32_derivations = OrderedDict(
        (pub, value)
        for pub, value in inp.taproot_bip32_derivations.items()
        if value[1].fingerprint not in fingerprints
    )


def _name(psbt: FixedPSBT, index: int, inp: FixedInput, key: PublicRoleKey) -> int:
    try:
        utxo = spent_output(psbt, index)
    except PsbtSigningError:
        return 0  # disagreeing UTXO data: the review refuses such a PSBT anyway
    if utxo is None:
        return 0
    spk = bytes(utxo.script_pubkey.data)
    sec = key.public_key
    if len(spk) == 34 and spk[:2] == b"\x51\x20":
        return _name_taproot(inp, key, spk[2:])
    if spk == key.script_pubkey and key.address_type is not AddressType.P2TR:
        if key.redeem_script is not None and inp.redeem_script is None:
            inp.redeem_script = Script(key.redeem_script)
        inp.bip32_derivations[ec.PublicKey.parse(sec)] = _derivation(key)
        return 1
    witness = None if inp.witness_script is None else bytes(inp.witness_script.data)
    if (
        witness is not None
        and len(spk) == 34
        and spk[:2] == b"\x00\x20"
        and hashlib.sha256(witness).digest() == spk[2:]
    ):
        multisig = parse_multisig_script(witness)
        if multisig is not None and sec in multisig[1]:
            inp.bip32_derivations[ec.PublicKey.parse(sec)] = _derivation(key)
            return 1
    return 0


def _name_taproot(inp: FixedInput, key: PublicRoleKey, output_key: bytes) -> int:
    xonly = key.public_key[1:33] if len(key.public_key) == 33 else b""
    if not xonly:
        return 0
    pub = ec.PublicKey.from_xonly(xonly)
    if key.address_type is AddressType.P2TR and key.output_key == output_key:
        inp.taproot_bip32_derivations[pub] = ([], _derivation(key))
        if inp.taproot_internal_key is None:
            inp.taproot_internal_key = pub
        return 1
    leaves = [
        tapleaf_hash(bytes(value[:-1]), value[-1])
        for control, value in inp.taproot_scripts.items()
        if value[-1] == TAPSCRIPT_LEAF_VERSION
        and xonly in script_pushes(bytes(value[:-1]))
        and control_block_commits(output_key, bytes(value[:-1]), value[-1], bytes(control))
    ]
    if not leaves:
        return 0
    inp.taproot_bip32_derivations[pub] = (leaves, _derivation(key))
    return 1


__all__ = ["add_key_origins"]
