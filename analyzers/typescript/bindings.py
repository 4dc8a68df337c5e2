"""Building scopes: a shallow scan of a body for every name it binds, before the body is read.

As in the Python front-end, the scan runs once per function when the walker enters it, so that
a reference resolves against bindings written later (function declarations are hoisted) and a
local binding shadows an import for the whole function. Nested functions are not entered here.
"""

from __future__ import annotations

from collections.abc import Iterable

import tree_sitter

from topo.analyzers.typescript.imports import ModuleLinks
from topo.analyzers.typescript.paths import Resolver, unwrap
from topo.analyzers.typescript.scopes import Binding, ClassInfo, Scope, ScopeKind
from topo.analyzers.typescript.syntax import (CLASS_TYPES, DECLARATION_TYPES, FUNCTION_TYPES,
                                              class_members, parameter_nodes, pattern_names,
                                              statements_of, written_bases)

__all__ = ["ScopeBuilder"]

_BLOCKS = frozenset({"statement_block", "if_statement", "else_clause", "for_statement",
                     "for_in_statement", "while_statement", "do_statement", "try_statement",
                     "catch_clause", "finally_clause", "switch_statement", "switch_body",
                     "switch_case", "switch_default", "labeled_statement", "with_statement"})


class ScopeBuilder:
    __slots__ = ("resolver", "links", "_function_scopes")

    def __init__(self, resolver: Resolver, links: ModuleLinks) -> None:
        self.resolver = resolver
        self.links = links
        self._function_scopes: dict[int, Scope] = {}

    def scan(self, statements: Iterable[tree_sitter.Node], scope: Scope) -> Scope:
        self._scan(statements, scope, True)
        return scope

    def function_scope(self, node: tree_sitter.Node, qualname: str, parent: Scope,
                       class_info: ClassInfo | None) -> Scope:
        """The scope of a function body; `class_info` is the class its `this` sees."""
        cached = self._function_scopes.get(node.id)
        if cached is not None:
            return cached
        scope = Scope(qualname, ScopeKind.FUNCTION, parent, class_info=class_info)
        for parameter in parameter_nodes(node):
            names = list(pattern_names(parameter.pattern))
            typed = None
            if len(names) == 1 and parameter.pattern is not None \
                    and parameter.pattern.type == "identifier" and not parameter.rest:
                typed = self.resolver.annotation(parameter.annotation, parent)
            for name in names:
                scope.bind(self.resolver.text.text(name), Binding(0, typed, True))
        body = node.child_by_field_name("body")
        if body is not None and body.type == "statement_block":
            self._scan(statements_of(body), scope, True)
        self._function_scopes[node.id] = scope
        return scope

    def class_info(self, node: tree_sitter.Node, qualname: str, scope: Scope) -> ClassInfo:
        """What `this.x` means in the methods of class `node` (registered for `extends`)."""
        resolver = self.resolver
        info = ClassInfo(resolver.local_name(qualname), bases=self._bases(node, scope))
        resolver.classes[info.resolved] = info
        declared_fields: dict[str, str] = {}
        for member in class_members(node):
            name_node = member.child_by_field_name("name")
            name = resolver.text.text(name_node) if name_node is not None else ""
            if member.type == "method_definition":
                typed = self._getter_type(member, scope)
                if typed is not None:
                    # `get page(): Page`: `this.page` is a Page, as a typed field would be
                    info.set_attribute(name, typed)
                    continue
                info.methods.add(name)
                if name == "constructor":
                    self._constructor(member, f"{qualname}.constructor", scope, info)
            elif member.type == "public_field_definition" and name:
                value = member.child_by_field_name("value")
                if value is not None and unwrap(value).type in FUNCTION_TYPES:
                    info.methods.add(name)
                    continue
                typed = resolver.instance(value, scope) if value is not None else None
                declared = resolver.annotation(member.child_by_field_name("type"), scope)
                info.set_attribute(name, typed or declared)
                if declared is not None:
                    declared_fields[name] = declared
        # A declared field type (`private client: TwitterApi`) holds whatever the constructor
        # assigns (`this.client = args.client`): the compiler checks the assignment against it.
        info.attributes.update(declared_fields)
        return info

    def declared_fields(self, node: tree_sitter.Node, scope: Scope
                        ) -> tuple[tuple[str, str | None], ...]:
        """The fields a class declares with a type (`db: Pool`), each with its class or None
        (`any`, a union, an object type)."""
        fields: dict[str, str | None] = {}
        for member in class_members(node):
            name_node = member.child_by_field_name("name")
            written = member.child_by_field_name("type")
            if member.type != "public_field_definition" or name_node is None or written is None:
                continue
            name = self.resolver.text.text(name_node)
            declared = self.resolver.annotation(written, scope)
            fields[name] = declared if fields.get(name, declared) == declared else None
        return tuple(fields.items())

    def declared_annotations(self, node: tree_sitter.Node) -> tuple[tuple[str, str], ...]:
        """Each field the class declares with a type, with the type as written (`number`)."""
        found: dict[str, str] = {}
        for member in class_members(node):
            name_node = member.child_by_field_name("name")
            written = member.child_by_field_name("type")
            if member.type != "public_field_definition" or name_node is None or written is None:
                continue
            text = self.resolver.text.text(written).lstrip(":").strip()
            if text:
                found.setdefault(self.resolver.text.text(name_node), text)
        return tuple(found.items())

    def _getter_type(self, member: tree_sitter.Node, scope: Scope) -> str | None:
        """The declared class a getter returns (`get page(): Page`), else None."""
        if not any(child.type == "get" for child in member.children):
            return None
        return self.resolver.annotation(member.child_by_field_name("return_type"), scope)

    def _bases(self, node: tree_sitter.Node, scope: Scope) -> tuple[str, ...]:
        resolved = (self.resolver.resolve(base, scope) for base in written_bases(node))
        return tuple(base for base in resolved if base is not None)

    def _constructor(self, method: tree_sitter.Node, qualname: str, scope: Scope,
                     info: ClassInfo) -> None:
        """Parameter properties (`private client: OpenAI`) and `this.x = new C()` anywhere in
        the constructor's own body."""
        for parameter in parameter_nodes(method):
            if parameter.property and parameter.pattern is not None \
                    and parameter.pattern.type == "identifier":
                info.set_attribute(self.resolver.text.text(parameter.pattern),
                                   self.resolver.annotation(parameter.annotation, scope))
        inner = self.function_scope(method, qualname, scope, info)
        self._this_assignments(method.child_by_field_name("body"), inner, info)

    def _this_assignments(self, node: tree_sitter.Node | None, scope: Scope,
                          info: ClassInfo) -> None:
        if node is None:
            return
        for child in node.named_children:
            if child.type in FUNCTION_TYPES or child.type in CLASS_TYPES:
                continue
            if child.type == "assignment_expression":
                left = child.child_by_field_name("left")
                if left is not None and left.type == "member_expression":
                    base = left.child_by_field_name("object")
                    attribute = left.child_by_field_name("property")
                    if base is not None and base.type == "this" and attribute is not None:
                        info.set_attribute(self.resolver.text.text(attribute),
                                           self.resolver.instance(
                                               child.child_by_field_name("right"), scope))
            self._this_assignments(child, scope, info)

    def _scan(self, statements: Iterable[tree_sitter.Node], scope: Scope,
              top_level: bool) -> None:
        text = self.resolver.text
        for statement in statements:
            kind = statement.type
            if kind in DECLARATION_TYPES:
                for declarator in statement.named_children:
                    if declarator.type == "variable_declarator":
                        self._declarator(declarator, scope, top_level)
            elif kind in ("function_declaration", "generator_function_declaration",
                          "class_declaration", "abstract_class_declaration",
                          "enum_declaration"):
                name = statement.child_by_field_name("name")
                if name is not None:
                    resolved = self.resolver.local_name(scope.child_qualname(text.text(name)))
                    hoisted = kind.endswith("function_declaration")
                    scope.bind(text.text(name), Binding(0 if hoisted else statement.start_byte,
                                                        resolved, top_level))
            elif kind == "import_statement":
                for imported in self.links.imports.get(statement.id, ()):
                    if imported.alias:
                        scope.bind(imported.alias, Binding(0, imported.resolved, True,
                                                           imported.namespace,
                                                           imported.external))
            elif kind == "export_statement":
                declaration = statement.child_by_field_name("declaration")
                if declaration is not None:
                    self._scan([declaration], scope, top_level)
            elif kind in _BLOCKS:
                self._scan_block(statement, scope)

    def _scan_block(self, statement: tree_sitter.Node, scope: Scope) -> None:
        text = self.resolver.text
        if statement.type == "for_in_statement":
            for name in pattern_names(statement.child_by_field_name("left")):
                scope.bind(text.text(name), Binding(statement.start_byte, None, False))
        elif statement.type == "catch_clause":
            for name in pattern_names(statement.child_by_field_name("parameter")):
                scope.bind(text.text(name), Binding(statement.start_byte, None, False))
        children = [child for child in statement.named_children
                    if child.type not in ("parenthesized_expression", "comment")]
        self._scan(children, scope, False)

    def _declarator(self, declarator: tree_sitter.Node, scope: Scope, top_level: bool) -> None:
        text = self.resolver.text
        target = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        position = declarator.end_byte
        imported = self.links.imports.get(declarator.id)
        if imported is not None:
            for name in imported:
                if name.alias:
                    scope.bind(name.alias, Binding(position, name.resolved, top_level,
                                                   name.namespace and not name.instance,
                                                   name.external))
            return
        if target is None:
            return
        if target.type == "identifier":
            name = text.text(target)
            if value is not None and unwrap(value).type in FUNCTION_TYPES | CLASS_TYPES:
                resolved = self.resolver.local_name(scope.child_qualname(name))
                scope.bind(name, Binding(position, resolved, top_level))
                return
            resolved = self.resolver.instance(value, scope) or self.resolver.annotation(
                declarator.child_by_field_name("type"), scope)
            external = resolved is not None and self.resolver.is_external_value(value, scope)
            scope.bind(name, Binding(position, resolved, top_level, external=external))
            return
        for name in pattern_names(target):
            scope.bind(text.text(name), Binding(position, None, top_level))
