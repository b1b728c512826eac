"""`bidwallet psbt inspect FILE|DIR [--json]` and `bidwallet psbt sign FILE|DIR --profile NAME
[--yes]`: the offline signer without a window (issue 19; docs/offline-signing.md).

The same path as the `--offline` window's: `offline.review_export` reviews each exported PSBT
with its flow's policy against the facts the manifest recorded, `offline.review_offline` checks
the export is this wallet's, `psbt_flow.accept_fee` takes a fee the user accepts, and
`offline.sign_reviewed` signs exactly what the policy approved and writes
`NN-<flow>.signed.psbt` / `.signed.txt` beside the export, which the online app's Import signed
reads. Nothing here constructs a network client. The keys come from the profile's vault
(`cli_unlock`: the OS keyring's unlock key, else the password typed at the prompt).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from app.services.offline import OfflineRefused, OfflineSigned
    from app.services.psbt_report import ReviewedFile
    from app.wallet.acp_ledger import AcpLedger

EXIT_SIGNED: Final = 0  # sign: every PSBT signed; inspect: the policy approves every one
EXIT_USAGE: Final = 2  # the command line itself is wrong (argparse)
EXIT_REFUSED: Final = 3  # nothing signed: the policy refuses, or the signature was not confirmed
EXIT_ERROR: Final = 4  # nothing signed: a file, the manifest, the profile or the password failed
EXIT_INTERRUPTED: Final = 130

EXIT_CODES: Final = """\
Exit status: 0 signed (inspect: the policy approves every PSBT); 3 refused, nothing signed
(the policy refuses a PSBT, a fee needs consent under --yes, no manifest, or you answered no);
4 error, nothing signed (a missing or changed file, a corrupt PSBT or manifest, an unknown
profile, a wrong password); 2 a wrong command line."""

DESCRIPTION: Final = f"""\
Print the review of PSBTs on a machine without network; nothing is signed here (bidwallet psbt
sign signs). The terminal's offline signer, with the same review and the same signing policies
as the window's (bidwallet --offline).

DIR is a folder the app exported for offline signing (manifest.json beside the PSBTs; FILE may
be that manifest.json): each PSBT is reviewed with its flow's policy (listing, inscription bid,
withdrawal, funding) against the facts ord and the chain gave the online machine at export. A
lone PSBT FILE has no manifest: no flow and none of your addresses are known, so it is
reviewed only and never signed. Nothing here opens a network connection.

{EXIT_CODES}"""

SIGN_DESCRIPTION: Final = f"""\
Review every PSBT of an export, then sign exactly what the policy approves with the profile's
key and write NN-<flow>.signed.psbt and .signed.txt beside them: the files the online app's
"Import signed" reads. Nothing is signed if any PSBT is refused. The key is unlocked with the
unlock key the OS keyring remembers, or the password typed at the prompt (never an
environment variable or an argument). You are asked before the set is signed (before the
password: a no never needs the key) and before any fee above your bounds is accepted; --yes
answers the first question only: a fee that needs your consent, like anything the policy
refuses, is still refused.

