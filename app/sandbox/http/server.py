"""Running the sandbox as a process: bind, open the Node, serve with uvicorn, announce
`ready http://HOST:PORT` on stdout, stop cleanly on SIGINT/SIGTERM."""

from __future__ import annotations

import ipaddress
import logging
import shutil
import signal
import socket
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn

from app.sandbox.chain.errors import ChainError
from app.sandbox.http.app import create_app
from app.sandbox.http.block_timer import BlockTimer
from app.sandbox.http.market_activity import DEFAULT_SIM_INTERVAL_S, MarketActivity
from app.sandbox.http.settings import SandboxSettings
from app.sandbox.prebuilt_chain import open_node

log = logging.getLogger(__name__)

# Seconds uvicorn waits for open requests after a stop signal before closing them.
_GRACEFUL_SHUTDOWN_S = 5


class ServeError(Exception):
    """The service could not start (port taken, unusable data directory, ...)."""


@dataclass(frozen=True)
class ServeOptions:
    host: str
    port: int
    data_dir: Path | None
    settings: SandboxSettings
    chain_cache: Path | None = None  # where a prebuilt demo chain is kept (prebuilt_chain.py)
    demo_market: bool = True  # a new data directory's demo market, made once it answers
    market_sim_seed: int | None = None  # move the market from this seed (market_activity.py)
    market_sim_interval_s: float = DEFAULT_SIM_INTERVAL_S


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind_listener(host: str, port: int) -> socket.socket:
    """A listening TCP socket; port 0 lets the OS pick a free port (read it from the socket)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise ServeError(f"cannot resolve host {host!r}: {exc.strerror}") from exc
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(socket.SOMAXCONN)
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
    return sock


def listener_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    if sock.family == socket.AF_INET6:
        host = f"[{host}]"
    return f"http://{host}:{port}"


class _StopSignals:
    """Records SIGINT/SIGTERM outside uvicorn's own handling (while the Node opens, and the
    signal uvicorn re-raises after its graceful shutdown) so neither kills the process
    before the Node is closed."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._previous[sig] = signal.signal(sig, self._handle)

    def restore(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    def _handle(self, sig: int, _frame: FrameType | None) -> None:
        self.received = sig


class _AnnouncingServer(uvicorn.Server):
    """Prints the ready line once uvicorn accepts requests, then calls `on_ready`."""

    def __init__(
        self, config: uvicorn.Config, url: str, stop: _StopSignals, on_ready: Callable[[], None]
    ) -> None:
        super().__init__(config)
        self._url = url
        self._stop = stop
        self._on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self._stop.received is not None:
            self.should_exit = True  # a signal arrived before uvicorn's handlers were in place
        if self.started and not self.should_exit:
            print(f"ready {self._url}", flush=True)
            self._on_ready()


def _prepare_data_dir(data_dir: Path) -> None:
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ServeError(f"cannot use data directory {data_dir}: {exc.strerror}") from exc
    if not data_dir.is_dir():
        raise ServeError(f"data path {data_dir} is not a directory")


def serve(options: ServeOptions) -> int:
    """Serve until a stop signal; returns the exit code (0 after a clean stop)."""
    if not logging.getLogger().handlers:
        logging.basicConfig(
            level=logging.INFO,
            stream=sys.stderr,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
    if not is_loopback(options.host):
        log.warning(
            "listening on %s, which is not loopback: other machines can reach the sandbox",
            options.host,
        )
    stop = _StopSignals()
    stop.install()
    try:
        if options.data_dir is not None:
            _prepare_data_dir(options.data_dir)
            _bind_and_serve(options, options.data_dir, stop)
        else:
            data_dir = Path(tempfile.mkdtemp(prefix="bidwallet-sandbox-"))
            log.info("data directory %s (temporary, removed at exit)", data_dir)
            try:
                _bind_and_serve(options, data_dir, stop)
            finally:
                shutil.rmtree(data_dir, ignore_errors=True)
    finally:
        stop.restore()
    return 0


def _bind_and_serve(options: ServeOptions, data_dir: Path, stop: _StopSignals) -> None:
    sock = bind_listener(options.host, options.port)
    try:
        _serve_on(sock, data_dir, options, stop)
    finally:
        sock.close()


def _serve_on(
    sock: socket.socket, data_dir: Path, options: ServeOptions, stop: _StopSignals
) -> None:
    settings = options.settings
    try:
        node = open_node(data_dir, options.chain_cache)
    except ChainError as exc:  # e.g. another sandbox holds the directory
        raise ServeError(f"cannot open the sandbox data in {data_dir}: {exc.message}") from exc
    timer: BlockTimer | None = None
    activity: MarketActivity | None = None
    try:
        if stop.received is not None:
            return
        if settings.block_interval_s is not None:
            timer = BlockTimer(node, settings.block_interval_s)
            timer.start()
        app = create_app(node, settings)
        activity = MarketActivity(
            app.state.market,
            demo=options.demo_market,
            sim_seed=options.market_sim_seed,
            sim_interval_s=options.market_sim_interval_s,
        )
        config = uvicorn.Config(
            app,
            # stdout carries only the ready line; logs reach stderr through the root logger.
            log_config=None,
            access_log=False,
            timeout_graceful_shutdown=_GRACEFUL_SHUTDOWN_S,
        )
        _AnnouncingServer(config, listener_url(sock), stop, activity.start).run(sockets=[sock])
    finally:
        if activity is not None:
            activity.stop()
        if timer is not None:
            timer.stop()
        node.close()
        log.info("sandbox stopped")
