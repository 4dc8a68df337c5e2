"""The TypeScript/JavaScript front-end (tree-sitter → IR). Others use `parse_typescript`, the
project layout that resolves import specifiers, and the front-end version (cache key)."""

from topo.analyzers.typescript.frontend import FRONTEND_VERSION, language_for_path, parse_typescript
from topo.analyzers.typescript.project import ProjectLayout, load_layout

__all__ = ["FRONTEND_VERSION", "ProjectLayout", "language_for_path", "load_layout",
           "parse_typescript"]
