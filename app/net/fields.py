"""Reading fields out of decoded JSON, tolerant where the API varies, strict where it must.

A ``Reader`` knows which service and path a body came from, so every ``BadResponse`` it raises
names the endpoint and the missing or malformed field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TypeGuard

from app.net.errors import BadResponse

_MISSING = object()
_DECIMAL = re.compile(r"-?[0-9]{1,40}")


class JsonTooDeep(ValueError):
    """JSON nested deeper than the parser's recursion allows (a hostile answer)."""


def loads_json(text: str | bytes) -> Any:
    """`json.loads`, except that JSON nested too deep for Python's parser (``[[[[...]]]]`` a
    hundred thousand deep raises RecursionError) is a ValueError like any text that is not
    JSON: a service's answer must not raise what no caller expects."""
    try:
        return json.loads(text)
    except RecursionError:
        raise JsonTooDeep("JSON nested too deep to read") from None


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def as_int(value: Any) -> int | None:
    """An integer from a JSON number or a decimal string; None for anything else."""
    if is_int(value):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _DECIMAL.fullmatch(value.strip()):
        return int(value.strip())
    return None


def as_epoch_ms(value: Any) -> int | None:
    """Milliseconds since the epoch from an integer (the spec's unit) or an ISO-8601 text."""
    number = as_int(value)
    if number is not None:
        return number
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return int(moment.timestamp() * 1000)
    return None


def as_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def object_id(value: Any) -> str | None:
    """A document id sent either as a string or as Mongo's extended JSON ``{"$oid": "..."}``."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, Mapping):
        inner = value.get("$oid")
        if isinstance(inner, str) and inner:
            return inner
    return None


class Reader:
    """Field access for one response body (``service`` and ``path`` go into error messages)."""

    def __init__(self, service: str, path: str) -> None:
        self.service = service
        self.path = path

    def error(self, problem: str, field: str | None = None) -> BadResponse:
        return BadResponse(self.service, self.path, problem, field)

    def obj(self, body: Any, what: str = "body") -> Mapping[str, Any]:
        if not isinstance(body, Mapping):
            raise self.error(f"{what} is {type(body).__name__}, expected a JSON object", what)
        return body

    def data(self, body: Any) -> Mapping[str, Any]:
        """The ``data`` object of the v1 envelope, or the body itself (legacy, un-enveloped)."""
        top = self.obj(body)
        inner = top.get("data")
        return inner if isinstance(inner, Mapping) else top

    def pick(self, body: Any, *paths: str) -> Any:
        """The first present, non-null value among dotted ``paths``, looked up in ``data``
        first and then at the top level (satflow-mm reads ``data.X || X``)."""
        top = self.obj(body)
        inner = top.get("data")
        roots = (inner, top) if isinstance(inner, Mapping) else (top,)
        for path in paths:
            for root in roots:
                value = _walk(root, path)
                if value is not _MISSING and value is not None:
                    return value
        return None

    def need_str(self, body: Any, *paths: str) -> str:
        value = self.pick(body, *paths)
        if not isinstance(value, str) or not value:
            raise self._missing(value, paths, "a non-empty string")
        return value

    def need_bool(self, body: Any, *paths: str) -> bool:
        value = self.pick(body, *paths)
        if not isinstance(value, bool):
            raise self._missing(value, paths, "a boolean")
        return value

    def need_int(self, body: Any, *paths: str) -> int:
        """A JSON integer (not a boolean, a float or a decimal string)."""
        value = self.pick(body, *paths)
        if not is_int(value):
            raise self._missing(value, paths, "an integer")
        return value

    def optional_int(self, item: Mapping[str, Any], name: str) -> int | None:
        """`item[name]`: a JSON integer, or None when absent or null."""
        value = item.get(name)
        if value is None or is_int(value):
            return value
        raise self.error(f"{name} is {type(value).__name__}, expected an integer or null", name)

    def need_list(self, body: Any, *paths: str) -> list[Any]:
        value = self.pick(body, *paths)
        if not isinstance(value, list):
            raise self._missing(value, paths, "a list")
        return value

    def _missing(self, value: Any, paths: tuple[str, ...], expected: str) -> BadResponse:
        name = " or ".join(f"data.{p}" for p in paths)
        if value is None:
            return self.error(f"missing field {name}", paths[0])
        return self.error(f"field {name} is {type(value).__name__}, expected {expected}", paths[0])


def _walk(root: Mapping[str, Any], dotted: str) -> Any:
    node: Any = root
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return _MISSING
        node = node[part]
    return node
