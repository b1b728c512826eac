"""The PSBT review dialog and what the flow tabs share."""

from __future__ import annotations

from typing import Final

from app.ui.strings.plural import Counted

# -- PSBT review dialog (UI-B) -------------------------------------------------------------
REVIEW_TITLE_DEFAULT: Final = "Review before signing"
REVIEW_SIGN: Final = "&Sign"
REVIEW_CANCEL: Final = "&Cancel"
REVIEW_CLOSE: Final = "&Close"
REVIEW_YOU: Final = "What this transaction does to you"
REVIEW_PLANS_HEADERS: Final = ("Item", "You give", "You receive", "Fee", "Verdict")
REVIEW_PLANS_INTRO: Final = "{count} transactions. Select one to see its inputs and outputs."
REVIEW_INPUTS: Final = "Inputs (spent)"
REVIEW_OUTPUTS: Final = "Outputs (created)"
REVIEW_INPUT_HEADERS: Final = ("#", "Coin", "Address", "Amount", "Owner", "Carries", "Sighash")
REVIEW_OUTPUT_HEADERS: Final = ("#", "Address", "Amount", "Owner", "Receives")
REVIEW_TRANSACTION: Final = "Transaction"
REVIEW_TRANSACTION_OF: Final = "Transaction {number} of {count}: {label}"
REVIEW_TXID: Final = "Txid:"
REVIEW_SIZE: Final = "Size:"
REVIEW_SIZE_TEXT: Final = "about {vsize:,} vB once signed ({inputs} in, {outputs} out)"
REVIEW_FEE_ROW: Final = "Fee:"
REVIEW_WHEN: Final = "Confirms:"
REVIEW_TOTALS: Final = (
    "In all: you give {give}; you receive {receive}; network fees {fees} (the sum of the"
    " {count} transactions above)."
)
# A bulk listing: items go out with the sats they sit on; the price comes back once bought.
REVIEW_TOTALS_ITEMS: Final = (
    "In all: you give {items} and the {postage} of postage they carry; once bought, you"
    " receive {receive} ({gain} more); network fees {fees}."
)
REVIEW_ITEMS: Final = Counted("{count} item", "{count} items")
REVIEW_ITEMS_WITH: Final = "with {sats}"
REVIEW_ROW_INPUT: Final = "Input {index}: {address} · {amount} · {owner} · coin {coin}"
REVIEW_ROW_OUTPUT: Final = "Output {index}: {address} · {amount} · {owner}"
REVIEW_ROW_HINT: Final = "Select an input or output to see (and select) its whole address here."
REVIEW_SIGHASH_RISK: Final = "{name} ({risk})"
# Export (Sparrow's "Save PSBT", "Copy transaction hex").
REVIEW_EXPORT: Final = "E&xport"
REVIEW_SAVE_BINARY: Final = "Save PSBT (binary .psbt)…"
REVIEW_SAVE_BASE64: Final = "Save PSBT (base64 text)…"
REVIEW_COPY_PSBT: Final = "Copy PSBT (base64)"
REVIEW_COPY_TX_UNSIGNED: Final = "Copy unsigned transaction (hex, no signatures)"
REVIEW_COPY_TX_SIGNED: Final = "Copy signed transaction (hex)"
REVIEW_SAVE_TITLE: Final = "Save PSBT"
REVIEW_SAVE_FILTER_BINARY: Final = "PSBT files (*.psbt);;All files (*)"
REVIEW_SAVE_FILTER_BASE64: Final = "Base64 PSBT (*.txt *.psbt);;All files (*)"
REVIEW_SAVED: Final = "Saved the PSBT to {path}."
REVIEW_SAVE_FAILED: Final = "The PSBT was not saved: {reason}"
REVIEW_NO_PSBT: Final = "This review holds no PSBT to export."
REVIEW_PSBT_WHAT: Final = "The PSBT (base64)"
REVIEW_TX_UNSIGNED_WHAT: Final = "The unsigned transaction (hex)"
REVIEW_TX_SIGNED_WHAT: Final = "The signed transaction (hex)"
REVIEW_LEGEND: Final = "Owner colours:"
REVIEW_UNKNOWN: Final = "unknown"
REVIEW_NOTHING: Final = "nothing"
REVIEW_RUNES_BURNED: Final = "{runes} (burned)"
REVIEW_RUNES_BURNED_TIP: Final = (
    "Runes sent to an OP_RETURN output are burned: ord destroys them and nobody receives them."
)
REVIEW_SIGHASH_DEFAULT: Final = "not set (ALL)"
REVIEW_SIGHASH_THEIRS: Final = "signed by its owner"
REVIEW_SIGHASH_THEIRS_TIP: Final = (
    "Not yours: its owner signs it. Your signatures on the other inputs commit to it."
)
REVIEW_FEE: Final = "{fee} · {rate}"
REVIEW_FEE_UNKNOWN: Final = "unknown (an input amount is missing or not confirmed by the chain)"
REVIEW_FEE_NEGATIVE: Final = "none yet (the other party adds inputs to pay it)"
REVIEW_RATE: Final = "{rate:.1f} sat/vB"
REVIEW_RATE_GUESSED: Final = "{rate:.1f} sat/vB (estimated: an input's type is unknown)"
REVIEW_LANDS: Final = "Inscription {inscription} (input {input}) lands on {where}."
REVIEW_LANDS_ON: Final = "output {index}, {owner}"
REVIEW_FINDINGS: Final = "Things to know"
REVIEW_APPROVED: Final = Counted(
    ("This {flow} passes every check: only your input {inputs} will be signed, nothing else."),
    ("This {flow} passes every check: only your inputs {inputs} will be signed, nothing else."),
)
REVIEW_APPROVED_ALL: Final = Counted(
    (
        "All {transactions} transactions ({flow}) pass every check: in each, only your input "
        "{inputs} will be signed, nothing else."
    ),
    (
        "All {transactions} transactions ({flow}) pass every check: in each, only your inputs "
        "{inputs} will be signed, nothing else."
    ),
)
# A watch-only profile's review: the PSBT is exported for the other wallet, not signed here.
REVIEW_APPROVED_ELSEWHERE: Final = Counted(
    (
        "This {flow} passes every check: only your input {inputs} is to be signed, in your"
        " other wallet; nothing is signed here."
    ),
    (
        "This {flow} passes every check: only your inputs {inputs} are to be signed, in your"
        " other wallet; nothing is signed here."
    ),
)
REVIEW_APPROVED_ALL_ELSEWHERE: Final = Counted(
    (
        "All {transactions} transactions ({flow}) pass every check: in each, only your input"
        " {inputs} is to be signed, in your other wallet; nothing is signed here."
    ),
    (
        "All {transactions} transactions ({flow}) pass every check: in each, only your inputs"
        " {inputs} are to be signed, in your other wallet; nothing is signed here."
    ),
)
REVIEW_REFUSED: Final = (
    "Bidwallet refuses to sign this {flow}: nothing will be signed or sent. Why:"
)
REVIEW_REFUSED_SOME: Final = (
    "{refused} of {count} transactions are refused: nothing will be signed or sent."
)
REVIEW_NEEDS_CONSENT: Final = (
    "This {flow} passes every check but one: its fee, {fee}, is outside your bounds."
)
REVIEW_NEEDS_CONSENT_SOME: Final = (
    "{count} of {total} transactions pass every check but their fee, which is outside your bounds."
)
REVIEW_CONSENT_HINT: Final = "Nothing is signed unless you accept this fee below."
REVIEW_FEE_CONSENT: Final = "I accept paying {fee} for this transaction"
REVIEW_FEE_CONSENT_MANY: Final = "I accept these fees, for these {count} transactions only"
REVIEW_FEE_SHARE: Final = "{share}% of the {moved:,} sats moved"
REVIEW_TIME: Final = "When it can confirm"
REVIEW_VERDICT_OK: Final = "OK to sign"
REVIEW_VERDICT_REFUSED: Final = "Refused"
REVIEW_VERDICT_FEE: Final = "Fee needs your OK"
REVIEW_RISKS: Final = {"ok": "OK", "note": "Note", "danger": "Danger"}
REVIEW_NETWORK: Final = "Network: {network} · transaction {txid}"

