"""Helpers for the TypeScript front-end tests: parse a small inline source strictly."""

from __future__ import annotations

import textwrap
from collections.abc import Container

from topo.analyzers.ir import Call, FileIR, Language
from topo.analyzers.typescript import ProjectLayout, parse_typescript

PATH = "src/app/agent.ts"
MODULE = "src/app/agent"


def parse_ts(source: str, *, path: str = PATH, module: str | None = None,
             language: Language | None = None, layout: ProjectLayout | None = None,
             wrappers: Container[str] = frozenset()) -> FileIR:
    """The IR of a dedented inline source; any internal error raises (strict)."""
    module = module if module is not None else path.rsplit(".", 1)[0]
    return parse_typescript(path, textwrap.dedent(source).lstrip("\n"), module, language,
                            layout=layout, strict=True, wrappers=wrappers)


def call(ir: FileIR, name: str, *, nth: int = 0) -> Call:
    found = [item for item in ir.calls if item.name == name]
    assert len(found) > nth, f"no call #{nth} named {name!r} in {[c.name for c in ir.calls]}"
    return found[nth]


def guard_summary(item: Call) -> list[tuple[str, bool, str | None]]:
    return [(guard.kind.value, guard.polarity,
             guard.condition.text if guard.condition is not None else None)
            for guard in item.guards]
