"""The strategy editor from the Bid tab's "Keep this bid…" (issue 17), against the sandbox: the
form's bid becomes a fixed-price strategy, its preview says what it would place (nothing
signed), the approval step shows the policy in plain words, "Approve and start" runs it under a
policy capped as the form said. A bad field says what is wrong at the field and keeps what was
typed; Cancel approves nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSpinBox
from pytestqt.qtbot import QtBot
from shiboken6 import isValid

from app.core.bid_fee_rate import DEFAULT_BID_FEE_RATE
from app.core.pools import MakerFee, PoolKey, bid_cost
from app.core.strategy_approval import HOUR_MS, START_SLACK_MS
from app.core.strategy_rules import AboveTopBid, FixedPrice, Ladder, LadderStep, PoolStrategy
from app.core.strategy_settings import StrategyLimits
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.strategy_editor import APPROVE_PAGE, EDIT_PAGE, StrategyEditor, edit_strategy
from app.ui.dialogs.strategy_editor_form import StrategyFields, span_text, suggested_name
from app.ui.dialogs.strategy_from_bid import strategy_from_bid
from app.ui.dialogs.strategy_pool_editor import ABOVE_TOP, FIXED, PoolEditor, rune_units_for
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.profile_session import profile_session
from app.ui.qa.actions import click, type_into, wait_new_dialog
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.pages.bid import bid_tab_ready, fill_collection_bid
from app.ui.qa.profiles import PASSWORD, open_funded_app
from app.ui.qa.sandbox import fund_bidding_wallet
from app.ui.state.strategy_state import StrategyState
from app.ui.tabs.bid_preview import BidDraft
from app.ui.tabs.bid_tab import BidTab

FEE = MakerFee(basis_points=100, flat_sats=500)


def _draft(
    runes: bool, price: int, quantity: int, traits: tuple[tuple[str, str], ...] = ()
) -> BidDraft:
    target = "UNCOMMON•GOODS" if runes else "pixel-pals"
    return BidDraft(runes, target, price, "", quantity, None, traits, DEFAULT_BID_FEE_RATE)


def test_a_rune_bid_is_kept_at_its_exact_unit_price() -> None:
    kept = strategy_from_bid(_draft(True, 20_000, 3), FEE)
    assert kept is not None and kept.rune_units == 3
    (pool,) = kept.config.pools
    assert pool.is_rune and pool.rule == FixedPrice(Fraction(20_000, 3))
    assert pool.budget_sats == kept.config.limits.total_budget_sats == bid_cost(20_000, FEE)
    assert kept.config.limits.max_active_bids == 1  # one bid for all the units


def test_a_trait_bid_is_kept_in_each_of_its_pools() -> None:
    kept = strategy_from_bid(_draft(False, 12_000, 2, (("hat", "red"), ("eyes", "blue"))), FEE)
    assert kept is not None and kept.rune_units is None
    assert [p.pool.trait.value for p in kept.config.pools if p.pool.trait] == ["red", "blue"]
    each = bid_cost(12_000, FEE) * 2
    assert all(p.budget_sats == each for p in kept.config.pools)
    assert kept.config.limits.total_budget_sats == 2 * each
    assert kept.config.limits.max_active_bids == 4
    assert strategy_from_bid(_draft(False, 0, 2), FEE) is None  # no price yet


def test_rune_prices_are_typed_for_enough_units_to_be_whole() -> None:
    assert rune_units_for([Fraction(50)]) == 1_000  # 50,000 sats: a bid the service takes
    assert rune_units_for([Fraction(1, 3), Fraction(5, 2)]) == 60_000
    assert rune_units_for([Fraction(20_000)]) == 1


def test_a_ladder_is_kept_as_its_file_says(qtbot: QtBot) -> None:
    ladder = Ladder((LadderStep(FixedPrice(10_000), 50), LadderStep(AboveTopBid(20_000, 80), 50)))
    editor = PoolEditor(PoolStrategy(PoolKey("pixel-pals"), ladder, 100_000, rune=False))
    qtbot.addWidget(editor)
    editor.budget.set_value(90_000)
    assert editor.read() == PoolStrategy(PoolKey("pixel-pals"), ladder, 90_000, rune=False)


def test_a_rune_price_is_typed_as_a_total_for_its_units(qtbot: QtBot) -> None:
    rune = PoolStrategy(PoolKey("UNCOMMON•GOODS"), FixedPrice(50), 51_000, rune=True)
    editor = PoolEditor(rune, units=1_000)
    qtbot.addWidget(editor)
    assert editor.price.edit.text() == "50,000"
    assert editor.labels["price"].text() == "Total price for 1,000 units:"
    assert editor.lines["price"].hint_shown()[0] == "50 sats per unit"
    editor.units.setValue(3_000)  # the unit price stays; the total and its label follow
    assert editor.price.value() == 150_000
    assert editor.labels["price"].text() == "Total price for 3,000 units:"
    editor.price.set_value(100_000)
    assert editor.read() == replace(rune, rule=FixedPrice(Fraction(100, 3)))
    assert editor.lines["price"].hint_shown()[0] == "33.3333 sats per unit"
    # Fewer units: the total is rounded down to whole sats, the unit price (the cap) is kept.
    editor.units.setValue(2)
    assert editor.price.value() == 66
    assert editor.read() == replace(rune, rule=FixedPrice(Fraction(100, 3)))
    editor.price.set_value(70)  # typed: the total says the unit price again
    assert editor.read() == replace(rune, rule=FixedPrice(35))


def _fields(qtbot: QtBot, pool_budget: int, total: int, **kwargs: object) -> StrategyFields:
    from app.services.strategy_engine import StrategyConfig

    pool = PoolStrategy(PoolKey("pixel-pals"), FixedPrice(12_000), pool_budget, rune=False)
    config = StrategyConfig("keep-pixel-pals", (pool,), StrategyLimits(total, 3))
    fields = StrategyFields(config, taken=(), **kwargs)  # type: ignore[arg-type]
    qtbot.addWidget(fields)
    return fields


def test_a_pool_budget_above_the_total_is_warned_at_its_field(qtbot: QtBot) -> None:
    fields = _fields(qtbot, 50_000, 39_000, new=True)
    line = fields.pools[0].lines["budget"]
    warned = (strings.EDITOR_POOL_BUDGET_OVER_TOTAL.format(total="39,000 sats"), "warning")
    assert line.hint_shown() == warned
    fields.total.set_value(60_000)  # the pool's budget binds again: the usual hint
    assert line.hint_shown() == (strings.EDITOR_POOL_BUDGET_HINT, "hint")
    fields.pools[0].budget.set_value(70_000)
    assert line.hint_shown()[1] == "warning"
    assert fields.read() is not None  # allowed: a warning, not an error


def test_the_form_says_the_bid_tabs_expiry_is_not_kept(qtbot: QtBot) -> None:
    fields = _fields(qtbot, 39_000, 39_000, new=True, bid_tab_expiry_ms=24 * HOUR_MS)
    assert fields.lifetime_line.hint_shown()[0] == strings.EDITOR_LIFETIME_NOT_BID_TAB.format(
        expiry="1 day"
    )
    assert span_text(90 * 60_000) == "90 minutes" and span_text(3 * HOUR_MS) == "3 hours"
    assert span_text(24 * HOUR_MS + 2 * 60_000 + 5_000) == "1 day"  # a day from now, typed
    assert span_text(30 * HOUR_MS) == "30 hours" and span_text(60_000) == "1 minute"


def test_an_approved_name_is_shown_read_only_without_its_hint(qtbot: QtBot) -> None:
    fields = _fields(qtbot, 39_000, 39_000, new=False)
    assert fields.name.isReadOnly() and not fields.name.hasFrame()
    assert fields.name_line.hint_shown()[0] == ""
    new = _fields(qtbot, 39_000, 39_000, new=True)
    assert new.name_line.hint_shown()[0] == strings.EDITOR_NAME_HINT
    new.name.setText("my strategy!")
    assert new.read() is None
    assert new.name_line.error.text() == strings.EDITOR_NAME_INVALID
    assert new.first_error() is new.name_line.error


def test_a_suggested_name_is_a_valid_new_policy_id() -> None:
    assert suggested_name(PoolKey("Pixel Pals!"), ()) == "keep-pixel-pals"
    assert suggested_name(PoolKey("pixel"), {"keep-pixel", "keep-pixel-2"}) == "keep-pixel-3"


def _type_minutes(qtbot: QtBot, spin: QSpinBox, minutes: int) -> None:
    """Select the minutes (the suffix stays) and type them, as a user would."""
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(minutes))
    assert spin.value() == minutes


def _closed(dialog: StrategyEditor) -> bool:
    return not isValid(dialog) or not dialog.isVisible()  # deleted once closed


def _open_editor(qtbot: QtBot, app: AppHarness, tab: BidTab) -> StrategyEditor:
    qtbot.waitUntil(tab.keep_button.isEnabled, timeout=10_000)
    before = len(app.dialogs)
    click(qtbot, tab.keep_button)
    return wait_new_dialog(qtbot, app, StrategyEditor, before, timeout=20_000)


def _filled_bid_tab(qtbot: QtBot, app: AppHarness, slug: str, price: str, quantity: int) -> BidTab:
    tab = bid_tab_ready(qtbot, app, slug)
    fill_collection_bid(qtbot, tab, slug, price, quantity)
    return tab


def test_keep_this_bid_previews_approves_and_starts(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, slug = funded.app, funded.assets.collection_slug
    fund_bidding_wallet(app, qloop, 300_000)
    gui_thread.start()
    tab = _filled_bid_tab(qtbot, app, slug, "12,000", 2)
    dialog = _open_editor(qtbot, app, tab)

    # Prefilled from the form: the pool, a fixed price at its price, its bids and their cost.
    fields = dialog.fields
    name = fields.name.text()
    assert name == suggested_name(PoolKey(slug), ())
    (pool,) = fields.pools
    assert pool.kind.currentIndex() == FIXED and pool.price.value() == 12_000
    cost = bid_cost(12_000, profile_session(app.context).maker_fee) * 2
    assert pool.budget.value() == cost == fields.total.value()
    assert fields.max_bids.value() == 2
    assert "is not used" in fields.lifetime_line.hint_shown()[0]  # the Bid tab's expiry

    # The preview: what it would place now, and why; nothing signed.
    click(qtbot, dialog.preview_button)
    qtbot.waitUntil(lambda: "Place" in dialog.preview.toPlainText(), timeout=30_000)
    assert slug in dialog.preview.toPlainText() and "12,000 sats" in dialog.preview.toPlainText()
    assert dialog.preview_status.text() == strings.EDITOR_PREVIEW_NOTHING_SIGNED

    # The approval step: the policy in plain words.
    click(qtbot, dialog.next_button)
    assert dialog.pages.currentIndex() == APPROVE_PAGE
    text = dialog.approval.toPlainText()
    assert f"Collection {slug}: at most 12,000 sats per item" in text
    assert f"commit at most {cost:,} sats" in text
    assert strings.APPROVAL_ONLY_MESSAGES in text
    minutes = strings.counted(
        strings.EDITOR_SPAN_MINUTES, round(app.context.wallet_lock.timeout_s / 60)
    )
    assert strings.APPROVAL_RUNS_WHILE_OPEN.format(minutes=minutes) in text
    assert dialog.cancel_approval_button.isDefault()  # Enter approves nothing
    click(qtbot, dialog.approve_start_button)
    qtbot.waitUntil(lambda: _closed(dialog), timeout=60_000)

    host = StrategyState.of(app.context).host()
    assert host.is_running(name)
    (view,) = [v for v in run_async(qloop, host.views()) if v.policy_id == name]
    assert view.policy is not None
    (allowed,) = view.policy.pools
    assert (allowed.pool, allowed.max_price) == (PoolKey(slug), Fraction(12_000))
    assert view.policy.max_exposure == cost
    if any(spec.key == "strategies" for spec in app.window.tab_specs):
        assert app.window.tabs.currentIndex() == [s.key for s in app.window.tab_specs].index(
            "strategies"
        )

    # Edited while it runs: the editor says to stop it first, and approving is refused.
    assert view.config is not None
    before = len(app.dialogs)
    editing = qloop.create_task(edit_strategy(app.context, app.window, existing=view.config))
    editor = wait_new_dialog(qtbot, app, StrategyEditor, before, timeout=20_000)
    assert editor.running_note.text() == strings.EDITOR_RUNNING
    assert editor.fields.name.isReadOnly() and editor.fields.name.text() == name
    assert editor.fields.name_line.hint_shown()[0] == ""  # nothing to type there
    assert editor.fields.pools[0].price.value() == 12_000
    click(qtbot, editor.next_button)
    assert strings.APPROVAL_REPLACES in editor.approval.toPlainText()
    click(qtbot, editor.approve_button)
    qtbot.waitUntil(lambda: "running" in editor.approval_status.text(), timeout=20_000)
    assert editor.approval_status.text().startswith("Not approved:")
    click(qtbot, editor.cancel_approval_button)
    qtbot.waitUntil(editing.done)
    assert editing.result() is None and host.is_running(name)

    run_async(qloop, host.stop(name, cancel_bids=True))
    # A lock stopping strategies is told by the window's notifier (bids left open).
    StrategyState.of(app.context).stopped_by_lock.emit(2)
    assert app.window.notifier.shown[-1] == (
        strings.STOPPED_BY_LOCK_TITLE,
        strings.counted(strings.STOPPED_BY_LOCK_TEXT, 2),
    )
    gui_thread.assert_not_blocked()


def test_bad_fields_say_why_keep_the_input_and_cancel_approves_nothing(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, slug = funded.app, funded.assets.collection_slug
    fund_bidding_wallet(app, qloop, 300_000)
    gui_thread.start()
    tab = _filled_bid_tab(qtbot, app, slug, "12,000", 1)
    # Locked: the password is asked first, then the editor opens.
    app.context.wallet_lock.lock()
    qtbot.waitUntil(lambda: not app.context.wallet_lock.unlocked)
    before = len(app.dialogs)
    click(qtbot, tab.keep_button)
    unlock = wait_new_dialog(qtbot, app, UnlockDialog, before, timeout=10_000)
    type_into(qtbot, unlock.password, PASSWORD)
    qtbot.keyClick(unlock.password, Qt.Key.Key_Return)
    dialog = wait_new_dialog(qtbot, app, StrategyEditor, before, timeout=20_000)
    fields = dialog.fields
    (pool,) = fields.pools

    # A name that cannot name a policy, a cap below the opening price, a lifetime too short.
    fields.name.clear()
    type_into(qtbot, fields.name, "my strategy!")
    pool.kind.setCurrentIndex(ABOVE_TOP)
    pool.above_cap.edit.clear()
    type_into(qtbot, pool.above_cap.edit, "10,000")
    type_into(qtbot, pool.opening.edit, "12,000")
    _type_minutes(qtbot, fields.lifetime, 10)
    pool.budget.edit.clear()
    type_into(qtbot, pool.budget.edit, "12 thousand")  # not an amount
    click(qtbot, dialog.next_button)
    assert dialog.pages.currentIndex() == EDIT_PAGE
    assert fields.name_line.error.text() == strings.EDITOR_NAME_INVALID
    assert pool.lines["opening"].error.text() == strings.EDITOR_OPENING_ABOVE_CAP.format(
        opening="12,000", cap="10,000"
    )
    assert fields.lifetime_line.error.text() == strings.EDITOR_LIFETIME_TOO_SHORT.format(minutes=16)
    assert pool.lines["budget"].error.text() == pool.budget.error() != ""
    assert dialog.edit_error.text() == strings.EDITOR_FIX_FIRST
    click(qtbot, dialog.preview_button)  # nothing to preview either: the same fields
    qtbot.waitUntil(lambda: dialog.preview_status.text() == strings.EDITOR_FIX_FIRST)
    # Everything as typed.
    assert fields.name.text() == "my strategy!"
    assert (pool.above_cap.value(), pool.opening.value()) == (10_000, 12_000)
    assert fields.lifetime.value() == 10
    assert pool.budget.edit.text() == "12 thousand"

    # Fixed, the approval step is reached; Back keeps it all; Cancel approves nothing.
    fields.name.clear()
    type_into(qtbot, fields.name, "my-strategy")
    pool.opening.edit.clear()
    type_into(qtbot, pool.opening.edit, "9,500")  # off the bid grid: the Bid tab's words
    _type_minutes(qtbot, fields.lifetime, 20)
    pool.budget.edit.clear()
    type_into(qtbot, pool.budget.edit, "13,000")
    click(qtbot, dialog.next_button)
    assert pool.lines["opening"].error.text() == "Steps of 1,000 sats: use 9,000 or 10,000 sats."
    assert dialog.edit_error.text() == strings.EDITOR_FIX_FIRST
    pool.opening.edit.clear()  # the last field fixed: the line asking to fix them goes
    assert dialog.edit_error.text() == "" and not dialog.edit_error.isVisible()
    click(qtbot, dialog.next_button)
    assert dialog.pages.currentIndex() == APPROVE_PAGE
    assert "at most 10,000 sats per item" in dialog.approval.toPlainText()
    click(qtbot, dialog.back_button)
    assert fields.name.text() == "my-strategy" and pool.above_cap.value() == 10_000
    click(qtbot, dialog.cancel_button)
    qtbot.waitUntil(lambda: _closed(dialog))
    host = StrategyState.of(app.context).host()
    assert run_async(qloop, host.views()) == []
    assert not host.running_ids()

    # "Approve" alone: approved as shown (24 hours by default), not started.
    dialog = _open_editor(qtbot, app, tab)
    click(qtbot, dialog.next_button)
    click(qtbot, dialog.approve_button)
    qtbot.waitUntil(lambda: _closed(dialog), timeout=30_000)
    (view,) = run_async(qloop, host.views())
    assert view.policy is not None and not view.running
    assert view.policy.valid_until_ms - view.policy.valid_from_ms == 24 * HOUR_MS + START_SLACK_MS
    gui_thread.assert_not_blocked()
