"""The per-file stage: every source file of an inventory to its FileIR, in parallel and cached.

Files are independent here (cross-file facts are joined later, by the graph), so the stage runs
on a `concurrent.futures` process pool and each result is cached by content hash. Language
dispatch lives here: Python goes to libcst (a notebook's code cells too, joined:
`topo.analyzers.notebooks`), TypeScript/TSX/JavaScript to tree-sitter; a language
without a front-end gives a FileIR whose `parse_error` says so, rather than silently dropping
the file. TS/JS import specifiers resolve against the project layout (which files exist, the
tsconfig `paths`), so the layout's digest is part of those files' cache key. The packs'
`factories` are handed to the Python front-end explicitly, and the packs' digest is part of
every key. The output is sorted by path and does not depend on `jobs` or on the cache. A worker
that dies (a native fault, out of memory) costs only the file that killed it: the rest of its
batch is parsed again in fresh pools, and only a file that crashes a worker on its own is marked.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import os
from contextlib import contextmanager
from collections.abc import Callable, Container, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from topo.analyzers.frontend.cache import (DEFAULT_MAX_CACHE_BYTES, IRCache, SharedValues,
                                          cache_key, dump_ir, load_ir)
from topo.analyzers.frontend.executor import DaskExecutor, parse_executor
from topo.analyzers.discovery.inventory import DEFAULT_MAX_FILE_SIZE, Inventory, SourceFile
from topo.analyzers.ir import FileIR, Language
from topo.analyzers.modules import python_module_name
from topo.analyzers.packs import Pack, factories, load_packs, packs_digest, wrappers
from topo.analyzers import python as python_frontend   # parse_python: imported on first use
from topo.analyzers.python import FRONTEND_VERSION as PYTHON_FRONTEND_VERSION
from topo.analyzers import typescript as typescript_frontend   # parse_typescript: likewise
from topo.analyzers.typescript import FRONTEND_VERSION as TYPESCRIPT_FRONTEND_VERSION
from topo.analyzers.typescript import ProjectLayout, load_layout
from topo.analyzers.model import Unknown
from topo.analyzers.notebooks import (NotebookError, cell_position, is_notebook,
                                      notebook_script, read_limit)
from topo import __version__ as TOOL_VERSION
from topo.analyzers.reading import InputRefused, read_bytes

__all__ = ["analyze_files", "frontend_version", "parse_source", "project_layout",
           "worker_identity"]

# Pool work is sent in chunks: a few per worker keeps them busy without per-file overhead.
_CHUNKS_PER_WORKER = 4
# ...of at most this many files: a chunk comes back as one message of its pickled IRs, and
# 600-file chunks (1M lines, 2 workers) left about 80 MiB of this process's heap free but
# not returned to the system for the rest of the run.
_MAX_CHUNK = 32


_SCRIPT_LANGUAGES = frozenset({Language.TYPESCRIPT, Language.TSX, Language.JAVASCRIPT})


def frontend_version(language: Language) -> str:
    """The version of the front-end reading `language` (part of the cache key)."""
    if language is Language.PYTHON:
        return PYTHON_FRONTEND_VERSION
    return TYPESCRIPT_FRONTEND_VERSION if language in _SCRIPT_LANGUAGES else "none-1"


def parse_source(path: str, language: Language, data: bytes, module: str, *,
                 strict: bool = False, layout: ProjectLayout | None = None,
                 factories: Container[str] = frozenset(),
                 wrappers: Container[str] = frozenset()) -> FileIR:
    """The FileIR of one file's bytes; unreadable bytes give a FileIR with `parse_error`.
    `layout` resolves TS/JS import specifiers (None: relative imports stay as written);
    `factories` are the packs' factory names, for the Python front-end; `wrappers` the packs'
    wrapper names (`util.promisify`), for the TS/JS front-end."""
    digest = hashlib.sha256(data).hexdigest()
    if b"\0" in data:
        return _unreadable(path, language, module, digest, "binary file (contains a NUL byte)")
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return _unreadable(path, language, module, digest,
                           f"not valid UTF-8 (byte {error.start})")
    if language is Language.PYTHON and is_notebook(path):
        return _parse_notebook(path, source, module, digest, strict, factories)
    if language is Language.PYTHON:
        return python_frontend.parse_python(path, source, module, strict=strict,
                                            factories=factories)
    if language in _SCRIPT_LANGUAGES:
        return typescript_frontend.parse_typescript(path, source, module, language,
                                                    layout=layout, strict=strict,
                                                    wrappers=wrappers)
    return _unreadable(path, language, module, digest,
                       f"no front-end for {language.value} yet")


def _parse_notebook(path: str, text: str, module: str, digest: str, strict: bool,
                    factories: Container[str]) -> FileIR:
    """A notebook's code cells as one Python file; its locations count the script's lines."""
    try:
        script = notebook_script(text)
    except NotebookError as error:
        return FileIR(path, Language.PYTHON, module, digest, 0,
                      parse_error=Unknown(path, error.reason, error.line))
    ir = python_frontend.parse_python(path, script.source, module, strict=strict,
                                      factories=factories)
    error = ir.parse_error
    if error is not None and error.line is not None:
        place = cell_position(script.cells, error.line)
        if place is not None:
            # The script line means nothing to a reader of the notebook: the cell says it.
            error = Unknown(path, f"{error.reason} (cell {place[0]}, line {place[1]})")
    return dataclasses.replace(ir, sha256=digest, cells=script.cells, parse_error=error)


def _unreadable(path: str, language: Language, module: str, digest: str, reason: str,
                lines: int = 0) -> FileIR:
    return FileIR(path, language, module, digest, lines, parse_error=Unknown(path, reason))


@dataclass(frozen=True, slots=True)
class _PackNames:
    """What the front-ends read from the packs: factories (Python), wrappers (TS/JS)."""

    factories: Container[str]
    wrappers: Container[str]


@dataclass(frozen=True, slots=True)
class _Job:
    path: str
    language: Language
    module: str
    data: bytes
    strict: bool
    layout: ProjectLayout | None = None   # TS/JS only; one object shared by a chunk's jobs
    factories: Container[str] = frozenset()   # Python only; shared like `layout`
    wrappers: Container[str] = frozenset()    # TS/JS only; shared like `layout`


def _run_job(job: _Job) -> FileIR:
    """One file. Outside strict mode no error escapes: it becomes the file's `parse_error`, and
    the rest of the batch goes on."""
    if job.strict:
        return parse_source(job.path, job.language, job.data, job.module, strict=True,
                            layout=job.layout, factories=job.factories, wrappers=job.wrappers)
    try:
        return parse_source(job.path, job.language, job.data, job.module, layout=job.layout,
                            factories=job.factories, wrappers=job.wrappers)
    except Exception as error:  # noqa: BLE001 - one file must not sink the batch
        return _unreadable(job.path, job.language, job.module,
                           hashlib.sha256(job.data).hexdigest(),
                           f"front-end failed: {type(error).__name__}: {error}"[:300])


def _run_collected(job: _Job, collect: bool) -> FileIR:
    if not collect:
        return _run_job(job)
    gc.enable()
    try:
        return _run_job(job)
    finally:
        gc.disable()


def _worker_start(collect: bool) -> None:
    """A pool worker: it never frees what it inherited, so freezing that keeps the collector's
    full passes (a tenth of the parse time) from walking the parent's whole heap; the
    collector, paused in the parent while IRs load, is on again for the parse."""
    gc.freeze()
    if collect:
        gc.enable()


def _run_job_pickled(job: _Job) -> bytes:
    """One file in a worker process, returned as the bytes the cache stores."""
    return dump_ir(_run_job(job))


def _run_chunk(jobs: list[_Job]) -> list[bytes]:
    """A chunk of files on a remote worker (`executor.DaskExecutor`)."""
    return [_run_job_pickled(job) for job in jobs]


def worker_identity() -> tuple[str, ...]:
    """What a remote worker must share with this process for its IRs to be ours: the tool
    and front-end versions."""
    return (f"topo {TOOL_VERSION}", f"python-frontend {PYTHON_FRONTEND_VERSION}",
            f"typescript-frontend {TYPESCRIPT_FRONTEND_VERSION}")


def module_name(source: SourceFile, python_paths: frozenset[str], root_name: str) -> str:
    """Python: the dotted module; other languages: the path without its extension."""
    if source.language is Language.PYTHON:
        return python_module_name(source.path, python_paths, root_name)
    return source.path.rsplit(".", 1)[0]


def project_layout(inventory: Inventory) -> ProjectLayout:
    """The TS/JS layout (sources and tsconfig aliases) the stage resolves imports against."""
    return load_layout(inventory.root, (source.path for source in inventory.sources
                                        if source.language in _SCRIPT_LANGUAGES),
                       inventory.manifests)


def analyze_files(inventory: Inventory, *, jobs: int | None = None, cache_dir: Path | None = None,
                  max_file_size: int = DEFAULT_MAX_FILE_SIZE, strict: bool = False,
                  progress: Callable[[int, int], None] | None = None,
                  packs: tuple[Pack, ...] | None = None,
                  layout: ProjectLayout | None = None,
                  max_cache_bytes: int = DEFAULT_MAX_CACHE_BYTES,
                  executor: str | None = None) -> tuple[FileIR, ...]:
    """Parse every source of `inventory` into its FileIR (sorted by path).

    `jobs` worker processes (default: all cores; 1 runs in this process); results are cached in
    `cache_dir` (None disables the cache). The cache directory must lie outside the audited
    tree: nothing is ever written into it. `progress(done, total)` is called as files are done
    (cache hits first); it only observes. `packs` are the run's packs (None: the shipped ones).
    `layout` is the TS/JS project layout when the caller already loaded it (`project_layout`),
    so that it can report the layout's unknowns. `executor` is where files are parsed: None
    or `local` for the process pool, `dask://HOST:PORT` for a Dask cluster (`executor.py`; an
    `ExecutorError` when it cannot be used). The result is the same wherever it runs.
    """
    address = parse_executor(executor)
    run = _parse_all if address is None else _remote(DaskExecutor(address, worker_identity))
    packs = load_packs() if packs is None else packs
    names = _PackNames(factories(packs), wrappers(packs))
    pack_digest = packs_digest(packs)
    cache = IRCache(cache_dir) if cache_dir is not None else None
    layout = layout if layout is not None else project_layout(inventory)
    with _collector_paused() as collect:
        return _analyze(inventory, jobs, cache, layout, max_file_size, strict, progress,
                        names, pack_digest, collect, run, max_cache_bytes)


def _analyze(inventory: Inventory, jobs: int | None, cache: IRCache | None,
             layout: ProjectLayout, max_file_size: int, strict: bool,
             progress: Callable[[int, int], None] | None, names: _PackNames,
             pack_digest: str, collect: bool, run: _Runner,
             max_cache_bytes: int = DEFAULT_MAX_CACHE_BYTES) -> tuple[FileIR, ...]:
    python_paths = frozenset(source.path for source in inventory.sources
                             if source.language is Language.PYTHON)
    root_name = Path(os.path.realpath(inventory.root)).name
    shared = SharedValues()   # one object per distinct string over all the IRs loaded
    results: dict[str, FileIR] = {}
    pending: list[tuple[_Job, str | None]] = []
    for source in sorted(inventory.sources, key=lambda item: item.path):
        module = module_name(source, python_paths, root_name)
        data, problem = _read(inventory.root / source.path, read_limit(source.path, max_file_size),
                              inventory.root)
        if data is None:
            results[source.path] = _unreadable(source.path, source.language, module, "", problem)
            continue
        script = source.language in _SCRIPT_LANGUAGES
        key = None
        if cache is not None:
            version = frontend_version(source.language)
            if script:
                version += f"+layout:{layout.digest}"
            key = cache_key(source.path, source.language, module, hashlib.sha256(data).hexdigest(),
                            version, pack_digest)
            cached = cache.load(key, shared)
            if cached is not None:
                results[source.path] = cached
                continue
        python = source.language is Language.PYTHON
        pending.append((_Job(source.path, source.language, module, data, strict,
                             layout if script else None,
                             names.factories if python else frozenset(),
                             frozenset() if python else names.wrappers), key))
    total = len(inventory.sources)
    if progress is not None:
        progress(len(results), total)
    for (job, key), (ir, data) in zip(pending, run([job for job, _ in pending], jobs,
                                                   collect, shared)):
        results[job.path] = ir
        if progress is not None:
            progress(len(results), total)
        if cache is not None and key is not None and not _is_transient(ir):
            cache.store(key, data if data is not None else dump_ir(ir))
    if cache is not None and pending:
        cache.prune(max_cache_bytes)      # the store stays bounded (least recently used go)
    return tuple(results[path] for path in sorted(results))


@contextmanager
def _collector_paused() -> Iterator[bool]:
    """The cyclic collector off while IRs load (from the cache or from workers); yields whether
    it was on. Unpickling allocates millions of records and none is garbage, but each burst of
    allocations starts a collection that walks every record loaded so far. At the end what is
    loaded (the IRs, alive for the whole run) is frozen (`gc.freeze`), so the later stages'
    full collections do not walk it again; frozen objects are still freed by reference count.
    On openai-agents-python a warm load takes 0.56 CPU s instead of 1.70."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield enabled
    finally:
        if enabled:
            gc.enable()
            gc.freeze()


