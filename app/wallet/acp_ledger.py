"""The ledger of our live ANYONECANPAY signatures: one JSON file per machine.

Every ALL|ANYONECANPAY signature this machine makes is recorded here BEFORE it is made (a crash
between the two leaves a harmless extra entry; the other order could leave a live signature
unrecorded). A batch that knows some of its signatures were never made (cancelled, or failing
part-way) withdraws exactly the entries it added for them (`withdraw`). A new signature whose
commitment equals a live one's on another input is refused (`app.core.acp_composition`): the two
could be spent together in one transaction that pays once. An entry ends only when its input is
spent on the chain (`forget`, called by the services after asking the chain), never because the
service says a listing ended: a signature stays valid while its input is unspent. An entry whose
coin our own move spends (ending its listing) is marked with that move's txid (`mark_spent`):
still live, it no longer collides with a signature over an output of that move (the item
relisted there), since the two coins never exist unspent together.

One ledger for every profile of the machine, not one per key: two profiles' listings can
combine too, when they pay the same receive address. Writes are atomic (temp file, fsync,
rename) and serialised across processes with an flock, so the app and an offline signer on
one machine never lose each other's entries.
"""

from __future__ import annotations

import fcntl
import json
import re
import secrets
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from app.core.acp_composition import AcpSignature, Collision, collisions
from app.wallet.vault_file_store import write_atomically

FILE_FORMAT: Final = "bidwallet-acp-ledger"
FILE_VERSION: Final = 1
LEDGER_FILE: Final = "acp-signatures.json"
_TXID: Final = re.compile(r"[0-9a-f]{64}")


class AcpLedgerError(Exception):
    """The ledger file cannot be read or written: nothing is signed with ANYONECANPAY."""


class AcpCollisionError(AcpLedgerError):
    """New signatures would combine with live ones (or with each other)."""

    def __init__(self, found: Sequence[Collision]) -> None:
        self.collisions = tuple(found)
        super().__init__(found[0].refusal().message)


