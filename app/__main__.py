"""Command line entry point: `bidwallet` and `python -m app`."""

from __future__ import annotations

import argparse
import sys

from app import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bidwallet",
        description="Desktop bidding wallet for Bitcoin inscriptions and runes.",
    )
    parser.add_argument("--version", action="version", version=f"bidwallet {__version__}")
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="use the embedded sandbox (a local regtest marketplace); "
        "until the desktop window exists this serves the sandbox in the foreground",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sandbox = sub.add_parser("sandbox", help="the embedded sandbox service")
    sandbox_sub = sandbox.add_subparsers(dest="sandbox_command", metavar="SUBCOMMAND")
    sandbox_sub.required = True
    serve = sandbox_sub.add_parser("serve", help="serve the sandbox API on loopback")
    from app.sandbox.cli import add_serve_arguments

    add_serve_arguments(serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "sandbox" or args.sandbox:
        from app.sandbox.cli import run_serve

        return run_serve(args)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
