"""Extended public keys and descriptors a watch-only profile is made from (app/wallet/watch_keys).

Vectors are copied from the BIPs (github:bitcoin/bips, bip-0032.mediawiki "Test Vectors",
bip-0049.mediawiki, bip-0084.mediawiki, bip-0086.mediawiki "Test vectors", bip-0380.mediawiki
"Test Vectors") and from Bitcoin Core's `deriveaddresses` RPC help example.
"""

from __future__ import annotations

import pytest
from embit import bip32
from embit.descriptor import Descriptor
from embit.networks import NETWORKS

from app.wallet.addresses import AddressType, KeyRole, Network
from app.wallet.watch_keys import (
    AddressTypeNeededError,
    DescriptorChecksumError,
    HardenedStepError,
    KeySource,
    PrivateKeyGivenError,
    UnsupportedScriptError,
    WatchKeyError,
    WrongNetworkError,
    looks_like_key_or_descriptor,
    parse_watch_key,
)

MAIN = Network.MAINNET

# bip-0084.mediawiki: the "abandon ... about" account 0 zpub and its first receive address.
BIP84_ZPUB = (
    "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mG"
    "DtKsAYz2oz2AGutZYs"
)
BIP84_PUBKEY = "0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c"
BIP84_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
# bip-0049.mediawiki (testnet): account 0 upub, first receive public key and address.
BIP49_UPUB = (
    "upub5EFU65HtV5TeiSHmZZm7FUffBGy8UKeqp7vw43jYbvZPpoVsgU93oac7Wk3u6moKegAEWtGNF8DehrnHtv21XXEMY"
    "RUocHqguyjknFHYfgY"
)
BIP49_PUBKEY = "03a1af804ac108a8a51782198c2d034b28bf90c8803f5a53f76276fa69a4eae77f"
BIP49_ADDRESS = "2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2"
# bip-0086.mediawiki: account 0 xpub (m/86'/0'/0'), first receive internal key and address.
BIP86_XPUB = (
    "xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3VCECoY49yf"
    "dDEHGCtMMj92pReUsQ"
)
BIP86_INTERNAL_KEY = "cc8a4bc64d897bddc5fbc2f670f7a8ba0b386779106cf1223c6fc5d7cd6fc115"
BIP86_ADDRESS = "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr"
BIP86_SECOND = "bc1p4qhjn9zdvkux4e44uhx8tc55attvtyu358kutcqkudyccelu0was9fqzwh"
ABANDON_FINGERPRINT = "73c5da0a"  # master fingerprint of "abandon ... about"

# bip-0032.mediawiki, test vector 1: m/0H/1/2H, and its descendant m/0H/1/2H/2/1000000000.
TV1_M_0H_1_2H = (
    "xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trk"
    "rX7x7DogT5Uv6fcLW5"
)
TV1_M_0H_1_2H_2_1000000000 = (
    "xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEY"
    "BVPamhGW6cFJodrTHy"
)
# bip-0032.mediawiki, test vector 1, chain m (a master key: depth 0).
TV1_MASTER = (
    "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg"
    "7usUDFdp6W1EGMcet8"
)
# bip-0032.mediawiki, test vector 5 (invalid extended keys).
TV5_INVALID_PUBLIC = [
    "xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6LBpB85b3D2yc8sfvZU521AAwdZafEz7m"
    "nzBBsz4wKY5fTtTQBm",  # pubkey version / prvkey mismatch
    "xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6Txnt3siSujt9RCVYsx4qHZGc62TG4Mcv"
    "MGcAUjeuwZdduYEvFn",  # invalid pubkey prefix 04
    "xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6N8ZMMXctdiCjxTNq964yKkwrkBJJwpzZ"
    "S4HS2fxvyYUA4q2Xe4",  # invalid pubkey prefix 01
    "xpub661no6RGEX3uJkY4bNnPcw4URcQTrSibUZ4NqJEw5eBkv7ovTwgiT91XX27VbEXGENhYRCf7hyEbWrR3FewATdCEe"
    "bj6znwMfQkhRYHRLpJ",  # zero depth with non-zero parent fingerprint
    "xpub661MyMwAuDcm6CRQ5N4qiHKrJ39Xe1R1NyfouMKTTWcguwVcfrZJaNvhpebzGerh7gucBvzEQWRugZDuDXjNDRmXz"
    "SZe4c7mnTK97pTvGS8",  # zero depth with non-zero index
    "DMwo58pR1QLEFihHiXPVykYB6fJmsTeHvyTp7hRThAtCX8CvYzgPcn8XnmdfHGMQzT7ayAmfo4z3gY5KfbrZWZ6St24UV"
    "f2Qgo6oujFktLHdHY4",  # unknown extended key version
    "xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6Q5JXayek4PRsn35jii4veMimro1xefsM"
    "58PgBMrvdYre8QyULY",  # invalid pubkey 020000...07
]
TV5_PRIVATE = (
    "xprv9s21ZrQH143K24Mfq5zL5MhWK9hUhhGbd45hLXo2Pq2oqzMMo63oStZzFGTQQD3dC4H2D5GBj7vWvSQaaBv5cxi9ga"
    "fk7NF3pnBju6dwKvH"
)

