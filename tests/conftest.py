"""Project-wide test setup. Package-specific fixtures live in tests/<package>/conftest.py."""

import os

# Qt tests run without a display unless a test sets up Xvfb itself.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
