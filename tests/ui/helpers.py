"""Moved to the QA plugin (app/ui/qa/loop.py); kept until every import names it there."""

from app.services.qa_vault import MemoryKeyring as MemoryKeyring
from app.ui.qa.loop import FakeClock as FakeClock
from app.ui.qa.loop import run_async as run_async
from app.ui.qa.loop import running as running
