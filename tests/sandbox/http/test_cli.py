"""`bidwallet sandbox serve` arguments, the light import of the CLI module, listener helpers."""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from app.__main__ import build_parser
from app.sandbox.cli import API_KEY_ENV, run_serve, settings_from_args
from app.sandbox.http.server import ServeError, bind_listener, is_loopback, listener_url
from app.sandbox.http.settings import SandboxSettings


def test_serve_defaults_are_loopback_and_a_free_port() -> None:
    args = build_parser().parse_args(["sandbox", "serve"])
    assert (args.host, args.port, args.data, args.block_interval) == ("127.0.0.1", 0, None, None)
    assert (args.api_key, args.bidding_wallet) == (None, "taproot")
    assert args.listing_escrow == "per-item"
    assert settings_from_args(args).listing_escrow == "per-item"
    assert settings_from_args(args).service_runestones == "none"


def test_serve_accepts_every_option(tmp_path: Path) -> None:
    args = build_parser().parse_args(
        [
            "sandbox",
            "serve",
            "--host",
            "::1",
            "--port",
            "8123",
            "--data",
            str(tmp_path),
            "--block-interval",
            "2.5",
            "--api-key",
            "k",
            "--bidding-wallet",
            "p2wsh",
            "--listing-escrow",
            "shared",
            "--service-runestones",
            "pointer",
        ]
    )
    assert (args.host, args.port, args.data) == ("::1", 8123, tmp_path)
    assert (args.block_interval, args.api_key, args.bidding_wallet) == (2.5, "k", "p2wsh")
    assert settings_from_args(args).listing_escrow == "shared"
    assert settings_from_args(args).service_runestones == "pointer"


@pytest.mark.parametrize(
    "bad",
    [
        ["--port", "65536"],
        ["--port", "-1"],
        ["--port", "http"],
        ["--block-interval", "0"],
        ["--block-interval", "nan"],
        ["--bidding-wallet", "p2pkh"],
        ["--listing-escrow", "none"],
        ["--service-runestones", "mint"],
    ],
)
def test_serve_rejects_bad_options(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["sandbox", "serve", *bad])
    assert exit_info.value.code == 2
    assert "error" in capsys.readouterr().err


def test_cli_import_stays_light() -> None:
    """The desktop app imports the CLI module at every start: no web or chain stack with it."""
    probe = (
        "import sys, json, app.__main__ as m; m.build_parser();"
        "heavy = ['fastapi', 'uvicorn', 'pydantic', 'pbk', 'embit', 'app.sandbox.http',"
        " 'app.sandbox.chain'];"
        "print(json.dumps([name for name in heavy if name in sys.modules]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(out.stdout) == []


def test_loopback_hosts() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert is_loopback("127.5.0.1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
    assert not is_loopback("example.com")


def test_port_zero_binds_a_free_port_and_the_url_names_it() -> None:
    sock = bind_listener("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        assert port > 0
        assert listener_url(sock) == f"http://127.0.0.1:{port}"
    finally:
        sock.close()


def test_ipv6_url_has_brackets() -> None:
    try:
        sock = bind_listener("::1", 0)
    except ServeError:
        pytest.skip("no IPv6 loopback on this machine")
    try:
        assert listener_url(sock) == f"http://[::1]:{sock.getsockname()[1]}"
    finally:
        sock.close()


def test_taken_port_is_a_clear_error_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = argparse.Namespace(host="127.0.0.1", port=port, data=tmp_path / "data")
        assert run_serve(args) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_data_path_that_is_a_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "not-a-dir"
    a_file.write_text("x")
    assert run_serve(argparse.Namespace(data=a_file)) == 2
    assert "data" in capsys.readouterr().err


def test_settings_carry_the_next_issue_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(API_KEY_ENV, raising=False)
    args = build_parser().parse_args(
        [
            "sandbox",
            "serve",
            "--api-key",
            "k1",
            "--bidding-wallet",
            "p2wsh",
            "--block-interval",
            "3",
        ]
    )
    settings = settings_from_args(args)
    assert (settings.api_key, settings.bidding_wallet, settings.block_interval_s) == (
        "k1",
        "p2wsh",
        3.0,
    )
    assert "k1" not in repr(settings)


def test_settings_defaults_for_dash_dash_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(API_KEY_ENV, raising=False)
    settings = settings_from_args(argparse.Namespace(command=None, sandbox=True))
    assert settings == SandboxSettings()
    monkeypatch.setenv(API_KEY_ENV, "from-env")
    assert settings_from_args(argparse.Namespace()).api_key == "from-env"


@pytest.mark.parametrize(
    "bad",
    [
        {"bidding_wallet": "p2pkh"},
        {"max_body_bytes": 0},
        {"block_interval_s": 0.0},
        {"api_key": ""},
    ],
)
def test_settings_reject_bad_values(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        SandboxSettings(**bad)
