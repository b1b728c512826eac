"""The sandbox profile's start: the child process, then (first time) a demo key marked
"sandbox only", funded from the faucet and given inscriptions and runes; later times, the demo
key is unlocked with its stored password.

The child takes most of the start (its imports, its chain): it is spawned before Qt loads
(app/__main__.py, sandbox_early.py; taken here by `adopt_early`), and the demo key is opened or
made while it starts; only the funding waits for it."""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from app.services import sandbox_process  # start_sandbox read at each call: tests replace it
from app.services.profiles import AppProfile
from app.services.sandbox_process import SandboxLaunch, SandboxProcess, SandboxStartError
from app.ui import strings
from app.ui.async_tools import run_blocking

if TYPE_CHECKING:
    from app.services.key_vault import WalletKeys
    from app.services.sandbox_early import SpawnedSandbox
    from app.ui.context import AppContext

log = logging.getLogger(__name__)

# A child spawned before the window was built, waiting for `start_profile_sandbox`.
_early_launches: weakref.WeakKeyDictionary[AppContext, SandboxLaunch] = weakref.WeakKeyDictionary()


def demo_key_name(profile: AppProfile) -> str:
    return f"{profile.name} ({strings.SANDBOX_ONLY_BADGE})"


def sandbox_data_dir(context: AppContext, profile: AppProfile) -> Path:
    return context.store.profile_dir(profile) / "sandbox"


async def adopt_early(context: AppContext, spawned: SpawnedSandbox) -> None:
    """Take the child spawned at the very start of the app (sandbox_early.py) onto the loop;
    `start_profile_sandbox` waits for it instead of starting one. A failure is only logged:
    the start then starts a child itself and says what fails."""
    try:
        _early_launches[context] = await spawned.adopt()
    except OSError as exc:
        log.warning("could not take the early sandbox child: %s", exc)
        spawned.kill()


async def discard_early_launch(context: AppContext) -> None:
    """Stop a child spawned early that no start took (another profile opened instead)."""
    launch = _early_launches.pop(context, None)
    if launch is not None:
        await launch.abandon()


async def _launch_for(context: AppContext, data_dir: Path) -> SandboxLaunch | None:
    launch = _early_launches.pop(context, None)
    if launch is not None and launch.data_dir != data_dir:
        await launch.abandon()
        return None
    return launch


async def start_profile_sandbox(
    context: AppContext, profile: AppProfile
) -> tuple[SandboxProcess, AppProfile] | None:
    """Start the sandbox of `profile` and make sure its demo wallet exists and is unlocked.
    Returns the running process and the (possibly updated) profile; None when it failed
    (the error is shown)."""
    data_dir = sandbox_data_dir(context, profile)
    context.sandbox_starting = True
    context.connection_changed.emit()
    context.info(strings.STARTING_SANDBOX)
    # Opening (or making) the demo key needs no sandbox: it runs while the child starts.
    demo_key = asyncio.ensure_future(_open_demo_key(context, profile))
    try:
        launch = await _launch_for(context, data_dir)
        if launch is None:
            sandbox = await sandbox_process.start_sandbox(
                data_dir, chain_cache=sandbox_process.default_chain_cache_dir()
            )
        else:
            sandbox = await launch.ready()
    except (SandboxStartError, OSError) as exc:
        await _drop(demo_key)
        log.error("sandbox start failed: %s", exc)
        if context.activity is not None:
            context.activity.record_error("sandbox.start", exc)
        context.error(strings.SANDBOX_FAILED.format(details=str(exc).splitlines()[0]))
        return None
    except BaseException:
        await _drop(demo_key)
        raise
    finally:
        context.sandbox_starting = False
        context.connection_changed.emit()
    context.sandbox = sandbox
    context.connection_changed.emit()
    if context.activity is not None:
        context.activity.record("sandbox.start", ok=True, message=sandbox.url)
    context.info(strings.SANDBOX_READY.format(url=sandbox.url))
    try:
        profile = await _demo_wallet(context, profile, sandbox, demo_key)
    except Exception as exc:  # vault trouble: the sandbox still runs, unlock later
        log.error("sandbox demo wallet: %s", type(exc).__name__)
        context.error(strings.DEMO_WALLET_FAILED.format(details=exc))
    return sandbox, profile


async def _drop(task: asyncio.Future[tuple[WalletKeys, str]]) -> None:
    """Cancel the demo key's opening (its executor job may still finish: a demo key made
    then is replaced at the next start) and consume its outcome."""
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def _open_demo_key(context: AppContext, profile: AppProfile) -> tuple[WalletKeys, str]:
    """The demo key's keys and name: unlocked with its stored password, or made (first time)."""
    from app.services.sandbox_demo import create_demo_key, unlock_demo_key

    vault = await context.vault()
    if profile.key_name is not None:
        return await run_blocking(unlock_demo_key, vault, profile.key_name), profile.key_name
    key_name = demo_key_name(profile)
    return await run_blocking(create_demo_key, vault, key_name), key_name


async def _demo_wallet(
    context: AppContext,
    profile: AppProfile,
    sandbox: SandboxProcess,
    demo_key: asyncio.Future[tuple[WalletKeys, str]],
) -> AppProfile:
    from app.services.sandbox_demo import (
        DEMO_FAUCET_SATS,
        DEMO_RUNE,
        SandboxDemoError,
        provision_demo_wallet,
    )

    if profile.key_name is not None:
        keys, key_name = await demo_key
        context.wallet_lock.unlock(keys, key_name)
        return profile
    context.info(strings.CREATING_DEMO_WALLET)
    keys, key_name = await demo_key
    context.wallet_lock.unlock(keys, key_name)
    try:
        assets = await provision_demo_wallet(
            sandbox.url,
            keys.payment.address,
            keys.ordinals.address,
            activity=context.activity,
        )
    except SandboxDemoError as exc:
        # The profile keeps no key: the next start makes a new demo wallet and tries again.
        context.error(strings.DEMO_WALLET_FAILED.format(details=exc))
        return profile
    profile = replace(profile, key_name=key_name, sandbox_only=True)
    await context.update_settings(lambda s: s.with_profile(profile))  # and context.profile
    context.info(
        strings.DEMO_WALLET_READY.format(
            btc=DEMO_FAUCET_SATS // 100_000_000,
            inscriptions=len(assets.inscription_ids),
            rune=DEMO_RUNE,
        )
    )
    return profile
