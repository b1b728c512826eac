"""Every user-facing string of the desktop app, in one place (wording, later translation).

Messages a user can meet say what happened and what to do, in plain words. A message with a
count is a `Counted` pair (singular, plural) shown through `counted(message, n, ...)`, which
picks the form with gettext's plural rule: English by default, and a translation catalog
(domain "bidwallet") with its own plural forms when one is installed. No "(s)".
"""

from __future__ import annotations

import gettext
from typing import Final, NamedTuple


class Counted(NamedTuple):
    """The singular and plural forms of a message with `{count}` (gettext's msgid pair)."""

    one: str
    many: str


_CATALOG = gettext.translation("bidwallet", fallback=True)


def counted(message: Counted, count: int, **fields: object) -> str:
    """`message` in the form for `count`, formatted with `count` and `fields`."""
    return _CATALOG.ngettext(message.one, message.many, count).format(count=count, **fields)


APP_NAME: Final = "Bidwallet"
ORG_NAME: Final = "Bidwallet"
WINDOW_TITLE: Final = "Bidwallet"
OFFLINE_WINDOW_TITLE: Final = "Bidwallet: offline signer"

NO_DISPLAY: Final = (
    "bidwallet: no display found (DISPLAY and WAYLAND_DISPLAY are unset); run it on a desktop,"
    " under `xvfb-run bidwallet`, or headless with `QT_QPA_PLATFORM=offscreen bidwallet`"
)

# -- tabs ----------------------------------------------------------------------------------
TAB_ACTIVITY: Final = "Activity"
TAB_SETTINGS: Final = "Settings"
TAB_PSBT_FILES: Final = "PSBT files"

# -- menus and actions ---------------------------------------------------------------------
MENU_FILE: Final = "&File"
MENU_VIEW: Final = "&View"
MENU_HELP: Final = "&Help"
ACTION_LOCK: Final = "&Lock wallet"
ACTION_UNLOCK: Final = "&Unlock wallet…"
ACTION_QUIT: Final = "&Quit"
ACTION_ABOUT: Final = "&About Bidwallet"
ABOUT_TEXT: Final = (
    "Bidwallet {version}\n\nA bidding wallet for Bitcoin inscriptions and runes. Your keys stay"
    " on this computer; every transaction is reviewed before it is signed."
)

# -- status bar ----------------------------------------------------------------------------
STATUS_NO_PROFILE: Final = "No profile"
STATUS_PROFILE: Final = "Profile: {name}"
STATUS_NETWORK: Final = "Network: {network}"
STATUS_SERVICE: Final = "Service: {url}"
STATUS_SANDBOX: Final = "Sandbox: {url}"
STATUS_SANDBOX_STARTING: Final = "Sandbox: starting…"
STATUS_OFFLINE: Final = "Offline: no network"
STATUS_NOT_CONNECTED: Final = "Not connected"
STATUS_LOCKED: Final = "Locked"
STATUS_UNLOCKED: Final = "Unlocked"
STATUS_WATCH_ONLY: Final = "Watch-only"
STATUS_NO_KEY: Final = "No key"
SANDBOX_ONLY_BADGE: Final = "sandbox only"
TOOLTIP_LOCK_STATE: Final = "Click to lock or unlock (Ctrl+L / Ctrl+U)"

# -- startup -------------------------------------------------------------------------------
STARTING_SANDBOX: Final = "Starting the sandbox…"
SANDBOX_READY: Final = "Sandbox ready at {url}"
SANDBOX_FAILED: Final = (
    "The sandbox could not start. Check that no other copy is using its data folder, then"
    " restart Bidwallet. Details: {details}"
)
CREATING_DEMO_WALLET: Final = "Creating the demo wallet and funding it…"
DEMO_WALLET_READY: Final = (
    "Demo wallet ready: {btc} BTC, {inscriptions} inscriptions and {rune} runes (sandbox only)"
)
DEMO_WALLET_FAILED: Final = (
    "The demo wallet could not be funded: {details}. The sandbox may be busy; restart"
    " Bidwallet to try again."
)
CONNECTED: Final = "Connected to {url}"
PROFILE_FILE_DAMAGED: Final = (
    "The profiles file could not be read ({details}). Rename or remove it to start over."
)
NO_PROFILE_CONFIGURED: Final = "No profile is set up. Add one in Settings."

# -- first run -----------------------------------------------------------------------------
FIRST_RUN_TITLE: Final = "Welcome to Bidwallet"
FIRST_RUN_INTRO: Final = "Choose where to trade. You can add other profiles later in Settings."
CHOICE_SANDBOX: Final = "&Sandbox (recommended to start)"
CHOICE_SANDBOX_HELP: Final = (
    "A private practice market on this computer, with a demo wallet already funded and a few"
    " inscriptions and runes. Nothing here has real value."
)
CHOICE_SATFLOW: Final = "&Public service (Satflow, mainnet)"
CHOICE_SATFLOW_HELP: Final = "Real bitcoin at {url}. Needs an API key from Satflow."
CHOICE_CUSTOM: Final = "&Custom service"
CHOICE_CUSTOM_HELP: Final = "A marketplace at another address, with its Esplora and ord servers."
LABEL_API_KEY: Final = "API &key:"
LABEL_MARKETPLACE_URL: Final = "&Marketplace URL:"
LABEL_ESPLORA_URL: Final = "&Esplora URL:"
LABEL_ORD_URL: Final = "&ord URL:"
LABEL_NETWORK: Final = "&Network:"
LABEL_PROFILE_NAME: Final = "Profile &name:"
API_KEY_PLACEHOLDER: Final = "kept in the system keychain, never in a file"
API_KEY_REQUIRED: Final = "Enter the API key Satflow gave you."
URL_INVALID: Final = "Enter the {field} as a full address starting with http:// or https://"
NAME_TAKEN: Final = "A profile with this name exists already; choose another name."
API_KEY_NOT_STORED: Final = (
    "No system keychain is available, so the API key is kept for this session only and will"
    " be asked again next time."
)
BUTTON_CONTINUE: Final = "&Continue"
BUTTON_CANCEL: Final = "Cancel"
BUTTON_BACK: Final = "&Back"
BUTTON_NEXT: Final = "&Next"
BUTTON_FINISH: Final = "&Finish"

