"""Compiled JavaScript beside its TypeScript source: the same code, audited twice.

`tsc` writes `tools.js` next to `tools.ts` when a project sets no `outDir`, and under the
`outDir` of its tsconfig.json otherwise, mirroring `rootDir` (`lib/tools.js` from
`src/tools.ts`); `dist/` and `build/` are never read at all (inventory.py). A JavaScript file
whose TypeScript source is audited is listed under `out_of_scope` ("compiled JavaScript")
instead: its findings would repeat the source's, at other lines. The match is by path only
(same stem); a `.js` with no `.ts` of that stem is ordinary source. When a tsconfig sets no
`rootDir`, TypeScript's own default applies: the deepest directory holding all the project's
TypeScript sources. A tsconfig's `extends` is not followed here, and one that cannot be read
is already an unknown of the project layout (analyzers/typescript/project.py).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from pathlib import Path

from topo.analyzers.reading import InputRefused

__all__ = ["COMPILED_REASON", "compiled_twins"]

COMPILED_REASON = "compiled JavaScript beside its TypeScript source"
_TYPESCRIPT = (".ts", ".tsx", ".mts", ".cts")
_JAVASCRIPT = (".js", ".jsx", ".mjs", ".cjs")
_DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")


def compiled_twins(root: Path, sources: Iterable[str], manifests: Iterable[str]
                   ) -> tuple[str, ...]:
    """The JavaScript paths among `sources` that are compiled from a TypeScript source among
    them, sorted."""
    sources = tuple(sources)
    stems = {_stem(path) for path in sources
             if path.endswith(_TYPESCRIPT) and not path.endswith(_DECLARATIONS)}
    if not stems:
        return ()
    outputs = tuple(_output_dirs(root, manifests, stems))
    return tuple(sorted(path for path in sources if path.endswith(_JAVASCRIPT)
                        and _is_compiled(_stem(path), stems, outputs)))


def _is_compiled(stem: str, stems: set[str], outputs: tuple[tuple[str, str], ...]) -> bool:
    if stem in stems:
        return True
    for out, source in outputs:
        if stem.startswith(out + "/"):
            mapped = posixpath.join(source, stem[len(out) + 1:]) if source else \
                stem[len(out) + 1:]
            if mapped in stems:
                return True
    return False


def _output_dirs(root: Path, manifests: Iterable[str], stems: set[str]
                 ) -> Iterable[tuple[str, str]]:
    """(outDir, rootDir) of each tsconfig.json that sets an `outDir`, root-relative."""
    # Imported here: discovery runs before any front-end, and only TS projects need it.
    from topo.analyzers.typescript.jsonc import read_jsonc
    for manifest in sorted(manifests):
        if posixpath.basename(manifest) != "tsconfig.json":
            continue
        try:
            data = read_jsonc(root, manifest)
        except InputRefused:
            continue     # the project layout reports it as an unknown
        options = data.get("compilerOptions") if isinstance(data, dict) else None
        out_dir = options.get("outDir") if isinstance(options, dict) else None
        if not isinstance(out_dir, str):
            continue
        directory = posixpath.dirname(manifest)
        out = _inside(directory, out_dir)
        root_dir = options.get("rootDir")
        source = _inside(directory, root_dir) if isinstance(root_dir, str) else \
            _common_directory(s for s in stems if _under(s, directory) and not _under(s, out))
        if out and source is not None and out != source:
            yield out, source


def _inside(directory: str, relative: str) -> str | None:
    """`relative` joined to `directory`, normalised; None when it leaves the root."""
    joined = posixpath.normpath(posixpath.join(directory, relative))
    if joined == ".":
        return ""
    return None if joined.startswith("../") or joined.startswith("/") else joined


def _under(path: str, directory: str | None) -> bool:
    if directory is None:
        return False
    return not directory or path.startswith(directory + "/")


def _common_directory(stems: Iterable[str]) -> str | None:
    directories = [posixpath.dirname(stem) for stem in stems]
    if not directories:
        return None
    common = posixpath.commonpath(directories) if all(directories) else ""
    return common


def _stem(path: str) -> str:
    return posixpath.splitext(path)[0]
