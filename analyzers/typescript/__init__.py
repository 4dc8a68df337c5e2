"""The TypeScript/JavaScript front-end (tree-sitter → IR). Others use `parse_typescript`, the
project layout that resolves import specifiers, and the front-end version (cache key).

`parse_typescript` and `language_for_path` are imported on first use: a run that finds every
file in the parse cache never parses, and need not import the parser."""

from topo.analyzers.typescript.project import ProjectLayout, load_layout
from topo.analyzers.typescript.version import FRONTEND_VERSION

__all__ = ["FRONTEND_VERSION", "ProjectLayout", "language_for_path", "load_layout",
           "parse_typescript"]


def __getattr__(name: str) -> object:
    if name in ("parse_typescript", "language_for_path"):
        from topo.analyzers.typescript import frontend
        return getattr(frontend, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
