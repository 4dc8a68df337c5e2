"""Import statements: the Import facts they state and the names they bind.

Relative imports are resolved against the file's package: in module `app.agents.refund`,
`from ..tools import mailer` names `app.tools.mailer`; in a package's `__init__.py` (module
`app.agents`) the package is the module itself. `import a.b.c` binds only `a`, so the binding
is `a`, while the Import fact keeps the full module with alias `a.b.c` (the access path by which
the module is reached).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from topo.analyzers.python.paths import dotted_name

__all__ = ["ImportedName", "imported_names", "resolve_relative"]


@dataclass(frozen=True, slots=True)
class ImportedName:
    module: str                # absolute module
    name: str | None           # imported member, `*` for a star import, None for `import m`
    alias: str                 # the access path that refers to it in this file
    bound: str | None          # the name bound in the scope (None for a star import)
    resolved: str | None       # the dotted name `bound` refers to


def resolve_relative(package: str, level: int, module: str | None) -> str | None:
    """Absolute module for a relative import of `level` dots inside `package`; None when the
    dots climb above the top-level package."""
    parts = package.split(".") if package else []
    if level - 1 >= len(parts):
        return None
    base = parts[:len(parts) - (level - 1)]
    if module:
        base.append(module)
    return ".".join(base)


def imported_names(node: cst.Import | cst.ImportFrom, package: str) -> tuple[list[ImportedName],
                                                                             str | None]:
    """The names one import statement brings in, and an error text when it cannot be resolved."""
    if isinstance(node, cst.Import):
        return [_plain(alias) for alias in node.names], None
    written = dotted_name(node.module) if node.module is not None else None
    level = len(node.relative)
    module = written if level == 0 else resolve_relative(package, level, written)
    if module is None:
        return [], f"relative import beyond the top-level package ({'.' * level}{written or ''})"
    if isinstance(node.names, cst.ImportStar):
        return [ImportedName(module, "*", "*", None, None)], None
    names = []
    for alias in node.names:
        member = dotted_name(alias.name) or ""
        bound = _as_name(alias) or member
        names.append(ImportedName(module, member, bound, bound, f"{module}.{member}"))
    return names, None


def _plain(alias: cst.ImportAlias) -> ImportedName:
    module = dotted_name(alias.name) or ""
    bound = _as_name(alias)
    if bound is not None:
        return ImportedName(module, None, bound, bound, module)
    top = module.split(".", 1)[0]
    return ImportedName(module, None, module, top, top)


def _as_name(alias: cst.ImportAlias) -> str | None:
    if alias.asname is None:
        return None
    name = alias.asname.name
    return name.value if isinstance(name, cst.Name) else None