# -- key setup -----------------------------------------------------------------------------
KEY_SETUP_TITLE: Final = "Set up the keys of {profile}"
KEY_CHOICE_INTRO: Final = "How do you want to hold your bitcoin in this profile?"
KEY_CHOICE_CREATE: Final = "&Create a new wallet (new recovery phrase)"
KEY_CHOICE_IMPORT: Final = "&Import a recovery phrase (Xverse, Leather, Unisat, OKX, …)"
KEY_CHOICE_WIF: Final = "Import a single private key (&WIF)"
KEY_CHOICE_WATCH: Final = "&Watch-only (addresses, xpub or descriptor: you sign in another wallet)"
CREATE_INTRO: Final = (
    "Write these {count} words down on paper, in order. They are shown only once. Anyone who"
    " has them can take your bitcoin; without them, a lost computer means lost funds."
)
CREATE_WROTE_THEM: Final = "I have &written them down"
CONFIRM_INTRO: Final = "Type the words asked below to show you wrote the phrase down."
CONFIRM_WORD_LABEL: Final = "Word &{number}:"
CONFIRM_MISMATCH: Final = "Word {number} does not match. Check your paper copy."
IMPORT_INTRO: Final = "Type or paste your recovery phrase (12 to 24 words)."
IMPORT_PASSPHRASE: Final = "Passphrase (&optional):"
IMPORT_PASSPHRASE_HINT: Final = "only if your wallet used one (often called the 25th word)"
IMPORT_PRESET_INTRO: Final = (
    "Pick the wallet you come from: find your addresses below. Each line shows the first"
    " addresses that wallet would use."
)
IMPORT_PRESET_HEADERS: Final = ("Wallet layout", "Payment addresses", "Ordinals addresses")
IMPORT_ACCOUNT: Final = "&Account number:"
IMPORT_CUSTOM: Final = "Custom derivation paths"
IMPORT_PAYMENT_PATH: Final = "&Payment path:"
IMPORT_ORDINALS_PATH: Final = "O&rdinals path:"
IMPORT_COMPUTING: Final = "Computing addresses…"
IMPORT_PICK_PRESET: Final = "Select the line that shows your addresses."
MNEMONIC_INVALID: Final = "This is not a valid recovery phrase: {reason}."
WIF_INTRO: Final = "Paste the private key (WIF). Its ordinals address is its taproot address."
WIF_LABEL: Final = "Private &key:"
WIF_TYPE_LABEL: Final = "Payment address &type:"
WIF_INVALID: Final = "This is not a usable private key: {reason}."
WATCH_INTRO: Final = (
    "Enter what to watch for each role: an address, an extended public key ({keys}, with its"
    " origin [fingerprint/84h/{coin}h/0h] if you have it) or a descriptor such as"
    " wpkh([fingerprint/84h/{coin}h/0h]{xpub}…/0/*). An extended key alone is watched at its"
    " first receive address, /0/0 below it. One key may serve both roles. Nothing here can"
    " sign: bids and transactions are signed in the wallet that holds the keys."
)
WATCH_INTRO_KEYS: Final = {  # the extended keys people call by name, on mainnet or a test network
    "mainnet": ("xpub, ypub, zpub", "xpub"),
    "test": ("tpub, upub, vpub", "tpub"),
}
WATCH_PAYMENT: Final = "&Payment:"
WATCH_ORDINALS: Final = "&Ordinals:"
WATCH_PLACEHOLDER: Final = "address, xpub/zpub/… or descriptor"
WATCH_PAYMENT_KEY: Final = "Payment public &key (hex, with an address only):"
WATCH_ORDINALS_KEY: Final = "Ordinals public k&ey (hex, with an address only):"
WATCH_WALLET: Final = "&Wallet (an xpub's address types):"
WATCH_WALLET_AUTOMATIC: Final = "From the key (ypub, zpub, or its origin's path)"
WATCH_PREVIEW_INTRO: Final = "Check these are your addresses before you finish:"
WATCH_PREVIEW_ROLE: Final = "{role}: {address}"
WATCH_PREVIEW_ADDRESS: Final = "    the address you entered"
WATCH_PREVIEW_KEY: Final = "    {type}, the first receive address ({derived} below the key)"
WATCH_PREVIEW_DESCRIPTOR: Final = "    {type}, from the descriptor"
WATCH_PREVIEW_ORIGIN: Final = "    key origin [{origin}]"
WATCH_PREVIEW_OWN_ORIGIN: Final = (
    "    key origin [{origin}] (the key's own fingerprint: none given)"
)
WATCH_ROLE_PAYMENT: Final = "Payment"
WATCH_ROLE_ORDINALS: Final = "Ordinals"
WATCH_INVALID: Final = "Check what you entered: {reason}."
# A key without its master's origin is named in exported PSBTs by its own fingerprint, which
# signers that look keys up by their master fingerprint (Sparrow, hardware wallets) ignore.
WATCH_NO_ORIGIN: Final = (
    "Your signing wallet may not recognise the {role} key: paste the descriptor from Sparrow"
    " (Settings → Script Policy / Export) or add [fingerprint/{path}] before the key."
)
PASSWORD_INTRO: Final = (
    "Choose a password. It encrypts your keys on this computer and is asked when you unlock."
)
PASSWORD_LABEL: Final = "&Password:"
PASSWORD_CONFIRM_LABEL: Final = "&Confirm:"
PASSWORD_MISMATCH: Final = "The two passwords differ."
PASSWORD_EMPTY: Final = "Enter a password."
PASSWORD_STRENGTH: Final = ("Very weak", "Weak", "Fair", "Good", "Strong")
PASSWORD_STRENGTH_LABEL: Final = "Strength: {label}"
REMEMBER_IN_KEYCHAIN: Final = "&Remember in the system keychain (unlock without the password)"
REMEMBER_UNAVAILABLE: Final = "No system keychain is available: the password will be asked."
SAVING_KEYS: Final = "Encrypting and saving…"
KEY_SAVE_FAILED: Final = "The keys could not be saved: {details}"

# -- unlock --------------------------------------------------------------------------------
UNLOCK_TITLE: Final = "Unlock {profile}"
UNLOCK_INTRO: Final = "Enter the password of {profile}."
UNLOCK_BUTTON: Final = "&Unlock"
UNLOCKING: Final = "Unlocking…"
WRONG_PASSWORD: Final = "Wrong password. Check Caps Lock and try again."
UNLOCK_FAILED: Final = "The wallet could not be unlocked: {details}"
WATCH_ONLY_NO_UNLOCK: Final = "This profile is watch-only: it holds no keys to unlock."
LOCKED_AFTER_IDLE: Final = "Locked after {minutes} minutes without activity."

