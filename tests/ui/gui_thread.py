"""Moved to the QA plugin (app/ui/qa/gui_thread.py); kept until every import names it there."""

from app.ui.qa.gui_thread import GuiThreadWatch as GuiThreadWatch