# Bitcoin Core, `deriveaddresses` help: a checksummed descriptor.
CORE_XPUB = (
    "xpub6DJ2dNUysrn5Vt36jH2KLBT2i1auw1tTSSomg8PhqNiUtx8QX2SvC9nrHu81fT41fvDUnhMjEzQgXnQjKEu3oaqMS"
    "zhSrHMxyyoEAmUHQbY"
)
CORE_DESCRIPTOR = f"wpkh([d34db33f/84h/0h/0h]{CORE_XPUB}/0/*)#cjjspncu"
# bip-0380.mediawiki: an extended private key and a WIF used in its key expression vectors.
BIP380_XPRV = (
    "xprvA1RpRA33e1JQ7ifknakTFpgNXPmW2YvmhqLQYMmrj4xJXXWYpDPS3xz7iAxn8L39njGVyuoseXzU6rcxFLJ8HFsTj"
    "SyQbLYnMpCqE2VbFWc"
)
BIP380_WIF = "L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1"
BIP380_PUBKEY = "0260b2003c386519fc9eadf2b5cf124dd8eea4c4e68d5e154050a9346ea98ce600"


def address(text: str, network: Network = MAIN, kind: AddressType | None = None) -> str:
    return parse_watch_key(text, network, kind).role_key(KeyRole.PAYMENT, network).address


# --- the BIPs' first receive addresses ---------------------------------------------------------


def test_bip84_zpub_gives_its_first_receive_address_at_0_0() -> None:
    watched = parse_watch_key(BIP84_ZPUB, MAIN)
    assert watched.address_type is AddressType.P2WPKH
    assert watched.public_key.hex() == BIP84_PUBKEY
    assert watched.derived == "/0/0"
    assert watched.source is KeySource.EXTENDED_KEY
    assert address(BIP84_ZPUB) == BIP84_ADDRESS


def test_bip49_upub_is_nested_segwit_on_testnet() -> None:
    watched = parse_watch_key(BIP49_UPUB, Network.TESTNET)
    assert watched.address_type is AddressType.P2SH_P2WPKH
    assert watched.public_key.hex() == BIP49_PUBKEY
    assert address(BIP49_UPUB, Network.TESTNET) == BIP49_ADDRESS


