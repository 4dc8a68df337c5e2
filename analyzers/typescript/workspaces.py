"""Workspace packages: a package name that is a directory of the audited repository.

npm, yarn and pnpm workspaces link every local package into `node_modules` under its
`package.json` `name`, so `import { runCommand } from '@acme/tools'` reads
`packages/tools/src/index.ts`. A package's entry points come from `exports` (a string, or a map
of subpaths to targets or condition maps), else `module`/`main`; `#internal` specifiers come
from its `imports`. A target under a build directory (`./dist/index.js`) is also probed as the
source it was built from (`src/index.ts`), since the audited tree holds sources, not builds.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from topo.analyzers.model import Unknown
from topo.analyzers.reading import InputRefused
from topo.analyzers.typescript.jsonc import read_jsonc

__all__ = ["WorkspacePackage", "read_packages", "source_candidates"]

# Conditions in the order a bundler targeting sources would pick them.
_CONDITIONS = ("source", "development", "import", "module", "node", "default", "require",
               "types")
_BUILD_DIRECTORIES = ("dist/", "build/", "lib/", "out/")


@dataclass(frozen=True, slots=True)
class WorkspacePackage:
    """One local package: its name, its root-relative directory, and its entry points."""

    name: str
    directory: str                                  # "" for the repository root
    exports: tuple[tuple[str, tuple[str, ...]], ...] = ()   # subpath → candidate targets
    imports: tuple[tuple[str, tuple[str, ...]], ...] = ()   # `#name` → candidate targets

    def entry(self, subpath: str) -> tuple[str, ...]:
        """Root-relative candidate files for `name` + `subpath` (`""` or `/sub`)."""
        return self._lookup(self.exports, "." + subpath)

    def internal(self, specifier: str) -> tuple[str, ...]:
        return self._lookup(self.imports, specifier)

    def _lookup(self, table: tuple[tuple[str, tuple[str, ...]], ...], key: str
                ) -> tuple[str, ...]:
        for pattern, targets in table:
            if pattern == key:
                return tuple(self._place(t) for t in targets)
            if "*" in pattern:
                head, _, tail = pattern.partition("*")
                if key.startswith(head) and key.endswith(tail) and len(key) >= len(pattern) - 1:
                    middle = key[len(head):len(key) - len(tail)]
                    return tuple(self._place(t.replace("*", middle)) for t in targets)
        return ()

    def _place(self, target: str) -> str:
        return posixpath.normpath(posixpath.join(self.directory, target)).removeprefix("./")


def source_candidates(path: str, directory: str) -> tuple[str, ...]:
    """`path`, and the source a build output was made from (`pkg/dist/a.js` → `pkg/src/a`)."""
    inside = path[len(directory) + 1:] if directory and path.startswith(directory + "/") \
        else path
    for build in _BUILD_DIRECTORIES:
        if inside.startswith(build):
            rest = inside[len(build):]
            base = f"{directory}/" if directory else ""
            return path, f"{base}src/{rest}", f"{base}{rest}"
    return (path,)


def read_packages(root: Path, manifests: Iterable[str], unknowns: list[Unknown]
                  ) -> tuple[WorkspacePackage, ...]:
    """Every named `package.json` of the audited tree (outside `node_modules`)."""
    packages = []
    for manifest in sorted(manifests):
        if posixpath.basename(manifest) != "package.json" or "node_modules/" in manifest:
            continue
        data = _load(root, manifest, unknowns)
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            continue
        packages.append(WorkspacePackage(
            data["name"], posixpath.dirname(manifest),
            _entries(data.get("exports"), data), _entries(data.get("imports"), None)))
    return tuple(packages)


def _entries(value: object, package: dict | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`exports`/`imports` as (subpath, targets); `main`/`module` stand for `.`."""
    table: list[tuple[str, tuple[str, ...]]] = []
    if isinstance(value, (str, list)) or (isinstance(value, dict) and value
                                          and not any(k.startswith((".", "#")) for k in value)):
        table.append((".", _targets(value)))
    elif isinstance(value, dict):
        table.extend((key, _targets(target)) for key, target in value.items()
                     if isinstance(key, str))
    if package is not None and not any(key == "." for key, _ in table):
        fallback = tuple(package[key] for key in ("source", "module", "main")
                         if isinstance(package.get(key), str))
        table.append((".", fallback + ("index",)))
    return tuple((key, targets) for key, targets in table if targets)


def _targets(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(t for item in value for t in _targets(item))
    if isinstance(value, dict):
        ordered = [value[c] for c in _CONDITIONS if c in value]
        ordered += [v for k, v in value.items() if k not in _CONDITIONS]
        return tuple(t for item in ordered for t in _targets(item))
    return ()


def _load(root: Path, relative: str, unknowns: list[Unknown]) -> object:
    try:
        return read_jsonc(root, relative)      # not JSON: a broken manifest names no package
    except InputRefused as refused:
        unknowns.append(Unknown(relative, f"package.json not read: {refused.reason}"))
        return None
