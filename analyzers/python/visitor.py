"""Walking statements: scopes, definitions, assignments, returns and the guard stack.

The walk is recursive over statements (rather than a libcst visitor over every node) because
guards are block-structured: an `if` guards its body, an early `return` guards the rest of its
block, a `try` guards its body and hands its calls to its handlers. Each statement is read once;
in production one unreadable statement becomes an Unknown and the walk goes on, under tests
(`strict`) it raises.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from topo.analyzers.ir import (Assignment, Comparison, Condition, Definition, DefinitionKind,
                               Deletion, Guard, GuardedBlock, GuardKind, Import, Return, Value,
                               ValueKind)
from topo.analyzers.python.bindings import ScopeBuilder
from topo.analyzers.python.expressions import ExpressionReader
from topo.analyzers.collect import Context, Facts, read_block
from topo.analyzers.python.imports import imported_names
from topo.analyzers.python.paths import access_path
from topo.analyzers.python.scopes import ScopeKind
from topo.analyzers.python.spans import SourceText
from topo.analyzers.python.suites import Statement, exit_kind, statements_of, sub_expressions
from topo.analyzers.model import Location, Unknown

__all__ = ["StatementWalker"]


class StatementWalker:
    __slots__ = ("text", "reader", "builder", "facts", "package", "strict")

    def __init__(self, text: SourceText, reader: ExpressionReader, builder: ScopeBuilder,
                 facts: Facts, package: str, strict: bool) -> None:
        self.text = text
        self.reader = reader
        self.builder = builder
        self.facts = facts
        self.package = package
        self.strict = strict

    def block(self, statements: Sequence[Statement], context: Context) -> None:
        """Read a block; an `if … return` adds an EARLY_EXIT guard to the statements after it."""
        read_block(statements, context, self._statement_safely)

    def _statement_safely(self, statement: Statement, context: Context) -> tuple[Guard, ...]:
        if self.strict:
            return self.statement(statement, context)
        try:
            return self.statement(statement, context)
        except Exception as error:  # noqa: BLE001 - production degrades to an Unknown
            self.facts.unreadable(self.text.line_of(statement), "could not read",
                                  type(statement).__name__, error)
            return ()

    def statement(self, statement: Statement, context: Context) -> tuple[Guard, ...]:
        """Read one statement; return the early-exit guards it adds for what follows."""
        match statement:
            case cst.SimpleStatementLine(body=smalls):
                for small in smalls:
                    self.small(small, context.at(self.text.location(small)))
            case cst.BaseSmallStatement():
                self.small(statement, context.at(self.text.location(statement)))
            case cst.If():
                return self._if(statement, context)
            case cst.For():
                self._for(statement, context)
            case cst.While():
                self._while(statement, context)
            case cst.Try() | cst.TryStar():
                self._try(statement, context)
            case cst.With():
                self._with(statement, context)
            case cst.Match():
                self._match(statement, context)
            case cst.FunctionDef():
                self._function(statement, context)
            case cst.ClassDef():
                self._class(statement, context)
            case _:
                raise TypeError(f"unexpected statement {type(statement).__name__}")
        return ()

    def small(self, small: cst.BaseSmallStatement, context: Context) -> None:
        reader = self.reader
        match small:
            case cst.Expr(value=expression):
                reader.value(expression, context)
            case cst.Assign(targets=targets, value=expression):
                value, condition = self._read_test(expression, context)
                for target in targets:
                    self._assign(target.target, value, context, context.statement,
                                 condition=condition)
            case cst.AnnAssign(target=target, value=expression) if expression is not None:
                self._assign(target, reader.value(expression, context), context,
                             context.statement)
            case cst.AugAssign(target=target, value=expression):
                self._assign(target, reader.value(expression, context), context,
                             context.statement, augmented=True)
            case cst.Return(value=expression):
                value, condition = (None, None) if expression is None else \
                    self._read_test(expression, context)
                self.facts.returns.append(Return(value, context.statement,
                                                 context.scope.qualname, context.guards,
                                                 condition=condition))
            case cst.Import() | cst.ImportFrom():
                self._imports(small, context)
            case cst.Del(target=target):
                self._delete(target, context)
            case cst.AnnAssign() | cst.Pass() | cst.Break() | cst.Continue() | cst.Global() \
                    | cst.Nonlocal():
                pass
            case _:
                for expression in sub_expressions(small):
                    reader.value(expression, context)

    def _read_test(self, expression: cst.BaseExpression, context: Context
                   ) -> tuple[Value, Condition | None]:
        """The value of an expression and, when it is a test (a comparison, `and`/`or`,
        `not`), its Condition: `return score >= LIMIT` is a threshold as much as an `if`."""
        if isinstance(expression, cst.Comparison | cst.BooleanOperation) or (
                isinstance(expression, cst.UnaryOperation)
                and isinstance(expression.operator, cst.Not)):
            condition = self.reader.condition(expression, context)
            return self.reader.values[id(expression)], condition
        return self.reader.value(expression, context), None

    def _assign(self, target: cst.BaseExpression, value: Value, context: Context,
                location: Location, *, element: bool = False, augmented: bool = False,
                condition: Condition | None = None,
                position: tuple[int | str, ...] | None = ()) -> None:
        """One Assignment per assigned name; destructuring marks each as an element, with
        its position while every step before it is a plain index."""
        match target:
            case cst.Tuple(elements=elements) | cst.List(elements=elements):
                starred = False
                for index, item in enumerate(elements):
                    starred = starred or isinstance(item, cst.StarredElement)
                    place = None if starred or position is None else (*position, index)
                    self._assign(item.value, value, context, location, element=True,
                                 augmented=augmented, position=place)
                return
            case cst.StarredElement(value=inner):
                self._assign(inner, value, context, location, element=True, augmented=augmented,
                             position=None)
                return
        path = access_path(target)
        if path is None or "[*]" in path or "()" in path:
            self.reader.value(target, context)   # a computed index or base runs calls too
        if path is not None:
            self.facts.assignments.append(Assignment(
                path, value, location, context.scope.qualname, context.guards,
                augmented=augmented, element=element, condition=condition,
                position=position if element and position else None))

    def _delete(self, target: cst.BaseExpression, context: Context) -> None:
        """One Deletion per removed attribute or item (`del a[k], b.c`); a bare name is only
        unbound, and a computed index still runs its calls."""
        if isinstance(target, cst.Tuple | cst.List):
            for item in target.elements:
                self._delete(item.value, context)
            return
        path = access_path(target)
        if path is not None and ("." in path or "[" in path):
            self.facts.deletions.append(Deletion(path, context.statement,
                                                 context.scope.qualname, context.guards))
        if path is None or "[*]" in path or "()" in path:
            self.reader.value(target, context)

    def _imports(self, node: cst.Import | cst.ImportFrom, context: Context) -> None:
        names, error = imported_names(node, self.package)
        location = self.text.location(node)
        if error is not None:
            self.facts.unknowns.append(Unknown(self.text.path, error, location.line))
        for name in names:
            self.facts.imports.append(Import(name.module, name.name, name.alias, location,
                                             context.scope.qualname))

    def _guarded(self, suite: cst.BaseSuite, context: Context, guard: Guard) -> None:
        """Read a block that runs only under `guard`, and list it even when it holds no fact."""
        inner = context.guarded(guard)
        self.facts.blocks.append(GuardedBlock(guard, context.scope.qualname, inner.guards))
        self.block(statements_of(suite), inner)

    def _if(self, node: cst.If, context: Context) -> tuple[Guard, ...]:
        exits: list[Guard] = []
        negated: tuple[Guard, ...] = ()
        still_exiting = True
        branch: cst.If = node
        while True:
            branch_context = Context(context.scope, context.guards + negated,
                                     self.text.header(branch, branch.test), context.sinks)
            condition = self.reader.condition(branch.test, branch_context)
            location = self.text.location(branch.test)
            self._guarded(branch.body, branch_context,
                          Guard(GuardKind.IF, True, location, condition))
            kind = exit_kind(branch.body)
            if still_exiting and kind is not None:
                exits.append(Guard(GuardKind.EARLY_EXIT, False, location, condition, exits=kind))
            else:
                still_exiting = False
            negated += (Guard(GuardKind.IF, False, location, condition),)
            orelse = branch.orelse
            if isinstance(orelse, cst.If):
                branch = orelse
                continue
            if isinstance(orelse, cst.Else):
                self._guarded(orelse.body, Context(context.scope, context.guards + negated[:-1],
                                                   context.statement, context.sinks), negated[-1])
            return tuple(exits)

    def _while(self, node: cst.While, context: Context) -> None:
        header = context.at(self.text.header(node, node.test))
        condition = self.reader.condition(node.test, header)
        location = self.text.location(node.test)
        self._guarded(node.body, header, Guard(GuardKind.WHILE, True, location, condition))
        if node.orelse is not None:
            self._guarded(node.orelse.body, header,
                          Guard(GuardKind.WHILE, False, location, condition))

    def _for(self, node: cst.For, context: Context) -> None:
        header = context.at(self.text.header(node, node.iter))
        condition = self.reader.loop_condition(node.iter, header)
        guard = Guard(GuardKind.LOOP, True, self.text.location(node.iter), condition)
        self._assign(node.target, self.reader.values[id(node.iter)], header.guarded(guard),
                     self.text.location(node.target), element=True, position=None)
        self._guarded(node.body, header, guard)
        if node.orelse is not None:
            self.block(statements_of(node.orelse.body), header)

    def _try(self, node: cst.Try | cst.TryStar, context: Context) -> None:
        sink: list[str] = []
        guard = Guard(GuardKind.TRY, True, self.text.keyword(node, "try"))
        self._guarded(node.body, Context(context.scope, context.guards, context.statement,
                                         (*context.sinks, sink)), guard)
        try_calls = tuple(sink)
        for handler in node.handlers:
            caught = handler.type
            header = (self.text.header(handler, caught) if caught is not None
                      else self.text.keyword(handler, "except"))
            if caught is not None:
                self.reader.value(caught, context.at(header))
            self._guarded(handler.body, context, Guard(
                GuardKind.EXCEPT, True, header,
                handler="" if caught is None else self.text.text(caught, None),
                try_calls=try_calls, exits=exit_kind(handler.body)))
        if node.orelse is not None:
            self.block(statements_of(node.orelse.body), context)
        if node.finalbody is not None:
            finally_guard = Guard(GuardKind.FINALLY, True,
                                  self.text.keyword(node.finalbody, "finally"))
            self._guarded(node.finalbody.body, context, finally_guard)

    def _with(self, node: cst.With, context: Context) -> None:
        header = context.at(self.text.header(node, node.items[-1]))
        for item in node.items:
            value = self.reader.value(item.item, header)
            if item.asname is not None:
                self._assign(item.asname.name, value, header, self.text.location(item))
        self.block(statements_of(node.body), context)

    def _match(self, node: cst.Match, context: Context) -> None:
        header = context.at(self.text.header(node, node.subject))
        subject = self.reader.value(node.subject, header)
        subject_text = self.text.text(node.subject, None)
        negated: tuple[Guard, ...] = ()
        for case in node.cases:
            case_context = Context(context.scope, context.guards + negated,
                                   self.text.header(case, case.pattern), context.sinks)
            comparisons = self._pattern(case.pattern, subject, case_context)
            text = f"match {subject_text}: case {self.text.text(case.pattern, None)}"
            reads, calls = subject.reads, ()
            if case.guard is not None:
                extra = self.reader.condition(case.guard, case_context)
                text += f" if {extra.text}"
                reads = tuple(sorted({*reads, *extra.reads}))
                calls, comparisons = extra.calls, comparisons + extra.comparisons
            condition = Condition(text, reads, calls, comparisons)
            location = self.text.location(case.pattern)
            self._guarded(case.body, case_context,
                          Guard(GuardKind.MATCH_CASE, True, location, condition))
            negated += (Guard(GuardKind.MATCH_CASE, False, location, condition),)

    def _pattern(self, pattern: cst.MatchPattern, subject: Value,
                 context: Context) -> tuple[Comparison, ...]:
        """`case "refund":` compares the subject with a value; other patterns only match."""
        location = self.text.location(pattern)
        match pattern:
            case cst.MatchValue(value=expression):
                return (Comparison(subject, "==", self.reader.value(expression, context),
                                   location),)
            case cst.MatchSingleton(value=expression):
                return (Comparison(subject, "is", self.reader.value(expression, context),
                                   location),)
            case cst.MatchOr(patterns=alternatives):
                return tuple(found for alternative in alternatives
                             for found in self._pattern(alternative.pattern, subject, context))
            case cst.MatchAs(pattern=inner) if inner is not None:
                return self._pattern(inner, subject, context)
            case cst.MatchMapping(elements=elements) if subject.ref is not None:
                return tuple(self._mapping_entry(element, subject, context)
                             for element in elements
                             if isinstance(element.key, cst.SimpleString)
                             and isinstance(element.pattern, cst.MatchValue))
        return ()

    def _mapping_entry(self, element: cst.MatchMappingElement, subject: Value,
                       context: Context) -> Comparison:
        key = self.reader.value(element.key, context)
        path = f"{subject.ref}[{key.text}]"
        left = Value(ValueKind.NAME, path, ref=path, reads=(path,))
        right = self.reader.value(element.pattern.value, context)
        return Comparison(left, "==", right, self.text.location(element))

    def _function(self, node: cst.FunctionDef, context: Context) -> None:
        name = node.name.value
        qualname = context.scope.child_qualname(name)
        decorators = self._decorators(node.decorators, context, qualname)
        last = node.returns or _last_parameter(node.params) or node.name
        header = context.at(self.text.header(node, last))
        parameters = self.reader.parameters(node.params, header)
        kind = DefinitionKind.METHOD if context.scope.kind is ScopeKind.CLASS \
            else DefinitionKind.FUNCTION
        scope = self.builder.function_scope(node, qualname, context.scope)
        self.facts.definitions.append(Definition(
            qualname=qualname, name=name, kind=kind, location=self.text.location(node),
            scope=context.scope.qualname, parameters=parameters, decorators=decorators,
            is_async=node.asynchronous is not None,
            returns=self.reader.resolver.annotation(node.returns, context.scope),
            locals=tuple(sorted(scope.bindings))))
        self.block(statements_of(node.body), header.entering(scope))

    def _class(self, node: cst.ClassDef, context: Context) -> None:
        name = node.name.value
        qualname = context.scope.child_qualname(name)
        decorators = self._decorators(node.decorators, context, qualname)
        arguments = (*node.bases, *node.keywords)
        header = context.at(self.text.header(node, arguments[-1] if arguments else node.name))
        for argument in arguments:
            self.reader.value(argument.value, header)
        bases = tuple(self.reader.values[id(argument.value)].resolved
                      or self.text.text(argument.value, None) for argument in node.bases)
        self.facts.definitions.append(Definition(
            qualname=qualname, name=name, kind=DefinitionKind.CLASS,
            location=self.text.location(node), scope=context.scope.qualname,
            decorators=decorators, bases=bases, fields=self._fields(node, context),
            annotations=self._annotations(node)))
        scope = self.builder.class_scope(node, qualname, context.scope)
        # A class body runs where it stands: it keeps the guards around it.
        self.block(statements_of(node.body), Context(scope, context.guards, header.statement,
                                                     context.sinks))

    def _fields(self, node: cst.ClassDef, context: Context) -> tuple[tuple[str, str | None], ...]:
        """The fields a class body declares (`conn: asyncpg.Connection`, dataclass, pydantic
        model or plain class); a name declared twice with two classes names none."""
        fields: dict[str, str | None] = {}
        for statement in statements_of(node.body):
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    name = small.target.value
                    declared = self.reader.resolver.declared(small.annotation, context.scope)
                    fields[name] = declared if fields.get(name, declared) == declared else None
        return tuple(fields.items())

    def _annotations(self, node: cst.ClassDef) -> tuple[tuple[str, str], ...]:
        """Each field the class body annotates, with the annotation as written (first wins)."""
        found: dict[str, str] = {}
        for statement in statements_of(node.body):
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    found.setdefault(small.target.value,
                                     self.text.text(small.annotation.annotation, None) or "")
        return tuple((name, text) for name, text in found.items() if text)

    def _decorators(self, decorators: Sequence[cst.Decorator], context: Context,
                    qualname: str) -> tuple[str, ...]:
        ids = []
        for decorator in decorators:
            expression = decorator.decorator
            at = context.at(self.text.location(decorator))
            if isinstance(expression, cst.Call):
                value = self.reader.call(expression, at, decorates=qualname)
                self.reader.values[id(expression)] = value
                ids.append(value.call or "")
            else:
                ids.append(self.reader.bare_decorator(expression, at, qualname))
        return tuple(ids)


def _last_parameter(parameters: cst.Parameters) -> cst.CSTNode | None:
    ordered = [*parameters.posonly_params, *parameters.params]
    if isinstance(parameters.star_arg, cst.CSTNode):
        ordered.append(parameters.star_arg)
    ordered.extend(parameters.kwonly_params)
    if parameters.star_kwarg is not None:
        ordered.append(parameters.star_kwarg)
    return ordered[-1] if ordered else None
