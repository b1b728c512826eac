"""Project-wide test setup. Package-specific fixtures live in tests/<package>/conftest.py."""

import atexit
import os
import shutil
import tempfile

from tests.support import loopback_only

# No test reaches a network beyond loopback (CI has none): lookups and connections refused.
loopback_only.install()

# Qt tests run without a display unless a test sets up Xvfb itself.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Nothing a test runs (the app, a child sandbox, the vault file) may write into the real user
# data directory: point it at a throwaway one unless a test chooses its own.
_data_dir = tempfile.mkdtemp(prefix="bidwallet-tests-")
atexit.register(shutil.rmtree, _data_dir, ignore_errors=True)
os.environ.setdefault("BIDWALLET_DATA_DIR", _data_dir)
