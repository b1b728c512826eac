"""Blockchain Commons UR (BCR-2020-005) with its fountain codes (BCR-2020-012), for animated QR.

No maintained Python package on PyPI does the fountain-coded UR (Foundation Devices'
`foundation-ur-py` is not published there; `ur` on PyPI is an unrelated project), so this is a
port of the reference implementation, github.com/BlockchainCommons/bc-ur (C++, src/: xoshiro256,
random-sampler, fountain-utils, fountain-encoder, fountain-decoder, bytewords), checked against
that repository's own test vectors (tests/core/test_animated_qr_ur_vectors.py).

A message is cut into `seq_len` equal fragments; part n <= seq_len carries fragment n-1 alone,
later parts XOR a pseudo-random subset chosen from (n, checksum), so a reader can finish from
any large-enough set of parts, in any order, with repeats. The decoder departs from the
reference: it solves by Gaussian elimination, not peeling (`FountainDecoder` says why).
"""

from __future__ import annotations

import hashlib
import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from app.core import cbor
from app.core.errors import CoreError

_M64 = (1 << 64) - 1
_WORDS = (
    "ableacidalsoapexaquaarchatomauntawayaxisbackbaldbarnbeltbetabiasbluebodybragbrewbulbbuzz"
    "calmcashcatschefcityclawcodecolacookcostcruxcurlcuspcyandarkdatadaysdelidicedietdoordown"
    "drawdropdrumdulldutyeacheasyechoedgeepicevenexamexiteyesfactfairfernfigsfilmfishfizzflap"
    "flewfluxfoxyfreefrogfuelfundgalagamegeargemsgiftgirlglowgoodgraygrimgurugushgyrohalfhang"
    "hardhawkheathelphighhillholyhopehornhutsicedideaidleinchinkyintoirisironitemjadejazzjoin"
    "joltjowljudojugsjumpjunkjurykeepkenokeptkeyskickkilnkingkitekiwiknoblamblavalazyleaflegs"
    "liarlimplionlistlogoloudloveluaulucklungmainmanymathmazememomenumeowmildmintmissmonknail"
    "navyneednewsnextnoonnotenumbobeyoboeomitonyxopenovalowlspaidpartpeckplaypluspoempoolpose"
    "puffpumapurrquadquizraceramprealredorichroadrockroofrubyruinrunsrustsafesagascarsetssilk"
    "skewslotsoapsolosongstubsurfswantacotasktaxitenttiedtimetinytoiltombtoystriptunatwinugly"
    "undouniturgeuservastveryvetovialvibeviewvisavoidvowswallwandwarmwaspwavewaxywebswhatwhen"
    "whizwolfworkyankyawnyellyogayurtzapszerozestzinczonezoom"
)
# Minimal bytewords: each byte is its word's first and last letters.
_MINIMAL = [_WORDS[4 * i] + _WORDS[4 * i + 3] for i in range(256)]
_FROM_MINIMAL = {pair: i for i, pair in enumerate(_MINIMAL)}


class UrError(CoreError, ValueError):
    """A UR string or part that does not decode (bad syntax, bytewords or checksum)."""


def crc32(data: bytes) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF


def bytewords_encode(data: bytes) -> str:
    """Minimal-style bytewords of `data` followed by its CRC-32 (big-endian)."""
    body = data + crc32(data).to_bytes(4, "big")
    return "".join(_MINIMAL[b] for b in body)


def bytewords_decode(text: str) -> bytes:
    text = text.lower()
    if len(text) % 2 or len(text) < 10:
        raise UrError("the bytewords are too short or of odd length")
    try:
        body = bytes(_FROM_MINIMAL[text[i : i + 2]] for i in range(0, len(text), 2))
    except KeyError as exc:
        raise UrError(f"{exc.args[0]!r} is not a byteword") from None
    data, checksum = body[:-4], body[-4:]
    if crc32(data).to_bytes(4, "big") != checksum:
        raise UrError("the bytewords' checksum does not match")
    return data


class Xoshiro256:
    """xoshiro256** seeded as bc-ur does: the SHA-256 of the seed, as four big-endian words."""

    def __init__(self, seed: bytes) -> None:
        digest = hashlib.sha256(seed).digest()
        self.s = [int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)]

    def next(self) -> int:
        s = self.s
        result = (_rotl((s[1] * 5) & _M64, 7) * 9) & _M64
        t = (s[1] << 17) & _M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def next_double(self) -> float:
        return self.next() / float(1 << 64)

    def next_int(self, low: int, high: int) -> int:
        return int(self.next_double() * (high - low + 1)) + low

    def next_data(self, count: int) -> bytes:
        return bytes(self.next_int(0, 255) for _ in range(count))


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _M64


