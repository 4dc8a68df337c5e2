"""What `-o` means, the same for `audit`, `check` and `graph`.

`-o -` is standard output. With one format named (`check` and `graph` always; `audit` when `-f`
names exactly one) `-o PATH` is the file to write, and an existing directory (or a path ending
in `/`) receives the format's usual file name inside it. With several formats `-o PATH` is a
directory. A target that contradicts its role is refused rather than guessed: a directory
named like a report file (`-o out.sarif` with two formats) and a file with no extension
(`-o reports` with one format, where a directory was probably meant).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePath

import click

from topo.cli.errors import UserError

__all__ = ["STDOUT", "FileTarget", "file_target", "directory_target", "write_file",
           "file_output_option"]


def file_output_option(*names: str):  # noqa: ANN201 - a click decorator
    """`-o` of a command that writes one report (`check`, `graph`): one meaning everywhere."""
    return click.option(*names, default="-", show_default=True, metavar="FILE|DIR/|-",
                        help="Where to write the report: a file, '-' for standard output, or "
                             "an existing directory (or one ending in /) for the format's "
                             "usual name.")

STDOUT = "-"
# Suffixes of the files topo writes, and of what people name reports.
_FILE_SUFFIXES = frozenset({".yaml", ".yml", ".html", ".htm", ".md", ".sarif", ".json",
                            ".xml", ".txt", ".dot", ".graphml", ".csv"})


@dataclass(frozen=True, slots=True)
class FileTarget:
    path: Path | None          # None: standard output


def _looks_like_directory(value: str) -> bool:
    return value.endswith(("/", os.sep)) or Path(value).is_dir()


def file_target(value: str, default_name: str) -> FileTarget:
    """The file `-o VALUE` names for one format whose usual file is `default_name`."""
    if value == STDOUT:
        return FileTarget(None)
    if _looks_like_directory(value):
        return FileTarget(Path(value) / default_name)
    if not PurePath(value).suffix:
        raise UserError(f"-o {value}: with one format -o names a file, and this has no "
                        f"extension; write -o {value}{PurePath(default_name).suffix} for a "
                        f"file, or -o {value}/ for a directory (created, then "
                        f"{value}/{default_name})")
    return FileTarget(Path(value))


def directory_target(value: str, count: int) -> Path:
    """The directory `-o VALUE` names for `count` (> 1, or defaulted) formats."""
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise UserError(f"-o {value}: is a file, but {count} formats are written into a "
                        "directory; name one format with -f to write one file")
    if not path.exists() and PurePath(value).suffix.lower() in _FILE_SUFFIXES:
        raise UserError(f"-o {value}: looks like a file name, but {count} formats are written "
                        "into a directory; name one format with -f to write one file, or "
                        "give a directory name")
    return path


def write_file(target: FileTarget, text: str, stdout) -> None:  # noqa: ANN001 - a text stream
    """Write `text` to the target (creating a missing parent directory)."""
    if target.path is None:
        stdout.write(text)
        stdout.flush()
        return
    try:
        target.path.parent.mkdir(parents=True, exist_ok=True)
        target.path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot write {target.path}: {error.strerror or error}") from None
