"""The window, start-up, first run, key setup, unlock, activity, settings, offline signer
and errors."""

from __future__ import annotations

from typing import Final

from app.ui.strings.plural import Counted

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
STATUS_CONNECTING: Final = "Connecting…"
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
NOT_CONNECTED_SETTINGS: Final = "Not connected: {reason}. Change the profile in Settings."
# While a profile starts (its sandbox, keys and clients), in place of "Not connected".
CONNECTING_HINT: Final = (
    "Connecting to the service… Addresses, balances and bids show once it answers."
)
PROFILE_FILE_DAMAGED: Final = (
    "The profiles file could not be read ({details}). Rename or remove it to start over."
)
# While the first-run dialog waits: nothing connects before a profile is chosen.
CHOOSING_PROFILE_HINT: Final = "No profile yet: choose where to trade to start."
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
CHOICE_CUSTOM: Final = "Cus&tom service"  # Alt+C is Continue
CHOICE_CUSTOM_HELP: Final = "A marketplace at another address, with its Esplora and ord servers."
LABEL_API_KEY: Final = "API &key:"
LABEL_CUSTOM_API_KEY: Final = "API ke&y:"  # the first run shows both services' keys at once
LABEL_MARKETPLACE_URL: Final = "&Marketplace URL:"
LABEL_ESPLORA_URL: Final = "&Esplora URL:"
LABEL_ORD_URL: Final = "&ord URL:"
LABEL_NETWORK: Final = "&Network:"
LABEL_PROFILE_NAME: Final = "Profile n&ame:"  # Alt+N is the network
API_KEY_PLACEHOLDER: Final = "kept in the system keychain, never in a file"
# Without a system keychain the key is kept in memory (context.session_api_keys).
API_KEY_PLACEHOLDER_SESSION: Final = "kept until you quit (no system keychain)"


def api_key_placeholder(keychain: bool) -> str:
    """An empty API key field's placeholder: where a key typed there is kept."""
    return API_KEY_PLACEHOLDER if keychain else API_KEY_PLACEHOLDER_SESSION


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
KEY_CHOICE_WIF: Final = "Import a single private &key (WIF)"  # Alt+W is watch-only
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
ACTIVITY_CANCELLED: Final = "Cancelled"  # a review closed without signing
ACTIVITY_FILTER: Final = "Filter…"
ACTIVITY_ERRORS_ONLY: Final = "&Errors only"
ACTIVITY_COPY_TXID: Final = "&Copy txid"
ACTIVITY_COPIED: Final = "Txid copied to the clipboard."
ACTIVITY_EMPTY: Final = "Requests and their results appear here."
# Each action the app records, in the user's words (the Result column says how it went);
# the internal name stays in the row's tooltip for support. What the market did by itself is
# named in live_updates.ACTIVITY_ACTION_NAMES.
ACTIVITY_ACTIONS: Final = {
    "sandbox.start": "Start the sandbox",
    "sandbox.faucet": "Demo coins to your wallet",
    "sandbox.collections": "Read the demo collections",
    "sandbox.inscribe": "Demo inscription to your wallet",
    "sandbox.runes": "Demo runes to your wallet",
    "sandbox.mine": "Mine a sandbox block",
    "fund.prepare": "Review a funding",
    "fund.broadcast": "Fund the bidding wallet",
    "bid.place": "Place a bid",
    "bids.cancel": "Cancel bids",
    "withdraw.prepare": "Review a withdrawal",
    "withdraw": "Withdraw",
    "inscription_bid.prepare": "Review an inscription bid",
    "inscription_bid.place": "Place an inscription bid",
    "listings.prepare": "Review listings",
    "listings.submit": "List items",
    "listings.export": "Export listings for signing",
    "listings.import": "Import signed listings",
    "listings.end": "End a listing",
    "psbt.open": "Open a PSBT file",
    "psbt.sign": "Sign a PSBT",
    "psbt.save": "Save a PSBT file",
    "psbt.export": "Export for signing elsewhere",
    "psbt.import": "Import what was signed elsewhere",
    "strategy.approve": "Approve a strategy",
    "strategy.start": "Start a strategy",
    "strategy.stop": "Stop a strategy",
    "strategy.ended": "Strategy stopped on an error",
    "strategy.locked": "Strategies stopped by the lock",
}
# The Activity log's line of each strategy action (issue 17): one per action, not per bid
# (the strategy's journal has those).
ACTIVITY_STRATEGY_APPROVED: Final = "{strategy}: approved"
ACTIVITY_STRATEGY_STARTED: Final = "{strategy}: started"
ACTIVITY_STRATEGY_STOPPED_KEPT: Final = "{strategy}: stopped, its bids kept until they expire"
ACTIVITY_STRATEGY_STOPPED_CANCELLED: Final = Counted(
    "{strategy}: stopped, {count:,} bid cancelled",
    "{strategy}: stopped, {count:,} bids cancelled",
)
ACTIVITY_STRATEGY_FAILED: Final = "{strategy}: {error}"
ACTIVITY_STRATEGIES_LOCKED: Final = Counted(  # the action says the lock stopped them
    "{strategies}: stopped, its bids kept until they expire",
    "{strategies}: stopped, their bids kept until they expire",
)

