"""The language-neutral IR: what every front-end extracts from one file.

Front-ends (libcst for Python, tree-sitter for TS/JS) translate syntax into these facts and
nothing else; every later stage is language-blind. All records are frozen and picklable (the
per-file stage runs in a process pool and is cached by content hash).

Names:
- An *access path* is an expression as written, normalised: `resp.choices[0].message.content`,
  `output["action"]`, `self.client`. Subscripts keep literal keys; other subscripts are `[*]`.
- A *resolved name* is a dotted name after import/alias resolution: `stripe.Refund.create`,
  `openai.OpenAI.chat.completions.create` (a method on an instance built from a known
  constructor is named through the constructor), `app.helpers.compute_refund` (repo-local).
  When a name cannot be resolved it is None; it is never guessed.
- A *scope* is the qualified name of the enclosing definition inside its module
  (`RefundAgent.handle`, `handler.<locals>.inner` is written `handler.inner`), or `<module>`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from topo.analyzers.model import Location, Unknown

__all__ = [
    "Language", "ValueKind", "Value", "Comparison", "Condition", "GuardKind", "Guard", "Import",
    "Export", "Parameter", "DefinitionKind", "Definition", "Call", "Assignment", "Deletion",
    "Return",
    "Comment", "GuardedBlock", "CodeCell", "FileIR", "MODULE_SCOPE", "LITERAL_KINDS",
    "merged_results", "scope_chain", "written_values", "keyed_entries",
]

MODULE_SCOPE = "<module>"


@lru_cache(maxsize=1 << 14)
def scope_chain(scope: str) -> tuple[str, ...]:
    """The scopes a name read in `scope` may be bound in, innermost first:
    `a.b.c` -> (`a.b.c`, `a.b`, `a`, `<module>`)."""
    if scope == MODULE_SCOPE:
        return (MODULE_SCOPE,)
    parts = scope.split(".")
    return (*(".".join(parts[:i]) for i in range(len(parts), 0, -1)), MODULE_SCOPE)


class Language(enum.Enum):
    PYTHON = "python"
    TYPESCRIPT = "typescript"
    TSX = "tsx"
    JAVASCRIPT = "javascript"


class ValueKind(enum.Enum):
    STRING = "string"          # literal (an f-string / template literal with holes is FORMAT)
    NUMBER = "number"
    BOOL = "bool"
    NONE = "none"              # None / null / undefined
    DICT = "dict"              # dict or object literal: `entries` holds (key, value)
    LIST = "list"              # list / tuple / array literal: `entries` holds (None, item)
    NAME = "name"              # a reference: `ref` is the access path, `resolved` its import
    CALL = "call"              # the result of a call: `call` is that Call's id
    FORMAT = "format"          # f-string / template literal: `reads` lists the holes' names
    LAMBDA = "lambda"          # lambda / arrow function: `ref` names the synthetic definition
    SPREAD = "spread"          # `*x`, `**x`, `...x`: `entries` has the spread value
    OTHER = "other"            # operators, comprehensions, …: `reads` keeps the names read


LITERAL_KINDS = frozenset({ValueKind.STRING, ValueKind.NUMBER, ValueKind.BOOL, ValueKind.NONE})


@dataclass(frozen=True, slots=True)
class Value:
    """An argument, assigned or returned value, summarised for packs and dataflow."""

    kind: ValueKind
    text: str                                  # source text, truncated to 200 characters
    literal: str | int | float | bool | None = None
    ref: str | None = None                     # NAME: access path as written
    resolved: str | None = None                # NAME: resolved dotted name, when imported
    call: str | None = None                    # CALL: id of the producing Call
    entries: tuple[tuple[str | None, Value], ...] = ()
    reads: tuple[str, ...] = ()                # every access path read inside, sorted, deduped
    # NAME / OTHER / FORMAT: ids of the calls whose *results* the value is computed from,
    # sorted: the base of a chain (`llm.create(...).choices[0].text`), operands of an
    # operator (`a() + b()`), f-string holes. A CALL's own result is `call`; the calls in its
    # arguments are not listed (what a call returns is the dataflow's question).
    results: tuple[str, ...] = ()

    def entry(self, key: str) -> Value | None:
        """The value under a literal key of a DICT value (object literal)."""
        for entry_key, value in self.entries:
            if entry_key == key:
                return value
        return None


def merged_results(values: Iterable[Value | None]) -> tuple[str, ...]:
    """The sorted ids of the calls whose results `values` are computed from (see
    `Value.results`): a CALL value's own call, or what another value lists."""
    found: set[str] = set()
    for value in values:
        if value is None:
            continue
        if value.kind is ValueKind.CALL:
            if value.call:
                found.add(value.call)
        else:
            found.update(value.results)
    return tuple(sorted(found))


