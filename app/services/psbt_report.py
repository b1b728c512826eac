"""The review of a PSBT as `bidwallet psbt inspect` and `psbt sign` show it: one JSON-ready
report per PSBT (schema `bidwallet-psbt-review`, version 1, in docs/offline-signing.md), made
from the guard's own Review and Verdict, and the text a person reads, drawn from that report
(so the terminal and `--json` never say different things). Pure: no I/O.

The sentences come from app/core (the headline, the "you give" summary, each output's party,
where each inscription lands, the sighash's risk, the policy's reasons): the review dialog
draws the same ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from app.core.psbt_review import Review, sighash_name
from app.core.psbt_review_headline import headline
from app.core.psbt_review_parties import input_parties, output_parties
from app.core.signing_policy import Verdict

FORMAT: Final = "bidwallet-psbt-review"
VERSION: Final = 1
APPROVED, REFUSED, NEEDS_FEE_CONSENT, REVIEW_ONLY = (
    "approved",
    "refused",
    "needs-fee-consent",
    "review-only",
)
NO_MANIFEST_REASON: Final = (
    "No manifest says what this PSBT is for (a listing, a bid, a withdrawal, a funding): no "
    "signing policy applies, so it is reviewed only and never signed. Export it from the app "
    "for offline signing and give the folder."
)
NO_WALLET_NOTE: Final = (
    "Without a manifest no address is known as yours, and no amount is confirmed by the chain "
    "(only a previous transaction inside the PSBT vouches for one)."
)


@dataclass(frozen=True)
class ReviewedFile:
    """What to report about one PSBT: `verdict` None when no policy applies (a lone file)."""

    name: str
    file: str
    label: str
    review: Review
    verdict: Verdict | None
    signer: str | None = None  # the key role that signs it: "payment" or "ordinals"


def decision_of(verdict: Verdict | None) -> str:
    if verdict is None:
        return REVIEW_ONLY
    if verdict.approved:
        return APPROVED
    return NEEDS_FEE_CONSENT if verdict.needs_fee_consent else REFUSED


def set_decision(files: Sequence[ReviewedFile]) -> str:
    """A set is approved only when each PSBT is: one refusal refuses it, as in the window."""
    decisions = {decision_of(f.verdict) for f in files}
    for decided in (REVIEW_ONLY, REFUSED, NEEDS_FEE_CONSENT):
        if decided in decisions:
            return decided
    return APPROVED


def report(
    files: Sequence[ReviewedFile], source: dict[str, Any], notes: Sequence[str] = ()
) -> dict[str, Any]:
    """The whole inspection: where the PSBTs came from (`source`), notes about the facts, each
    PSBT's review and the set's decision."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "source": source,
        "notes": list(notes),
        "decision": set_decision(files),
        "psbts": [psbt_report(f) for f in files],
    }


def psbt_report(f: ReviewedFile) -> dict[str, Any]:
    review, verdict = f.review, f.verdict
    flow = "" if verdict is None else str(verdict.flow)
    ins, outs = input_parties(review, flow), output_parties(review, flow)
    return {
        "name": f.name,
        "file": f.file,
        "label": f.label,
        "txid": review.txid,
        "flow": flow or None,
        "headline": headline(review, flow) if flow else _unowned_headline(review),
        "summary": list(review.summary.lines()) if flow else [],  # "you give" needs our addresses
        "inputs": [
            {
                "index": i.index,
                "outpoint": i.outpoint,
                "amount": i.value,
                "owner": ins[i.index].name,
                "address": i.address,
                "carries": None if i.contents is None else i.contents.describe(),
                "sighash": {
                    "name": i.sighash.name,
                    "value": i.sighash.value,
                    "risk": str(i.sighash.risk),
                    "explanation": i.sighash.explanation,
                },
                "final": i.final,
            }
            for i in review.inputs
        ],
        "outputs": [
            {
                "index": o.index,
                "amount": o.value,
                "owner": outs[o.index].name,
                "address": o.address,
                "inscriptions": list(o.inscriptions),
                "runes": [{"rune": r.rune, "amount": r.amount} for r in o.runes],
            }
            for o in review.outputs
        ],
        "inscriptions": [
            {
                "id": x.inscription_id,
                "input": x.input_index,
                "output": x.output_index,
                "toFee": x.to_fee,
                "where": _landing_place(x.output_index, x.describe(), outs),
            }
            for x in review.landings
        ],
        "runes": {
            "runestone": review.rune_moves.describe_runestone(),
            "decoded": review.rune_moves.decoded,
            "reason": review.rune_moves.reason or None,
            "burned": [{"rune": r.rune, "amount": r.amount} for r in review.rune_moves.burned],
        },
        "fee": _fee(review, verdict),
        "time": list(review.timelocks.lines(review.context.tip)),
        "findings": [{"risk": str(x.risk), "message": x.message} for x in review.findings],
        "verdict": _verdict(f, verdict),
    }


