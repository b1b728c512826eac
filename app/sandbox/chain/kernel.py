"""libbitcoinkernel (py-bitcoinkernel, `pbk`) behind a small interface of plain Python values.

No pbk object escapes this module: views into the chainstate manager must not outlive it, and
`close()` destroys it (which flushes the chainstate; a SIGKILL loses whatever the kernel had
not flushed, which is why the sandbox keeps every block in SQLite and replays it on open).
"""

from __future__ import annotations

import collections
import contextlib
import gc
import logging
import threading
from collections.abc import Sequence
from pathlib import Path

import pbk
from pbk.script import PrecomputedTransactionData

from app.sandbox.chain.errors import BlockRejected, StorageError
from app.sandbox.chain.rawtx import ParsedTx

log = logging.getLogger("app.sandbox.kernel")

SCRIPT_FLAGS = pbk.ScriptVerificationFlags.ALL  # P2SH DERSIG NULLDUMMY CLTV CSV WITNESS TAPROOT


class _KernelLog:
    """The kernel's log is process-wide; keep the recent lines to explain rejections."""

    def __init__(self) -> None:
        self._lines: collections.deque[tuple[int, str]] = collections.deque(maxlen=400)
        self._count = 0
        self._lock = threading.Lock()
        self._connection = pbk.LoggingConnection(self._on_line)  # must stay referenced

    def _on_line(self, line: str) -> None:
        text = line.rstrip("\n")
        with self._lock:
            self._count += 1
            self._lines.append((self._count, text))
        log.debug("%s", text)

    def mark(self) -> int:
        with self._lock:
            return self._count

    def errors_since(self, mark: int) -> list[str]:
        with self._lock:
            lines = [text for n, text in self._lines if n > mark]
        return [t for t in lines if "[error]" in t or "FAILED" in t or "invalid" in t]


_log_singleton: _KernelLog | None = None
_log_lock = threading.Lock()


def _kernel_log() -> _KernelLog:
    global _log_singleton
    with _log_lock:
        if _log_singleton is None:
            _log_singleton = _KernelLog()
        return _log_singleton


class Kernel:
    """One ChainstateManager on `directory` (`blocks/` and `chainstate/` inside it)."""

    _chainman: pbk.ChainstateManager | None

    def __init__(self, directory: Path) -> None:
        self._log = _kernel_log()
        self._directory = directory
        self._chainman = self._load(directory)

    @staticmethod
    def _load(directory: Path) -> pbk.ChainstateManager:
        directory.mkdir(parents=True, exist_ok=True)
        context = pbk.make_context(pbk.ChainType.REGTEST)
        options = pbk.ChainstateManagerOptions(
            context, str(directory.absolute()), str((directory / "blocks").absolute())
        )
        try:
            return pbk.ChainstateManager(options)
        except RuntimeError:
            raise StorageError(
                f"the kernel could not open {directory} (in use by another process?)",
                "DATA_DIR_BUSY",
            ) from None

    @property
    def _cm(self) -> pbk.ChainstateManager:
        if self._chainman is None:
            raise StorageError("the kernel is closed", "NODE_CLOSED")
        return self._chainman

    def checkpoint(self) -> None:
        """Flush the chainstate to disk (the kernel only flushes when destroyed or when its
        caches fill), so a crash later needs to replay only the blocks after this point."""
        self.close()
        self._chainman = self._load(self._directory)

    def close(self) -> None:
        """Destroy the chainstate manager (it flushes to disk on the way out)."""
        if self._chainman is not None:
            self._chainman = None
            gc.collect()

    def tip(self) -> tuple[int, str]:
        chain = self._cm.get_active_chain()
        height = chain.height
        entry = chain.block_tree_entries[height]
        return height, str(entry.block_hash)

    def block_hash_at(self, height: int) -> str | None:
        chain = self._cm.get_active_chain()
        if height < 0 or height > chain.height:
            return None
        return str(chain.block_tree_entries[height].block_hash)

    def read_block(self, height: int) -> bytes:
        chain = self._cm.get_active_chain()
        entry = chain.block_tree_entries[height]
        return bytes(self._cm.blocks[entry])

    def submit_block(self, raw: bytes, expected_hash: str) -> None:
        """Hand a block to the kernel; BlockRejected unless it becomes the new tip.

        process_block only raises when the block fails the checks done before it is stored;
        a block that fails when connected (e.g. a bad script) is stored as invalid and the tip
        stays put, so the tip is what we check.
        """
        mark = self._log.mark()
        try:
            block = pbk.Block(raw)
        except RuntimeError:
            raise BlockRejected("the kernel could not decode the block", "decode-failed") from None
        # A failure is reported below, with the kernel's own reason.
        with contextlib.suppress(pbk.ProcessBlockException):
            self._cm.process_block(block)
        _, tip_hash = self.tip()
        if tip_hash != expected_hash:
            reasons = self._log.errors_since(mark)
            reason = _short_reason(reasons)
            raise BlockRejected(
                f"libbitcoinkernel rejected block {expected_hash}: {reason}", reason
            )

    def failing_input(self, tx: ParsedTx, spent: Sequence[tuple[int, bytes]]) -> int | None:
        """Index of the first input whose script fails Core's interpreter, or None.

        `spent` holds (value, scriptPubKey) of every spent output, in input order; taproot
        signatures commit to all of them, so they go into the precomputed data.
        """
        ktx = pbk.Transaction(tx.raw)
        outputs = [pbk.TransactionOutput(pbk.ScriptPubkey(spk), value) for value, spk in spent]
        precomputed = PrecomputedTransactionData(ktx, outputs)
        for index, (value, spk) in enumerate(spent):
            try:
                ok = pbk.ScriptPubkey(spk).verify(value, ktx, precomputed, index, SCRIPT_FLAGS)
            except pbk.ScriptVerifyException:
                ok = False
            if not ok:
                return index
        return None


def _short_reason(lines: list[str]) -> str:
    """The most specific reason in the kernel's log lines, e.g. 'bad-cb-amount, coinbase ...'."""
    for line in lines:
        if "ConnectBlock" in line and "failed," in line:
            return line.split("failed,", 1)[1].strip()
    for line in lines:
        if "FAILED" in line:
            return line.split("FAILED", 1)[1].strip(" ()") or line
    return lines[0].split("Z ", 1)[-1] if lines else "no reason logged"
