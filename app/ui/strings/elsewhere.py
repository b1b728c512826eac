"""Signing elsewhere: a watch-only profile's keys sign in another wallet."""

from __future__ import annotations

from typing import Final

from app.ui.strings.plural import Counted

# -- signed elsewhere (a watch-only profile's keys sign in another wallet) ------------------
ELSEWHERE_EXPORT_ACTION: Final = "&Export for signing elsewhere"
ELSEWHERE_EXPORT_FOLDER: Final = "Choose an empty folder for the PSBT to sign"
ELSEWHERE_EXPORTING: Final = "Writing the PSBT files…"
ELSEWHERE_EXPORTED: Final = Counted(
    (
        "Exported to {folder}. Sign {files} in the wallet that holds your keys (Sparrow, a"
        " hardware wallet, …): as a file (save the signed PSBT into that folder under any name,"
        " then “Import signed…”) or as a QR code (“Show PSBT as QR…”, then “Scan signed QR…”)."
    ),
    (
        "Exported {count} PSBTs to {folder}. Sign {files} in the wallet that holds your keys"
        " (Sparrow, a hardware wallet, …): as files (save the signed PSBTs into that folder,"
        " then “Import signed…”) or as QR codes (“Show PSBT as QR…”, then “Scan signed QR…”"
        " for each)."
    ),
)
ELSEWHERE_NOT_EXPORTED: Final = "Not exported: no folder was chosen, nothing was written."
ELSEWHERE_IMPORT: Final = "&Import signed…"
ELSEWHERE_IMPORT_FOLDER: Final = "Choose the export's folder, with the signed PSBT saved in it"
ELSEWHERE_IMPORT_TITLE: Final = "Submit what your other wallet signed"
ELSEWHERE_SUBMIT_ACTION: Final = Counted(
    "&Submit the signed PSBT", "&Submit the {count} signed PSBTs"
)
ELSEWHERE_IMPORT_FAILED: Final = "Not imported: {reason}"
ELSEWHERE_SCAN: Final = "Scan si&gned QR…"
ELSEWHERE_SCAN_TIP: Final = (
    "Scan the signed PSBT your other wallet shows as an animated QR code (BBQr or UR"
    " crypto-psbt), or the signed export Bidwallet's offline signer shows: it is saved into the"
    " export's folder, then checked and submitted as Import signed… does."
)
ELSEWHERE_SCAN_SAVED: Final = "Scanned and saved as {file} in {folder}; checking it…"
ELSEWHERE_SCAN_MORE: Final = Counted(
    "Scanned and saved as {file} in {folder}. Still to scan, signed: {files}.",
    "Scanned and saved as {file} in {folder}. Still to scan, signed: {files} ({count} PSBTs).",
)
ELSEWHERE_BID_TITLE: Final = "Sign the bid in your other wallet"
ELSEWHERE_BID_INTRO: Final = (
    "Sign this exact message with {address} in the wallet that holds its key (a message"
    " signature, BIP-322), then paste the signature below in time: the marketplace takes a"
    " signed bid for 2 minutes after its message was made."
)
ELSEWHERE_CANCEL_TITLE: Final = "Sign the cancel in your other wallet"
ELSEWHERE_CANCEL_INTRO: Final = Counted(
    (
        "Sign this challenge with the address shown, in the wallet that holds its key (a"
        " message signature, BIP-322), then paste the signature below."
    ),
    (
        "The bids may be kept under either of your addresses: sign each challenge with the"
        " address shown beside it (a message signature, BIP-322) and paste each signature."
    ),
)
ELSEWHERE_ADDRESS: Final = "Address that signs:"
ELSEWHERE_MESSAGE: Final = "Message to sign, exactly:"
ELSEWHERE_SIGNATURE: Final = "&Signature (base64):"
ELSEWHERE_COPY_ADDRESS: Final = "Copy &address"
ELSEWHERE_COPY_MESSAGE: Final = "&Copy message"
ELSEWHERE_SAVE_MESSAGE: Final = "Sa&ve message…"
ELSEWHERE_OPEN_SIGNATURE: Final = "&Open signature…"
ELSEWHERE_SEND_BID: Final = "&Verify and place"
ELSEWHERE_SEND_CANCEL: Final = "&Verify and cancel"
ELSEWHERE_SENDING: Final = "Verifying the signature, then sending…"
ELSEWHERE_SAVED: Final = "Saved {name}: sign its contents exactly, with no line added."
ELSEWHERE_TIME_LEFT: Final = "{left} left to sign and paste (until {deadline})."
ELSEWHERE_SECONDS: Final = "{seconds} s"
ELSEWHERE_MINUTES: Final = "{minutes} min {seconds:02d} s"
ELSEWHERE_TIME_UP: Final = (
    "The 2 minutes have passed: the marketplace would refuse this signature. Make a new"
    " message to sign."
)
ELSEWHERE_CANCEL_TIME_UP: Final = (
    "The challenge has expired: the service would refuse its signature. Get a new challenge"
    " to sign."
)
ELSEWHERE_RENEW_BID: Final = "&Make a new message"
ELSEWHERE_RENEW_CANCEL: Final = "&Get a new challenge"
ELSEWHERE_MESSAGE_WHAT: Final = "Message"
ELSEWHERE_ADDRESS_WHAT: Final = "Address"
ELSEWHERE_SAVE_FILTER: Final = "Text files (*.txt);;All files (*)"
ELSEWHERE_OPEN_FILTER: Final = "Signatures (*.txt *.sig *.asc);;All files (*)"
ELSEWHERE_INSCRIPTION_BID_DONE: Final = "Bid placed on {inscription} for {price}."
