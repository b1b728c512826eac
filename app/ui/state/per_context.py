"""The one rule for a store several tabs share: each AppContext (one window, one profile
history) has one of it, made on first use and gone with the context."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

from PySide6.QtCore import QObject

if TYPE_CHECKING:
    from app.ui.context import AppContext


class PerContextState(QObject):
    """Subclasses are made by `of(context)`, never directly, and take `(context)`; each
    subclass keeps its own instances (weakly: a closed window's context takes them along)."""

    _instances: ClassVar[weakref.WeakKeyDictionary[AppContext, Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._instances = weakref.WeakKeyDictionary()

    @classmethod
    def of(cls, context: AppContext) -> Self:
        found = cls._instances.get(context)
        if found is None:
            found = cls._instances[context] = cls(context)
        return cast(Self, found)
