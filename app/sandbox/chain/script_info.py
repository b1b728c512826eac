"""Esplora's description of scripts: `scriptpubkey_type` names and rust-bitcoin style asm."""

from __future__ import annotations

_OPCODES: dict[int, str] = {
    0x00: "OP_0", 0x4F: "OP_PUSHNUM_NEG1", 0x50: "OP_RESERVED",
    0x61: "OP_NOP", 0x62: "OP_VER", 0x63: "OP_IF", 0x64: "OP_NOTIF", 0x65: "OP_VERIF",
    0x66: "OP_VERNOTIF", 0x67: "OP_ELSE", 0x68: "OP_ENDIF", 0x69: "OP_VERIFY", 0x6A: "OP_RETURN",
    0x6B: "OP_TOALTSTACK", 0x6C: "OP_FROMALTSTACK", 0x6D: "OP_2DROP", 0x6E: "OP_2DUP",
    0x6F: "OP_3DUP", 0x70: "OP_2OVER", 0x71: "OP_2ROT", 0x72: "OP_2SWAP", 0x73: "OP_IFDUP",
    0x74: "OP_DEPTH", 0x75: "OP_DROP", 0x76: "OP_DUP", 0x77: "OP_NIP", 0x78: "OP_OVER",
    0x79: "OP_PICK", 0x7A: "OP_ROLL", 0x7B: "OP_ROT", 0x7C: "OP_SWAP", 0x7D: "OP_TUCK",
    0x7E: "OP_CAT", 0x7F: "OP_SUBSTR", 0x80: "OP_LEFT", 0x81: "OP_RIGHT", 0x82: "OP_SIZE",
    0x83: "OP_INVERT", 0x84: "OP_AND", 0x85: "OP_OR", 0x86: "OP_XOR", 0x87: "OP_EQUAL",
    0x88: "OP_EQUALVERIFY", 0x89: "OP_RESERVED1", 0x8A: "OP_RESERVED2", 0x8B: "OP_1ADD",
    0x8C: "OP_1SUB", 0x8D: "OP_2MUL", 0x8E: "OP_2DIV", 0x8F: "OP_NEGATE", 0x90: "OP_ABS",
    0x91: "OP_NOT", 0x92: "OP_0NOTEQUAL", 0x93: "OP_ADD", 0x94: "OP_SUB", 0x95: "OP_MUL",
    0x96: "OP_DIV", 0x97: "OP_MOD", 0x98: "OP_LSHIFT", 0x99: "OP_RSHIFT", 0x9A: "OP_BOOLAND",
    0x9B: "OP_BOOLOR", 0x9C: "OP_NUMEQUAL", 0x9D: "OP_NUMEQUALVERIFY", 0x9E: "OP_NUMNOTEQUAL",
    0x9F: "OP_LESSTHAN", 0xA0: "OP_GREATERTHAN", 0xA1: "OP_LESSTHANOREQUAL",
    0xA2: "OP_GREATERTHANOREQUAL", 0xA3: "OP_MIN", 0xA4: "OP_MAX", 0xA5: "OP_WITHIN",
    0xA6: "OP_RIPEMD160", 0xA7: "OP_SHA1", 0xA8: "OP_SHA256", 0xA9: "OP_HASH160",
    0xAA: "OP_HASH256", 0xAB: "OP_CODESEPARATOR", 0xAC: "OP_CHECKSIG",
    0xAD: "OP_CHECKSIGVERIFY", 0xAE: "OP_CHECKMULTISIG", 0xAF: "OP_CHECKMULTISIGVERIFY",
    0xB0: "OP_NOP1", 0xB1: "OP_CLTV", 0xB2: "OP_CSV", 0xB3: "OP_NOP4", 0xB4: "OP_NOP5",
    0xB5: "OP_NOP6", 0xB6: "OP_NOP7", 0xB7: "OP_NOP8", 0xB8: "OP_NOP9", 0xB9: "OP_NOP10",
    0xBA: "OP_CHECKSIGADD",
}  # fmt: skip


def script_type(spk: bytes) -> str:
    """Esplora's `scriptpubkey_type`."""
    n = len(spk)
    if n == 25 and spk[:3] == b"\x76\xa9\x14" and spk[23:] == b"\x88\xac":
        return "p2pkh"
    if n == 23 and spk[:2] == b"\xa9\x14" and spk[22] == 0x87:
        return "p2sh"
    if n == 22 and spk[:2] == b"\x00\x14":
        return "v0_p2wpkh"
    if n == 34 and spk[:2] == b"\x00\x20":
        return "v0_p2wsh"
    if n == 34 and spk[:2] == b"\x51\x20":
        return "v1_p2tr"
    if n == 4 and spk == b"\x51\x02\x4e\x73":
        return "anchor"
    if n > 0 and spk[0] == 0x6A:
        return "op_return"
    if n in (35, 67) and spk[-1] == 0xAC and spk[0] == n - 2:
        return "p2pk"
    if n == 0:
        return "empty"
    return "unknown"


def script_asm(script: bytes) -> str:
    """Script disassembly in rust-bitcoin's (and therefore Esplora's) format."""
    parts: list[str] = []
    i, n = 0, len(script)
    while i < n:
        op = script[i]
        i += 1
        if 0x01 <= op <= 0x4E:
            if op <= 0x4B:
                size, name = op, f"OP_PUSHBYTES_{op}"
            else:
                width = {0x4C: 1, 0x4D: 2, 0x4E: 4}[op]
                if i + width > n:
                    parts.append("<unexpected end>")
                    break
                size = int.from_bytes(script[i : i + width], "little")
                name = {0x4C: "OP_PUSHDATA1", 0x4D: "OP_PUSHDATA2", 0x4E: "OP_PUSHDATA4"}[op]
                i += width
            if i + size > n:
                parts.append("<push past end>")
                break
            parts.append(f"{name} {script[i : i + size].hex()}")
            i += size
        elif 0x51 <= op <= 0x60:
            parts.append(f"OP_PUSHNUM_{op - 0x50}")
        else:
            parts.append(_OPCODES.get(op, f"OP_RETURN_{op}"))
    return " ".join(parts)
