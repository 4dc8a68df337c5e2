"""The tree-sitter queries of the front-end, kept as data in `queries/*.scm` (STYLE §2a).

A query is compiled once per grammar and process (compiled queries are immutable); running
it gives the captured nodes by capture name.
"""

from __future__ import annotations

import functools
from importlib import resources

import tree_sitter

from topo.analyzers.ir import Language
from topo.analyzers.typescript.grammars import grammar

__all__ = ["query", "matches"]

_PACKAGE = "topo.analyzers.typescript"


@functools.cache
def query(name: str, language: Language) -> tree_sitter.Query:
    """The compiled query `queries/<name>.scm` for `language`'s grammar."""
    text = resources.files(_PACKAGE).joinpath("queries", f"{name}.scm").read_text("utf-8")
    return tree_sitter.Query(grammar(language), text)


def matches(name: str, language: Language, node: tree_sitter.Node
            ) -> list[dict[str, list[tree_sitter.Node]]]:
    """The captures of every match of query `name` under `node`, in document order."""
    found = tree_sitter.QueryCursor(query(name, language)).matches(node)
    return [captures for _, captures in found]