# -- flow tabs, shared (UI-A: wallet session) ----------------------------------------------
NOT_CONNECTED_HINT: Final = (
    "Not connected to a service. Choose or add a profile in Settings, or restart with the sandbox."
)
UNLOCK_FIRST_HINT: Final = "Unlock the wallet (Ctrl+U) to see its addresses, balance and bids."
UNLOCK_TO_SIGN_HINT: Final = "The wallet is locked: unlock it (Ctrl+U), then try again."
WATCH_ONLY_CANNOT_SIGN: Final = (
    "This profile is watch-only: it cannot sign. Sign on the computer that holds the keys."
)
SERVICE_REFUSED: Final = "The service refused: {message}{code}"
SERVICE_UNREACHABLE: Final = (
    "The {service} could not be reached ({reason}). Check the connection and try again."
)
SERVICE_BAD_ANSWER: Final = "The service gave an answer Bidwallet cannot read: {details}"
SATS: Final = "{sats:,} sats"
SATS_AND_BTC: Final = "{sats:,} sats ({btc} BTC)"
UNIT_SATS: Final = "sats"
UNIT_BTC: Final = "BTC"
COPY: Final = "Copy"
COPIED: Final = "{what} copied to the clipboard."
REFRESH: Final = "&Refresh"
UPDATED_AT: Final = "Updated {time}"
AMOUNT_INVALID: Final = "Enter an amount in {unit}, like {example}."
AMOUNT_TOO_PRECISE: Final = "A bitcoin amount has at most 8 decimals (1 sat = 0.00000001 BTC)."