@dataclass(frozen=True, slots=True)
class Comparison:
    """`left op right` inside a condition; op is spelt as in Python (`==`, `in`, `not in`,
    `is`, `is not`); TS `===` becomes `==`, `!==` becomes `!=`. A bare truthiness test `x` is
    op `truthy`, `not x` / `!x` is op `falsy` (right is None)."""

    left: Value
    op: str
    right: Value | None
    location: Location


@dataclass(frozen=True, slots=True)
class Condition:
    text: str
    reads: tuple[str, ...]                     # access paths read in the condition
    calls: tuple[str, ...]                     # ids of the calls made inside the condition
    comparisons: tuple[Comparison, ...]


class GuardKind(enum.Enum):
    IF = "if"                  # inside the body of `if cond` (polarity True) or its else (False)
    MATCH_CASE = "match_case"  # inside `case pattern` of `match subject` / `switch` case
    TERNARY = "ternary"        # inside one arm of `a if cond else b` / `cond ? a : b`
    BOOL_OP = "bool_op"        # right operand of `cond and f()` / `cond && f()`
    WHILE = "while"
    LOOP = "loop"              # body of `for x in iterable` (condition reads the iterable)
    EARLY_EXIT = "early_exit"  # after `if cond: return/raise/continue/break` in the same block
    TRY = "try"                # inside a try body
    EXCEPT = "except"          # inside an except / catch handler
    FINALLY = "finally"


@dataclass(frozen=True, slots=True)
class Guard:
    """One condition that must hold (polarity True) or fail (False) for a fact to happen.

    For EARLY_EXIT the polarity is False: the code runs only when the exiting condition did not
    hold. For TRY/EXCEPT, `handler` is the caught types as written (`AMIError`, `` for bare).
    `try_calls` on an EXCEPT guard lists the ids of the calls in the matching try body, so
    fallbacks can ask which control call failed.
    """

    kind: GuardKind
    polarity: bool
    location: Location
    condition: Condition | None = None
    handler: str | None = None
    try_calls: tuple[str, ...] = ()
    exits: str | None = None   # EARLY_EXIT: 'return' | 'raise' | 'continue' | 'break';
                               # EXCEPT: how the handler always ends, None if it falls through


@dataclass(frozen=True, slots=True)
class Import:
    """`alias` is bound to `module` (name None) or to `module.name`.

    Relative imports are resolved to absolute module names (Python: against the file's package;
    TS: to the repo-relative module path without extension, e.g. `src/lib/mailer`). `name` is
    `*` for star imports and `default` for a TS default import.
    """

    module: str
    name: str | None
    alias: str
    location: Location
    scope: str = MODULE_SCOPE


@dataclass(frozen=True, slots=True)
class Export:
    """TS re-exports and named exports: `export { a as b } from './m'` → name b, source m.a."""

    name: str
    source_module: str | None
    source_name: str
    location: Location


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    annotation: str | None = None
    default: Value | None = None
    kind: str = "positional"   # positional | keyword | var_positional | var_keyword
    # The annotation resolved, when it names one class (`client: OpenAI`), and for a generic
    # `RunContext[Deps]` its class then each argument (None where one names no class), so
    # that the packs' `[generic_attributes]` can type `ctx.deps`; unions and strings give ().
    type: str | None = None
    generic: tuple[str | None, ...] = ()


