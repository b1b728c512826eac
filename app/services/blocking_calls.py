"""The functions that block the calling thread for long: the window must call them from an
executor, never on the GUI thread. The QA stall detector (app/ui/qa/gui_thread.py) watches
exactly these; a new blocking path belongs in this list."""

from __future__ import annotations

import os
import subprocess
import time

import httpx

from app.wallet import psbt_signer, vault_crypto


def blocking_calls() -> list[tuple[object, str, str]]:
    """(owner, attribute, what it does) of every blocking function watched."""
    return [
        (psbt_signer, "_plan", "signing a PSBT input"),
        (vault_crypto, "hash_secret_raw", "deriving the vault key (Argon2id)"),
        (os, "fsync", "a durable file write (fsync)"),
        (time, "sleep", "a sleep"),
        (httpx.Client, "send", "a synchronous HTTP request"),
        (subprocess, "run", "running a subprocess"),
    ]
