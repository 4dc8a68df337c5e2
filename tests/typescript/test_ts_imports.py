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


def test_workspace_packages_resolve_to_their_sources(tmp_path) -> None:
    """npm/yarn/pnpm workspaces: `@acme/tools` is `packages/tools`, through `exports` (a build
    path maps back to its source), `main`, a subpath pattern and `#internal` imports."""
    import json
    from topo.analyzers.typescript import load_layout
    manifests = {
        "package.json": {"name": "acme", "private": True, "workspaces": ["packages/*"]},
        "packages/tools/package.json": {"name": "@acme/tools", "exports": {
            ".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"},
            "./shell/*": "./src/shell/*.ts"}, "imports": {"#run": "./src/run.ts"}},
        "packages/db/package.json": {"name": "@acme/db", "main": "lib/main.js"},
    }
    for path, data in manifests.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(json.dumps(data))
    sources = ["packages/tools/src/index.ts", "packages/tools/src/shell/exec.ts",
               "packages/tools/src/run.ts", "packages/db/src/main.ts", "apps/web/page.ts"]
    layout = load_layout(tmp_path, sources, manifests)
    assert layout.resolve("apps/web/page.ts", "@acme/tools") == "packages/tools/src/index"
    assert layout.resolve("apps/web/page.ts", "@acme/tools/shell/exec") == \
        "packages/tools/src/shell/exec"
    assert layout.resolve("apps/web/page.ts", "@acme/db") == "packages/db/src/main"
    assert layout.resolve("packages/tools/src/index.ts", "#run") == "packages/tools/src/run"
    # twins: an unknown package and a subpath the exports do not list stay packages
    assert layout.locate("apps/web/page.ts", "@acme/other") == ("@acme/other", True)
    assert layout.locate("apps/web/page.ts", "@acme/tools/secret")[1] is True
    # the entry modules by their package name (packs name a library by it); a pattern
    # subpath names no single module
    assert layout.public_names() == (("packages/db/src/main", "@acme/db"),
                                     ("packages/tools/src/index", "@acme/tools"))


def test_an_unreadable_workspace_manifest_is_an_unknown_not_a_hang(tmp_path) -> None:
    import os
    from topo.analyzers.typescript import load_layout
    (tmp_path / "pkg").mkdir()
    os.mkfifo(tmp_path / "pkg" / "package.json")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "package.json").write_text("{ not json")
    layout = load_layout(tmp_path, ["apps/a.ts"], ["pkg/package.json", "broken/package.json"])
    assert layout.packages == ()
    assert [(u.file, u.reason.split(":")[0]) for u in layout.unknowns] == \
        [("pkg/package.json", "package.json not read")]