class DefinitionKind(enum.Enum):
    FUNCTION = "function"
    METHOD = "method"
    CLASS = "class"
    LAMBDA = "lambda"


@dataclass(frozen=True, slots=True)
class Definition:
    qualname: str              # within the module: `RefundAgent.handle`
    name: str
    kind: DefinitionKind
    location: Location         # the whole definition
    scope: str                 # enclosing definition or <module>
    parameters: tuple[Parameter, ...] = ()
    decorators: tuple[str, ...] = ()   # ids of the decorator Calls (a bare `@x` is a Call too)
    bases: tuple[str, ...] = ()        # classes: resolved base names (or as written)
    is_async: bool = False
    exported: bool = False             # TS: exported from the module
    returns: str | None = None         # the return annotation, resolved, when it names a class
    # Classes: the fields the body declares (`conn: asyncpg.Connection`, TS `db: Pool`), each
    # with its class, or None when the declaration names none (`Any`, a union, a string).
    fields: tuple[tuple[str, str | None], ...] = ()
    # Classes: each declared field's annotation as written (`amount_cents: int`, a pydantic or
    # dataclass field, a TS `total: number`), for the types of atoms read from it.
    annotations: tuple[tuple[str, str], ...] = ()
    # Functions: the names their body binds (parameters, assignments, imports, definitions;
    # Python's `global`/`nonlocal` names and JS assignments to an outer variable not), sorted.
    # A read of one never reaches a binding of an enclosing scope: a helper's local `response`
    # is not the module's `response`, however empty it stays.
    locals: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Call:
    """One call expression (decorators included: `@registry.tool(...)` is a Call whose
    `decorates` names the decorated definition; a bare `@tool` is a Call with no arguments and
    `bare_decorator` True)."""

    id: str                    # "<file>:<line>:<column>" of the call expression
    callee: str | None         # resolved dotted name, or None
    name: str                  # last segment as written (`create`, `decide`)
    receiver: str | None       # receiver access path as written (`client.chat.completions`)
    location: Location         # the call expression (narrowest useful span)
    statement: Location        # the whole enclosing statement (suppressions anchor here)
    scope: str
    args: tuple[Value, ...] = ()
    kwargs: tuple[tuple[str, Value], ...] = ()   # `**x` is recorded as key "**"
    guards: tuple[Guard, ...] = ()               # outermost first
    awaited: bool = False
    decorates: str | None = None                 # qualname of the decorated definition
    bare_decorator: bool = False
    # Calls whose results the receiver is computed from: `llm.create(...).text.strip()`
    # reads the result of `create` (see `Value.results`).
    receiver_results: tuple[str, ...] = ()
    # The access paths a receiver reads when it is no access path itself: `(a or "").lower()`
    # (then `receiver` is None).
    receiver_reads: tuple[str, ...] = ()

    def kwarg(self, name: str) -> Value | None:
        for key, value in self.kwargs:
            if key == name:
                return value
        return None

    @property
    def chained_on(self) -> str | None:
        """The call this one is made directly on the result of (`x.f(a).g(b)`: `g` is
        chained on `f`), else None."""
        if len(self.receiver_results) == 1 and (self.receiver or "").endswith("()"):
            return self.receiver_results[0]
        return None


