"""The Python front-end: one file's source in, its FileIR out.

One libcst parse and one position pass per file (see `spans`); names are resolved by this
package's own scopes, not by `QualifiedNameProvider`, which costs about ten times more. The
audited code is parsed, never imported or run.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Container

import libcst as cst

try:
    import resource
except ImportError:       # Windows: no stack limit to read; always use a thread of our own
    resource = None

from topo.analyzers.ir import MODULE_SCOPE, Comment, FileIR, Language
from topo.analyzers.python.bindings import ScopeBuilder
from topo.analyzers.python.expressions import ExpressionReader
from topo.analyzers.collect import Context, Facts
from topo.analyzers.python.nesting import nesting_problem
from topo.analyzers.python.paths import Resolver
from topo.analyzers.python.scopes import Scope, ScopeKind
from topo.analyzers.python.spans import SourceText, node_positions
from topo.analyzers.python.version import FRONTEND_VERSION
from topo.analyzers.python.visitor import StatementWalker
from topo.analyzers.model import Location, Unknown

__all__ = ["FRONTEND_VERSION", "PARSER_STACK_BYTES", "parse_python"]

# libcst's native parser recurses on the calling thread's stack. The nesting bound
# (`nesting`) is sized for 8 MiB, the main thread's usual stack; on a smaller one (a thread:
# 512 KiB on macOS, 128 KiB on musl; a Dask worker) the parse runs on a thread of this size.
PARSER_STACK_BYTES = 64 * 1024 * 1024
_MAIN_STACK_BYTES = 8 * 1024 * 1024


def parse_python(path: str, source: str, module: str, *, strict: bool = False,
                 factories: Container[str] = frozenset()) -> FileIR:
    """Extract the IR of one Python file.

    `path` is root-relative with `/` separators; `module` is its dotted module name (for a
    package's `__init__.py`, the package). A syntax error gives a FileIR whose `parse_error`
    says where, with no facts. With `strict`, an unexpected error while reading a construct is
    raised (tests); otherwise it becomes an Unknown and the rest of the file is still read.
    `factories` holds the resolved names of the packs' factories (`boto3.client`): a call of one
    builds an object whose methods are named through it (`boto3.client.delete_object`).
    """
    digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
    lines = source.count("\n") + (0 if not source or source.endswith("\n") else 1)
    empty = FileIR(path, Language.PYTHON, module, digest, lines)
    text = source.removeprefix("\ufeff")   # libcst drops a byte-order mark too
    problem = nesting_problem(text)
    if problem is not None:
        line, what = problem
        return _failed(empty, f"not parsed: nested too deeply for the parser ({what})", line)
    try:
        tree = _parse_module(text)
    except cst.ParserSyntaxError as error:
        return _failed(empty, f"syntax error: {error.message}", error.raw_line)
    except RecursionError:
        return _failed(empty, "syntax error: nested too deeply to parse", None)
    try:
        return _extract(empty, tree, text, strict, factories)
    except RecursionError:
        if strict:
            raise
        return _failed(empty, "nested too deeply to read", None)


def _parse_module(text: str) -> cst.Module:
    """`cst.parse_module` on a stack the nesting bound was sized for."""
    if _main_stack_suffices():
        return cst.parse_module(text)
    outcome: list[cst.Module | BaseException] = []

    def parse() -> None:
        try:
            outcome.append(cst.parse_module(text))
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            outcome.append(error)

    previous = threading.stack_size(PARSER_STACK_BYTES)
    try:
        worker = threading.Thread(target=parse, name="topo-libcst")
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _main_stack_suffices() -> bool:
    if resource is None or threading.current_thread() is not threading.main_thread():
        return False
    soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
    return soft == resource.RLIM_INFINITY or soft >= _MAIN_STACK_BYTES


def _failed(empty: FileIR, reason: str, line: int | None) -> FileIR:
    return FileIR(empty.path, empty.language, empty.module, empty.sha256, empty.lines,
                  parse_error=Unknown(empty.path, reason, line))


def _extract(empty: FileIR, tree: cst.Module, source: str, strict: bool,
             factories: Container[str]) -> FileIR:
    path, module = empty.path, empty.module
    spans, comments = node_positions(tree)
    text = SourceText(path, source, spans)
    facts = Facts(path)
    resolver = Resolver(module, text, factories)
    package = module if path.rsplit("/", 1)[-1] == "__init__.py" else module.rpartition(".")[0]
    builder = ScopeBuilder(resolver, package, facts, strict)
    reader = ExpressionReader(text, resolver, builder, facts)
    walker = StatementWalker(text, reader, builder, facts, package, strict)
    scope = builder.scan(tree.body, Scope(MODULE_SCOPE, ScopeKind.MODULE, None))
    walker.block(tree.body, Context(scope, (), Location(path, 1), ()))
    return FileIR(
        path=path, language=Language.PYTHON, module=module, sha256=empty.sha256,
        lines=empty.lines,
        imports=tuple(facts.imports),
        definitions=tuple(sorted(facts.definitions, key=lambda item: _order(item.location))),
        calls=tuple(sorted(facts.calls, key=lambda item: (_order(item.location), item.id))),
        assignments=tuple(facts.assignments),
        returns=tuple(facts.returns),
        deletions=tuple(facts.deletions),
        comments=tuple(Comment(comment.value[1:], text.location(comment))
                       for comment in comments),
        unknowns=tuple(facts.unknowns),
        blocks=tuple(facts.blocks),
    )


def _order(location: Location) -> tuple[int, int, int, int]:
    return (location.line, location.column, location.end_line or 0, location.end_column or 0)
