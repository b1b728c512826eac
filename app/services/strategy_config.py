"""A strategy as the headless command reads it: `<profile dir>/strategies/<policy id>.json`.

What the user wants per pool (its rule, budget, floor band), the budgets of the whole strategy
and its bids' lifecycle; the approved policy of the same id (sealed with the vault,
`strategy_policies`) is what bounds it. The file is plain JSON and not authenticated on
purpose: it is intent, not authority. A file that asks more than the policy allows gets its
bids refused by the signer, never signed.

    {"policy_id": "pixel-keeper", "total_budget_sats": 300000, "max_active_bids": 10,
     "tick_ms": 10000, "units_per_tick": 20,
     "lifecycle": {"bid_lifetime_ms": 1800000, "renew_before_ms": 180000,
                   "update_threshold": "1/100", "max_market_age_ms": 120000},
     "pools": [
       {"collection": "pixel-pals", "budget_sats": 200000,
        "rule": {"below_floor": {"percent": 10, "cap": 50000}},
        "floor_band": {"min": 30000, "max": 90000}},
       {"collection": "pixel-pals", "trait": {"trait_type": "hat", "value": "red"},
        "budget_sats": 100000,
        "rule": {"ladder": [{"share": 50, "rule": {"fixed": 20000}},
                            {"share": 50, "rule": {"above_top_bid": {"cap": 30000,
                                                   "floor_percent": 80, "opening": 21000}}}]}}]}

Numbers are integers, or fractions written "a/b" (a rune's price per unit). A rune pool names
`"rune"` instead of `"collection"`. Anything else is a `StrategyConfigError` naming the field.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

from app.core.bid_request import Trait
from app.core.pools import PoolKey
from app.core.strategy_rules import (
    AboveTopBid,
    BelowFloor,
    FixedPrice,
    FloorBand,
    InvalidStrategy,
    Ladder,
    LadderStep,
    PoolStrategy,
    PriceRule,
    StrategyRule,
)
from app.core.strategy_settings import LifecycleSettings, StrategyLimits
from app.services.errors import ServiceError
from app.services.strategy_engine import StrategyConfig

STRATEGIES_DIR = Path("strategies")
MAX_CONFIG_BYTES = 1_000_000


class StrategyConfigError(ServiceError):
    """The strategy file is missing, not JSON, or a field is out of its range."""


def config_path(profile_dir: Path, policy_id: str) -> Path:
    return profile_dir / STRATEGIES_DIR / f"{policy_id}.json"


def strategy_ids(profile_dir: Path) -> list[str]:
    """The strategies a profile has a file for."""
    folder = profile_dir / STRATEGIES_DIR
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def load_config(path: Path) -> StrategyConfig:
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise StrategyConfigError(f"{path} is larger than {MAX_CONFIG_BYTES:,} bytes")
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StrategyConfigError(f"no strategy file {path}") from None
    except (OSError, ValueError) as exc:
        raise StrategyConfigError(f"{path} cannot be read as JSON: {exc}") from None
    try:
        return parse_config(data)
    except (InvalidStrategy, KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise StrategyConfigError(f"{path}: {exc}") from None


def save_config(profile_dir: Path, config: StrategyConfig) -> Path:
    """Write the strategy's file (the window's "keep this bid" and edits): atomically, so a
    crash leaves the old file or the new one, never half of one."""
    path = config_path(profile_dir, config.policy_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(config_to_json(config), indent=2, ensure_ascii=False) + "\n"
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise StrategyConfigError(f"cannot write {path}: {exc.strerror}") from None
    return path


def config_to_json(config: StrategyConfig) -> dict[str, Any]:
    """The file's form of `config`: `parse_config(config_to_json(c)) == c`."""
    life = config.lifecycle
    return {
        "policy_id": config.policy_id,
        "total_budget_sats": config.limits.total_budget_sats,
        "max_active_bids": config.limits.max_active_bids,
        "tick_ms": config.tick_ms,
        "units_per_tick": config.units_per_tick,
        "lifecycle": {
            "bid_lifetime_ms": life.bid_lifetime_ms,
            "renew_before_ms": life.renew_before_ms,
            "update_threshold": _num_json(life.update_threshold),
            "max_market_age_ms": life.max_market_age_ms,
        },
        "pools": [_pool_json(p) for p in config.pools],
    }


def _pool_json(strategy: PoolStrategy) -> dict[str, Any]:
    pool = strategy.pool
    out: dict[str, Any] = {("rune" if strategy.is_rune else "collection"): pool.collection_slug}
    if pool.trait is not None:
        out["trait"] = {"trait_type": pool.trait.trait_type, "value": pool.trait.value}
    out["budget_sats"] = strategy.budget_sats
    out["rule"] = _rule_json(strategy.rule)
    band = strategy.floor_band
    if band is not None:
        out["floor_band"] = {"min": _opt_json(band.min_floor), "max": _opt_json(band.max_floor)}
    return out


