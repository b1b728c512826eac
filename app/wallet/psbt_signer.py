"""The PSBT signer: signs exactly the requested inputs with exactly the requested sighashes.

A caller (later, a policy layer) passes a list of `SignRequest(input_index, sighash)`. Every
request is checked before anything is signed; any problem raises a `PsbtSigningError` subclass
naming the input and the reason, and the PSBT is left untouched. Inputs not requested are never
touched. Supported inputs: P2WPKH, P2SH-P2WPKH, P2WSH multisig, P2TR key path (BIP-86 or with a
merkle root) and P2TR script path (`<key> CHECKSIG` and multi_a leaves). Taproot key-path
signatures go to PSBT_IN_TAP_KEY_SIG (0x13), script-path ones to PSBT_IN_TAP_SCRIPT_SIG (0x14),
ECDSA ones to PSBT_IN_PARTIAL_SIG: the PSBT stays un-finalised (see `finalize.py`).
"""

from __future__ import annotations

import enum
import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from embit import ec
from embit.hashes import hash160
from embit.transaction import TransactionOutput
from embit.util import secp256k1

from app.wallet.psbt_fixes import FixedInput, FixedPSBT
from app.wallet.scripts import (
    TAPSCRIPT_LEAF_VERSION,
    control_block_commits,
    parse_checksig_leaf,
    parse_multi_a_leaf,
    parse_multisig_script,
    script_pushes,
    tapleaf_hash,
    tweak_xonly,
)
from app.wallet.sighash import (
    ECDSA_HASH_TYPES,
    SIGHASH_DEFAULT,
    SIGHASH_SINGLE,
    TAPROOT_HASH_TYPES,
    TaprootSigContext,
    segwit_v0_sighash,
    sighash_name,
)

_V2_LOCKTIME_KEYS = (b"\x11", b"\x12")  # PSBT_IN_REQUIRED_TIME/HEIGHT_LOCKTIME


class PsbtSigningError(Exception):
    """A sign request was refused; nothing was signed. Names the input and the reason."""

    def __init__(self, input_index: int, reason: str) -> None:
        super().__init__(f"input {input_index}: {reason}")
        self.input_index = input_index
        self.reason = reason


class InvalidSignRequestError(PsbtSigningError):
    """No such input, duplicated request, or a sighash that is invalid for this input."""


class MissingUtxoError(PsbtSigningError):
    """The UTXO data the sighash needs is missing (taproot needs it for every input)."""


class InputNotOwnedError(PsbtSigningError):
    """The input does not belong to the signing key."""


class SighashMismatchError(PsbtSigningError):
    """The PSBT's PSBT_IN_SIGHASH_TYPE differs from the requested sighash."""


class UnsupportedInputError(PsbtSigningError):
    """An input type this signer does not handle (legacy, P2SH-P2WSH, unknown scripts...)."""


class InputKind(enum.Enum):
    P2WPKH = "P2WPKH"
    P2SH_P2WPKH = "P2SH-P2WPKH"
    P2WSH_MULTISIG = "P2WSH multisig"
    P2TR_KEY = "P2TR key path"
    P2TR_SCRIPT = "P2TR script path"

    @property
    def is_taproot(self) -> bool:
        return self in (InputKind.P2TR_KEY, InputKind.P2TR_SCRIPT)


@dataclass(frozen=True)
class SignRequest:
    """Sign input `input_index` with hash type `sighash` (e.g. 0x01, 0x83)."""

    input_index: int
    sighash: int


@dataclass(frozen=True)
class SignedInput:
    input_index: int
    kind: InputKind
    sighash: int
    signatures: int


def requests_for(indices: Iterable[int], sighash: int) -> list[SignRequest]:
    """The same sighash for each of `indices`, e.g. `requests_for([0], 0x83)`."""
    return [SignRequest(i, sighash) for i in indices]


def all_inputs_except(psbt: FixedPSBT, excluded: Iterable[int], sighash: int) -> list[SignRequest]:
    """Every input but `excluded`, e.g. "all inputs except 0, SIGHASH_ALL"."""
    skip = set(excluded)
    return [SignRequest(i, sighash) for i in range(len(psbt.inputs)) if i not in skip]