# -- activity ------------------------------------------------------------------------------
ACTIVITY_HEADERS: Final = ("Time", "Action", "Result", "Error code", "Message", "Txid")
ACTIVITY_OK: Final = "OK"
ACTIVITY_ERROR: Final = "Error"
ACTIVITY_FILTER: Final = "Filter…"
ACTIVITY_ERRORS_ONLY: Final = "&Errors only"
ACTIVITY_COPY_TXID: Final = "&Copy txid"
ACTIVITY_COPIED: Final = "Txid copied to the clipboard."
ACTIVITY_EMPTY: Final = "Requests and their results appear here."

# -- settings ------------------------------------------------------------------------------
SETTINGS_PROFILES: Final = "Profiles"
SETTINGS_ACTIVE_SUFFIX: Final = " (active)"
SETTINGS_SWITCH: Final = "&Switch to"
SETTINGS_ADD: Final = "&Add…"
SETTINGS_REMOVE: Final = "&Remove"
SETTINGS_REMOVE_CONFIRM: Final = (
    "Remove the profile {name}? Its keys stay in the vault; its activity log is kept on disk."
)
SETTINGS_REMOVE_ACTIVE: Final = "Switch to another profile before removing this one."
SETTINGS_SERVICE: Final = "Service"
SETTINGS_KIND: Final = "Kind:"
SETTINGS_KINDS: Final = {"sandbox": "Sandbox", "satflow": "Public service", "custom": "Custom"}
SETTINGS_SANDBOX_URL: Final = "(chosen when the sandbox starts)"
SETTINGS_API_KEY_SAVE: Final = "Save &key"
SETTINGS_API_KEY_CLEAR: Final = "C&lear key"
SETTINGS_API_KEY_SAVED: Final = "API key saved in the system keychain."
SETTINGS_API_KEY_CLEARED: Final = "API key removed."
SETTINGS_API_KEY_SET: Final = "a key is stored"
SETTINGS_PSBT_GUARD: Final = "Fee limits (checked before signing)"
SETTINGS_MIN_RATE: Final = "Mi&nimum fee rate:"
SETTINGS_MAX_RATE: Final = "Ma&ximum fee rate:"
SETTINGS_MAX_FEE: Final = "Maximum &fee:"
SETTINGS_SECURITY: Final = "Security"
SETTINGS_LOCK_TIMEOUT: Final = "&Lock after:"
SETTINGS_REQUEST_RATE: Final = "Request &rate:"
SETTINGS_REQUEST_RATE_DEFAULT: Final = "default: 5 per second, bursts of 10"
SETTINGS_REQUEST_RATE_NONE: Final = "default: no limit (the sandbox enforces none)"
SETTINGS_REQUEST_RATE_HINT: Final = (
    "Requests per second the app sends to each service host, and how many may go at once:"
    " 5/10 is 5 per second with bursts of 10 (what the public service is reported to allow)."
    " Write 'off' for no limit of the app's own; empty for the default. When the service"
    " still answers 'too many requests', the app waits as it asks and tries again."
)
RATE_LIMIT_WAITING: Final = "Waiting for the service's rate limit ({seconds} s)…"
RATE_PACING: Final = "Pacing requests to the service ({seconds} s)…"  # the app's own rate
SETTINGS_LOCK_SUFFIX: Final = " min without activity"
SETTINGS_MAKER_FEE: Final = "Maker fee (bid pools)"
SETTINGS_MAKER_FEE_USE_DEFAULT: Final = "&Use the default"
SETTINGS_MAKER_FEE_SATS: Final = "Per &bid:"
SETTINGS_MAKER_FEE_BPS: Final = "Plus a s&hare of its price:"
SETTINGS_MAKER_FEE_BPS_SUFFIX: Final = " bps (100 bps = 1%)"
SETTINGS_MAKER_FEE_HINT: Final = (
    "The pool checks and figures add this to every bid: a pool's open bids and their maker"
    " fees must fit the balance (the spec's rule). The service decides what it charges: untick"
    " the box to count another amount, e.g. when the service changed its fee."
)
SETTINGS_MAKER_FEE_DEFAULT_IS: Final = "Default: {fee} per bid, from the service."
SETTINGS_MAKER_FEE_DEFAULT_NONE: Final = (
    "Default: {fee} per bid. The service publishes no fee; third parties report this one for"
    " the public service."
)
SETTINGS_MAKER_FEE_DEFAULT_UNREAD: Final = (
    "Default: the service's own fee where it publishes one (read when this profile is"
    " connected), else {fee} per bid."
)
SETTINGS_APPEARANCE: Final = "Appearance"
SETTINGS_THEME: Final = "&Theme:"
SETTINGS_THEMES: Final = {"system": "Follow the system", "light": "Light", "dark": "Dark"}
SETTINGS_SAVE: Final = "&Save changes"
SETTINGS_SAVED: Final = "Settings saved."
SETTINGS_SAVED_RECONNECT_NETWORK: Final = "Settings saved. Reconnecting on {network}…"
SETTINGS_SAVED_RECONNECT_URLS: Final = "Settings saved. Reconnecting to the new service URLs…"
SETTINGS_SAVED_RECONNECT_RATE: Final = "Settings saved. Reconnecting to apply the request rate…"
SETTINGS_INVALID: Final = "Not saved: {reason}"
SETTINGS_INVALID_RATE: Final = "Not saved: the request rate above is not valid."
SUFFIX_SAT_VB: Final = " sat/vB"
SUFFIX_SATS: Final = " sats"

