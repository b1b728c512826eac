"""A strategy policy's stored form: a JSON object, read strictly (every field required, none
unknown, each of its type), so a stored policy reads back exactly as it was approved.

    {"version": 1, "policyId": "...", "paymentAddress": "...", "paymentPublicKey": "...",
     "receiveAddress": "...", "maxExposure": 500000,
     "makerFee": {"basisPoints": 0, "flatSats": 0},
     "validFromMs": 1700000000000, "validUntilMs": 1700086400000, "maxOpenBids": 20 | null,
     "pools": [{"kind": "ordinals" | "runes", "collectionSlug": "...",
                "trait": {"trait_type": "...", "value": "..."} | null, "maxPrice": "3/2"}]}

`maxPrice` is a fraction in text ("50000", "3/2"): sats per item, or per rune unit. The
authenticity of the stored bytes is the store's job (`app/services/strategy_policies.py`);
this module only refuses what is not a policy (`StrategyPolicyError`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Final

from app.core.pools import InvalidPoolInput, MakerFee, PoolKey
from app.core.strategy_policy import (
    AllowedPool,
    BidderIdentity,
    PoolKind,
    StrategyPolicy,
    StrategyPolicyError,
    Trait,
)

POLICY_FORMAT_VERSION: Final = 1
_FIELDS: Final = frozenset(
    {
        "version",
        "policyId",
        "paymentAddress",
        "paymentPublicKey",
        "receiveAddress",
        "maxExposure",
        "makerFee",
        "validFromMs",
        "validUntilMs",
        "maxOpenBids",
        "pools",
    }
)
_POOL_FIELDS: Final = frozenset({"kind", "collectionSlug", "trait", "maxPrice"})
_FRACTION: Final = re.compile(r"[1-9][0-9]{0,30}(/[1-9][0-9]{0,30})?")
MAX_POOLS: Final = 1_000


def policy_to_json(policy: StrategyPolicy) -> dict[str, object]:
    return {
        "version": POLICY_FORMAT_VERSION,
        "policyId": policy.policy_id,
        "paymentAddress": policy.bidder.payment_address,
        "paymentPublicKey": policy.bidder.payment_public_key,
        "receiveAddress": policy.bidder.receive_address,
        "maxExposure": policy.max_exposure,
        "makerFee": {
            "basisPoints": policy.maker_fee.basis_points,
            "flatSats": policy.maker_fee.flat_sats,
        },
        "validFromMs": policy.valid_from_ms,
        "validUntilMs": policy.valid_until_ms,
        "maxOpenBids": policy.max_open_bids,
        "pools": [_pool_to_json(p) for p in policy.pools],
    }


def _pool_to_json(pool: AllowedPool) -> dict[str, object]:
    trait = pool.pool.trait
    return {
        "kind": pool.kind.value,
        "collectionSlug": pool.pool.collection_slug,
        "trait": None if trait is None else trait.to_json(),
        "maxPrice": str(pool.max_price),
    }


def policy_from_json(data: object) -> StrategyPolicy:
    """The policy `data` holds, or `StrategyPolicyError` saying what is wrong."""
    obj = _object(data, "the policy", _FIELDS)
    if _int(obj, "version") != POLICY_FORMAT_VERSION:
        raise StrategyPolicyError(f"policy format version {obj['version']!r} is not supported")
    fee = _object(obj["makerFee"], "makerFee", frozenset({"basisPoints", "flatSats"}))
    raw_pools = obj["pools"]
    if not isinstance(raw_pools, list) or len(raw_pools) > MAX_POOLS:
        raise StrategyPolicyError(f"pools must be a list of at most {MAX_POOLS:,} pools")
    max_open = obj["maxOpenBids"]
    try:
        maker_fee = MakerFee(_int(fee, "basisPoints"), _int(fee, "flatSats"))
    except InvalidPoolInput as exc:
        raise StrategyPolicyError(str(exc)) from None
    return StrategyPolicy(
        policy_id=_str(obj, "policyId"),
        bidder=BidderIdentity(
            _str(obj, "paymentAddress"), _str(obj, "paymentPublicKey"), _str(obj, "receiveAddress")
        ),
        pools=tuple(_pool_from_json(p, i) for i, p in enumerate(raw_pools)),
        max_exposure=_int(obj, "maxExposure"),
        maker_fee=maker_fee,
        valid_from_ms=_int(obj, "validFromMs"),
        valid_until_ms=_int(obj, "validUntilMs"),
        max_open_bids=None if max_open is None else _int(obj, "maxOpenBids"),
    )


def _pool_from_json(data: object, index: int) -> AllowedPool:
    where = f"pools[{index}]"
    obj = _object(data, where, _POOL_FIELDS)
    kind_text = _str(obj, "kind", where)
    if kind_text not in (k.value for k in PoolKind):
        raise StrategyPolicyError(f"{where}.kind must be 'ordinals' or 'runes'")
    raw_trait = obj["trait"]
    trait = None
    if raw_trait is not None:
        t = _object(raw_trait, f"{where}.trait", frozenset({"trait_type", "value"}))
        trait = Trait(_str(t, "trait_type", where), _str(t, "value", where))
    price = _str(obj, "maxPrice", where)
    if not _FRACTION.fullmatch(price):
        raise StrategyPolicyError(f"{where}.maxPrice must be a positive fraction like '3/2'")
    slug = _str(obj, "collectionSlug", where)
    return AllowedPool(PoolKind(kind_text), PoolKey(slug, trait), Fraction(price))


def _object(data: object, what: str, fields: frozenset[str]) -> Mapping[str, object]:
    if not isinstance(data, Mapping) or set(data) != fields:
        raise StrategyPolicyError(f"{what} must be an object with exactly {sorted(fields)}")
    return data


def _int(obj: Mapping[str, object], name: str) -> int:
    value = obj[name]
    if type(value) is not int:
        raise StrategyPolicyError(f"{name} must be an integer")
    return value


def _str(obj: Mapping[str, object], name: str, where: str = "the policy") -> str:
    value = obj[name]
    if not isinstance(value, str) or not value:
        raise StrategyPolicyError(f"{where}.{name} must be a non-empty string")
    return value
