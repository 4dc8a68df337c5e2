"""Hand-built IR for engine tests: short constructors so a test reads like the code it models.

`v("x")` is a NAME, `s("refund")` a string literal, `call_value(c)` the value of a call,
`FileBuilder` hands out call ids and locations line by line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from topo.analyzers.ir import (MODULE_SCOPE, Assignment, Call, Definition, DefinitionKind, FileIR,
                               Import, Language, Parameter, Value, ValueKind)
from topo.analyzers.model import Location

FILE = "app/agent.py"
MODULE = "app.agent"


def s(text: str) -> Value:
    return Value(ValueKind.STRING, repr(text), literal=text)


def n(number: int | float) -> Value:
    return Value(ValueKind.NUMBER, repr(number), literal=number)


def b(flag: bool) -> Value:
    return Value(ValueKind.BOOL, repr(flag), literal=flag)


NONE = Value(ValueKind.NONE, "None", literal=None)


def v(ref: str, resolved: str | None = None) -> Value:
    return Value(ValueKind.NAME, ref, ref=ref, resolved=resolved, reads=(ref,))


def fstring(text: str) -> Value:
    return Value(ValueKind.FORMAT, text, reads=("x",))


def dict_value(**entries: Value) -> Value:
    text = "{" + ", ".join(f"{k!r}: {e.text}" for k, e in entries.items()) + "}"
    return Value(ValueKind.DICT, text, entries=tuple(entries.items()))


def dict_items(*items: tuple[str | None, Value]) -> Value:
    return Value(ValueKind.DICT, "{…}", entries=tuple(items))


def list_value(*items: Value) -> Value:
    return Value(ValueKind.LIST, "[" + ", ".join(i.text for i in items) + "]",
                 entries=tuple((None, item) for item in items))


def spread(inner: Value) -> Value:
    return Value(ValueKind.SPREAD, "*" + inner.text, entries=((None, inner),))


def call_value(call: Call) -> Value:
    return Value(ValueKind.CALL, f"{call.name}(…)", call=call.id)


@dataclass
class FileBuilder:
    """Collects calls and definitions; each new fact goes on the next line."""

    path: str = FILE
    module: str = MODULE
    language: Language = Language.PYTHON
    calls: list[Call] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    assignments: list[Assignment] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    line: int = 0

    def _location(self, column: int = 5) -> Location:
        self.line += 1
        return Location(self.path, self.line, column)

    def call(self, callee: str | None, *args: Value, scope: str = MODULE_SCOPE,
             decorates: str | None = None, bare: bool = False, receiver: str | None = None,
             same_place_as: Call | None = None, **kwargs: Value) -> Call:
        """A call on the next line, or chained at the start of `same_place_as` (the front-end
        then suffixes the id: `a.py:3:5+1`)."""
        if same_place_as is None:
            location = self._location()
            call_id = f"{self.path}:{location.line}:{location.column}"
        else:
            location = same_place_as.location
            call_id = same_place_as.id + "+1"
        name = (callee or "unknown").rsplit(".", 1)[-1]
        made = Call(id=call_id, callee=callee,
                    name=name, receiver=receiver, location=location, statement=location,
                    scope=scope, args=args, kwargs=tuple(kwargs.items()),
                    decorates=decorates, bare_decorator=bare)
        self.calls.append(made)
        return made

    def define(self, qualname: str, kind: DefinitionKind = DefinitionKind.FUNCTION,
               parameters: tuple[str, ...] = (), bases: tuple[str, ...] = (),
               decorators: tuple[str, ...] = ()) -> Definition:
        location = self._location(1)
        made = Definition(qualname=qualname, name=qualname.rsplit(".", 1)[-1], kind=kind,
                          location=location, scope=MODULE_SCOPE,
                          parameters=tuple(Parameter(p) for p in parameters), bases=bases,
                          decorators=decorators)
        self.definitions.append(made)
        return made

    def decorated(self, qualname: str, decorator: str | None, *args: Value,
                  parameters: tuple[str, ...] = (), bare: bool = False,
                  **kwargs: Value) -> tuple[Call, Definition]:
        """`@decorator(...)` on `def qualname(...)`: the decorator line, then the def line."""
        decorator_call = self.call(decorator, *args, decorates=qualname, bare=bare, **kwargs)
        definition = self.define(qualname, parameters=parameters,
                                 decorators=(decorator_call.id,))
        return decorator_call, definition

    def assign(self, target: str, value: Value, scope: str = MODULE_SCOPE, *,
               augmented: bool = False, element: bool = False) -> None:
        self.assignments.append(Assignment(target, value, self._location(), scope,
                                           augmented=augmented, element=element))

    def imported(self, module: str, name: str | None = None) -> None:
        alias = name or module.split(".")[0]
        self.imports.append(Import(module, name, alias, self._location(1)))

    def build(self) -> FileIR:
        return FileIR(path=self.path, language=self.language, module=self.module,
                      sha256="0" * 64, lines=self.line, imports=tuple(self.imports),
                      definitions=tuple(self.definitions), calls=tuple(self.calls),
                      assignments=tuple(self.assignments))


def sites_of(builder: FileBuilder):
    """Classify one built file with the shipped packs."""
    from topo.analyzers.packs import classify
    return classify([builder.build()])


def site_for(sites, kind, call: Call | None = None, location: Location | None = None):
    """The one site of `kind` at a call (or a definition's location)."""
    where = location or (call.location if call else None)
    found = [site for site in sites if site.kind is kind
             and (where is None or site.location == where)]
    assert len(found) == 1, f"expected one {kind} at {where}, got {found}"
    return found[0]


def attrs(site) -> dict:
    return dict(site.attrs)