def test_bip86_xpub_needs_a_type_then_gives_its_taproot_address() -> None:
    with pytest.raises(AddressTypeNeededError, match=r"^an xpub does not say"):
        parse_watch_key(BIP86_XPUB, MAIN)
    tpub = bip32.HDKey.from_base58(BIP86_XPUB).to_base58(NETWORKS["test"]["xpub"])
    with pytest.raises(AddressTypeNeededError, match=r"^a tpub does not say"):
        parse_watch_key(tpub, Network.TESTNET)
    watched = parse_watch_key(BIP86_XPUB, MAIN, AddressType.P2TR)
    assert watched.public_key[1:].hex() == BIP86_INTERNAL_KEY
    assert watched.role_key(KeyRole.ORDINALS, MAIN).address == BIP86_ADDRESS


def test_an_xpub_with_its_origin_takes_the_type_of_its_purpose_and_keeps_the_origin() -> None:
    watched = parse_watch_key(f"[{ABANDON_FINGERPRINT}/86'/0'/0']{BIP86_XPUB}", MAIN)
    assert watched.address_type is AddressType.P2TR
    assert watched.origin == f"{ABANDON_FINGERPRINT}/86'/0'/0'/0/0"
    key = watched.role_key(KeyRole.ORDINALS, MAIN)
    assert key.address == BIP86_ADDRESS
    assert key.master_fingerprint == bytes.fromhex(ABANDON_FINGERPRINT)
    assert key.derivation_path == "m/86'/0'/0'/0/0"
    assert watched.origin_given


def test_only_a_key_without_its_masters_origin_is_said_to_lack_it() -> None:
    """Signers look keys up by their master's fingerprint: a bare account key cannot name it,
    a key with its origin and a master key itself can."""
    assert not parse_watch_key(BIP84_ZPUB, MAIN).origin_given
    assert not parse_watch_key(f"wpkh({BIP84_ZPUB}/0/*)", MAIN).origin_given
    with_origin = f"wpkh([{ABANDON_FINGERPRINT}/84h/0h/0h]{BIP84_ZPUB}/0/*)"
    assert parse_watch_key(with_origin, MAIN).origin_given
    assert parse_watch_key(TV1_MASTER, MAIN, AddressType.P2WPKH).origin_given
    assert not parse_watch_key(f"wpkh({BIP84_PUBKEY})", MAIN).origin_given


def test_a_bare_xpub_uses_its_own_fingerprint_like_bitcoin_core() -> None:
    watched = parse_watch_key(BIP84_ZPUB, MAIN)
    own = bip32.HDKey.from_base58(BIP84_ZPUB).my_fingerprint
    assert watched.fingerprint == own
    assert watched.path == "m/0/0"


def test_a_chosen_type_does_not_override_what_a_zpub_says() -> None:
    assert address(BIP84_ZPUB, kind=AddressType.P2TR) == BIP84_ADDRESS


# --- descriptors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "descriptor",
    [
        f"tr([{ABANDON_FINGERPRINT}/86h/0h/0h]{BIP86_XPUB}/0/*)",
        f"tr([{ABANDON_FINGERPRINT}/86'/0'/0']{BIP86_XPUB}/<0;1>/*)",
        f"tr({BIP86_XPUB}/0/0)",
    ],
)
def test_taproot_descriptors_give_the_bip86_first_address(descriptor: str) -> None:
    assert address(descriptor) == BIP86_ADDRESS


def test_a_fixed_index_in_a_descriptor_is_that_key() -> None:
    assert address(f"tr({BIP86_XPUB}/0/1)") == BIP86_SECOND


def test_bitcoin_cores_checksummed_descriptor_is_accepted() -> None:
    watched = parse_watch_key(CORE_DESCRIPTOR, MAIN)
    assert watched.origin == "d34db33f/84'/0'/0'/0/0"
    # embit's own descriptor derivation agrees with ours.
    embit_address = Descriptor.from_string(CORE_DESCRIPTOR.split("#")[0]).derive(0).address()
    assert watched.role_key(KeyRole.PAYMENT, MAIN).address == embit_address


@pytest.mark.parametrize("checksum", ["cjjspncv", "cjjspnc", "cjjspncux", ""])
def test_a_wrong_checksum_is_refused(checksum: str) -> None:
    body = CORE_DESCRIPTOR.split("#")[0]
    with pytest.raises(DescriptorChecksumError):
        parse_watch_key(f"{body}#{checksum}", MAIN)