{EXIT_CODES}"""


def add_arguments(sub: Any) -> None:
    """`psbt inspect` and `psbt sign` under the `psbt` command's subparsers."""
    inspect = sub.add_parser(
        "inspect",
        help="print the review of each PSBT of an export (or of a lone PSBT file)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    inspect.add_argument("path", metavar="FILE|DIR", type=Path)
    inspect.add_argument(
        "--json", action="store_true", help="the review as JSON (docs/offline-signing.md)"
    )
    _network_argument(inspect)
    sign = sub.add_parser(
        "sign",
        help="review an export and sign what the policy approves",
        description=SIGN_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sign.add_argument("path", metavar="FILE|DIR", type=Path)
    sign.add_argument("--profile", required=True, help="the profile whose key signs")
    sign.add_argument(
        "--yes",
        action="store_true",
        help="sign without asking (a refusal, or a fee needing consent, still signs nothing)",
    )
    _network_argument(sign)


def _network_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--network",
        choices=("main", "test", "signet", "regtest"),
        default="main",
        help="a lone FILE's network, for its addresses (an export's manifest names its own)",
    )


class _Refused(Exception):
    """Nothing is signed; the message says why (exit 3)."""


class _Error(Exception):
    """Nothing is signed: the command cannot go on (exit 4)."""


def run_command(args: argparse.Namespace) -> int:
    from app.services.errors import ServiceError
    from app.services.psbt_files import PsbtFileError
    from app.wallet.vault_errors import VaultError

    try:
        if args.psbt_command == "inspect":
            return _inspect(args)
        return _sign(args)
    except _Refused as exc:
        return _say(str(exc), EXIT_REFUSED)
    except _Error as exc:
        return _say(str(exc), EXIT_ERROR)
    except ServiceError as exc:
        return _say(exc.user_message, EXIT_ERROR)
    except (PsbtFileError, VaultError) as exc:
        return _say(f"{args.path}: {exc}", EXIT_ERROR)
    except OSError as exc:
        return _say(f"{exc.filename or args.path}: {exc.strerror or exc}", EXIT_ERROR)
    except (KeyboardInterrupt, EOFError):
        return _say("interrupted: nothing more was signed", EXIT_INTERRUPTED)


def _say(message: str, code: int) -> int:
    print(f"bidwallet psbt: {message}", file=sys.stderr)
    return code


def _inspect(args: argparse.Namespace) -> int:
    import json

    from app.services.psbt_report import APPROVED, text_of

    inspection, _ = _review(args.path, args.network)
    print(json.dumps(inspection, indent=2) if args.json else text_of(inspection))
    return EXIT_SIGNED if inspection["decision"] == APPROVED else EXIT_REFUSED


def _sign(args: argparse.Namespace) -> int:
    from app.data_dir import default_data_dir
    from app.services.acp_signatures import ledger_of
    from app.services.cli_unlock import unlock_keys_at_terminal
    from app.services.offline import review_offline, sign_reviewed
    from app.services.profiles import ProfileStore
    from app.services.psbt_report import REVIEW_ONLY, psbt_report, psbt_text, text_of

    inspection, folder = _review(args.path, args.network)
    print(text_of(inspection))
    decision = inspection["decision"]
    if folder is None or decision == REVIEW_ONLY:
        raise _Refused("nothing was signed: a PSBT without its export's manifest is never signed")
    refused = [p for p in inspection["psbts"] if p["verdict"]["decision"] == "refused"]
    if refused:
        names = ", ".join(p["name"] for p in refused)
        first = refused[0]["verdict"]["reasons"][0]
        raise _Refused(f"nothing was signed: the policy refuses {names} ({first})")
    consent = [p for p in inspection["psbts"] if p["verdict"]["decision"] == "needs-fee-consent"]
    if consent and args.yes:
        raise _Refused(
            f"nothing was signed: the fee of {consent[0]['name']} is above your bounds and "
            "--yes never accepts a fee: run without --yes to answer"
        )
    data_dir = default_data_dir()
    profile = ProfileStore(data_dir).load().get(args.profile)
    if profile is None:
        raise _Error(f"no profile named {args.profile!r} in {data_dir}")
    if profile.key_name is None:
        raise _Error(f"profile {profile.name!r} has no keys yet: set them up in the window")
    flow = inspection["source"]["flow"]
    count = _count(len(inspection["psbts"]), flow)
    # Asked before the password: answering no never needs the key.
    if not args.yes and not _confirm(f"Sign {count} with {profile.name}?"):
        raise _Refused("nothing was signed: not confirmed")
    keys = unlock_keys_at_terminal(data_dir, profile.key_name, "PSBTs")
    reviewed = review_offline(folder, keys)  # this wallet's export?
    # The folder is read again: what is signed must be what was shown and confirmed.
    shown = [psbt_text(p) for p in inspection["psbts"]]
    if [psbt_text(psbt_report(_reviewed_file(r))) for r in reviewed] != shown:
        raise _Refused(f"nothing was signed: {folder} changed after its review was shown")
    reviewed = _with_fees_accepted(reviewed)
    ledger = ledger_of(data_dir)  # this machine's record of its ANYONECANPAY signatures
    _record_set(ledger, reviewed)
    for item in reviewed:
        sign_reviewed(folder, item, keys, ledger)
        print(f"Signed {item.item.name}: wrote {folder / item.item.signed_psbt_file} (and .txt)")
    print(f"{_count(len(reviewed), flow)} signed; take {folder} back to the online app and "
          "use Import signed.")  # fmt: skip
    return EXIT_SIGNED


def _record_set(ledger: AcpLedger, reviewed: list[OfflineSigned]) -> None:
    """`record_reviewed`, its refusal said as the command's."""
    from app.services.offline import record_reviewed
    from app.services.psbt_flow import PsbtRefusedError
    from app.wallet.acp_ledger import AcpLedgerError

    try:
        record_reviewed(reviewed, ledger)
    except PsbtRefusedError as exc:
        raise _Refused(f"nothing was signed: {exc.user_message}") from None
    except AcpLedgerError as exc:
        raise _Error(f"nothing was signed: {exc}") from None


def _with_fees_accepted(reviewed: list[OfflineSigned]) -> list[OfflineSigned]:
    """Each fee above the bounds accepted by the user for that very PSBT, or nothing signed."""
    from dataclasses import replace

    from app.services.psbt_flow import accept_fee

    accepted = []
    for r in reviewed:
        fee = r.plan.verdict.fee
        if r.plan.needs_fee_consent and fee is not None:
            name = r.item.label or r.item.name
            if not _confirm(f"Accept paying {fee.describe()} for {name}?"):
                raise _Refused(f"nothing was signed: the fee of {name} was not accepted")
            r = replace(r, plan=accept_fee(r.plan))
        accepted.append(r)
    return accepted


def _confirm(question: str) -> bool:
    print(f"{question} [y/N] ", end="", flush=True)
    answer = sys.stdin.readline()
    if not answer:
        print()
    return answer.strip().lower() in ("y", "yes")


def _count(n: int, flow: str) -> str:
    return f"1 {flow} PSBT" if n == 1 else f"{n} {flow} PSBTs"


def _review(path: Path, network: str) -> tuple[dict[str, Any], Path | None]:
    """The inspection of `path` and its export folder (None for a lone file)."""
    from app.services.offline_manifest import MANIFEST_NAME

    if path.is_dir() or path.name == MANIFEST_NAME:
        folder = path if path.is_dir() else path.parent
        return _review_export(folder), folder
    return _review_lone(path, network), None


def _review_export(folder: Path) -> dict[str, Any]:
    from app.services.offline import review_export
    from app.services.offline_files import read_manifest
    from app.services.offline_manifest import FACTS_NOTE
    from app.services.psbt_report import report

    manifest = read_manifest(folder)
    files = [_reviewed_file(r) for r in review_export(folder, manifest)]
    source = {
        "kind": "export",
        "path": str(folder),
        "flow": manifest.flow,
        "network": manifest.network,
        "wallet": {
            "payment": manifest.payment_address,
            "ordinals": manifest.ordinals_address,
            "biddingWallet": manifest.bidding_wallet,
        },
        "description": f"{_count(len(files), manifest.flow)} exported in {folder} for the "
        f"wallet of payment address {manifest.payment_address} ({manifest.network}).",
    }
    return report(files, source, [FACTS_NOTE])


def _reviewed_file(r: OfflineSigned | OfflineRefused) -> ReviewedFile:
    from app.services.offline import OfflineSigned
    from app.services.psbt_report import ReviewedFile

    if isinstance(r, OfflineSigned):
        review, verdict = r.plan.review, r.plan.verdict
    else:
        review, verdict = r.refusal.review, r.refusal.verdict
    return ReviewedFile(
        r.item.name, r.item.psbt_file, r.item.label, review, verdict, str(r.item.signer)
    )


def _review_lone(path: Path, network: str) -> dict[str, Any]:
    from app.services.offline_manifest import MANIFEST_NAME
    from app.services.psbt_files import load_psbt_file, review_without_manifest
    from app.services.psbt_report import NO_WALLET_NOTE, ReviewedFile, report

    loaded = load_psbt_file(path)
    review = review_without_manifest(loaded.psbt, network)
    notes = [NO_WALLET_NOTE]
    if (path.parent / MANIFEST_NAME).is_file():
        notes.append(
            f"{path.parent} holds an export: give the folder to review it with its manifest."
        )
    source = {
        "kind": "file",
        "path": str(path),
        "flow": None,
        "network": network,
        "wallet": None,
        "description": f"{path}: a lone PSBT ({network}), no manifest.",
    }
    file = ReviewedFile(path.stem, path.name, "", review, None)
    return report([file], source, notes)
