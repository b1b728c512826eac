"""How `AppWalletSession` builds its per-operation `ServiceContext`s, and a watch-only
profile's public keys. The ServiceContext subclass is made on first use: app.services (httpx,
embit) loads lazily, after the controller's preload, so building the window stays fast."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.core.signing_policy import FeeBounds
    from app.services.context import ServiceContext
    from app.ui.context import AppContext
    from app.ui.service_container import ServiceContainer
    from app.ui.wallet_session import AppWalletSession
    from app.wallet.keys import WalletKeys, WatchOnlyKeys


def _session_context_class() -> type:
    """The subclass, defined once app.services is loaded."""
    from app.services.context import ServiceContext

    class SessionContext(ServiceContext):
        """A ServiceContext that tells its session the bidding wallet it learns."""

        def __init__(
            self,
            session: AppWalletSession,
            services: ServiceContainer,
            keys: WalletKeys | WatchOnlyKeys,
        ) -> None:
            from app.services.acp_signatures import ledger_of

            bounds = fee_bounds(session.context)
            super().__init__(
                services.clients,
                keys,
                fee_bounds=bounds,
                maker_fee=session.maker_fee,
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


def watch_only_public_keys(stored: Any, network_name: str) -> WatchOnlyKeys | None:
    """A watch-only profile's addresses as the services' public keys: each public key is
    tried with each address type until it gives the stored address. None when a public key
    is missing (addresses alone cannot build requests)."""
    from app.services.session import network_named
    from app.wallet.addresses import AddressType, InvalidAddressError, KeyRole, public_role_key
    from app.wallet.keys import WatchOnlyKeys

    network = network_named(network_name)
    roles = []
    for role, address, key_hex in (
        (KeyRole.PAYMENT, stored.payment_address, stored.payment_public_key),
        (KeyRole.ORDINALS, stored.ordinals_address, stored.ordinals_public_key),
    ):
        if not key_hex:
            return None
        raw = bytes.fromhex(key_hex)
        sec = b"\x02" + raw if len(raw) == 32 else raw
        found = None
        for kind in AddressType:
            try:
                key = public_role_key(role, sec, kind, network, None, None)
            except InvalidAddressError:
                continue
            if key.address == address:
                found = key
                break
        if found is None:
            return None
        roles.append(found)
    return WatchOnlyKeys(roles[0], roles[1], "watch-only", 0)


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
    session: AppWalletSession, services: ServiceContainer, keys: WalletKeys | WatchOnlyKeys
) -> ServiceContext:
    global _SessionContextType
    if _SessionContextType is None:
        _SessionContextType = _session_context_class()
    ctx: ServiceContext = _SessionContextType(session, services, keys)
    return ctx
