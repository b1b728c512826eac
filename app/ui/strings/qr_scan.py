"""Scanning an animated QR code (BBQr or UR): the scan dialog and its buttons in the tabs."""

from __future__ import annotations

from typing import Final

from app.ui.strings.plural import Counted

QR_SCAN_BUTTON: Final = "Sca&n QR…"
QR_SCAN_BUTTON_TIP: Final = (
    "Read an animated QR code (BBQr or UR) from image files, a region of the screen or a camera"
)
QR_SCAN_TITLE: Final = "Scan an animated QR code"
QR_SCAN_INTRO_EXPORT: Final = (
    "Read the signed export shown as an animated QR code (BBQr or UR): from saved frames or"
    " photos, from the screen (a phone mirrored there, another app's window) or a camera."
    " Frames may come in any order; a missed one is read when it comes round again."
)
QR_SCAN_INTRO_PSBT: Final = (
    "Read what comes back signed as an animated QR code: the signed PSBT your other wallet"
    " shows (BBQr or UR crypto-psbt), or the signed export Bidwallet's offline signer shows"
    " (Show signed as QR…). From saved frames or photos, from the screen (a phone mirrored"
    " there, another app's window) or a camera. Frames may come in any order; a missed one is"
    " read when it comes round again."
)
QR_SCAN_INTRO_ANY: Final = (
    "Read an export or a single PSBT shown as an animated QR code (BBQr or UR): from saved"
    " frames or photos, from the screen (a phone mirrored there, another app's window) or a"
    " camera. Frames may come in any order; a missed one is read when it comes round again."
)
QR_SCAN_FILES: Final = "From image &files…"
QR_SCAN_FILES_TITLE: Final = "Choose the images of the QR frames"
QR_SCAN_FILES_FILTER: Final = "Images (*.png *.jpg *.jpeg *.bmp *.gif *.webp);;All files (*)"
QR_SCAN_SCREEN_START: Final = "Read the &screen"
QR_SCAN_SCREEN_STOP: Final = "&Stop reading the screen"
QR_SCAN_REGION: Final = "&Region:"
QR_SCAN_REGION_HINT: Final = "x, y, width, height (empty: the whole screen)"
QR_SCAN_REGION_TIP: Final = (
    "The part of the screen to read, in pixels from its top left corner (for example"
    " 0, 0, 800, 600): typed, or dragged with Select region…; leave empty to read the whole"
    " screen"
)
QR_SCAN_REGION_SELECT: Final = "Se&lect region…"
QR_SCAN_REGION_SELECT_TIP: Final = (
    "Drag a rectangle around the QR code on the screen; the screen is then read there"
)
QR_SCAN_REGION_COVERED: Final = (
    "This window covers part of the region it reads: move it aside so the code shows whole."
)
QR_REGION_TITLE: Final = "Select the region to read"
QR_REGION_HINT: Final = "Drag a rectangle around the QR code. Esc cancels."
QR_SCAN_REGION_BAD: Final = (
    "The region must be four whole numbers: x, y, width, height (width and height above 0)."
)
QR_SCAN_CAMERA_START: Final = "Use the &camera"
QR_SCAN_CAMERA_STOP: Final = "Stop the &camera"
QR_SCAN_NO_CAMERA: Final = "No camera was found on this computer."
QR_SCAN_NO_CAMERA_SUPPORT: Final = (
    "No camera can be used: Qt Multimedia (PySide6-Addons) cannot be loaded ({reason})."
)
QR_SCAN_CAMERA_FAILED: Final = "The camera stopped: {reason}"
QR_SCAN_WAITING: Final = "Waiting for the first frame."
QR_SCAN_PROGRESS: Final = Counted(
    "{received} of {needed} frame read.", "{received} of {needed} frames read."
)
QR_SCAN_IMAGES_READ: Final = Counted(
    "{count} image read, no QR code in {empty}.", "{count} images read, no QR code in {empty}."
)
QR_SCAN_NO_IMAGE: Final = "{name} is not an image this app can read."
QR_SCAN_REFUSED_TYPE: Final = "Not read: {reason}."
QR_SCAN_REFUSED_FOREIGN: Final = "Not read: {reason} (is another code on the screen?)."
QR_SCAN_REFUSED_CORRUPT: Final = "Not read, a corrupt frame: {reason}. Keep scanning."
QR_SCAN_COMPLETE_EXPORT: Final = Counted(
    "The export is complete ({count} frame). Choose an empty folder to write it in.",
    "The export is complete ({count} frames). Choose an empty folder to write it in.",
)
QR_SCAN_FOLDER_TITLE: Final = "Choose an empty folder for the scanned export"
QR_SCAN_WRITE: Final = "&Write to a folder…"
QR_SCAN_WRITE_FAILED: Final = "Not written: {reason} Choose another folder."
QR_SCAN_PSBT_SAVE_TITLE: Final = "Save the scanned PSBT"
QR_SCAN_NOT_SAVED: Final = "The scanned PSBT was not saved: {reason}"
