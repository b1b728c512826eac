"""Command line entry point: `bidwallet` and `python -m app`.

Kept light: the desktop app (PySide6) and the sandbox (FastAPI, the chain) are imported only
once the command line says which one runs.
"""

from __future__ import annotations

import argparse
import os
import sys

from app import version

NO_DISPLAY_EXIT_CODE = 3
SMOKE_TEST_NEEDS_SANDBOX = (
    "--smoke-test needs --sandbox: it confirms dialogs by itself, so it runs only on the "
    "embedded sandbox, never against a real marketplace"
)


class _VersionAction(argparse.Action):
    """argparse's "version" action, reading the version only when asked (not at every start)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(
            option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show the version"
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"bidwallet {version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bidwallet",
        description="Desktop bidding wallet for Bitcoin inscriptions and runes.",
    )
    parser.add_argument("--version", action=_VersionAction)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--sandbox",
        action="store_true",
        help="open the app on the embedded sandbox (a local regtest marketplace started as a "
        "child process), creating the sandbox profile if there is none",
    )
    mode.add_argument(
        "--offline",
        action="store_true",
        help="offline signer: open, review, sign and save PSBT files; no network access at all",
    )
    # The packaged app's end-to-end check (packaging/smoke_test.sh): it confirms the sandbox's
    # dialogs by itself, so it is hidden and refused without --sandbox.
    parser.add_argument("--smoke-test", action="store_true", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sandbox = sub.add_parser("sandbox", help="the embedded sandbox service")
    sandbox_sub = sandbox.add_subparsers(dest="sandbox_command", metavar="SUBCOMMAND")
    sandbox_sub.required = True
    serve = sandbox_sub.add_parser("serve", help="serve the sandbox API on loopback")
    from app.sandbox.cli import add_serve_arguments

    add_serve_arguments(serve)
    from app.services import strategy_cli  # stdlib only at import: the parser stays light

    strategies = sub.add_parser(
        "strategies",
        help="run bid strategies without the window",
        description="Bid strategies without the window.",
    )
    strategies_sub = strategies.add_subparsers(dest="strategies_command", metavar="SUBCOMMAND")
    strategies_sub.required = True
    run_parser = strategies_sub.add_parser(
        "run",
        help="run a profile's strategy (or print its plan with --dry-run)",
        description=strategy_cli.DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    strategy_cli.add_arguments(run_parser)
    from app.services import psbt_cli  # stdlib only at import, like strategy_cli

    psbt = sub.add_parser(
        "psbt",
        help="review and sign exported PSBTs without the window (offline)",
        description="The offline signer in a terminal: bidwallet psbt inspect FILE|DIR, "
        "bidwallet psbt sign FILE|DIR --profile NAME.\n\n" + psbt_cli.EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    psbt_sub = psbt.add_subparsers(dest="psbt_command", metavar="SUBCOMMAND")
    psbt_sub.required = True
    psbt_cli.add_arguments(psbt_sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.smoke_test and (not args.sandbox or args.command is not None):
        parser.error(SMOKE_TEST_NEEDS_SANDBOX)  # exits 2
    if args.command == "sandbox":
        from app.sandbox.cli import run_serve

        return run_serve(args)
    if args.command == "strategies":
        from app.services.strategy_cli import run_command

        return run_command(args)
    if args.command == "psbt":
        from app.services.psbt_cli import run_command as run_psbt

        return run_psbt(args)
    from app.ui.display import missing_display_message

    message = missing_display_message(os.environ)
    if message is not None:
        print(message, file=sys.stderr)
        return NO_DISPLAY_EXIT_CODE
    early = None
    if not args.offline:  # the sandbox child's start overlaps the window's (sandbox_early.py)
        from app.services.sandbox_early import spawn_for_start

        early = spawn_for_start(sandbox=args.sandbox)
    from app.ui.launch import run

    return run(
        offline=args.offline,
        sandbox=args.sandbox,
        smoke_test=args.smoke_test,
        early_sandbox=early,
    )


if __name__ == "__main__":
    sys.exit(main())
