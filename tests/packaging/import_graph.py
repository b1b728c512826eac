"""Which loaded modules PyInstaller's static analysis reaches from the entry script.

PyInstaller scans the bytecode of every module it collects for IMPORT_NAME instructions
(function bodies, try blocks and `if TYPE_CHECKING:` included) and never follows strings
passed to importlib. This module does the same over the modules one run of the app loaded:
a loaded module no import instruction leads to was imported by name at run time, and the spec
must name it. Extension modules (.so) cannot be scanned: what they import is the business of
PyInstaller's hooks for them.

Bytecode comes from the module's up-to-date .pyc when there is one (compiling ~800 sources
would take seconds), else from compiling the source.
"""

from __future__ import annotations

import dis
import importlib.util
import marshal
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from types import CodeType

_IMPORT_NAME = dis.opmap["IMPORT_NAME"]
_LOAD_CONST = dis.opmap["LOAD_CONST"]


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _cached_code(source: Path) -> CodeType | None:
    """The code object from the .pyc next to `source` when it matches the source."""
    try:
        data = Path(importlib.util.cache_from_source(str(source))).read_bytes()
        stat = source.stat()
    except (OSError, NotImplementedError, ValueError):
        return None
    if len(data) < 16 or data[:4] != importlib.util.MAGIC_NUMBER:
        return None
    if int.from_bytes(data[4:8], "little") != 0:
        return None  # hash-based pyc: compile instead of checking the hash
    mtime = int.from_bytes(data[8:12], "little")
    size = int.from_bytes(data[12:16], "little")
    if mtime != int(stat.st_mtime) & 0xFFFFFFFF or size != stat.st_size & 0xFFFFFFFF:
        return None
    code = marshal.loads(data[16:])
    return code if isinstance(code, CodeType) else None


@cache
def _module_code(path: str) -> CodeType | None:
    source = Path(path)
    code = _cached_code(source)
    if code is not None:
        return code
    try:
        return compile(source.read_bytes(), path, "exec", dont_inherit=True)
    except (OSError, SyntaxError, ValueError):
        return None


def _code_objects(code: CodeType) -> Iterator[CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _code_objects(const)


def _imports_in(code: CodeType) -> Iterator[tuple[str, int, tuple[str, ...]]]:
    """(module, level, fromlist) of each import instruction in `code` and nested code."""
    for obj in _code_objects(code):
        if _IMPORT_NAME not in obj.co_code:
            continue  # a cheap filter: most functions import nothing
        consts: list[object] = []
        for ins in dis.get_instructions(obj):
            if ins.opcode == _LOAD_CONST:
                consts.append(ins.argval)
            elif ins.opcode == _IMPORT_NAME:
                level = consts[-2] if len(consts) >= 2 and isinstance(consts[-2], int) else 0
                fromlist = consts[-1] if consts and isinstance(consts[-1], tuple) else ()
                yield str(ins.argval), level, tuple(str(n) for n in fromlist)


def imported_names(module: str, path: str, is_package: bool) -> set[str]:
    """Every module name an import instruction in `path` may load (with parent packages)."""
    code = _module_code(path)
    if code is None:
        return set()
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for name, level, fromlist in _imports_in(code):
        if level:
            base_parts = package.split(".")
            if level > 1:
                base_parts = base_parts[: -(level - 1)]
            base = ".".join(base_parts)
            target = f"{base}.{name}" if name else base
        else:
            target = name
        if not target:
            continue
        names.update(_with_parents(target))
        # `from pkg import name`: name may be a submodule.
        names.update(f"{target}.{item}" for item in fromlist if item != "*")
    return names


def statically_reachable(
    entry_script: Path, modules: Mapping[str, str | None], extra_roots: Iterable[str] = ()
) -> set[str]:
    """The names in `modules` (name -> file) that import instructions lead to from
    `entry_script` (and from `extra_roots`, modules the spec names), through loaded modules."""
    reached: set[str] = set()
    pending = [n for n in imported_names("__main__", str(entry_script), False) if n in modules]
    pending += [n for n in extra_roots if n in modules]
    while pending:
        name = pending.pop()
        if name in reached:
            continue
        reached.add(name)
        for parent in _with_parents(name)[:-1]:
            if parent in modules and parent not in reached:
                pending.append(parent)
        path = modules[name]
        if path is None or not path.endswith(".py"):
            continue
        is_package = Path(path).name == "__init__.py"
        pending.extend(
            n for n in imported_names(name, path, is_package) if n in modules and n not in reached
        )
    return reached
