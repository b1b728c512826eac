"""Moved to app/services/qa_vault.py (the QA plugin uses them); kept until every import names
it there."""

from app.services.qa_vault import QA_KDF as FAST_KDF
from app.services.qa_vault import MemoryKeyring as MemoryKeyring

__all__ = ["FAST_KDF", "MemoryKeyring"]
