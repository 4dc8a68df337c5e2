"""Access paths (`resp.choices[0].message.content`) and resolved dotted names of expressions.

An access path is the expression as written, normalised: literal subscripts keep their key,
other subscripts become `[*]`, a call inside a chain is written `f()`. Resolution maps an
expression to the dotted name it denotes through imports, local definitions, constructor-typed
instances (`client = OpenAI()`; `self.client = OpenAI()` in `__init__`), `self.method` and
operators whose method builds an instance (`prompt | llm`: the model's `__ror__`); anything
else is None. An optional type (`Optional[OpenAI]`, `OpenAI | None`) declares its class: where
the value is not None it is one. A default (`client or OpenAI()`, `OpenAI() if c else None`)
names the class its alternatives agree on, an unknown or None alternative aside: the fallback
shows the type the code expects there. Only a library's class, though (not one of the file's
own top-level package): a client is what such a default is read for, and a framework's
defaults of its own state (`run_config or RunConfig()`) would carry every caller's values
through its internals (on openai-agents-python: 2,300 more model branches, a 4x document).
"""

from __future__ import annotations

from collections.abc import Container

import libcst as cst

from topo.analyzers.classes import member
from topo.analyzers.python.scopes import (ClassInfo, Scope, binding_scope, lookup,
                                          sibling_instances)
from topo.analyzers.python.spans import SourceText

# The methods a binary operator calls, as in the data model (`a | b` is `a.__or__(b)`).
_DUNDERS: dict[type[cst.BaseBinaryOp], str] = {cst.BitOr: "__or__"}
_ANY = frozenset({"typing.Any", "typing_extensions.Any", "builtins.object"})
_OPTIONAL = frozenset({"typing.Optional", "typing_extensions.Optional"})
_UNION = frozenset({"typing.Union", "typing_extensions.Union"})

__all__ = ["Resolver", "access_path", "dotted_name", "subscript_key"]