# -- offline signer ------------------------------------------------------------------------
OFFLINE_INTRO: Final = (
    "Offline signer: this window never connects to a network. Open the manifest.json (or any"
    " PSBT file) of a folder exported by an online Bidwallet, unlock your key, review and sign;"
    " the signed files are written into that folder: carry it back and import it."
)
OFFLINE_OPEN: Final = "&Open PSBT file…"
OFFLINE_SAVE: Final = "&Save signed PSBT…"
OFFLINE_UNLOCK: Final = "&Unlock signing key…"
OFFLINE_PROFILE: Final = "Signing &key:"
OFFLINE_NO_FILE: Final = "No file opened."
OFFLINE_LOADED: Final = "{name}: a PSBT with {inputs} inputs and {outputs} outputs, {signed}."
OFFLINE_SIGNED_STATE: Final = ("not signed yet", "partly signed", "signed")
OFFLINE_NOT_A_PSBT: Final = "{name} is not a PSBT file Bidwallet can read: {reason}."
OFFLINE_READ_FAILED: Final = "{name} could not be read: {reason}."
OFFLINE_SAVED: Final = "Saved {name}."
OFFLINE_SAVE_FAILED: Final = "{name} could not be saved: {reason}."
OFFLINE_NO_PROFILES: Final = "No key is set up on this computer. Start Bidwallet online first."
OFFLINE_OPEN_FILTER: Final = "PSBT files (*.psbt *.txt);;All files (*)"
OFFLINE_SAVE_FILTER: Final = "PSBT files (*.psbt)"

# -- errors --------------------------------------------------------------------------------
UNEXPECTED_TITLE: Final = "Something went wrong"
UNEXPECTED_TEXT: Final = (
    "Bidwallet met an unexpected problem ({kind}) and stopped that action. Your keys and"
    " settings are safe and the app keeps running. If it happens again, send the log file to"
    " the developers:\n{log_path}"
)

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
REVIEW_INPUT_HEADERS: Final = ("#", "Coin", "Amount", "Owner", "Carries", "Sighash", "Risk")
REVIEW_OUTPUT_HEADERS: Final = ("#", "Address", "Amount", "Owner", "Receives")
REVIEW_LEGEND: Final = "Owner colours:"
REVIEW_UNKNOWN: Final = "unknown"
REVIEW_NOTHING: Final = "nothing"
REVIEW_SIGHASH_DEFAULT: Final = "not set (ALL)"
REVIEW_SIGHASH_THEIRS: Final = "signed by its owner"
REVIEW_SIGHASH_THEIRS_TIP: Final = (
    "Not yours: its owner signs it. Your signatures on the other inputs commit to it."
)
REVIEW_FEE: Final = "Network fee: {fee} at {rate} (about {vsize:,} vB once signed)"
REVIEW_FEE_UNKNOWN: Final = (
    "Network fee: unknown (an input amount is missing or not confirmed by the chain)"
)
REVIEW_FEE_NEGATIVE: Final = "Network fee: none yet (the other party adds inputs to pay it)"
REVIEW_RATE: Final = "{rate:.1f} sat/vB"
REVIEW_RATE_GUESSED: Final = "{rate:.1f} sat/vB (estimated: an input's type is unknown)"
REVIEW_LANDS: Final = "Inscription {inscription} (input {input}) lands on {where}."
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
REVIEW_FEE_SHARE: Final = "{share:.1f}% of the {moved:,} sats moved"
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

# -- Wallet tab (UI-A) ---------------------------------------------------------------------
TAB_WALLET: Final = "Wallet"
WALLET_ADDRESSES: Final = "Addresses"
WALLET_PAYMENT: Final = "Payment:"
WALLET_ORDINALS: Final = "Ordinals:"
WALLET_BIDDING: Final = "Bidding wallet:"
WALLET_PAYMENT_WHAT: Final = "Payment address"
WALLET_ORDINALS_WHAT: Final = "Ordinals address"
WALLET_BIDDING_WHAT: Final = "Bidding wallet address"
WALLET_ADDRESS_UNKNOWN: Final = "—"
WALLET_BALANCE: Final = "Bidding wallet balance"
WALLET_CONFIRMED: Final = "Confirmed:"
WALLET_UNCONFIRMED: Final = "Unconfirmed:"
WALLET_TOTAL: Final = "Counts for bids:"
WALLET_POOLS: Final = "Bid pools"
WALLET_POOLS_HINT: Final = (
    "What each pool commits (its open bids plus their maker fees) against the balance."
)
WALLET_POOLS_EMPTY: Final = "No open bids: every pool can use the whole balance."
MAKER_FEE_ASSUMED: Final = "Assuming a maker fee of {fee} per bid ({source})."
MAKER_FEE_ASSUMED_NONE: Final = "Assuming no maker fee ({source})."
MAKER_FEE_SHARE: Final = "{percent}% of its price"
MAKER_FEE_FLAT_AND_SHARE: Final = "{flat} + {share}"
MAKER_FEE_SOURCES: Final = {
    "profile": "profile setting",
    "service": "from the service",
    "default": "default: the service publishes none; change it in Settings",
}
WALLET_FUND: Final = "Fund the bidding wallet"
WALLET_FUND_AMOUNT: Final = "&Amount:"
WALLET_FUND_FEE: Final = "&Fee rate:"
WALLET_FUND_BUTTON: Final = "Re&view and fund…"
WALLET_FUND_QR: Final = "Pay from &another wallet (QR)"
WALLET_FUND_QR_HINT: Final = "Scan with any Bitcoin wallet, or copy the payment link:"
WALLET_FUND_COPY_LINK: Final = "Copy &link"
WALLET_FUND_LINK_WHAT: Final = "Payment link"
WALLET_FUND_TITLE: Final = "Fund the bidding wallet"
WALLET_FUND_ACTION: Final = "&Sign and broadcast"
WALLET_FUND_PREPARING: Final = "Choosing coins and building the transaction…"
WALLET_FUND_SIGNING: Final = "Signing and broadcasting…"
WALLET_FUND_CANCELLED: Final = "Not funded: nothing was signed."
WALLET_FUND_DONE: Final = (
    "Sent {amount} to the bidding wallet (fee {fee}). Transaction {txid}; it counts at once,"
    " unconfirmed until the next block."
)
WALLET_FUND_NEED_AMOUNT: Final = "Enter the amount to send to the bidding wallet."
WALLET_COPY_TXID: Final = "Copy &txid"
WALLET_TXID_WHAT: Final = "Txid"
WALLET_FUND_NOTE_SKIPPED: Final = Counted(
    "{count} coin carries inscriptions or runes and was left untouched.",
    "{count} coins carry inscriptions or runes and were left untouched.",
)
WALLET_FUND_NOTE_WAITING: Final = Counted(
    "{count} coin ({sats}) is waiting for the indexer and was not used: ord has not indexed it"
    " yet, usually until its transaction confirms.",
    "{count} coins ({sats}) are waiting for the indexer and were not used: ord has not indexed"
    " them yet, usually until their transactions confirm.",
)
WALLET_FUND_NOTE_CHOSEN: Final = Counted(
    "Spends the coin you chose ({sats}).",
    "Spends the {count} coins you chose ({sats}).",
)
# Coin control: the Fund panel's "Choose coins…" and its dialog.
WALLET_FUND_CHOOSE: Final = "C&hoose coins…"
WALLET_FUND_ANY_COINS: Final = "Let the &wallet choose"
WALLET_FUND_LOADING_COINS: Final = "Reading the payment address's coins and what they carry…"
WALLET_FUND_CHOSEN: Final = Counted(
    "Funding spends the coin you chose: {sats}.",
    "Funding spends the {count} coins you chose: {sats}.",
)
COINS_TITLE: Final = "Choose the coins to fund with"
COINS_HINT: Final = (
    "Every coin you tick is spent; the change comes back to the payment address. Coins that"
    " carry an inscription or runes, and coins ord has not indexed yet, are shown but cannot be"
    " chosen."
)
COINS_COL_AMOUNT: Final = "Amount"
COINS_COL_CONFIRMATIONS: Final = "Confirmations"
COINS_COL_CARRIES: Final = "Carries"
COINS_COL_COIN: Final = "Coin"
COINS_UNCONFIRMED: Final = "unconfirmed"
COINS_NOTHING: Final = "Nothing"
COINS_WAITING: Final = "Unknown: waiting for the indexer"
COINS_INSCRIPTIONS: Final = Counted("{count} inscription ({ids})", "{count} inscriptions ({ids})")
COINS_RUNES: Final = "runes ({runes})"
COINS_WHY_CARRIES: Final = "Carries an inscription or runes: funding never spends it."
COINS_KEPT_CARRIES: Final = "Cannot be chosen: funding never spends it."
COINS_KEPT_WAITING: Final = "Cannot be chosen until ord indexes it."
COINS_WHY_WAITING: Final = (
    "ord has not indexed this coin yet (usually until its transaction confirms), so what it"
    " carries is unknown: it cannot be spent to fund."
)
COINS_NONE: Final = "The payment address has no coins."
COINS_SUMMARY: Final = Counted("{count} coin chosen: {sats}.", "{count} coins chosen: {sats}.")
COINS_SUMMARY_NONE: Final = "Tick the coins to spend."
COINS_USE: Final = "&Use these coins"
COINS_CANCEL: Final = "Cancel"
FEE_FAST: Final = "Fast (~1 block): {rate} sat/vB"
FEE_NORMAL: Final = "Normal (~3 blocks): {rate} sat/vB"
FEE_SLOW: Final = "Slow (~6 blocks): {rate} sat/vB"
FEE_CUSTOM: Final = "Custom"
FEE_NO_ESTIMATES: Final = "No fee estimates: enter a rate yourself."
POOL_CHART_LINE: Final = "{committed} of {balance} · open bids: {bids}"
POOL_CHART_OVER: Final = "over by {over}"

