"""The Bid form's broken rules in the user's words, at the field the user edits.

`app.core.bid_validation` words a violation for whoever sends the request ("quantity must be at
least 1; 0 was sent: send 1 or more"): the API's error body, the sandbox's answer. The form
shows the same rule by its code (the codes are the spec's and ours, unchanged) in words about
the field on screen ("Bid on at least 1 item."). A violation the form cannot cause (a
timestamp, an identity field) keeps the core's sentence."""

from __future__ import annotations

from app.core.errors import ErrorCode, RuleViolation
from app.ui import strings

_E = ErrorCode


def _sats(n: object) -> str:
    return strings.SATS.format(sats=int(n)) if isinstance(n, int) else str(n)


def user_message(violation: RuleViolation, runes: bool, target: str) -> str:
    """What the form says of `violation` for a bid on runes (or ordinals) named `target`
    ("" when another message of the same field says it already)."""
    details = violation.details
    code = violation.code
    if code is _E.COLLECTION_BID_PRICE_TOO_LOW:
        return strings.BID_RULE_PRICE_MIN.format(min=_sats(details.get("limit")))
    if code is _E.RUNE_BID_PRICE_TOO_LOW:
        return strings.BID_RULE_RUNE_PRICE_MIN.format(min=_sats(details.get("limit")))
    if code is _E.COLLECTION_BID_PRICE_STEP:
        return price_step_text(details.get("step"), details.get("requested"))
    if code is _E.COLLECTION_BID_QUANTITY_INVALID:
        return strings.BID_RULE_UNITS_MIN if runes else strings.BID_RULE_QUANTITY_MIN
    if code is _E.COLLECTION_BID_TOO_MANY_ORDERS:
        return strings.BID_RULE_TOO_MANY_BIDS.format(
            count=details.get("requested"), limit=details.get("limit")
        )
    if code is _E.COLLECTION_BID_EXPIRY_TOO_SOON:
        return strings.BID_EXPIRY_PAST
    if code is _E.COLLECTION_BID_TOO_MANY_ATTRIBUTES:
        return strings.BID_TRAITS_LIMIT.format(limit=details.get("limit"))
    if code is _E.COLLECTION_BID_TRAITS_NOT_ALLOWED:
        return strings.BID_RULE_NO_TRAITS
    if code is _E.COLLECTION_BID_TRAIT_INVALID:
        return strings.BID_RULE_TRAIT_TEXT
    if code is _E.COLLECTION_BID_DUPLICATE_TRAIT:
        return strings.BID_RULE_TRAIT_TWICE
    if code is _E.INVALID_FIELD and violation.field == "collectionSlug":
        return _name_problem(target, runes)
    return violation.message


def price_step_text(step: object, requested: object) -> str:
    """An ordinals price off the bid grid: the step, and the two prices around it."""
    if not isinstance(step, int) or not isinstance(requested, int) or step <= 0:
        return strings.BID_RULE_PRICE_STEP.format(step=_sats(step), options="")
    lower = requested // step * step
    if lower <= 0:
        return ""  # under the first step: the price floor says it
    options = strings.BID_RULE_PRICE_OPTIONS.format(low=f"{lower:,}", high=_sats(lower + step))
    return strings.BID_RULE_PRICE_STEP.format(step=_sats(step), options=options)


def _name_problem(target: str, runes: bool) -> str:
    what = strings.BID_RULE_WHAT_RUNE if runes else strings.BID_RULE_WHAT_SLUG
    if ":" in target:
        return strings.BID_RULE_NAME_COLON.format(what=what)
    return strings.BID_RULE_NAME_CONTROL.format(what=what)
