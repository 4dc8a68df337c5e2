"""Module names across a TypeScript/JavaScript project: what an import specifier refers to.

A file's module is its root-relative path without extension (`src/lib/mailer`). An import
specifier resolves to:
- a relative path (`./mailer`, `../lib`): joined to the importer's directory, then probed the
  way TypeScript's bundler resolution does: the path with a source extension (`.ts`, `.tsx`,
  `.js`, …; a written `.js` also finds the `.ts` source), else its `index` file
  (`./lib` → `src/lib/index`). When no audited file matches, the joined path is kept as
  written, without a script extension; it is never guessed further;
- a `tsconfig.json` `compilerOptions.paths` alias (`@/lib/*` → `src/lib/*`) of the nearest
  tsconfig above the importer (following `extends` to files in the repository), then a
  `baseUrl`-relative path, each probed the same way;
- a workspace package of the repository (a `package.json` `name`, with its `exports`,
  `imports` for `#internal` specifiers, or `main`; see `workspaces.py`), probed the same way;
- otherwise a package: the specifier itself (`openai`, `@memrail/sdk`,
  `@modelcontextprotocol/sdk/server/mcp` with a script extension dropped so that dots keep
  separating name segments), and `node:child_process` is `child_process`.

The layout (which files exist, which aliases apply) is part of the per-file cache key: adding
a file can change what an unchanged file's imports mean.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from topo.analyzers.model import Unknown
from topo.analyzers.reading import InputRefused
from topo.analyzers.typescript.jsonc import read_jsonc
from topo.analyzers.typescript.workspaces import (WorkspacePackage, read_packages,
                                                  source_candidates)

__all__ = ["PathAlias", "TsConfig", "ProjectLayout", "load_layout", "SCRIPT_EXTENSIONS",
           "strip_script_extension"]

# In the order TypeScript probes them (sources before plain JavaScript).
SCRIPT_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_WRITTEN_EXTENSIONS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
_MAX_EXTENDS = 5


def strip_script_extension(path: str) -> str:
    """`src/a.js` → `src/a`; other extensions (`.json`, `.css`) stay."""
    for extension in _WRITTEN_EXTENSIONS:
        if path.endswith(extension) and len(path) > len(extension):
            return path[:-len(extension)]
    return path


@dataclass(frozen=True, slots=True)
class PathAlias:
    """One `paths` entry: `pattern` with at most one `*`, targets root-relative with `*`."""

    pattern: str
    targets: tuple[str, ...]

    def substitutions(self, specifier: str) -> tuple[str, ...] | None:
        """The target paths for `specifier`, or None when the pattern does not match it."""
        if "*" not in self.pattern:
            return self.targets if specifier == self.pattern else None
        prefix, _, suffix = self.pattern.partition("*")
        if not (specifier.startswith(prefix) and specifier.endswith(suffix)
                and len(specifier) >= len(prefix) + len(suffix)):
            return None
        middle = specifier[len(prefix):len(specifier) - len(suffix)]
        return tuple(target.replace("*", middle, 1) for target in self.targets)

    @property
    def specificity(self) -> int:
        return len(self.pattern.partition("*")[0])


@dataclass(frozen=True, slots=True)
class TsConfig:
    directory: str                 # root-relative directory of the tsconfig.json ("" = root)
    base_url: str | None           # root-relative, when `baseUrl` is set
    paths: tuple[PathAlias, ...]


@dataclass(frozen=True, slots=True)
class ProjectLayout:
    """The TS/JS files of an audit and the tsconfig aliases that apply to them."""

    sources: frozenset[str] = frozenset()
    configs: tuple[TsConfig, ...] = ()
    packages: tuple[WorkspacePackage, ...] = ()
    # tsconfig files (or files they extend) that could not be read; not part of the digest
    unknowns: tuple[Unknown, ...] = ()

    @property
    def digest(self) -> str:
        """A short hash of everything resolution depends on (part of the cache key)."""
        hasher = hashlib.sha256()
        for path in sorted(self.sources):
            hasher.update(path.encode("utf-8", "surrogatepass") + b"\0")
        hasher.update(repr(self.configs).encode("utf-8", "surrogatepass"))
        hasher.update(repr(self.packages).encode("utf-8", "surrogatepass"))
        return hasher.hexdigest()[:16]

    def public_names(self) -> tuple[tuple[str, str], ...]:
        """The entry modules of workspace packages by the specifier that imports them
        (`packages/agents/src/index` is `@openai/agents`): in the repository of a library, its
        own examples call it through these modules, and packs name it by its package."""
        names = set()
        for package in self.packages:
            for subpath, _ in package.exports:
                if "*" in subpath or not (subpath == "." or subpath.startswith("./")):
                    continue
                module = self._first(package.entry(subpath[1:]), package.directory)
                if module is not None:
                    names.add((module, strip_script_extension(package.name + subpath[1:])))
        return tuple(sorted(names))

    def resolve(self, importer: str, specifier: str) -> str | None:
        """The module `specifier` names when written in `importer`; None when a relative
        path climbs above the root."""
        return self.locate(importer, specifier)[0]

    def locate(self, importer: str, specifier: str) -> tuple[str | None, bool]:
        """`resolve`, and whether the module is a package (outside the repository)."""
        if specifier.startswith("node:"):
            return specifier[len("node:"):], True
        if specifier in (".", "..") or specifier.startswith(("./", "../")):
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
            if joined == ".." or joined.startswith("../"):
                return None, False
            return self._probe(joined) or strip_script_extension(joined), False
        config = self._config_of(importer)
        if config is not None:
            found = self._through_config(config, specifier)
            if found is not None:
                return found, False
        found = self._through_workspace(importer, specifier)
        if found is not None:
            return found, False
        package = strip_script_extension(specifier) if specifier.startswith("@") or "/" in \
            specifier else specifier
        return package, True

    def _through_config(self, config: TsConfig, specifier: str) -> str | None:
        matching = [alias for alias in config.paths if alias.substitutions(specifier)]
        if matching:
            best = max(matching, key=lambda alias: alias.specificity)
            targets = best.substitutions(specifier) or ()
            for target in targets:
                found = self._probe(posixpath.normpath(target))
                if found is not None:
                    return found
            if targets:
                return strip_script_extension(posixpath.normpath(targets[0]))
        if config.base_url is not None:
            return self._probe(posixpath.normpath(posixpath.join(config.base_url, specifier)))
        return None

    def _through_workspace(self, importer: str, specifier: str) -> str | None:
        if specifier.startswith("#"):
            owners = [p for p in self.packages if p.directory == "" or
                      importer.startswith(p.directory + "/")]
            owner = max(owners, key=lambda p: len(p.directory), default=None)
            targets = owner.internal(specifier) if owner is not None else ()
            return self._first(targets, owner.directory if owner else "")
        for package in self.packages:
            if specifier == package.name or specifier.startswith(package.name + "/"):
                targets = package.entry(specifier[len(package.name):])
                found = self._first(targets, package.directory)
                if found is not None:
                    return found
        return None

    def _first(self, targets: tuple[str, ...], directory: str) -> str | None:
        for target in targets:
            for candidate in source_candidates(target, directory):
                found = self._probe(candidate)
                if found is not None:
                    return found
        return None

    def _probe(self, path: str) -> str | None:
        """The module of the audited file `path` names (with an extension, or an index)."""
        path = path.removeprefix("./")
        if path in self.sources:
            return strip_script_extension(path)
        stem = strip_script_extension(path)
        for candidate in (stem, f"{path}/index"):
            for extension in SCRIPT_EXTENSIONS:
                if candidate + extension in self.sources:
                    return candidate
        return None

    def _config_of(self, importer: str) -> TsConfig | None:
        directory = posixpath.dirname(importer)
        best: TsConfig | None = None
        for config in self.configs:
            inside = config.directory == "" or directory == config.directory or \
                directory.startswith(config.directory + "/")
            if inside and (best is None or len(config.directory) > len(best.directory)):
                best = config
        return best


def load_layout(root: Path, sources: Iterable[str], manifests: Iterable[str]) -> ProjectLayout:
    """The layout of an audited tree: its TS/JS sources, every readable tsconfig.json and the
    workspace packages its package.json files name. A tsconfig (or a file it extends) that
    cannot be read safely is an Unknown of the layout: it must lie inside `root` after
    symlinks are resolved and be a small regular file."""
    manifests = tuple(manifests)
    configs = []
    unknowns: list[Unknown] = []
    for manifest in sorted(manifests):
        if posixpath.basename(manifest) == "tsconfig.json":
            config = _read_config(root, manifest, unknowns)
            if config is not None:
                configs.append(config)
    packages = read_packages(root, manifests, unknowns)
    return ProjectLayout(frozenset(sources), tuple(configs), packages, tuple(sorted(set(unknowns),
                         key=lambda unknown: (unknown.file, unknown.reason))))


def _read_config(root: Path, manifest: str, unknowns: list[Unknown]) -> TsConfig | None:
    directory = posixpath.dirname(manifest)
    options: dict = {}
    origin: dict[str, str] = {}     # option -> directory of the file that set it
    current, hops = manifest, 0
    chain: list[tuple[str, dict]] = []
    while current is not None and hops <= _MAX_EXTENDS:
        data = _load(root, current, manifest, unknowns)
        if not isinstance(data, dict):
            break
        chain.append((posixpath.dirname(current), data))
        extends = data.get("extends")
        current = _extended(current, extends) if isinstance(extends, str) else None
        hops += 1
    if not chain:
        return None
    for where, data in reversed(chain):     # the extending file wins
        compiler = data.get("compilerOptions")
        if isinstance(compiler, dict):
            for key in ("baseUrl", "paths"):
                if key in compiler:
                    options[key] = compiler[key]
                    origin[key] = where
    base_url = options.get("baseUrl")
    base = posixpath.normpath(posixpath.join(origin.get("baseUrl", directory), base_url)) \
        if isinstance(base_url, str) else None
    if base == ".":
        base = ""
    paths_base = base if base is not None else origin.get("paths", directory)
    aliases = []
    raw_paths = options.get("paths")
    if isinstance(raw_paths, dict):
        for pattern, targets in raw_paths.items():
            if isinstance(targets, list) and all(isinstance(t, str) for t in targets):
                aliases.append(PathAlias(pattern, tuple(
                    posixpath.normpath(posixpath.join(paths_base, target)).removeprefix("./")
                    for target in targets)))
    if base is None and not aliases:
        return None
    return TsConfig(directory, base, tuple(aliases))


def _extended(current: str, extends: str) -> str | None:
    """The repository file an `extends` names (package presets are not followed)."""
    if not extends.startswith("."):
        return None
    target = posixpath.normpath(posixpath.join(posixpath.dirname(current), extends))
    if target.startswith("../"):
        return None
    return target if target.endswith(".json") else target + ".json"


def _load(root: Path, relative: str, manifest: str, unknowns: list[Unknown]) -> object:
    try:
        return read_jsonc(root, relative)   # a missing extended file: nothing to read or hide
    except InputRefused as refused:
        via = "" if relative == manifest else f" (extended by {manifest})"
        unknowns.append(Unknown(relative, f"tsconfig not read{via}: {refused.reason}"))
        return None