class RandomSampler:
    """Walker's alias method, with bc-ur's index order (reference: random-sampler.cpp)."""

    def __init__(self, weights: Sequence[float]) -> None:
        n, total = len(weights), sum(weights)
        p = [w * n / total for w in weights]
        small = [i for i in range(n - 1, -1, -1) if p[i] < 1]
        large = [i for i in range(n - 1, -1, -1) if p[i] >= 1]
        self.probs, self.aliases = [0.0] * n, [0] * n
        while small and large:
            a, g = small.pop(), large.pop()
            self.probs[a], self.aliases[a] = p[a], g
            p[g] += p[a] - 1
            (small if p[g] < 1 else large).append(g)
        for i in large + small:
            self.probs[i] = 1.0

    def next(self, rng: Xoshiro256) -> int:
        r1, r2 = rng.next_double(), rng.next_double()
        i = int(len(self.probs) * r1)
        return i if r2 < self.probs[i] else self.aliases[i]


def shuffled(items: Sequence[int], rng: Xoshiro256) -> list[int]:
    remaining, result = list(items), []
    while remaining:
        result.append(remaining.pop(rng.next_int(0, len(remaining) - 1)))
    return result


_DEGREE_SAMPLERS: dict[int, RandomSampler] = {}


def choose_degree(seq_len: int, rng: Xoshiro256) -> int:
    sampler = _DEGREE_SAMPLERS.get(seq_len)
    if sampler is None:
        sampler = _DEGREE_SAMPLERS[seq_len] = RandomSampler([1 / i for i in range(1, seq_len + 1)])
    return sampler.next(rng) + 1


def choose_fragments(seq_num: int, seq_len: int, checksum: int) -> frozenset[int]:
    """The fragment indexes part `seq_num` XORs together (one, in order, for the first seq_len)."""
    if seq_num <= seq_len:
        return frozenset({seq_num - 1})
    rng = Xoshiro256(seq_num.to_bytes(4, "big") + checksum.to_bytes(4, "big"))
    degree = choose_degree(seq_len, rng)
    return frozenset(shuffled(range(seq_len), rng)[:degree])


