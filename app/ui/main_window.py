"""The main window: tabs from the registry, menus with shortcuts, the status bar, the idle
lock, and the window state kept in QSettings."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QSize, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QMainWindow, QMessageBox, QTabWidget, QVBoxLayout, QWidget

from app import version
from app.ui import strings
from app.ui.context import AppContext
from app.ui.controller import AppController
from app.ui.icons import app_icon, icon, refresh_themed_icons
from app.ui.idle_lock import IdleLockWatcher
from app.ui.notifications import Notifier
from app.ui.state.market_watch import MarketWatch
from app.ui.state.strategy_state import StrategyState
from app.ui.status_bar import AppStatusBar
from app.ui.strategy_notice_text import notice_text
from app.ui.tabs import TabSpec

if TYPE_CHECKING:
    from app.services.strategy_notices import StrategyNotice

# The first size (until the user resizes it): it fits a 1366x768 laptop's screen less a
# taskbar and the title bar, and shows every tab without a horizontal scroll bar. Smaller
# screens get their available area. Below the minimum the menus and the status bar clip.
DEFAULT_SIZE = QSize(1280, 690)
MINIMUM_SIZE = QSize(720, 520)
_GEOMETRY_KEY = "window/geometry"
_STATE_KEY = "window/state"
_TAB_KEY = "window/tab"


class _TabSlot(QWidget):
    """Holds a tab's place until it is first shown or asked for: building every tab (and then
    restyling all of them on a theme change) up front kept the event loop busy for 200-500 ms.
    A tab built later starts from what is already known (its shared state's last view)."""

    def __init__(self) -> None:
        super().__init__()
        self.content: QWidget | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

    def fill(self, content: QWidget) -> None:
        self.content = content
        layout = self.layout()
        assert layout is not None
        layout.addWidget(content)
        if self.isVisible():  # shown now, not on the layout's next pass: focus works at once
            content.show()


class MainWindow(QMainWindow):
    close_requested = Signal()

    def __init__(
        self, context: AppContext, controller: AppController, tabs: Sequence[TabSpec]
    ) -> None:
        super().__init__()
        self.context = context
        self.controller = controller
        self._tasks: set[asyncio.Task[object]] = set()
        self.setWindowTitle(
            strings.OFFLINE_WINDOW_TITLE if context.options.offline else strings.WINDOW_TITLE
        )
        self.setWindowIcon(app_icon())
        self.setObjectName("main_window")
        self.tab_specs = tuple(tabs)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        for spec in self.tab_specs:
            self.tabs.addTab(_TabSlot(), icon(spec.icon), spec.title)
        self.tabs.currentChanged.connect(self._built)
        self.setCentralWidget(self.tabs)
        self.status = AppStatusBar(context, self)
        self.setStatusBar(self.status)
        self.status.lock_button.clicked.connect(self._toggle_lock)
        self._build_menus()
        self.idle_lock = IdleLockWatcher(context.wallet_lock, context.options.idle_tick_ms, self)
        self.idle_lock.locked_by_idle.connect(self._locked_by_idle)
        # Live updates: fills, sales, expiries... shown without Refresh, told by the tray.
        self.notifier = Notifier(context, self)
        MarketWatch.of(context).notifier = self.notifier
        strategies = StrategyState.of(context)
        strategies.notice.connect(self._strategy_notice)  # fills, outbids, a pool stopped
        strategies.stopped_by_lock.connect(self._strategies_stopped_by_lock)
        controller.before_shutdown.append(strategies.close)  # engines stop after their step
        context.theme_changed.connect(self._refresh_icons)
        context.lock_changed.connect(self._refresh_actions)
        context.profile_changed.connect(self._refresh_actions)
        self._refresh_actions()
        self.setMinimumSize(MINIMUM_SIZE)
        self.resize(self._default_size())
        self.restore_state()
        self._built(self.tabs.currentIndex())

    def _built(self, index: int) -> QWidget:
        """The tab at `index`, built now if it never was."""
        slot = self.tabs.widget(index)
        assert isinstance(slot, _TabSlot)
        if slot.content is None:
            slot.fill(self.tab_specs[index].build(self.context, self.controller, slot))
        assert slot.content is not None
        return slot.content

    def _index(self, key: str) -> int:
        for index, spec in enumerate(self.tab_specs):
            if spec.key == key:
                return index
        raise KeyError(key)

    def tab(self, key: str) -> QWidget:
        """The widget of tab `key` (built on first use)."""
        return self._built(self._index(key))

    def current_tab(self) -> QWidget:
        return self._built(self.tabs.currentIndex())

    def show_tab(self, key: str) -> None:
        self.tabs.setCurrentIndex(self._index(key))

    # -- menus and shortcuts ----------------------------------------------------------------

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(strings.MENU_FILE)
        self.lock_action = QAction(icon("lock"), strings.ACTION_LOCK, self)
        self.lock_action.setShortcut(QKeySequence("Ctrl+L"))
        self.lock_action.triggered.connect(self.controller.lock)
        self.unlock_action = QAction(icon("unlock"), strings.ACTION_UNLOCK, self)
        self.unlock_action.setShortcut(QKeySequence("Ctrl+U"))
        self.unlock_action.triggered.connect(self._unlock)
        quit_action = QAction(strings.ACTION_QUIT, self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        for action in (self.lock_action, self.unlock_action):
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(quit_action)

        view_menu = self.menuBar().addMenu(strings.MENU_VIEW)
        for index, spec in enumerate(self.tab_specs[:9]):
            action = QAction(spec.title, self)
            action.setShortcut(QKeySequence(f"Ctrl+{index + 1}"))
            action.triggered.connect(lambda _=False, i=index: self.tabs.setCurrentIndex(i))
            view_menu.addAction(action)
        for keys, step in (("Ctrl+Tab", 1), ("Ctrl+Shift+Tab", -1)):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.activated.connect(lambda step=step: self._cycle_tab(step))

        help_menu = self.menuBar().addMenu(strings.MENU_HELP)
        about = QAction(strings.ACTION_ABOUT, self)
        about.triggered.connect(self._about)
        help_menu.addAction(about)

    def _cycle_tab(self, step: int) -> None:
        count = self.tabs.count()
        self.tabs.setCurrentIndex((self.tabs.currentIndex() + step) % count)

    def _about(self) -> None:
        box = QMessageBox(self)
        box.setWindowTitle(strings.ACTION_ABOUT.replace("&", ""))
        box.setText(strings.ABOUT_TEXT.format(version=version()))
        box.setIconPixmap(app_icon().pixmap(64, 64))
        box.open()

    def _refresh_actions(self, *_: object) -> None:
        profile = self.context.profile
        has_key = profile is not None and profile.key_name is not None
        unlocked = self.context.wallet_lock.unlocked
        self.lock_action.setEnabled(unlocked)
        self.unlock_action.setEnabled(has_key and not unlocked)

    def _refresh_icons(self, *_: object) -> None:
        for index, spec in enumerate(self.tab_specs):
            self.tabs.setTabIcon(index, icon(spec.icon))
        self.lock_action.setIcon(icon("lock"))
        self.unlock_action.setIcon(icon("unlock"))
        refresh_themed_icons()

    def _toggle_lock(self) -> None:
        if self.context.wallet_lock.unlocked:
            self.controller.lock()
        else:
            self._unlock()

    def _unlock(self) -> None:
        self.run(self.controller.unlock())

    def run(self, coro: Coroutine[Any, Any, object]) -> asyncio.Task[object]:
        """Run a controller coroutine from a plain slot, keeping a reference until it ends."""
        task: asyncio.Task[object] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[object]) -> None:
        self._tasks.discard(task)
        error = None if task.cancelled() else task.exception()
        if error is not None:  # same route as @asyncSlot handlers: the app's excepthook
            sys.excepthook(type(error), error, error.__traceback__)

    def _strategy_notice(self, notice: StrategyNotice) -> None:
        self.notifier.notify(*notice_text(notice))

    def _strategies_stopped_by_lock(self, count: int) -> None:
        """A lock (often the idle one) stopped strategies: said even with the window hidden."""
        text = strings.counted(strings.STOPPED_BY_LOCK_TEXT, count)
        self.notifier.notify(strings.STOPPED_BY_LOCK_TITLE, text)

    def _locked_by_idle(self) -> None:
        minutes = max(1, round(self.context.wallet_lock.timeout_s / 60))
        self.context.info(strings.LOCKED_AFTER_IDLE.format(minutes=minutes))

    # -- window state -----------------------------------------------------------------------

    def _default_size(self) -> QSize:
        """DEFAULT_SIZE, or less on a screen whose free area is smaller."""
        screen = self.screen()
        if screen is None:
            return DEFAULT_SIZE
        return DEFAULT_SIZE.boundedTo(screen.availableSize()).expandedTo(MINIMUM_SIZE)

    def restore_state(self) -> None:
        settings = self.context.window_settings()
        geometry = settings.value(_GEOMETRY_KEY)
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = settings.value(_STATE_KEY)
        if isinstance(state, QByteArray):
            self.restoreState(state)
        tab = settings.value(_TAB_KEY)
        if tab is not None and str(tab).isdigit() and int(str(tab)) < self.tabs.count():
            self.tabs.setCurrentIndex(int(str(tab)))

    def save_state(self) -> None:
        settings = self.context.window_settings()
        settings.setValue(_GEOMETRY_KEY, self.saveGeometry())
        settings.setValue(_STATE_KEY, self.saveState())
        settings.setValue(_TAB_KEY, self.tabs.currentIndex())
        settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        self.idle_lock.stop()
        MarketWatch.of(self.context).stop()
        self.notifier.close()
        self.close_requested.emit()
        event.accept()
