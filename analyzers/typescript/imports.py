"""What the import-like statements of one file state: ESM imports, CommonJS requires and
re-exports, found by `queries/imports.scm` and read here, keyed by the statement's node id.

Names (see `analyzers.ir.Import`): `import X from 'm'` imports `m.default` as X;
`import {a as b}` imports `m.a` as b; `import * as ns` and `const ns = require('m')` bind the
module itself (a *namespace*); `const {a, b: c} = require('m')` imports `m.a` as a and `m.b`
as c; `const x = require('m').x` imports `m.x`. `import 'm'` binds nothing and is recorded
with an empty alias, because it still says that the file uses `m`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter

from topo.analyzers.ir import Language
from topo.analyzers.typescript.project import ProjectLayout
from topo.analyzers.typescript.queries import matches
from topo.analyzers.typescript.spans import SourceText
from topo.analyzers.typescript.values import string_value

__all__ = ["ImportedName", "ReExport", "ModuleLinks", "module_links"]


@dataclass(frozen=True, slots=True)
class ImportedName:
    module: str
    name: str | None           # None: the module itself; `default`; `*` is never used here
    alias: str                 # the local name ("" for a side-effect import)
    instance: bool = False     # `const s = require('m')(key)`: alias is an instance of name
    external: bool = True      # a package (or a Node built-in), not a module of the repository

    @property
    def namespace(self) -> bool:
        return self.name is None

    @property
    def resolved(self) -> str:
        return self.module if self.name is None else f"{self.module}.{self.name}"


@dataclass(frozen=True, slots=True)
class ReExport:
    name: str                  # exported as (`*` for `export * from`)
    module: str
    source_name: str           # `*` for a namespace or star re-export


@dataclass(slots=True)
class ModuleLinks:
    imports: dict[int, tuple[ImportedName, ...]] = field(default_factory=dict)
    reexports: dict[int, tuple[ReExport, ...]] = field(default_factory=dict)
    errors: dict[int, str] = field(default_factory=dict)


def module_links(root: tree_sitter.Node, language: Language, text: SourceText,
                 importer: str, layout: ProjectLayout) -> ModuleLinks:
    links = ModuleLinks()
    for captures in matches("imports", language, root):
        source = captures["source"][0]
        specifier = string_value(source, text)
        if specifier is None:
            continue
        module, external = layout.locate(importer, specifier)
        node = next(captures[key][0] for key in _STATEMENTS if key in captures)
        if module is None:
            links.errors[node.id] = f"import climbs above the audited root ({specifier})"
            continue
        if "import" in captures:
            links.imports[node.id] = _marked(_esm(node, module, text), external)
        elif "reexport" in captures:
            links.reexports[node.id] = _reexports(node, module, text)
        elif "require.instance" in captures:
            target = node.child_by_field_name("name")
            if target is not None and target.type == "identifier":
                links.imports[node.id] = (ImportedName(module, "default", text.text(target),
                                                       instance=True, external=external),)
        else:
            member = captures.get("member")
            links.imports[node.id] = _marked(_require(
                node, module, text, None if member is None else text.text(member[0])), external)
    return links


def _marked(names: tuple[ImportedName, ...], external: bool) -> tuple[ImportedName, ...]:
    if external:
        return names
    return tuple(ImportedName(n.module, n.name, n.alias, n.instance, False) for n in names)


_STATEMENTS = ("import", "reexport", "require.instance", "require")


def _esm(node: tree_sitter.Node, module: str, text: SourceText) -> tuple[ImportedName, ...]:
    clause = next((child for child in node.named_children if child.type == "import_clause"),
                  None)
    if clause is None:
        return (ImportedName(module, None, ""),)
    names: list[ImportedName] = []
    for part in clause.named_children:
        match part.type:
            case "identifier":
                names.append(ImportedName(module, "default", text.text(part)))
            case "namespace_import":
                alias = part.named_children[-1] if part.named_children else None
                if alias is not None:
                    names.append(ImportedName(module, None, text.text(alias)))
            case "named_imports":
                for specifier in part.named_children:
                    if specifier.type != "import_specifier":
                        continue
                    name = specifier.child_by_field_name("name")
                    alias = specifier.child_by_field_name("alias") or name
                    if name is not None and alias is not None:
                        names.append(ImportedName(module, _name(name, text), text.text(alias)))
    return tuple(names)


def _name(node: tree_sitter.Node, text: SourceText) -> str:
    """An import/export name: an identifier, or a string (`import {"a-b" as c}`)."""
    if node.type == "string":
        return string_value(node, text) or text.text(node)
    return text.text(node)


def _require(node: tree_sitter.Node, module: str, text: SourceText,
             member: str | None) -> tuple[ImportedName, ...]:
    target = node.child_by_field_name("name")
    if target is None:
        return ()
    if target.type == "identifier":
        return (ImportedName(module, member, text.text(target)),)
    if target.type != "object_pattern" or member is not None:
        return ()
    names = []
    for part in target.named_children:
        match part.type:
            case "shorthand_property_identifier_pattern":
                names.append(ImportedName(module, text.text(part), text.text(part)))
            case "pair_pattern":
                key, value = part.child_by_field_name("key"), part.child_by_field_name("value")
                if value is not None and value.type == "assignment_pattern":
                    value = value.child_by_field_name("left")
                if key is not None and value is not None and value.type == "identifier":
                    names.append(ImportedName(module, _name(key, text), text.text(value)))
            case "object_assignment_pattern":
                left = part.child_by_field_name("left")
                if left is not None:
                    names.append(ImportedName(module, text.text(left), text.text(left)))
    return tuple(names)


def _reexports(node: tree_sitter.Node, module: str, text: SourceText
               ) -> tuple[ReExport, ...]:
    found = []
    for part in node.named_children:
        match part.type:
            case "export_clause":
                for specifier in part.named_children:
                    if specifier.type != "export_specifier":
                        continue
                    name = specifier.child_by_field_name("name")
                    alias = specifier.child_by_field_name("alias") or name
                    if name is not None and alias is not None:
                        found.append(ReExport(_name(alias, text), module, _name(name, text)))
            case "namespace_export":
                alias = part.named_children[-1] if part.named_children else None
                if alias is not None:
                    found.append(ReExport(_name(alias, text), module, "*"))
    if not found:
        found.append(ReExport("*", module, "*"))
    return tuple(found)
