"""Text from JSON may hold lone surrogates ("\\ud800"), which UTF-8 and SQLite refuse."""

from __future__ import annotations


def is_utf8_encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
