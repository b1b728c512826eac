"""Taking the user's signatures out of a submitted withdrawal PSBT, after checking each one.

For every input the user's signature is looked for in the PSBT's partial fields
(PSBT_IN_TAP_SCRIPT_SIG for the wallet's leaf and the user's x-only key, or
PSBT_IN_PARTIAL_SIG for the user's compressed key) or, when the signer finalised the input,
in its witness. It must verify for the payment key over the sighash the service computes
from its own copy of the intent (taproot: SIGHASH_DEFAULT or ALL; P2WSH: ALL). Missing:
WITHDRAW_SIGNATURE_MISSING; present but not valid for the payment key: _INVALID.
"""

from __future__ import annotations

from embit.ec import PublicKey
from embit.transaction import Transaction

from app.core.errors import ErrorCode
from app.sandbox.market.errors import MarketError
from app.sandbox.market.wallets import BiddingWallet
from app.wallet.psbt_fixes import FixedInput, FixedPSBT
from app.wallet.psbt_signer import spent_output
from app.wallet.scripts import parse_multi_a_leaf, parse_multisig_script, tapleaf_hash
from app.wallet.secp import ecdsa_verify, schnorr_verify
from app.wallet.sighash import SIGHASH_ALL, TaprootSigContext, segwit_v0_sighash

_TAPROOT_OK = {64: 0x00}  # length -> hash type; 65-byte sigs carry their type byte


def attach_user_signatures(ours: FixedPSBT, signed: FixedPSBT, wallet: BiddingWallet) -> None:
    """Copy the user's verified signature of every input from `signed` into `ours`."""
    tx = ours.tx
    spent = []
    for i in range(len(ours.inputs)):
        out = spent_output(ours, i)
        assert out is not None  # the service built every input with its witness_utxo
        spent.append(out)
    tap = TaprootSigContext(tx, spent)
    for i, (mine, theirs) in enumerate(zip(ours.inputs, signed.inputs, strict=True)):
        if mine.witness_script is not None:
            _attach_ecdsa(tx, i, mine, theirs, wallet, spent[i].value)
        else:
            _attach_schnorr(tap, i, mine, theirs, wallet)


def _fail(code: ErrorCode, index: int, what: str) -> MarketError:
    return MarketError(code, f"input {index}: {what}", details={"input": index})


def _attach_schnorr(
    tap: TaprootSigContext, i: int, mine: FixedInput, theirs: FixedInput, wallet: BiddingWallet
) -> None:
    value = next(iter(mine.taproot_scripts.values()))  # the leaf the service put there
    script = bytes(value[:-1])
    leaf = tapleaf_hash(script, value[-1])
    sig = None
    others = False
    for (pub, leaf_hash), candidate in theirs.taproot_sigs.items():
        if pub.xonly() == wallet.key_xonly and bytes(leaf_hash) == leaf:
            sig = bytes(candidate)
        else:
            others = True
    if sig is None and theirs.final_scriptwitness is not None:
        sig = _from_taproot_witness(list(theirs.final_scriptwitness.items), script, wallet)
        others = others or sig is None
    if sig is None:
        if others:
            raise _fail(
                ErrorCode.WITHDRAW_SIGNATURE_INVALID,
                i,
                "signed by another key than the payment key: sign with the payment address key",
            )
        raise _fail(ErrorCode.WITHDRAW_SIGNATURE_MISSING, i, "no signature by the payment key")
    hash_type = sig[64] if len(sig) == 65 else _TAPROOT_OK.get(len(sig))
    if hash_type not in (0x00, SIGHASH_ALL) or (len(sig) == 65 and hash_type == 0):
        raise _fail(ErrorCode.WITHDRAW_SIGNATURE_INVALID, i, "sighash must be DEFAULT or ALL")
    msg = tap.sighash(i, hash_type, leaf_hash=leaf)
    if not schnorr_verify(sig[:64], msg, wallet.key_xonly):
        raise _fail(
            ErrorCode.WITHDRAW_SIGNATURE_INVALID,
            i,
            "the signature does not verify for the payment key over this transaction",
        )
    mine.taproot_sigs[(PublicKey.from_xonly(wallet.key_xonly), leaf)] = sig


def _from_taproot_witness(items: list[bytes], script: bytes, wallet: BiddingWallet) -> bytes | None:
    """The user's signature in a finalised multi_a spend [sig_kn..sig_k1, script, cb]."""
    parsed = parse_multi_a_leaf(script)
    if parsed is None or len(items) != len(parsed[1]) + 2 or bytes(items[-2]) != script:
        return None
    keys = parsed[1]
    position = keys.index(wallet.key_xonly)
    sig = bytes(items[len(keys) - 1 - position])
    return sig or None


def _attach_ecdsa(
    tx: Transaction, i: int, mine: FixedInput, theirs: FixedInput, wallet: BiddingWallet, value: int
) -> None:
    witness_script = bytes(mine.witness_script.data)
    user = wallet.payment_pubkey
    sig = None
    others = False
    for pub, candidate in theirs.partial_sigs.items():
        if pub.sec() == user:
            sig = bytes(candidate)
        else:
            others = True
    if sig is None and theirs.final_scriptwitness is not None:
        items = [bytes(x) for x in theirs.final_scriptwitness.items]
        if len(items) == 3 and items[2] == witness_script and items[1]:
            sig = items[1]  # [dummy, sig, script]: checked against the user's key below
    if sig is None:
        if others:
            raise _fail(
                ErrorCode.WITHDRAW_SIGNATURE_INVALID,
                i,
                "signed by another key than the payment key: sign with the payment address key",
            )
        raise _fail(ErrorCode.WITHDRAW_SIGNATURE_MISSING, i, "no signature by the payment key")
    if parse_multisig_script(witness_script) is None or not sig or sig[-1] != SIGHASH_ALL:
        raise _fail(ErrorCode.WITHDRAW_SIGNATURE_INVALID, i, "sighash must be ALL")
    msg = segwit_v0_sighash(tx, i, witness_script, value, SIGHASH_ALL)
    if not ecdsa_verify(sig[:-1], msg, user):
        raise _fail(
            ErrorCode.WITHDRAW_SIGNATURE_INVALID,
            i,
            "the signature does not verify for the payment key over this transaction",
        )
    mine.partial_sigs[PublicKey.parse(user)] = sig
