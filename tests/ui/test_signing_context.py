"""The PSBT flows' signing context says the one true state when there is no connection:
"Connecting…" while the app or a profile is still starting, "Not connected…" only after."""

from __future__ import annotations

import asyncio
from typing import cast

import pytest

from app.ui import strings
from app.ui.context import AppContext
from app.ui.controller import AppController
from app.ui.dialogs.psbt_review_flow import signing_context
from app.ui.profile_session import NotReadyError
from app.ui.qa.harness import OptionsFactory
from app.ui.qa.loop import run_async


async def _refusal(context: AppContext) -> str:
    # No connection: it refuses before it would ask the controller for anything.
    with pytest.raises(NotReadyError) as refused:
        await signing_context(context, cast(AppController, None))
    return refused.value.user_message


@pytest.mark.parametrize(
    ("connecting", "expected"),
    [(True, strings.CONNECTING_HINT), (False, strings.NOT_CONNECTED_HINT)],
)
def test_no_connection_is_worded_by_whether_the_app_is_connecting(
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    connecting: bool,
    expected: str,
) -> None:
    context = AppContext(make_options())
    context.connecting = connecting
    assert context.connection is None
    assert run_async(qloop, _refusal(context)) == expected
