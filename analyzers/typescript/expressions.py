"""Reading expressions: each expression becomes a Value, and every call inside becomes a Call.

As in the Python front-end, an expression is read exactly once, depth first, so inner calls are
recorded before the call that uses them, and every Value is kept by node id for the
comparisons of conditions. Function values (arrow functions, function expressions,
object-literal methods) become Definitions whose bodies the statement walker reads. A function
value is named after where it is bound: `const f = () => …` is `f`; inside an object literal,
the binding and the keys lead to it, so `const sendEmail = tool({ execute: async () => … })`
defines `sendEmail.execute` (with only keys, `tools.send.execute`); any other function value is
`<lambda>@line:column`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import tree_sitter

from topo.analyzers.ir import (MODULE_SCOPE, Assignment, Call, Condition, Definition,
                               DefinitionKind, Deletion, Guard, GuardKind, Parameter, Return,
                               Value, ValueKind, merged_results)
from topo.analyzers.typescript.bindings import ScopeBuilder
from topo.analyzers.typescript.commonjs import commonjs_exports
from topo.analyzers.collect import Context, Facts
from topo.analyzers.typescript.guards import comparisons, operator_of
from topo.analyzers.typescript.paths import TRANSPARENT, Resolver, access_path, unwrap
from topo.analyzers.typescript.scopes import ClassInfo
from topo.analyzers.typescript.spans import SourceText
from topo.analyzers.typescript.syntax import (ParameterNode, parameter_nodes,
                                              pattern_defaults, pattern_names,
                                              pattern_positions, statements_of)
from topo.analyzers.typescript.values import literal_value, merged_reads, string_value, unescape

__all__ = ["BlockReader", "ExpressionReader"]

# Reads a function body's statements: the statement walker's `block`, handed to the reader when
# it is built, so that no reader exists that would silently skip a body.
BlockReader = Callable[[Sequence[tree_sitter.Node], Context], None]

# Type-level syntax inside expressions: no runtime value, nothing read.
_TYPE_NODES = frozenset({
    "type_annotation", "type_arguments", "type_parameters", "predefined_type",
    "type_identifier", "generic_type", "union_type", "intersection_type", "object_type",
    "array_type", "tuple_type", "function_type", "literal_type", "nested_type_identifier",
    "type_query", "index_type_query", "lookup_type", "conditional_type", "readonly_type",
    "optional_type", "parenthesized_type", "infer_type", "template_literal_type",
    "property_identifier", "private_property_identifier", "statement_identifier", "regex",
    "jsx_text", "html_character_reference", "comment", "optional_chain", "asserts_annotation",
    "type_predicate_annotation", "accessibility_modifier", "override_modifier",
})
_TEST_OPERATORS = frozenset({"===", "==", "!==", "!=", "<", ">", "<=", ">=", "in", "&&", "||",
                             "??", "!", "instanceof"})


class ExpressionReader:
    __slots__ = ("text", "resolver", "builder", "facts", "values", "read_block")

    def __init__(self, text: SourceText, resolver: Resolver, builder: ScopeBuilder,
                 facts: Facts, read_block: BlockReader) -> None:
        self.text = text
        self.resolver = resolver
        self.builder = builder
        self.facts = facts
        self.values: dict[int, Value] = {}   # by node id
        self.read_block = read_block

    def value(self, node: tree_sitter.Node, context: Context, naming: str | None = None
              ) -> Value:
        """Read `node` (recording its calls) and return its Value. `naming` is the binding
        path a function value found here is named after."""
        reader = _READERS.get(node.type)
        if reader is not None:
            result = reader(self, node, context, naming)
        else:
            result = literal_value(node, self.text) or self._other(node, context)
        self.values[node.id] = result
        return result

    def condition(self, test: tree_sitter.Node, context: Context) -> Condition:
        """Read a condition expression (parentheses dropped) and describe it."""
        while test.type == "parenthesized_expression" and test.named_children:
            test = test.named_children[0]
        sink: list[str] = []
        read = self.value(test, context.collecting(sink))
        return Condition(self.text.text(test), read.reads, tuple(sink),
                         comparisons(test, self.values, self.text))

    def value_and_test(self, node: tree_sitter.Node, context: Context,
                       naming: str | None = None) -> tuple[Value, Condition | None]:
        """The value of an expression and, when it is a test (a comparison, `&&`/`||`/`??`,
        `!x`), its Condition: `return score >= LIMIT` is a threshold as much as an `if`."""
        bare = node
        while bare.type == "parenthesized_expression" and bare.named_children:
            bare = bare.named_children[0]
        operator = operator_of(bare) if bare.type in ("binary_expression",
                                                      "unary_expression") else ""
        if operator in _TEST_OPERATORS and not (bare.type == "unary_expression"
                                                and operator != "!"):
            condition = self.condition(bare, context)
            return self.values[bare.id], condition
        return self.value(node, context, naming), None

    def loop_condition(self, iterable: tree_sitter.Node, context: Context) -> Condition:
        sink: list[str] = []
        read = self.value(iterable, context.collecting(sink))
        return Condition(self.text.text(iterable), read.reads, tuple(sink), ())

    # --- generic --------------------------------------------------------------------------

    def _other(self, node: tree_sitter.Node, context: Context, naming: str | None = None
               ) -> Value:
        parts = [self.value(child, context) for child in node.named_children
                 if child.type not in _TYPE_NODES]
        return Value(ValueKind.OTHER, self.text.text(node), reads=merged_reads(parts),
                     results=merged_results(parts))

    def _opaque(self, node: tree_sitter.Node, context: Context, naming: str | None = None
                ) -> Value:
        return Value(ValueKind.OTHER, self.text.text(node))

    def _transparent(self, node: tree_sitter.Node, context: Context, naming: str | None = None
                     ) -> Value:
        inner = unwrap(node)
        if inner is node:
            return self._other(node, context)
        for child in node.named_children:          # a type assertion's type is not read
            if child.type not in _TYPE_NODES and child is not inner and child.id != inner.id:
                self.value(child, context)
        return self.value(inner, context, naming)

    def _name(self, node: tree_sitter.Node, context: Context, naming: str | None = None
              ) -> Value:
        return self._reference(node, context)

    def _reference(self, node: tree_sitter.Node, context: Context, naming: str | None = None
                   ) -> Value:
        reads: set[str] = set()
        results = merged_results((self._chain_reads(node, context, reads),))
        text = self.text.text(node)
        path = access_path(node, self.text)
        if path is None:
            return Value(ValueKind.OTHER, text, reads=tuple(sorted(reads)), results=results)
        if "()" not in path:
            reads.add(path)
        resolved = None if node.type == "subscript_expression" else self.resolver.resolve(
            node, context.scope)
        return Value(ValueKind.NAME, text, ref=path, resolved=resolved,
                     reads=tuple(sorted(reads)), results=results)

    def _chain_reads(self, node: tree_sitter.Node, context: Context,
                     reads: set[str]) -> Value | None:
        """Read what a name chain evaluates besides itself: indexes and a non-name base.
        Returns the Value of a non-name base (`(await llm.create(...))` in `….choices`)."""
        while True:
            node = unwrap(node)
            match node.type:
                case "member_expression":
                    base = node.child_by_field_name("object")
                case "subscript_expression":
                    index = node.child_by_field_name("index")
                    if index is not None and unwrap(index).type not in ("string", "number"):
                        reads.update(self.value(index, context).reads)
                    base = node.child_by_field_name("object")
                case "identifier" | "this" | "super" | "shorthand_property_identifier":
                    return None
                case _:
                    base_value = self.value(node, context)
                    reads.update(base_value.reads)
                    return base_value
            if base is None:
                return None
            node = base

    # --- calls ----------------------------------------------------------------------------

    def _call(self, node: tree_sitter.Node, context: Context, naming: str | None = None
              ) -> Value:
        return self.call(node, context, naming=naming)

    def _new(self, node: tree_sitter.Node, context: Context, naming: str | None = None
             ) -> Value:
        return self.call(node, context, naming=naming)

    def _await(self, node: tree_sitter.Node, context: Context, naming: str | None = None
               ) -> Value:
        inner = node.named_children[0] if node.named_children else None
        bare = unwrap(inner) if inner is not None else None
        if bare is None or bare.type not in ("call_expression", "new_expression"):
            return self._other(node, context)
        value = self.call(bare, context, awaited=True, naming=naming)
        self.values[bare.id] = value
        return value

    def call(self, node: tree_sitter.Node, context: Context, *, awaited: bool = False,
             decorates: str | None = None, naming: str | None = None) -> Value:
        """Record one call (or `new`) expression as a Call; its Value refers to it by id."""
        is_new = node.type == "new_expression"
        function = node.child_by_field_name("constructor" if is_new else "function")
        reads: set[str] = set()
        receiver: str | None = None
        results: tuple[str, ...] = ()
        receiver_reads: tuple[str, ...] = ()
        receiver_value: Value | None = None
        name = ""
        bare = unwrap(function) if function is not None else None
        if bare is not None and bare.type in ("identifier", "import", "super"):
            name = self.text.text(bare)
        elif bare is not None and bare.type == "member_expression":
            base = bare.child_by_field_name("object")
            attribute = bare.child_by_field_name("property")
            name = self.text.text(attribute) if attribute is not None else ""
            if base is not None:
                receiver = access_path(base, self.text)
                receiver_value = self.value(base, context)
                reads.update(receiver_value.reads)
                results = merged_results((receiver_value,))
        elif function is not None:
            receiver = access_path(function, self.text)
            receiver_value = self.value(function, context)
            reads.update(receiver_value.reads)
            results = merged_results((receiver_value,))
        if receiver is None and receiver_value is not None:
            receiver_reads = receiver_value.reads
        arguments = self._arguments(node.child_by_field_name("arguments"), context, reads,
                                    naming)
        callee = None
        if bare is not None and bare.type in ("identifier", "member_expression"):
            # Calling a whole module (`const fetch = require('node-fetch'); fetch(u)`) calls
            # its default export, as constructing one builds it.
            callee = self.resolver.constructed(bare, context.scope) if is_new or \
                bare.type == "identifier" else self.resolver.resolve(bare, context.scope)
        location = self.text.location(node)
        call_id = self.facts.call_id(location)
        self.facts.calls.append(Call(
            id=call_id, callee=callee, name=name, receiver=receiver, location=location,
            statement=context.statement, scope=context.scope.qualname, args=arguments,
            guards=context.guards, awaited=awaited, decorates=decorates,
            receiver_results=results,
            receiver_reads=receiver_reads))
        for sink in context.sinks:
            sink.append(call_id)
        return Value(ValueKind.CALL, self.text.text(node), call=call_id,
                     reads=tuple(sorted(reads)))

    def bare_decorator(self, node: tree_sitter.Node, context: Context, decorates: str) -> str:
        """`@Injectable` / `@registry.tool`: a Call with no arguments and `bare_decorator`."""
        receiver = None
        name = ""
        bare = unwrap(node)
        if bare.type == "member_expression":
            base = bare.child_by_field_name("object")
            attribute = bare.child_by_field_name("property")
            name = self.text.text(attribute) if attribute is not None else ""
            receiver = access_path(base, self.text) if base is not None else None
        elif bare.type == "identifier":
            name = self.text.text(bare)
        callee = self.resolver.resolve(bare, context.scope) if bare.type in (
            "identifier", "member_expression") else None
        location = self.text.location(node)
        call_id = self.facts.call_id(location)
        self.facts.calls.append(Call(
            id=call_id, callee=callee, name=name, receiver=receiver, location=location,
            statement=context.statement, scope=context.scope.qualname, guards=context.guards,
            decorates=decorates, bare_decorator=True))
        for sink in context.sinks:
            sink.append(call_id)
        return call_id

    def _arguments(self, arguments: tree_sitter.Node | None, context: Context,
                   reads: set[str], naming: str | None) -> tuple[Value, ...]:
        if arguments is None:
            return ()
        if arguments.type == "template_string":       # a tagged template: sql`…`
            value = self.value(arguments, context)
            reads.update(value.reads)
            return (value,)
        found = []
        for argument in arguments.named_children:
            if argument.type == "comment":
                continue
            value = self.value(argument, context, naming)
            reads.update(value.reads)
            found.append(value)
        return tuple(found)

    # --- literals -------------------------------------------------------------------------

    def _template(self, node: tree_sitter.Node, context: Context, naming: str | None = None
                  ) -> Value:
        holes = [child for child in node.named_children if child.type == "template_substitution"]
        text = self.text.text(node)
        if not holes:
            return Value(ValueKind.STRING, text,
                         literal=unescape(self.text.text(node, None)[1:-1]))
        reads: set[str] = set()
        parts: list[Value] = []
        for hole in holes:
            for inner in hole.named_children:
                part = self.value(inner, context)
                parts.append(part)
                reads.update(part.reads)
        return Value(ValueKind.FORMAT, text, reads=tuple(sorted(reads)),
                     results=merged_results(parts))

    def _unary(self, node: tree_sitter.Node, context: Context, naming: str | None = None
               ) -> Value:
        argument = node.child_by_field_name("argument")
        if operator_of(node) == "delete" and argument is not None:
            path = access_path(unwrap(argument), self.text)
            if path is not None and ("." in path or "[" in path):
                self.facts.deletions.append(Deletion(path, context.statement,
                                                     context.scope.qualname, context.guards))
        if operator_of(node) == "-" and argument is not None and argument.type == "number":
            inner = self.value(argument, context)
            if isinstance(inner.literal, (int, float)) and not isinstance(inner.literal, bool):
                return Value(ValueKind.NUMBER, self.text.text(node), literal=-inner.literal)
        return self._other(node, context)

    def _spread(self, node: tree_sitter.Node, context: Context, naming: str | None = None
                ) -> Value:
        inner = node.named_children[0] if node.named_children else None
        if inner is None:
            return Value(ValueKind.OTHER, self.text.text(node))
        value = self.value(inner, context, naming)
        return Value(ValueKind.SPREAD, self.text.text(node), entries=((None, value),),
                     reads=value.reads)

    def _object(self, node: tree_sitter.Node, context: Context, naming: str | None = None
                ) -> Value:
        entries: list[tuple[str | None, Value]] = []
        keys: list[Value] = []
        for member in node.named_children:
            match member.type:
                case "pair":
                    key_node = member.child_by_field_name("key")
                    key = self._key(key_node, context, keys)
                    value_node = member.child_by_field_name("value")
                    if value_node is None:
                        continue
                    entries.append((key, self.value(value_node, context,
                                                    _joined(naming, key))))
                case "shorthand_property_identifier":
                    entries.append((self.text.text(member), self._reference(member, context)))
                case "method_definition":
                    key = self._key(member.child_by_field_name("name"), context, keys)
                    entries.append((key, self.function(member, context, _joined(naming, key))))
                case "spread_element":
                    entries.append((None, self.value(member, context)))
        return Value(ValueKind.DICT, self.text.text(node), entries=tuple(entries),
                     reads=merged_reads([*keys, *(value for _, value in entries)]))

    def _key(self, node: tree_sitter.Node | None, context: Context,
             keys: list[Value]) -> str | None:
        if node is None:
            return None
        match node.type:
            case "property_identifier" | "private_property_identifier" | "number":
                return self.text.text(node)
            case "string":
                return string_value(node, self.text)
            case "computed_property_name":
                inner = node.named_children[0] if node.named_children else None
                if inner is not None:
                    value = self.value(inner, context)
                    keys.append(value)
                    if value.kind is ValueKind.STRING and isinstance(value.literal, str):
                        return value.literal
        return None

    def _array(self, node: tree_sitter.Node, context: Context, naming: str | None = None
               ) -> Value:
        entries = tuple((None, self.value(element, context, naming))
                        for element in node.named_children if element.type != "comment")
        return Value(ValueKind.LIST, self.text.text(node), entries=entries,
                     reads=merged_reads(value for _, value in entries))

    # --- control inside expressions -------------------------------------------------------

    def _ternary(self, node: tree_sitter.Node, context: Context, naming: str | None = None
                 ) -> Value:
        test = node.child_by_field_name("condition")
        body = node.child_by_field_name("consequence")
        orelse = node.child_by_field_name("alternative")
        if test is None or body is None or orelse is None:
            return self._other(node, context)
        condition = self.condition(test, context)
        location = self.text.location(test)
        first = self.value(body, context.guarded(
            Guard(GuardKind.TERNARY, True, location, condition)), naming)
        second = self.value(orelse, context.guarded(
            Guard(GuardKind.TERNARY, False, location, condition)), naming)
        return Value(ValueKind.OTHER, self.text.text(node),
                     reads=merged_reads((first, second), condition.reads),
                     results=merged_results((first, second)))

    def _binary(self, node: tree_sitter.Node, context: Context, naming: str | None = None
                ) -> Value:
        operator = operator_of(node)
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if operator not in ("&&", "||", "??") or left is None or right is None:
            return self._other(node, context)
        condition = self.condition(left, context)
        guard = Guard(GuardKind.BOOL_OP, operator == "&&", self.text.location(left), condition)
        second = self.value(right, context.guarded(guard))
        return Value(ValueKind.OTHER, self.text.text(node),
                     reads=merged_reads((second,), condition.reads),
                     results=merged_results((self.values.get(left.id), second)))

    def _assignment(self, node: tree_sitter.Node, context: Context, naming: str | None = None
                    ) -> Value:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return self._other(node, context)
        target = access_path(left, self.text)
        value, condition = self.value_and_test(right, context,
                                               target if target and "[" not in target else None)
        self.assign(left, value, context, augmented=node.type != "assignment_expression",
                    condition=condition)
        if context.scope.qualname == MODULE_SCOPE and target is not None:
            self.facts.exports.extend(commonjs_exports(target, value, self.resolver.module,
                                                       self.text.location(node)))
        return value

    def assign(self, target: tree_sitter.Node, value: Value, context: Context, *,
               element: bool = False, augmented: bool = False,
               condition: Condition | None = None) -> None:
        """One Assignment per assigned name; destructuring marks each as an element."""
        bare = unwrap(target)
        if bare.type in ("object_pattern", "array_pattern", "object", "array"):
            # A loop target destructures an element of the value: no position in it.
            for name, position in pattern_positions(bare, None if element else ()):
                self._record(self.text.text(name), value, context, True, augmented,
                             position=position)
            for default in pattern_defaults(bare):
                self.value(default, context)
            return
        path = access_path(bare, self.text)
        if path is None or "[*]" in path or "()" in path:
            self.value(bare, context)       # a computed index or base runs calls too
        if path is not None:
            self._record(path, value, context, element, augmented, condition)

    def _record(self, target: str, value: Value, context: Context, element: bool,
                augmented: bool, condition: Condition | None = None,
                position: tuple[int | str, ...] | None = None) -> None:
        self.facts.assignments.append(Assignment(
            target, value, context.statement, context.scope.qualname, context.guards,
            augmented=augmented, element=element, condition=condition, position=position))

    # --- functions ------------------------------------------------------------------------

    def _function_value(self, node: tree_sitter.Node, context: Context,
                        naming: str | None = None) -> Value:
        return self.function(node, context, naming)

    def function(self, node: tree_sitter.Node, context: Context, naming: str | None, *,
                 kind: DefinitionKind | None = None, class_info: ClassInfo | None = None,
                 this_from_scope: bool | None = None, decorators: tuple[str, ...] = (),
                 qualname: str | None = None) -> Value:
        """Define a function value and read its body; its Value is a LAMBDA naming it."""
        location = self.text.location(node)
        own_name = node.child_by_field_name("name") if node.type in (
            "function_expression", "function", "generator_function") else None
        if qualname is None:
            wanted = naming or (self.text.text(own_name) if own_name is not None else None)
            if wanted is None:
                wanted = f"<lambda>@{location.line}:{location.column}"
            qualname = self.facts.qualname(context.scope.child_qualname(wanted), location)
        if kind is None:
            kind = DefinitionKind.LAMBDA if naming is None and own_name is None \
                else DefinitionKind.FUNCTION
        name = "<lambda>" if kind is DefinitionKind.LAMBDA else qualname.rsplit(".", 1)[-1]
        if this_from_scope is None:
            this_from_scope = node.type == "arrow_function"
        this = class_info if class_info is not None else (
            context.scope.class_info if this_from_scope else None)
        scope = self.builder.function_scope(node, qualname, context.scope, this)
        parameters, unpacked = self.parameters(node, context)
        self.facts.definitions.append(Definition(
            qualname=qualname, name=name, kind=kind, location=location,
            scope=context.scope.qualname, parameters=parameters, decorators=decorators,
            is_async=any(child.type == "async" for child in node.children),
            returns=self._returned_type(node, context), locals=tuple(sorted(scope.bindings))))
        inner = context.entering(scope)
        for target, source in unpacked:
            self._record(target, Value(ValueKind.NAME, source, ref=source, reads=(source,)),
                         inner.at(location), True, False)
        body = node.child_by_field_name("body")
        if body is not None and body.type == "statement_block":
            self.read_block(statements_of(body), inner.at(location))
        elif body is not None:
            returned, condition = self.value_and_test(body, inner.at(self.text.location(body)))
            self.facts.returns.append(Return(returned, self.text.location(body), qualname,
                                             condition=condition))
        return Value(ValueKind.LAMBDA, self.text.text(node), ref=qualname)

    def parameters(self, node: tree_sitter.Node, context: Context
                   ) -> tuple[tuple[Parameter, ...], list[tuple[str, str]]]:
        """Parameters (defaults read in `context`), and for each destructured parameter the
        names it unpacks: `({ to, body })` is a positional parameter `{to,body}` followed by
        keyword parameters `to` and `body` (the model fills them in a tool's execute)."""
        found: list[Parameter] = []
        unpacked: list[tuple[str, str]] = []
        for parameter in parameter_nodes(node):
            default = None if parameter.default is None else self.value(parameter.default,
                                                                        context)
            annotation = _annotation_text(parameter, self.text)
            kind = "var_positional" if parameter.rest else "positional"
            pattern = parameter.pattern
            if pattern is None:
                continue
            if pattern.type == "identifier":
                typed = parameter.annotation
                found.append(Parameter(
                    self.text.text(pattern), annotation, default, kind,
                    type=None if parameter.rest else self.resolver.annotation(typed,
                                                                              context.scope),
                    generic=self.resolver.generic(typed, context.scope)))
                continue
            names = [self.text.text(name) for name in pattern_names(pattern)]
            for default_node in pattern_defaults(pattern):
                self.value(default_node, context)
            brackets = "[]" if pattern.type == "array_pattern" else "{}"
            synthetic = brackets[0] + ",".join(names) + brackets[1]
            found.append(Parameter(synthetic, annotation, default, kind))
            found.extend(Parameter(name, None, None, "keyword") for name in names)
            unpacked.extend((name, synthetic) for name in names)
        return tuple(found), unpacked


    def _returned_type(self, node: tree_sitter.Node, context: Context) -> str | None:
        """The declared return class (`(): AMIClient`, `(): Promise<AMIClient>`)."""
        annotation = node.child_by_field_name("return_type")
        if annotation is not None and annotation.named_children:
            inner = annotation.named_children[0]
            if inner.type == "generic_type" and inner.named_children and \
                    self.text.text(inner.named_children[0]) == "Promise":
                arguments = inner.child_by_field_name("type_arguments")
                if arguments is not None and len(arguments.named_children) == 1:
                    return self.resolver.annotation(arguments.named_children[0], context.scope)
                return None
        return self.resolver.annotation(annotation, context.scope)


def _joined(naming: str | None, key: str | None) -> str | None:
    if key is None or not _is_name(key):
        return None
    return key if naming is None else f"{naming}.{key}"


def _is_name(key: str) -> bool:
    return key.replace("$", "_").replace("#", "_").isidentifier()


def _annotation_text(parameter: ParameterNode, text: SourceText) -> str | None:
    if parameter.annotation is None:
        return None
    return text.text(parameter.annotation, None).lstrip(":?").strip()


_Reader = Callable[[ExpressionReader, Any, Context, "str | None"], Value]
_READERS: dict[str, _Reader] = {
    "identifier": ExpressionReader._name,
    "shorthand_property_identifier": ExpressionReader._name,
    "this": ExpressionReader._name,
    "member_expression": ExpressionReader._reference,
    "subscript_expression": ExpressionReader._reference,
    "call_expression": ExpressionReader._call,
    "new_expression": ExpressionReader._new,
    "await_expression": ExpressionReader._await,
    "template_string": ExpressionReader._template,
    "unary_expression": ExpressionReader._unary,
    "spread_element": ExpressionReader._spread,
    "object": ExpressionReader._object,
    "array": ExpressionReader._array,
    "ternary_expression": ExpressionReader._ternary,
    "binary_expression": ExpressionReader._binary,
    "assignment_expression": ExpressionReader._assignment,
    "augmented_assignment_expression": ExpressionReader._assignment,
    "arrow_function": ExpressionReader._function_value,
    "function_expression": ExpressionReader._function_value,
    "function": ExpressionReader._function_value,
    "generator_function": ExpressionReader._function_value,
    "class": ExpressionReader._opaque,
    "regex": ExpressionReader._opaque,
    "ERROR": ExpressionReader._opaque,
    **{kind: ExpressionReader._transparent for kind in TRANSPARENT},
}
