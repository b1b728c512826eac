"""App profiles (which service, which keys, which limits) and their persistence.

A profile names a service (the embedded sandbox, the public Satflow API or custom URLs), the
vault profile holding its keys, the fee bounds of the PSBT guard, the idle lock timeout and
the request rate kept per service host (`request_rate`: None means the service's default,
5/s with bursts of 10 off the sandbox and none on it; "off" means none; else "RATE/BURST")
and the maker fee the bid pools assume (`maker_fee`: None means the service's published fee,
else the default of `app.services.maker_fee`; a `MakerFee` is the user's own amount).
All profiles live in `<data dir>/profiles.json` (written atomically); each profile also has a
directory `<data dir>/profiles/<slug>/` for its activity log and, for the sandbox, its chain.
API keys are never in that file: `ApiKeyStore` keeps them in the system keychain.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit

from app.core.animated_qr import QrFormat
from app.core.pools import MakerFee
from app.core.rate_limit import DEFAULT_RATE_LIMIT, RateLimit, RateLimitError
from app.data_dir import default_data_dir as data_dir
from app.services.maker_fee import maker_fee_problem

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

    from app.net.config import ServiceConfig
    from app.wallet.keyring_store import KeyringStore

log = logging.getLogger(__name__)

SETTINGS_FILE_NAME: Final = "profiles.json"
FILE_FORMAT: Final = "bidwallet-profiles"
FILE_VERSION: Final = 1
SATFLOW_API_URL: Final = "https://api.satflow.com/v1"
PUBLIC_ESPLORA_URL: Final = "https://mempool.space/api"
PUBLIC_ORD_URL: Final = "https://ordinals.com"
NETWORKS: Final = ("mainnet", "testnet", "signet", "regtest")
API_KEY_SERVICE: Final = "bidwallet-api-key"
MIN_LOCK_TIMEOUT_S: Final = 30
MAX_LOCK_TIMEOUT_S: Final = 24 * 3600
REQUEST_RATE_OFF: Final = "off"


def default_data_dir() -> Path:
    """Where the app keeps its files (profiles.json, the profiles' directories, the vault file
    when there is no system keychain): $BIDWALLET_DATA_DIR if set, else the platform's user
    data directory."""
    return data_dir()


class ProfileSettingsError(ValueError):
    """A profile or setting value is out of range or malformed (the message says which)."""


class RequestRateError(ProfileSettingsError):
    """The request rate is malformed or out of range (`reason` says how): the Settings form
    says it under that field."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"request rate: {reason}")


class ProfileFileError(Exception):
    """profiles.json cannot be read or written."""


class ApiKeyUnavailableError(Exception):
    """No system keychain to keep the API key in (it is never written to a plain file)."""


class ServiceKind(StrEnum):
    SANDBOX = "sandbox"
    SATFLOW = "satflow"
    CUSTOM = "custom"


class Theme(StrEnum):
    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


@dataclass(frozen=True)
class FeeBounds:
    """Limits the PSBT guard applies before anything is signed."""

    min_sat_vb: float = 1.0
    max_sat_vb: float = 1000.0
    max_fee_sats: int = 500_000

    def __post_init__(self) -> None:
        if not 0 < self.min_sat_vb <= self.max_sat_vb:
            raise ProfileSettingsError(
                "fee rate bounds must satisfy 0 < minimum <= maximum (sat/vB)"
            )
        if self.max_sat_vb > 100_000:
            raise ProfileSettingsError("the maximum fee rate must be at most 100000 sat/vB")
        if not 0 < self.max_fee_sats <= 100_000_000:
            raise ProfileSettingsError("the maximum fee must be 1 sat to 1 BTC")


def _check_url(name: str, url: str | None) -> None:
    if url is not None and not re.match(r"^https?://[^\s/]+", url):
        raise ProfileSettingsError(f"{name} must be an http(s) URL like https://host/path")