def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for a chain of names and attributes, else None."""
    match node:
        case cst.Name(value=name):
            return name
        case cst.Attribute(value=base, attr=cst.Name(value=attribute)):
            head = dotted_name(base)
            return None if head is None else f"{head}.{attribute}"
    return None


def subscript_key(node: cst.Subscript) -> str:
    """`["action"]`, `[0]`, `[-1]` for one literal index; `[*]` otherwise."""
    if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        index = node.slice[0].slice.value
        match index:
            case cst.SimpleString():
                literal = index.evaluated_value
                if isinstance(literal, str):
                    return "[" + _quote(literal) + "]"
            case cst.Integer():
                return f"[{index.value}]"
            case cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer(value=digits)):
                return f"[-{digits}]"
    return "[*]"


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def access_path(node: cst.BaseExpression) -> str | None:
    """The normalised access path of a name/attribute/subscript chain, else None."""
    match node:
        case cst.Name(value=name):
            return name
        case cst.Attribute(value=base, attr=cst.Name(value=attribute)):
            head = access_path(base)
            return None if head is None else f"{head}.{attribute}"
        case cst.Subscript(value=base):
            head = access_path(base)
            return None if head is None else head + subscript_key(node)
        case cst.Call(func=function):
            head = access_path(function)
            return None if head is None else head + "()"
    return None


class Resolver:
    """Resolves expressions to dotted names within one module. `factories` are the run's
    pack factories (calls whose results name methods), given by the per-file stage."""

    __slots__ = ("module", "text", "classes", "returns", "factories")

    def __init__(self, module: str, text: SourceText,
                 factories: Container[str] = frozenset()) -> None:
        self.module = module
        self.text = text
        self.factories = factories
        self.classes: dict[str, ClassInfo] = {}   # resolved class name → info (this module)
        self.returns: dict[str, str] = {}         # method of this module → its declared class

    def local_name(self, qualname: str) -> str:
        """The resolved name of a definition of this module."""
        return f"{self.module}.{qualname}" if self.module else qualname

    def is_constructor(self, resolved: str) -> bool:
        """A call of `resolved` builds an instance: a class of this module, a name spelt like
        a class (PEP 8 `CapWords`), or a pack factory (`memex.for_user(uid)`, a builder step
        `MemAgentBuilder().with_model(m)`), whose result names its methods through the call."""
        return resolved in self.classes or resolved.rsplit(".", 1)[-1][:1].isupper() \
            or resolved in self.factories

    def resolve(self, node: cst.BaseExpression, scope: Scope) -> str | None:
        match node:
            case cst.Name(value=name):
                found = lookup(scope, name, self.text.start(node))
                if found is None:
                    found = sibling_instances(scope, name)
                    if found is not None and self._own(found):
                        found = None    # the repository's own classes: which one is not known
                return found
            case cst.Attribute(value=base, attr=cst.Name(value=attribute)):
                if isinstance(base, cst.Name):
                    info = self._self_class(base, scope)
                    if info is not None:
                        return self.self_attribute(info, attribute)
                head = self.resolve(base, scope)
                if head is None:
                    return None
                info = self.classes.get(head)
                if info is not None:
                    # An instance of a class of this module: its typed attributes are known.
                    typed = self.self_attribute(info, attribute)
                    if typed is not None or attribute in info.attributes:
                        return typed
                return f"{head}.{attribute}"
            case cst.Call(func=function):
                head = self.resolve(function, scope)
                if head in self.returns:   # `def _resolve(self, p) -> Path`: a Path
                    return self.returns[head]
                return head if head is not None and self.is_constructor(head) else None
            case cst.BinaryOperation():
                return self._operation(node, scope)
            case cst.Subscript(value=base):
                # `Agent[Deps, Out]` parameterises a generic class: it still is `Agent`. An
                # ALL_CAPS table (`TOOLS["refund"]`) or any other subscript is no class.
                head = self.resolve(base, scope)
                last = head.rsplit(".", 1)[-1] if head else ""
                return head if head is not None and self.is_constructor(head) \
                    and not last.isupper() else None
        return None

    def _operation(self, node: cst.BinaryOperation, scope: Scope) -> str | None:
        """`a | b` as Python runs it: `A.__or__(b)`, else `B.__ror__(a)`, each an instance
        only when it builds one (a pack factory: LCEL `prompt | llm` is the model's
        `__ror__`, so `(prompt | llm).invoke` is named through the model)."""
        dunder = _DUNDERS.get(type(node.operator))
        if dunder is None:
            return None
        for operand, method in ((node.left, dunder), (node.right, "__r" + dunder[2:])):
            held = self.resolve(operand, scope)
            if held is not None and self.is_constructor(f"{held}.{method}"):
                return f"{held}.{method}"
        return None

    def instance(self, value: cst.BaseExpression | None, scope: Scope) -> str | None:
        """What a name bound to `value` denotes: a constructed instance or an alias."""
        match value:
            case cst.Call() | cst.Name() | cst.Attribute() | cst.BinaryOperation():
                return self.resolve(value, scope)
            case cst.Await(expression=inner):
                return self.instance(inner, scope)
            case cst.BooleanOperation(left=left, operator=cst.Or(), right=right):
                return self._agreed(left, right, scope)
            case cst.IfExp(body=body, orelse=orelse):
                return self._agreed(body, orelse, scope)
        return None

    def _agreed(self, first: cst.BaseExpression, second: cst.BaseExpression,
                scope: Scope) -> str | None:
        """The library class two alternatives agree on (`client or OpenAI()`); an alternative
        that names nothing (None, an untyped parameter, a helper's result) does not disagree.
        A class of the file's own top-level package names none (see the module docstring)."""
        found = {resolved for node in (first, second) if not _is_none(node)
                 and (resolved := self.instance(node, scope)) is not None}
        if len(found) != 1:
            return None
        agreed = found.pop()
        return None if self._own(agreed) else agreed

    def _own(self, resolved: str) -> bool:
        """`resolved` is in the file's own top-level package (the repository's, not a
        library's)."""
        return resolved.split(".", 1)[0] == self.module.split(".", 1)[0]

    def annotation(self, annotation: cst.Annotation | None, scope: Scope) -> str | None:
        """A declared class type (`client: OpenAI`), for a plain class-like name or an
        optional one (`Optional[OpenAI]`, `OpenAI | None`, `Union[OpenAI, None]`)."""
        if annotation is None:
            return None
        declared = self._optional(annotation.annotation, scope)
        if not isinstance(declared, (cst.Name, cst.Attribute)):
            return None
        resolved = self.resolve(declared, scope)
        return resolved if resolved is not None and self.is_constructor(resolved) else None

    def _optional(self, node: cst.BaseExpression, scope: Scope) -> cst.BaseExpression:
        """The type an optional annotation allows besides None; any other node as it is."""
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            if _is_none(node.right):
                return self._optional(node.left, scope)
            if _is_none(node.left):
                return self._optional(node.right, scope)
            return node
        if isinstance(node, cst.Subscript) and isinstance(node.value, (cst.Name, cst.Attribute)):
            head = self.resolve(node.value, scope)
            elements = [element.slice.value for element in node.slice
                        if isinstance(element.slice, cst.Index)]
            if len(elements) != len(node.slice):
                return node
            kept = [element for element in elements if not _is_none(element)]
            if (head in _OPTIONAL and len(elements) == 1) or \
                    (head in _UNION and len(kept) == 1 and len(elements) == 2):
                return kept[0] if kept else node
        return node

    def declared(self, annotation: cst.Annotation | None, scope: Scope) -> str | None:
        """A declared field's or parameter's class (an optional one's too); `Any` declares
        none (its methods are no `typing.Any.execute`), nor does a union of classes, another
        subscript or a string."""
        resolved = self.annotation(annotation, scope)
        return None if resolved in _ANY else resolved

    def generic(self, annotation: cst.Annotation | None, scope: Scope
                ) -> tuple[str | None, ...]:
        """`RunContext[Deps]` → (`pydantic_ai.RunContext`, `app.Deps`): the generic class
        then each argument's class (None for one that names none); () for anything else."""
        if annotation is None or not isinstance(annotation.annotation, cst.Subscript):
            return ()
        subscript = annotation.annotation
        if not isinstance(subscript.value, (cst.Name, cst.Attribute)):
            return ()
        head = self.resolve(subscript.value, scope)
        if head is None:
            return ()
        arguments: list[str | None] = []
        for element in subscript.slice:
            index = element.slice
            value = index.value if isinstance(index, cst.Index) else None
            arguments.append(self.declared(cst.Annotation(value), scope)
                             if isinstance(value, (cst.Name, cst.Attribute)) else None)
        return (head, *arguments)

    def _self_class(self, name: cst.Name, scope: Scope) -> ClassInfo | None:
        owner, _ = binding_scope(scope, name.value)
        if owner is not None and owner.self_name == name.value:
            return owner.class_info
        return None

    def self_attribute(self, info: ClassInfo, attribute: str) -> str | None:
        """`self.attribute` in `info`'s methods (see `analyzers.classes.member`)."""
        return member(self.classes, info, attribute)
