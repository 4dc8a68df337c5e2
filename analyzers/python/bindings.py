"""Building scopes: a shallow scan of a body for every name it binds, before the body is read.

The scan runs once per scope when the walker enters it, so that a reference can be resolved
against bindings that come later in the file (a function calling a helper defined below it) and
so that a local binding shadows an import for the whole scope, as in Python. Nested function and
class bodies are not entered here: they get their own scan when the walker reaches them.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from topo.analyzers.collect import Facts
from topo.analyzers.python.imports import imported_names
from topo.analyzers.python.paths import Resolver
from topo.analyzers.python.scopes import Binding, ClassInfo, Scope, ScopeKind
from topo.analyzers.python.suites import Statement, assigned_names, statements_of

__all__ = ["ScopeBuilder"]


class ScopeBuilder:
    __slots__ = ("resolver", "package", "facts", "strict", "_function_scopes")

    def __init__(self, resolver: Resolver, package: str, facts: Facts, strict: bool) -> None:
        self.resolver = resolver
        self.package = package
        self.facts = facts
        self.strict = strict
        self._function_scopes: dict[cst.FunctionDef, Scope] = {}

    def scan(self, statements: Sequence[Statement], scope: Scope) -> Scope:
        self._scan(statements, scope, True)
        return scope

    def function_scope(self, node: cst.FunctionDef, qualname: str, parent: Scope) -> Scope:
        """The scope of a function body; a method also knows its class and its `self`."""
        cached = self._function_scopes.get(node)
        if cached is not None:
            return cached
        owner = parent.class_info if parent.kind is ScopeKind.CLASS else None
        scope = Scope(qualname, ScopeKind.FUNCTION, parent, class_info=owner)
        parameters = _parameters(node.params)
        position = self.resolver.text.start(node)
        for parameter in parameters:
            resolved = self.resolver.annotation(parameter.annotation, parent)
            scope.bind(parameter.name.value, Binding(position, resolved, True,
                                                     instance=resolved is not None))
        if owner is not None and parameters and not _is_static(node):
            scope.self_name = parameters[0].name.value
        self._scan(statements_of(node.body), scope, True)
        self._function_scopes[node] = scope
        return scope

    def lambda_scope(self, node: cst.Lambda, qualname: str, parent: Scope) -> Scope:
        scope = Scope(qualname, ScopeKind.FUNCTION, parent)
        position = self.resolver.text.start(node)
        for parameter in _parameters(node.params):
            scope.bind(parameter.name.value, Binding(position, None, True))
        return scope

    def comprehension_scope(self, targets: Sequence[cst.BaseExpression], parent: Scope) -> Scope:
        scope = Scope(parent.qualname, ScopeKind.COMPREHENSION, parent,
                      class_info=parent.class_info)
        for target in targets:
            for name in assigned_names(target):
                scope.bind(name.value, Binding(self.resolver.text.start(name), None, True))
        return scope

    def class_scope(self, node: cst.ClassDef, qualname: str, parent: Scope) -> Scope:
        """The class body's scope; registers what `self.x` means in its methods."""
        resolver = self.resolver
        bases = tuple(resolved for argument in node.bases
                      if (resolved := resolver.resolve(argument.value, parent)) is not None)
        info = ClassInfo(resolver.local_name(qualname), bases=bases)
        resolver.classes[info.resolved] = info
        scope = Scope(qualname, ScopeKind.CLASS, parent, class_info=info)
        self._scan(statements_of(node.body), scope, True)
        for statement in statements_of(node.body):
            if isinstance(statement, cst.FunctionDef):
                typed = self._property_type(statement, scope)
                if typed is not None:
                    # `@property def page(self) -> Page`: `self.page` is a Page, as a typed
                    # attribute would be (`self.page.mouse.click` names Playwright's method)
                    info.set_attribute(statement.name.value, typed)
                else:
                    info.methods.add(statement.name.value)
                    declared = self.resolver.annotation(statement.returns, scope)
                    if declared is not None:
                        self.resolver.returns[f"{info.resolved}.{statement.name.value}"] = declared
            elif isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    self._class_attribute(small, scope, info)
        for statement in statements_of(node.body):
            if isinstance(statement, cst.FunctionDef) and statement.name.value == "__init__":
                init = self.function_scope(statement, scope.child_qualname("__init__"), scope)
                if init.self_name is not None:
                    self._self_assignments(statements_of(statement.body), init, info)
        return scope

    def _property_type(self, node: cst.FunctionDef, scope: Scope) -> str | None:
        """The declared class a bare `@property` returns, else None."""
        if not any(isinstance(decorator.decorator, cst.Name)
                   and self.resolver.resolve(decorator.decorator, scope) == "builtins.property"
                   for decorator in node.decorators):
            return None
        return self.resolver.annotation(node.returns, scope)

    def _class_attribute(self, small: cst.BaseSmallStatement, scope: Scope,
                         info: ClassInfo) -> None:
        match small:
            case cst.Assign(targets=targets, value=value):
                for target in targets:
                    if isinstance(target.target, cst.Name):
                        info.set_attribute(target.target.value,
                                           self.resolver.instance(value, scope))
            case cst.AnnAssign(target=cst.Name(value=name), value=value, annotation=annotation):
                resolved = self.resolver.instance(value, scope) if value is not None else None
                info.set_attribute(name, resolved or self.resolver.annotation(annotation, scope))

    def _self_assignments(self, statements: Sequence[Statement], scope: Scope,
                          info: ClassInfo) -> None:
        """`self.x = Ctor()` anywhere in `__init__` (not in nested definitions)."""
        for statement in statements:
            match statement:
                case cst.SimpleStatementLine(body=smalls):
                    for small in smalls:
                        self._self_assignment(small, scope, info)
                case cst.BaseSmallStatement():
                    self._self_assignment(statement, scope, info)
                case cst.FunctionDef() | cst.ClassDef():
                    continue
                case _:
                    for suite in _suites(statement):
                        self._self_assignments(statements_of(suite), scope, info)

    def _self_assignment(self, small: cst.BaseSmallStatement, scope: Scope,
                         info: ClassInfo) -> None:
        match small:
            case cst.Assign(targets=targets, value=value):
                for target in targets:
                    attribute = _self_attribute(target.target, scope.self_name)
                    if attribute is not None:
                        info.set_attribute(attribute, self.resolver.instance(value, scope))
            case cst.AnnAssign(target=target, value=value, annotation=annotation):
                attribute = _self_attribute(target, scope.self_name)
                if attribute is not None:
                    resolved = self.resolver.instance(value, scope) if value is not None else None
                    info.set_attribute(attribute,
                                       resolved or self.resolver.annotation(annotation, scope))

    def _scan(self, statements: Sequence[Statement], scope: Scope, top_level: bool) -> None:
        for statement in statements:
            if self.strict:
                self._scan_statement(statement, scope, top_level)
                continue
            try:
                self._scan_statement(statement, scope, top_level)
            except Exception as error:  # noqa: BLE001 - production degrades to an Unknown
                self.facts.unreadable(self.resolver.text.line_of(statement),
                                      "could not scan the names bound by",
                                      type(statement).__name__, error)

    def _scan_statement(self, statement: Statement, scope: Scope, top_level: bool) -> None:
        match statement:
            case cst.SimpleStatementLine(body=smalls):
                for small in smalls:
                    self._scan_small(small, scope, top_level)
            case cst.FunctionDef(name=cst.Name(value=name)) | cst.ClassDef(
                    name=cst.Name(value=name)):
                resolved = self.resolver.local_name(scope.child_qualname(name))
                scope.bind(name, Binding(self._end(statement), resolved, top_level))
            case cst.For(target=target):
                self._bind_target(target, None, scope, False)
                self._scan_suites(statement, scope, False)
            case cst.With(items=items):
                for item in items:
                    if item.asname is not None:
                        resolved = self.resolver.instance(item.item, scope)
                        self._bind_target(item.asname.name, resolved, scope, top_level,
                                          instance=_makes_instance(item.item))
                self._scan(statements_of(statement.body), scope, top_level)
            case cst.Try() | cst.TryStar():
                for handler in statement.handlers:
                    if handler.name is not None:
                        self._bind_target(handler.name.name, None, scope, False)
                self._scan_suites(statement, scope, False)
            case cst.BaseSmallStatement():
                self._scan_small(statement, scope, top_level)
            case _:
                self._scan_suites(statement, scope, False)

    def _scan_suites(self, statement: Statement, scope: Scope, top_level: bool) -> None:
        for suite in _suites(statement):
            self._scan(statements_of(suite), scope, top_level)

    def _scan_small(self, small: cst.BaseSmallStatement, scope: Scope, top_level: bool) -> None:
        resolver = self.resolver
        match small:
            case cst.Assign(targets=targets, value=value):
                for target in targets:
                    resolved = resolver.instance(value, scope)
                    self._bind_target(target.target, resolved, scope, top_level, small,
                                      instance=_makes_instance(value))
            case cst.AnnAssign(target=target, value=value, annotation=annotation) if value:
                resolved = resolver.instance(value, scope)
                instance = _makes_instance(value)
                if resolved is None:
                    resolved, instance = resolver.annotation(annotation, scope), True
                self._bind_target(target, resolved, scope, top_level, small, instance=instance)
            case cst.AugAssign(target=target):
                self._bind_target(target, None, scope, top_level, small)
            case cst.Import() | cst.ImportFrom():
                names, _ = imported_names(small, self.package)
                for imported in names:
                    if imported.bound is not None:
                        scope.bind(imported.bound,
                                   Binding(self._end(small), imported.resolved, top_level))
            case cst.Global(names=names):
                scope.global_names.update(item.name.value for item in names)
            case cst.Nonlocal(names=names):
                scope.nonlocal_names.update(item.name.value for item in names)

    def _bind_target(self, target: cst.BaseExpression, resolved: str | None, scope: Scope,
                     top_level: bool, statement: cst.CSTNode | None = None, *,
                     instance: bool = False) -> None:
        names = assigned_names(target)
        if len(names) != 1 or not isinstance(target, cst.Name):
            resolved = None   # an element of a destructured value is not typed
        for name in names:
            position = self._end(statement if statement is not None else name)
            scope.bind(name.value, Binding(position, resolved, top_level,
                                           instance=instance and resolved is not None))

    def _end(self, node: cst.CSTNode) -> tuple[int, int]:
        return self.resolver.text.end(node)


