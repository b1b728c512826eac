"""From an embit PSBT to the neutral `app.core.psbt_view.PsbtView` the review works on, and a
PSBT's identities (the unsigned txid its signatures commit to, the digest of its bytes). The
signing gate that uses them is `app.wallet.signing_gate`.

`view_of` never trusts UTXO data blindly: a non_witness_utxo must hash to the txid the input
spends (then it is authoritative for the amount), and must agree with the witness_utxo when
both are present. Every disagreement is recorded in `InputView.utxo_problems`; the review
reports it and the policies refuse.
"""

from __future__ import annotations

import hashlib

from embit.hashes import hash160
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.core.psbt_view import (
    SEQUENCE_FINAL,
    InputView,
    OutputView,
    PsbtView,
    ScriptType,
    TapLeafView,
    script_type,
)
from app.wallet.addresses import Network
from app.wallet.psbt_fixes import FixedInput, FixedPSBT, new_transaction
from app.wallet.scripts import (
    ScriptError,
    address_of,
    control_block_commits,
    p2wsh_script_pubkey,
)


def view_of(psbt: FixedPSBT, network: Network | str) -> PsbtView:
    """Describe `psbt` with addresses encoded for `network` ("main", "regtest", ...)."""
    net = Network(network)
    version = 2 if psbt.tx_version is None else psbt.tx_version
    locktime = 0 if psbt.locktime is None else psbt.locktime
    addresses = _AddressCache(net)
    return PsbtView(
        version=version,
        locktime=locktime,
        inputs=tuple(_input_view(i, inp, addresses) for i, inp in enumerate(psbt.inputs)),
        outputs=tuple(
            _output_view(i, out.value, out.script_pubkey.data, addresses)
            for i, out in enumerate(psbt.outputs)
        ),
        txid_unsigned=unsigned_txid(psbt),
        network=net.value,
        digest=psbt_digest(psbt),
    )


def psbt_digest(psbt: FixedPSBT) -> str:
    """SHA-256 of the serialized PSBT: any change after review (a sighash type, an amount)
    changes it."""
    return hashlib.sha256(psbt.serialize()).hexdigest()


def unsigned_txid(psbt: FixedPSBT) -> str:
    """The txid the signatures will commit to (nSequence 0 and version 0 kept, unlike embit)."""
    vin = [
        TransactionInput(
            inp.txid, inp.vout, sequence=SEQUENCE_FINAL if inp.sequence is None else inp.sequence
        )
        for inp in psbt.inputs
    ]
    vout = [TransactionOutput(out.value, out.script_pubkey) for out in psbt.outputs]
    version = 2 if psbt.tx_version is None else psbt.tx_version
    locktime = 0 if psbt.locktime is None else psbt.locktime
    tx: Transaction = new_transaction(version, locktime, vin, vout)
    return str(tx.txid().hex())


class _AddressCache:
    """Address encoding (bech32 checksums) dominates view_of on large PSBTs, and inputs often
    share a script: encode each script once."""

    def __init__(self, net: Network) -> None:
        self.net = net
        self._known: dict[bytes, str | None] = {}

    def __call__(self, spk: bytes) -> str | None:
        if spk not in self._known:
            self._known[spk] = self._encode(spk)
        return self._known[spk]

    def _encode(self, spk: bytes) -> str | None:
        if script_type(spk) in (ScriptType.OP_RETURN, ScriptType.UNKNOWN):
            return None
        try:
            return address_of(spk, self.net.value)
        except ScriptError:
            return None


def _output_view(index: int, value: int, spk: bytes, address: _AddressCache) -> OutputView:
    is_op_return = script_type(spk) is ScriptType.OP_RETURN
    return OutputView(index, int(value), bytes(spk), address(bytes(spk)), is_op_return)