@dataclass(frozen=True)
class AppProfile:
    name: str
    kind: ServiceKind
    network: str
    marketplace_url: str | None = None  # None for the sandbox: its URL is known once started
    esplora_url: str | None = None
    ord_url: str | None = None
    key_name: str | None = None  # the vault profile holding the keys; None until set up
    sandbox_only: bool = False  # the key is a demo key made for the sandbox
    fee_bounds: FeeBounds = field(default_factory=FeeBounds)
    lock_timeout_s: int = 600
    request_rate: str | None = None  # None: the default for the kind; "off"; or "5/10"
    maker_fee: MakerFee | None = None  # None: the service's, else the default

    def __post_init__(self) -> None:
        if not self.name or len(self.name) > 64 or self.name != self.name.strip():
            raise ProfileSettingsError("a profile name has 1 to 64 characters, no outer spaces")
        if not self.name.isprintable():
            raise ProfileSettingsError("a profile name must be printable")
        if self.network not in NETWORKS:
            raise ProfileSettingsError(f"network must be one of {', '.join(NETWORKS)}")
        if self.kind is ServiceKind.SANDBOX and self.network != "regtest":
            raise ProfileSettingsError("the sandbox runs on regtest")
        if self.kind is ServiceKind.SATFLOW and self.marketplace_url != SATFLOW_API_URL:
            raise ProfileSettingsError(f"the public service lives at {SATFLOW_API_URL}")
        if self.kind is not ServiceKind.SANDBOX:
            for name in ("marketplace_url", "esplora_url", "ord_url"):
                if getattr(self, name) is None:
                    raise ProfileSettingsError(f"{name.replace('_', ' ')} is required")
                _check_url(name.replace("_", " "), getattr(self, name))
        if not MIN_LOCK_TIMEOUT_S <= self.lock_timeout_s <= MAX_LOCK_TIMEOUT_S:
            raise ProfileSettingsError(
                f"the lock timeout must be {MIN_LOCK_TIMEOUT_S} s to {MAX_LOCK_TIMEOUT_S // 3600} h"
            )
        self.rate_limit  # noqa: B018 - raises ProfileSettingsError for a malformed rate
        problem = None if self.maker_fee is None else maker_fee_problem(self.maker_fee)
        if problem is not None:
            raise ProfileSettingsError(problem)

    @property
    def rate_limit(self) -> RateLimit | None:
        """The pace kept per service host (None: none of our own; 429s are still waited out)."""
        if self.request_rate is None:
            return None if self.kind is ServiceKind.SANDBOX else DEFAULT_RATE_LIMIT
        if self.request_rate == REQUEST_RATE_OFF:
            return None
        try:
            return RateLimit.parse(self.request_rate)
        except RateLimitError as exc:
            raise RequestRateError(str(exc)) from None

    @classmethod
    def sandbox(cls, name: str = "Sandbox") -> AppProfile:
        return cls(name=name, kind=ServiceKind.SANDBOX, network="regtest")

    @classmethod
    def satflow(cls, name: str = "Satflow") -> AppProfile:
        return cls(
            name=name,
            kind=ServiceKind.SATFLOW,
            network="mainnet",
            marketplace_url=SATFLOW_API_URL,
            esplora_url=PUBLIC_ESPLORA_URL,
            ord_url=PUBLIC_ORD_URL,
        )

    @property
    def dir_name(self) -> str:
        """A filesystem-safe, collision-free directory name for this profile."""
        slug = re.sub(r"[^a-z0-9_-]+", "-", self.name.lower()).strip("-")[:40] or "profile"
        return f"{slug}-{hashlib.sha256(self.name.encode()).hexdigest()[:8]}"

    def service_config(
        self, *, api_key: str | None, sandbox_url: str | None = None
    ) -> ServiceConfig:
        """The net layer's configuration; the sandbox's needs the URL of the running process.
        `ProfileSettingsError` when the net layer refuses it (an API key for plain http to
        another machine), and on mainnet for any service in plain http to another machine:
        the chain's amounts and ord's contents decide what is signed, and read in clear anyone
        on the path could lie for them."""
        from app.net.config import InvalidServiceConfig, in_clear_to_another_machine

        try:
            config = self._service_config(api_key, sandbox_url)
        except InvalidServiceConfig as exc:
            raise ProfileSettingsError(str(exc)) from None
        if self.network == "mainnet":
            for name in ("marketplace_url", "esplora_url", "ord_url"):
                url = getattr(config, name)
                if in_clear_to_another_machine(url):
                    raise ProfileSettingsError(
                        f"on mainnet the {name.replace('_', ' ')} must be https:// (or this "
                        f"machine, e.g. an SSH tunnel), not plain http to "
                        f"{urlsplit(url).netloc.rpartition('@')[2]}"
                    )
        return config

    def _service_config(self, api_key: str | None, sandbox_url: str | None) -> ServiceConfig:
        from app.net.config import ServiceConfig

        if self.kind is ServiceKind.SANDBOX:
            if sandbox_url is None:
                raise ProfileSettingsError("the sandbox is not running")
            return ServiceConfig.sandbox(sandbox_url, api_key=api_key, rate_limit=self.rate_limit)
        assert self.marketplace_url and self.esplora_url and self.ord_url  # __post_init__
        if self.kind is ServiceKind.SATFLOW:
            return ServiceConfig.satflow(
                api_key,
                esplora_url=self.esplora_url,
                ord_url=self.ord_url,
                rate_limit=self.rate_limit,
            )
        return ServiceConfig.custom(
            self.marketplace_url,
            self.esplora_url,
            self.ord_url,
            api_key=api_key,
            rate_limit=self.rate_limit,
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            k: v for k, v in self.__dict__.items() if k not in ("fee_bounds", "maker_fee")
        }
        data["kind"] = self.kind.value
        data["fee_bounds"] = dict(self.fee_bounds.__dict__)
        if self.maker_fee is not None:
            data["maker_fee"] = {
                "flat_sats": self.maker_fee.flat_sats,
                "basis_points": self.maker_fee.basis_points,
            }
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AppProfile:
        try:
            fields = dict(data)
            fields["kind"] = ServiceKind(fields["kind"])
            fields["fee_bounds"] = FeeBounds(**fields.get("fee_bounds", {}))
            fee = fields.get("maker_fee")
            fields["maker_fee"] = None if fee is None else _maker_fee_of(fee)
            return cls(**fields)
        except (KeyError, TypeError, ValueError) as exc:
            raise ProfileSettingsError(f"stored profile is malformed: {exc}") from None


