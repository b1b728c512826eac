"""ord's inscription envelope, read and written by ord's rules (pure).

An envelope sits in a taproot script-path witness's leaf script:
`OP_FALSE OP_IF "ord" (<tag> <value>)* [OP_0 <body push>*] OP_ENDIF`. This module follows ord
0.2x's `src/inscriptions/envelope.rs`, `tag.rs`, `inscription.rs` and `inscription_id.rs`
(github.com/ordinals/ord, commit 5241ef311e015cff4759a379085c8cc8913e621a):

- every envelope of every input is read, in order (`input`, `offset` = its index in the input);
  a leaf script that does not parse as script yields nothing for its input;
- OP_1NEGATE/OP_1..OP_16 inside an envelope count as one-byte pushes and mark it `pushnum`;
  an `OP_FALSE` right before an aborted envelope start marks the next one `stutter`;
- fields are (tag, value) pairs before the body separator (an empty push at an even index);
  a lone trailing tag is an incomplete field; a tag seen twice is a duplicate field; metadata
  and properties are chunked (their values concatenated), parents may repeat, any other tag
  keeps its first value; an even tag left unrecognised makes the inscription unbound;
- the writer chunks the body (and metadata, properties) into pushes of at most 520 bytes,
  which is what script execution allows even in the unexecuted branch.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

PROTOCOL_ID = b"ord"
MAX_SCRIPT_ELEMENT_SIZE = 520
TAPROOT_ANNEX_PREFIX = 0x50

TAG_CONTENT_TYPE = 1
TAG_POINTER = 2
TAG_PARENT = 3
TAG_METADATA = 5
TAG_METAPROTOCOL = 7
TAG_CONTENT_ENCODING = 9
TAG_DELEGATE = 11
TAG_RUNE = 13
TAG_NOTE = 15
TAG_PROPERTIES = 17
TAG_PROPERTY_ENCODING = 19
TAG_UNBOUND = 66
TAG_NOP = 255
_CHUNKED_TAGS = (TAG_METADATA, TAG_PROPERTIES)

OP_0 = 0x00
OP_PUSHDATA1, OP_PUSHDATA2, OP_PUSHDATA4 = 0x4C, 0x4D, 0x4E
OP_1NEGATE = 0x4F
OP_1, OP_16 = 0x51, 0x60
OP_IF, OP_ENDIF = 0x63, 0x68
OP_CHECKSIG = 0xAC


class ScriptParseError(ValueError):
    """A script ends inside a push (rust-bitcoin's EarlyEndOfScript)."""


@dataclass(frozen=True)
class Inscription:
    """ord's `Inscription`: raw field values as they were pushed."""

    body: bytes | None = None
    content_encoding: bytes | None = None
    content_type: bytes | None = None
    delegate: bytes | None = None
    duplicate_field: bool = False
    incomplete_field: bool = False
    metadata: bytes | None = None
    metaprotocol: bytes | None = None
    parents: tuple[bytes, ...] = ()
    pointer: bytes | None = None
    properties: bytes | None = None
    property_encoding: bytes | None = None
    rune: bytes | None = None
    unrecognized_even_field: bool = False

    def pointer_value(self) -> int | None:
        """ord's `Inscription::pointer`: little-endian u64; None when a byte past the eighth
        is not zero."""
        if self.pointer is None or any(self.pointer[8:]):
            return None
        return int.from_bytes(self.pointer[:8], "little")

    def parent_ids(self) -> list[str]:
        """ord's `Inscription::parents`: the parent fields that decode as inscription ids."""
        return [i for i in (inscription_id_from_value(p) for p in self.parents) if i is not None]

    def content_type_text(self) -> str | None:
        if self.content_type is None:
            return None
        try:
            return self.content_type.decode("utf-8")
        except UnicodeDecodeError:
            return None


@dataclass(frozen=True)
class Envelope:
    input: int
    offset: int
    payload: Inscription = field(default_factory=Inscription)
    pushnum: bool = False
    stutter: bool = False


# -- script instructions ------------------------------------------------------------------


@dataclass(frozen=True)
class _Push:
    data: bytes


@dataclass(frozen=True)
class _Op:
    code: int


_Instruction = _Push | _Op


def _instructions(script: bytes) -> list[_Instruction]:
    """rust-bitcoin's `Script::instructions` (non-minimal pushes accepted)."""
    return list(_each_instruction(script))


def script_pushes(script: bytes) -> list[bytes]:
    """The data of each push in `script`, in order, up to where it stops parsing (ord reads
    an etching's tapscript so in `tx_commits_to_rune`: an error ends the reading)."""
    pushes: list[bytes] = []
    try:
        for instruction in _each_instruction(script):
            if isinstance(instruction, _Push):
                pushes.append(instruction.data)
    except ScriptParseError:
        pass
    return pushes


def _each_instruction(script: bytes) -> Iterator[_Instruction]:
    i = 0
    while i < len(script):
        op = script[i]
        i += 1
        if op <= 0x4B:
            size = op
        elif op in (OP_PUSHDATA1, OP_PUSHDATA2, OP_PUSHDATA4):
            width = {OP_PUSHDATA1: 1, OP_PUSHDATA2: 2, OP_PUSHDATA4: 4}[op]
            if i + width > len(script):
                raise ScriptParseError("script ends inside a push length")
            size = int.from_bytes(script[i : i + width], "little")
            i += width
        else:
            yield _Op(op)
            continue
        if i + size > len(script):
            raise ScriptParseError("script ends inside a push")
        yield _Push(script[i : i + size])
        i += size


def tapscript_from_witness(witness: tuple[bytes, ...] | list[bytes]) -> bytes | None:
    """The leaf script of a witness that could be a taproot script-path spend (rust-bitcoin
    0.32's `Witness::tapscript`): second to last item, or third to last when the last one is
    an annex (starts with 0x50, more than one item)."""
    items = list(witness)
    if not items:
        return None
    has_annex = len(items) > 1 and items[-1][:1] == bytes([TAPROOT_ANNEX_PREFIX])
    position = 3 if has_annex else 2
    return items[-position] if len(items) >= position else None


# -- reading ------------------------------------------------------------------------------


def envelopes_from_witnesses(witnesses: list[tuple[bytes, ...]]) -> list[Envelope]:
    """Every envelope in a transaction's inputs (one witness per input), in ord's order."""
    found: list[Envelope] = []
    for index, witness in enumerate(witnesses):
        script = tapscript_from_witness(witness)
        if script is None:
            continue
        try:
            found.extend(envelopes_from_tapscript(script, index))
        except ScriptParseError:
            continue  # ord drops the whole input's envelopes
    return found


def envelopes_from_tapscript(script: bytes, input_index: int = 0) -> list[Envelope]:
    instructions = _instructions(script)
    envelopes: list[Envelope] = []
    stuttered = False
    i = 0
    while i < len(instructions):
        instruction = instructions[i]
        i += 1
        if instruction == _Push(b""):
            stutter, envelope, i = _from_instructions(
                instructions, i, input_index, len(envelopes), stuttered
            )
            if envelope is not None:
                envelopes.append(envelope)
            else:
                stuttered = stutter
    return envelopes


def _from_instructions(
    ins: list[_Instruction], i: int, input_index: int, offset: int, stutter: bool
) -> tuple[bool, Envelope | None, int]:
    """ord's `RawEnvelope::from_instructions` from position `i`: (stutter, envelope, next i)."""
    for expected in (_Op(OP_IF), _Push(PROTOCOL_ID)):
        if i < len(ins) and ins[i] == expected:
            i += 1
        else:
            return (i < len(ins) and ins[i] == _Push(b"")), None, i
    pushnum = False
    payload: list[bytes] = []
    while i < len(ins):
        instruction = ins[i]
        i += 1
        if isinstance(instruction, _Push):
            payload.append(instruction.data)
        elif instruction.code == OP_ENDIF:
            return False, Envelope(input_index, offset, _parse(payload), pushnum, stutter), i
        elif instruction.code == OP_1NEGATE:
            pushnum = True
            payload.append(b"\x81")
        elif OP_1 <= instruction.code <= OP_16:
            pushnum = True
            payload.append(bytes([instruction.code - OP_1 + 1]))
        else:
            return False, None, i
    return False, None, i


def _parse(payload: list[bytes]) -> Inscription:
    """ord's `From<RawEnvelope> for ParsedEnvelope`."""
    body_at = next((i for i, p in enumerate(payload) if i % 2 == 0 and p == b""), None)
    head = payload if body_at is None else payload[:body_at]
    fields: dict[bytes, list[bytes]] = {}
    for start in range(0, len(head) - 1, 2):
        fields.setdefault(head[start], []).append(head[start + 1])
    incomplete = len(head) % 2 == 1
    duplicate = any(len(values) > 1 for values in fields.values())

    def take(tag: int) -> bytes | None:
        key = bytes([tag])
        values = fields.get(key)
        if not values:
            return None
        if tag in _CHUNKED_TAGS:
            del fields[key]
            return b"".join(values)
        value = values.pop(0)
        if not values:
            del fields[key]
        return value

    content_encoding = take(TAG_CONTENT_ENCODING)
    content_type = take(TAG_CONTENT_TYPE)
    delegate = take(TAG_DELEGATE)
    metadata = take(TAG_METADATA)
    metaprotocol = take(TAG_METAPROTOCOL)
    parents = tuple(fields.pop(bytes([TAG_PARENT]), []))
    pointer = take(TAG_POINTER)
    properties = take(TAG_PROPERTIES)
    property_encoding = take(TAG_PROPERTY_ENCODING)
    rune = take(TAG_RUNE)
    unrecognized_even = any(key[:1] and key[0] % 2 == 0 for key in fields)
    return Inscription(
        body=None if body_at is None else b"".join(payload[body_at + 1 :]),
        content_encoding=content_encoding,
        content_type=content_type,
        delegate=delegate,
        duplicate_field=duplicate,
        incomplete_field=incomplete,
        metadata=metadata,
        metaprotocol=metaprotocol,
        parents=parents,
        pointer=pointer,
        properties=properties,
        property_encoding=property_encoding,
        rune=rune,
        unrecognized_even_field=unrecognized_even,
    )


# -- inscription ids ----------------------------------------------------------------------


def inscription_id_from_value(value: bytes) -> str | None:
    """ord's `InscriptionId::from_value`: 32 txid bytes (internal order) and a little-endian
    index of 0-4 bytes, without trailing zeros unless exactly 4 bytes long."""
    if not 32 <= len(value) <= 36:
        return None
    txid, index = value[:32], value[32:]
    if index and len(index) != 4 and index[-1] == 0:
        return None
    return f"{txid[::-1].hex()}i{int.from_bytes(index, 'little')}"


def inscription_id_value(inscription_id: str) -> bytes:
    """ord's `InscriptionId::value`: the parent/delegate field for `<txid>i<index>`."""
    txid, _, index = inscription_id.partition("i")
    if len(txid) != 64 or not index.isdigit() or int(index) > 0xFFFFFFFF:
        raise ValueError(f"not an inscription id: {inscription_id!r}")
    return bytes.fromhex(txid)[::-1] + int(index).to_bytes(4, "little").rstrip(b"\x00")


def pointer_field(pointer: int) -> bytes:
    """ord's `Inscription::pointer_value`: little-endian, trailing zero bytes dropped."""
    if not 0 <= pointer < 1 << 64:
        raise ValueError("pointer must fit in 64 bits")
    return pointer.to_bytes(8, "little").rstrip(b"\x00")


# -- writing ------------------------------------------------------------------------------


def push(data: bytes) -> bytes:
    """A minimal data push (as rust-bitcoin's `push_slice`)."""
    size = len(data)
    if size <= 0x4B:
        return bytes([size]) + data
    if size <= 0xFF:
        return bytes([OP_PUSHDATA1, size]) + data
    if size <= 0xFFFF:
        return bytes([OP_PUSHDATA2]) + size.to_bytes(2, "little") + data
    return bytes([OP_PUSHDATA4]) + size.to_bytes(4, "little") + data


def _chunks(data: bytes) -> list[bytes]:
    return [
        data[i : i + MAX_SCRIPT_ELEMENT_SIZE] for i in range(0, len(data), MAX_SCRIPT_ELEMENT_SIZE)
    ]


def envelope_script(inscription: Inscription) -> bytes:
    """ord's `append_reveal_script_to_builder`: the envelope, fields in ord's order."""
    out = bytearray([OP_0, OP_IF]) + push(PROTOCOL_ID)

    def field_(tag: int, value: bytes | None) -> None:
        if value is None:
            return
        pieces = _chunks(value) if tag in _CHUNKED_TAGS else [value]
        for piece in pieces:
            out.extend(push(bytes([tag])) + push(piece))

    field_(TAG_CONTENT_TYPE, inscription.content_type)
    field_(TAG_CONTENT_ENCODING, inscription.content_encoding)
    field_(TAG_METAPROTOCOL, inscription.metaprotocol)
    for parent in inscription.parents:
        field_(TAG_PARENT, parent)
    field_(TAG_DELEGATE, inscription.delegate)
    field_(TAG_POINTER, inscription.pointer)
    field_(TAG_METADATA, inscription.metadata)
    field_(TAG_RUNE, inscription.rune)
    field_(TAG_PROPERTIES, inscription.properties)
    field_(TAG_PROPERTY_ENCODING, inscription.property_encoding)
    if inscription.body is not None:
        out.extend(push(b""))
        for piece in _chunks(inscription.body):
            out.extend(push(piece))
    out.append(OP_ENDIF)
    return bytes(out)


def reveal_leaf_script(xonly_key: bytes, inscriptions: list[Inscription]) -> bytes:
    """ord's reveal leaf: `<key> OP_CHECKSIG` followed by the envelopes (a batch in order)."""
    if len(xonly_key) != 32:
        raise ValueError("the reveal key must be a 32-byte x-only key")
    return push(xonly_key) + bytes([OP_CHECKSIG]) + b"".join(map(envelope_script, inscriptions))


def instruction_count(script: bytes) -> int:
    """How many instructions a script has (for checks against ord's own counts)."""
    return len(_instructions(script))
