"""Mutations of a SIGNED PSBT on its way back from an offline signer.

A compromised channel (a USB stick, a QR relay) can change any byte, but cannot sign: it can
drop, copy or move our signatures and add junk ones (`SigSwap`). A compromised offline signer
holds our key: it can add real signatures of ours with other hash types, in the usual field or
hidden anywhere in the file (`OurSignature`). Both come on top of every PSBT mutation
(structured or raw) of tests.support.psbt_mutations.
"""

from __future__ import annotations

from dataclasses import dataclass

from embit import ec
from hypothesis import strategies as st

from app.wallet.psbt_fixes import FixedInput, FixedPSBT, set_unknown
from app.wallet.psbt_signer import SignRequest, sign_psbt
from tests.support.psbt_eff_signatures import signatures_in
from tests.support.psbt_mut_case import Case, Readable, edit, item_at
from tests.support.psbt_mutations import Op, psbt_ops, small_index

SIG_TYPES = (0x01, 0x00, 0x02, 0x03, 0x81, 0x82, 0x83)
# Where a signer holding our key may put a signature. The last two are keys check_signed does
# not read: the import submits only the approved signatures (approved_signatures_only), so a
# signature hidden there (this fuzzer found it reaching the service) goes nowhere now.
PLACES = ("its field", "final witness", "input unknown key", "global proprietary key")


def _put_in_field(inp: FixedInput, sig: bytes, pub: ec.PublicKey, like: FixedInput) -> None:
    """Put `sig` where `like` (a signed copy of the same input) carries its signature."""
    if like.partial_sigs:
        inp.partial_sigs = {ec.PublicKey.parse(pub.sec()): sig}
    elif like.taproot_sigs:
        inp.taproot_sigs = {k: sig for k in like.taproot_sigs}
    else:
        inp.tap_key_sig = sig


@dataclass(frozen=True)
class SigSwap(Readable):
    """What a channel can do to input `index`'s signature (it cannot sign)."""

    index: int
    how: str  # "drop", "junk, same hash type", "junk ALL", "junk NONE", "copy from next input"

    def __repr__(self) -> str:
        return f"input[{self.index}] signature: {self.how}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            inp = item_at(psbt.inputs, self.index)
            if inp is None:
                return
            sigs = signatures_in(inp)
            if self.how == "copy from next input":
                other = psbt.inputs[(self.index + 1) % len(psbt.inputs)]
                sigs = signatures_in(other)
                if sigs:
                    _put_in_field(inp, sigs[0], case.setup.scenario.signer.get_public_key(), other)
                return
            if not sigs:
                return
            like = FixedPSBT.parse(psbt.serialize()).inputs[self.index % len(psbt.inputs)]
            inp.partial_sigs.clear()
            inp.taproot_sigs.clear()
            inp.tap_key_sig = None
            if self.how == "drop":
                return
            old = sigs[0]
            if self.how == "junk, same hash type":
                junk = (
                    b"\x42" * 64 + old[64:]
                    if len(old) in (64, 65)
                    else b"\x30" + old[1:-2] + b"\x00" + old[-1:]
                )
            else:
                hash_type = 0x01 if self.how == "junk ALL" else 0x02
                junk = (
                    b"\x42" * 64 + bytes([hash_type])
                    if len(old) in (64, 65)
                    else b"\x30\x06\x02\x01\x01\x02\x01\x01" + bytes([hash_type])
                )
            _put_in_field(inp, junk, case.setup.scenario.signer.get_public_key(), like)

        edit(case, change)


@dataclass(frozen=True)
class OurSignature(Readable):
    """A compromised offline signer adds a real signature of ours on input `index` with hash
    type `sighash`, in its usual field or hidden elsewhere in the file."""

    index: int
    sighash: int
    place: str

    def __repr__(self) -> str:
        return f"our real signature 0x{self.sighash:02x} on input[{self.index}] in {self.place}"

    def apply(self, case: Case) -> None:
        key = case.setup.scenario.signer
        try:
            signer_copy = FixedPSBT.parse(case.data)
        except Exception:
            return
        i = self.index % len(signer_copy.inputs)
        target = signer_copy.inputs[i]
        target.partial_sigs.clear()
        target.taproot_sigs.clear()
        target.tap_key_sig = None
        target.sighash_type = None
        try:
            sign_psbt(signer_copy, key, [SignRequest(i, self.sighash)])
        except Exception:
            case.skipped.append(f"our key cannot sign input {i} with 0x{self.sighash:02x}")
            return
        [sig] = signatures_in(signer_copy.inputs[i])

        def change(psbt: FixedPSBT) -> None:
            inp = psbt.inputs[i]
            if self.place == "its field":
                _put_in_field(inp, sig, key.get_public_key(), signer_copy.inputs[i])
            elif self.place == "input unknown key":
                set_unknown(inp, b"\xfc\x05bidwx\x09", sig)
            elif self.place == "final witness":
                from embit.script import Witness

                inp.final_scriptwitness = Witness([sig])
            else:
                set_unknown(psbt, b"\xfc\x05bidwx\x0a", sig)

        edit(case, change)


def offline_ops() -> st.SearchStrategy[list[Op]]:
    """1 to 3 changes to a signed PSBT: a channel's, a compromised signer's, or any PSBT
    mutation (no served facts: the import reviews with its own)."""
    places = PLACES
    how = st.sampled_from(
        ("drop", "junk, same hash type", "junk ALL", "junk NONE", "copy from next input")
    )
    one = st.one_of(
        st.builds(SigSwap, small_index, how),
        st.builds(OurSignature, small_index, st.sampled_from(SIG_TYPES), st.sampled_from(places)),
        psbt_ops(),
    )
    return st.lists(one, min_size=1, max_size=3)
