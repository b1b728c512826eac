"""Messages with a count have a singular and a plural form (gettext's rule), never "(s)"."""

from __future__ import annotations

import string

from app.ui import strings


def _counted() -> dict[str, strings.Counted]:
    return {k: v for k, v in vars(strings).items() if isinstance(v, strings.Counted)}


def test_no_message_says_s_in_parentheses() -> None:
    texts = [v for k, v in vars(strings).items() if isinstance(v, str) and k.isupper()]
    texts += [form for message in _counted().values() for form in message]
    assert not [t for t in texts if "(s)" in t]


def test_every_counted_message_takes_the_same_fields_in_both_forms() -> None:
    assert len(_counted()) >= 20
    for name, message in _counted().items():
        one, many = ({f for _, f, _, _ in string.Formatter().parse(t) if f} for t in message)
        assert one <= many, name  # the plural may name the count; the singular needs no more


def test_the_form_follows_the_count() -> None:
    assert strings.counted(strings.LISTINGS_DONE, 1) == "Listed 1 item."
    assert strings.counted(strings.LISTINGS_DONE, 2) == "Listed 2 items."
    assert strings.counted(strings.LISTINGS_DONE, 0) == "Listed 0 items."
    text = strings.counted(strings.OPEN_BIDS_CANCELLED, 1, done=1)
    assert text == "1 of 1 bid cancelled."