def _unowned_headline(review: Review) -> str:
    ins, outs = len(review.inputs), len(review.outputs)
    return (
        f"Spends {ins} input{'s' if ins != 1 else ''} into {outs} output"
        f"{'s' if outs != 1 else ''}; none is known as yours."
    )


def _landing_place(index: int | None, described: str, parties: Sequence[Any]) -> str:
    if index is not None and index < len(parties):
        return f"output {index}, {parties[index].name}"  # as the window says it
    return described


def _fee(review: Review, verdict: Verdict | None) -> dict[str, Any]:
    rate = review.fee_rate
    assessed = None if verdict is None else verdict.fee
    return {
        "sats": review.fee,
        "vsize": review.vsize.vsize,
        "rate": None if rate is None else round(float(rate), 2),
        "rateGuessed": not review.vsize.exact_types,
        "assessed": None if assessed is None else assessed.describe(),
    }


def _verdict(f: ReviewedFile, verdict: Verdict | None) -> dict[str, Any]:
    if verdict is None:
        return {"decision": REVIEW_ONLY, "reasons": [NO_MANIFEST_REASON], "codes": [],
                "toSign": [], "signer": None}  # fmt: skip
    return {
        "decision": decision_of(verdict),
        "reasons": list(verdict.reasons()),
        "codes": [str(c) for c in verdict.codes],
        "toSign": [
            {"input": p.input_index, "sighash": sighash_name(p.sighash)} for p in verdict.to_sign
        ],
        "signer": f.signer,
    }


# --- text -------------------------------------------------------------------------------------

_MARKS = {"danger": "⚠", "note": "•", "ok": "•"}
_DECISION_WORDS = {
    APPROVED: "APPROVED",
    REFUSED: "REFUSED",
    NEEDS_FEE_CONSENT: "NEEDS YOUR CONSENT TO ITS FEE",
    REVIEW_ONLY: "REVIEW ONLY (never signed)",
}


def text_of(inspection: dict[str, Any]) -> str:
    """The report as a person reads it at a terminal."""
    lines: list[str] = []
    source = inspection["source"]
    lines.append(f"{source['description']}")
    lines += [_wrapped(note, "  ") for note in inspection["notes"]]
    for psbt in inspection["psbts"]:
        lines.append("")
        lines += psbt_text(psbt)
    lines.append("")
    lines.append(_set_text(inspection))
    return "\n".join(lines)


def _set_text(inspection: dict[str, Any]) -> str:
    psbts, decision = inspection["psbts"], inspection["decision"]
    word = _DECISION_WORDS[decision]
    if decision == APPROVED:
        every = "the PSBT" if len(psbts) == 1 else f"all {len(psbts)} PSBTs"
        return f"Verdict for the set: {word}: the policy approves {every}."
    held = sum(p["verdict"]["decision"] == decision for p in psbts)
    return f"Verdict for the set: {word} ({held} of {_psbts(len(psbts))}); nothing is signed."


