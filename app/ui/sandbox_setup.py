"""The sandbox profile's start: the child process, then (first time) a demo key marked
"sandbox only", funded from the faucet and given inscriptions and runes; later times, the demo
key is unlocked with its stored password."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from app.services import sandbox_process  # start_sandbox read at each call: tests replace it
from app.services.profiles import AppProfile
from app.services.sandbox_process import SandboxProcess, SandboxStartError
from app.ui import strings
from app.ui.async_tools import run_blocking

if TYPE_CHECKING:
    from app.ui.context import AppContext

log = logging.getLogger(__name__)


def demo_key_name(profile: AppProfile) -> str:
    return f"{profile.name} ({strings.SANDBOX_ONLY_BADGE})"


async def start_profile_sandbox(
    context: AppContext, profile: AppProfile
) -> tuple[SandboxProcess, AppProfile] | None:
    """Start the sandbox of `profile` and make sure its demo wallet exists and is unlocked.
    Returns the running process and the (possibly updated) profile; None when it failed
    (the error is shown)."""
    data_dir = context.store.profile_dir(profile) / "sandbox"
    context.sandbox_starting = True
    context.connection_changed.emit()
    context.info(strings.STARTING_SANDBOX)
    try:
        sandbox = await sandbox_process.start_sandbox(data_dir)
    except (SandboxStartError, OSError) as exc:
        log.error("sandbox start failed: %s", exc)
        if context.activity is not None:
            context.activity.record_error("sandbox.start", exc)
        context.error(strings.SANDBOX_FAILED.format(details=str(exc).splitlines()[0]))
        return None
    finally:
        context.sandbox_starting = False
        context.connection_changed.emit()
    context.sandbox = sandbox
    context.connection_changed.emit()
    if context.activity is not None:
        context.activity.record("sandbox.start", ok=True, message=sandbox.url)
    context.info(strings.SANDBOX_READY.format(url=sandbox.url))
    try:
        profile = await _demo_wallet(context, profile, sandbox)
    except Exception as exc:  # vault trouble: the sandbox still runs, unlock later
        log.error("sandbox demo wallet: %s", type(exc).__name__)
        context.error(strings.DEMO_WALLET_FAILED.format(details=exc))
    return sandbox, profile


async def _demo_wallet(
    context: AppContext, profile: AppProfile, sandbox: SandboxProcess
) -> AppProfile:
    from app.services.sandbox_demo import (
        DEMO_FAUCET_SATS,
        DEMO_RUNE,
        SandboxDemoError,
        create_demo_key,
        provision_demo_wallet,
        unlock_demo_key,
    )

    vault = await context.vault()
    if profile.key_name is not None:
        keys = await run_blocking(unlock_demo_key, vault, profile.key_name)
        context.wallet_lock.unlock(keys, profile.key_name)
        return profile
    key_name = demo_key_name(profile)
    context.info(strings.CREATING_DEMO_WALLET)
    keys = await run_blocking(create_demo_key, vault, key_name)
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
    await context.save_settings(
        context.settings.with_profile(profile)
    )  # also updates context.profile
    context.info(
        strings.DEMO_WALLET_READY.format(
            btc=DEMO_FAUCET_SATS // 100_000_000,
            inscriptions=len(assets.inscription_ids),
            rune=DEMO_RUNE,
        )
    )
    return profile
