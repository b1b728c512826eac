"""What the caller knows when a PSBT is reviewed: whose addresses are whose, what ord says each
outpoint carries, and what the chain says each outpoint holds.

The chain's tip (for time locks) and the fastest fee estimate (for fee bounds relative to the
market) are facts too: None when the caller could not learn them, and the policies that need
them refuse (or ask the user) rather than guess.

"Unknown" and "nothing" differ: an outpoint absent from `contents` is unknown (ord was not asked
or could not answer), `OutpointContents()` (NOTHING) means ord answered "no inscription, no
runes". Policies refuse on unknown wherever the answer matters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cached_property

from app.core.psbt_review_time import ChainTip
from app.core.psbt_view import NETWORK_NAMES, address_networks, normalize_address
from app.core.rune_names import rune_letters
from app.core.runestone import RuneId


class Role(StrEnum):
    """Whose an input or output is, from the user's point of view."""

    PAYMENT = "your payment address"
    ORDINALS = "your ordinals address"
    BIDDING_WALLET = "your bidding wallet"
    SERVICE = "the service"
    STRANGER = "someone else"
    OP_RETURN = "OP_RETURN (data, burned)"
    UNKNOWN = "unknown (no UTXO data)"


OUR_ROLES = frozenset({Role.PAYMENT, Role.ORDINALS, Role.BIDDING_WALLET})
# When one address has several roles (a single-address wallet uses its payment address for
# ordinals too), amounts are counted once, under the first role in this order.
_ROLE_ORDER = (
    Role.PAYMENT,
    Role.ORDINALS,
    Role.BIDDING_WALLET,
    Role.SERVICE,
    Role.OP_RETURN,
    Role.UNKNOWN,
    Role.STRANGER,
)


def primary_role(roles: frozenset[Role]) -> Role:
    return next((r for r in _ROLE_ORDER if r in roles), Role.STRANGER)


def describe_roles(roles: frozenset[Role]) -> str:
    """'your payment address', or 'your payment address and your ordinals address'."""
    return " and ".join(r.value for r in _ROLE_ORDER if r in roles) or Role.STRANGER.value


@dataclass(frozen=True)
class KnownAddress:
    """An address whose owner we know; `label` says which of the service's addresses it is."""

    address: str
    role: Role
    label: str = ""


@dataclass(frozen=True)
class InscriptionAt:
    """An inscription on an outpoint: its sat is at `offset` sats into that output."""

    inscription_id: str
    offset: int


@dataclass(frozen=True)
class RuneAmount:
    """A rune balance, in the rune's smallest unit (its divisibility is not needed here)."""

    rune: str
    amount: int


@dataclass(frozen=True)
class OutpointContents:
    """What ord says an outpoint carries; the default instance is "nothing"."""

    inscriptions: tuple[InscriptionAt, ...] = ()
    runes: tuple[RuneAmount, ...] = ()

    @property
    def is_cardinal(self) -> bool:
        return not self.inscriptions and not self.runes

    def describe(self) -> str:
        parts = [f"inscription {i.inscription_id}" for i in self.inscriptions]
        parts += [f"{r.amount:,} {r.rune}" for r in self.runes]
        return ", ".join(parts) or "nothing"


NOTHING = OutpointContents()


@dataclass(frozen=True)
class KnownUtxo:
    """An outpoint's amount and script as the chain (Esplora) reports them."""

    value: int
    script_pubkey: bytes


class ContextError(ValueError):
    """A ReviewContext that cannot be right (unknown network name, empty address...)."""


