"""The JSON manifest beside exported PSBT files: what each PSBT is for, for the offline signer.

    {"format": "bidwallet-offline-psbts", "version": 3, "flow": "secure listing",
     "network": "regtest", "wallet": {"payment": ..., "ordinals": ..., "biddingWallet": ...},
     "factsNote": "...as reported online at export...",
     "marketAtExport": {"tipHeight", "tipMedianTime", "fastestFeeRate"},
     "runeIdsAtExport": {"UNCOMMON•GOODS": "840000:3"},
     "items": [{"name", "psbtFile", "textFile", "unsignedTxid", "sha256", "reviewedPsbt",
                "label", "signer", "inputsToSign": [{"index", "sighash"}], "intent": {...},
                "submit": {...}, "ordAtExport": {...}, "chainAtExport": {...}}]}

`psbtFile` is what the signer gets: only what signing needs (`wallet.psbt_for_signer`);
`reviewedPsbt` (base64) is the PSBT as reviewed at export, the service's own, which the import
reviews again and submits with the approved signatures. Version 2 added it: an export of
version 1 is refused with the reason (export again). Version 3 added `runeIdsAtExport`, the ids
ord gave the runes the items' inputs carry (a runestone's edicts name runes by id): recorded as
ord gave them, so the offline review leaves a lying id unknown exactly as the online one does
(`ReviewContext.rune_id_of`). A version 2 manifest still reads, with no ids: a runestone with
edicts on an input's runes is then refused offline, as before.

The offline side has no network: its review context is the local keys plus what the manifest
recorded from ord and the chain at export, clearly marked as such. Parsing is strict: anything
missing or mistyped raises `ManifestError` naming the field. Pure: no I/O here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from app.core.psbt_review_context import InscriptionAt, KnownUtxo, OutpointContents, RuneAmount
from app.core.psbt_review_time import ChainTip
from app.core.signing_policy import (
    FeeBounds,
    FeeConsent,
    FundingIntent,
    InscriptionBidIntent,
    Intent,
    SecureListingIntent,
    SignPermission,
    WithdrawIntent,
)
from app.services.errors import ServiceError
from app.wallet.addresses import KeyRole

FORMAT: Final = "bidwallet-offline-psbts"
VERSION: Final = 3
READABLE_VERSIONS: Final = (2, 3)  # 2: before runeIdsAtExport (no rune ids)
MANIFEST_NAME: Final = "manifest.json"
FACTS_NOTE: Final = (
    "ordAtExport, chainAtExport and marketAtExport are as reported online at export (by ord "
    "and the chain); the offline signer cannot check them and reviews against them as recorded."
)


class ManifestError(ServiceError):
    """The manifest cannot be read or does not describe the files beside it."""


@dataclass(frozen=True)
class ManifestItem:
    """One exported PSBT. `submit` holds what submitting it needs later (the listing object,
    the bid's fields); `ord_at_export`/`chain_at_export` the facts the online review used."""

    name: str
    psbt_file: str
    text_file: str
    unsigned_txid: str
    sha256: str  # of psbt_file
    reviewed_psbt: str  # base64: the PSBT as reviewed (and as the service sent it)
    label: str
    signer: KeyRole
    inputs_to_sign: tuple[SignPermission, ...]
    intent: Intent
    submit: Mapping[str, Any] = field(default_factory=dict)
    ord_at_export: Mapping[str, OutpointContents] = field(default_factory=dict)
    chain_at_export: Mapping[str, KnownUtxo] = field(default_factory=dict)

    @property
    def signed_psbt_file(self) -> str:
        return f"{self.name}.signed.psbt"

    @property
    def signed_text_file(self) -> str:
        return f"{self.name}.signed.txt"


@dataclass(frozen=True)
class Manifest:
    flow: str
    network: str
    payment_address: str
    ordinals_address: str
    bidding_wallet: str | None
    items: tuple[ManifestItem, ...]
    tip: ChainTip | None = None  # the chain's tip at export (for lock times)
    fastest_fee_rate: Fraction | None = None  # next-block estimate at export (fee bounds)
    rune_ids: Mapping[str, str] = field(default_factory=dict)  # rune name -> id, from ord

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "flow": self.flow,
            "network": self.network,
            "wallet": {
                "payment": self.payment_address,
                "ordinals": self.ordinals_address,
                "biddingWallet": self.bidding_wallet,
            },
            "factsNote": FACTS_NOTE,
            "marketAtExport": {
                "tipHeight": None if self.tip is None else self.tip.height,
                "tipMedianTime": None if self.tip is None else self.tip.median_time,
                "fastestFeeRate": (
                    None if self.fastest_fee_rate is None else str(self.fastest_fee_rate)
                ),
            },
            "runeIdsAtExport": dict(self.rune_ids),
            "items": [_item_json(item) for item in self.items],
        }

    @classmethod
    def from_json(cls, data: Any) -> Manifest:
        top = _obj(data, "the manifest")
        if top.get("format") != FORMAT:
            raise ManifestError(f"Not a Bidwallet offline manifest (format {top.get('format')!r}).")
        version = top.get("version")
        if version not in READABLE_VERSIONS or isinstance(version, bool):
            readable = " and ".join(str(v) for v in READABLE_VERSIONS)
            raise ManifestError(
                f"Manifest version {version!r} is not supported (this app reads versions "
                f"{readable})."
            )
        wallet = _obj(top.get("wallet"), "wallet")
        bidding = wallet.get("biddingWallet")
        tip, fastest = _market(top.get("marketAtExport"))
        return cls(
            flow=_str(top, "flow"),
            network=_str(top, "network"),
            payment_address=_str(wallet, "payment"),
            ordinals_address=_str(wallet, "ordinals"),
            bidding_wallet=bidding if isinstance(bidding, str) else None,
            items=tuple(
                _item(_obj(x, f"items[{i}]"), i) for i, x in enumerate(_list(top, "items"))
            ),
            tip=tip,
            fastest_fee_rate=fastest,
            rune_ids={} if version == 2 else _rune_ids(top.get("runeIdsAtExport")),
        )