# -- Bid tab (UI-A) ------------------------------------------------------------------------
TAB_BID: Final = "Bid"
BID_KIND: Final = "Bid on:"
BID_KIND_ORDINALS: Final = "&Ordinals"
BID_KIND_RUNES: Final = "R&unes"
BID_SCOPE: Final = "&Target:"
BID_SCOPES: Final = {
    "collection": "A collection",
    "sub1k": "Any inscription numbered under 1,000 (sub1k)",
    "sub10k": "Any inscription numbered under 10,000 (sub10k)",
    "sub100k": "Any inscription numbered under 100,000 (sub100k)",
}
BID_COLLECTION: Final = "&Collection:"
BID_RUNE: Final = "&Rune:"
BID_COLLECTION_PLACEHOLDER: Final = "collection slug, e.g. pixel-pals"
BID_RUNE_PLACEHOLDER: Final = "rune name, e.g. BIDWALLET•DEMO"
BID_RUNE_LOOKING: Final = "Looking up the rune {name} in ord…"
BID_RUNE_ETCHED: Final = "Etched as {name}: the bid is signed and placed under this spelling."
BID_RUNE_UNKNOWN: Final = "ord knows no rune named {name}: check the name."
BID_RUNE_MALFORMED: Final = "“{name}” is not a rune name: {reason}."
BID_PREVIEW_NOTHING_TO_SIGN: Final = "Nothing to sign: {reason}"
BID_PREVIEW_NO_COLLECTION: Final = "the service knows no collection “{slug}”."
BID_PREVIEW_RUNE_PENDING: Final = (
    "The message is shown once ord has confirmed the rune's etched spelling (leave the rune"
    " field or press Enter)."
)
BID_PRICE: Final = "&Price per item:"
BID_RUNE_PRICE: Final = "&Total price:"
BID_PRICE_HINT: Final = "In steps of 1,000 sats (↑/↓ change it by one step)."
BID_RUNE_PRICE_HINT: Final = "For all the units together; at least 10,000 sats."
BID_QUANTITY: Final = "&Quantity:"
BID_UNITS: Final = "&Units:"
BID_EXPIRY: Final = "&Expires:"
BID_EXPIRY_PRESETS: Final = (
    ("15 minutes", 15),
    ("1 hour", 60),
    ("6 hours", 360),
    ("1 day", 1440),
    ("7 days", 10080),
    ("30 days", 43200),
)
BID_EXPIRY_CUSTOM: Final = "At a date and time"
BID_TRAITS: Final = "Traits (optional)"
BID_TRAITS_SEARCH: Final = "Search traits…"
BID_TRAITS_TYPE: Final = "Type a trait as “type: value” and press Enter to add it."
BID_TRAITS_WAIT: Final = "Traits appear once a collection is chosen."
BID_TRAITS_TYPED_PLACEHOLDER: Final = "type: value, then Enter"
BID_TRAITS_TYPED_BAD: Final = "Write a trait as “type: value”, e.g. “Background: Blue”."
# The catalog (services/catalog.py): what the slug's hint line says.
BID_CATALOG_SEARCH_NONE: Final = (
    "This service lists no collections to search: type the collection's slug (as in its page"
    " on the marketplace); its traits load once the service finds it."
)
BID_CATALOG_LOOKING: Final = "Looking up {slug}…"
BID_CATALOG_FOUND: Final = "{name}: {items}."
BID_CATALOG_ITEMS: Final = Counted("{count} item", "{count} items")
BID_CATALOG_FOUND_NO_SIZE: Final = "{name}."
BID_CATALOG_UNKNOWN: Final = "The service knows no collection “{slug}”: check the slug."
BID_CATALOG_NOT_OFFERED: Final = (
    "This service has no catalog to look collections up in: check the slug yourself, and type"
    " traits as “type: value”."
)
BID_CATALOG_FAILED: Final = "The collection could not be looked up ({reason}): traits can be typed."
BID_TRAITS_COUNT: Final = "{count} of at most {limit} selected: one bid per trait and item."
BID_TRAITS_LIMIT: Final = "At most {limit} traits per request: unselect one first."
BID_TRAITS_CLEAR: Final = "C&lear"
BID_FEE_RATE: Final = "&Fee rate when the bid fills:"
BID_FEE_RATE_HINT: Final = "Sent with the bid, not signed: the service may use another rate."
BID_FEE_FASTEST: Final = "Fastest — {rate} sat/vB now"
BID_FEE_HALF_HOUR: Final = "Within half an hour — {rate} sat/vB now"
BID_FEE_HOUR: Final = "Within an hour — {rate} sat/vB now"
BID_FEE_MINIMUM: Final = "Minimum — {rate} sat/vB now"
BID_FEE_FASTEST_UNKNOWN: Final = "Fastest"
BID_FEE_HALF_HOUR_UNKNOWN: Final = "Within half an hour"
BID_FEE_HOUR_UNKNOWN: Final = "Within an hour"
BID_FEE_MINIMUM_UNKNOWN: Final = "Minimum"
BID_FEE_NAME_TIP: Final = (
    "Sent as the service's rate “{name}”: it reads the rate when the bid fills."
)
BID_FEE_DEFAULT_TIP: Final = " The service's default."
BID_PREVIEW_FEE_NAMED: Final = (
    "Asks to be filled at the service's “{name}” rate ({rate} sat/vB now)."
)
BID_PREVIEW_FEE_NAMED_UNKNOWN: Final = "Asks to be filled at the service's “{name}” rate."
BID_PREVIEW_FEE_CUSTOM: Final = "Asks to be filled at {rate} sat/vB."
BID_PREVIEW: Final = "Preview"
BID_PREVIEW_COUNT: Final = Counted(
    "This request places {count:,} bid for {total} in all.",
    "This request places {count:,} bids for {total} in all.",
)
BID_PREVIEW_POOLS_HEADERS: Final = ("Pool", "Committed", "Adding", "Balance", "Fits")
BID_PREVIEW_FITS: Final = "yes"
BID_PREVIEW_SHORT: Final = "no: {short} short"
BID_PREVIEW_MESSAGE: Final = "Message to be signed (the timestamp is set when you place it):"
BID_PREVIEW_NO_KEYS: Final = "Unlock the wallet to see the exact message."
BID_PREVIEW_INCOMPLETE: Final = "The exact message shows here once the form is complete."
BID_PREVIEW_NO_BALANCE: Final = "The balance is not known yet: refresh the Wallet tab."
BID_PLACE: Final = "&Place bid"
BID_PLACING: Final = "Signing, checking the signature and sending…"
BID_WAITING: Final = "Waiting {seconds:.1f} s: the service allows one bid per 500 ms per trait…"
BID_PLACED: Final = Counted(
    "Placed: {count:,} bid in {pools}. {attempts}",
    "Placed: {count:,} bids in {pools}. {attempts}",
)
BID_ATTEMPTS_ONE: Final = "Accepted at the first attempt."
BID_ATTEMPTS_MANY: Final = "Accepted at attempt {n} ({why})."
BID_NOT_PLACED: Final = "Not placed: {reason}"
BID_ELSEWHERE_CLOSED: Final = "Not placed: nothing was sent."
BID_NEED_SLUG: Final = "Enter the collection to bid on."
BID_NEED_RUNE: Final = "Enter the rune to bid on."
BID_NEED_PRICE: Final = "Enter a price."
BID_EXPIRY_PAST: Final = "Choose a time at least 15 minutes from now."

