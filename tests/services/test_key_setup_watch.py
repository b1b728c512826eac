"""Watch-only profiles from an extended public key or a descriptor: the preview shows each
role's address, type and key origin; what is saved gives back the same public keys (with
their origin) as the recovery phrase's own keys; what cannot be used is refused, naming the
role and never quoting the text, and nothing is stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from embit import bip32, bip39
from embit.networks import NETWORKS

from app.services.key_setup import (
    SecretInputError,
    imported_phrase_key,
    preview_watch_only,
    save_new_key,
    save_watch_only,
)
from app.services.key_vault import Vault, has_secret, key_names, watch_only_public_keys
from app.services.qa_vault import QA_KDF
from app.wallet.vault_file_store import FileStore

ABANDON = " ".join(["abandon"] * 11 + ["about"])
FINGERPRINT = "73c5da0a"
BIP84_ZPUB = (
    "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mG"
    "DtKsAYz2oz2AGutZYs"
)
BIP84_FIRST = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
BIP86_FIRST = "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr"


def account_key(path: str, version: str, network: str = "test") -> str:
    """The "abandon ... about" account key at `path`, as the other wallet exports it."""
    root = bip32.HDKey.from_seed(bip39.mnemonic_to_seed(ABANDON))
    node = root.derive(path)
    node = node if version.endswith("prv") else node.to_public()
    return str(node.to_base58(NETWORKS[network][version]))


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    return Vault(FileStore(tmp_path), QA_KDF)


def test_a_vpub_and_a_taproot_descriptor_watch_what_the_phrase_signs(vault: Vault) -> None:
    vpub = account_key("m/84h/1h/0h", "zpub")
    tpub = account_key("m/86h/1h/0h", "xpub")
    ordinals = f"tr([{FINGERPRINT}/86h/1h/0h]{tpub}/<0;1>/*)"
    preview = save_watch_only(vault, "Watch", "regtest", vpub, ordinals, "", "")
    phrase = imported_phrase_key(ABANDON, "", "xverse-native", 0, None)
    keys = save_new_key(vault, "Phrase", "regtest", phrase, "pw", False)
    assert preview.payment.address == keys.payment.address
    assert preview.ordinals.address == keys.ordinals.address
    assert (preview.payment.source, preview.payment.derived) == ("extended public key", "/0/0")
    assert preview.ordinals.source == "descriptor"
    assert preview.ordinals.origin == f"{FINGERPRINT}/86'/1'/0'/0/0"
    # The vpub came without its master's origin (the window warns); the descriptor with it.
    assert not preview.payment.origin_given and preview.ordinals.origin_given

    assert not has_secret(vault, "Watch")
    public = watch_only_public_keys(vault, "Watch", "regtest")
    assert public is not None
    assert public.ordinals == keys.ordinals.public  # address, key, path and fingerprint
    assert public.payment.public_key == keys.payment.public.public_key
    assert public.payment.derivation_path == "m/0/0"  # a bare vpub: its own fingerprint


def test_one_key_may_serve_both_roles() -> None:
    zpub = account_key("m/84h/0h/0h", "zpub", "main")
    assert zpub == BIP84_ZPUB  # bip-0084.mediawiki's account 0 zpub
    preview = preview_watch_only("mainnet", zpub, zpub)
    assert preview.payment.address == preview.ordinals.address == BIP84_FIRST


def test_an_xpub_takes_its_address_types_from_the_chosen_wallet() -> None:
    xpub84 = account_key("m/84h/0h/0h", "xpub", "main")
    xpub86 = account_key("m/86h/0h/0h", "xpub", "main")
    with pytest.raises(SecretInputError, match=r"^payment: .*choose the wallet"):
        preview_watch_only("mainnet", xpub84, xpub86)
    preview = preview_watch_only("mainnet", xpub84, xpub86, preset_id="xverse-native")
    assert (preview.payment.address, preview.ordinals.address) == (BIP84_FIRST, BIP86_FIRST)
    assert (preview.payment.address_type, preview.ordinals.address_type) == ("p2wpkh", "p2tr")


def test_an_address_and_an_xpub_mix(vault: Vault) -> None:
    tpub = account_key("m/86h/1h/0h", "xpub")
    preview = preview_watch_only(
        "regtest", "bcrt1q6rz28mcfaxtmd6v789l9rrlrusdprr9pz3cppk", tpub, preset_id="leather"
    )
    assert preview.payment.source == "address" and preview.payment.origin is None
    assert preview.ordinals.address.startswith("bcrt1p")


@pytest.mark.parametrize(
    ("payment", "says"),
    [
        (account_key("m/84h/1h/0h", "zprv"), "payment: this is a private key"),
        (account_key("m/84h/0h/0h", "zpub", "main"), "payment: a zpub is a mainnet key"),
        (f"wpkh({account_key('m/84h/1h/0h', 'xpub')}/0/*)#aaaaaaaa", "payment: .*checksum"),
        (f"wpkh({account_key('m/84h/1h/0h', 'xpub')}/0h/*)", "payment: a hardened step"),
        ("wsh(multi(1,02aa,03bb))", "payment: multisig"),
    ],
)
def test_what_cannot_be_watched_is_refused_and_not_stored(
    vault: Vault, payment: str, says: str
) -> None:
    ordinals = account_key("m/86h/1h/0h", "xpub")
    with pytest.raises(SecretInputError, match=says) as caught:
        save_watch_only(vault, "Watch", "regtest", payment, ordinals, "", "", "leather")
    assert payment not in str(caught.value)
    assert key_names(vault) == []


def test_a_public_key_goes_with_an_address_only() -> None:
    tpub = account_key("m/86h/1h/0h", "xpub")
    with pytest.raises(SecretInputError, match="ordinals: a public key is given only"):
        preview_watch_only("regtest", tpub, tpub, "", "02" + "11" * 32, "leather")