def _rune_ids(data: Any) -> dict[str, str]:
    """Rune name -> id as ord gave them; checked for form only (block:tx), since the review
    itself leaves an id ord gives two runes, or of block 0, unknown."""
    ids = _obj(data, "runeIdsAtExport")
    for name, rune_id in ids.items():
        if not isinstance(rune_id, str) or not _RUNE_ID.fullmatch(rune_id):
            raise ManifestError(f"runeIdsAtExport: the id of {name!r} is not block:tx.")
    return dict(ids)


_RUNE_ID = re.compile(r"[0-9]{1,20}:[0-9]{1,10}")


def _market(data: Any) -> tuple[ChainTip | None, Fraction | None]:
    """The tip and fee estimate recorded at export; absent or null: unknown."""
    if data is None:
        return None, None
    market = _obj(data, "marketAtExport")
    height, median = market.get("tipHeight"), market.get("tipMedianTime")
    tip = None
    if height is not None or median is not None:
        tip = ChainTip(_int(market, "tipHeight"), _int(market, "tipMedianTime"))
    rate = market.get("fastestFeeRate")
    if rate is None:
        return tip, None
    try:
        fastest = Fraction(_str(market, "fastestFeeRate"))
    except (ValueError, ZeroDivisionError):
        raise ManifestError("marketAtExport.fastestFeeRate is not a number.") from None
    if fastest <= 0:
        raise ManifestError("marketAtExport.fastestFeeRate must be positive.")
    return tip, fastest


# --- intents -----------------------------------------------------------------------------------


