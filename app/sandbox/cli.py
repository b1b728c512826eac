"""`bidwallet sandbox serve`: command-line arguments and entry point.

Imported by `app/__main__.py` on every start of the desktop app, so this module imports only
argparse-level things; the server, the chain and FastAPI are imported inside `run_serve`.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.core.rate_limit import RateLimit
    from app.sandbox.http.settings import SandboxSettings

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 0
API_KEY_ENV = "BIDWALLET_SANDBOX_API_KEY"


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 0-65535, not {port}")
    return port


def _positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not seconds > 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return seconds


def _rate_limit(text: str) -> RateLimit:
    from app.core.rate_limit import RateLimit, RateLimitError

    try:
        return RateLimit.parse(text)
    except RateLimitError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {value}")
    return value


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}; other than loopback only on purpose)",
    )
    parser.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help="TCP port; 0 (default) picks a free one"
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        metavar="DIR",
        help="directory holding the chain and the index; restarting on it resumes "
        "(default: a temporary directory removed at exit)",
    )
    parser.add_argument(
        "--chain-cache",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep the initial demo chain in DIR and start an empty data directory from it: "
        "its blocks are validated again by the kernel and its indexes rebuilt (default: "
        "build the chain each time)",
    )
    parser.add_argument(
        "--block-interval",
        type=_positive_seconds,
        default=None,
        metavar="SECONDS",
        help="also mine a block every SECONDS (default: only on request)",
    )
    parser.add_argument(
        "--api-key",
        default=None,
        metavar="KEY",
        help=f"require this x-api-key on marketplace routes (or set {API_KEY_ENV})",
    )
    parser.add_argument(
        "--bidding-wallet",
        choices=("taproot", "p2wsh"),
        default="taproot",
        help="kind of 1-of-2 bidding wallet the marketplace hands out (default taproot)",
    )
    parser.add_argument(
        "--maker-fee-sats",
        type=_non_negative_int,
        default=None,
        metavar="SATS",
        help="flat maker fee per collection bid (default 1000)",
    )
    parser.add_argument(
        "--maker-fee-bps",
        type=_non_negative_int,
        default=None,
        metavar="BPS",
        help="maker fee per collection bid in basis points of its price (default 0)",
    )
    parser.add_argument(
        "--listing-escrow",
        choices=("per-item", "shared"),
        default="per-item",
        help="escrow output of secure listings: one key per listed item (default), or 'shared' "
        "to reproduce the double-sale layout of a careless marketplace (QA: the app must "
        "refuse the second colliding signature)",
    )
    parser.add_argument(
        "--service-runestones",
        choices=("none", "edict", "pointer"),
        default="none",
        help="the runestone the service adds to secure rune listings and inscription bids: "
        "none (default; ord's default sends the runes to the first output), an edict per rune "
        "on the item to the output receiving it, or a pointer at that output (on every "
        "inscription bid too); changed while running by POST /sandbox/market/runestones",
    )
    parser.add_argument(
        "--bids-keyed-by",
        choices=("ordinals", "payment"),
        default="ordinals",
        help="the address bids are listed under and cancelled by: the ordinals address "
        "(default) or the payment address that signs them (the public service does not "
        "say which it uses)",
    )
    parser.add_argument(
        "--no-demo-market",
        dest="demo_market",
        action="store_false",
        help="do not give a new data directory the demo market (sandbox-held sellers' listings, "
        "competing bids and a sale per demo collection; bids per demo rune), which is made in "
        "the background once the sandbox answers",
    )
    parser.add_argument(
        "--market-sim",
        type=_non_negative_int,
        default=None,
        metavar="SEED",
        help="move the market by itself: the sandbox-held sellers and bidders list, reprice, "
        "bid, cancel, buy and fill, one step of the simulator of SEED every "
        "--market-sim-interval seconds (the same seed makes the same moves; default: off)",
    )
    parser.add_argument(
        "--market-sim-interval",
        type=_positive_seconds,
        default=None,
        metavar="SECONDS",
        help="seconds between two steps of --market-sim (default 10)",
    )
    parser.add_argument(
        "--rate-limit",
        type=_rate_limit,
        default=None,
        metavar="RATE[/BURST]",
        help="answer 429 RATE_LIMITED (retryAfterMs and Retry-After) to /v1 requests beyond "
        "RATE per second with bursts of BURST (default 2 x RATE), per API key; e.g. 5/10, "
        "what the public service is reported to allow (default: no limit)",
    )


def settings_from_args(args: argparse.Namespace) -> SandboxSettings:
    """The app's settings from parsed arguments; any missing option takes its default (the
    `bidwallet --sandbox` namespace has none of them). Raises ValueError on a bad value."""
    from app.sandbox.http.settings import (
        DEFAULT_MAKER_FEE_BPS,
        DEFAULT_MAKER_FEE_SATS,
        SandboxSettings,
    )

    fee_sats = getattr(args, "maker_fee_sats", None)
    fee_bps = getattr(args, "maker_fee_bps", None)
    return SandboxSettings(
        api_key=getattr(args, "api_key", None) or os.environ.get(API_KEY_ENV) or None,
        bidding_wallet=getattr(args, "bidding_wallet", None) or "taproot",
        block_interval_s=getattr(args, "block_interval", None),
        maker_fee_sats=DEFAULT_MAKER_FEE_SATS if fee_sats is None else fee_sats,
        maker_fee_bps=DEFAULT_MAKER_FEE_BPS if fee_bps is None else fee_bps,
        listing_escrow=getattr(args, "listing_escrow", None) or "per-item",
        bids_keyed_by=getattr(args, "bids_keyed_by", None) or "ordinals",
        service_runestones=getattr(args, "service_runestones", None) or "none",
        rate_limit=getattr(args, "rate_limit", None),
    )


def run_serve(args: argparse.Namespace) -> int:
    """Serve until SIGINT/SIGTERM; returns the process exit code.

    `args` may come from `bidwallet --sandbox`, which has none of the serve options: every
    option falls back to its default.
    """
    from app.sandbox.http.server import ServeError, ServeOptions, serve

    try:
        settings = settings_from_args(args)
    except ValueError as exc:
        print(f"bidwallet sandbox serve: error: {exc}", file=sys.stderr, flush=True)
        return 2
    from app.sandbox.http.market_activity import DEFAULT_SIM_INTERVAL_S

    port = getattr(args, "port", None)
    interval = getattr(args, "market_sim_interval", None)
    options = ServeOptions(
        host=getattr(args, "host", None) or DEFAULT_HOST,
        port=DEFAULT_PORT if port is None else port,
        data_dir=getattr(args, "data", None),
        settings=settings,
        chain_cache=getattr(args, "chain_cache", None),
        demo_market=getattr(args, "demo_market", True),
        market_sim_seed=getattr(args, "market_sim", None),
        market_sim_interval_s=DEFAULT_SIM_INTERVAL_S if interval is None else interval,
    )
    try:
        return serve(options)
    except ServeError as exc:
        print(f"bidwallet sandbox serve: error: {exc}", file=sys.stderr, flush=True)
        return 2