def test_bip380_checksum_vectors_through_our_checksum_check() -> None:
    # raw() is not watched, so a correct checksum gets past the check to that refusal, and a
    # wrong one stops at the checksum (bip-0380.mediawiki: valid, payload and checksum errors).
    with pytest.raises(UnsupportedScriptError):
        parse_watch_key("raw(deadbeef)#89f8spxm", MAIN)
    for wrong in ("raw(deedbeef)#89f8spxm", "raw(deedbeef)##9f8spxm", "raw(deadbeef)#89f8spx"):
        with pytest.raises(DescriptorChecksumError):
            parse_watch_key(wrong, MAIN)
    with pytest.raises(WatchKeyError, match="character"):
        parse_watch_key("raw(Ü)#00000000", MAIN)


def test_sh_wpkh_and_pkh_descriptors() -> None:
    nested = parse_watch_key(f"sh(wpkh({BIP49_UPUB}/0/0))", Network.TESTNET)
    assert nested.role_key(KeyRole.PAYMENT, Network.TESTNET).address == BIP49_ADDRESS
    legacy = parse_watch_key(f"pkh([deadbeef/0h/0h/0h]{BIP380_PUBKEY})", MAIN)
    assert legacy.address_type is AddressType.P2PKH
    assert legacy.public_key.hex() == BIP380_PUBKEY
    assert legacy.origin == "deadbeef/0'/0'/0'"


def test_bip32_vector_1_public_derivation_through_a_descriptor() -> None:
    # m/0H/1/2H then /2/1000000000 (unhardened): the vector's own key at that chain.
    watched = parse_watch_key(f"pkh({TV1_M_0H_1_2H}/2/1000000000)", MAIN)
    expected = bip32.HDKey.from_base58(TV1_M_0H_1_2H_2_1000000000)
    assert watched.public_key == expected.sec()
    assert watched.path == "m/2/1000000000"


def test_a_master_xpub_alone_is_taken_as_an_account_key() -> None:
    watched = parse_watch_key(TV1_MASTER, MAIN, AddressType.P2WPKH)
    master = bip32.HDKey.from_base58(TV1_MASTER)
    assert watched.public_key == master.derive("m/0/0").sec()


# --- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", TV5_INVALID_PUBLIC)
def test_bip32_invalid_extended_keys_are_refused(key: str) -> None:
    with pytest.raises(WatchKeyError) as caught:
        parse_watch_key(key, MAIN, AddressType.P2WPKH)
    assert key not in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        TV5_PRIVATE,
        BIP380_XPRV,
        f"[deadbeef/0h/1h/2h]{BIP380_XPRV}/3/4/5/*",
        f"wpkh({BIP380_XPRV}/0/*)",
        f"tr({BIP380_XPRV})",
        f"wpkh({BIP380_WIF})",
        BIP380_WIF,
    ],
)
def test_private_keys_are_refused_without_being_quoted(text: str) -> None:
    with pytest.raises(PrivateKeyGivenError, match="only watches") as caught:
        parse_watch_key(text, MAIN, AddressType.P2WPKH)
    assert BIP380_XPRV not in str(caught.value) and BIP380_WIF not in str(caught.value)


def test_a_wif_is_meant_as_a_key_not_an_address() -> None:
    assert looks_like_key_or_descriptor(BIP380_WIF)
    assert looks_like_key_or_descriptor(BIP84_ZPUB)
    assert looks_like_key_or_descriptor("wpkh(02aa)")
    assert not looks_like_key_or_descriptor(BIP84_ADDRESS)


@pytest.mark.parametrize(
    "text", [f"{BIP86_XPUB}/0h/0", f"tr({BIP86_XPUB}/0/*h)", f"tr({BIP86_XPUB}/1h/*)"]
)
def test_a_hardened_step_after_a_public_key_is_refused(text: str) -> None:
    with pytest.raises(HardenedStepError, match="private key"):
        parse_watch_key(text, MAIN, AddressType.P2TR)


