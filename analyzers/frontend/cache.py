"""The per-file IR cache: an unchanged file is never parsed twice.

Entries are pickled FileIRs named by a key over the file's content hash, its path and module
(both appear inside the IR), its language, the tool version, the front-end version and the
digest of the run's packs (their factories change what the front-end resolves), so that a new
front-end or an edited pack never serves an old IR. Writes go to a temporary file that is then
renamed into place, so a reader never sees half an entry; an entry that cannot be read (truncated, corrupt,
from an incompatible version) is treated as missing and rewritten. The cache is an optimisation:
a cache directory that cannot be written never fails an audit.

IR records are pickled as constructor calls (`Value(*fields)`): the default pickling of frozen,
slotted dataclasses calls `dataclasses.fields()` once per object when loading, which made a warm
cache cost a third of a parse. The same bytes carry results back from the worker processes.

Strings, tuples of strings and the records that are pure data (values, parameters) travel as
persistent ids and are loaded through a run's `SharedValues`, so that every IR of a run holds
one object per distinct name or value: `self`, `get`, `('ticket.id',)` recur in every file, and
a 1M-line repository's IRs took about half the memory this way (the parser builds each
occurrence anew, and pickle shares only within one file). Nothing compares IR records by
identity across places, so sharing equal ones changes no result.
"""

from __future__ import annotations

import copyreg
import dataclasses
from dataclasses import dataclass
import hashlib
import io
import operator
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any

from topo.analyzers import ir
from topo.analyzers.ir import FileIR, Language
from topo import __version__ as TOOL_VERSION
from topo.analyzers.model import Location, Unknown

__all__ = ["IRCache", "CacheUsage", "SharedValues", "cache_key", "dump_ir", "load_ir",
           "DEFAULT_MAX_CACHE_BYTES"]

# The layout of an entry's bytes (part of the key): 2 carries shared values as persistent ids.
_FORMAT = "ir-pickle-2"

# The store is bounded: past this size the least recently used entries are removed.
DEFAULT_MAX_CACHE_BYTES = 1 << 30

_RECORDS = (ir.Value, ir.Comparison, ir.Condition, ir.Guard, ir.Import, ir.Export, ir.Parameter,
            ir.Definition, ir.Call, ir.Assignment, ir.Return, ir.Comment, ir.GuardedBlock,
            ir.CodeCell, ir.FileIR, Location, Unknown)


def _reducer(record: type) -> Callable[[Any], tuple[type, tuple[Any, ...]]]:
    fields = operator.attrgetter(*(field.name for field in dataclasses.fields(record)))
    return lambda value: (record, fields(value))


_REDUCERS = MappingProxyType({**copyreg.dispatch_table,
                              **{record: _reducer(record) for record in _RECORDS}})


class SharedValues(dict):
    """One object per distinct value loaded: `shared[value]` is the first equal value it was
    given. A run loads every IR through one table, and drops the table once they are loaded."""

    __slots__ = ()

    def __missing__(self, value: Any) -> Any:
        self[value] = value
        return value


# Records that are pure data (no place in a file), so that equal ones can be one object:
# `Value(NAME, 'self', ref='self')` or an untyped `Parameter('ctx')` recur in every file.
_SHARED_RECORDS = frozenset({ir.Value, ir.Parameter})


def _shared_id(value: object) -> object | None:
    """The persistent id of a value `load_ir` shares between IRs (itself), or None."""
    kind = type(value)
    if kind is str or kind in _SHARED_RECORDS:
        return value
    # Every record's constructor arguments pass here too: most end with no string, so the
    # last item is looked at first.
    if kind is tuple and value and type(value[-1]) is str \
            and all(type(item) is str for item in value):
        return value
    return None


def dump_ir(value: FileIR) -> bytes:
    """Pickle one FileIR compactly (records as constructor calls, strings as shared values)."""
    stream = io.BytesIO()
    pickler = pickle.Pickler(stream, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _REDUCERS
    pickler.persistent_id = _shared_id
    pickler.dump(value)
    return stream.getvalue()


def load_ir(data: bytes, shared: SharedValues | None = None) -> FileIR | None:
    """The FileIR in `data`, or None when the bytes are damaged or hold something else.
    Its strings are those of `shared` (a table of its own when None)."""
    unpickler = pickle.Unpickler(io.BytesIO(data))
    unpickler.persistent_load = (SharedValues() if shared is None else shared).__getitem__
    try:
        value = unpickler.load()  # noqa: S301 - our own cache directory, our own types
    except Exception:  # noqa: BLE001 - any damage means "not cached"
        return None
    return value if isinstance(value, FileIR) else None


def cache_key(path: str, language: Language, module: str, content_sha256: str,
              frontend_version: str, packs_digest: str) -> str:
    """The cache key of one file's IR."""
    fields = (TOOL_VERSION, _FORMAT, frontend_version, packs_digest, language.value, path, module,
              content_sha256)
    return hashlib.sha256("\0".join(fields).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class CacheUsage:
    entries: int
    bytes: int


class IRCache:
    """Entries under `directory/<2 hex>/<key>.pickle`; a hit refreshes the entry's mtime, so
    `prune` removes the least recently used first."""

    __slots__ = ("directory",)

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def _entry(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.pickle"

    def load(self, key: str, shared: SharedValues | None = None) -> FileIR | None:
        """The cached IR under `key`, or None when absent or unreadable (strings from
        `shared`, see `load_ir`)."""
        entry = self._entry(key)
        try:
            data = entry.read_bytes()
        except OSError:
            return None
        try:
            os.utime(entry)            # recently used; a read-only cache still serves the hit
        except OSError:
            pass
        return load_ir(data, shared)

    def _shards(self) -> list[str]:
        try:
            return [d.path for d in os.scandir(self.directory)
                    if d.is_dir(follow_symlinks=False) and len(d.name) == 2]
        except OSError:
            return []

    def _entries(self) -> list[tuple[float, int, str]]:
        """(mtime, size, path) of every entry; anything else in the directory is left alone."""
        found = []
        for shard in self._shards():
            try:
                for item in os.scandir(shard):
                    if item.name.endswith(".pickle") and item.is_file(follow_symlinks=False):
                        stat = item.stat(follow_symlinks=False)
                        found.append((stat.st_mtime, stat.st_size, item.path))
            except OSError:
                continue
        return found

    def usage(self) -> CacheUsage:
        entries = self._entries()
        return CacheUsage(len(entries), sum(size for _, size, _ in entries))

    def prune(self, max_bytes: int = DEFAULT_MAX_CACHE_BYTES) -> CacheUsage:
        """Remove the least recently used entries until the store is at most `max_bytes`;
        returns what was removed."""
        entries = sorted(self._entries())
        total = sum(size for _, size, _ in entries)
        removed = CacheUsage(0, 0)
        for _, size, path in entries:
            if total <= max_bytes:
                break
            try:
                os.unlink(path)
            except OSError:
                continue
            total -= size
            removed = CacheUsage(removed.entries + 1, removed.bytes + size)
        return removed

    def clean(self) -> CacheUsage:
        """Remove every entry (and the emptied shard directories)."""
        removed = self.prune(-1)
        for shard in self._shards():
            try:
                os.rmdir(shard)            # only when empty: other files stay
            except OSError:
                pass
        return removed

    def store(self, key: str, data: bytes) -> None:
        """Write one entry (bytes from `dump_ir`) atomically: temporary file, `os.replace`."""
        entry = self._entry(key)
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-",
                                                 suffix=".pickle")
            try:
                with os.fdopen(handle, "wb") as stream:
                    stream.write(data)
                os.replace(temporary, entry)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError:
            return
