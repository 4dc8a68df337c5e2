"""Reading `tsconfig.json`: JSON with comments and trailing commas (JSONC).

A small scanner drops `//` and `/* */` comments and commas before `}` or `]`, outside strings,
then the standard JSON parser reads the rest, after the bounded reader's depth check. A file
that still is not JSON gives None; one nested too deeply raises `InputRefused`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from topo.analyzers.reading import load_json, read_text

__all__ = ["loads_jsonc", "read_jsonc"]


def read_jsonc(root: Path, relative: str) -> Any:
    """The JSONC file `relative` under `root`: None when it is absent (a dangling link
    included) or not JSON; `InputRefused` when it cannot be read safely."""
    path = root / relative
    if not os.path.exists(path):
        return None
    return loads_jsonc(read_text(path, root=root))


def loads_jsonc(text: str) -> Any:
    """The value of a JSONC document, or None when it is not JSON."""
    try:
        return load_json(_strip(text.removeprefix("\ufeff")))
    except ValueError:
        return None


def _strip(text: str) -> str:
    out: list[str] = []
    index, length = 0, len(text)
    pending_comma = -1          # position in `out` of a comma that may be trailing
    while index < length:
        char = text[index]
        if char == '"':
            end = _string_end(text, index)
            out.append(text[index:end])
            pending_comma = -1
            index = end
        elif text.startswith("//", index):
            newline = text.find("\n", index)
            index = length if newline == -1 else newline
        elif text.startswith("/*", index):
            close = text.find("*/", index + 2)
            index = length if close == -1 else close + 2
        else:
            if char in "}]" and pending_comma >= 0:
                out[pending_comma] = ""
            if char == ",":
                pending_comma = len(out)
            elif not char.isspace():
                pending_comma = -1
            out.append(char)
            index += 1
    return "".join(out)


def _string_end(text: str, start: int) -> int:
    index = start + 1
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text[index] == '"':
            return index + 1
        index += 1
    return len(text)