def psbt_text(p: dict[str, Any]) -> list[str]:
    head = f"── {p['name']}" + (f" · {p['label']}" if p["label"] else "")
    lines = [head, _wrapped(p["headline"], "   "), f"   Transaction {p['txid']}"]
    lines += [_wrapped(s, "   ") for s in p["summary"]]
    lines.append("   Inputs (who gives):")
    for i in p["inputs"]:
        amount = "amount unconfirmed" if i["amount"] is None else f"{i['amount']:,} sats"
        carries = "unknown to ord" if i["carries"] is None else i["carries"]
        sig = i["sighash"]
        lines.append(f"     #{i['index']} {amount} from {i['owner']} · {i['outpoint']}")
        lines.append(f"        carries: {carries}")
        lines.append(
            f"        sighash {sig['name']} {_MARKS[sig['risk']]} {sig['explanation']}"
            + (" · already final" if i["final"] else "")
        )
    lines.append("   Outputs (who receives):")
    for o in p["outputs"]:
        address = o["address"] or "no address"
        lines.append(f"     #{o['index']} {o['amount']:,} sats to {o['owner']} · {address}")
        got = [f"inscription {x}" for x in o["inscriptions"]]
        got += [f"{r['amount']:,} {r['rune']}" for r in o["runes"]]
        if got:
            lines.append(f"        receives {', '.join(got)}")
    for x in p["inscriptions"]:
        lines.append(f"   Inscription {x['id']} (input {x['input']}) lands on {x['where']}.")
    runes = p["runes"]
    if runes["runestone"]:
        lines.append(f"   Runestone: {runes['runestone']}")
    if not runes["decoded"] and runes["reason"]:
        lines.append(f"   Runes: cannot be followed ({runes['reason']}).")
    lines.append(f"   Fee: {_fee_text(p['fee'])}")
    lines += [f"   {t}" for t in p["time"]]
    said = set(p["verdict"]["reasons"])
    for finding in p["findings"]:
        if finding["message"] not in said:
            mark = _MARKS[finding["risk"]]
            lines.append(_wrapped(finding["message"], f"   {mark} ", "     "))
    lines += _verdict_text(p["verdict"], p["flow"])
    return lines


def _fee_text(fee: dict[str, Any]) -> str:
    if fee["sats"] is None:
        return "unknown (an input's amount is not confirmed by the chain)"
    if fee["sats"] < 0:
        return (
            f"none from you: the outputs exceed the inputs by {-fee['sats']:,} sats (the other "
            "party adds inputs to pay them and the fee)"
        )
    size = f"about {fee['vsize']:,} vB once signed"
    if fee["assessed"]:  # the policy's own figures: sats, sat/vB, share of the amount moved
        return f"{fee['assessed']} · {size}"
    rate = "unknown" if fee["rate"] is None else f"{fee['rate']:.1f} sat/vB"
    guessed = " (size guessed)" if fee["rateGuessed"] else ""
    return f"{fee['sats']:,} sats · {rate}{guessed} · {size}"


def _verdict_text(v: dict[str, Any], flow: str | None) -> list[str]:
    word = _DECISION_WORDS[v["decision"]]
    if v["decision"] == APPROVED:
        signs = ", ".join(f"input {s['input']} ({s['sighash']})" for s in v["toSign"])
        return [
            f"   Verdict: {word} by the {flow} policy: sign {signs} with your {v['signer']} key."
        ]
    lines = [f"   Verdict: {word}" + (f" by the {flow} policy:" if flow else ":")]
    return lines + [_wrapped(reason, "     - ", "       ") for reason in v["reasons"]]


def _wrapped(text: str, first: str, rest: str | None = None) -> str:
    """`text` wrapped at 100 columns, for a terminal."""
    import textwrap

    indent = first if rest is None else rest
    return textwrap.fill(text, 100, initial_indent=first, subsequent_indent=indent)


def _psbts(count: int) -> str:
    return "1 PSBT" if count == 1 else f"{count} PSBTs"
