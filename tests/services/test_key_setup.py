"""Setting up a key: a new phrase, an imported one in the layout picked from the presets'
addresses, a WIF, watch-only addresses; what cannot be used is refused without quoting it,
and a key whose layout derives nothing is never stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.services.key_setup import (
    CUSTOM_PRESET_ID,
    NEW_WALLET_PRESET,
    PREVIEW_COUNT,
    CustomPaths,
    NewKey,
    SecretInputError,
    imported_phrase_key,
    new_mnemonic,
    new_phrase_key,
    preview_layouts,
    save_new_key,
    save_watch_only,
    wif_key,
)
from app.services.key_vault import Vault, has_secret, key_names, unlock_keys
from app.services.qa_vault import QA_KDF
from app.services.session import UnsupportedLayoutError, layout_for_preset
from app.wallet.vault_file_store import FileStore

ABANDON = " ".join(["abandon"] * 11 + ["about"])
BIP84_FIRST = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
BIP86_FIRST = "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr"
REGTEST_WIF = "cMcfH8sRgBgDMfpBNG6H3haaxLkaYXgqMRef8Nev6tWyBSNr6c3n"
MAINNET_WIF = "KwFfpDsaF7yxCELuyrH9gP5XL7TAt5b9HPWC1xCQbmrxvhJgMQHb"
PASSWORD = "correct horse battery staple"
OWN_PATHS = CustomPaths("m/84'/0'/0'/0/0", "p2wpkh", "m/86'/0'/0'/0/0", "p2tr")


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    return Vault(FileStore(tmp_path), QA_KDF)


def test_a_new_phrase_is_twelve_fresh_words_in_the_new_wallet_layout() -> None:
    phrase = new_mnemonic()
    assert len(phrase.split()) == 12 and phrase != new_mnemonic()
    key = new_phrase_key(phrase)
    assert key.layout == layout_for_preset(NEW_WALLET_PRESET)
    assert phrase.split()[0] not in repr(key)  # the secret stays out of logs


def test_an_imported_phrase_takes_the_layout_picked() -> None:
    preset = imported_phrase_key(ABANDON, "", "leather", 2, OWN_PATHS)
    assert (preset.layout.preset, preset.layout.account) == ("leather", 2)
    own = imported_phrase_key(ABANDON, "", CUSTOM_PRESET_ID, 0, OWN_PATHS)
    assert own.layout.preset == "custom:p2wpkh:p2tr"
    assert dict(own.layout.custom_paths) == {
        "payment": OWN_PATHS.payment_path,
        "ordinals": OWN_PATHS.ordinals_path,
    }


def test_a_phrase_that_is_not_one_is_refused_without_quoting_it() -> None:
    typo = ABANDON.replace("about", "abbot")
    with pytest.raises(SecretInputError) as refused:
        imported_phrase_key(typo, "", "xverse", 0, None)
    assert "abbot" not in str(refused.value)


def test_the_preview_shows_each_layouts_first_addresses() -> None:
    rows = {row.preset_id: row for row in preview_layouts(ABANDON, "", "mainnet", None)}
    assert {"xverse", "xverse-native", "leather", "magic-eden", "okx", "unisat-p2tr"} <= set(rows)
    assert CUSTOM_PRESET_ID not in rows
    native = rows["xverse-native"]
    assert (native.payment[0], native.ordinals[0]) == (BIP84_FIRST, BIP86_FIRST)
    assert len(native.payment) == len(native.ordinals) == PREVIEW_COUNT

    with_own = preview_layouts(ABANDON, "", "mainnet", OWN_PATHS)
    own = with_own[-1]
    assert own.preset_id == CUSTOM_PRESET_ID
    assert (own.payment[0], own.ordinals[0]) == (BIP84_FIRST, BIP86_FIRST)
    with pytest.raises(ValueError):
        preview_layouts(ABANDON, "", "mainnet", CustomPaths("m/84'/{x}", "p2wpkh", "m/86'", "p2tr"))


def test_a_wif_must_be_for_the_profiles_network() -> None:
    key = wif_key(REGTEST_WIF, "regtest", "p2tr")
    assert key.layout.preset == "wif:p2tr"
    with pytest.raises(SecretInputError):
        wif_key(MAINNET_WIF, "regtest", "p2wpkh")
    with pytest.raises(SecretInputError) as refused:
        wif_key("not-a-key-at-all", "regtest", "p2wpkh")
    assert "not-a-key-at-all" not in str(refused.value)


def test_a_saved_key_unlocks_to_the_keys_it_returned(vault: Vault) -> None:
    key = imported_phrase_key(ABANDON, "", "xverse-native", 0, None)
    saved = save_new_key(vault, "Main key", "mainnet", key, PASSWORD, False)
    assert saved.payment.address == BIP84_FIRST
    assert unlock_keys(vault, "Main key", PASSWORD, False).ordinals.address == BIP86_FIRST


def test_a_key_whose_layout_derives_nothing_is_not_stored(vault: Vault) -> None:
    wif = wif_key(REGTEST_WIF, "regtest", "p2wpkh")
    mixed = NewKey(wif.secret, layout_for_preset("xverse"))  # a WIF has no derivation paths
    with pytest.raises(UnsupportedLayoutError):
        save_new_key(vault, "Mixed", "regtest", mixed, PASSWORD, False)
    assert key_names(vault) == []


def test_watch_only_addresses_must_be_the_profiles_network(vault: Vault) -> None:
    with pytest.raises(SecretInputError):
        save_watch_only(vault, "Watch key", "regtest", BIP84_FIRST, BIP86_FIRST, "", "")
    assert key_names(vault) == []
    keys = save_new_key(vault, "Seed", "regtest", new_phrase_key(new_mnemonic()), PASSWORD, False)
    save_watch_only(
        vault, "Watch key", "regtest", f" {keys.payment.address} ", keys.ordinals.address, " ", ""
    )
    assert not has_secret(vault, "Watch key")


def test_custom_paths_the_vault_cannot_keep_are_said_at_the_field() -> None:
    """A path with {n} previews addresses but is not an account the vault can store: the
    import page shows why instead of the app's error dialog."""
    phrase = new_mnemonic()
    paths = CustomPaths("m/84'/1'/0'/0/{n}", "p2wpkh", "m/86'/1'/0'/0/{n}", "p2tr")
    with pytest.raises(SecretInputError, match="custom path"):
        imported_phrase_key(phrase, "", CUSTOM_PRESET_ID, 0, paths)
