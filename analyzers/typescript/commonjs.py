"""CommonJS exports: what `module.exports = …` and `exports.x = …` at module level export.

`module.exports = { notify: send }` exports `send` as `notify`; `module.exports = X` exports X
as the module's default; `exports.run = function () {…}` exports the function defined as
`exports.run` under the name `run`. A name exported under its own name needs no record: the
call graph finds `module.name` directly.
"""

from __future__ import annotations

from topo.analyzers.ir import Export, Value, ValueKind
from topo.analyzers.model import Location

__all__ = ["commonjs_exports"]

_EXPORT_TARGETS = ("exports", "module.exports")


def commonjs_exports(target: str, value: Value, module: str, location: Location
                     ) -> list[Export]:
    """The exports an assignment to `target` makes, when it is a CommonJS export."""
    if target in _EXPORT_TARGETS:
        if value.kind is ValueKind.DICT:
            return [Export(key, module, item.ref, location) for key, item in value.entries
                    if key is not None and _source(item) and item.ref != key]
        if value.kind is ValueKind.NAME and value.ref:
            return [Export("default", module, value.ref, location)]
        return []
    for prefix in _EXPORT_TARGETS:
        if target.startswith(prefix + ".") and target.count(".") == prefix.count(".") + 1:
            name = target[len(prefix) + 1:]
            if _source(value) and value.ref != name:
                return [Export(name, module, value.ref, location)]
    return []


def _source(value: Value) -> bool:
    return value.kind in (ValueKind.NAME, ValueKind.LAMBDA) and bool(value.ref)
