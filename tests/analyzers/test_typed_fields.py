"""Types through class fields and generic contexts (analyzers/flow/resolution.py).

`ctx.deps.conn.execute(...)` names `asyncpg.Connection.execute` only when a pack says what
`RunContext[T].deps` holds and the class declares `conn: asyncpg.Connection`; an `Any`, a
union, a string or a field assigned another class leave the call unnamed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from topo.analyzers.flow.resolution import resolve_files
from topo.analyzers.packs import PackError, factories, generic_attributes, load_pack
from topo.analyzers.python.frontend import parse_python

FACTORIES = factories()
GENERICS = generic_attributes()

DEPS = """
    from dataclasses import dataclass
    from typing import Any
    import aiosqlite
    import asyncpg

    @dataclass
    class Deps:
        conn: asyncpg.Connection
        loose: Any
        maybe: asyncpg.Connection | None
        later: "asyncpg.Connection"

    class Store:
        conn: asyncpg.Connection
        def reopen(self):
            self.conn = aiosqlite.connect("x.db")

    class Kept:
        conn: asyncpg.Connection
        def reopen(self):
            self.conn = asyncpg.Connection()
"""


def _resolved(generics=GENERICS, **sources: str):
    files = [parse_python(path, textwrap.dedent(text), path.removesuffix(".py").replace("/", "."),
                          strict=True, factories=FACTORIES)
             for path, text in sources.items()]
    return {f.path: f for f in resolve_files(files, FACTORIES, generics)}


def _callees(file) -> dict[int, str | None]:
    return {c.location.line: c.callee for c in file.calls if c.name in ("execute", "fetch")}


def test_front_end_records_declared_fields_and_generic_parameters() -> None:
    files = _resolved(**{"deps.py": DEPS, "tools.py": """
        from pydantic_ai import RunContext
        from deps import Deps
        async def tool(ctx: RunContext[Deps], plain: Deps, text: "Deps", other: Deps | None):
            pass
    """})
    deps = {d.name: dict(d.fields) for d in files["deps.py"].definitions if d.fields}
    # An optional type declares its class (where the value is not None it is one); `Any` and
    # a string annotation declare none.
    assert deps["Deps"] == {"conn": "asyncpg.Connection", "loose": None,
                            "maybe": "asyncpg.Connection", "later": None}
    tool = next(d for d in files["tools.py"].definitions if d.name == "tool")
    typed = {p.name: (p.type, p.generic) for p in tool.parameters}
    assert typed == {"ctx": (None, ("pydantic_ai.RunContext", "deps.Deps")),
                     "plain": ("deps.Deps", ()), "text": (None, ()),
                     "other": ("deps.Deps", ())}


def test_generic_context_and_field_annotation_name_the_write() -> None:
    files = _resolved(**{"deps.py": DEPS, "tools.py": """
        from pydantic_ai import RunContext
        from deps import Deps
        async def write(ctx: RunContext[Deps], sql):
            await ctx.deps.conn.execute(sql)
        async def alias(ctx: RunContext[Deps], sql):
            deps = ctx.deps
            await deps.conn.execute(sql)
        async def read(ctx: RunContext[Deps]):
            await ctx.deps.conn.fetch("SELECT 1")
        async def plain(deps: Deps, sql):
            await deps.conn.execute(sql)
    """})
    assert _callees(files["tools.py"]) == {5: "asyncpg.Connection.execute",
                                           8: "asyncpg.Connection.execute",
                                           10: "asyncpg.Connection.fetch",
                                           12: "asyncpg.Connection.execute"}


def test_without_the_packs_generic_attribute_the_context_names_nothing() -> None:
    files = _resolved(generics={}, **{"deps.py": DEPS, "tools.py": """
        from pydantic_ai import RunContext
        from deps import Deps
        async def write(ctx: RunContext[Deps], sql):
            await ctx.deps.conn.execute(sql)
    """})
    assert _callees(files["tools.py"]) == {5: None}


def test_any_string_and_conflicting_fields_stay_unresolved_an_optional_one_names_its_class(
        ) -> None:
    files = _resolved(**{"deps.py": DEPS, "tools.py": """
        from pydantic_ai import RunContext
        from deps import Deps, Kept, Store
        async def loose(ctx: RunContext[Deps], sql):
            await ctx.deps.loose.execute(sql)
            await ctx.deps.maybe.execute(sql)
            await ctx.deps.later.execute(sql)
        async def quoted(ctx: "RunContext[Deps]", sql):
            await ctx.deps.conn.execute(sql)
        async def conflicting(store: Store, kept: Kept, sql):
            await store.conn.execute(sql)
            await kept.conn.execute(sql)
    """})
    found = _callees(files["tools.py"])
    assert [found[line] for line in (5, 7, 9, 11)] == [None] * 4
    assert found[6] == found[12] == "asyncpg.Connection.execute"    # `maybe`: optional


def test_agents_sdk_and_langgraph_contexts_are_pack_data() -> None:
    files = _resolved(**{"deps.py": DEPS, "tools.py": """
        from agents import RunContextWrapper
        from langgraph.runtime import Runtime
        from deps import Deps
        async def tool(ctx: RunContextWrapper[Deps], sql):
            await ctx.context.conn.execute(sql)
        async def node(state, runtime: Runtime[Deps]):
            await runtime.context.conn.execute(state)
        async def wrong_index(ctx: RunContextWrapper[int, Deps], sql):
            await ctx.context.conn.execute(sql)
    """})
    assert _callees(files["tools.py"]) == {6: "asyncpg.Connection.execute",
                                           8: "asyncpg.Connection.execute", 10: None}


def test_generic_attributes_are_schema_checked(tmp_path: Path) -> None:
    text = 'system = "demo"\nlanguages = ["python"]\n[generic_attributes]\n"demo.Ctx.deps" = {}\n'
    good = tmp_path / "demo.toml"
    good.write_text(text.format("0"), encoding="utf-8")
    assert generic_attributes([load_pack(good)]) == {"demo.Ctx.deps": 0}
    bad = tmp_path / "bad.toml"
    bad.write_text(text.format('"deps"'), encoding="utf-8")
    with pytest.raises(PackError, match="generic_attributes"):
        load_pack(bad)


def _ts_resolved(generics=GENERICS, **sources: str):
    from topo.analyzers.ir import Language
    from topo.analyzers.typescript.frontend import parse_typescript
    files = [parse_typescript(path, textwrap.dedent(text), path.removesuffix(".ts"),
                              Language.TYPESCRIPT) for path, text in sources.items()]
    return {f.path: f for f in resolve_files(files, FACTORIES, generics)}


TS_DEPS = """
    import { Pool } from 'pg';
    export class AppDeps {
      db: Pool;
      loose: any;
      maybe: Pool | undefined;
    }
