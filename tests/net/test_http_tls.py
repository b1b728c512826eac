"""TLS and the API key (security review of the shared TLS context): an https service is still
verified, certificate and host name, through an https proxy's CONNECT tunnel too; the key never
goes in clear to another machine."""

from __future__ import annotations

import datetime
import http.server
import ipaddress
import select
import socket
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from app.net import http as net_http
from app.net.config import InvalidServiceConfig, ServiceConfig
from app.net.errors import ConnectFailed
from app.net.http import HttpClient
from app.services.profiles import AppProfile, ProfileSettingsError, ServiceKind


def _self_signed(directory: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "other.example")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


class _Ok(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def https_server(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """An https server on 127.0.0.1 (all interfaces of the loopback net) with a self-signed
    certificate naming 127.0.0.1 only; yields its port and the certificate."""
    cert, key = _self_signed(tmp_path)
    server = http.server.HTTPServer(("127.0.0.1", 0), _Ok)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], cert
    server.shutdown()
    server.server_close()
    thread.join()


async def test_a_self_signed_https_service_is_refused(https_server: tuple[int, Path]) -> None:
    port, _ = https_server
    async with HttpClient(f"https://127.0.0.1:{port}", service="t") as client:
        with pytest.raises(ConnectFailed):
            await client.send("GET", "/")


async def test_a_trusted_certificate_for_another_host_name_is_refused(
    https_server: tuple[int, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The user's own trust anchor (SSL_CERT_FILE) is honoured, the host name still checked.
    port, cert = https_server
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    net_http._verifying_tls.cache_clear()
    try:
        async with HttpClient(f"https://127.0.0.1:{port}", service="t") as client:
            assert (await client.send("GET", "/")).status_code == 200
        async with HttpClient(f"https://localhost:{port}", service="t") as client:
            with pytest.raises(ConnectFailed):  # the certificate names 127.0.0.1 only
                await client.send("GET", "/")
    finally:
        monkeypatch.delenv("SSL_CERT_FILE")
        net_http._verifying_tls.cache_clear()


@pytest.fixture
def connect_proxy() -> Iterator[tuple[int, list[str]]]:
    """A CONNECT-only proxy on loopback; yields its port and the request lines it received."""
    listener = socket.create_server(("127.0.0.1", 0))
    seen: list[str] = []

    def relay(client: socket.socket) -> None:
        with client:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = client.recv(4096)
                if not chunk:
                    return
                head += chunk
            line = head.split(b"\r\n")[0].decode()
            seen.append(line)
            host, port = line.split()[1].rsplit(":", 1)
            with socket.create_connection((host, int(port))) as upstream:
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                pair = {client: upstream, upstream: client}
                while True:
                    ready, _, _ = select.select(list(pair), [], [], 10)
                    if not ready:
                        return
                    for sock in ready:
                        data = sock.recv(65536)
                        if not data:
                            return
                        pair[sock].sendall(data)

    def serve() -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:  # closed: the test is over
                return
            threading.Thread(target=relay, args=(client,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1], seen
    listener.shutdown(socket.SHUT_RDWR)  # wakes the accept (close alone does not)
    listener.close()
    thread.join()


async def test_through_an_https_proxy_the_service_is_still_verified(
    https_server: tuple[int, Path],
    connect_proxy: tuple[int, list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    port, _ = https_server
    proxy_port, seen = connect_proxy
    monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{proxy_port}")
    async with HttpClient(f"https://127.0.0.1:{port}", service="t") as client:
        with pytest.raises(ConnectFailed):
            await client.send("GET", "/")
    assert seen == [f"CONNECT 127.0.0.1:{port} HTTP/1.1"]  # it went through the tunnel


@pytest.mark.parametrize(
    "url", ["http://market.example/v1", "http://192.168.1.5:8080/v1", "http://MARKET.example"]
)
def test_the_api_key_never_goes_in_clear_to_another_machine(url: str) -> None:
    with pytest.raises(InvalidServiceConfig, match="https"):
        ServiceConfig.custom(url, "https://e.example", "https://o.example", api_key="k")
    ServiceConfig.custom(url, "https://e.example", "https://o.example")  # no key: nothing sent


@pytest.mark.parametrize(
    "url",
    [
        "https://market.example/v1",
        "http://127.0.0.1:8123/v1",
        "http://localhost:8123/v1",
        "http://[::1]:8123/v1",
        "http://abcdefghijklmnop.onion/v1",
    ],
)
def test_the_api_key_goes_over_https_or_to_this_machine(url: str) -> None:
    config = ServiceConfig.custom(url, "http://e.example", "http://o.example", api_key="k")
    assert config.has_api_key


def test_a_profile_with_a_key_for_plain_http_says_why_it_does_not_connect() -> None:
    profile = AppProfile(
        name="Mine",
        kind=ServiceKind.CUSTOM,
        network="signet",  # on any network (mainnet refuses plain http to another machine)
        marketplace_url="http://market.example/v1",
        esplora_url="https://e.example",
        ord_url="https://o.example",
    )
    with pytest.raises(ProfileSettingsError, match="only over https") as refused:
        profile.service_config(api_key="sk-secret")
    assert "sk-secret" not in str(refused.value)
    assert not profile.service_config(api_key=None).has_api_key


@pytest.mark.parametrize("field", ["marketplace_url", "esplora_url", "ord_url"])
def test_a_mainnet_profile_reads_no_fact_in_clear_from_another_machine(field: str) -> None:
    # On mainnet the chain's amounts and ord's contents decide what is signed (a coin ord
    # calls plain is spent as fees): read in clear, anyone on the path could lie for them.
    urls = {
        "marketplace_url": "https://m.example/v1",
        "esplora_url": "https://e.example",
        "ord_url": "https://o.example",
    }
    clear = {**urls, field: "http://192.168.1.5:8080/x"}
    mainnet = AppProfile(name="Mine", kind=ServiceKind.CUSTOM, network="mainnet", **clear)
    with pytest.raises(ProfileSettingsError, match=r"192\.168\.1\.5:8080"):
        mainnet.service_config(api_key=None)
    local = {**urls, field: "http://127.0.0.1:8080/x"}
    AppProfile(name="Mine", kind=ServiceKind.CUSTOM, network="mainnet", **local).service_config(
        api_key=None
    )
    AppProfile(name="Dev", kind=ServiceKind.CUSTOM, network="signet", **clear).service_config(
        api_key=None
    )
