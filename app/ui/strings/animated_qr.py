"""The animated QR dialog: an offline-signing export (or its signed files) shown as frames."""

from __future__ import annotations

from typing import Final

QR_SHOW_EXPORT: Final = "Show as &QR…"
QR_SHOW_SIGNED: Final = "Show signed as &QR…"
QR_SHOW_TIP_EXPORT: Final = (
    "The PSBTs just exported, with their manifest, as one animated QR code for the offline"
    " signer to scan (no USB stick)."
)
QR_SHOW_TIP_SIGNED: Final = (
    "The PSBTs just signed, with their export, as one animated QR code for the online"
    " Bidwallet to scan and submit."
)
QR_SHOW_PSBT: Final = "Show PSBT as &QR…"
QR_SHOW_TIP_PSBT: Final = (
    "The PSBT just exported, as the animated QR code Sparrow, Coldcard, Keystone, Passport and"
    " SeedSigner scan (BBQr or UR crypto-psbt). Its signed PSBT comes back by Scan signed QR…"
)
QR_TITLE_PSBT: Final = "PSBT to sign in your other wallet"
QR_PSBT_CHOICE: Final = "Sho&w:"
QR_PSBT_ITEM: Final = "PSBT {n} of {count}: {file}"
QR_WHOLE_EXPORT_ITEM: Final = "The whole export, for Bidwallet's offline signer"
QR_HOW_PSBT: Final = (
    "Scan this with the wallet that holds your keys (Sparrow, Coldcard, Keystone, Passport,"
    " SeedSigner: BBQr or UR, whichever it reads). Keep it on screen until it has every frame."
    " Once it has signed, its signed PSBT's code is read by Scan signed QR… beside Import"
    " signed… (Bidwallet's offline signer scans the whole export instead: choose it in Show.)"
)
QR_CHOOSE_FOLDER: Final = "Choose the export folder to show as a QR code"
QR_TITLE_EXPORT: Final = "Export for offline signing as an animated QR code"
QR_TITLE_SIGNED: Final = "Signed PSBTs as an animated QR code"
QR_FORMAT: Final = "&Format:"
QR_FORMAT_BBQR: Final = "BBQr"
QR_FORMAT_UR: Final = "UR"
QR_SPEED: Final = "&Speed:"
QR_SPEED_SUFFIX: Final = " frames a second"
QR_DENSITY: Final = "&Density:"
QR_DENSITY_ITEM: Final = "Up to QR version {version}"  # a short payload takes a smaller one
QR_PREPARING: Final = "Preparing the frames…"
# BBQr shows its frames in a loop; after UR's plain parts come fountain parts without end (any
# `needed` of them, or a few more, decode), so past `needed` the count goes on; the dialog
# keeps two lines for the caption.
QR_CAPTION_BBQR: Final = "Frame {shown} of {needed} (BBQr, version {version})"
QR_CAPTION_UR: Final = "Frame {shown} of {needed} (UR, version {version})"
QR_CAPTION_UR_MORE: Final = (
    "Frame {shown}, a fountain part: any {needed} frames, or a few more, decode it (UR,"
    " version {version})"
)
# The bundle (manifest + PSBTs) is BBQr type B / UR bytes: Sparrow or a Coldcard reads the
# bytes but cannot sign them, so only Bidwallet's offline signer is named.
QR_HOW_EXPORT: Final = (
    "Scan this with Bidwallet's offline signer (Scan QR… in bidwallet \u2011\u2011offline): it"
    " carries the manifest and every PSBT together, which other wallets cannot sign. Keep it on"
    " screen until the scanner says it has every frame."
)
QR_HOW_SIGNED: Final = (
    "Scan this with the online Bidwallet: Scan QR… beside Import signed on the Listings tab"
    " for listings, Scan signed QR… on the tab that exported it for a withdrawal, a funding or"
    " an inscription bid. Keep it on screen until the scanner says it has every frame."
)
QR_FORMAT_NOT_SAVED: Final = "The QR format chosen could not be saved: {reason}"
QR_FAILED: Final = "The QR code cannot be shown: {reason}"