"""


def test_ts_run_context_and_class_fields_name_the_write() -> None:
    files = _ts_resolved(**{"src/deps.ts": TS_DEPS, "src/tools.ts": """
        import { RunContext } from '@openai/agents';
        import { AppDeps } from './deps';
        export async function save(input: string, runContext?: RunContext<AppDeps>) {
          await runContext?.context.db.query(input);
        }
        export async function loose(input: string, runContext: RunContext<AppDeps>) {
          await runContext.context.loose.query(input);
          await runContext.context.maybe.query(input);
        }
        export async function direct(deps: AppDeps, input: string) {
          await deps.db.query(input);
        }
    """})
    deps = next(d for d in files["src/deps.ts"].definitions if d.name == "AppDeps")
    # `maybe: Pool | undefined` is an optional Pool; `any` declares nothing.
    assert dict(deps.fields) == {"db": "pg.Pool", "loose": None, "maybe": "pg.Pool"}
    queries = {c.location.line: c.callee for c in files["src/tools.ts"].calls
               if c.name == "query"}
    assert queries == {5: "pg.Pool.query", 8: None, 9: "pg.Pool.query", 12: "pg.Pool.query"}
    without = _ts_resolved(generics={}, **{"src/deps.ts": TS_DEPS, "src/tools.ts": """
        import { RunContext } from '@openai/agents';
        import { AppDeps } from './deps';
        export async function save(input: string, runContext?: RunContext<AppDeps>) {
          await runContext?.context.db.query(input);
        }
    """})
    assert [c.callee for c in without["src/tools.ts"].calls if c.name == "query"] == [None]
