"""Reading expressions: each expression becomes a Value, and every call inside becomes a Call.

An expression is read exactly once, depth first, so inner calls are recorded before the call that
uses them (a nested call is referenced by id from the outer call's arguments). Every Value is
kept in `values` by node, so that the comparisons of a condition can be assembled afterwards
without reading anything twice. Sub-expressions that run only sometimes carry their guard:
ternary arms, the right operand of `and`/`or`, comprehension elements.
"""

from __future__ import annotations

import libcst as cst

from collections.abc import Callable
from typing import Any

from topo.analyzers.ir import (Assignment, Call, Condition, Definition, DefinitionKind, Guard,
                               GuardKind, Parameter, Value, ValueKind, merged_results)
from topo.analyzers.python.bindings import ScopeBuilder
from topo.analyzers.collect import Context, Facts
from topo.analyzers.python.guards import comparisons
from topo.analyzers.python.paths import Resolver, access_path
from topo.analyzers.python.scopes import holds_instance
from topo.analyzers.python.spans import SourceText
from topo.analyzers.python.suites import assigned_names, sub_expressions
from topo.analyzers.python.values import literal_value, merged_reads, string_literal

__all__ = ["ExpressionReader"]



class ExpressionReader:
    __slots__ = ("text", "resolver", "builder", "facts", "values")

    def __init__(self, text: SourceText, resolver: Resolver, builder: ScopeBuilder,
                 facts: Facts) -> None:
        self.text = text
        self.resolver = resolver
        self.builder = builder
        self.facts = facts
        self.values: dict[int, Value] = {}   # by id(node), like the spans

    def value(self, node: cst.BaseExpression, context: Context) -> Value:
        """Read `node` (recording its calls) and return its Value."""
        result = self._read(node, context)
        self.values[id(node)] = result
        return result

    def condition(self, test: cst.BaseExpression, context: Context) -> Condition:
        """Read a condition expression and describe it."""
        sink: list[str] = []
        read = self.value(test, context.collecting(sink))
        return Condition(self.text.text(test, None), read.reads, tuple(sink),
                         comparisons(test, self.values, self.text))

    def loop_condition(self, iterable: cst.BaseExpression, context: Context) -> Condition:
        """A `for` loop's condition: it reads the iterable (and holds no comparison)."""
        sink: list[str] = []
        read = self.value(iterable, context.collecting(sink))
        return Condition(self.text.text(iterable, None), read.reads, tuple(sink), ())

    def _read(self, node: cst.BaseExpression, context: Context) -> Value:
        text = self.text.text(node)
        # Dispatch on the exact type: `isinstance` on libcst's ABC-based classes is slow, and
        # this runs for every expression of the file.
        reader = _READERS.get(type(node))
        if reader is not None:
            return reader(self, node, text, context)
        literal = literal_value(node, text)
        if literal is not None:
            return literal
        return self._other(node, text, context)

    def _other(self, node: cst.BaseExpression, text: str, context: Context) -> Value:
        parts = [self.value(child, context) for child in sub_expressions(node)]
        return Value(ValueKind.OTHER, text, reads=merged_reads(parts),
                     results=merged_results(parts))

    def _name(self, node: cst.Name, text: str, context: Context) -> Value:
        literal = literal_value(node, text)
        return literal if literal is not None else self._reference(node, text, context)

    def _literal(self, node: cst.BaseExpression, text: str, context: Context) -> Value:
        return literal_value(node, text) or Value(ValueKind.OTHER, text)

    def _call(self, node: cst.Call, text: str, context: Context) -> Value:
        return self.call(node, context)

    def _await(self, node: cst.Await, text: str, context: Context) -> Value:
        inner = node.expression
        if type(inner) is not cst.Call:
            return self._other(node, text, context)
        value = self.call(inner, context, awaited=True)
        self.values[id(inner)] = value
        return value

    def _reference(self, node: cst.BaseExpression, text: str, context: Context) -> Value:
        reads: set[str] = set()
        base = self._chain_reads(node, context, reads)
        results = merged_results((base,))
        path = access_path(node)
        if path is None:
            return Value(ValueKind.OTHER, text, reads=tuple(sorted(reads)), results=results)
        if "()" not in path:
            reads.add(path)
        resolved = None if isinstance(node, cst.Subscript) else self.resolver.resolve(
            node, context.scope)
        return Value(ValueKind.NAME, text, ref=path, resolved=resolved, reads=tuple(sorted(reads)),
                     results=results)

    def _chain_reads(self, node: cst.BaseExpression, context: Context,
                     reads: set[str]) -> Value | None:
        """Read what a name chain evaluates besides itself: indexes and a non-name base.
        Returns the Value of a non-name base (`llm.create(...)` in `llm.create(...).text`)."""
        while True:
            match node:
                case cst.Attribute(value=base):
                    node = base
                case cst.Subscript(value=base, slice=elements):
                    for element in elements:
                        self._index_reads(element.slice, context, reads)
                    node = base
                case cst.Name():
                    return None
                case _:
                    base_value = self.value(node, context)
                    reads.update(base_value.reads)
                    return base_value

    def _index_reads(self, index: cst.BaseSlice, context: Context, reads: set[str]) -> None:
        match index:
            case cst.Index(value=cst.SimpleString() | cst.Integer()):
                return
            case cst.Index(value=value):
                reads.update(self.value(value, context).reads)
            case cst.Slice(lower=lower, upper=upper, step=step):
                for part in (lower, upper, step):
                    if part is not None:
                        reads.update(self.value(part, context).reads)

    def call(self, node: cst.Call, context: Context, *, awaited: bool = False,
             decorates: str | None = None) -> Value:
        """Record one call expression as a Call fact; its Value refers to it by id."""
        function = node.func
        reads: set[str] = set()
        receiver: str | None = None
        results: tuple[str, ...] = ()
        receiver_reads: tuple[str, ...] = ()
        receiver_value: Value | None = None
        match function:
            case cst.Name(value=name):
                pass
            case cst.Attribute(value=base, attr=cst.Name(value=name)):
                receiver = access_path(base)
                receiver_value = self.value(base, context)
                reads.update(receiver_value.reads)
                results = merged_results((receiver_value,))
            case _:
                name = ""
                receiver = access_path(function)
                receiver_value = self.value(function, context)
                reads.update(receiver_value.reads)
                results = merged_results((receiver_value,))
        if receiver is None and receiver_value is not None:
            receiver_reads = receiver_value.reads
        arguments, keywords = self._arguments(node.args, context, reads)
        callee = self.resolver.resolve(function, context.scope) if isinstance(
            function, (cst.Name, cst.Attribute, cst.Subscript)) else None
        if callee is not None and isinstance(function, cst.Name) and holds_instance(
                context.scope, function.value, self.text.start(function)):
            callee = f"{callee}.__call__"   # `agent("…")` runs the instance, not the class
        if callee is not None and isinstance(function, cst.Subscript):
            name = callee.rsplit(".", 1)[-1]     # `Agent[Deps, Out](...)` builds an `Agent`
        location = self.text.location(node)
        call_id = self.facts.call_id(location)
        self.facts.calls.append(Call(
            id=call_id, callee=callee, name=name, receiver=receiver, location=location,
            statement=context.statement, scope=context.scope.qualname, args=arguments,
            kwargs=keywords, guards=context.guards, awaited=awaited, decorates=decorates,
            receiver_results=results,
            receiver_reads=receiver_reads))
        for sink in context.sinks:
            sink.append(call_id)
        return Value(ValueKind.CALL, self.text.text(node), call=call_id, reads=tuple(sorted(reads)))

    def bare_decorator(self, node: cst.BaseExpression, context: Context, decorates: str) -> str:
        """`@tool` / `@registry.tool`: a Call with no arguments and `bare_decorator` set."""
        match node:
            case cst.Attribute(value=base, attr=cst.Name(value=name)):
                receiver = access_path(base)
            case cst.Name(value=name):
                receiver = None
            case _:
                self.value(node, context)
                name, receiver = "", access_path(node)
        location = self.text.location(node)
        call_id = self.facts.call_id(location)
        callee = self.resolver.resolve(node, context.scope) if isinstance(
            node, (cst.Name, cst.Attribute)) else None
        self.facts.calls.append(Call(
            id=call_id, callee=callee, name=name, receiver=receiver, location=location,
            statement=context.statement, scope=context.scope.qualname, guards=context.guards,
            decorates=decorates, bare_decorator=True))
        for sink in context.sinks:
            sink.append(call_id)
        return call_id

    def _arguments(self, arguments: tuple[cst.Arg, ...] | list[cst.Arg], context: Context,
                   reads: set[str]) -> tuple[tuple[Value, ...], tuple[tuple[str, Value], ...]]:
        positional: list[Value] = []
        keywords: list[tuple[str, Value]] = []
        for argument in arguments:
            value = self.value(argument.value, context)
            reads.update(value.reads)
            if argument.star:
                spread = Value(ValueKind.SPREAD, argument.star + value.text,
                               entries=((None, value),), reads=value.reads)
                if argument.star == "**":
                    keywords.append(("**", spread))
                else:
                    positional.append(spread)
            elif argument.keyword is not None:
                keywords.append((argument.keyword.value, value))
            else:
                positional.append(value)
        return tuple(positional), tuple(keywords)

    def parameters(self, parameters: cst.Parameters, context: Context) -> tuple[Parameter, ...]:
        """Parameters with annotation text and default Value (defaults run in `context`)."""
        found = [self._parameter(parameter, "positional", context)
                 for parameter in (*parameters.posonly_params, *parameters.params)]
        if isinstance(parameters.star_arg, cst.Param):
            found.append(self._parameter(parameters.star_arg, "var_positional", context))
        found.extend(self._parameter(parameter, "keyword", context)
                     for parameter in parameters.kwonly_params)
        if parameters.star_kwarg is not None:
            found.append(self._parameter(parameters.star_kwarg, "var_keyword", context))
        return tuple(found)

    def _parameter(self, parameter: cst.Param, kind: str, context: Context) -> Parameter:
        annotation = parameter.annotation
        return Parameter(
            name=parameter.name.value,
            annotation=None if annotation is None else self.text.text(annotation.annotation,
                                                                       None),
            default=None if parameter.default is None else self.value(parameter.default,
                                                                      context),
            kind=kind, type=self.resolver.declared(annotation, context.scope),
            generic=self.resolver.generic(annotation, context.scope))

    def _string(self, node: cst.BaseExpression, text: str, context: Context) -> Value:
        reads: set[str] = set()
        holes: list[Value] = []
        pieces = _string_pieces(node)
        literal_parts: list[str] = []
        formatted = False
        for piece in pieces:
            if isinstance(piece, cst.SimpleString):
                literal_parts.append(string_literal(piece) or "")
            else:
                formatted = True
                self._holes(piece.parts, context, reads, holes)
        if formatted:
            return Value(ValueKind.FORMAT, text, reads=tuple(sorted(reads)),
                         results=merged_results(holes))
        return Value(ValueKind.STRING, text, literal="".join(literal_parts))

    def _holes(self, parts: tuple[cst.BaseFormattedStringContent, ...] | list,
               context: Context, reads: set[str], holes: list[Value]) -> None:
        for part in parts:
            if isinstance(part, cst.FormattedStringExpression):
                hole = self.value(part.expression, context)
                holes.append(hole)
                reads.update(hole.reads)
                if part.format_spec:
                    self._holes(part.format_spec, context, reads, holes)

    def _dict(self, node: cst.Dict, text: str, context: Context) -> Value:
        entries: list[tuple[str | None, Value]] = []
        keys: list[Value] = []
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                key = self.value(element.key, context)
                keys.append(key)
                literal_key = key.literal if key.kind is ValueKind.STRING else None
                entries.append((literal_key if isinstance(literal_key, str) else None,
                                self.value(element.value, context)))
            else:
                inner = self.value(element.value, context)
                entries.append((None, Value(ValueKind.SPREAD, "**" + inner.text,
                                            entries=((None, inner),), reads=inner.reads)))
        return Value(ValueKind.DICT, text, entries=tuple(entries),
                     reads=merged_reads([*keys, *(value for _, value in entries)]))

    def _sequence(self, node: cst.List | cst.Tuple | cst.Set, text: str,
                  context: Context) -> Value:
        entries: list[tuple[str | None, Value]] = []
        for element in node.elements:
            value = self.value(element.value, context)
            if isinstance(element, cst.StarredElement):
                value = Value(ValueKind.SPREAD, "*" + value.text, entries=((None, value),),
                              reads=value.reads)
            entries.append((None, value))
        return Value(ValueKind.LIST, text, entries=tuple(entries),
                     reads=merged_reads(value for _, value in entries))

    def _lambda(self, node: cst.Lambda, text: str, context: Context) -> Value:
        line, column = self.text.start(node)
        qualname = context.scope.child_qualname(f"<lambda>@{line}:{column + 1}")
        scope = self.builder.lambda_scope(node, qualname, context.scope)
        self.facts.definitions.append(Definition(
            qualname=qualname, name="<lambda>", kind=DefinitionKind.LAMBDA,
            location=self.text.location(node), scope=context.scope.qualname,
            parameters=self.parameters(node.params, context),
            locals=tuple(sorted(scope.bindings))))
        self.value(node.body, context.entering(scope))
        return Value(ValueKind.LAMBDA, text, ref=qualname)

    def _ternary(self, node: cst.IfExp, text: str, context: Context) -> Value:
        condition = self.condition(node.test, context)
        location = self.text.location(node.test)
        body = self.value(node.body, context.guarded(
            Guard(GuardKind.TERNARY, True, location, condition)))
        orelse = self.value(node.orelse, context.guarded(
            Guard(GuardKind.TERNARY, False, location, condition)))
        return Value(ValueKind.OTHER, text, reads=merged_reads((body, orelse), condition.reads),
                     results=merged_results((body, orelse)))

    def _boolean(self, node: cst.BooleanOperation, text: str, context: Context) -> Value:
        condition = self.condition(node.left, context)
        polarity = isinstance(node.operator, cst.And)
        guard = Guard(GuardKind.BOOL_OP, polarity, self.text.location(node.left), condition)
        right = self.value(node.right, context.guarded(guard))
        left = self.values.get(id(node.left))
        return Value(ValueKind.OTHER, text, reads=merged_reads((right,), condition.reads),
                     results=merged_results((left, right)))

    def _walrus(self, node: cst.NamedExpr, text: str, context: Context) -> Value:
        value = self.value(node.value, context)
        target = access_path(node.target)
        if target is not None:
            self.facts.assignments.append(Assignment(
                target, value, self.text.location(node), context.scope.qualname,
                context.guards))
        return value

    def _elements(self, clause: cst.CompFor, context: Context) -> None:
        """`for c in calls` inside a comprehension binds each name of its target to an element
        of the iterable, as a `for` statement does (`[run(c) for c in calls]` passes one)."""
        iterable = self.values.get(id(clause.iter))
        if iterable is None:
            return
        for name in assigned_names(clause.target):
            self.facts.assignments.append(Assignment(
                name.value, iterable, self.text.location(name), context.scope.qualname,
                context.guards, element=True))

    def _comprehension(self, node: cst.BaseComp, text: str, context: Context) -> Value:
        clauses = []
        clause: cst.CompFor | None = node.for_in
        while clause is not None:
            clauses.append(clause)
            clause = clause.inner_for_in
        first = self.loop_condition(clauses[0].iter, context)
        scope = self.builder.comprehension_scope([item.target for item in clauses],
                                                 context.scope)
        inner = Context(scope, context.guards, context.statement, context.sinks)
        reads = set(first.reads)
        for index, item in enumerate(clauses):
            loop = first if index == 0 else self.loop_condition(item.iter, inner)
            reads.update(loop.reads)
            self._elements(item, inner)
            inner = inner.guarded(Guard(GuardKind.LOOP, True, self.text.location(item.iter),
                                        loop))
            for test in item.ifs:
                condition = self.condition(test.test, inner)
                reads.update(condition.reads)
                inner = inner.guarded(Guard(GuardKind.IF, True, self.text.location(test.test),
                                            condition))
        if isinstance(node, cst.DictComp):
            elements = [self.value(node.key, inner), self.value(node.value, inner)]
        else:
            elements = [self.value(node.elt, inner)]
        reads.update(merged_reads(elements))
        local = set(scope.bindings)
        kept = sorted(path for path in reads if _head(path) not in local)
        iterables = [self.values.get(id(item.iter)) for item in clauses]
        return Value(ValueKind.OTHER, text, reads=tuple(kept),
                     results=merged_results((*elements, *iterables)))


