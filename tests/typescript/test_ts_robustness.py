"""TS front-end robustness: syntax errors and odd files become unknowns or parse, never crash,
and the rest of the audit completes."""

from __future__ import annotations

import time
from pathlib import Path

from topo.analyzers.ir import Language
from topo.analyzers.typescript import parse_typescript
from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import audit_document


def _parse(source: str, path: str = "src/a.ts", **options):
    return parse_typescript(path, source, path.rsplit(".", 1)[0], **options)


def test_a_local_syntax_error_keeps_the_rest_and_names_its_lines() -> None:
    ir = _parse("fetch('a', { method: 'POST' });\nconst = ;\nsend();\n")
    assert ir.parse_error is None
    assert {c.name for c in ir.calls} >= {"fetch", "send"}
    assert [(u.line, u.reason.startswith("syntax error")) for u in ir.unknowns] == [(2, True)]


def test_a_missing_token_is_an_unknown() -> None:
    ir = _parse("if (x {\n  go();\n}\n")
    assert ir.parse_error is None
    assert ir.unknowns and all(u.reason.startswith("syntax error") for u in ir.unknowns)


def test_a_badly_broken_file_is_a_parse_error_with_no_facts() -> None:
    ir = _parse("}}}} ))) ((( {{{ <<< >>> ;;; ::: ]]] [[[ ??? !!! @@@ ### $$$ %%% ^^^\n" * 3)
    assert ir.parse_error is not None and ir.parse_error.reason.startswith("syntax error")
    assert ir.calls == () and ir.definitions == ()


def test_odd_files_parse() -> None:
    bom = _parse("\ufeffconst a = go();\n")
    assert bom.parse_error is None and bom.calls[0].location.column == 11
    crlf = _parse("const a = 1;\r\nif (a) {\r\n  go();\r\n}\r\n")
    assert crlf.parse_error is None and crlf.calls[0].location.line == 3
    assert crlf.lines == 4
    unicode = _parse("const s = '→ naïve 日本'; /* ü */ run(s);\n")
    assert unicode.calls[0].location.column == 33
    empty = _parse("")
    assert (empty.parse_error, empty.lines, empty.calls) == (None, 0, ())
    only_comment = _parse("// nothing here\n")
    assert only_comment.comments[0].text == " nothing here"


def test_a_huge_line_of_data_parses_and_a_bundle_is_skipped() -> None:
    data = "export const DATA = '" + "x" * 50_000 + "';\nsend();\n"
    ir = _parse(data)
    # One long string literal is data, not a bundle: the file is read (issue #16, case 14).
    assert ir.parse_error is None and [c.name for c in ir.calls] == ["send"]
    bundle = _parse(";".join(f"function f{i}(a){{return a+{i}}}" for i in range(3000)),
                    path="public/app.js", language=Language.JAVASCRIPT)
    assert bundle.parse_error is not None and "minified" in bundle.parse_error.reason
    normal = _parse("const a = '" + "y" * 900 + "';\n" + "go();\n" * 50)
    assert normal.parse_error is None


def test_jsx_heavy_file() -> None:
    rows = "\n".join(f"      <Row key={{{i}}} onClick={{() => select({i})}}>{{label({i})}}</Row>"
                     for i in range(200))
    source = f"export function Table() {{\n  return (\n    <table>\n{rows}\n    </table>\n  );\n}}\n"
    ir = _parse(source, path="src/table.tsx", language=Language.TSX)
    assert ir.parse_error is None and ir.unknowns == ()
    assert sum(1 for c in ir.calls if c.name == "select") == 200


def test_deep_nesting_does_not_crash() -> None:
    source = "const x = " + "[\n" * 3000 + "]\n" * 3000 + ";\ngo();\n"
    ir = parse_typescript("src/a.ts", source, "src/a")
    assert ir.parse_error is None or "nested" in ir.parse_error.reason


def test_a_long_builder_chain_on_a_constructed_instance_is_read_in_linear_time() -> None:
    # `new StateGraph(...).addNode(...)...` with a pack wrapper loaded: each link's callee is
    # resolved once (resolving it twice per link doubled the work per link: 2**18 here).
    links = "".join(f"\n  .addNode('n{i}', step{i})" for i in range(18))
    source = f"import {{ Graph }} from 'pkg';\nconst g = new Graph({{}}){links};\ng.compile();\n"
    started = time.perf_counter()
    ir = parse_typescript("src/a.ts", source, "src/a", wrappers=frozenset({"util.promisify"}))
    assert time.perf_counter() - started < 3
    (compiled,) = [c for c in ir.calls if c.name == "compile"]
    assert compiled.callee == "pkg.Graph" + ".addNode" * 18 + ".compile"


def test_the_audit_completes_around_broken_and_odd_files(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "good.ts").write_text(
        "import OpenAI from 'openai';\nconst c = new OpenAI();\n"
        "export async function f() { await c.chat.completions.create({ model: 'm' }); }\n")
    (tmp_path / "src" / "broken.ts").write_text("export function (((( {\n")
    (tmp_path / "src" / "bom.js").write_bytes("\ufeffmodule.exports = {};\r\n".encode())
    (tmp_path / "src" / "empty.tsx").write_text("")
    (tmp_path / "src" / "types.d.ts").write_text("declare const x: number;\n")
    (tmp_path / "src" / "vendor.min.js").write_text("!function(){}();\n")
    document = audit_document(run_audit(AuditRequest(root=tmp_path, jobs=1, cache_dir=None)))
    assert [s["kind"] for s in document["sites"]] == ["inference"]
    assert {u["file"] for u in document["unknowns"]} == {"src/broken.ts"}
    assert document["summary"]["partial"] is True
