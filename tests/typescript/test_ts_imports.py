"""TS front-end: ESM imports, CommonJS requires, re-exports and module resolution."""

from __future__ import annotations

from topo.analyzers.ir import Export, Import
from topo.analyzers.typescript import ProjectLayout
from topo.analyzers.typescript.project import PathAlias, TsConfig
from tests.typescript.ts_helpers import call, parse_ts

LAYOUT = ProjectLayout(
    sources=frozenset({"src/app/agent.ts", "src/lib/index.ts", "src/lib/mailer.ts",
                       "src/app/helpers.js", "src/shared/db.tsx"}),
    configs=(TsConfig("", None, (PathAlias("@/*", ("src/*",)),
                                 PathAlias("@db", ("src/shared/db",)))),))


def _imports(ir) -> list[tuple[str, str | None, str]]:
    return [(item.module, item.name, item.alias) for item in ir.imports]


def test_esm_import_forms() -> None:
    ir = parse_ts("""
        import OpenAI, { a as b, c } from 'openai';
        import * as ns from 'node:child_process';
        import type { Tool } from 'ai';
        import 'dotenv/config';
    """)
    assert _imports(ir) == [("openai", "default", "OpenAI"), ("openai", "a", "b"),
                            ("openai", "c", "c"), ("child_process", None, "ns"),
                            ("ai", "Tool", "Tool"), ("dotenv/config", None, "")]
    assert all(isinstance(item, Import) and item.scope == "<module>" for item in ir.imports)


def test_commonjs_requires_with_aliases() -> None:
    ir = parse_ts("""
        const m = require('m');
        const { a, b: c, d = 1 } = require('@scope/pkg/sub.js');
        const x = require('m').x;
        function f() { const inner = require('inner'); }
    """)
    assert _imports(ir) == [("m", None, "m"), ("@scope/pkg/sub", "a", "a"),
                            ("@scope/pkg/sub", "b", "c"), ("@scope/pkg/sub", "d", "d"),
                            ("m", "x", "x"), ("inner", None, "inner")]
    assert ir.imports[-1].scope == "f"
    assert not [c for c in ir.calls if c.name == "require"]


def test_reexports() -> None:
    ir = parse_ts("""
        export { a as b, c } from './m';
        export * from './n';
        export * as q from './q';
    """, layout=LAYOUT)
    assert ir.exports == (
        Export("b", "src/app/m", "a", ir.exports[0].location),
        Export("c", "src/app/m", "c", ir.exports[1].location),
        Export("*", "src/app/n", "*", ir.exports[2].location),
        Export("q", "src/app/q", "*", ir.exports[3].location),
    )


def test_relative_imports_probe_extensions_and_index() -> None:
    ir = parse_ts("""
        import { send } from '../lib/mailer.js';
        import lib from '../lib';
        import { h } from './helpers';
        import { gone } from './missing';
    """, layout=LAYOUT)
    assert [item.module for item in ir.imports] == ["src/lib/mailer", "src/lib/index",
                                                    "src/app/helpers", "src/app/missing"]


def test_tsconfig_paths_and_base_url() -> None:
    layout = ProjectLayout(LAYOUT.sources, (TsConfig("", "src", (PathAlias("@/*", ("src/*",)),
                                                                  PathAlias("@db", (
                                                                      "src/shared/db",)))),))
    ir = parse_ts("""
        import { send } from '@/lib/mailer';
        import { db } from '@db';
        import { x } from 'lib';
        import OpenAI from 'openai';
    """, layout=layout)
    assert [item.module for item in ir.imports] == ["src/lib/mailer", "src/shared/db",
                                                    "src/lib/index", "openai"]


def test_relative_import_above_the_root_is_an_unknown() -> None:
    ir = parse_ts("import x from '../../../outside';\n")
    assert ir.imports == ()
    assert [u.reason for u in ir.unknowns] == [
        "import climbs above the audited root (../../../outside)"]


def test_callees_through_imports() -> None:
    ir = parse_ts("""
        import { generateText, tool as defineTool } from 'ai';
        import * as cp from 'node:child_process';
        const { exec } = require('child_process');
        generateText({});
        defineTool({});
        cp.execSync('ls');
        exec('ls');
    """)
    assert call(ir, "generateText").callee == "ai.generateText"
    assert call(ir, "defineTool").callee == "ai.tool"
    assert call(ir, "execSync").callee == "child_process.execSync"
    assert call(ir, "exec").callee == "child_process.exec"