def _head(path: str) -> str:
    end = len(path)
    for separator in ".[(":
        index = path.find(separator)
        if index != -1:
            end = min(end, index)
    return path[:end]


def _string_pieces(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(node, cst.ConcatenatedString):
        return [*_string_pieces(node.left), *_string_pieces(node.right)]
    return [node]


_READERS: dict[type, Callable[[ExpressionReader, Any, str, Context], Value]] = {
    cst.Name: ExpressionReader._name,
    cst.Attribute: ExpressionReader._reference,
    cst.Subscript: ExpressionReader._reference,
    cst.Call: ExpressionReader._call,
    cst.Await: ExpressionReader._await,
    cst.SimpleString: ExpressionReader._literal,
    cst.Integer: ExpressionReader._literal,
    cst.Float: ExpressionReader._literal,
    cst.Imaginary: ExpressionReader._literal,
    cst.FormattedString: ExpressionReader._string,
    cst.ConcatenatedString: ExpressionReader._string,
    cst.Dict: ExpressionReader._dict,
    cst.List: ExpressionReader._sequence,
    cst.Tuple: ExpressionReader._sequence,
    cst.Set: ExpressionReader._sequence,
    cst.Lambda: ExpressionReader._lambda,
    cst.IfExp: ExpressionReader._ternary,
    cst.BooleanOperation: ExpressionReader._boolean,
    cst.NamedExpr: ExpressionReader._walrus,
    cst.ListComp: ExpressionReader._comprehension,
    cst.SetComp: ExpressionReader._comprehension,
    cst.GeneratorExp: ExpressionReader._comprehension,
    cst.DictComp: ExpressionReader._comprehension,
}