# -- Open bids tab (UI-A) ------------------------------------------------------------------
TAB_OPEN_BIDS: Final = "Open bids"
OPEN_BIDS_HEADERS: Final = (
    "Collection / rune",
    "Trait",
    "Kind",
    "Price",
    "Qty",
    "Expires",
    "Bid id",
)
OPEN_BIDS_KINDS: Final = {
    "collection": "Collection",
    "trait": "Trait",
    "rune": "Rune",
    "range": "Range",
    "inscription": "Inscription",
}
OPEN_BIDS_FILTER: Final = "Filter by collection, trait, price or id…"
OPEN_BIDS_COUNTS: Final = Counted(
    "{count:,} open bid in {pools}",
    "{count:,} open bids in {pools}",
)
OPEN_BIDS_POOL_COUNT: Final = Counted("{count:,} pool", "{count:,} pools")
OPEN_BIDS_SHOWN: Final = " ({shown:,} shown)"  # only while the filter hides some
OPEN_BIDS_EMPTY: Final = "No open bids. Place one in the Bid tab."
OPEN_BIDS_CANCEL: Final = "&Cancel selected…"
OPEN_BIDS_POOLS_HEADERS: Final = ("Pool", "Bids", "Committed", "Balance", "Free")
OPEN_BIDS_OVER: Final = "over by {over}"
OPEN_BIDS_CONFIRM_TITLE: Final = "Cancel bids"
OPEN_BIDS_CONFIRM_TEXT: Final = Counted(
    (
        "Cancel {count} open bid? The service asks your ordinals key to sign a challenge; "
        "the funds stay in the bidding wallet."
    ),
    (
        "Cancel {count} open bids? The service asks your ordinals key to sign a challenge; "
        "the funds stay in the bidding wallet."
    ),
)
OPEN_BIDS_CONFIRM_YES: Final = Counted(
    "Cancel &{count} bid",
    "Cancel &{count} bids",
)
OPEN_BIDS_CONFIRM_NO: Final = Counted("&Keep it", "&Keep them")
OPEN_BIDS_CANCELLING: Final = Counted(
    "Cancelling {count} bid…",
    "Cancelling {count} bids…",
)
OPEN_BIDS_CANCELLED: Final = Counted(
    "{done} of {count} bid cancelled.",
    "{done} of {count} bids cancelled.",
)
OPEN_BIDS_RESULT_OK: Final = "✓ Cancelled: {bid}"
OPEN_BIDS_RESULT_FAILED: Final = "✗ Not cancelled: {bid}: {reason}"
OPEN_BIDS_DESCRIBED: Final = "{what} · {price} sats · bid {bid}"  # confirm list and results
OPEN_BIDS_NO_PRICE: Final = Counted(
    "{count} bid was listed without a price and is not counted.",
    "{count} bids were listed without a price and are not counted.",
)

