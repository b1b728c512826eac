"""How `ProfileSession` builds its per-operation `ServiceContext`s. The ServiceContext
subclass is made on first use: app.services (httpx, embit) loads lazily, after the
controller's preload, so building the window stays fast."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.core.signing_policy import FeeBounds
    from app.services.context import ServiceContext
    from app.services.key_vault import WalletKeys, WatchOnlyKeys
    from app.ui.context import AppContext
    from app.ui.profile_session import ProfileSession
    from app.ui.service_connection import ServiceConnection


def _session_context_class() -> type:
    """The subclass, defined once app.services is loaded."""
    from app.services.context import ServiceContext

    class SessionContext(ServiceContext):
        """A ServiceContext that tells its session the bidding wallet it learns."""

        def __init__(
            self,
            session: ProfileSession,
            services: ServiceConnection,
            keys: WalletKeys | WatchOnlyKeys,
        ) -> None:
            from app.services.acp_signatures import ledger_of

            bounds = fee_bounds(session.context)
            maker_fee = session.assumed_maker_fee
            super().__init__(
                services.clients,
                keys,
                fee_bounds=bounds,
                maker_fee=maker_fee.fee,
                maker_fee_source=maker_fee.source,
                clock=session.clock,
                sleeper=session.sleeper,
                service_public_key=session.service_public_key,
            )
            self.acp_ledger = ledger_of(session.data_dir)  # one per machine, every profile
            self._session = session

        def remember_bidding_wallet(self, address: str) -> None:
            super().remember_bidding_wallet(address)
            self._session.remember_wallet(address)

    return SessionContext


def fee_bounds(context: AppContext) -> FeeBounds:
    """The active profile's limits for the PSBT guard, as the core wants them."""
    from app.core.signing_policy import FeeBounds
    from app.services.context import DEFAULT_FEE_BOUNDS

    profile = context.profile
    if profile is None:
        return DEFAULT_FEE_BOUNDS
    bounds = profile.fee_bounds
    return FeeBounds.of(bounds.max_fee_sats, bounds.max_sat_vb, bounds.min_sat_vb)


_SessionContextType: type | None = None


def new_session_context(
    session: ProfileSession, services: ServiceConnection, keys: WalletKeys | WatchOnlyKeys
) -> ServiceContext:
    global _SessionContextType
    if _SessionContextType is None:
        _SessionContextType = _session_context_class()
    ctx: ServiceContext = _SessionContextType(session, services, keys)
    return ctx
