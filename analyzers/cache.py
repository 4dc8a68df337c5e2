"""The per-file IR cache: an unchanged file is never parsed twice.

Entries are pickled FileIRs named by a key over the file's content hash, its path and module
(both appear inside the IR), its language, the tool version and the front-end version, so that a
new front-end never serves an old IR. Writes go to a temporary file that is then renamed into
place, so a reader never sees half an entry; an entry that cannot be read (truncated, corrupt,
from an incompatible version) is treated as missing and rewritten. The cache is an optimisation:
a cache directory that cannot be written never fails an audit.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path

from analyzers.ir import FileIR, Language
from audit import __version__ as TOOL_VERSION

__all__ = ["IRCache", "cache_key"]


def cache_key(path: str, language: Language, module: str, content_sha256: str,
              frontend_version: str) -> str:
    """The cache key of one file's IR."""
    fields = (TOOL_VERSION, frontend_version, language.value, path, module, content_sha256)
    return hashlib.sha256("\0".join(fields).encode("utf-8", "surrogatepass")).hexdigest()


class IRCache:
    __slots__ = ("directory",)

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def _entry(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.pickle"

    def load(self, key: str) -> FileIR | None:
        """The cached IR under `key`, or None when absent or unreadable."""
        try:
            data = self._entry(key).read_bytes()
        except OSError:
            return None
        try:
            value = pickle.loads(data)  # noqa: S301 - our own cache directory, our own types
        except Exception:  # noqa: BLE001 - any damage means "not cached"
            return None
        return value if isinstance(value, FileIR) else None

    def store(self, key: str, ir: FileIR) -> None:
        """Write one entry atomically (temporary file, then `os.replace`)."""
        entry = self._entry(key)
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-",
                                                 suffix=".pickle")
            try:
                with os.fdopen(handle, "wb") as stream:
                    pickle.dump(ir, stream, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(temporary, entry)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError:
            return