# -- PSBT flows, shared (UI-B: Withdraw, Inscription bid, Listings, offline signer) -----------
PROGRESS_FORMAT: Final = "%v of %m"
PROGRESS_CANCEL: Final = "Ca&ncel"
PROGRESS_CANCELLING: Final = "Cancelling after the current item…"
FLOW_REVIEWING: Final = "Asking the service for the transaction and reviewing it…"
FLOW_SIGNING: Final = "Signing…"
FLOW_SUBMITTING: Final = "Sending…"
FLOW_CANCELLED: Final = "Cancelled: nothing was signed or sent."
FLOW_REFUSED: Final = "Refused: Bidwallet did not sign it (the review shows why). Nothing was sent."
COPY_TXID: Final = "Copy &txid"
TXID_WHAT: Final = "Txid"

# -- Withdraw tab (UI-B) -------------------------------------------------------------------
TAB_WITHDRAW: Final = "Withdraw"
WITHDRAW_WALLET: Final = "Bidding wallet"
WITHDRAW_ADDRESS: Final = "Address:"
WITHDRAW_BALANCE: Final = "Balance:"
WITHDRAW_BALANCE_TEXT: Final = "{total} ({confirmed} confirmed, {unconfirmed} unconfirmed)"
WITHDRAW_BOX: Final = "Withdraw"
WITHDRAW_AMOUNT: Final = "&Amount:"
WITHDRAW_MAX: Final = "&Max"
WITHDRAW_TO: Final = "To:"
WITHDRAW_TO_HINT: Final = (
    "Withdrawals always go to your payment address; the network fee is paid on top (with Max,"
    " it comes out of the amount)."
)
WITHDRAW_AT_RISK: Final = "Bids this withdrawal cancels"
WITHDRAW_AT_RISK_NONE: Final = "None: your open bids stay covered."
WITHDRAW_AT_RISK_SOME: Final = Counted(
    "{count} open bid would no longer be covered; the service cancels it:",
    "{count} open bids would no longer be covered; the service cancels them:",
)
WITHDRAW_AT_RISK_ROW: Final = "{pool}: bid {bid} at {price}"
WITHDRAW_REVIEW: Final = "Re&view withdrawal…"
WITHDRAW_NEED_AMOUNT: Final = "Enter the amount to withdraw, or press Max."
WITHDRAW_TOO_MUCH: Final = "The bidding wallet holds {balance}: withdraw at most that."
WITHDRAW_EMPTY: Final = "The bidding wallet is empty: there is nothing to withdraw."
WITHDRAW_TITLE: Final = "Withdraw from the bidding wallet"
WITHDRAW_ACTION: Final = "&Sign and withdraw"
WITHDRAW_NOTE: Final = "You withdraw {amount} from the bidding wallet to {address}."
WITHDRAW_NOTE_SWEEP: Final = (
    "You withdraw the whole balance ({amount}, fee taken from it) to {address}."
)
WITHDRAW_NOTE_CANCELS: Final = Counted(
    "This cancels {count} open bid: {bids}.",
    "This cancels {count} open bids: {bids}.",
)
WITHDRAW_DONE: Final = "Withdrawn {amount}: transaction {txid}."
WITHDRAW_DONE_CANCELLED: Final = Counted(
    "The service cancelled {count} bid the balance no longer covers.",
    "The service cancelled {count} bids the balance no longer covers.",
)
WITHDRAW_NOT_DONE: Final = "Not withdrawn: {reason}"

# -- Inscription bid tab (UI-B) ------------------------------------------------------------
TAB_INSCRIPTION_BID: Final = "Inscription bid"
INSCRIPTION_BID_BOX: Final = "Bid on one inscription"
INSCRIPTION_BID_INTRO: Final = (
    "Offer a price for one inscription. The service builds a transaction paid from your"
    " payment address; the inscription comes to your ordinals address when the owner accepts."
)
INSCRIPTION_BID_ID: Final = "&Inscription:"
INSCRIPTION_BID_ID_PLACEHOLDER: Final = "inscription id, e.g. 6fb9…2799i0"
INSCRIPTION_BID_ID_INVALID: Final = (
    "An inscription id is 64 hex characters, then i and a number (like …799i0)."
)
INSCRIPTION_BID_PRICE: Final = "&Price:"
INSCRIPTION_BID_PRICE_HINT: Final = "At least 10,000 sats; postage and the network fee come on top."
INSCRIPTION_BID_REVIEW: Final = "Re&view bid…"
INSCRIPTION_BID_TITLE: Final = "Bid on an inscription"
INSCRIPTION_BID_ACTION: Final = "&Sign and place bid"
INSCRIPTION_BID_NOTE: Final = (
    "You pay {total} (price, postage and network fee); you receive inscription {inscription}"
    " at {address}."
)
INSCRIPTION_BID_NOTE_UNKNOWN: Final = (
    "You pay {total}; where inscription {inscription} would land cannot be known."
)
INSCRIPTION_BID_PLACED: Final = "Bid placed on {inscription} for {price} (bid {bid})."
INSCRIPTION_BID_NOT_PLACED: Final = "Not placed: {reason}"
INSCRIPTION_BID_MINE: Final = "Your inscription bids"
INSCRIPTION_BID_HEADERS: Final = ("Inscription", "Price", "State", "Bid", "Ended by")
INSCRIPTION_BID_STATES: Final = {
    "open": "Open",
    "accepted": "Filled (accepted by the owner)",
    "cancelled": "Cancelled",
    "inscription_moved": "Ended: the inscription moved",
    "funding_spent": "Ended: your payment coins were spent",
}
INSCRIPTION_BID_NONE: Final = "No inscription bids yet."
INSCRIPTION_BID_OPEN_ONLY: Final = (
    "This service lists only open bids: filled and ended ones are not shown."
)