def _maker_fee_of(stored: Any) -> MakerFee:
    """A stored maker fee: exactly its two whole numbers (a bool or a decimal is malformed)."""
    if not isinstance(stored, dict) or set(stored) != {"flat_sats", "basis_points"}:
        raise ValueError("maker_fee must hold flat_sats and basis_points")
    values = (stored["basis_points"], stored["flat_sats"])
    if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        raise ValueError("maker_fee's flat_sats and basis_points must be whole numbers")
    return MakerFee(*values)


@dataclass(frozen=True)
class AppSettings:
    profiles: tuple[AppProfile, ...] = ()
    active: str | None = None
    theme: Theme = Theme.SYSTEM
    notifications: bool = True  # desktop notifications of fills, sales, expiries...
    confirm_bids: bool = True  # ask before a bid message is signed ("Don't ask again": False)
    qr_format: QrFormat = QrFormat.BBQR  # the animated QR's format last chosen (BBQr or UR)

    def get(self, name: str) -> AppProfile | None:
        return next((p for p in self.profiles if p.name == name), None)

    @property
    def active_profile(self) -> AppProfile | None:
        return None if self.active is None else self.get(self.active)

    def first_of_kind(self, kind: ServiceKind) -> AppProfile | None:
        return next((p for p in self.profiles if p.kind is kind), None)

    def with_profile(self, profile: AppProfile, *, previous_name: str | None = None) -> AppSettings:
        """Add `profile`, or replace the one named `previous_name` (default: its own name)."""
        old = previous_name or profile.name
        if profile.name != old and self.get(profile.name) is not None:
            raise ProfileSettingsError(f"a profile named {profile.name!r} already exists")
        kept = [p for p in self.profiles if p.name != old]
        index = next((i for i, p in enumerate(self.profiles) if p.name == old), len(kept))
        kept.insert(index, profile)
        active = profile.name if self.active == old else self.active
        return replace(self, profiles=tuple(kept), active=active)

    def without(self, name: str) -> AppSettings:
        kept = tuple(p for p in self.profiles if p.name != name)
        active = self.active if self.active != name else (kept[0].name if kept else None)
        return replace(self, profiles=kept, active=active)

    def with_active(self, name: str) -> AppSettings:
        if self.get(name) is None:
            raise ProfileSettingsError(f"no profile named {name!r}")
        return replace(self, active=name)