class SigningKey:
    """A private key prepared for signing; caches its public forms and taproot keypairs.

    Its repr shows only the public key, so it is safe in logs and tracebacks.
    """

    __slots__ = ("_key", "_keypairs", "_public", "_tweaked", "pubkey", "pubkey_hash", "xonly")

    def __init__(self, key: ec.PrivateKey) -> None:
        self._key = ec.PrivateKey(key.secret, compressed=True)  # segwit needs compressed keys
        self._public = self._key.get_public_key()
        self.pubkey: bytes = self._public.sec()
        self.pubkey_hash = hash160(self.pubkey)
        self.xonly: bytes = self.pubkey[1:33]
        self._keypairs: dict[bytes | None, tuple[bytes, bytes]] = {}
        self._tweaked: dict[bytes | None, bytes] = {}

    def __repr__(self) -> str:
        return f"SigningKey(pubkey={self.pubkey.hex()})"

    def ecdsa_sign(self, msg: bytes) -> bytes:
        """DER signature, low-R ground like Bitcoin Core."""
        der: bytes = self._key.sign(msg).serialize()
        if not self._public.verify(ec.Signature.parse(der), msg):
            raise RuntimeError("ECDSA signature failed self-verification")
        return der

    def _keypair(self, tweak: bytes | None) -> tuple[bytes, bytes]:
        """(keypair, x-only public key) of the untweaked key (None) or of the key tweaked
        with a merkle root (b"" for BIP-86), in libsecp256k1's internal formats."""
        if tweak not in self._keypairs:
            secret = self._key.secret if tweak is None else self._key.taproot_tweak(tweak).secret
            keypair = secp256k1.keypair_create(secret)
            point = secp256k1.ec_pubkey_create(secret)
            self._keypairs[tweak] = (keypair, secp256k1.xonly_pubkey_from_pubkey(point)[0])
        return self._keypairs[tweak]

    def tweaked_xonly(self, merkle_root: bytes | None) -> bytes:
        """Output key of this key as a taproot internal key (BIP-86 when merkle_root is None)."""
        if merkle_root not in self._tweaked:
            self._tweaked[merkle_root] = tweak_xonly(self.xonly, merkle_root)[0]
        return self._tweaked[merkle_root]

    def schnorr_sign(self, msg: bytes, tweak: bytes | None, aux_rand: bytes | None = None) -> bytes:
        """BIP-340 signature with fresh auxiliary randomness (pass `aux_rand` only in tests)."""
        keypair, xonly_pub = self._keypair(tweak)
        aux = os.urandom(32) if aux_rand is None else aux_rand
        sig: bytes = secp256k1.schnorrsig_sign(msg, keypair, None, aux)
        if not secp256k1.schnorrsig_verify(sig, msg, xonly_pub):
            raise RuntimeError("Schnorr signature failed self-verification")
        return sig


@dataclass(frozen=True)
class _Plan:
    """How one requested input is signed, decided before any signature is made."""

    index: int
    sighash: int
    kind: InputKind
    amount: int = 0
    script_code: bytes = b""
    merkle_root: bytes | None = None
    leaf_hashes: tuple[bytes, ...] = ()


