"""Deployment and agent configuration files: env settings and the MCP servers agents get.

Other-systems.md §4.3 `FP-manifests` and §4.4 E6: what a repository configures outside its code
decides part of its authority graph. `MEMEX_SHARED_WRITE_MODE=rw` lets agents write the shared
policy files every prompt reads; `MUBIT_CL_FORGET=1` and `MEMEX_DREAM_ENABLED=true` make memory
records disappear or change after the fact; an MCP client config that spawns `@mubit-ai/mcp`
hands the model `mubit_forget`.

Parse-only and language-blind: stdlib `json` (with `//` and `/* */` comments, as VS Code and
Cursor accept), a dotenv line reader, and a YAML reader that only understands a compose
`environment:` block (a mapping or a `- KEY=value` list). Nothing is executed or substituted:
`${VAR:-rw}` is recorded as not literal. Only the settings the rule packs name (and their
prefixes) are kept, so secrets in `.env` files never enter the facts (a credential a pack
names exactly is kept by name, its value never); which MCP servers are
known, and the tools they hand the model, is pack data too (`[[mcp_servers]]`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from topo.analyzers.model import Location, Unknown
from topo.analyzers.reading import InputRefused, load_json, read_text
from topo.analyzers.packs import McpServerRule

__all__ = ["ConfigFacts", "McpServer", "PolicyProse", "Setting", "is_config_file",
           "read_configs"]

_SECRET_WORDS = ("KEY", "SECRET", "TOKEN", "PASSWORD")
_COMPOSE = re.compile(r"^(docker-)?compose([.-][\w.-]*)?\.ya?ml$")
_MCP_NAMES = frozenset({"claude_desktop_config.json", "mcp.json", ".mcp.json"})
_UNSET = object()


@dataclass(frozen=True, slots=True)
class Setting:
    """One environment setting as a config file writes it. `value` is None when the file
    does not give a literal (`${MUBIT_CL_FORGET}`)."""

    name: str
    value: str | None
    location: Location
    source: str                    # dotenv | compose | mcp

    @property
    def enabled(self) -> bool:
        return self.value is not None and self.value.strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True, slots=True)
class McpServer:
    """One `mcpServers` entry of an MCP client config."""

    name: str
    location: Location
    command: str
    args: tuple[str, ...]
    url: str
    known: str | None              # the pack-declared server it is (`McpServerRule.name`)
    inferred: bool                 # known by a name hint, not by its package
    disabled: bool
    disabled_tools: tuple[str, ...]
    allowed_tools: tuple[str, ...] | None   # None: the client does not filter

    def exposes(self, tool: str) -> bool:
        if self.disabled or tool in self.disabled_tools:
            return False
        return self.allowed_tools is None or tool in self.allowed_tools


@dataclass(frozen=True, slots=True)
class PolicyProse:
    """A Markdown file of the repository under a memory system's policy path (`shared/**` of
    MemexAI): prose the system puts in every prompt, seeded from the repository."""

    file: str
    store: str
    text: str


@dataclass(frozen=True, slots=True)
class ConfigFacts:
    files: tuple[str, ...] = ()
    settings: tuple[Setting, ...] = ()
    servers: tuple[McpServer, ...] = ()
    prose: tuple[PolicyProse, ...] = ()

    def setting(self, name: str) -> tuple[Setting, ...]:
        return tuple(s for s in self.settings if s.name == name)


def is_config_file(relative: str) -> bool:
    """Whether discovery lists `relative` as a config file to read."""
    name = PurePosixPath(relative).name
    return name == ".env" or name.startswith(".env.") or bool(_COMPOSE.match(name)) \
        or name.endswith(".json")


def read_configs(root: Path, paths: tuple[str, ...], max_size: int = 1024 * 1024, *,
                 settings_kept: tuple[str, ...], known_servers: Sequence[McpServerRule] = (),
                 documents: tuple[str, ...] = (),
                 prose_paths: Sequence[tuple[str, str]] = ()
                 ) -> tuple[ConfigFacts, tuple[Unknown, ...]]:
    """Read the config files discovery listed. A config that cannot be read (too large, not
    UTF-8, not a regular file, nested too deeply, not JSON) is an Unknown; a JSON file that
    never mentions `mcpServers` is not a config file and is skipped. Only settings named (or
    prefixed) by `settings_kept` are kept (the run's packs name them), and MCP servers are
    identified among the packs' `known_servers`. Of the Markdown `documents`, those under a
    `(store, path prefix)` of `prose_paths` (`shared/` anywhere in the path) are policy prose."""
    files: list[str] = []
    settings: list[Setting] = []
    servers: list[McpServer] = []
    unknowns: list[Unknown] = []
    for relative in sorted(paths):
        name = PurePosixPath(relative).name
        text, refused = _read(root, relative, max_size)
        if refused is not None:
            if _matters(root / relative, name, refused):
                unknowns.append(Unknown(relative, f"config file not read: {refused}"))
            continue
        if name.endswith(".json"):
            if not _mentions_servers(name, text):
                continue
            found, unknown = _mcp_config(relative, text, known_servers)
            if unknown is not None:
                unknowns.append(unknown)
                continue
            servers.extend(found)
            settings.extend(s for server in found for s in _server_env(relative, text, server,
                                                                       settings_kept))
        elif _COMPOSE.match(name):
            settings.extend(_compose_environment(relative, text, settings_kept))
        else:
            settings.extend(_dotenv(relative, text, settings_kept))
        files.append(relative)
    prose = tuple(_prose(root, documents, max_size, prose_paths))
    return ConfigFacts(tuple(files), tuple(settings), tuple(servers), prose), tuple(unknowns)


def _prose(root: Path, documents: tuple[str, ...], max_size: int,
           prose_paths: Sequence[tuple[str, str]]) -> list[PolicyProse]:
    """Policy prose files; one that cannot be read is left out (it is documentation, and the
    audit's facts do not depend on it)."""
    found = []
    for relative in sorted(documents):
        store = next((store for store, prefix in prose_paths
                      if f"/{prefix}" in f"/{relative}"), None)
        if store is None:
            continue
        text, refused = _read(root, relative, max_size)
        if refused is None:
            found.append(PolicyProse(relative, store, text))
    return found


def _read(root: Path, relative: str, max_size: int) -> tuple[str, str | None]:
    try:
        return read_text(root / relative, limit=max_size, root=root), None
    except InputRefused as refused:
        return "", refused.reason


def _mentions_servers(name: str, text: str) -> bool:
    return "mcpServers" in text or (name in _MCP_NAMES and '"servers"' in text)


def _matters(path: Path, name: str, reason: str) -> bool:
    """Whether a config topo could not read may hold what it looks for. `.env`, compose files
    and MCP client configs always may; any other JSON file (a lockfile, a data set) only when
    its bytes mention `mcpServers`, searched in bounded chunks."""
    if not name.endswith(".json") or name in _MCP_NAMES:
        return True
    if not (reason.startswith("too large") or reason.startswith("not valid UTF-8")):
        return True
    return _bytes_mention(path, b"mcpServers")


def _bytes_mention(path: Path, needle: bytes, chunk: int = 1 << 20) -> bool:
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return True
    with os.fdopen(descriptor, "rb") as handle:
        tail = b""
        while block := handle.read(chunk):
            if needle in tail + block:
                return True
            tail = block[-len(needle):]
    return False


def _kept(name: str, kept: tuple[str, ...]) -> bool:
    """A setting the packs name (or prefix). A credential's name is kept only when a pack
    names it exactly (`NEXT_PUBLIC_MEMEX_ADMIN_SECRET`: its presence is the finding), and
    then without its value (`_value`)."""
    return name in kept or (name.startswith(kept) and not _secret(name))


def _secret(name: str) -> bool:
    return any(word in name for word in _SECRET_WORDS)


def _value(name: str, raw: str) -> str | None:
    """The literal value of a kept setting; never a credential's."""
    return None if _secret(name) else _literal(raw)


def _literal(raw: str) -> str | None:
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return None if "$" in value else value


def _dotenv(relative: str, text: str, kept: tuple[str, ...]) -> list[Setting]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        match = re.match(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$", line)
        if match is None or not _kept(match[1], kept):
            continue
        raw = match[2]
        if not raw.lstrip().startswith(("'", '"')):
            raw = re.split(r"\s+#", raw, maxsplit=1)[0]
        found.append(Setting(match[1], _value(match[1], raw), Location(relative, number),
                             "dotenv"))
    return found


def _compose_environment(relative: str, text: str, kept: tuple[str, ...]) -> list[Setting]:
    """`environment:` blocks of a compose file: `KEY: value` or `- KEY=value` lines indented
    under the key. Inline flow forms (`environment: {…}`) and anchors are not read."""
    found = []
    block_indent: int | None = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.split(" #", 1)[0].rstrip()
        if not stripped.strip() or stripped.lstrip().startswith("#"):
            continue
        indent = len(stripped) - len(stripped.lstrip())
        body = stripped.strip()
        if block_indent is not None and indent <= block_indent:
            block_indent = None
        if block_indent is None:
            if body == "environment:":
                block_indent = indent
            continue
        item = body[2:].strip() if body.startswith("- ") else body
        if len(item) >= 2 and item[0] == item[-1] and item[0] in "'\"":
            item = item[1:-1]           # `- "KEY=value"`
        match = re.match(r"^['\"]?([A-Za-z_][A-Za-z0-9_]*)['\"]?\s*(=|:)\s*(.*)$", item)
        if match is None or not _kept(match[1], kept):
            continue
        if body.startswith("- ") and match[2] != "=":
            continue
        found.append(Setting(match[1], _value(match[1], match[3]), Location(relative, number),
                             "compose"))
    return found


def _strip_comments(text: str) -> str:
    """JSON with `//` and `/* */` comments (JSONC) → JSON; strings are left alone, and line
    breaks are kept so that line numbers still hold."""
    out: list[str] = []
    i, in_string = 0, False
    while i < len(text):
        char = text[i]
        if in_string:
            out.append(char)
            if char == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            out.append(char)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = len(text) if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
            continue
        else:
            out.append(char)
        i += 1
    return "".join(out)


def _mcp_config(relative: str, text: str, known: Sequence[McpServerRule]
                ) -> tuple[list[McpServer], Unknown | None]:
    try:
        data = load_json(_strip_comments(text))
    except json.JSONDecodeError as error:
        return [], Unknown(relative, f"MCP client config not readable as JSON: {error.msg}",
                           error.lineno)
    except InputRefused as refused:
        return [], Unknown(relative, f"MCP client config not read: {refused.reason}", 1)
    if not isinstance(data, dict):
        return [], None
    table = data.get("mcpServers", _UNSET)
    if table is _UNSET and PurePosixPath(relative).name in _MCP_NAMES:
        table = data.get("servers", _UNSET)
    if not isinstance(table, dict):
        return [], None
    lines = text.splitlines()
    servers = []
    for name, entry in table.items():
        if not isinstance(entry, dict):
            continue
        args = tuple(str(a) for a in entry.get("args", ()) if isinstance(a, (str, int)))
        command = str(entry.get("command", ""))
        url = str(entry.get("url", entry.get("serverUrl", "")))
        server, inferred = _identify(name, command, args, url, known)
        servers.append(McpServer(
            name=name, location=Location(relative, _key_line(lines, name)), command=command,
            args=args, url=url, known=server, inferred=inferred,
            disabled=entry.get("disabled") is True or entry.get("enabled") is False,
            disabled_tools=_names(entry, "disabledTools", "disabled_tools", "excludeTools",
                                  "excludedTools") or (),
            allowed_tools=_names(entry, "allowedTools", "allowed_tools", "includeTools",
                                 "tools")))
    return servers, None


def _names(entry: dict, *keys: str) -> tuple[str, ...] | None:
    for key in keys:
        value = entry.get(key)
        if isinstance(value, list):
            return tuple(str(v) for v in value)
    return None


def _identify(name: str, command: str, args: tuple[str, ...], url: str,
              known: Sequence[McpServerRule]) -> tuple[str | None, bool]:
    words = (command, *args)
    for server in known:
        if any(w == p or w.startswith(p + "@") for w in words for p in server.packages):
            return server.name, False
    text = " ".join((name, url, *words)).lower()
    for server in known:
        if any(hint in text for hint in server.hints):
            return server.name, True
    return None, False


def _key_line(lines: list[str], key: str) -> int:
    """The line where `"key":` is written (the first one after `mcpServers`)."""
    start = next((i for i, line in enumerate(lines) if '"mcpServers"' in line
                  or '"servers"' in line), 0)
    needle = re.compile(r'"' + re.escape(key) + r'"\s*:')
    for i in range(start, len(lines)):
        if needle.search(lines[i]):
            return i + 1
    return start + 1


def _server_env(relative: str, text: str, server: McpServer, kept: tuple[str, ...]
                ) -> list[Setting]:
    """Settings in a server's `env` block (`MUBIT_CL_FORGET` passed to a spawned server)."""
    try:
        entry = load_json(_strip_comments(text))
        env = (entry.get("mcpServers") or entry.get("servers") or {})[server.name].get("env")
    except (json.JSONDecodeError, InputRefused, AttributeError, KeyError, TypeError):
        return []
    if not isinstance(env, dict):
        return []
    lines = text.splitlines()
    found = []
    for name, value in env.items():
        if not _kept(name, kept):
            continue
        line = next((i + 1 for i in range(server.location.line - 1, len(lines))
                     if f'"{name}"' in lines[i]), server.location.line)
        found.append(Setting(name, _value(name, str(value)), Location(relative, line), "mcp"))
    return found
