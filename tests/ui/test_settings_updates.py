"""Settings changes made at the same time are all kept: each change is applied to the settings
as they are when its write's turn comes, not as they were when it was asked. A CI run on
9c6ef63 chose the dark theme while the demo wallet's key was being saved: the window turned
dark, and the file said System (the key's save had been computed before the theme's)."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace

from app.services.profiles import AppProfile, AppSettings, ProfileStore, Theme
from app.ui.context import AppContext
from app.ui.qa.harness import OptionsFactory
from app.ui.qa.loop import run_async


def test_a_change_waiting_for_another_write_keeps_what_that_write_changed(
    qloop: asyncio.AbstractEventLoop, make_options: OptionsFactory
) -> None:
    context = AppContext(make_options())
    profile = AppProfile.sandbox()
    saving = threading.Event()
    release = threading.Event()
    saved: list[AppSettings] = []
    store_save = context.store.save

    def held_save(settings: AppSettings) -> None:
        saving.set()
        release.wait(timeout=30)
        store_save(settings)
        saved.append(settings)

    context.store.save = held_save  # type: ignore[method-assign]

    async def both() -> None:
        first = asyncio.ensure_future(
            context.update_settings(lambda s: s.with_profile(profile).with_active(profile.name))
        )
        await asyncio.get_running_loop().run_in_executor(None, saving.wait, 30)
        # Asked while the first write is under way, from the settings as they are now.
        second = asyncio.ensure_future(
            context.update_settings(lambda s: replace(s, theme=Theme.DARK))
        )
        await asyncio.sleep(0)  # one turn of the loop (not a wait): the second reaches the lock
        release.set()
        await asyncio.gather(first, second)

    run_async(qloop, both())

    on_disk = ProfileStore(context.options.data_dir).load()
    assert on_disk.theme is Theme.DARK
    assert on_disk.get(profile.name) == profile and on_disk.active == profile.name
    assert context.settings == on_disk
    assert [s.theme for s in saved] == [Theme.SYSTEM, Theme.DARK]


def test_a_change_that_changes_nothing_writes_nothing(
    qloop: asyncio.AbstractEventLoop, make_options: OptionsFactory
) -> None:
    context = AppContext(make_options())
    writes: list[AppSettings] = []
    context.store.save = writes.append  # type: ignore[method-assign]
    run_async(qloop, context.update_settings(lambda s: s))
    run_async(qloop, context.update_settings(lambda s: replace(s, theme=Theme.DARK)))
    assert [s.theme for s in writes] == [Theme.DARK]