def _read(path: Path, max_size: int, root: Path) -> tuple[bytes | None, str]:
    try:
        return read_bytes(path, limit=max_size, root=root), ""
    except InputRefused as refused:
        prefix = "file" if refused.reason.startswith("too large") else "file not readable:"
        return None, f"{prefix} {refused.reason}"


def _is_transient(ir: FileIR) -> bool:
    """A crashed worker says nothing about the file: never cache that."""
    return ir.parse_error is not None and ir.parse_error.reason.startswith(
        ("front-end worker", "front-end failed"))


_Runner = Callable[[list[_Job], int | None, bool, SharedValues],
                   Iterator[tuple[FileIR, bytes | None]]]


def _remote(executor: DaskExecutor) -> _Runner:
    """The stage's runner on a Dask cluster: the same job bytes as the local pool's."""
    executor.ensure_available()

    def run(batch: list[_Job], jobs: int | None, collect: bool,
            shared: SharedValues) -> Iterator[tuple[FileIR, bytes | None]]:
        if not batch:
            return
        for job, data in zip(batch, executor.run(batch, _run_chunk)):
            yield (_crashed(job), None) if data is None else _from_worker(job, data, shared)
    return run


def _parse_all(batch: list[_Job], jobs: int | None, collect: bool = True,
               shared: SharedValues | None = None) -> Iterator[tuple[FileIR, bytes | None]]:
    """Each job's IR (in order), with its pickled bytes when it came from a worker (loaded
    through `shared`). A file parsed in this process is parsed with the collector on when
    `collect` (a parse makes cyclic garbage; loading an IR does not)."""
    shared = SharedValues() if shared is None else shared
    workers = min(jobs or os.cpu_count() or 1, len(batch))
    if workers <= 1:
        for job in batch:
            yield _run_collected(job, collect), None
        return
    chunk = max(1, min(_MAX_CHUNK, len(batch) // (workers * _CHUNKS_PER_WORKER)))
    done = 0
    try:
        with ProcessPoolExecutor(max_workers=workers, initializer=_worker_start,
                                 initargs=(collect,)) as pool:
            for job, data in zip(batch, pool.map(_run_job_pickled, batch, chunksize=chunk)):
                done += 1
                yield _from_worker(job, data, shared)
    except BrokenProcessPool:
        # Which file crashed the worker is unknown: the rest of the batch is parsed again, and
        # only a file that crashes a worker of its own is marked.
        yield from _isolate(batch[done:], workers, collect, shared)


def _isolate(batch: list[_Job], workers: int, collect: bool,
             shared: SharedValues) -> Iterator[tuple[FileIR, bytes | None]]:
    """Parse `batch` one job per task in fresh pools. Each round keeps what finished before
    the pool broke; a round that finished nothing narrows to one job per pool, so the file
    that kills its own worker is the only one marked crashed."""
    results: dict[int, tuple[FileIR, bytes | None]] = {}
    pending = list(range(len(batch)))
    while pending:
        width = workers if len(pending) > 1 else 1
        finished = _round([batch[index] for index in pending], width, collect, shared)
        for index, outcome in zip(list(pending), finished):
            if outcome is not None:
                results[index] = outcome
        survivors = [index for index, outcome in zip(pending, finished) if outcome is None]
        if len(survivors) == len(pending):          # nothing finished: go one by one
            for index in survivors:
                outcome = _round([batch[index]], 1, collect, shared)[0]
                results[index] = outcome if outcome is not None else (_crashed(batch[index]),
                                                                      None)
            survivors = []
        pending = survivors
    for index in range(len(batch)):
        yield results[index]


def _round(batch: list[_Job], workers: int, collect: bool,
           shared: SharedValues) -> list[tuple[FileIR, bytes | None] | None]:
    """One pool over `batch`, a task per job; None for each job the broken pool lost."""
    outcomes: list[tuple[FileIR, bytes | None] | None] = [None] * len(batch)
    try:
        with ProcessPoolExecutor(max_workers=workers, initializer=_worker_start,
                                 initargs=(collect,)) as pool:
            futures = [pool.submit(_run_job_pickled, job) for job in batch]
            for index, future in enumerate(futures):
                try:
                    outcomes[index] = _from_worker(batch[index], future.result(), shared)
                except BrokenProcessPool:
                    pass
    except BrokenProcessPool:
        pass
    return outcomes


def _from_worker(job: _Job, data: bytes,
                 shared: SharedValues) -> tuple[FileIR, bytes | None]:
    ir = load_ir(data, shared)
    if ir is None:   # only a broken pickle module could do this; say so anyway
        return _unreadable(job.path, job.language, job.module, "",
                           "front-end worker failed (result unreadable)"), None
    return ir, data


def _crashed(job: _Job) -> FileIR:
    return _unreadable(job.path, job.language, job.module, "",
                       "front-end worker crashed on this file (out of memory or a native "
                       "fault); it was not read")
