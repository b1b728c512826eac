"""The network side of a connected profile: the three clients (marketplace, Esplora, ord),
opened by the services (`app.services.connection`), and for the sandbox profile the child
process they talk to. The offline signer never builds one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.services.profiles import AppProfile
from app.ui import strings

if TYPE_CHECKING:
    from app.services.connection import NetClients, RateLimitWait
    from app.services.sandbox_process import SandboxProcess

# The app's own pace is said only from this wait on: shorter ones pass before anyone reads
# them, and a line about them at every burst of requests looked like the service pushing back.
PACE_NOTICE_AFTER_S = 2.0


def wait_notice(event: RateLimitWait) -> str | None:
    """The status bar's line for a request held back: the service's rate limit (a 429 it
    answered) or the app's own pace (the profile's request rate); None: too short to say."""
    from app.services.connection import WaitCause

    seconds = f"{max(event.seconds, 0.1):.1f}"
    if event.cause is WaitCause.SERVICE:
        return strings.RATE_LIMIT_WAITING.format(seconds=seconds)
    if event.seconds >= PACE_NOTICE_AFTER_S:
        return strings.RATE_PACING.format(seconds=seconds)
    return None


class ServiceConnection:
    def __init__(self, profile: AppProfile, clients: NetClients) -> None:
        self.profile = profile
        self.clients = clients
        self._stop_rate_notices: Callable[[], None] | None = None

    def tell_rate_limit_waits(self, say: Callable[[str, float], None]) -> None:
        """`say(line, seconds)` whenever a request waits long enough to tell (`wait_notice`):
        the line is true for `seconds`, the length of the wait."""
        from app.services.connection import on_rate_limit_wait

        def waiting(event: RateLimitWait) -> None:
            line = wait_notice(event)
            if line is not None:
                say(line, event.seconds)

        self._stop_rate_notices = on_rate_limit_wait(self.clients, waiting)

    @classmethod
    def open(
        cls, profile: AppProfile, *, api_key: str | None, sandbox: SandboxProcess | None
    ) -> ServiceConnection:
        from app.services.connection import open_clients

        sandbox_url = None if sandbox is None else sandbox.url
        return cls(profile, open_clients(profile, api_key=api_key, sandbox_url=sandbox_url))

    @property
    def marketplace_url(self) -> str:
        return self.clients.config.marketplace_url

    async def aclose(self) -> None:
        if self._stop_rate_notices is not None:
            self._stop_rate_notices()
        await self.clients.aclose()

    def __repr__(self) -> str:
        return f"ServiceConnection({self.profile.name!r}, {self.marketplace_url})"
