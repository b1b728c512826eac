"""The suite reaches no network beyond loopback (CI has none; a test that looks up or connects
to a public host would depend on the machine it runs on). Installed for the whole run by
tests/conftest.py: a name lookup of anything but a loopback name fails as it does on a machine
without network (socket.gaierror), and a connection to a non-loopback address is refused.
Child processes (the sandbox a test starts) are not covered: they only serve on 127.0.0.1."""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

_LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})
_real_getaddrinfo = socket.getaddrinfo
_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def is_loopback(host: object) -> bool:
    if host is None:  # getaddrinfo(None, port): the local host's wildcard or loopback
        return True
    name = host.decode() if isinstance(host, bytes | bytearray) else str(host)
    if name.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if not is_loopback(host):
        raise socket.gaierror(
            socket.EAI_NONAME, f"no network beyond loopback in the tests (lookup of {host!r})"
        )
    return _real_getaddrinfo(host, *args, **kwargs)


def _check_address(address: Any) -> None:
    if isinstance(address, tuple) and address and not is_loopback(address[0]):
        raise ConnectionRefusedError(f"no network beyond loopback in the tests ({address!r})")


def _connect(self: socket.socket, address: Any) -> None:
    _check_address(address)
    _real_connect(self, address)


def _connect_ex(self: socket.socket, address: Any) -> int:
    _check_address(address)
    return _real_connect_ex(self, address)


def install() -> None:
    socket.getaddrinfo = _getaddrinfo
    socket.socket.connect = _connect  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = _connect_ex  # type: ignore[method-assign,assignment]