def intent_json(intent: Intent) -> dict[str, Any]:
    if isinstance(intent, WithdrawIntent):
        return {
            "kind": "withdraw",
            "amount": intent.amount,
            "feeFromAmount": intent.fee_from_amount,
            "fees": _fees_json(intent.fees),
            "feeConsent": _consent_json(intent.fee_consent),
        }
    if isinstance(intent, InscriptionBidIntent):
        return {
            "kind": "inscription_bid",
            "inscriptionId": intent.inscription_id,
            "price": intent.price,
            "fees": _fees_json(intent.fees),
            "feeConsent": _consent_json(intent.fee_consent),
        }
    if isinstance(intent, FundingIntent):
        return {
            "kind": "funding",
            "amount": intent.amount,
            "fees": _fees_json(intent.fees),
            "feeConsent": _consent_json(intent.fee_consent),
        }
    if isinstance(intent, SecureListingIntent):
        return {
            "kind": "secure_listing",
            "price": intent.price,
            "receiveAddress": intent.receive_address,
            "inscriptionId": intent.inscription_id,
            "runesOutpoint": intent.runes_outpoint,
        }
    raise ManifestError(f"A {type(intent).__name__} cannot be signed offline.")


def intent_from_json(data: Mapping[str, Any], where: str) -> Intent:
    kind = data.get("kind")
    if kind == "withdraw":
        return WithdrawIntent(
            _int(data, "amount"),
            _fees(data, where),
            bool(data.get("feeFromAmount")),
            _consent(data.get("feeConsent"), where),
        )
    if kind == "inscription_bid":
        return InscriptionBidIntent(
            _str(data, "inscriptionId"),
            _int(data, "price"),
            _fees(data, where),
            _consent(data.get("feeConsent"), where),
        )
    if kind == "funding":
        return FundingIntent(
            _int(data, "amount"), _fees(data, where), _consent(data.get("feeConsent"), where)
        )
    if kind == "secure_listing":
        ins, runes = data.get("inscriptionId"), data.get("runesOutpoint")
        return SecureListingIntent(
            _int(data, "price"),
            _str(data, "receiveAddress"),
            inscription_id=ins if isinstance(ins, str) else None,
            runes_outpoint=runes if isinstance(runes, str) else None,
        )
    raise ManifestError(f"{where}.intent.kind {kind!r} is not a flow this app signs offline.")


def _fees_json(fees: FeeBounds) -> dict[str, Any]:
    return {
        "maxFee": fees.max_fee,
        "maxRate": str(fees.max_rate),
        "minRate": str(fees.min_rate),
        "marketMultiple": str(fees.market_multiple),
        "marketFloor": str(fees.market_floor),
        "maxShare": str(fees.max_share),
    }


def _fees(data: Mapping[str, Any], where: str) -> FeeBounds:
    fees = _obj(data.get("fees"), f"{where}.intent.fees")
    defaults = FeeBounds.of(1, 1)

    def ratio(name: str, default: Fraction) -> Fraction:
        return Fraction(_str(fees, name)) if name in fees else default

    try:
        return FeeBounds(
            _int(fees, "maxFee"),
            Fraction(_str(fees, "maxRate")),
            Fraction(_str(fees, "minRate")),
            ratio("marketMultiple", defaults.market_multiple),
            ratio("marketFloor", defaults.market_floor),
            ratio("maxShare", defaults.max_share),
        )
    except (ValueError, ZeroDivisionError) as exc:
        raise ManifestError(f"{where}.intent.fees: {exc}") from None


def _consent_json(consent: FeeConsent | None) -> dict[str, Any] | None:
    return None if consent is None else {"psbtDigest": consent.psbt_digest, "fee": consent.fee}


def _consent(data: Any, where: str) -> FeeConsent | None:
    """The fee the user accepted online (only the online import uses it: the offline signer
    asks its own user)."""
    if data is None:
        return None
    consent = _obj(data, f"{where}.intent.feeConsent")
    return FeeConsent(_str(consent, "psbtDigest"), _int(consent, "fee"))


# --- items -------------------------------------------------------------------------------------


