"""The network side of one connected profile: its three clients (marketplace, Esplora, ord),
opened from the profile's service configuration and closed together (`NetClients.aclose`).

The window holds the `NetClients` it opened for as long as the profile is connected and hands
them to every `ServiceContext`; it never builds a client itself. `on_rate_limit_wait` lets it
say "waiting for the service's rate limit" while a request waits (`app/net/rate_limit.py`).
"""

from __future__ import annotations

from collections.abc import Callable

from app.net.clients import NetClients
from app.net.rate_limit import RateLimitWait, WaitCause
from app.services.profiles import AppProfile

__all__ = ["NetClients", "RateLimitWait", "WaitCause", "on_rate_limit_wait", "open_clients"]


def open_clients(
    profile: AppProfile, *, api_key: str | None, sandbox_url: str | None = None
) -> NetClients:
    """The clients of `profile`; `sandbox_url` is the running sandbox's (a sandbox profile
    needs it: `ProfileSettingsError` without it)."""
    return NetClients.open(profile.service_config(api_key=api_key, sandbox_url=sandbox_url))


def on_rate_limit_wait(
    clients: NetClients, listener: Callable[[RateLimitWait], None]
) -> Callable[[], None]:
    """Call `listener` whenever a request of these clients waits for a rate limit long enough
    to tell the user (a 429 answered, or our own pace holding it half a second or more);
    returns the function that stops it."""
    return clients.rate_limits.subscribe(listener)