def _rule_json(rule: StrategyRule) -> dict[str, Any]:
    if isinstance(rule, Ladder):
        steps = [
            {"share": _num_json(s.budget_percent), "rule": _rule_json(s.rule)} for s in rule.steps
        ]
        return {"ladder": steps}
    if isinstance(rule, FixedPrice):
        return {"fixed": _num_json(rule.unit_price)}
    if isinstance(rule, BelowFloor):
        return {
            "below_floor": {
                "percent": _num_json(rule.percent_below),
                "cap": _num_json(rule.max_unit_price),
            }
        }
    return {
        "above_top_bid": {
            "cap": _num_json(rule.max_unit_price),
            "floor_percent": _num_json(rule.max_floor_percent),
            "opening": _opt_json(rule.opening_unit_price),
        }
    }


def _num_json(value: Fraction | int) -> int | str:
    exact = Fraction(value)
    return exact.numerator if exact.denominator == 1 else f"{exact.numerator}/{exact.denominator}"


def _opt_json(value: Fraction | int | None) -> int | str | None:
    return None if value is None else _num_json(value)


def parse_config(data: Any) -> StrategyConfig:
    top = _obj(data, "the strategy")
    pools = tuple(_pool(p, i) for i, p in enumerate(_list(top, "pools")))
    lifecycle = LifecycleSettings()
    if "lifecycle" in top:
        life = _obj(top["lifecycle"], "lifecycle")
        lifecycle = LifecycleSettings(
            bid_lifetime_ms=_int(life, "bid_lifetime_ms", lifecycle.bid_lifetime_ms),
            renew_before_ms=_int(life, "renew_before_ms", lifecycle.renew_before_ms),
            update_threshold=Fraction(
                _num(life.get("update_threshold", lifecycle.update_threshold))
            ),
            max_market_age_ms=_int(life, "max_market_age_ms", lifecycle.max_market_age_ms),
        )
    policy_id = top.get("policy_id")
    if not isinstance(policy_id, str) or not policy_id:
        raise StrategyConfigError("policy_id: the approved policy's id (a string)")
    return StrategyConfig(
        policy_id,
        pools,
        StrategyLimits(_int(top, "total_budget_sats"), _int(top, "max_active_bids")),
        lifecycle,
        **{k: _int(top, k) for k in ("tick_ms", "units_per_tick") if k in top},
    )


def _pool(data: Any, index: int) -> PoolStrategy:
    pool = _obj(data, f"pools[{index}]")
    rune = "rune" in pool
    slug = pool.get("rune" if rune else "collection")
    if not isinstance(slug, str) or not slug:
        raise StrategyConfigError(f"pools[{index}]: a 'collection' (or 'rune') name")
    trait = None
    if pool.get("trait") is not None:
        raw = _obj(pool["trait"], f"pools[{index}].trait")
        trait = Trait(str(raw["trait_type"]), str(raw["value"]))
    band = None
    if pool.get("floor_band") is not None:
        raw = _obj(pool["floor_band"], f"pools[{index}].floor_band")
        band = FloorBand(_opt(raw.get("min")), _opt(raw.get("max")))
    return PoolStrategy(
        PoolKey(slug, trait), _rule(pool["rule"]), _int(pool, "budget_sats"), band, rune
    )


def _rule(data: Any) -> StrategyRule:
    rule = _obj(data, "rule")
    if len(rule) != 1:
        raise StrategyConfigError(
            f"a rule is one of fixed, below_floor, above_top_bid, ladder: {rule}"
        )
    ((kind, value),) = rule.items()
    if kind == "ladder":
        steps = value if isinstance(value, list) else []
        return Ladder(tuple(LadderStep(_price_rule(s["rule"]), _num(s["share"])) for s in steps))
    return _price_rule(rule)


def _price_rule(data: Any) -> PriceRule:
    ((kind, value),) = _obj(data, "rule").items()
    if kind == "fixed":
        return FixedPrice(_num(value))
    args = _obj(value, kind)
    if kind == "below_floor":
        return BelowFloor(_num(args["percent"]), _num(args["cap"]))
    if kind == "above_top_bid":
        return AboveTopBid(
            _num(args["cap"]), _num(args["floor_percent"]), _opt(args.get("opening"))
        )
    raise StrategyConfigError(f"unknown rule {kind!r}: fixed, below_floor, above_top_bid, ladder")


def _obj(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise StrategyConfigError(f"{what} must be a JSON object")
    return data


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise StrategyConfigError(f"{key} must be a non-empty list")
    return value


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if type(value) is not int:
        raise StrategyConfigError(f"{key} must be a whole number, got {value!r}")
    return value


def _num(value: Any) -> Fraction | int:
    if type(value) is int:
        return value
    if isinstance(value, Fraction):
        return value
    if isinstance(value, str):
        return Fraction(value)
    raise StrategyConfigError(f"a number (integer, or 'a/b') expected, got {value!r}")


def _opt(value: Any) -> Fraction | int | None:
    return None if value is None else _num(value)