class ProfileStore:
    """`profiles.json` and the per-profile directories under one data directory."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.path = data_dir / SETTINGS_FILE_NAME

    def load(self) -> AppSettings:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return AppSettings()
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise ProfileFileError(f"cannot read {self.path}: {type(exc).__name__}") from exc
        if not isinstance(doc, dict) or doc.get("format") != FILE_FORMAT:
            raise ProfileFileError(f"{self.path} is not a Bidwallet profiles file")
        if doc.get("version") != FILE_VERSION:
            raise ProfileFileError(f"{self.path} has version {doc.get('version')!r}")
        try:
            profiles = tuple(AppProfile.from_json(p) for p in doc.get("profiles", []))
            notify = doc.get("notifications", True)
            if not isinstance(notify, bool):
                raise ValueError("notifications must be true or false")
            confirm_bids = doc.get("confirm_bids", True)
            if not isinstance(confirm_bids, bool):
                raise ValueError("confirm_bids must be true or false")
            theme = Theme(doc.get("theme", "system"))
            qr_format = QrFormat(doc.get("qr_format", QrFormat.BBQR.value))
            return AppSettings(
                profiles,
                doc.get("active"),
                theme,
                notifications=notify,
                confirm_bids=confirm_bids,
                qr_format=qr_format,
            )
        except (ValueError, TypeError) as exc:
            raise ProfileFileError(f"{self.path}: {exc}") from None

    def save(self, settings: AppSettings) -> None:
        from app.wallet.vault_file_store import write_atomically

        doc = {
            "format": FILE_FORMAT,
            "version": FILE_VERSION,
            "active": settings.active,
            "theme": settings.theme.value,
            "notifications": settings.notifications,
            "confirm_bids": settings.confirm_bids,
            "qr_format": settings.qr_format.value,
            "profiles": [p.to_json() for p in settings.profiles],
        }
        try:
            self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_atomically(self.path, json.dumps(doc, indent=1).encode("utf-8"))
        except OSError as exc:
            raise ProfileFileError(f"cannot write {self.path}: {exc.strerror}") from exc
        log.info("saved %d profile(s) to %s", len(settings.profiles), self.path)

    def profile_dir(self, profile: AppProfile) -> Path:
        return self.data_dir / "profiles" / profile.dir_name


class ApiKeyStore:
    """Marketplace API keys in the system keychain, one item per profile name. Without a real
    keychain, `available` is False and `set` refuses: the caller keeps the key in memory only.
    Keychain calls may block (D-Bus): call them from an executor."""

    def __init__(self, backend: KeyringBackend | None = None) -> None:
        from app.wallet.keyring_store import KeyringStore
        from app.wallet.vault_errors import InsecureKeyringError

        self._store: KeyringStore | None
        try:
            self._store = KeyringStore(backend, service=API_KEY_SERVICE)
            self.unavailable_reason: str | None = None
        except InsecureKeyringError as exc:
            self._store = None
            self.unavailable_reason = str(exc)

    @property
    def available(self) -> bool:
        return self._store is not None

    def get(self, profile_name: str) -> str | None:
        return None if self._store is None else self._store.get(profile_name)

    def set(self, profile_name: str, api_key: str) -> None:
        if self._store is None:
            raise ApiKeyUnavailableError(
                f"no system keychain to keep the API key in ({self.unavailable_reason})"
            )
        self._store.set(profile_name, api_key.strip())

    def delete(self, profile_name: str) -> bool:
        return False if self._store is None else self._store.delete(profile_name)

    def __repr__(self) -> str:
        return f"ApiKeyStore(available={self.available})"
