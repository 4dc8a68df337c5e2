"""Module names of Python files, from their place in the audited tree.

A file inside packages (directories with `__init__.py`) is named from the outermost package of
that contiguous chain (directories without `__init__.py` below a package count as namespace
portions of it), as Python would import it with the chain's parent on `sys.path`: in a
`src/` layout `src/pkg/x.py` is `pkg.x`, and in a monorepo `services/billing/app/main.py` is
`app.main` when only `app/` is a package. A file whose directory is no package is named from its
path relative to the root (a leading `src/` dropped). `__init__.py` is named after its package.
When the audited root is itself a package (it holds `__init__.py`), its directory name leads.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import PurePosixPath

__all__ = ["python_module_name"]


def python_module_name(path: str, sources: Collection[str], root_name: str = "") -> str:
    """The dotted module name of `path` (root-relative), given every source path audited and
    the name of the root directory."""
    pure = PurePosixPath(path)
    directories = pure.parent.parts if str(pure.parent) != "." else ()
    # The innermost package around the file: a directory without `__init__.py` inside a
    # package is a namespace portion of it (`app/tools/mailer.py` is `app.tools.mailer`).
    inner = len(directories)
    while inner > 0 and not _is_package(directories[:inner], sources):
        inner -= 1
    first = inner
    while first > 0 and _is_package(directories[:first], sources):
        first -= 1
    if inner == 0:
        first = 1 if directories[:1] == ("src",) else 0
    names = [*directories[first:]]
    if first == 0 and "__init__.py" in sources and root_name:
        names.insert(0, root_name)
    if pure.name != "__init__.py":
        names.append(pure.stem)
    return ".".join(names) or pure.stem


def _is_package(directories: tuple[str, ...], sources: Collection[str]) -> bool:
    return "/".join((*directories, "__init__.py")) in sources
