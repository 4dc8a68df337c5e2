"""Reading an `emus/` directory the way the Memrail CLI (`emu-plan`/`emu-apply`) reads it.

The rules come from the SDK's sync reader (memrail-facts §3.4): every `*.jsonl` in the folder,
not recursively, in sorted order; names starting with `.` (so `.emu.lock.jsonl`) are skipped;
blank lines and lines starting with `#` are skipped; each other line is one JSON object; an
`emu_key` may appear once across all files. Where the SDK stops at the first problem, we record
a `LoadError` and keep reading, so that one bad line does not hide the findings of the rest.
Each trigger is parsed here, once per distinct text of one load, and travels on its `Emu`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from topo.analyzers.model import Location
from topo.analyzers.reading import InputRefused, read_bytes
from topo.audit.dsl import ParseResult, parse_trigger
from topo.audit.policy.model import Emu, EmuSet, LoadError

__all__ = ["load_emus", "load_emu_file", "LOCK_FILE_NAME", "MAX_EMU_FILE_BYTES",
           "MAX_JSON_DEPTH", "MAX_JSON_NUMBER_DIGITS"]

LOCK_FILE_NAME = ".emu.lock.jsonl"
MAX_EMU_FILE_BYTES = 256 * 1024 * 1024
"""One EMU file; about 250,000 EMUs of a kilobyte each."""
MAX_JSON_DEPTH = 64
"""Nesting of one EMU line; an EMU nests about 4 levels (emu → action → args → value)."""
MAX_JSON_NUMBER_DIGITS = 100
"""Digits of one JSON integer, as for number literals in triggers."""
_BOM = "\ufeff"
_BRACKETS_OUTSIDE_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_LONE_SURROGATE_ESCAPE = re.compile(
    r"(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})")


def load_emus(directory: str | os.PathLike[str], *, root: str | os.PathLike[str] | None = None
              ) -> EmuSet:
    """Read every EMU in `directory`. Never raises for bad input: problems become errors.

    `root` makes reported file names relative to it (with `/` separators), as findings need.
    """
    folder = Path(directory)
    where = Location(_display(folder, root), 0)
    if not folder.exists():
        return _failed(where, "EMU directory does not exist")
    if not folder.is_dir():
        return _failed(where, "is not a directory; give the folder that holds the *.jsonl files")
    try:
        paths = source_files(folder)
    except OSError as error:
        return _failed(where, f"cannot list the EMU directory ({error.strerror or error})")
    if not paths:
        return _failed(where, "no *.jsonl files in the EMU directory (nothing to validate)")
    emus: list[Emu] = []
    errors: list[LoadError] = []
    parse = _memoised_parser()
    for path in paths:
        file_emus, file_errors = _read_file(path, _display(path, root), parse, root)
        emus.extend(file_emus)
        errors.extend(file_errors)
    unique, duplicates = _drop_duplicates(emus)
    return EmuSet(tuple(unique), tuple(sorted(errors + duplicates, key=lambda e: e.location)),
                  tuple(_display(p, root) for p in paths))


def load_emu_file(file: str | os.PathLike[str], *, root: str | os.PathLike[str] | None = None
                  ) -> EmuSet:
    """Read the EMUs of one JSONL file with the same line rules as `load_emus` (duplicate keys
    within the file are errors). Never raises for bad input: problems become errors."""
    path = Path(file)
    where = Location(_display(path, root), 0)
    if not path.exists():
        return _failed(where, "EMU file does not exist")
    if not path.is_file():
        return _failed(where, "is not a file; give an emus/ directory or one *.jsonl file")
    emus, errors = _read_file(path, _display(path, root), _memoised_parser())
    unique, duplicates = _drop_duplicates(emus)
    return EmuSet(tuple(unique), tuple(sorted(errors + duplicates, key=lambda e: e.location)),
                  (_display(path, root),))


def source_files(folder: Path) -> list[Path]:
    """The `*.jsonl` files the CLI would read: sorted, top level only, no dotfiles. A `.jsonl`
    entry that is not a regular file (a FIFO, a link to a device) is listed too, so that reading
    it refuses it with its name instead of skipping it silently."""
    return sorted(
        (p for p in folder.iterdir()
         if p.name.endswith(".jsonl") and not p.name.startswith(".")
         and p.name != LOCK_FILE_NAME and not p.is_dir()),
        key=lambda p: p.name)


def _memoised_parser() -> Callable[[str], ParseResult]:
    """`parse_trigger` remembering its answers for one load: EMUs that share a trigger text
    share one parse (the result is frozen, so sharing it is safe)."""
    results: dict[str, ParseResult] = {}

    def parse(text: str) -> ParseResult:
        if text not in results:
            results[text] = parse_trigger(text)
        return results[text]
    return parse


def _failed(where: Location, message: str) -> EmuSet:
    return EmuSet((), (LoadError(where, message),), ())


def _display(path: Path, root: str | os.PathLike[str] | None) -> str:
    """`path` relative to `root` when it lies under it, always with `/` separators."""
    if root is not None:
        # The link's own place first: a symlink leading out of the root is named where it is.
        for base, target in ((Path(root).absolute(), path.absolute()),
                             (Path(root).resolve(), path.resolve())):
            try:
                return target.relative_to(base).as_posix()
            except ValueError:
                pass
    return path.as_posix()


def _read_file(path: Path, name: str, parse: Callable[[str], ParseResult],
               root: str | os.PathLike[str] | None = None) -> tuple[list[Emu], list[LoadError]]:
    """The EMUs of one file: a regular file of at most `MAX_EMU_FILE_BYTES`, inside `root`
    (when given) once symlinks are resolved."""
    try:
        data = read_bytes(path, limit=MAX_EMU_FILE_BYTES,
                          root=Path(root) if root is not None else None)
    except InputRefused as refused:
        return [], [LoadError(Location(name, 0), f"cannot read file ({refused.reason})")]
    emus: list[Emu] = []
    errors: list[LoadError] = []
    # JSONL lines are physical `\n` lines; `str.splitlines` would also split on U+2028, which
    # JSON allows raw inside strings.
    for number, raw_line in enumerate(data.split(b"\n"), start=1):
        location = Location(name, number)
        result = _read_line(raw_line, location, parse, first=number == 1)
        if isinstance(result, Emu):
            emus.append(result)
        elif isinstance(result, LoadError):
            errors.append(result)
    return emus, errors


def _read_line(raw_line: bytes, location: Location, parse: Callable[[str], ParseResult], *,
               first: bool) -> Emu | LoadError | None:
    """One line: an EMU, an error, or None for a line the CLI skips."""
    try:
        line = raw_line.decode("utf-8")
    except UnicodeDecodeError as error:
        return LoadError(location, f"line is not UTF-8 text (byte 0x{raw_line[error.start]:02x} "
                                   f"at column {error.start + 1})")
    if first and line.startswith(_BOM):
        line = line[1:]  # A BOM from a Windows editor is harmless; json.loads would refuse it.
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    where = f"{location.file}:{location.line}"
    too_deep = _too_deep(line)
    if too_deep is not None:
        return LoadError(location, f"Invalid JSON in {where}: nests deeper than "
                                   f"{MAX_JSON_DEPTH} levels (column {too_deep})")
    try:
        value = json.loads(line, parse_constant=_reject_constant,  # columns stay the file's
                           parse_int=_parse_int)
    except json.JSONDecodeError as error:
        return LoadError(location, f"Invalid JSON in {where}: {error.msg} (column {error.colno})")
    except (ValueError, RecursionError) as error:
        return LoadError(location, f"Invalid JSON in {where}: {error}")
    surrogate = _lone_surrogate(line, value)
    if surrogate is not None:
        return LoadError(location, f"line holds a lone surrogate escape `{surrogate[0]}` "
                                   f"(column {surrogate[1]}), which is not Unicode text")
    if not isinstance(value, dict):
        return LoadError(location, f"line is {_kind(value)}, not a JSON object; each line of an "
                                   "EMU file holds one EMU object")
    return Emu.from_object(value, location, parse=parse)


def _too_deep(line: str) -> int | None:
    """1-based column where `line` nests past MAX_JSON_DEPTH, or None. Checked before
    `json.loads`, whose recursion would otherwise abort the run; the scan runs only on lines
    with that many brackets, so ordinary lines cost one count."""
    if line.count("[") + line.count("{") <= MAX_JSON_DEPTH:
        return None
    depth = 0
    for token in _BRACKETS_OUTSIDE_STRINGS.finditer(line):
        match token.group():
            case "[" | "{":
                depth += 1
                if depth > MAX_JSON_DEPTH:
                    return token.start() + 1
            case "]" | "}":
                depth -= 1
    return None


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_JSON_NUMBER_DIGITS:
        raise ValueError(f"a number of {digits} digits; the limit is {MAX_JSON_NUMBER_DIGITS}")
    return int(text)


def _lone_surrogate(line: str, value: object) -> tuple[str, int] | None:
    """(escape, 1-based column) of a `\\ud800`-style escape that is not half of a pair.

    JSON allows such escapes, but the string they make cannot be written as UTF-8, so every
    report would fail on it. Raw text never holds one (the UTF-8 decode refused it), so a line
    without `\\u` is skipped at once, and a line with one is confirmed by encoding its value.
    """
    if "\\u" not in line:
        return None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        found = _LONE_SURROGATE_ESCAPE.search(line)
        return (found.group(), found.start() + 1) if found else ("\\u…", 1)
    return None


def _reject_constant(name: str) -> Any:
    # Python's json accepts NaN and Infinity; JSON (and the Memrail API) does not.
    raise ValueError(f"{name} is not valid JSON")


def _kind(value: object) -> str:
    match value:
        case list():
            return "an array"
        case str():
            return "a string"
        case bool() | None:
            return f"`{json.dumps(value)}`"
        case _:
            return "a number"


def _drop_duplicates(emus: list[Emu]) -> tuple[list[Emu], list[LoadError]]:
    """Keep the first EMU per key; each later one is an error naming both places."""
    first_seen: dict[str, Emu] = {}
    unique: list[Emu] = []
    errors: list[LoadError] = []
    for emu in emus:
        earlier = first_seen.get(emu.emu_key) if emu.emu_key else None
        if earlier is None:
            if emu.emu_key:
                first_seen[emu.emu_key] = emu
            unique.append(emu)
            continue
        a, b = earlier.location, emu.location
        errors.append(LoadError(b, f"Duplicate emu_key '{emu.emu_key}' in "
                                   f"{a.file}:{a.line} and {b.file}:{b.line}"))
    return unique, errors
