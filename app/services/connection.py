"""The network side of one connected profile: its three clients (marketplace, Esplora, ord),
opened from the profile's service configuration and closed together (`NetClients.aclose`).

The window holds the `NetClients` it opened for as long as the profile is connected and hands
them to every `ServiceContext`; it never builds a client itself.
"""

from __future__ import annotations

from app.net.clients import NetClients
from app.services.profiles import AppProfile

__all__ = ["NetClients", "open_clients"]


def open_clients(
    profile: AppProfile, *, api_key: str | None, sandbox_url: str | None = None
) -> NetClients:
    """The clients of `profile`; `sandbox_url` is the running sandbox's (a sandbox profile
    needs it: `ProfileSettingsError` without it)."""
    return NetClients.open(profile.service_config(api_key=api_key, sandbox_url=sandbox_url))
