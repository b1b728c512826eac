"""The activity log: every request the app makes and its result.

One JSON object per line in `<profile dir>/activity.jsonl`, appended as things happen and read
back at the next start. Everything written passes `redact` first: fields whose name says
"secret" are dropped, and values that look like a mnemonic, a WIF, an extended private key, a
bearer token or a known secret (the API key) are replaced, wherever they appear in the text.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from app.net.errors import HttpError, NetError, TransportError

log = logging.getLogger(__name__)

ACTIVITY_FILE_NAME: Final = "activity.jsonl"
REDACTED: Final = "[redacted]"
MAX_ENTRIES: Final = 5000
# In `details` of the entry a PSBT review closed without signing records (its result: cancelled).
REVIEW_CANCELLED: Final = "reviewCancelled"
_MAX_TEXT: Final = 2000

# Field names whose values are never kept, whatever they hold.
_SECRET_NAME = re.compile(
    r"pass(word|phrase)?|mnemonic|seed|wif|xprv|priv|secret|api[-_]?key|token|authori[sz]ation"
    r"|unlock[-_]?key|cookie",
    re.IGNORECASE,
)
_B58 = "1-9A-HJ-NP-Za-km-z"
_SECRET_PATTERNS: Final = (
    # Extended private keys of every SLIP-132 flavour (xprv, tprv, yprv, zprv, ...).
    re.compile(rf"\b[xtyzuvYZUV]prv[{_B58}]{{100,112}}\b"),
    # WIF private keys: 51 (uncompressed) or 52 (compressed) base58 characters.
    re.compile(rf"\b[5KLc9][{_B58}]{{50,51}}\b"),
    re.compile(r"\bBearer\s+[A-Za-z0-9._~+/=-]+", re.IGNORECASE),
)
_WORD = re.compile(r"[a-z]+")
_MNEMONIC_MIN_WORDS: Final = 12


def _bip39_words() -> frozenset[str]:
    from embit.wordlists.bip39 import WORDLIST  # a constant table; embit's import is light

    return frozenset(WORDLIST)


class _Redactor:
    """Replaces secrets in text; `known` holds exact secret values (API keys) to remove too."""

    def __init__(self, known: Iterable[str] = ()) -> None:
        self._known: set[str] = {value for value in known if len(value) >= 4}
        self._words = _bip39_words()

    def add_known(self, value: str) -> None:
        if len(value) >= 4:
            self._known.add(value)

    def text(self, value: str) -> str:
        for secret in self._known:
            value = value.replace(secret, REDACTED)
        for pattern in _SECRET_PATTERNS:
            value = pattern.sub(REDACTED, value)
        value = self._mnemonic_runs(value)
        return value if len(value) <= _MAX_TEXT else value[:_MAX_TEXT] + "..."

    def _mnemonic_runs(self, value: str) -> str:
        """Replace any run of 12 or more BIP-39 words (case-insensitive, any separators)."""
        lowered = value.lower()
        words = list(_WORD.finditer(lowered))
        spans: list[tuple[int, int]] = []
        run: list[re.Match[str]] = []
        for match in [*words, None]:
            if match is not None and match.group() in self._words:
                run.append(match)
                continue
            if len(run) >= _MNEMONIC_MIN_WORDS:
                spans.append((run[0].start(), run[-1].end()))
            run = []
        for start, end in reversed(spans):
            value = value[:start] + REDACTED + value[end:]
        return value

    def value(self, value: Any, depth: int = 0) -> Any:
        if depth > 8:
            return REDACTED  # deeper than anything we log: do not walk it
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, bool | int | float) or value is None:
            return value
        if isinstance(value, Mapping):
            return {
                str(k): (REDACTED if _SECRET_NAME.search(str(k)) else self.value(v, depth + 1))
                for k, v in value.items()
            }
        if isinstance(value, list | tuple | set | frozenset):
            return [self.value(item, depth + 1) for item in value]
        return self.text(repr(value))


def redact(value: Any, known_secrets: Iterable[str] = ()) -> Any:
    """`value` (str, number, mapping, list) with every secret-looking part removed."""
    return _Redactor(known_secrets).value(value)


@dataclass(frozen=True)
class ActivityEntry:
    """One request (or step) and its result."""

    at: datetime
    action: str
    ok: bool
    message: str = ""
    error_code: str | None = None
    txid: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at.isoformat(),
            "action": self.action,
            "ok": self.ok,
            "message": self.message,
            "errorCode": self.error_code,
            "txid": self.txid,
            "details": dict(self.details),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ActivityEntry:
        at = datetime.fromisoformat(str(data["at"]))
        details = data.get("details") or {}
        return cls(
            at=at if at.tzinfo else at.replace(tzinfo=UTC),
            action=str(data["action"]),
            ok=bool(data["ok"]),
            message=str(data.get("message") or ""),
            error_code=_opt_str(data.get("errorCode")),
            txid=_opt_str(data.get("txid")),
            details=details if isinstance(details, dict) else {},
        )


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


@dataclass
class TrackedResult:
    """What a `track` block fills in on success."""

    message: str = ""
    txid: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


Listener = Callable[[ActivityEntry], None]


class ActivityLog:
    """The log of one profile. Not thread-safe: record from the event loop thread."""

    def __init__(
        self,
        path: Path,
        *,
        known_secrets: Iterable[str] = (),
        max_entries: int = MAX_ENTRIES,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._path = path
        self._redactor = _Redactor(known_secrets)
        self._max = max_entries
        self._clock = clock
        self._listeners: list[Listener] = []
        self._entries = self._load()

    @classmethod
    def in_dir(cls, directory: Path, **kwargs: Any) -> ActivityLog:
        return cls(directory / ACTIVITY_FILE_NAME, **kwargs)

    @property
    def path(self) -> Path:
        return self._path

    def entries(self) -> list[ActivityEntry]:
        return list(self._entries)

    def add_known_secret(self, value: str) -> None:
        """Remove this exact value (e.g. the API key) from everything recorded from now on."""
        self._redactor.add_known(value)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` with each new entry; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def record(
        self,
        action: str,
        *,
        ok: bool,
        message: str = "",
        error_code: str | None = None,
        txid: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> ActivityEntry:
        r = self._redactor
        entry = ActivityEntry(
            at=self._clock(),
            action=r.text(action),
            ok=ok,
            message=r.text(message),
            error_code=None if error_code is None else r.text(error_code),
            txid=None if txid is None else r.text(txid),
            details=r.value(dict(details or {})),
        )
        self._append(entry)
        for listener in list(self._listeners):
            listener(entry)
        return entry

    def record_error(self, action: str, error: BaseException, **details: Any) -> ActivityEntry:
        code, message = describe_error(error)
        return self.record(action, ok=False, message=message, error_code=code, details=details)

    @asynccontextmanager
    async def track(self, action: str, **details: Any) -> AsyncIterator[TrackedResult]:
        """Record the block's outcome: its `TrackedResult` on success, the error (re-raised)
        with its errorCode and message on failure."""
        result = TrackedResult()
        try:
            yield result
        except Exception as exc:
            self.record_error(action, exc, **{**details, **result.details})
            raise
        self.record(
            action,
            ok=True,
            message=result.message,
            txid=result.txid,
            details={**details, **result.details},
        )

    # -- storage ---------------------------------------------------------------------------

    def _append(self, entry: ActivityEntry) -> None:
        self._entries.append(entry)
        line = json.dumps(entry.to_json(), ensure_ascii=False, separators=(",", ":"))
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            with self._path.open("a", encoding="utf-8") as handle:
                handle.write(line + "\n")
        except OSError as exc:  # the log must never break the action it records
            log.warning("cannot append to %s: %s", self._path, exc.strerror)
        if len(self._entries) > self._max * 6 // 5:
            self._entries = self._entries[-self._max :]
            self._rewrite()

    def _load(self) -> list[ActivityEntry]:
        try:
            lines = self._path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("cannot read %s: %s", self._path, type(exc).__name__)
            return []
        entries = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                entries.append(ActivityEntry.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError):
                log.warning("skipping damaged line %d of %s", number, self._path)
        return entries[-self._max :]

    def _rewrite(self) -> None:
        from app.wallet.vault_file_store import write_atomically

        text = "".join(
            json.dumps(e.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n"
            for e in self._entries
        )
        try:
            write_atomically(self._path, text.encode("utf-8"))
        except OSError as exc:
            log.warning("cannot trim %s: %s", self._path, exc.strerror)


def describe_error(error: BaseException) -> tuple[str | None, str]:
    """(errorCode, plain message) of an exception, for the log and the Activity tab."""
    if isinstance(error, HttpError):
        return error.error_code, f"{error.message} (HTTP {error.status})"
    if isinstance(error, TransportError):
        return None, f"{error.service}: {error.reason}"
    if isinstance(error, NetError):
        return None, str(error)
    code = getattr(error, "error_code", None)
    text = str(error) or type(error).__name__
    return (code if isinstance(code, str) else None), text
