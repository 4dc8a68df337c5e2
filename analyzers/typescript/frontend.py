"""The TypeScript/JavaScript front-end: one file's source in, its FileIR out.

One tree-sitter parse per file with the official grammar of its language, one query for the
module links (imports, requires, re-exports) and one for comments, then a recursive walk of the
statements that mirrors the Python front-end, so that both produce the same IR. The audited code
is parsed, never imported or run.

Syntax errors: tree-sitter always returns a tree, with ERROR and MISSING nodes where the text
does not parse. When error regions cover most of the file, it is recorded as a `parse_error`
with no facts (the file is too broken to say anything true about it); otherwise the facts of
the readable parts are kept and each error region becomes an Unknown with its line, so the
audit says which lines it could not read. A bundle (long lines of code outside strings making
up most of the file, `discovery.generated`) is not read and says so; discovery already lists
bundles as out of scope, so this only guards direct callers. Long string literals are read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Container
from dataclasses import replace

import tree_sitter

from topo.analyzers.ir import MODULE_SCOPE, Comment, FileIR, Language
from topo.analyzers.typescript.bindings import ScopeBuilder
from topo.analyzers.collect import Context, Facts
from topo.analyzers.discovery.generated import bundle_reason
from topo.analyzers.typescript.grammars import parse_tree
from topo.analyzers.typescript.imports import module_links
from topo.analyzers.typescript.paths import Resolver
from topo.analyzers.typescript.project import ProjectLayout
from topo.analyzers.typescript.queries import matches
from topo.analyzers.typescript.scopes import Scope, ScopeKind
from topo.analyzers.typescript.spans import SourceText
from topo.analyzers.typescript.syntax import statements_of
from topo.analyzers.typescript.version import FRONTEND_VERSION
from topo.analyzers.typescript.walker import StatementWalker
from topo.analyzers.model import Location, Unknown

__all__ = ["FRONTEND_VERSION", "parse_typescript", "language_for_path"]


_LANGUAGE_BY_EXTENSION = {
    "ts": Language.TYPESCRIPT, "mts": Language.TYPESCRIPT, "cts": Language.TYPESCRIPT,
    "tsx": Language.TSX, "js": Language.JAVASCRIPT, "jsx": Language.JAVASCRIPT,
    "mjs": Language.JAVASCRIPT, "cjs": Language.JAVASCRIPT,
}
# More unreadable than readable text: nothing the file says can be trusted.
_BROKEN_SHARE = 0.5
_MAX_ERROR_UNKNOWNS = 20


def language_for_path(path: str) -> Language:
    """The language a script file is read as, by extension (`.ts` unless known)."""
    return _LANGUAGE_BY_EXTENSION.get(path.rsplit(".", 1)[-1].lower(), Language.TYPESCRIPT)


def parse_typescript(path: str, source: str, module: str, language: Language | None = None, *,
                     layout: ProjectLayout | None = None, strict: bool = False,
                     wrappers: Container[str] = frozenset()) -> FileIR:
    """Extract the IR of one TypeScript, TSX or JavaScript file.

    `path` is root-relative with `/` separators; `module` is the path without extension;
    `layout` says which files exist and which tsconfig aliases apply (None: this file alone,
    so relative imports stay as written). With `strict`, an unexpected construct raises
    (tests); otherwise it becomes an Unknown and the rest of the file is still read.
    `wrappers` are the packs' wrapper calls (`util.promisify`): a name bound to one denotes
    its first argument.
    """
    language = language or language_for_path(path)
    digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
    lines = source.count("\n") + (0 if not source or source.endswith("\n") else 1)
    empty = FileIR(path, language, module, digest, lines)
    text = source.removeprefix("\ufeff")
    bundle = bundle_reason(text)
    if bundle is not None:
        return _failed(empty, f"not read: {bundle}", None)
    data = text.encode("utf-8", "surrogatepass")
    tree = parse_tree(language, data)
    source_text = SourceText(path, data)
    errors = _error_regions(tree.root_node)
    if errors and _is_broken(errors, data):
        first = errors[0]
        return _failed(empty, f"syntax error: the file does not parse as {language.value} "
                              f"(from line {first.start_point[0] + 1})",
                       first.start_point[0] + 1)
    try:
        ir = _extract(empty, tree.root_node, source_text, layout or ProjectLayout(), strict,
                      wrappers)
    except RecursionError:
        if strict:
            raise
        return _failed(empty, "nested too deeply to read", None)
    if not errors:
        return ir
    unknowns = tuple(_error_unknown(path, node, source_text) for node in
                     errors[:_MAX_ERROR_UNKNOWNS])
    return replace(ir, unknowns=ir.unknowns + unknowns)


def _failed(empty: FileIR, reason: str, line: int | None) -> FileIR:
    return FileIR(empty.path, empty.language, empty.module, empty.sha256, empty.lines,
                  parse_error=Unknown(empty.path, reason, line))


def _error_regions(root: tree_sitter.Node) -> list[tree_sitter.Node]:
    """ERROR and MISSING nodes, outermost only, in document order."""
    if not root.has_error:
        return []
    found: list[tree_sitter.Node] = []
    pending = [root]
    while pending:
        node = pending.pop()
        if node.is_error or node.is_missing:
            found.append(node)
            continue
        pending.extend(child for child in reversed(node.children) if child.has_error)
    return found


def _is_broken(errors: list[tree_sitter.Node], data: bytes) -> bool:
    if errors and errors[0].parent is None:          # the root itself is an ERROR
        return True
    meaningful = len(data.strip()) or 1
    broken = sum(node.end_byte - node.start_byte for node in errors)
    return broken > _BROKEN_SHARE * meaningful


def _error_unknown(path: str, node: tree_sitter.Node, text: SourceText) -> Unknown:
    line = node.start_point[0] + 1
    if node.is_missing:
        return Unknown(path, f"syntax error: missing {node.type!r}; facts of this "
                             "statement may be incomplete", line)
    end = node.end_point[0] + 1
    where = f"line {line}" if end == line else f"lines {line}-{end}"
    return Unknown(path, f"syntax error: {where} could not be read; their facts are missing",
                   line)


def _extract(empty: FileIR, root: tree_sitter.Node, text: SourceText, layout: ProjectLayout,
             strict: bool, wrappers: Container[str]) -> FileIR:
    path, module = empty.path, empty.module
    facts = Facts(path)
    links = module_links(root, empty.language, text, path, layout)
    resolver = Resolver(module, text, wrappers)
    builder = ScopeBuilder(resolver, links)
    walker = StatementWalker(text, resolver, builder, facts, links, strict)
    statements = statements_of(root)
    scope = builder.scan(statements, Scope(MODULE_SCOPE, ScopeKind.MODULE, None))
    walker.block(statements, Context(scope, (), Location(path, 1), ()))
    exported = walker.exported
    definitions = [d if d.scope != MODULE_SCOPE or d.qualname not in exported
                   else replace(d, exported=True) for d in facts.definitions]
    return FileIR(
        path=path, language=empty.language, module=module, sha256=empty.sha256,
        lines=empty.lines,
        imports=tuple(facts.imports),
        exports=tuple(facts.exports),
        definitions=tuple(sorted(definitions, key=lambda item: _order(item.location))),
        calls=tuple(sorted(facts.calls, key=lambda item: (_order(item.location), item.id))),
        assignments=tuple(facts.assignments),
        returns=tuple(facts.returns),
        deletions=tuple(facts.deletions),
        comments=_comments(root, empty.language, text),
        unknowns=tuple(facts.unknowns),
        blocks=tuple(facts.blocks),
    )


def _comments(root: tree_sitter.Node, language: Language, text: SourceText
              ) -> tuple[Comment, ...]:
    found = []
    for captures in matches("comments", language, root):
        for node in captures.get("comment", ()):
            raw = text.text(node, None)
            body = raw[2:-2] if raw.startswith("/*") else raw[2:] if raw.startswith("//") \
                else raw
            found.append(Comment(body, text.location(node)))
    return tuple(found)


def _order(location: Location) -> tuple[int, int, int, int]:
    return (location.line, location.column, location.end_line or 0, location.end_column or 0)
