"""Where the three services live, per profile: the sandbox, Satflow, or custom URLs."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from enum import Enum
from urllib.parse import urlsplit

from app.core.rate_limit import DEFAULT_RATE_LIMIT, RateLimit
from app.net.http import Timeouts

SATFLOW_API_URL = "https://api.satflow.com/v1"
# Public instances of the same APIs the sandbox serves (Esplora, ord's JSON API).
PUBLIC_ESPLORA_URL = "https://mempool.space/api"
PUBLIC_ORD_URL = "https://ordinals.com"


class Profile(Enum):
    SANDBOX = "sandbox"
    SATFLOW = "satflow"
    CUSTOM = "custom"


class InvalidServiceConfig(ValueError):
    """A service URL that is not an absolute http(s) URL, or an API key that would go in
    clear to another machine."""


def in_clear_to_another_machine(url: str) -> bool:
    """Plain http to a host that is not this machine (loopback) nor a Tor onion service
    (encrypted end to end by Tor): anyone on the path reads and changes what is sent."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "http":
        return False
    host = (parts.hostname or "").lower()
    if host == "localhost" or host.endswith((".localhost", ".onion")):
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name, not an address
        return True


@dataclass(frozen=True)
class ServiceConfig:
    """Base URLs of the marketplace v1 API, Esplora and ord, plus the marketplace API key.

    The key is sent to the marketplace only (never to Esplora or ord) and is kept out of repr.
    ``rate_limit``: the pace kept per service host (None: none of our own; 429s are still
    waited out). The public service and custom URLs default to ``DEFAULT_RATE_LIMIT``; the
    embedded sandbox enforces no rate unless started with ``--rate-limit``, so it defaults to
    None.
    """

    profile: Profile
    marketplace_url: str
    esplora_url: str
    ord_url: str
    api_key: str | None = field(default=None, repr=False)
    timeouts: Timeouts = field(default_factory=Timeouts)
    rate_limit: RateLimit | None = None

    def __post_init__(self) -> None:
        for name in ("marketplace_url", "esplora_url", "ord_url"):
            url = getattr(self, name)
            if not isinstance(url, str) or not url.startswith(("http://", "https://")):
                raise InvalidServiceConfig(f"{name} must be an http(s) URL, got {url!r}")
            object.__setattr__(self, name, url.rstrip("/"))
        if self.api_key and in_clear_to_another_machine(self.marketplace_url):
            host = urlsplit(self.marketplace_url).hostname
            raise InvalidServiceConfig(
                f"the API key is sent only over https (or to this machine): the marketplace "
                f"URL is plain http to {host}; use https://"
            )

    @property
    def has_api_key(self) -> bool:
        return bool(self.api_key)

    @classmethod
    def sandbox(
        cls,
        root_url: str,
        *,
        api_key: str | None = None,
        timeouts: Timeouts | None = None,
        rate_limit: RateLimit | None = None,
    ) -> ServiceConfig:
        """The embedded sandbox at ``root_url`` (e.g. ``http://127.0.0.1:8123``) serving
        ``/v1``, ``/esplora`` and ``/ord``. It wants a key only when started with one."""
        root = root_url.rstrip("/")
        return cls(
            profile=Profile.SANDBOX,
            marketplace_url=f"{root}/v1",
            esplora_url=f"{root}/esplora",
            ord_url=f"{root}/ord",
            api_key=api_key,
            timeouts=timeouts or Timeouts(),
            rate_limit=rate_limit,
        )

    @classmethod
    def satflow(
        cls,
        api_key: str | None,
        *,
        esplora_url: str = PUBLIC_ESPLORA_URL,
        ord_url: str = PUBLIC_ORD_URL,
        timeouts: Timeouts | None = None,
        rate_limit: RateLimit | None = DEFAULT_RATE_LIMIT,
    ) -> ServiceConfig:
        return cls(
            profile=Profile.SATFLOW,
            marketplace_url=SATFLOW_API_URL,
            esplora_url=esplora_url,
            ord_url=ord_url,
            api_key=api_key,
            timeouts=timeouts or Timeouts(),
            rate_limit=rate_limit,
        )

    @classmethod
    def custom(
        cls,
        marketplace_url: str,
        esplora_url: str,
        ord_url: str,
        *,
        api_key: str | None = None,
        timeouts: Timeouts | None = None,
        rate_limit: RateLimit | None = DEFAULT_RATE_LIMIT,
    ) -> ServiceConfig:
        return cls(
            profile=Profile.CUSTOM,
            marketplace_url=marketplace_url,
            esplora_url=esplora_url,
            ord_url=ord_url,
            api_key=api_key,
            timeouts=timeouts or Timeouts(),
            rate_limit=rate_limit,
        )
