"""Every user-facing string of the desktop app, by screen (wording, later translation).

Messages a user can meet say what happened and what to do, in plain words. A message with a
count is a `Counted` pair (singular, plural) shown through `counted(message, n, ...)`, which
picks the form with gettext's plural rule: English by default, and a translation catalog
(domain "bidwallet") with its own plural forms when one is installed. No "(s)".

Callers use one namespace, `from app.ui import strings`; each screen's strings live in their
own module of this package.
"""

# ruff: noqa: F403
from app.ui.strings.animated_qr import *
from app.ui.strings.app_window import *
from app.ui.strings.bidding import *
from app.ui.strings.elsewhere import *
from app.ui.strings.listings_seller import *
from app.ui.strings.live_updates import *
from app.ui.strings.market import *
from app.ui.strings.plural import *
from app.ui.strings.plural import Counted as Counted
from app.ui.strings.plural import counted as counted
from app.ui.strings.psbt_flows import *
from app.ui.strings.qr_scan import *
from app.ui.strings.review import *
from app.ui.strings.strategies import *
from app.ui.strings.strategy_editor import *
