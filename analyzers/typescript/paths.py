"""Access paths (`resp.choices[0].message.content`) and resolved dotted names of expressions.

An access path is the expression as written, normalised as in the Python front-end: optional
chaining and non-null assertions are dropped (`a?.b!.c` is `a.b.c`), literal subscripts keep
their key (`a["k"]`, `a[0]`), other subscripts are `[*]`, a call in a chain is `f()`.
Resolution maps an expression to the dotted name it denotes through imports, local
definitions, constructor-typed instances (`const c = new OpenAI()`, `this.c = new OpenAI()` in
a constructor, class fields, typed parameters) and `this.method`; anything else is None. An
optional type (`OpenAI | undefined`, `OpenAI | null`) declares its class, and a default
(`client ?? new OpenAI()`, `client || new OpenAI()`, `c ? new OpenAI() : null`) names the
library class its alternatives agree on, an unknown or nullish alternative aside, as in the
Python front-end.
"""

from __future__ import annotations

from collections.abc import Container

import tree_sitter

from topo.analyzers.classes import member
from topo.analyzers.typescript.scopes import ClassInfo, Scope, governing, lookup
from topo.analyzers.typescript.spans import SourceText
from topo.analyzers.typescript.values import number_literal, string_value

__all__ = ["Resolver", "access_path", "unwrap", "TRANSPARENT"]

# Wrappers that do not change the value: `(x)`, `x!`, `x as T`, `x satisfies T`, `<T>x`.
TRANSPARENT = frozenset({"parenthesized_expression", "non_null_expression", "as_expression",
                         "satisfies_expression", "type_assertion"})

# Values and types that say "nothing here": an alternative or a union member that adds no class.
_NULLISH = frozenset({"null", "undefined"})
_DEFAULTING = frozenset({"||", "??"})

# The child a chain continues through, toward the name it is rooted in.
_CHAIN_BASES = {"member_expression": "object", "call_expression": "function",
                "new_expression": "constructor"}


def unwrap(node: tree_sitter.Node) -> tree_sitter.Node:
    """The expression inside type assertions, non-null assertions and parentheses."""
    while node.type in TRANSPARENT:
        inner = node.named_children[0] if node.type != "type_assertion" else \
            node.named_children[-1]
        if inner is None:
            break
        node = inner
    return node


def _top(name: str) -> str:
    """The first segment of a module path or dotted name (`src` of `src/deps.AppDeps`)."""
    return name.split("/", 1)[0].split(".", 1)[0]


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def subscript_key(index: tree_sitter.Node | None, text: SourceText) -> str:
    """`["action"]`, `[0]`, `[-1]` for a literal index; `[*]` otherwise."""
    if index is None:
        return "[*]"
    index = unwrap(index)
    if index.type == "string":
        return "[" + _quote(string_value(index, text) or "") + "]"
    if index.type == "number":
        number = number_literal(text.text(index))
        if isinstance(number, int):
            return f"[{number}]"
    if index.type == "unary_expression" and text.text(index).replace(" ", "").startswith("-"):
        argument = index.child_by_field_name("argument")
        if argument is not None and argument.type == "number":
            number = number_literal(text.text(argument))
            if isinstance(number, int):
                return f"[-{number}]"
    return "[*]"


def access_path(node: tree_sitter.Node, text: SourceText) -> str | None:
    """The normalised access path of a name/member/subscript chain, else None."""
    node = unwrap(node)
    match node.type:
        case "identifier" | "this" | "super" | "shorthand_property_identifier":
            return text.text(node)
        case "member_expression":
            base = node.child_by_field_name("object")
            attribute = node.child_by_field_name("property")
            head = None if base is None else access_path(base, text)
            if head is None or attribute is None:
                return None
            return f"{head}.{text.text(attribute)}"
        case "subscript_expression":
            base = node.child_by_field_name("object")
            head = None if base is None else access_path(base, text)
            return None if head is None else head + subscript_key(
                node.child_by_field_name("index"), text)
        case "call_expression" | "new_expression":
            function = node.child_by_field_name(
                "function" if node.type == "call_expression" else "constructor")
            head = None if function is None else access_path(function, text)
            return None if head is None else head + "()"
    return None


