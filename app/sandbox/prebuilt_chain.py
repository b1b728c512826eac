"""A prebuilt demo chain for first starts: the SQLite file a fresh data directory gets after its
150 initial blocks and the demo data, kept in a cache directory and keyed by the sandbox's code.

A first start (an empty data directory) with a cached chain copies that file in and opens the
node on it with an empty kernel directory, so every block is handed to libbitcoinkernel again
(recovery.py's replay: a block the kernel refuses fails the open), and the indexes are rebuilt
from those blocks rather than taken from the cache. Without one it builds the chain as before
and caches it. A cached chain that is damaged, made by other code (its key differs) or refused
by the kernel is deleted with a warning naming the reason, and the chain is built afresh.

The key hashes the sources that decide the initial chain (app/sandbox/chain, demo.py, ...), so
any change to them builds a new chain; a bundle without sources uses the app's version and its
program file (size, time), which holds the bundled modules.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shutil
import sqlite3
import sys
from pathlib import Path
from typing import Final

from app.sandbox.chain.errors import ChainError
from app.sandbox.chain.node import Node
from app.sandbox.chain.store import Store

log = logging.getLogger(__name__)

_SANDBOX = Path(__file__).resolve().parent
# The code that decides what a fresh data directory holds once the node opened it.
_KEYED_SOURCES: Final = ("chain/*.py", "demo.py", "sqlite.py", "clock.py", "prebuilt_chain.py")
KEY_META: Final = "prebuilt_chain_key"
SUFFIX: Final = ".sqlite3"


class PrebuiltChainError(Exception):
    """The cached chain cannot be used (the message says why)."""


def chain_key() -> str:
    """What the cached chain must have been built by: a hash of the sandbox's sources."""
    digest = hashlib.sha256(b"bidwallet prebuilt chain v1\0")
    sources = sorted(p for pattern in _KEYED_SOURCES for p in _SANDBOX.glob(pattern))
    for path in sources:
        digest.update(path.relative_to(_SANDBOX).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    if not sources:  # a bundle without its sources: its version and build stand for its code
        from app import version

        program = Path(sys.executable).stat()  # the bundle's program holds its modules
        digest.update(f"{version()}\0{program.st_size}\0{program.st_mtime_ns}".encode())
    return digest.hexdigest()[:24]


def cached_chain_path(cache_dir: Path, key: str | None = None) -> Path:
    return cache_dir / f"demo-chain-{key or chain_key()}{SUFFIX}"


def _is_fresh(data_dir: Path) -> bool:
    return not (data_dir / Store.FILENAME).exists() and not (data_dir / "kernel").exists()


def open_node(data_dir: Path, cache_dir: Path | None) -> Node:
    """`Node.open(data_dir)`, from the cached chain in `cache_dir` when the data directory is
    new and one is there; a new chain is cached there. No cache_dir: `Node.open` alone."""
    if cache_dir is None or not _is_fresh(data_dir):
        return Node.open(data_dir)
    key = chain_key()
    cached = cached_chain_path(cache_dir, key)
    if cached.exists():
        try:
            return _open_from_cache(cached, key, data_dir)
        except (PrebuiltChainError, ChainError, sqlite3.Error, OSError) as exc:
            log.warning(
                "the cached demo chain %s was refused and is deleted (%s); building the "
                "chain from scratch",
                cached,
                _reason(exc),
            )
            _remove_node_files(data_dir)
            with contextlib.suppress(OSError):
                cached.unlink()
    node = Node.open(data_dir)
    save_to_cache(data_dir, cache_dir, key)
    return node


def _reason(exc: BaseException) -> str:
    return exc.message if isinstance(exc, ChainError) else str(exc)


def _open_from_cache(cached: Path, key: str, data_dir: Path) -> Node:
    data_dir.mkdir(parents=True, exist_ok=True)
    part = data_dir / (Store.FILENAME + ".part")
    shutil.copyfile(cached, part)
    try:
        _check_and_unindex(part, key)
        os.replace(part, data_dir / Store.FILENAME)
    finally:
        with contextlib.suppress(OSError):
            part.unlink()
    log.info(
        "first start from the cached demo chain %s: the kernel validates its blocks again "
        "and its indexes are rebuilt from them",
        cached,
    )
    return Node.open(data_dir)  # the new kernel is handed every block (recovery's replay)


def _check_and_unindex(path: Path, key: str) -> None:
    """Refuse a copy made by other code or never finished; drop its index version so the
    node rebuilds the indexes from the (kernel-validated) blocks."""
    conn = sqlite3.connect(path)
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        if meta.get(KEY_META) != key:
            raise PrebuiltChainError(
                f"it was built by other sandbox code (key {meta.get(KEY_META)!r}, expected {key!r})"
            )
        if meta.get("initialized") != "1":
            raise PrebuiltChainError("its demo data was never completed")
        with conn:
            conn.execute("DELETE FROM meta WHERE key = 'index_version'")
    finally:
        conn.close()


def save_to_cache(data_dir: Path, cache_dir: Path, key: str) -> None:
    """Copy the just-built chain of `data_dir` into the cache (atomically; best effort: a
    failure is logged) and remove chains cached by other code."""
    target = cached_chain_path(cache_dir, key)
    part = target.with_name(f"{target.name}.{os.getpid()}.part")
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        source = sqlite3.connect(f"file:{data_dir / Store.FILENAME}?mode=ro", uri=True)
        dest = sqlite3.connect(part)
        try:
            source.backup(dest)
            with dest:
                dest.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (KEY_META, key)
                )
        finally:
            source.close()
            dest.close()
        os.replace(part, target)
    except (sqlite3.Error, OSError) as exc:
        log.warning("could not cache the demo chain in %s: %s", cache_dir, exc)
        with contextlib.suppress(OSError):
            part.unlink()
        return
    for other in cache_dir.glob(f"demo-chain-*{SUFFIX}"):
        if other != target:
            with contextlib.suppress(OSError):
                other.unlink()
    log.info("cached the demo chain in %s", target)


def _remove_node_files(data_dir: Path) -> None:
    """What a failed open from the cache left: the SQLite files and the kernel directory."""
    for name in (Store.FILENAME, Store.FILENAME + "-wal", Store.FILENAME + "-shm"):
        with contextlib.suppress(OSError):
            (data_dir / name).unlink()
    shutil.rmtree(data_dir / "kernel", ignore_errors=True)