# -- Listings tab (UI-B) -------------------------------------------------------------------
TAB_LISTINGS: Final = "Listings"
LISTINGS_HELD: Final = "Your inscriptions and runes"
LISTINGS_HELD_HEADERS: Final = ("List", "Item", "Kind", "Collection", "Price (sats)")
LISTINGS_KIND_INSCRIPTION: Final = "Inscription"
LISTINGS_KIND_RUNES: Final = "Runes"
LISTINGS_KIND_TAP: Final = "Inscription (TAP transfer)"
LISTINGS_NONE_HELD: Final = "The ordinals address holds no inscriptions or runes."
LISTINGS_HELD_BY: Final = "Held by your ordinals address {address} (from ord)."
LISTINGS_PRICE_ALL: Final = "Price for all &selected:"
LISTINGS_APPLY_PRICE: Final = "&Apply"
LISTINGS_SELECT_ALL: Final = "Select a&ll"
LISTINGS_SELECT_NONE: Final = "Select n&one"
LISTINGS_RECEIVE: Final = "Payments go to:"
LISTINGS_RECEIVE_HINT: Final = "your payment address"
LISTINGS_SELECTED: Final = "{count} selected (at most {limit} per request)."
LISTINGS_NEED_PRICE: Final = "Give every selected item a price (whole sats, more than 0)."
LISTINGS_TOO_MANY: Final = "At most {limit} items per request: {count} are selected."
LISTINGS_MIXED: Final = (
    "Inscriptions and runes cannot be listed in one request: the marketplace builds them"
    " separately. Select only inscriptions, or only runes, then list the others next."
)
LISTINGS_SIGN: Final = "Re&view and sign…"
LISTINGS_EXPORT: Final = "&Export for offline signing…"
LISTINGS_IMPORT: Final = "&Import signed…"
LISTINGS_REVIEWING: Final = "Reviewing"
LISTINGS_SIGNING: Final = "Signing"
LISTINGS_TITLE: Final = "Secure listings"
LISTINGS_ACTION: Final = Counted(
    "&Sign {count} listing",
    "&Sign {count} listings",
)
LISTINGS_EXPORT_ACTION: Final = Counted(
    "&Export {count} PSBT",
    "&Export {count} PSBTs",
)
LISTINGS_SUBMIT_ACTION: Final = Counted(
    "&Submit {count} listing",
    "&Submit {count} listings",
)
LISTINGS_EXPORTING: Final = "Writing the PSBT files…"
LISTINGS_NOTE: Final = Counted(
    "You list {count} item for {total}; the payment goes to {address}.",
    "You list {count} items for {total} in all; payments go to {address}.",
)
LISTINGS_DONE: Final = Counted(
    "Listed {count} item.",
    "Listed {count} items.",
)
LISTINGS_NOT_DONE: Final = "Not listed: {reason}"
LISTINGS_CANCELLED_AFTER: Final = "Cancelled after signing {done} of {total}: nothing was sent."
LISTINGS_EXPORTED: Final = Counted(
    (
        "Exported {count} PSBT to {folder}. Sign it in the offline signer (bidwallet "
        "--offline), bring the folder back, then press Import signed."
    ),
    (
        "Exported {count} PSBTs to {folder}. Sign them in the offline signer (bidwallet "
        "--offline), bring the folder back, then press Import signed."
    ),
)
LISTINGS_EXPORT_FOLDER: Final = "Choose an empty folder for the PSBTs"
LISTINGS_IMPORT_FOLDER: Final = "Choose the folder with the signed PSBTs"
LISTINGS_IMPORT_FAILED: Final = "Not imported: {reason}"
LISTINGS_MINE: Final = "Your listings"
LISTINGS_MINE_HEADERS: Final = ("Item", "Price", "State", "Listing")
LISTINGS_STATES: Final = {
    "active": "Active",
    "sold": "Sold",
    "replaced": "Replaced",
    "item_moved": "Ended: the item moved",
}
LISTINGS_MINE_NONE: Final = "No listings yet."
LISTINGS_MINE_UNAVAILABLE: Final = (
    "This service does not list your listings; the ones made here are in the Activity tab."
)

# -- offline signer: review and sign (UI-B) --------------------------------------------------
OFFLINE_REVIEW_SIGN: Final = "&Review and sign…"
OFFLINE_MANIFEST_LOADED: Final = Counted(
    (
        "{folder}: {count} PSBT for a {flow}, exported with its manifest. Unlock the key, "
        "then Review and sign."
    ),
    (
        "{folder}: {count} PSBTs for a {flow}, exported with their manifest. Unlock the "
        "key, then Review and sign."
    ),
)
OFFLINE_NO_MANIFEST: Final = (
    "{name} has no manifest.json beside it, so Bidwallet cannot tell what it is meant to do"
    ' and will not sign it. Export PSBTs with Bidwallet\'s "Export for offline signing": the'
    " folder then holds the manifest."
)
OFFLINE_SIGN_TITLE: Final = "Review before signing offline"
OFFLINE_SIGN_ACTION: Final = Counted(
    "&Sign {count} PSBT",
    "&Sign {count} PSBTs",
)
OFFLINE_SIGNED: Final = Counted(
    (
        "Signed {count} PSBT; the signed file is in {folder}. Carry the folder back to the "
        "online Bidwallet and press Import signed."
    ),
    (
        "Signed {count} PSBTs; the signed files are in {folder}. Carry the folder back to "
        "the online Bidwallet and press Import signed."
    ),
)
OFFLINE_SIGN_FAILED: Final = "Not signed: {reason}"
OFFLINE_FACTS_NOTE: Final = (
    "Offline, what each coin carries is as recorded online at export (ord and the chain);"
    " this computer cannot check it."
)
OPEN_BIDS_POOLS: Final = "Pools: each may use the whole balance on its own"

# -- signed elsewhere (a watch-only profile's keys sign in another wallet) ------------------
ELSEWHERE_EXPORT_ACTION: Final = "&Export for signing elsewhere"
ELSEWHERE_EXPORT_FOLDER: Final = "Choose an empty folder for the PSBT to sign"
ELSEWHERE_EXPORTING: Final = "Writing the PSBT files…"
ELSEWHERE_EXPORTED: Final = Counted(
    (
        "Exported to {folder}. Sign {files} in the wallet that holds your keys (Sparrow, a"
        " hardware wallet, …), save the signed PSBT into that folder under any name, then"
        " press “Import signed…”."
    ),
    (
        "Exported {count} PSBTs to {folder}. Sign {files} in the wallet that holds your keys"
        " (Sparrow, a hardware wallet, …), save the signed PSBTs into that folder, then press"
        " “Import signed…”."
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
