"""Walking statements: scopes, definitions, assignments, returns, exports and the guard stack.

The walk mirrors the Python front-end's: it is recursive over statements because guards are
block-structured (an `if` guards its branches, an early `return`/`throw`/`continue`/`break`
guards the rest of its block, a `try` guards its body and hands its calls to its `catch`).
`switch` cases are MATCH_CASE guards comparing the subject with the case value (`===` is
`==`); a C-style `for` is a WHILE on its test; `for … of`/`for … in` is a LOOP over the
iterable. In production one unreadable statement becomes an Unknown and the walk goes on;
under tests (`strict`) it raises.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import tree_sitter

from topo.analyzers.ir import (Assignment, Comparison, Condition, Definition, DefinitionKind,
                               Export, Guard, GuardedBlock, GuardKind, Import, Return, Value)
from topo.analyzers.typescript.bindings import ScopeBuilder
from topo.analyzers.typescript.expressions import ExpressionReader
from topo.analyzers.collect import Context, Facts, read_block
from topo.analyzers.typescript.imports import ModuleLinks
from topo.analyzers.typescript.paths import Resolver, unwrap
from topo.analyzers.typescript.scopes import ClassInfo, Scope, ScopeKind
from topo.analyzers.typescript.spans import SourceText
from topo.analyzers.typescript.syntax import (CLASS_TYPES, DECLARATION_TYPES, FUNCTION_TYPES,
                                              SKIPPED_STATEMENTS, class_members, exit_kind,
                                              statements_of, written_bases)
from topo.analyzers.model import Location, Unknown

__all__ = ["StatementWalker"]

Statement = tree_sitter.Node


class StatementWalker:
    __slots__ = ("text", "reader", "builder", "facts", "links", "strict", "exported")

    def __init__(self, text: SourceText, resolver: Resolver, builder: ScopeBuilder,
                 facts: Facts, links: ModuleLinks, strict: bool) -> None:
        self.text = text
        self.reader = ExpressionReader(text, resolver, builder, facts, self.block)
        self.builder = builder
        self.facts = facts
        self.links = links
        self.strict = strict
        self.exported: set[str] = set()      # module-level names exported by this file

    def block(self, statements: Sequence[Statement], context: Context) -> None:
        """Read a block; an `if … return` adds an EARLY_EXIT guard to the statements after it."""
        read_block(statements, context, self._statement_safely)

    def _statement_safely(self, statement: Statement, context: Context) -> tuple[Guard, ...]:
        if self.strict:
            return self.statement(statement, context)
        try:
            return self.statement(statement, context)
        except RecursionError:
            raise
        except Exception as error:  # noqa: BLE001 - production degrades to an Unknown
            self.facts.unreadable(statement.start_point[0] + 1, "could not read",
                                  statement.type, error)
            return ()

    def statement(self, statement: Statement, context: Context) -> tuple[Guard, ...]:
        """Read one statement; return the early-exit guards it adds for what follows."""
        kind = statement.type
        handler = _STATEMENTS.get(kind)
        if handler is not None:
            return handler(self, statement, context) or ()
        if kind in SKIPPED_STATEMENTS or kind == "ERROR" or statement.is_missing:
            return ()
        if self.strict:
            raise TypeError(f"unexpected statement {kind}")
        for child in statement.named_children:
            self.reader.value(child, context.at(self.text.location(statement)))
        return ()

    # --- simple statements ----------------------------------------------------------------

    def _expression(self, node: Statement, context: Context) -> None:
        local = context.at(self.text.location(node))
        for child in node.named_children:
            if child.type == "internal_module":       # `namespace N { … }`
                self.block(statements_of(child.child_by_field_name("body")), local)
            elif child.type != "comment":
                self.reader.value(child, local)

    def _declaration(self, node: Statement, context: Context) -> None:
        local = context.at(self.text.location(node))
        for declarator in node.named_children:
            if declarator.type == "variable_declarator":
                self._declarator(declarator, local)

    def _declarator(self, declarator: tree_sitter.Node, context: Context) -> None:
        target = declarator.child_by_field_name("name")
        value_node = declarator.child_by_field_name("value")
        imported = self.links.imports.get(declarator.id)
        if imported is not None:
            location = self.text.location(declarator)
            for name in imported:
                self.facts.imports.append(Import(name.module, name.name, name.alias, location,
                                                 context.scope.qualname))
            return
        error = self.links.errors.get(declarator.id)
        if error is not None:
            self.facts.unknowns.append(Unknown(self.text.path, error,
                                               declarator.start_point[0] + 1))
        if target is None or value_node is None:
            return
        naming = self.text.text(target) if target.type == "identifier" else None
        if naming is not None and unwrap(value_node).type in CLASS_TYPES:
            self._class(unwrap(value_node), context, naming)
            return
        value, condition = self.reader.value_and_test(value_node, context, naming)
        self.reader.assign(target, value, context, condition=condition)

    def _return(self, node: Statement, context: Context) -> tuple[Guard, ...]:
        local = context.at(self.text.location(node))
        children = [child for child in node.named_children if child.type != "comment"]
        value, condition = self.reader.value_and_test(children[0], local) if children \
            else (None, None)
        self.facts.returns.append(Return(value, local.statement, context.scope.qualname,
                                         context.guards, condition=condition))
        return ()

    def _throw(self, node: Statement, context: Context) -> None:
        local = context.at(self.text.location(node))
        for child in node.named_children:
            if child.type != "comment":
                self.reader.value(child, local)

    def _import(self, node: Statement, context: Context) -> None:
        location = self.text.location(node)
        error = self.links.errors.get(node.id)
        if error is not None:
            self.facts.unknowns.append(Unknown(self.text.path, error, location.line))
        for name in self.links.imports.get(node.id, ()):
            self.facts.imports.append(Import(name.module, name.name, name.alias, location,
                                             context.scope.qualname))

    def _export(self, node: Statement, context: Context) -> None:
        location = self.text.location(node)
        module = self.reader.resolver.module
        if node.id in self.links.reexports:
            for item in self.links.reexports[node.id]:
                self.facts.exports.append(Export(item.name, item.module, item.source_name,
                                                 location))
            return
        if node.id in self.links.errors:
            self.facts.unknowns.append(Unknown(self.text.path, self.links.errors[node.id],
                                               location.line))
            return
        is_default = any(child.type == "default" for child in node.children)
        declaration = node.child_by_field_name("declaration")
        if declaration is not None:
            names = _declared_names(declaration, self.text)
            self.exported.update(names)
            if is_default and names:
                self.facts.exports.append(Export("default", module, names[0], location))
            if declaration.type in ("function_declaration", "generator_function_declaration",
                                    "class_declaration", "abstract_class_declaration") \
                    and not names:
                self._anonymous_default(declaration, context.at(location))
            else:
                self.statement(declaration, context)
            return
        value = node.child_by_field_name("value")
        if value is not None:
            self._default_value(value, context.at(location), location)
            return
        for clause in node.named_children:
            if clause.type != "export_clause":
                continue
            for specifier in clause.named_children:
                name = specifier.child_by_field_name("name")
                alias = specifier.child_by_field_name("alias") or name
                if name is None or alias is None:
                    continue
                written, exported = self.text.text(name), self.text.text(alias)
                self.exported.add(written)
                if exported != written:
                    self.facts.exports.append(Export(exported, module, written, location))

    def _default_value(self, value: tree_sitter.Node, context: Context,
                       location: Location) -> None:
        bare = unwrap(value)
        if bare.type == "identifier":
            name = self.text.text(bare)
            self.exported.add(name)
            self.facts.exports.append(Export("default", self.reader.resolver.module, name,
                                             location))
            self.reader.value(value, context)
        elif bare.type in CLASS_TYPES:
            self._class(bare, context, "default")
            self.exported.add("default")
        else:
            self.reader.value(value, context, "default")
            if bare.type in FUNCTION_TYPES:
                self.exported.add("default")

    def _anonymous_default(self, declaration: tree_sitter.Node, context: Context) -> None:
        if declaration.type in CLASS_TYPES:
            self._class(declaration, context, "default")
        else:
            self.reader.function(declaration, context, "default", kind=DefinitionKind.FUNCTION,
                                 this_from_scope=False)
        self.exported.add("default")

    # --- compound statements --------------------------------------------------------------

    def _guarded(self, statements: Sequence[Statement], context: Context, guard: Guard) -> None:
        """Read a block that runs only under `guard`, and list it even when it holds no fact."""
        inner = context.guarded(guard)
        self.facts.blocks.append(GuardedBlock(guard, context.scope.qualname, inner.guards))
        self.block(statements, inner)

    def _block_statement(self, node: Statement, context: Context) -> None:
        self.block(statements_of(node), context)

    def _with(self, node: Statement, context: Context) -> None:
        test = node.child_by_field_name("object")
        if test is not None:
            self.reader.value(test, context.at(self.text.location(node)))
        self.block(statements_of(node.child_by_field_name("body")), context)

    def _labeled(self, node: Statement, context: Context) -> None:
        body = node.child_by_field_name("body")
        if body is not None:
            self.block(statements_of(body), context)

    def _if(self, node: Statement, context: Context) -> tuple[Guard, ...]:
        exits: list[Guard] = []
        negated: tuple[Guard, ...] = ()
        still_exiting = True
        branch: tree_sitter.Node | None = node
        while branch is not None:
            test = branch.child_by_field_name("condition")
            body = branch.child_by_field_name("consequence")
            if test is None:
                return tuple(exits)
            branch_context = Context(context.scope, context.guards + negated,
                                     self.text.span(branch, test), context.sinks)
            condition = self.reader.condition(test, branch_context)
            location = self.text.location(_inner(test))
            self._guarded(statements_of(body), branch_context,
                          Guard(GuardKind.IF, True, location, condition))
            kind = exit_kind(body)
            if still_exiting and kind is not None:
                exits.append(Guard(GuardKind.EARLY_EXIT, False, location, condition, exits=kind))
            else:
                still_exiting = False
            negated += (Guard(GuardKind.IF, False, location, condition),)
            alternative = branch.child_by_field_name("alternative")
            if alternative is None:
                return tuple(exits)
            inner = statements_of(alternative)
            if len(inner) == 1 and inner[0].type == "if_statement":
                branch = inner[0]
                continue
            self._guarded(inner, Context(context.scope, context.guards + negated[:-1],
                                         context.statement, context.sinks), negated[-1])
            return tuple(exits)
        return tuple(exits)

    def _while(self, node: Statement, context: Context) -> None:
        test = node.child_by_field_name("condition")
        body = node.child_by_field_name("body")
        if test is None:
            return
        header = context.at(self.text.span(node, test))
        condition = self.reader.condition(test, header)
        kind = GuardKind.LOOP if node.type == "do_statement" else GuardKind.WHILE
        self._guarded(statements_of(body), header,
                      Guard(kind, True, self.text.location(_inner(test)), condition))

    def _for(self, node: Statement, context: Context) -> None:
        """`for (init; test; step)`: a WHILE on the test (a LOOP without one)."""
        header = context.at(self.text.location(node))
        initializer = node.child_by_field_name("initializer")
        if initializer is not None and initializer.type in DECLARATION_TYPES:
            self._declaration(initializer, header)
        elif initializer is not None and initializer.type != "empty_statement":
            self._expression(initializer, header)
        test = node.child_by_field_name("condition")
        if test is not None and test.type == "expression_statement":
            test = test.named_children[0] if test.named_children else None
        guard = Guard(GuardKind.LOOP, True, header.statement)
        if test is not None and test.type != "empty_statement":
            condition = self.reader.condition(test, header)
            guard = Guard(GuardKind.WHILE, True, self.text.location(test), condition)
        increment = node.child_by_field_name("increment")
        self._guarded(statements_of(node.child_by_field_name("body")), header, guard)
        if increment is not None:
            self.reader.value(increment, header.guarded(guard))

    def _for_in(self, node: Statement, context: Context) -> None:
        iterable = node.child_by_field_name("right")
        target = node.child_by_field_name("left")
        body = node.child_by_field_name("body")
        if iterable is None:
            return
        header = context.at(self.text.span(node, iterable))
        condition = self.reader.loop_condition(iterable, header)
        guard = Guard(GuardKind.LOOP, True, self.text.location(iterable), condition)
        if target is not None:
            self.reader.assign(target, self.reader.values[iterable.id], header.guarded(guard),
                               element=True)
        self._guarded(statements_of(body), header, guard)

    def _try(self, node: Statement, context: Context) -> None:
        sink: list[str] = []
        guard = Guard(GuardKind.TRY, True, self.text.keyword(node, "try"))
        self._guarded(statements_of(node.child_by_field_name("body")), Context(
            context.scope, context.guards, context.statement, (*context.sinks, sink)), guard)
        handler = node.child_by_field_name("handler")
        if handler is not None:
            parameter = handler.child_by_field_name("parameter")
            caught = handler.child_by_field_name("type")
            header = self.text.span(handler, parameter) if parameter is not None else \
                self.text.keyword(handler, "catch")
            self._guarded(statements_of(handler.child_by_field_name("body")), context, Guard(
                GuardKind.EXCEPT, True, header,
                handler="" if caught is None else self.text.text(caught).lstrip(":").strip(),
                try_calls=tuple(sink), exits=exit_kind(handler.child_by_field_name("body"))))
        finalizer = node.child_by_field_name("finalizer")
        if finalizer is not None:
            self._guarded(statements_of(finalizer.child_by_field_name("body")), context,
                          Guard(GuardKind.FINALLY, True, self.text.keyword(finalizer, "finally")))

    def _switch(self, node: Statement, context: Context) -> None:
        subject_node = node.child_by_field_name("value")
        body = node.child_by_field_name("body")
        if subject_node is None or body is None:
            return
        header = context.at(self.text.span(node, subject_node))
        subject = self.reader.value(subject_node, header)
        subject_text = self.text.text(_inner(subject_node))
        negated: tuple[Guard, ...] = ()
        for case in body.named_children:
            if case.type not in ("switch_case", "switch_default"):
                continue
            case_node = case.child_by_field_name("value")
            case_context = Context(context.scope, context.guards + negated,
                                   self.text.location(case), context.sinks)
            if case_node is not None:
                value = self.reader.value(case_node, case_context)
                location = self.text.location(case_node)
                comparisons: tuple[Comparison, ...] = (Comparison(subject, "==", value,
                                                                  location),)
                text = f"switch {subject_text}: case {self.text.text(case_node)}"
            else:
                location = self.text.keyword(case, "default")
                comparisons = ()
                text = f"switch {subject_text}: default"
            condition = Condition(text, subject.reads, (), comparisons)
            statements = [child for child in case.children_by_field_name("body")
                          if child.is_named and child.type != "comment"]
            self._guarded(statements, case_context,
                          Guard(GuardKind.MATCH_CASE, True, location, condition))
            if case_node is not None:
                negated += (Guard(GuardKind.MATCH_CASE, False, location, condition),)

    # --- definitions ----------------------------------------------------------------------

    def _function_declaration(self, node: Statement, context: Context) -> None:
        name = node.child_by_field_name("name")
        if name is None:
            return
        written = self.text.text(name)
        self.reader.function(node, context, None, kind=DefinitionKind.FUNCTION,
                             this_from_scope=False,
                             qualname=self.facts.qualname(context.scope.child_qualname(written),
                                                          self.text.location(node)))

    def _enum(self, node: Statement, context: Context) -> None:
        """`enum Tool { WRITE = "write_note" }`: each member given a value is recorded like a
        class attribute, so `Tool.WRITE` reads as what it holds (as a Python Enum member's
        class-body assignment does). Members without a value (auto-numbered) say nothing."""
        name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
        if name is None or body is None:
            return
        qualname = context.scope.child_qualname(self.text.text(name))
        for member in body.named_children:
            key, value = member.child_by_field_name("name"), member.child_by_field_name("value")
            if member.type != "enum_assignment" or key is None or value is None:
                continue
            location = self.text.location(member)
            self.facts.assignments.append(_class_attribute(
                self.text.text(key), self.reader.value(value, context.at(location)), location,
                qualname, context.guards))

    def _class_declaration(self, node: Statement, context: Context) -> None:
        self._class(node, context, None)

    def _class(self, node: tree_sitter.Node, context: Context, naming: str | None) -> None:
        name_node = node.child_by_field_name("name")
        location = self.text.location(node)
        wanted = self.text.text(name_node) if name_node is not None else \
            (naming or f"<class>@{location.line}:{location.column}")
        qualname = self.facts.qualname(context.scope.child_qualname(wanted), location)
        decorators = self._decorators([child for child in node.children
                                       if child.type == "decorator"], context, qualname)
        info = self.builder.class_info(node, qualname, context.scope)
        bases = info.bases or tuple(self.text.text(base) for base in written_bases(node))
        self.facts.definitions.append(Definition(
            qualname=qualname, name=wanted, kind=DefinitionKind.CLASS, location=location,
            scope=context.scope.qualname, decorators=decorators, bases=bases,
            fields=self.builder.declared_fields(node, context.scope),
            annotations=self.builder.declared_annotations(node)))
        body_scope = Scope(qualname, ScopeKind.FUNCTION, context.scope, class_info=info)
        # Field initializers run when an instance is built: no guard of the class carries over.
        members = Context(body_scope, context.guards, context.statement, context.sinks)
        pending: list[tree_sitter.Node] = []
        for member in class_members(node):
            if member.type == "decorator":
                pending.append(member)
                continue
            member_decorators, pending = pending, []
            self._member(member, members, qualname, info, member_decorators)

    def _member(self, member: tree_sitter.Node, context: Context, class_qualname: str,
                info: ClassInfo, decorators: list[tree_sitter.Node]) -> None:
        name_node = member.child_by_field_name("name")
        name = self.text.text(name_node) if name_node is not None else ""
        location = self.text.location(member)
        if member.type == "method_definition":
            qualname = self.facts.qualname(f"{class_qualname}.{name}", location)
            ids = self._decorators(decorators, context, qualname)
            outer = Context(context.scope.parent or context.scope, context.guards,
                            location, context.sinks)
            self.reader.function(member, outer, None, kind=DefinitionKind.METHOD,
                                 class_info=info, decorators=ids, qualname=qualname)
        elif member.type == "public_field_definition":
            value = member.child_by_field_name("value")
            local = context.at(location)
            if value is None:
                return
            if unwrap(value).type in FUNCTION_TYPES:
                qualname = self.facts.qualname(f"{class_qualname}.{name}", location)
                ids = self._decorators(decorators, context, qualname)
                outer = Context(context.scope.parent or context.scope, context.guards,
                                location, context.sinks)
                self.reader.function(unwrap(value), outer, None, kind=DefinitionKind.METHOD,
                                     class_info=info, decorators=ids, qualname=qualname)
                return
            self._decorators(decorators, context, f"{class_qualname}.{name}")
            self.facts.assignments.append(_class_attribute(name, self.reader.value(value, local),
                                                           location, class_qualname,
                                                           context.guards))
        elif member.type == "class_static_block":
            self.block(statements_of(member.child_by_field_name("body") or member),
                       context.at(location))

    def _decorators(self, decorators: Sequence[tree_sitter.Node], context: Context,
                    qualname: str) -> tuple[str, ...]:
        ids = []
        for decorator in decorators:
            expression = decorator.named_children[0] if decorator.named_children else None
            if expression is None:
                continue
            at = context.at(self.text.location(decorator))
            bare = unwrap(expression)
            if bare.type == "call_expression":
                value = self.reader.call(bare, at, decorates=qualname)
                self.reader.values[bare.id] = value
                ids.append(value.call or "")
            else:
                ids.append(self.reader.bare_decorator(bare, at, qualname))
        return tuple(ids)


def _inner(node: tree_sitter.Node) -> tree_sitter.Node:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def _declared_names(declaration: tree_sitter.Node, text: SourceText) -> list[str]:
    if declaration.type in DECLARATION_TYPES:
        names = []
        for declarator in declaration.named_children:
            target = declarator.child_by_field_name("name")
            if target is not None and target.type == "identifier":
                names.append(text.text(target))
        return names
    name = declaration.child_by_field_name("name")
    return [text.text(name)] if name is not None else []


def _class_attribute(name: str, value: Value, location: Location, scope: str,
                     guards: tuple[Guard, ...]) -> Assignment:
    """A class field `name = value`, recorded like an assignment in a Python class body."""
    return Assignment(name, value, location, scope, guards)


_Handler = Callable[[StatementWalker, Any, Context], "tuple[Guard, ...] | None"]
_STATEMENTS: dict[str, _Handler] = {
    "expression_statement": StatementWalker._expression,
    "lexical_declaration": StatementWalker._declaration,
    "variable_declaration": StatementWalker._declaration,
    "return_statement": StatementWalker._return,
    "throw_statement": StatementWalker._throw,
    "import_statement": StatementWalker._import,
    "export_statement": StatementWalker._export,
    "statement_block": StatementWalker._block_statement,
    "labeled_statement": StatementWalker._labeled,
    "if_statement": StatementWalker._if,
    "while_statement": StatementWalker._while,
    "do_statement": StatementWalker._while,
    "for_statement": StatementWalker._for,
    "for_in_statement": StatementWalker._for_in,
    "try_statement": StatementWalker._try,
    "switch_statement": StatementWalker._switch,
    "function_declaration": StatementWalker._function_declaration,
    "generator_function_declaration": StatementWalker._function_declaration,
    "class_declaration": StatementWalker._class_declaration,
    "abstract_class_declaration": StatementWalker._class_declaration,
    "enum_declaration": StatementWalker._enum,
    "with_statement": StatementWalker._with,
}
