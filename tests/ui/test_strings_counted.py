"""Messages with a count have a singular and a plural form (gettext's rule), never "(s)"."""

from __future__ import annotations

import ast
import string
from pathlib import Path

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


def _logged(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are arguments of a logging call (log.info(...)): logs
    are for developers, and may say "(s)"."""
    logged: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"debug", "info", "warning", "error", "exception"}
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in {"log", "logger", "logging"}
        ):
            logged |= {id(n) for arg in node.args for n in ast.walk(arg)}
    return logged


def test_no_message_anywhere_in_the_app_says_s_in_parentheses() -> None:
    """Messages built outside the strings package (services' and the sandbox's errors, which
    the window shows) follow the same rule: 'input 0' or 'inputs 0, 2', never 'input(s)'."""
    found = []
    for path in sorted((Path(__file__).resolve().parents[2] / "app").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        logged = _logged(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and "(s)" in node.value.replace("http(s)", "")  # http or https: no plural
                and "\n" not in node.value  # a docstring or comment block, not a message
                and id(node) not in logged
            ):
                found.append(f"{path.name}:{node.lineno}: {node.value.strip()[:60]}")
    assert found == []