def nominal_fragment_length(message_len: int, min_len: int, max_len: int) -> int:
    """The shortest equal fragment length <= max_len (bc-ur's find_nominal_fragment_length)."""
    for count in range(1, max(message_len // min_len, 1) + 1):
        length = math.ceil(message_len / count)
        if length <= max_len:
            return length
    return math.ceil(message_len / max(message_len // min_len, 1))


def xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


@dataclass(frozen=True)
class FountainPart:
    seq_num: int
    seq_len: int
    message_len: int
    checksum: int
    data: bytes

    def cbor(self) -> bytes:
        fields: list[cbor.CborValue] = [
            self.seq_num,
            self.seq_len,
            self.message_len,
            self.checksum,
            self.data,
        ]
        return cbor.encode(fields)

    @classmethod
    def from_cbor(cls, raw: bytes) -> FountainPart:
        try:
            value = cbor.decode(raw)
        except cbor.CborError as exc:
            raise UrError(f"the part's header is not CBOR ({exc})") from None
        if not (isinstance(value, list) and len(value) == 5):
            raise UrError("the part's header is not a five-item array")
        numbers = [n for n in value[:4] if isinstance(n, int) and not isinstance(n, bool)]
        if len(numbers) != 4 or not all(0 <= n < 1 << 32 for n in numbers):
            raise UrError("the part's header holds a field that is not a 32-bit count")
        data = value[4]
        if not isinstance(data, bytes):
            raise UrError("the part carries no fragment bytes")
        seq_num, seq_len, message_len, checksum = numbers
        if seq_num < 1 or seq_len < 1 or not message_len or not data:
            raise UrError("the part's header has a zero sequence, length or fragment")
        if seq_len * len(data) < message_len or (seq_len - 1) * len(data) >= message_len:
            raise UrError("the part's fragment length does not match its message length")
        return cls(seq_num, seq_len, message_len, checksum, data)


class FountainEncoder:
    """Parts 1..seq_len are the fragments in order; every later part is a fountain mix."""

    def __init__(self, message: bytes, max_fragment_len: int, min_fragment_len: int = 10) -> None:
        if not message:
            raise UrError("nothing to encode")
        self.message_len = len(message)
        self.checksum = crc32(message)
        self.fragment_len = nominal_fragment_length(
            len(message), min_fragment_len, max_fragment_len
        )
        padded = message.ljust(-(-len(message) // self.fragment_len) * self.fragment_len, b"\0")
        self.fragments = [
            padded[i : i + self.fragment_len] for i in range(0, len(padded), self.fragment_len)
        ]
        self.seq_num = 0

    @property
    def seq_len(self) -> int:
        return len(self.fragments)

    def next_part(self) -> FountainPart:
        self.seq_num += 1
        indexes = choose_fragments(self.seq_num, self.seq_len, self.checksum)
        data = bytes(self.fragment_len)
        for i in indexes:
            data = xor(data, self.fragments[i])
        return FountainPart(self.seq_num, self.seq_len, self.message_len, self.checksum, data)


class FountainDecoder:
    """Collects parts of one message; `message` is set once every fragment is solved.

    Each part is an equation over GF(2): the XOR of its fragments. bc-ur's decoder peels (it
    solves a mix only once all but one of its fragments are known), so a set of parts it can
    finish in one order may stall in another (measured: 16 of 60 random 36 kB codes with a
    quarter of the frames missed stalled when read shuffled). This one keeps the parts in
    reduced row echelon form (Gaussian elimination), so it finishes as soon as the parts read,
    in any order, determine every fragment: sooner than peeling, never later."""

    def __init__(self) -> None:
        self.header: tuple[int, int, int, int] | None = None  # seq_len, message_len, crc, frag len
        # pivot fragment -> (mask of the fragments XORed, their XOR as an integer); each row's
        # mask holds its own pivot and no other row's pivot
        self._rows: dict[int, tuple[int, int]] = {}
        self.message: bytes | None = None

    def receive(self, part: FountainPart) -> bool:
        """Takes one part (False: already done, or a part adding nothing new). UrError if the
        part belongs to another message, or if the solved message fails its checksum."""
        header = (part.seq_len, part.message_len, part.checksum, len(part.data))
        if self.header is None:
            self.header = header
        elif header != self.header:
            raise ForeignPartError("this part belongs to another message")
        if self.message is not None:
            return False
        mask = 0
        for i in choose_fragments(part.seq_num, part.seq_len, part.checksum):
            mask |= 1 << i
        data = int.from_bytes(part.data, "big")
        for pivot, (row_mask, row_data) in self._rows.items():
            if mask >> pivot & 1:  # a row brings in no other pivot: one pass reduces fully
                mask, data = mask ^ row_mask, data ^ row_data
        if not mask:
            return False  # a repeat, or the XOR of parts already read
        pivot = (mask & -mask).bit_length() - 1
        for other, (row_mask, row_data) in self._rows.items():
            if row_mask >> pivot & 1:
                self._rows[other] = (row_mask ^ mask, row_data ^ data)
        self._rows[pivot] = (mask, data)
        if len(self._rows) == part.seq_len:
            self._finish()
        return True

    def _finish(self) -> None:
        # Every fragment is a pivot: reduced, each row is its fragment alone.
        assert self.header is not None
        seq_len, message_len, checksum, fragment_len = self.header
        joined = b"".join(self._rows[i][1].to_bytes(fragment_len, "big") for i in range(seq_len))
        message = joined[:message_len]
        if crc32(message) != checksum:
            raise UrError("the reassembled message fails its checksum: a frame was corrupt")
        self.message = message

    @property
    def fragments_known(self) -> int:
        """How many fragments the parts read determine so far (the rank of their equations)."""
        return len(self._rows)

    @property
    def fragments_needed(self) -> int:
        return self.header[0] if self.header else 0


class ForeignPartError(UrError):
    """A part whose header (length, checksum) is not the message being collected."""


@dataclass(frozen=True)
class UrText:
    """One scanned UR string: its type, and either a whole message or one fountain part."""

    ur_type: str
    message: bytes | None
    part: FountainPart | None


def single_part_text(ur_type: str, message: bytes) -> str:
    return f"ur:{ur_type}/{bytewords_encode(message)}"


def part_text(ur_type: str, part: FountainPart) -> str:
    return f"ur:{ur_type}/{part.seq_num}-{part.seq_len}/{bytewords_encode(part.cbor())}"


def parse_ur(text: str) -> UrText:
    """Parses `ur:type/body` or `ur:type/n-m/body`, in any case (QR alphanumeric mode is upper)."""
    text = text.strip().lower()
    if not text.startswith("ur:"):
        raise UrError("this is not a UR code (it does not start with 'ur:')")
    components = text[3:].split("/")
    ur_type = components[0]
    if not ur_type or not all(c.isalnum() or c == "-" for c in ur_type):
        raise UrError(f"{ur_type!r} is not a UR type")
    if len(components) == 2:
        return UrText(ur_type, bytewords_decode(components[1]), None)
    if len(components) != 3:
        raise UrError("a UR code has a type, an optional sequence and a body")
    seq = components[1].split("-")
    if len(seq) != 2 or not all(s.isdigit() for s in seq):
        raise UrError(f"{components[1]!r} is not a UR sequence 'n-m'")
    part = FountainPart.from_cbor(bytewords_decode(components[2]))
    if (part.seq_num, part.seq_len) != (int(seq[0]), int(seq[1])):
        raise UrError("the part's sequence does not match its header")
    return UrText(ur_type, None, part)
