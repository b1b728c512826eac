"""Moved to the QA plugin (app/ui/qa/); kept until every import names it there."""

from app.ui.qa.actions import click as click
from app.ui.qa.actions import paste_into as paste_into
from app.ui.qa.actions import set_spin as set_spin
from app.ui.qa.actions import type_into as type_into
from app.ui.qa.actions import wait_dialog as wait_dialog
from app.ui.qa.actions import wait_new_dialog as wait_new_dialog
from app.ui.qa.actions import widget_top as widget_top
from app.ui.qa.pages.bid import bid_tab_ready as bid_tab_ready
from app.ui.qa.pages.bid import fill_collection_bid as fill_collection_bid
from app.ui.qa.pages.bid import place_from_bid_tab as place_from_bid_tab
from app.ui.qa.pages.bid import tick_trait as tick_trait
from app.ui.qa.profiles import ABANDON as ABANDON
from app.ui.qa.profiles import DUMMY_URL as DUMMY_URL
from app.ui.qa.profiles import PASSWORD as PASSWORD
from app.ui.qa.profiles import SANDBOX_REQUEST_RATE as SANDBOX_REQUEST_RATE
from app.ui.qa.profiles import FundedApp as FundedApp
from app.ui.qa.profiles import choose_custom_service as choose_custom_service
from app.ui.qa.profiles import finish_with_password as finish_with_password
from app.ui.qa.profiles import open_funded_app as open_funded_app
from app.ui.qa.profiles import prepare_profile as prepare_profile
from app.ui.qa.profiles import start_key_setup as start_key_setup
from app.ui.qa.profiles import unlock_by_typing as unlock_by_typing
from app.ui.qa.sandbox import SandboxClockSleeper as SandboxClockSleeper
from app.ui.qa.sandbox import fund_bidding_wallet as fund_bidding_wallet
from app.ui.qa.sandbox import new_collection as new_collection
from app.ui.qa.sandbox import sandbox_post as sandbox_post