def test_keys_of_another_network_are_refused() -> None:
    with pytest.raises(WrongNetworkError, match="mainnet key but the profile is on regtest"):
        parse_watch_key(BIP84_ZPUB, Network.REGTEST)
    with pytest.raises(WrongNetworkError, match="test-network key"):
        parse_watch_key(BIP49_UPUB, MAIN)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (f"wsh(multi(1,{BIP86_XPUB}/0/*,{CORE_XPUB}/0/*))", "multisig"),
        (f"sh(sortedmulti(1,{BIP380_PUBKEY},{BIP380_PUBKEY}))", "multisig"),
        (f"tr({BIP86_XPUB}/0/*,pk({CORE_XPUB}/0/*))", "script tree"),
        (f"combo({BIP380_PUBKEY})", "combo"),
        (f"addr({BIP84_ADDRESS})", "addr"),
        (f"wsh(pkh({BIP380_PUBKEY}))", "wsh"),
    ],
)
def test_scripts_other_than_single_key_are_refused(text: str, says: str) -> None:
    with pytest.raises(UnsupportedScriptError, match=says):
        parse_watch_key(text, MAIN)


def test_a_multisig_slip132_key_is_refused() -> None:
    hd = bip32.HDKey.from_base58(BIP84_ZPUB)
    zpub_multisig = hd.to_base58(NETWORKS["main"]["Zpub"])
    with pytest.raises(UnsupportedScriptError, match="multisig"):
        parse_watch_key(zpub_multisig, MAIN)


def test_a_slip132_key_that_contradicts_its_descriptor_is_refused() -> None:
    with pytest.raises(WatchKeyError, match=r"^a zpub is for p2wpkh addresses but the descrip"):
        parse_watch_key(f"tr({BIP84_ZPUB}/0/*)", MAIN)


@pytest.mark.parametrize(
    "origin",
    [
        "[deadbeef/0h/0h/0h/*]",  # bip-0380: children indicator in key origin
        "[deadbeef/0h/0h/0h/]",  # trailing slash
        "[deadbef/0h/0h/0h]",  # too short fingerprint
        "[deadbeeef/0h/0h/0h]",  # too long fingerprint
        "[deadbeef/0f/0f/0f]",  # invalid hardened indicators
        "[deadbeef/-0/-0/-0]",
        "[deadbeef/0H/0H/0H]",
        "[aaaaaaaa][aaaaaaaa]",  # multiple key origins
        "[gaaaaaaa]",  # non hex fingerprint
    ],
)
def test_bip380_invalid_key_origins_are_refused(origin: str) -> None:
    with pytest.raises(WatchKeyError):
        parse_watch_key(f"wpkh({origin}{BIP380_PUBKEY})", MAIN)


def test_other_malformed_inputs_say_what_is_wrong() -> None:
    with pytest.raises(WatchKeyError, match="origin must be followed by a key"):
        parse_watch_key("wpkh([deadbeef])", MAIN)
    with pytest.raises(WatchKeyError, match="steps can only follow an extended"):
        parse_watch_key(f"wpkh({BIP380_PUBKEY}/0)", MAIN)
    with pytest.raises(WatchKeyError, match="out of range"):
        parse_watch_key(f"wpkh({CORE_XPUB}/2147483648)", MAIN)
    with pytest.raises(WatchKeyError, match="copied whole"):
        parse_watch_key(BIP84_ZPUB[:-1] + "x", MAIN)
    with pytest.raises(WatchKeyError, match="at most one"):
        parse_watch_key(f"wpkh({CORE_XPUB}/*/*)", MAIN)
    with pytest.raises(WatchKeyError, match="does not end with"):
        parse_watch_key(f"wpkh({CORE_XPUB}/0/*", MAIN)