def _item_json(item: ManifestItem) -> dict[str, Any]:
    return {
        "name": item.name,
        "psbtFile": item.psbt_file,
        "textFile": item.text_file,
        "unsignedTxid": item.unsigned_txid,
        "sha256": item.sha256,
        "reviewedPsbt": item.reviewed_psbt,
        "label": item.label,
        "signer": item.signer.value,
        "inputsToSign": [
            {"index": p.input_index, "sighash": p.sighash} for p in item.inputs_to_sign
        ],
        "intent": intent_json(item.intent),
        "submit": dict(item.submit),
        "ordAtExport": {
            outpoint: {
                "inscriptions": [
                    {"id": i.inscription_id, "offset": i.offset} for i in c.inscriptions
                ],
                "runes": [{"rune": r.rune, "amount": str(r.amount)} for r in c.runes],
            }
            for outpoint, c in item.ord_at_export.items()
        },
        "chainAtExport": {
            outpoint: {"value": u.value, "scriptPubKey": u.script_pubkey.hex()}
            for outpoint, u in item.chain_at_export.items()
        },
    }


def _item(data: Mapping[str, Any], i: int) -> ManifestItem:
    where = f"items[{i}]"
    try:
        return ManifestItem(
            name=_file_name(data, "name"),  # the signed files are named after it
            psbt_file=_file_name(data, "psbtFile"),
            text_file=_file_name(data, "textFile"),
            unsigned_txid=_str(data, "unsignedTxid"),
            sha256=_str(data, "sha256"),
            reviewed_psbt=_str(data, "reviewedPsbt"),
            label=_str(data, "label"),
            signer=KeyRole(_str(data, "signer")),
            inputs_to_sign=tuple(
                SignPermission(_int(p, "index"), _int(p, "sighash"))
                for p in (_obj(x, f"{where}.inputsToSign") for x in _list(data, "inputsToSign"))
            ),
            intent=intent_from_json(_obj(data.get("intent"), f"{where}.intent"), where),
            submit=_obj(data.get("submit", {}), f"{where}.submit"),
            ord_at_export={
                outpoint: _contents(_obj(c, f"{where}.ordAtExport"))
                for outpoint, c in _obj(data.get("ordAtExport"), f"{where}.ordAtExport").items()
            },
            chain_at_export={
                outpoint: _utxo(_obj(u, f"{where}.chainAtExport"))
                for outpoint, u in _obj(data.get("chainAtExport"), f"{where}.chainAtExport").items()
            },
        )
    except ValueError as exc:  # a bad role, amount, hex or intent
        raise ManifestError(f"{where}: {exc}") from None


def _contents(data: Mapping[str, Any]) -> OutpointContents:
    inscriptions = [_obj(x, "an inscription") for x in _list(data, "inscriptions")]
    runes = [_obj(x, "a rune") for x in _list(data, "runes")]
    return OutpointContents(
        tuple(InscriptionAt(_str(x, "id"), _int(x, "offset")) for x in inscriptions),
        tuple(RuneAmount(_str(r, "rune"), int(_str(r, "amount"))) for r in runes),
    )


def _utxo(data: Mapping[str, Any]) -> KnownUtxo:
    return KnownUtxo(_int(data, "value"), bytes.fromhex(_str(data, "scriptPubKey")))


def _obj(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ManifestError(f"{where} must be a JSON object.")
    return value


def _list(data: Mapping[str, Any], name: str) -> list[Any]:
    value = data.get(name)
    if not isinstance(value, list):
        raise ManifestError(f"Field {name!r} must be a list.")
    return value


def _str(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value:
        raise ManifestError(f"Field {name!r} must be a non-empty string.")
    return value


def _int(data: Mapping[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ManifestError(f"Field {name!r} must be an integer.")
    return value


def _file_name(data: Mapping[str, Any], name: str) -> str:
    """A bare file name: a manifest must never point outside its own directory."""
    value = _str(data, name)
    if "/" in value or "\\" in value or value in (".", "..") or value.startswith("."):
        raise ManifestError(f"Field {name!r} must be a plain file name, not {value!r}.")
    return value
