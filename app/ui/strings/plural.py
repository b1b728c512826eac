"""Plural forms: `Counted` messages and `counted`, through gettext."""

from __future__ import annotations

import gettext
from typing import NamedTuple


class Counted(NamedTuple):
    """The singular and plural forms of a message with `{count}` (gettext's msgid pair)."""

    one: str
    many: str


_CATALOG = gettext.translation("bidwallet", fallback=True)


def counted(message: Counted, count: int, **fields: object) -> str:
    """`message` in the form for `count`, formatted with `count` and `fields`."""
    return _CATALOG.ngettext(message.one, message.many, count).format(count=count, **fields)
