"""tests/support/loopback_only.py, installed for the whole run by tests/conftest.py."""

import socket

import pytest

from tests.support.loopback_only import is_loopback


def test_public_names_are_not_looked_up() -> None:
    with pytest.raises(socket.gaierror, match="no network beyond loopback"):
        socket.getaddrinfo("api.satflow.com", 443)


def test_non_loopback_addresses_are_refused() -> None:
    with socket.socket() as sock, pytest.raises(ConnectionRefusedError, match="loopback"):
        sock.connect(("192.0.2.1", 80))  # TEST-NET-1: never reached either way


def test_loopback_still_works() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.create_connection(server.getsockname()) as client:
            assert client.getpeername() == server.getsockname()
    assert socket.getaddrinfo("localhost", 80)


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", b"127.0.0.2", None])
def test_loopback_hosts(host: object) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["10.0.0.1", "example.com", "::ffff:8.8.8.8", b"mempool.space"])
def test_other_hosts(host: object) -> None:
    assert not is_loopback(host)