def is_capitalised(node: tree_sitter.Node, text: SourceText) -> bool:
    """Whether the written function name looks like a class (`OpenAI`, `sdk.Client`)."""
    node = unwrap(node)
    if node.type == "member_expression":
        node = node.child_by_field_name("property") or node
    return text.text(node)[:1].isupper()


class Resolver:
    """Resolves expressions to dotted names within one module."""

    __slots__ = ("module", "text", "classes", "wrappers")

    def __init__(self, module: str, text: SourceText,
                 wrappers: Container[str] = frozenset()) -> None:
        self.module = module
        self.text = text
        self.wrappers = wrappers    # `util.promisify`: the result denotes the first argument
        self.classes: dict[str, ClassInfo] = {}   # resolved class name → info (this module)

    def local_name(self, qualname: str) -> str:
        return f"{self.module}.{qualname}" if self.module else qualname

    def resolve(self, node: tree_sitter.Node, scope: Scope) -> str | None:
        node = unwrap(node)
        match node.type:
            case "identifier" | "shorthand_property_identifier" | "type_identifier":
                return lookup(scope, self.text.text(node), node.start_byte)
            case "member_expression":
                base = node.child_by_field_name("object")
                attribute = node.child_by_field_name("property")
                if base is None or attribute is None:
                    return None
                name = self.text.text(attribute)
                if unwrap(base).type == "this":
                    info = scope.class_info
                    return None if info is None else self.this_attribute(info, name)
                head = self.resolve(base, scope)
                return None if head is None else f"{head}.{name}"
            case "nested_type_identifier":
                module, name = node.named_children[0], node.named_children[-1]
                head = self.resolve(module, scope)
                return None if head is None else f"{head}.{self.text.text(name)}"
            case "new_expression":
                return self.constructed(node.child_by_field_name("constructor"), scope)
            case "call_expression":
                function = node.child_by_field_name("function")
                if function is None:
                    return None
                if self._is_namespace(function, scope):
                    return self.constructed(function, scope)
                # Resolved once: a chain (`new StateGraph(…).addNode(…)…`) is read once per
                # link, not twice (which doubles per link).
                head = self.resolve(function, scope)
                wrapped = self._wrapped(node, head, scope)
                if wrapped is not None:
                    return wrapped
                if is_capitalised(function, self.text) or self._is_external(function, scope):
                    return head
                return None
        return None

    def _wrapped(self, call: tree_sitter.Node, function: str | None,
                 scope: Scope) -> str | None:
        """`promisify(exec)` is `child_process.exec` when `util.promisify` is a pack wrapper
        (`function` is the resolved name of what is called)."""
        arguments = call.child_by_field_name("arguments")
        if not self.wrappers or arguments is None or not arguments.named_children:
            return None
        if function is None or function not in self.wrappers:
            return None
        return self.resolve(arguments.named_children[0], scope)

    def constructed(self, constructor: tree_sitter.Node | None, scope: Scope) -> str | None:
        """The type of `new constructor()`: a whole module stands for its default export."""
        if constructor is None:
            return None
        resolved = self.resolve(constructor, scope)
        if resolved is not None and self._is_namespace(constructor, scope):
            return f"{resolved}.default"
        return resolved

    def is_external_value(self, value: tree_sitter.Node | None, scope: Scope) -> bool:
        """Whether a bound value comes from a package: `new ChatOpenAI()`, `drizzle(pool)`,
        `await pkg.connect()` (methods on it are then named through the package)."""
        if value is None:
            return False
        value = unwrap(value)
        if value.type == "await_expression" and value.named_children:
            value = unwrap(value.named_children[0])
        if value.type == "new_expression":
            value = value.child_by_field_name("constructor") or value
        return value.type in ("identifier", "member_expression", "call_expression") and \
            self._is_external(value, scope)

    def _is_external(self, node: tree_sitter.Node, scope: Scope) -> bool:
        """Whether a function expression is rooted in a package import or a global."""
        node = unwrap(node)
        while node.type in _CHAIN_BASES:
            # `new ChatAnthropic({...}).withStructuredOutput(s)` is rooted in the constructor
            inner = node.child_by_field_name(_CHAIN_BASES[node.type])
            if inner is None:
                return False
            node = unwrap(inner)
        if node.type != "identifier":
            return False
        name = self.text.text(node)
        found = governing(scope, name, node.start_byte)
        if found is None:
            return lookup(scope, name, node.start_byte) is not None   # a global
        return found.external

    def _is_namespace(self, node: tree_sitter.Node, scope: Scope) -> bool:
        node = unwrap(node)
        if node.type != "identifier":
            return False
        found = governing(scope, self.text.text(node), node.start_byte)
        return found is not None and found.namespace

    def instance(self, value: tree_sitter.Node | None, scope: Scope) -> str | None:
        """What a name bound to `value` denotes: a constructed instance or an alias."""
        if value is None:
            return None
        value = unwrap(value)
        match value.type:
            case "new_expression" | "call_expression" | "identifier" | "member_expression":
                return self.resolve(value, scope)
            case "await_expression":
                inner = value.named_children[0] if value.named_children else None
                return self.instance(inner, scope)
            case "binary_expression":
                operator = value.child_by_field_name("operator")
                if operator is not None and operator.type in _DEFAULTING:
                    return self._agreed(value.child_by_field_name("left"),
                                        value.child_by_field_name("right"), scope)
            case "ternary_expression":
                return self._agreed(value.child_by_field_name("consequence"),
                                    value.child_by_field_name("alternative"), scope)
        return None

    def _agreed(self, first: tree_sitter.Node | None, second: tree_sitter.Node | None,
                scope: Scope) -> str | None:
        """The library class two alternatives agree on (`client ?? new OpenAI()`); an
        alternative that names nothing (null, an untyped parameter, a helper's result) does
        not disagree. A class of the file's own top-level directory names none."""
        found = {resolved for node in (first, second) if node is not None
                 and unwrap(node).type not in _NULLISH
                 and (resolved := self.instance(node, scope)) is not None}
        if len(found) != 1:
            return None
        agreed = found.pop()
        return None if _top(agreed) == _top(self.module) else agreed

    def annotation(self, annotation: tree_sitter.Node | None, scope: Scope) -> str | None:
        """A declared class type (`client: OpenAI`, `c: sdk.Client`), named through imports
        and local classes only."""
        if annotation is None:
            return None
        if annotation.type == "type_annotation":
            if not annotation.named_children:
                return None
            annotation = annotation.named_children[0]
        if annotation.type == "union_type":     # `OpenAI | undefined`: an optional OpenAI
            members = [member for member in annotation.named_children
                       if not (member.type == "literal_type" and member.named_children
                               and member.named_children[0].type in _NULLISH)
                       and not (member.type == "predefined_type"
                                and self.text.text(member) in ("undefined", "null", "void"))]
            return self.annotation(members[0], scope) if len(members) == 1 else None
        if annotation.type not in ("type_identifier", "nested_type_identifier"):
            return None
        return self.resolve(annotation, scope)

    def generic(self, annotation: tree_sitter.Node | None, scope: Scope
                ) -> tuple[str | None, ...]:
        """`RunContext<Ctx>` → (`@openai/agents.RunContext`, `app.Ctx`): the generic class
        then each argument's class (None for one that names none); () for anything else."""
        if annotation is not None and annotation.type == "type_annotation":
            annotation = annotation.named_children[0] if annotation.named_children else None
        if annotation is None or annotation.type != "generic_type":
            return ()
        name = annotation.child_by_field_name("name")
        arguments = annotation.child_by_field_name("type_arguments")
        head = self.annotation(name, scope)
        if head is None or arguments is None:
            return ()
        return (head, *(self.annotation(argument, scope)
                        for argument in arguments.named_children))

    def this_attribute(self, info: ClassInfo, attribute: str) -> str | None:
        """`this.attribute` in `info`'s methods (see `analyzers.classes.member`)."""
        return member(self.classes, info, attribute)