def sign_psbt(
    psbt: FixedPSBT, key: SigningKey | ec.PrivateKey, requests: Sequence[SignRequest]
) -> list[SignedInput]:
    """Sign the requested inputs of `psbt` in place; all-or-nothing (every check runs first)."""
    signer = key if isinstance(key, SigningKey) else SigningKey(key)
    if psbt.version == 2 and any(k in _V2_LOCKTIME_KEYS for i in psbt.inputs for k in i.unknown):
        # The nLockTime would have to be derived from them (BIP-370); embit does not.
        first = requests[0].input_index if requests else 0
        raise UnsupportedInputError(first, "PSBTv2 per-input required lock times")
    seen: set[int] = set()
    plans = [_plan(psbt, signer, req, seen) for req in requests]
    tx = psbt.tx
    tap_ctx = None
    if any(p.kind.is_taproot for p in plans):
        tap_ctx = TaprootSigContext(tx, _all_spent_outputs(psbt, plans))
    done = []
    for p in plans:
        inp: FixedInput = psbt.inputs[p.index]
        suffix = bytes([p.sighash])
        if p.kind is InputKind.P2TR_KEY:
            assert tap_ctx is not None
            sig = signer.schnorr_sign(
                tap_ctx.sighash(p.index, p.sighash), tweak=p.merkle_root or b""
            )
            inp.tap_key_sig = sig + (b"" if p.sighash == SIGHASH_DEFAULT else suffix)
        elif p.kind is InputKind.P2TR_SCRIPT:
            assert tap_ctx is not None
            pub = ec.PublicKey.from_xonly(signer.xonly)
            for leaf in p.leaf_hashes:
                msg = tap_ctx.sighash(p.index, p.sighash, leaf_hash=leaf)
                sig = signer.schnorr_sign(msg, tweak=None)
                inp.taproot_sigs[(pub, leaf)] = sig + (b"" if p.sighash == 0 else suffix)
        else:
            msg = segwit_v0_sighash(tx, p.index, p.script_code, p.amount, p.sighash)
            inp.partial_sigs[ec.PublicKey.parse(signer.pubkey)] = signer.ecdsa_sign(msg) + suffix
        done.append(SignedInput(p.index, p.kind, p.sighash, max(1, len(p.leaf_hashes))))
    return done


def spent_output(psbt: FixedPSBT, index: int) -> TransactionOutput | None:
    """The output input `index` spends, from witness_utxo or a txid-checked non_witness_utxo."""
    inp = psbt.inputs[index]
    from_full_tx = None
    if inp.non_witness_utxo is not None:
        prev = inp.non_witness_utxo
        if prev.txid() != inp.txid or not 0 <= inp.vout < len(prev.vout):
            raise MissingUtxoError(index, "non_witness_utxo does not match the input's outpoint")
        from_full_tx = prev.vout[inp.vout]
    if inp.witness_utxo is not None:
        if from_full_tx is not None and from_full_tx.serialize() != inp.witness_utxo.serialize():
            raise MissingUtxoError(index, "witness_utxo and non_witness_utxo disagree")
        return inp.witness_utxo
    return from_full_tx


def _all_spent_outputs(psbt: FixedPSBT, plans: Sequence[_Plan]) -> list[TransactionOutput]:
    first = next(p.index for p in plans if p.kind.is_taproot)
    outs = []
    for j in range(len(psbt.inputs)):
        out = spent_output(psbt, j)
        if out is None:
            raise MissingUtxoError(
                first, f"taproot sighash needs the UTXO of every input; input {j} has none"
            )
        outs.append(out)
    return outs


def _plan(psbt: FixedPSBT, signer: SigningKey, req: SignRequest, seen: set[int]) -> _Plan:
    i, n = req.input_index, len(psbt.inputs)
    if not isinstance(i, int) or not 0 <= i < n:
        raise InvalidSignRequestError(i, f"no such input (the PSBT has {n})")
    if i in seen:
        raise InvalidSignRequestError(i, "requested more than once")
    seen.add(i)
    inp = psbt.inputs[i]
    if inp.final_scriptwitness is not None or inp.final_scriptsig is not None:
        raise InvalidSignRequestError(i, "input is already finalised")
    plan = _classify(psbt, i, signer, req.sighash)
    allowed = TAPROOT_HASH_TYPES if plan.kind.is_taproot else ECDSA_HASH_TYPES
    if req.sighash not in allowed:
        raise InvalidSignRequestError(
            i, f"sighash 0x{req.sighash:02x} is not valid for a {plan.kind.value} input"
        )
    if req.sighash & 0x7F == SIGHASH_SINGLE and i >= len(psbt.outputs):
        raise InvalidSignRequestError(i, "SIGHASH_SINGLE but the input has no matching output")
    if inp.sighash_type is not None and inp.sighash_type != req.sighash:
        raise SighashMismatchError(
            i,
            f"requested {sighash_name(req.sighash)} but PSBT_IN_SIGHASH_TYPE is "
            f"{sighash_name(inp.sighash_type)}",
        )
    if plan.kind.is_taproot:
        _all_spent_outputs(psbt, [plan])
    return plan


