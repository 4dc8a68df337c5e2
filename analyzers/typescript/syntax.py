"""Small structural helpers over tree-sitter nodes, shared by the binding scan and the walker."""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter

__all__ = ["written_bases", "pattern_positions", "FUNCTION_TYPES", "CLASS_TYPES",
           "DECLARATION_TYPES", "SKIPPED_STATEMENTS",
           "pattern_names", "statements_of", "exit_kind", "parameter_nodes", "ParameterNode",
           "class_members", "pattern_defaults"]

FUNCTION_TYPES = frozenset({"arrow_function", "function_expression", "function",
                            "generator_function"})
CLASS_TYPES = frozenset({"class_declaration", "abstract_class_declaration", "class"})
DECLARATION_TYPES = frozenset({"lexical_declaration", "variable_declaration"})
# Statements with no runtime facts: types, interfaces, ambient declarations.
SKIPPED_STATEMENTS = frozenset({
    "interface_declaration", "type_alias_declaration", "ambient_declaration",
    "abstract_method_signature", "function_signature", "empty_statement",
    "debugger_statement", "comment", "import_alias", "hash_bang_line", "html_comment",
    "break_statement", "continue_statement", "enum_declaration", "module",
})
_EXITS = {"return_statement": "return", "throw_statement": "raise",
          "continue_statement": "continue", "break_statement": "break"}


def statements_of(node: tree_sitter.Node | None) -> list[tree_sitter.Node]:
    """The statements of a block, or the single statement of an unbraced body."""
    if node is None:
        return []
    if node.type in ("statement_block", "program", "class_static_block"):
        return [child for child in node.named_children if child.type != "comment"]
    if node.type == "else_clause":
        return [child for child in node.named_children if child.type != "comment"]
    return [node]


def exit_kind(body: tree_sitter.Node | None) -> str | None:
    """'return' | 'raise' | 'continue' | 'break' when the body always ends by leaving."""
    statements = statements_of(body)
    if not statements:
        return None
    return _EXITS.get(statements[-1].type)


def pattern_names(node: tree_sitter.Node | None) -> Iterator[tree_sitter.Node]:
    """The identifiers a binding pattern binds (`a`, `{a, b: c, ...d}`, `[x, [y]]`)."""
    if node is not None:
        yield from (name for name, _ in pattern_positions(node))


def pattern_positions(node: tree_sitter.Node, prefix: tuple[int | str, ...] | None = ()
                      ) -> Iterator[tuple[tree_sitter.Node, tuple[int | str, ...] | None]]:
    """Each name a destructuring binds, with its place in the value: `[a, , b]` gives a at
    (0,), b at (2,); `{ m, n: k }` gives m at ("m",), k at ("n",); a rest or a computed key has
    None."""
    match node.type:
        case "identifier" | "shorthand_property_identifier_pattern" | \
                "shorthand_property_identifier":
            yield node, prefix or None
        case "array_pattern" | "array":
            index = 0
            for child in node.children:
                if child.type == ",":
                    index += 1
                elif child.is_named:
                    place = None if prefix is None else (*prefix, index)
                    yield from pattern_positions(child, place)
        case "object_pattern" | "object":
            for child in node.named_children:
                if child.type in ("pair_pattern", "pair"):
                    key = child.child_by_field_name("key")
                    named = key is not None and key.type in ("property_identifier", "string")
                    text = key.text.decode("utf-8", "replace").strip("'\"") if named else None
                    place = None if prefix is None or text is None else (*prefix, text)
                    value = child.child_by_field_name("value")
                    if value is not None:
                        yield from pattern_positions(value, place)
                elif child.type in ("shorthand_property_identifier_pattern",
                                    "shorthand_property_identifier"):
                    text = child.text.decode("utf-8", "replace")
                    yield child, None if prefix is None else (*prefix, text)
                else:
                    yield from pattern_positions(child, prefix)
        case "assignment_pattern" | "object_assignment_pattern":
            left = node.child_by_field_name("left")
            if left is not None:
                yield from pattern_positions(left, prefix)
        case "rest_pattern" | "rest_element" | "spread_element":
            for child in node.named_children:
                yield from pattern_positions(child, None)


class ParameterNode:
    """One formal parameter in either grammar: its pattern, type, default and kind."""

    __slots__ = ("pattern", "annotation", "default", "rest", "node", "property")

    def __init__(self, node: tree_sitter.Node) -> None:
        self.node = node
        self.annotation: tree_sitter.Node | None = None
        self.default: tree_sitter.Node | None = None
        self.property = False   # a TS parameter property (`private client: OpenAI`)
        pattern: tree_sitter.Node | None = node
        if node.type in ("required_parameter", "optional_parameter"):
            pattern = node.child_by_field_name("pattern")
            self.annotation = node.child_by_field_name("type")
            self.default = node.child_by_field_name("value")
            self.property = any(child.type in ("accessibility_modifier", "override_modifier")
                                or child.type == "readonly" for child in node.children)
        elif node.type == "assignment_pattern":
            pattern = node.child_by_field_name("left")
            self.default = node.child_by_field_name("right")
        self.rest = pattern is not None and pattern.type == "rest_pattern"
        if self.rest and pattern is not None and pattern.named_children:
            pattern = pattern.named_children[0]
        self.pattern = pattern


def parameter_nodes(function: tree_sitter.Node) -> list[ParameterNode]:
    """The parameters of a function node (`x => …` has a single `parameter` field)."""
    single = function.child_by_field_name("parameter")
    if single is not None:
        return [ParameterNode(single)]
    parameters = function.child_by_field_name("parameters")
    if parameters is None:
        return []
    found = []
    for child in parameters.named_children:
        if child.type == "comment":
            continue
        parameter = ParameterNode(child)
        if parameter.pattern is not None and parameter.pattern.type != "this":
            found.append(parameter)
    return found


def written_bases(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The classes a class extends and the interfaces it implements, as written: `class
    LocalShell implements Shell` plays the `Shell` role (the SDK calls its `run`) as a subclass
    would. A generic `Tool<In>` is its name."""
    found = []
    for heritage in node.named_children:
        if heritage.type != "class_heritage":
            continue
        for clause in heritage.named_children:
            if clause.type == "extends_clause":
                value = clause.child_by_field_name("value")
                if value is not None:
                    found.append(value)
            elif clause.type in ("identifier", "member_expression"):   # JavaScript grammar
                found.append(clause)
            elif clause.type == "implements_clause":
                found += [item.child_by_field_name("name") or item
                          if item.type == "generic_type" else item
                          for item in clause.named_children]
    return found


def class_members(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    body = node.child_by_field_name("body")
    return [] if body is None else list(body.named_children)


def pattern_defaults(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The default-value expressions inside a destructuring pattern (they run)."""
    found = []
    for child in node.named_children:
        if child.type in ("assignment_pattern", "object_assignment_pattern"):
            right = child.child_by_field_name("right")
            if right is not None:
                found.append(right)
        elif child.type in ("object_pattern", "array_pattern", "pair_pattern"):
            found.extend(pattern_defaults(child))
    return found