class AcpLedger:
    """The live ANYONECANPAY signatures made on one machine, in `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def live(self) -> tuple[AcpSignature, ...]:
        with self._locked():
            return tuple(self._read())

    def check(self, signatures: Sequence[AcpSignature]) -> tuple[Collision, ...]:
        """Collisions of `signatures` with the live ones and among themselves (nothing kept)."""
        return collisions(signatures, self.live())

    def record(
        self, signatures: Sequence[AcpSignature], claim: str | None = None
    ) -> tuple[AcpSignature, ...]:
        """Add `signatures` atomically, or none of them (`AcpCollisionError`). Returns the
        entries this call added, under `claim` (a batch passes one token to all its calls; a
        fresh one otherwise): one recorded already is not added again, and only what was added
        may be `withdraw`n. A known entry recorded under another claim becomes shared: another
        flow made (or will make) that very signature, so no withdraw may drop it."""
        if not signatures:
            return ()
        claim = claim or secrets.token_hex(8)
        with self._locked():
            entries = self._read()
            found = collisions(signatures, entries)
            if found:
                raise AcpCollisionError(found)
            asked = {(s.outpoint, s.commitment) for s in signatures}
            shared = [
                replace(e, claim="")
                if (e.outpoint, e.commitment) in asked and e.claim not in ("", claim)
                else e
                for e in entries
            ]
            known = {(e.outpoint, e.commitment) for e in entries}
            new = tuple(
                replace(s, claim=claim)
                for s in dict.fromkeys(
                    s for s in signatures if (s.outpoint, s.commitment) not in known
                )
            )
            # a batch recorded up front is found again, unchanged, item by item
            if new or any(a.claim != b.claim for a, b in zip(entries, shared, strict=True)):
                self._write(shared + list(new))
            return new

    def withdraw(self, recorded: Iterable[AcpSignature]) -> int:
        """Drop entries `record` added whose signatures were then never made (a batch cancelled
        or failing part-way); returns how many were dropped. Matched by input and commitment,
        never by input alone: another signature of the same coin stays, and so does one another
        flow recorded too since (its claim is no longer the one `record` returned)."""
        unmade = {(s.outpoint, s.commitment, s.claim) for s in recorded if s.claim}
        if not unmade:
            return 0
        with self._locked():
            entries = self._read()
            kept = [e for e in entries if (e.outpoint, e.commitment, e.claim) not in unmade]
            if len(kept) != len(entries):
                self._write(kept)
            return len(entries) - len(kept)

    def mark_spent(self, outpoint: str, txid: str) -> int:
        """Note that our transaction `txid` spends `outpoint` (the move ending its listing):
        its entries stay live, but no longer collide with a coin `txid` creates (the item
        relisted there). Returns how many entries were marked."""
        with self._locked():
            entries = self._read()
            marked = [replace(e, spent_by=txid) if e.outpoint == outpoint else e for e in entries]
            changed = sum(1 for a, b in zip(entries, marked, strict=True) if a != b)
            if changed:
                self._write(marked)
            return changed

    def forget(self, spent_outpoints: Iterable[str]) -> int:
        """Drop the entries whose input is spent; returns how many were dropped."""
        spent = set(spent_outpoints)
        if not spent:
            return 0
        with self._locked():
            entries = self._read()
            kept = [e for e in entries if e.outpoint not in spent]
            if len(kept) != len(entries):
                self._write(kept)
            return len(entries) - len(kept)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle = open(self.path.with_suffix(".lock"), "a+b")  # noqa: SIM115
        except OSError as exc:
            raise AcpLedgerError(f"cannot open the signature ledger: {exc.strerror}") from exc
        with handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def _read(self) -> list[AcpSignature]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        except (OSError, UnicodeDecodeError) as exc:
            raise AcpLedgerError(f"cannot read the signature ledger {self.path}") from exc
        try:
            doc: Any = json.loads(text)
        except ValueError:
            raise AcpLedgerError(f"the signature ledger {self.path} is not JSON") from None
        if not isinstance(doc, dict) or doc.get("format") != FILE_FORMAT:
            raise AcpLedgerError(f"{self.path} is not a Bidwallet signature ledger")
        if doc.get("version") != FILE_VERSION:
            raise AcpLedgerError(f"{self.path} has version {doc.get('version')!r}")
        raw = doc.get("entries")
        if not isinstance(raw, list):
            raise AcpLedgerError(f"the signature ledger {self.path} has no entry list")
        return [_entry(item, self.path) for item in raw]

    def _write(self, entries: Sequence[AcpSignature]) -> None:
        doc = {
            "format": FILE_FORMAT,
            "version": FILE_VERSION,
            "entries": [_entry_json(e) for e in entries],
            "written_at": int(time.time()),
        }
        try:
            write_atomically(self.path, json.dumps(doc, indent=1).encode("utf-8"))
        except OSError as exc:
            raise AcpLedgerError(f"cannot write the signature ledger: {exc.strerror}") from exc

    def __repr__(self) -> str:
        return f"AcpLedger({str(self.path)!r})"


def _entry_json(e: AcpSignature) -> dict[str, str]:
    entry = {"outpoint": e.outpoint, "commitment": e.commitment, "label": e.label}
    if e.spent_by:  # optional: an older reader ignores it (and only refuses more)
        entry["spentBy"] = e.spent_by
    if e.claim:  # optional too: an older writer drops it, and the entry is never withdrawn
        entry["claim"] = e.claim
    return entry


def _entry(item: Any, path: Path) -> AcpSignature:
    if not isinstance(item, dict):
        raise AcpLedgerError(f"the signature ledger {path} has a malformed entry")
    outpoint, commitment, label = item.get("outpoint"), item.get("commitment"), item.get("label")
    if not isinstance(outpoint, str) or not isinstance(commitment, str) or len(commitment) != 64:
        raise AcpLedgerError(f"the signature ledger {path} has a malformed entry")
    spent_by = item.get("spentBy")
    if not (isinstance(spent_by, str) and _TXID.fullmatch(spent_by)):
        spent_by = ""  # absent or malformed: the entry collides as before (a safe default)
    claim = item.get("claim")
    return AcpSignature(
        outpoint,
        commitment,
        label if isinstance(label, str) else "",
        spent_by,
        claim if isinstance(claim, str) else "",
    )