@dataclass(frozen=True, slots=True)
class Assignment:
    """`target = value` (also augmented `+=`, annotated, walrus, for-loop targets with the
    iterable as value and `element=True`, `with … as x`, and each name of a destructuring with
    the destructured value)."""

    target: str
    value: Value
    location: Location
    scope: str
    guards: tuple[Guard, ...] = ()
    augmented: bool = False
    element: bool = False      # target receives an element of value (for-loop, destructuring)
    condition: Condition | None = None   # the value is a test: `ok = score > 0.8`
    # A destructured element's place in the value: `reader, mailer = f()` gives (0,) and
    # (1,); TS `const { mailer } = f()` gives ("mailer",). None when not known (a starred
    # rest, a computed key).
    position: tuple[int | str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Deletion:
    """`del target` (Python) or `delete target` (TS/JS): an attribute or item removed, as an
    access path (`ORDERS[*]`, `self.sessions["a"]`); one per target of `del a, b`."""

    target: str
    location: Location
    scope: str
    guards: tuple[Guard, ...] = ()


@dataclass(frozen=True, slots=True)
class Return:
    value: Value | None
    location: Location
    scope: str
    guards: tuple[Guard, ...] = ()
    condition: Condition | None = None   # the value is a test: `return score >= LIMIT`


@dataclass(frozen=True, slots=True)
class Comment:
    text: str                  # without the leading `#` / `//`
    location: Location


@dataclass(frozen=True, slots=True)
class GuardedBlock:
    """A block that runs only under `guard` (an `if`/`elif`/`else` body, a loop body, a `try`
    body, an `except` handler, a `finally`, a `case`), listed whether or not any fact sits in
    it: `except TimeoutError: pass` after a failed control call holds no fact, yet it is a
    fallback. `guards` are all the guards of the block, outermost first, `guard` last."""

    guard: Guard
    scope: str
    guards: tuple[Guard, ...] = ()


@dataclass(frozen=True, slots=True)
class CodeCell:
    """One code cell of a notebook: a notebook is read as its code cells joined in order, so
    its locations count lines of that script; this maps them back to the cell."""

    index: int        # 1-based, among all cells of the notebook (Markdown cells count)
    first_line: int   # the script line of the cell's first line
    lines: int


@dataclass(frozen=True, slots=True)
class FileIR:
    """Everything one file says. `unknowns` records constructs that could not be read; a
    syntax error sets `parse_error` (with its location) and leaves the fact lists empty."""

    path: str                  # repo-relative, `/` separators
    language: Language
    module: str                # dotted module for Python (`app.agents.refund`); TS: path w/o ext
    sha256: str
    lines: int
    imports: tuple[Import, ...] = ()
    exports: tuple[Export, ...] = ()
    definitions: tuple[Definition, ...] = ()
    calls: tuple[Call, ...] = ()
    assignments: tuple[Assignment, ...] = ()
    returns: tuple[Return, ...] = ()
    comments: tuple[Comment, ...] = ()
    unknowns: tuple[Unknown, ...] = ()
    parse_error: Unknown | None = None   # set when the file could not be parsed at all
    blocks: tuple[GuardedBlock, ...] = ()   # every guarded block, empty ones included
    cells: tuple[CodeCell, ...] = ()        # a notebook's code cells (empty for other files)
    deletions: tuple[Deletion, ...] = ()     # `del x[k]` / `delete x[k]`


def written_values(file: FileIR) -> list[tuple[str, int, Value]]:
    """Every argument, assigned and returned value of the file, with its scope and line."""
    found = [(a.scope, a.location.line, a.value) for a in file.assignments]
    found += [(r.scope, r.location.line, r.value) for r in file.returns if r.value is not None]
    for call in file.calls:
        found += [(call.scope, call.location.line, value)
                  for value in (*call.args, *(v for _, v in call.kwargs))]
    return found


def keyed_entries(value: Value, depth: int = 0) -> list[tuple[str, Value]]:
    """The keyed entries of an object literal and of the object literals inside it."""
    if value.kind is not ValueKind.DICT or depth > 8:
        return []
    found = [(key, item) for key, item in value.entries if key is not None]
    for _, item in value.entries:
        found += keyed_entries(item, depth + 1)
    return found
