"""The UR fountain decoder finishes from any set of parts that determines the message, in any
order (Gaussian elimination over GF(2)): bc-ur's peeling decoder, which this once ported, could
finish a set read in one order and stall on the same set shuffled (a clean-clone CI run read
95 of 107 frames of a 100-listing export and stopped there). A corrupt part still fails the
message's checksum, and a part of another message is refused."""

from __future__ import annotations

import random

import pytest

from app.core.ur_fountain import (
    ForeignPartError,
    FountainDecoder,
    FountainEncoder,
    FountainPart,
    UrError,
    choose_fragments,
)


def _parts(message: bytes, fragment_len: int, count: int) -> list[FountainPart]:
    encoder = FountainEncoder(message, fragment_len)
    return [encoder.next_part() for _ in range(count)]


def _rank(parts: list[FountainPart]) -> int:
    """The rank of the parts' fragment sets over GF(2), computed apart from the decoder."""
    basis: list[int] = []
    for part in parts:
        vector = sum(1 << i for i in choose_fragments(part.seq_num, part.seq_len, part.checksum))
        for row in basis:
            vector = min(vector, vector ^ row)
        if vector:
            basis.append(vector)
            basis.sort(reverse=True)
    return len(basis)


def _read(parts: list[FountainPart]) -> FountainDecoder:
    decoder = FountainDecoder()
    for part in parts:
        decoder.receive(part)
    return decoder


@pytest.mark.parametrize("seed", range(30))
def test_a_set_of_parts_decodes_in_every_order_exactly_when_it_determines_the_message(
    seed: int,
) -> None:
    """2-9 kB in 100-byte fragments, the first 1.6 x seq_len parts with a quarter missed: 18
    of these 30 sets determine the message, and bc-ur's peeling stalled on 19 of their 54
    shuffled reads (measured against the decoder this replaced)."""
    rng = random.Random(seed)
    message = rng.randbytes(rng.randrange(2_000, 9_000))
    seq_len = _parts(message, 100, 1)[0].seq_len
    parts = _parts(message, 100, int(seq_len * 1.6))
    kept = [p for p in parts if rng.random() > 0.25]  # a quarter missed, as a camera may
    whole = _rank(kept) == seq_len
    for order in range(3):
        shuffled = kept[:]
        random.Random(seed * 10 + order).shuffle(shuffled)
        decoder = _read(shuffled)
        assert (decoder.message == message) is whole
        if not whole:
            assert decoder.fragments_known == _rank(kept)  # progress says how far it got
    assert (_read(kept).message == message) is whole


def test_progress_counts_what_the_parts_determine_and_a_repeat_adds_nothing() -> None:
    message = bytes(range(256)) * 8
    parts = _parts(message, 100, 40)
    mix = next(p for p in parts[21:] if len(choose_fragments(p.seq_num, p.seq_len, p.checksum)) > 1)
    decoder = FountainDecoder()
    assert decoder.receive(mix)
    assert decoder.fragments_known == 1  # one equation: one fragment's worth, none solved
    assert not decoder.receive(mix)
    assert decoder.fragments_known == 1
    for part in parts[: mix.seq_len]:
        decoder.receive(part)
    assert decoder.message == message
    assert not decoder.receive(parts[-1])  # done: further frames are ignored


def test_a_corrupt_part_fails_the_checksum_and_a_foreign_part_is_refused() -> None:
    message = bytes(range(200)) * 10
    parts = _parts(message, 100, 20)
    first = parts[0]
    corrupt = FountainPart(
        first.seq_num,
        first.seq_len,
        first.message_len,
        first.checksum,
        bytes([first.data[0] ^ 1]) + first.data[1:],
    )
    decoder = FountainDecoder()
    with pytest.raises(UrError, match="fails its checksum"):
        for part in [corrupt, *parts[1 : first.seq_len]]:
            decoder.receive(part)
    decoder = FountainDecoder()
    decoder.receive(parts[0])
    other = _parts(b"another message" * 100, 100, 1)[0]
    with pytest.raises(ForeignPartError):
        decoder.receive(other)