def _spent_output(inp: FixedInput) -> tuple[TransactionOutput | None, bool | None, list[str]]:
    """(the output this input spends as far as can be trusted, nwu matches?, problems)."""
    problems: list[str] = []
    witness = inp.witness_utxo
    full_tx = inp.non_witness_utxo
    if full_tx is None:
        return witness, None, problems
    prev_txid = full_tx.txid()
    if prev_txid != inp.txid:
        problems.append(
            f"its non_witness_utxo is transaction {prev_txid.hex()}, not the spent {inp.txid.hex()}"
        )
        return witness, False, problems
    if not 0 <= inp.vout < len(full_tx.vout):
        problems.append(f"its non_witness_utxo has no output {inp.vout}")
        return witness, False, problems
    verified: TransactionOutput = full_tx.vout[inp.vout]
    if witness is not None and witness.serialize() != verified.serialize():
        problems.append(
            f"its witness_utxo says {witness.value:,} sats but the previous transaction "
            f"says {verified.value:,} sats"
            + ("" if witness.script_pubkey == verified.script_pubkey else " to another script")
        )
        # The full previous transaction is authenticated by its txid: it wins.
        return verified, False, problems
    return verified, True, problems


def size_hints_verified(
    spk: bytes | None,
    redeem_script: bytes | None,
    witness_script: bytes | None,
    leaves: tuple[TapLeafView, ...],
) -> bool:
    """Every size hint an input carries is proven to belong to its scriptPubKey: the redeem
    script hashes to the P2SH program, the witness script to the P2WSH program (directly or
    nested in P2SH), each tap leaf's control block commits to the taproot output key."""
    if spk is None:
        return False
    kind = script_type(spk)
    program = spk
    if redeem_script is not None:
        if kind is not ScriptType.P2SH or spk[2:22] != hash160(redeem_script):
            return False
        program = redeem_script
    if witness_script is not None and program != p2wsh_script_pubkey(witness_script):
        return False
    if leaves and kind is not ScriptType.P2TR:
        return False
    return all(
        control_block_commits(spk[2:], leaf.script, leaf.leaf_version, leaf.control_block)
        for leaf in leaves
    )


def _input_view(index: int, inp: FixedInput, address: _AddressCache) -> InputView:
    utxo, nwu_matches, problems = _spent_output(inp)
    spk = None if utxo is None else bytes(utxo.script_pubkey.data)
    final_witness = inp.final_scriptwitness
    leaves = tuple(
        TapLeafView(bytes(cb), bytes(value[:-1]), value[-1])
        for cb, value in inp.taproot_scripts.items()
    )
    redeem = None if inp.redeem_script is None else bytes(inp.redeem_script.data)
    witness_script = None if inp.witness_script is None else bytes(inp.witness_script.data)
    return InputView(
        index=index,
        prev_txid=inp.txid.hex(),
        prev_vout=int(inp.vout),
        sequence=SEQUENCE_FINAL if inp.sequence is None else int(inp.sequence),
        value=None if utxo is None else int(utxo.value),
        script_pubkey=spk,
        address=None if spk is None else address(spk),
        sighash_type=inp.sighash_type,
        has_witness_utxo=inp.witness_utxo is not None,
        has_non_witness_utxo=inp.non_witness_utxo is not None,
        non_witness_utxo_matches=nwu_matches,
        utxo_problems=tuple(problems),
        partial_sig_keys=tuple(pub.sec() for pub in inp.partial_sigs),
        tap_key_sig=getattr(inp, "tap_key_sig", None) is not None,
        tap_script_sig_keys=tuple(pub.xonly() for pub, _leaf in inp.taproot_sigs),
        tap_internal_key=(
            None if inp.taproot_internal_key is None else inp.taproot_internal_key.xonly()
        ),
        tap_leaves=leaves,
        witness_script=witness_script,
        redeem_script=redeem,
        final_scriptsig=None if inp.final_scriptsig is None else bytes(inp.final_scriptsig.data),
        final_witness=None if final_witness is None else tuple(final_witness.items),
        size_hints_verified=size_hints_verified(spk, redeem, witness_script, leaves),
    )