@dataclass(frozen=True)
class ReviewContext:
    """The facts a review weighs the PSBT against.

    `network` is a wallet `Network` value ("main", "test", "signet", "regtest").
    `contents` maps "txid:vout" to ord's answer; `chain_utxos` maps "txid:vout" to the chain's.
    `tip` is the chain's tip, `fastest_fee_rate` the fee estimate (sat/vB) for the next block.
    `rune_ids` maps a rune's letters to its id ("840000:3", from ord's rune entry): a
    runestone's edicts name runes by id, ord's outputs by name.
    """

    network: str
    addresses: tuple[KnownAddress, ...]
    contents: Mapping[str, OutpointContents] = field(default_factory=dict)
    chain_utxos: Mapping[str, KnownUtxo] = field(default_factory=dict)
    tip: ChainTip | None = None
    fastest_fee_rate: Fraction | None = None
    rune_ids: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.network not in NETWORK_NAMES:
            raise ContextError(f"unknown network {self.network!r}")
        if any(not a.address.strip() for a in self.addresses):
            raise ContextError("an address in the review context is empty")

    @classmethod
    def for_wallet(
        cls,
        network: str,
        payment: str,
        ordinals: str,
        bidding_wallet: str | None = None,
        service: Iterable[tuple[str, str]] = (),
        contents: Mapping[str, OutpointContents] | None = None,
        chain_utxos: Mapping[str, KnownUtxo] | None = None,
        tip: ChainTip | None = None,
        fastest_fee_rate: Fraction | None = None,
        rune_ids: Mapping[str, str] | None = None,
    ) -> ReviewContext:
        """Our payment and ordinals addresses, the bidding wallet when known, and the service's
        addresses as (address, label) pairs, e.g. ("bc1q...", "fee address")."""
        known = [KnownAddress(payment, Role.PAYMENT), KnownAddress(ordinals, Role.ORDINALS)]
        if bidding_wallet is not None:
            known.append(KnownAddress(bidding_wallet, Role.BIDDING_WALLET))
        known += [KnownAddress(addr, Role.SERVICE, label) for addr, label in service]
        return cls(
            network,
            tuple(known),
            dict(contents or {}),
            dict(chain_utxos or {}),
            tip,
            fastest_fee_rate,
            dict(rune_ids or {}),
        )

    @cached_property
    def _roles_by_address(self) -> dict[str, frozenset[Role]]:
        table: dict[str, set[Role]] = {}
        for a in self.addresses:
            table.setdefault(normalize_address(a.address), set()).add(a.role)
        return {address: frozenset(roles) for address, roles in table.items()}

    def roles_of(self, address: str) -> frozenset[Role]:
        """Every role `address` has; {STRANGER} when it is nobody we know."""
        roles = self._roles_by_address.get(normalize_address(address))
        return roles or frozenset({Role.STRANGER})

    def addresses_with(self, role: Role) -> tuple[str, ...]:
        return tuple(a.address for a in self.addresses if a.role is role)

    def rune_id_of(self, rune: str) -> str | None:
        """The id of `rune` (any spelling of its name), or None when unknown."""
        return self._ids_by_letters.get(rune_letters(rune))

    @cached_property
    def _ids_by_letters(self) -> dict[str, str]:
        """Each rune's id in its one spelling (`RuneId.parse`, then `str`): ids are compared
        parsed, as edicts name them ('0840000:3' is 840000:3)."""
        by_letters: dict[str, RuneId] = {}
        for name, text in self.rune_ids.items():
            try:
                by_letters[rune_letters(name)] = RuneId.parse(text)
            except ValueError:
                continue  # not an id: unknown, edicts naming runes are not followed
        # An id ord gives two runes, or one no etched rune has (block 0: 0:0 names the rune a
        # transaction etches), is a lie: left unknown, edicts naming runes are not followed.
        counts = Counter(by_letters.values())
        return {k: str(v) for k, v in by_letters.items() if counts[v] == 1 and v.block != 0}

    def contents_of(self, outpoint: str) -> OutpointContents | None:
        """ord's answer for "txid:vout", or None when unknown."""
        return self.contents.get(outpoint)

    def counterparty_posing_as_ours(self) -> tuple[KnownAddress, ...]:
        """The service's addresses (the bidding wallet included: the service co-signs it) that
        are one of the user's own payment or ordinals addresses. A "bidding wallet" that is our
        ordinals address would make a withdrawal spend our inscriptions."""
        ours = {
            normalize_address(a.address)
            for a in self.addresses
            if a.role in (Role.PAYMENT, Role.ORDINALS)
        }
        return tuple(
            a
            for a in self.addresses
            if a.role in (Role.BIDDING_WALLET, Role.SERVICE)
            and normalize_address(a.address) in ours
        )

    def wrong_network_addresses(self) -> tuple[KnownAddress, ...]:
        """Known addresses that do not belong to `network` (a hostile or confused service)."""
        return tuple(a for a in self.addresses if self.network not in address_networks(a.address))
