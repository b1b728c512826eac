"""Reading a PSBT file the user opened: how many inputs carry a signature."""

from __future__ import annotations

from pathlib import Path

from app.services.psbt_files import load_psbt_file, save_psbt_file
from app.wallet.psbt_signer import SigningKey, SignRequest, sign_psbt
from tests.wallet.psbt_builders import build_psbt, key_n, p2tr_key, p2wpkh, pay_to


def test_a_taproot_key_path_signature_counts_as_signed(tmp_path: Path) -> None:
    # Our signer writes key-path signatures to PSBT_IN_TAP_KEY_SIG (0x13), not to the
    # final witness: they must count before finalisation.
    key = key_n(7)
    psbt = build_psbt([p2tr_key(key), p2wpkh(key_n(8))], [pay_to(9, 150_000)])
    sign_psbt(psbt, SigningKey(key), [SignRequest(0, 0x00)])
    path = tmp_path / "one-signed.psbt"
    save_psbt_file(path, psbt)
    loaded = load_psbt_file(path)
    assert (loaded.inputs, loaded.signed_inputs) == (2, 1)