def _suites(statement: Statement) -> list[cst.BaseSuite]:
    """Every suite directly under a compound statement (bodies, else, handlers, cases)."""
    match statement:
        case cst.If():
            suites = [statement.body]
            orelse = statement.orelse
            while isinstance(orelse, cst.If):
                suites.append(orelse.body)
                orelse = orelse.orelse
            return suites + ([orelse.body] if orelse is not None else [])
        case cst.For() | cst.While():
            return [statement.body] + ([statement.orelse.body] if statement.orelse else [])
        case cst.Try() | cst.TryStar():
            suites = [statement.body, *(handler.body for handler in statement.handlers)]
            if statement.orelse is not None:
                suites.append(statement.orelse.body)
            if statement.finalbody is not None:
                suites.append(statement.finalbody.body)
            return suites
        case cst.With():
            return [statement.body]
        case cst.Match():
            return [case.body for case in statement.cases]
    return []


def _parameters(params: cst.Parameters) -> list[cst.Param]:
    parameters = [*params.posonly_params, *params.params]
    if isinstance(params.star_arg, cst.Param):
        parameters.append(params.star_arg)
    parameters.extend(params.kwonly_params)
    if params.star_kwarg is not None:
        parameters.append(params.star_kwarg)
    return parameters


def _is_static(node: cst.FunctionDef) -> bool:
    return any(isinstance(decorator.decorator, cst.Name)
               and decorator.decorator.value == "staticmethod" for decorator in node.decorators)


def _self_attribute(target: cst.BaseExpression, self_name: str | None) -> str | None:
    match target:
        case cst.Attribute(value=cst.Name(value=name), attr=cst.Name(value=attribute)) \
                if name == self_name:
            return attribute
    return None


def _makes_instance(value: cst.BaseExpression) -> bool:
    """A value that is an object a call built (`Agent(...)`, `await connect()`, a default
    `client or Anthropic()`), not a class or function named (`handler = refund`)."""
    match value:
        case cst.Await(expression=inner):
            return _makes_instance(inner)
        case cst.Call():
            return True
        case cst.BooleanOperation(left=left, right=right):
            return _makes_instance(left) or _makes_instance(right)
        case cst.IfExp(body=body, orelse=orelse):
            return _makes_instance(body) or _makes_instance(orelse)
    return False