# -- settings ------------------------------------------------------------------------------
SETTINGS_PROFILES: Final = "Profiles"
SETTINGS_ACTIVE_SUFFIX: Final = " (active)"
SETTINGS_SWITCH: Final = "S&witch to"
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
SETTINGS_API_KEY_SAVE: Final = "Save ke&y"
SETTINGS_API_KEY_CLEAR: Final = "C&lear key"
SETTINGS_API_KEY_SAVED: Final = "API key saved in the system keychain."
SETTINGS_API_KEY_CLEARED: Final = "API key removed."
SETTINGS_API_KEY_SET: Final = "a key is stored"
SETTINGS_PSBT_GUARD: Final = "Fee limits (checked before signing)"
SETTINGS_MIN_RATE: Final = "M&inimum fee rate:"
SETTINGS_MAX_RATE: Final = "Ma&ximum fee rate:"
SETTINGS_MAX_FEE: Final = "Maximum fee:"  # every letter is taken on the tab
SETTINGS_SECURITY: Final = "Security"
SETTINGS_LOCK_TIMEOUT: Final = "Lo&ck after:"
SETTINGS_REQUEST_RATE: Final = "Re&quest rate:"
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
SETTINGS_MAKER_FEE_BPS: Final = "Plus a share of its &price:"
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
SETTINGS_SAVED_CONNECTED: Final = "Settings saved and applied: connected to {url}."
SETTINGS_SAVED_NOT_CONNECTED: Final = (
    "Settings saved, but the service is not connected: the status bar says why."
)
SETTINGS_INVALID: Final = "Not saved: {reason}"
SETTINGS_INVALID_RATE: Final = "Not saved: the request rate above is not valid."
SUFFIX_SAT_VB: Final = " sat/vB"
SUFFIX_SATS: Final = " sats"

# -- offline signer ------------------------------------------------------------------------
OFFLINE_INTRO: Final = (
    "Offline signer: this window never connects to a network. Open the manifest.json (or any"
    " PSBT file) of a folder an online Bidwallet exported, or Scan QR… the code it shows, then"
    " press Review and sign… The signed files go into that folder: carry it back and import it,"
    " or Show signed as QR… for the online Bidwallet to scan."
)
OFFLINE_OPEN: Final = "&Open PSBT file…"
OFFLINE_SAVE: Final = "&Save signed PSBT…"
OFFLINE_UNLOCK: Final = "&Unlock signing key…"
OFFLINE_PROFILE: Final = "Signing &key:"
OFFLINE_NO_FILE: Final = "No file opened."
OFFLINE_LOADED: Final = "{name}: a PSBT with {inputs} and {outputs}, {signed}."
OFFLINE_INPUTS: Final = Counted("{count} input", "{count} inputs")
OFFLINE_OUTPUTS: Final = Counted("{count} output", "{count} outputs")
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