def _classify(psbt: FixedPSBT, i: int, signer: SigningKey, sighash: int) -> _Plan:
    utxo = spent_output(psbt, i)
    if utxo is None:
        raise MissingUtxoError(i, "no witness_utxo or non_witness_utxo")
    spk: bytes = utxo.script_pubkey.data
    inp = psbt.inputs[i]
    p2pkh_code = b"\x76\xa9\x14" + signer.pubkey_hash + b"\x88\xac"
    if len(spk) == 22 and spk[:2] == b"\x00\x14":
        if spk[2:] != signer.pubkey_hash:
            raise InputNotOwnedError(i, "P2WPKH output of another key")
        return _Plan(i, sighash, InputKind.P2WPKH, utxo.value, p2pkh_code)
    if len(spk) == 23 and spk[:2] == b"\xa9\x14" and spk[22] == 0x87:
        redeem = inp.redeem_script.data if inp.redeem_script is not None else None
        if redeem is None or hash160(redeem) != spk[2:22]:
            raise UnsupportedInputError(i, "P2SH input without its matching redeem script")
        if len(redeem) != 22 or redeem[:2] != b"\x00\x14":
            raise UnsupportedInputError(i, "P2SH input other than P2SH-P2WPKH")
        if redeem[2:] != signer.pubkey_hash:
            raise InputNotOwnedError(i, "P2SH-P2WPKH output of another key")
        return _Plan(i, sighash, InputKind.P2SH_P2WPKH, utxo.value, p2pkh_code)
    if len(spk) == 34 and spk[:2] == b"\x00\x20":
        ws = inp.witness_script.data if inp.witness_script is not None else None
        if ws is None or hashlib.sha256(ws).digest() != spk[2:]:
            raise UnsupportedInputError(i, "P2WSH input without its matching witness script")
        multisig = parse_multisig_script(ws)
        if multisig is None:
            raise UnsupportedInputError(i, "P2WSH script is not a CHECKMULTISIG multisig")
        if signer.pubkey not in multisig[1]:
            raise InputNotOwnedError(i, "our key is not in the P2WSH multisig")
        return _Plan(i, sighash, InputKind.P2WSH_MULTISIG, utxo.value, ws)
    if len(spk) == 34 and spk[:2] == b"\x51\x20":
        return _classify_taproot(inp, i, signer, sighash, spk[2:])
    raise UnsupportedInputError(i, "unsupported output type (legacy or unknown script)")


def _classify_taproot(
    inp: FixedInput, i: int, signer: SigningKey, sighash: int, output_key: bytes
) -> _Plan:
    merkle_root = inp.taproot_merkle_root
    if signer.tweaked_xonly(merkle_root) == output_key:
        return _Plan(i, sighash, InputKind.P2TR_KEY, merkle_root=merkle_root)
    leaves, foreign = [], False
    for control_block, value in inp.taproot_scripts.items():
        script, version = bytes(value[:-1]), value[-1]
        if version != TAPSCRIPT_LEAF_VERSION or signer.xonly not in script_pushes(script):
            continue
        if parse_checksig_leaf(script) is None and parse_multi_a_leaf(script) is None:
            raise UnsupportedInputError(i, "leaf with our key is not CHECKSIG or multi_a")
        if not control_block_commits(output_key, script, version, control_block):
            foreign = True
            continue
        leaves.append(tapleaf_hash(script, version))
    if leaves:
        return _Plan(i, sighash, InputKind.P2TR_SCRIPT, leaf_hashes=tuple(leaves))
    if foreign:
        raise InputNotOwnedError(i, "leaf control block does not commit to the output key")
    raise InputNotOwnedError(i, "taproot output key is not ours and no leaf holds our key")
