"""The market's settings: `--maker-fee-sats`, `--maker-fee-bps` (with `--bidding-wallet`,
`--listing-escrow`, `--bids-keyed-by` and `--api-key`) reach a real `bidwallet sandbox serve`
process and its `GET /sandbox/info`."""

from __future__ import annotations

import httpx
import pytest

from app.__main__ import build_parser
from app.sandbox.cli import settings_from_args
from app.sandbox.http.settings import SandboxSettings
from tests.sandbox.conftest import SandboxProcessFactory
from tests.sandbox.market.helpers import User


def test_maker_fee_options_and_defaults() -> None:
    parse = build_parser().parse_args
    defaults = settings_from_args(parse(["sandbox", "serve"]))
    assert (defaults.maker_fee_sats, defaults.maker_fee_bps) == (1_000, 0)
    args = parse(["sandbox", "serve", "--maker-fee-sats", "0", "--maker-fee-bps", "250"])
    settings = settings_from_args(args)
    assert (settings.maker_fee_sats, settings.maker_fee_bps) == (0, 250)


@pytest.mark.parametrize("bad", [["--maker-fee-sats", "-1"], ["--maker-fee-bps", "1.5"]])
def test_bad_maker_fee_options_exit_2(bad: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["sandbox", "serve", *bad])
    assert exit_info.value.code == 2


@pytest.mark.parametrize(
    "fields", [{"maker_fee_sats": -1}, {"maker_fee_bps": 10_001}, {"maker_fee_sats": 10**9}]
)
def test_settings_refuse_out_of_range_fees(fields: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="maker_fee"):
        SandboxSettings(**fields)


def test_settings_refuse_an_unknown_listing_escrow() -> None:
    with pytest.raises(ValueError, match="listing_escrow"):
        SandboxSettings(listing_escrow="none")  # type: ignore[arg-type]


def test_bids_keyed_by_option_and_default() -> None:
    parse = build_parser().parse_args
    assert settings_from_args(parse(["sandbox", "serve"])).bids_keyed_by == "ordinals"
    args = parse(["sandbox", "serve", "--bids-keyed-by", "payment"])
    assert settings_from_args(args).bids_keyed_by == "payment"
    with pytest.raises(SystemExit):
        parse(["sandbox", "serve", "--bids-keyed-by", "receive"])
    with pytest.raises(ValueError, match="bids_keyed_by"):
        SandboxSettings(bids_keyed_by="receive")  # type: ignore[arg-type]


def test_served_process_uses_the_options(sandbox_process_factory: SandboxProcessFactory) -> None:
    extra = ["--maker-fee-sats", "500", "--maker-fee-bps", "10", "--bidding-wallet", "p2wsh"]
    extra += ["--listing-escrow", "shared", "--bids-keyed-by", "payment"]
    process = sandbox_process_factory(extra_args=[*extra, "--api-key", "k"])
    with httpx.Client(base_url=process.url, timeout=10) as client:
        info = client.get("/sandbox/info").json()
        assert (info["makerFeeSats"], info["makerFeeBps"]) == (500, 10)
        assert (info["biddingWalletKind"], info["listingEscrow"]) == ("p2wsh", "shared")
        assert info["bidsKeyedBy"] == "payment"
        user = User.make("process")
        params = {
            "ordinalsAddress": user.ordinals.address,
            "paymentAddress": user.payment.address,
            "paymentPubkey": user.pubkey_hex,
        }
        assert client.get("/v1/address/bidding-wallet", params=params).status_code == 401
        response = client.get(
            "/v1/address/bidding-wallet", params=params, headers={"x-api-key": "k"}
        )
        assert response.status_code == 200, response.text
        assert response.json()["data"]["multiSig"]["type"] == "p2wsh"
    assert process.terminate() == 0
