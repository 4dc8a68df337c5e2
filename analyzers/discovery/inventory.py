"""Discovery: which files of a repository the audit reads, and which it cannot.

Seed 000 ("Audit scope") excludes generated code, vendored dependencies, fixtures and tests from
initial discovery; the defaults here follow it, and `include_tests` brings tests back. Every file
that looks like source but cannot be read (too large, binary, not UTF-8, a symlink loop) becomes
an Unknown in the inventory instead of disappearing; a symlink loop with a name topo never reads
(`LICENSE -> LICENSE`), a minified bundle (`generated`) and JavaScript compiled from an audited
TypeScript source (`compiled`) are listed under `out_of_scope` instead. Files are read through the bounded reader (`topo.analyzers.reading`). The output is
sorted, so the same tree always gives the same inventory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from topo.analyzers.discovery._globs import GlobSet
from topo.analyzers.discovery._listing import Listing, git_listing, walk_listing
from topo.analyzers.discovery.compiled import COMPILED_REASON, compiled_twins
from topo.analyzers.discovery.configs import is_config_file
from topo.analyzers.discovery.generated import bundle_reason
from topo.analyzers.ir import Language
from topo.analyzers.model import Unknown
from topo.analyzers.notebooks import read_limit
from topo.analyzers.reading import InputRefused, read_bytes

__all__ = ["DEFAULT_MAX_FILE_SIZE", "DiscoveryConfig", "Exclusion", "Inventory", "SourceFile",
           "discover", "exclusions", "kept_by", "language_of"]

DEFAULT_MAX_FILE_SIZE = 1024 * 1024

# Dependencies, build output, caches and tool state: never the application's own code.
_SKIPPED_DIRECTORIES = frozenset({
    "node_modules", ".venv", "venv", "env", ".git", "dist", "build", "site-packages",
    "__pycache__", ".tox", ".nox", "vendor", "third_party", ".mypy_cache", ".pytest_cache",
    ".ruff_cache", ".hg", ".svn", ".eggs", ".next",
})
# Generated code markers.
_GENERATED_SUFFIXES = ("_pb2.py", "_pb2_grpc.py", ".min.js")
_TEST_DIRECTORIES = frozenset({"tests", "test", "__tests__", "fixtures"})
_SCRIPT_EXTENSIONS = ("ts", "tsx", "js", "jsx", "mjs", "cjs")
_TEST_SUFFIXES = ("_test.py", *(f".{kind}.{ext}" for kind in ("test", "spec")
                                for ext in _SCRIPT_EXTENSIONS))

_LANGUAGES = {
    ".py": Language.PYTHON,
    ".ts": Language.TYPESCRIPT, ".mts": Language.TYPESCRIPT, ".cts": Language.TYPESCRIPT,
    ".tsx": Language.TSX,
    ".js": Language.JAVASCRIPT, ".jsx": Language.JAVASCRIPT, ".mjs": Language.JAVASCRIPT,
    ".cjs": Language.JAVASCRIPT,
    ".ipynb": Language.PYTHON,   # code cells (analyzers/notebooks.py)
}
_DECLARATION_SUFFIXES = (".d.ts", ".d.mts", ".d.cts")
_MANIFEST_NAMES = frozenset({"pyproject.toml", "setup.cfg", "package.json", "tsconfig.json"})
_EMU_DIRECTORY = "emus"
_EMU_LOCK = ".emu.lock.jsonl"


@dataclass(frozen=True, slots=True)
class DiscoveryConfig:
    """What to read. `exclude` holds gitignore-style globs (with `**`), relative to the root."""

    include_tests: bool = False
    exclude: tuple[str, ...] = ()
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    use_git: bool = True


@dataclass(frozen=True, slots=True)
class SourceFile:
    path: str                  # root-relative, `/` separators
    language: Language
    size: int
    bundle: bool = False       # minified build output (`generated.bundle_reason`): not audited


@dataclass(frozen=True, slots=True)
class Exclusion:
    """One rule that kept paths out of the audit: the report's `out_of_scope` says what was not
    read, so that a clean report is never mistaken for a clean repository."""

    area: str
    patterns: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class Inventory:
    """The files an audit reads. `used_git` says whether git listed them; `notes` says how the
    tree was listed (and why git was not used, when it was not)."""

    root: Path
    sources: tuple[SourceFile, ...]
    manifests: tuple[str, ...]
    emu_dirs: tuple[str, ...]
    unknowns: tuple[Unknown, ...]
    used_git: bool
    emu_locks: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    out_of_scope: tuple[Exclusion, ...] = field(default=())
    # `.env*`, compose files and JSON that may hold `mcpServers` (analyzers/discovery/configs.py)
    configs: tuple[str, ...] = field(default=())
    # Markdown files: not parsed (they stay counted under `skipped`), but the config reader
    # reads those under a memory system's policy path (`shared/**`: prose every prompt gets).
    documents: tuple[str, ...] = field(default=())
    # Listed files not read, counted by reason (`tests and fixtures`, `not source: .md`…),
    # so that a run can say what it did not look at.
    skipped: tuple[tuple[str, int], ...] = field(default=())


def language_of(path: str) -> Language | None:
    """The language of a source path by its extension; declaration files (`.d.ts`) are None."""
    name = PurePosixPath(path).name
    if name.endswith(_DECLARATION_SUFFIXES):
        return None
    return _LANGUAGES.get(PurePosixPath(name).suffix)


def discover(root: Path, config: DiscoveryConfig = DiscoveryConfig()) -> Inventory:
    """List the source files, manifests and EMU directories under `root`."""
    root = Path(root)
    user_excludes = GlobSet(config.exclude)

    def is_excluded_dir(relative: str) -> bool:
        return _is_skipped_dir(relative, config) or user_excludes.matches(relative, True)

    listing: Listing | None = None
    note = "git disabled by configuration; the tree was walked instead"
    if config.use_git:
        listing, note = git_listing(root, _SKIPPED_DIRECTORIES)
    used_git = listing is not None
    if listing is None:
        listing = walk_listing(root, is_excluded_dir)
    return _classify(root, listing, config, user_excludes, used_git, note)


def _classify(root: Path, listing: Listing, config: DiscoveryConfig, user_excludes: GlobSet,
              used_git: bool, note: str) -> Inventory:
    sources: list[SourceFile] = []
    manifests: list[str] = []
    emu_dirs: set[str] = set()
    emu_locks: list[str] = []
    configs: list[str] = []
    documents: list[str] = []
    bundles: list[str] = []
    unknowns = list(listing.unknowns)
    skipped: Counter[str] = Counter()
    for directory in listing.pruned:   # a walk does not enter excluded directories
        reason = _exclusion_reason(f"{directory}/-", config) or \
            "excluded by configuration or --exclude"
        skipped[f"{reason} (directories not entered)"] += 1
    loops = []
    for relative in sorted(listing.loops):
        if _is_excluded_file(relative, config) or user_excludes.excludes(relative):
            continue
        if _would_read(relative):
            unknowns.append(Unknown(relative, "symlink loop skipped"))
        else:
            loops.append(relative)
    for relative in listing.files:
        excluded = _exclusion_reason(relative, config) or (
            "excluded by configuration or --exclude" if user_excludes.excludes(relative)
            else None)
        if excluded is not None:
            skipped[excluded] += 1
            continue
        name = PurePosixPath(relative).name
        parent = str(PurePosixPath(relative).parent)
        if name == _EMU_LOCK:
            emu_locks.append(relative)
        elif name.endswith(".jsonl") and PurePosixPath(parent).name == _EMU_DIRECTORY:
            emu_dirs.add(parent)
        if name in _MANIFEST_NAMES or (name.startswith("requirements") and name.endswith(".txt")):
            manifests.append(relative)
        if is_config_file(relative):
            configs.append(relative)
        elif name.endswith(".md"):
            documents.append(relative)
        language = language_of(relative)
        if language is None and not _is_input(relative, name, parent):
            skipped[f"not source: {PurePosixPath(name).suffix or 'no extension'}"] += 1
        if language is not None:
            source, unknown = _read_check(root, relative, language, config.max_file_size)
            if source is not None and source.bundle:
                skipped["generated bundles"] += 1
                bundles.append(relative)
            elif source is not None:
                sources.append(source)
            if unknown is not None:
                unknowns.append(unknown)
    compiled = compiled_twins(root, (source.path for source in sources), manifests)
    if compiled:
        skipped[COMPILED_REASON] += len(compiled)
        dropped = set(compiled)
        sources = [source for source in sources if source.path not in dropped]
    return Inventory(
        root=root,
        sources=tuple(sorted(sources, key=lambda source: source.path)),
        manifests=tuple(sorted(manifests)),
        emu_dirs=tuple(sorted(emu_dirs)),
        unknowns=tuple(sorted(unknowns, key=lambda unknown: (unknown.file, unknown.reason))),
        used_git=used_git,
        emu_locks=tuple(sorted(emu_locks)),
        notes=(note,),
        out_of_scope=exclusions(config) + _bundles(bundles) + _compiled(compiled) +
        _loops(loops),
        configs=tuple(sorted(configs)),
        documents=tuple(sorted(documents)),
        skipped=tuple(sorted(skipped.items())),
    )


def exclusions(config: DiscoveryConfig) -> tuple[Exclusion, ...]:
    """The exclusion rules in force for `config`, in a fixed order (seed 000, "Audit scope")."""
    rules = [
        Exclusion("dependencies, build output and tool state",
                  tuple(f"{name}/" for name in sorted(_SKIPPED_DIRECTORIES)) + ("*.egg-info/",),
                  "vendored and installed code is not the application's own"),
        Exclusion("generated code", tuple(f"*{suffix}" for suffix in _GENERATED_SUFFIXES),
                  "generated files are rebuilt from their sources"),
        Exclusion("declaration files", tuple(f"*{s}" for s in _DECLARATION_SUFFIXES),
                  "type declarations hold no behaviour"),
    ]
    if not config.include_tests:
        rules.append(Exclusion(
            "tests and fixtures",
            (*(f"{name}/" for name in sorted(_TEST_DIRECTORIES)), "test_*.py", "conftest.py",
             *(f"*{suffix}" for suffix in _TEST_SUFFIXES)),
            "excluded by default; --include-tests reads them"))
    if config.exclude:
        rules.append(Exclusion("user excludes", tuple(config.exclude), "--exclude"))
    rules.append(Exclusion(
        "other files", ("files that are not Python, TypeScript, JavaScript or emus/*.jsonl",),
        "topo has no front-end for them; prompts in Markdown or YAML are not read, but for "
        "a memory system's policy prose (MemexAI `shared/**/*.md`)"))
    rules.append(Exclusion(
        "files larger than the size limit", (f"> {config.max_file_size} bytes",),
        "listed under unknowns when they look like source"))
    return tuple(rules)


def kept_by(config: DiscoveryConfig) -> Callable[[str], bool]:
    """Whether discovery under `config` could read a root-relative path (its directory and
    file exclusions, the user's globs included): to copy only those files of a tree."""
    user_excludes = GlobSet(config.exclude)
    return lambda relative: _exclusion_reason(relative, config) is None and \
        not user_excludes.excludes(relative)


def _bundles(paths: list[str]) -> tuple[Exclusion, ...]:
    if not paths:
        return ()
    return (Exclusion("generated bundles", tuple(sorted(paths)),
                      "minified build output: most of the file is lines of over 1000 characters "
                      "of code outside strings"),)


def _compiled(paths: tuple[str, ...]) -> tuple[Exclusion, ...]:
    if not paths:
        return ()
    return (Exclusion("compiled JavaScript", paths,
                      "tsc output of a TypeScript source the audit reads (same stem, beside it "
                      "or under the tsconfig's outDir): audited once, as its source"),)


def _loops(paths: list[str]) -> tuple[Exclusion, ...]:
    if not paths:
        return ()
    return (Exclusion("symlink loops", tuple(paths),
                      "a link that resolves to itself names no file; none of these has a name "
                      "topo reads (source, manifest, config or EMU file)"),)


def _would_read(relative: str) -> bool:
    """Whether discovery reads a file of this name (a loop there hides something)."""
    name = PurePosixPath(relative).name
    return language_of(relative) is not None or is_config_file(relative) \
        or name in _MANIFEST_NAMES or name == _EMU_LOCK or name.endswith(".jsonl") \
        or (name.startswith("requirements") and name.endswith(".txt"))


def _is_skipped_dir(relative: str, config: DiscoveryConfig) -> bool:
    name = PurePosixPath(relative).name
    if name in _SKIPPED_DIRECTORIES or name.endswith(".egg-info"):
        return True
    return not config.include_tests and name in _TEST_DIRECTORIES


def _is_excluded_file(relative: str, config: DiscoveryConfig) -> bool:
    """Default exclusions for one listed file (git lists files under skipped directories too)."""
    return _exclusion_reason(relative, config) is not None


def _exclusion_reason(relative: str, config: DiscoveryConfig) -> str | None:
    """Why a default exclusion keeps this listed file out (the `exclusions` areas), or None."""
    parts = relative.split("/")
    for part in parts[:-1]:
        if _is_skipped_dir(part, config):
            return "tests and fixtures" if part in _TEST_DIRECTORIES \
                else "dependencies, build output and tool state"
    name = parts[-1]
    if name.endswith(_GENERATED_SUFFIXES):
        return "generated code"
    if config.include_tests:
        return None
    if (name.startswith("test_") and name.endswith(".py")) or name == "conftest.py" \
            or name.endswith(_TEST_SUFFIXES):
        return "tests and fixtures"
    return None


def _is_input(relative: str, name: str, parent: str) -> bool:
    """Whether discovery reads this non-source file (manifest, config, EMU file or lock)."""
    return name in _MANIFEST_NAMES or is_config_file(relative) or name == _EMU_LOCK \
        or (name.endswith(".jsonl") and PurePosixPath(parent).name == _EMU_DIRECTORY) \
        or (name.startswith("requirements") and name.endswith(".txt"))


def _read_check(root: Path, relative: str, language: Language,
                max_size: int) -> tuple[SourceFile | None, Unknown | None]:
    """Admit a source file only if it is small enough, text, and UTF-8; else say why not."""
    try:
        data = read_bytes(root / relative, limit=read_limit(relative, max_size), root=root)
    except InputRefused as refused:
        prefix = "file" if refused.reason.startswith("too large") else "file not readable:"
        return None, Unknown(relative, f"{prefix} {refused.reason}")
    if b"\0" in data:
        return None, Unknown(relative, "binary file (contains a NUL byte)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, Unknown(relative, f"not valid UTF-8 (byte {error.start})")
    bundle = language is not Language.PYTHON and bundle_reason(text) is not None
    return SourceFile(relative, language, len(data), bundle), None
