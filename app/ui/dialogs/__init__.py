"""Dialogs: first run, key setup, unlock. Each is shown with `async_tools.exec_dialog`."""
