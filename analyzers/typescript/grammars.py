"""The official tree-sitter grammars, one per IR language, and the parse of one file.

`.ts` is read with the TypeScript grammar; `.tsx` with the TSX grammar (TypeScript plus JSX);
`.js/.jsx/.mjs/.cjs` with the JavaScript grammar, which reads JSX as well. `Language` objects
are immutable, so each is built once per process; a `Parser` holds parse state, so each parse
gets its own.
"""

from __future__ import annotations

import functools

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

from topo.analyzers.ir import Language

__all__ = ["grammar", "parse_tree"]


@functools.cache
def grammar(language: Language) -> tree_sitter.Language:
    """The tree-sitter grammar that reads `language` (TypeScript, TSX or JavaScript)."""
    match language:
        case Language.TYPESCRIPT:
            return tree_sitter.Language(tree_sitter_typescript.language_typescript())
        case Language.TSX:
            return tree_sitter.Language(tree_sitter_typescript.language_tsx())
        case Language.JAVASCRIPT:
            return tree_sitter.Language(tree_sitter_javascript.language())
    raise ValueError(f"no tree-sitter grammar for {language.value}")


def parse_tree(language: Language, data: bytes) -> tree_sitter.Tree:
    """The concrete syntax tree of UTF-8 `data` (tree-sitter never fails: errors are nodes)."""
    return tree_sitter.Parser(grammar(language)).parse(data)
