"""The UR port (app/core/ur_fountain.py) against the reference implementation's own test
vectors: github.com/BlockchainCommons/bc-ur, test/test.cpp (tests/core/ur_vectors.py)."""

from __future__ import annotations

import pytest

from app.core import cbor
from app.core.ur_fountain import (
    FountainDecoder,
    FountainEncoder,
    FountainPart,
    RandomSampler,
    UrError,
    Xoshiro256,
    bytewords_decode,
    bytewords_encode,
    choose_degree,
    choose_fragments,
    crc32,
    nominal_fragment_length,
    parse_ur,
    part_text,
    shuffled,
    single_part_text,
)
from tests.core import ur_vectors as v


def make_message(length: int, seed: str = "Wolf") -> bytes:
    return Xoshiro256(seed.encode()).next_data(length)


def test_crc32() -> None:
    assert crc32(b"Hello, world!").to_bytes(4, "big").hex() == "ebe6c6e6"
    assert crc32(b"Wolf").to_bytes(4, "big").hex() == "598c84dc"


def test_bytewords_minimal() -> None:
    assert bytewords_encode(bytes([0, 1, 2, 128, 255])) == "aeadaolazmjendeoti"
    assert bytewords_decode("aeadaolazmjendeoti") == bytes([0, 1, 2, 128, 255])
    with pytest.raises(UrError, match="checksum"):
        bytewords_decode("aeadaolazojendeowf")
    with pytest.raises(UrError, match="too short"):
        bytewords_decode("wf")


def test_rngs() -> None:
    rng = Xoshiro256(b"Wolf")
    assert [rng.next() % 100 for _ in range(100)] == v.RNG_WOLF_MOD100
    rng = Xoshiro256(crc32(b"Wolf").to_bytes(4, "big"))
    assert [rng.next() % 100 for _ in range(100)] == v.RNG_CRC_WOLF_MOD100
    rng = Xoshiro256(b"Wolf")
    assert [rng.next_int(1, 10) for _ in range(100)] == v.RNG_WOLF_1_TO_10


def test_sampler_shuffle_and_degree() -> None:
    rng = Xoshiro256(b"Wolf")
    sampler = RandomSampler([1, 2, 4, 8])
    assert [sampler.next(rng) for _ in range(500)] == v.SAMPLER_1248
    rng = Xoshiro256(b"Wolf")
    assert [shuffled(range(1, 11), rng) for _ in range(10)] == v.SHUFFLES
    degrees = [choose_degree(11, Xoshiro256(f"Wolf-{n}".encode())) for n in range(1, 201)]
    assert degrees == v.DEGREES


def test_fragments_partition_and_choice() -> None:
    message = make_message(1024)
    assert nominal_fragment_length(12345, 1005, 1955) == 1764
    assert nominal_fragment_length(12345, 1005, 30000) == 12345
    encoder = FountainEncoder(message, 100)
    assert [f.hex() for f in encoder.fragments] == v.PARTITION_1024
    chosen = [sorted(choose_fragments(n, 11, crc32(message))) for n in range(1, 31)]
    assert chosen == v.FRAGMENT_INDEXES


def test_fountain_encoder_parts() -> None:
    encoder = FountainEncoder(make_message(256), 30)
    assert [encoder.next_part().cbor().hex() for _ in range(20)] == v.ENCODER_CBOR_PARTS
    assert encoder.seq_len == 9


def test_ur_single_and_multi_part_strings() -> None:
    ur_cbor = cbor.encode(make_message(50))
    assert single_part_text("bytes", ur_cbor) == (
        "ur:bytes/hdeymejtswhhylkepmykhhtsytsnoyoyaxaedsuttydmmhhpktpmsrjtgwdpfnsboxgwlbaawz"
        "uefywkdplrsrjynbvygabwjldapfcsdwkbrkch"
    )
    encoder = FountainEncoder(cbor.encode(make_message(256)), 30)
    texts = [part_text("bytes", encoder.next_part()) for _ in range(20)]
    assert texts == v.UR_ENCODER_PARTS
    parsed = parse_ur(texts[0].upper())  # as a QR reader returns alphanumeric mode
    assert parsed.ur_type == "bytes" and parsed.part is not None
    assert part_text("bytes", parsed.part) == texts[0]
    assert parse_ur(single_part_text("bytes", ur_cbor)).message == ur_cbor
    assert FountainPart.from_cbor(bytes.fromhex(v.ENCODER_CBOR_PARTS[0])).seq_len == 9


def test_fountain_decoder_from_part_100_on() -> None:
    """The reference's decoder test: 32767 bytes in 1000-byte fragments, parts from 101 on
    (all fountain mixes, none of the plain fragments)."""
    message = make_message(32767)
    encoder = FountainEncoder(message, 1000)
    encoder.seq_num = 100
    decoder = FountainDecoder()
    while decoder.message is None:
        decoder.receive(encoder.next_part())
    assert decoder.message == message
