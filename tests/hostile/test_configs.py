"""Hostile configuration files (issue #16, cases 4, 5, 11): `.env` and MCP configs too large or
not UTF-8, JSON/TOML nested too deeply, tsconfig `extends` out of the root or into a FIFO.
What is refused is an unknown with its file (or a one-line configuration error), never a
silent skip, a RecursionError or a hang; the healthy file's findings are still reported."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.hostile.hostile_helpers import HEALTHY_FINDINGS, check_json, findings, healthy_repo, \
    topo
from topo.analyzers.discovery.configs import read_configs
from topo.analyzers.discovery.inventory import DiscoveryConfig
from topo.audit.pipeline import AuditRequest, run_audit

OVER_LIMIT = 1024 * 1024 + 1
MCP = {"mcpServers": {"memory": {"command": "npx", "args": ["@mubit-ai/mcp"]}}}
DEEP_JSON = '{"mcpServers": ' + "[" * 5000 + "]" * 5000 + "}"


def _unknowns(run) -> dict[str, str]:
    return {u["file"]: u["reason"] for u in run.document()["unknowns"]}


@pytest.mark.parametrize(("name", "data", "reason"), [
    (".env", b"MUBIT_CL_FORGET=1\n" + b"#" * OVER_LIMIT, "too large"),
    (".env", b"MUBIT_CL_FORGET=1\nNAME=caf\xe9\n", "not valid UTF-8 (byte 26)"),
    (".mcp.json", json.dumps(MCP).encode() + b" \xff", "not valid UTF-8"),
    ("servers.json", json.dumps(MCP).encode() + b" " * OVER_LIMIT, "too large"),
])
def test_an_unreadable_config_is_an_unknown(tmp_path: Path, name: str, data: bytes,
                                            reason: str) -> None:
    root = healthy_repo(tmp_path / "repo")
    (root / name).write_bytes(data)
    run = check_json(root)
    assert run.exit_code == 2, run.stderr              # partial: its finding may be missing
    assert _unknowns(run)[name].startswith(f"config file not read: {reason}")
    assert findings(run.document()) == HEALTHY_FINDINGS


def test_a_large_json_that_is_no_config_is_skipped(tmp_path: Path) -> None:
    root = healthy_repo(tmp_path / "repo")
    (root / "package-lock.json").write_text('{"lockfileVersion": 3, "x": "' + "a" * OVER_LIMIT
                                            + '"}')
    run = check_json(root)
    assert run.exit_code == 1 and run.document()["unknowns"] == []


def test_deep_mcp_json_is_an_unknown_not_a_recursion_error(tmp_path: Path) -> None:
    root = healthy_repo(tmp_path / "repo")
    (root / ".mcp.json").write_text(DEEP_JSON)
    run = check_json(root)
    assert run.exit_code == 2, run.stderr
    assert _unknowns(run)[".mcp.json"] == \
        "MCP client config not read: nested too deeply (5001 levels; the limit is 100)"
    assert findings(run.document()) == HEALTHY_FINDINGS


def test_read_configs_survives_deep_json_below_the_recursion_limit(tmp_path: Path) -> None:
    depth = sys.getrecursionlimit() + 100            # deep enough for `json` to raise
    (tmp_path / "mcp.json").write_text('{"mcpServers": ' + "[" * depth + "]" * depth + "}")
    facts, unknowns = read_configs(tmp_path, ("mcp.json",), settings_kept=())
    assert facts.servers == () and [u.file for u in unknowns] == ["mcp.json"]


def test_deep_tsconfig_is_an_unknown(tmp_path: Path) -> None:
    root = healthy_repo(tmp_path / "repo")
    (root / "tsconfig.json").write_text('{"compilerOptions": {"paths": ' + "[" * 5000
                                        + "]" * 5000 + "}}")
    (root / "main.ts").write_text("import { a } from '@/a';\na();\n")
    run = check_json(root)
    assert run.exit_code == 2, run.stderr
    assert _unknowns(run)["tsconfig.json"] == \
        "tsconfig not read: nested too deeply (5002 levels; the limit is 100)"
    assert findings(run.document()) == HEALTHY_FINDINGS


def test_deep_pyproject_is_a_one_line_configuration_error(tmp_path: Path) -> None:
    root = healthy_repo(tmp_path / "repo")
    (root / "pyproject.toml").write_text("[tool.topo]\nexclude = " + "[" * 5000 + "]" * 5000
                                         + "\n")
    run = topo("check", root, "--no-cache")
    assert run.exit_code == 2
    assert run.stderr.splitlines() == [
        f"topo: error: {root / 'pyproject.toml'}: cannot be read: TOML nested too deeply"]


_WATCHED: list[tuple[str, list[str]]] = []     # (directory, opened paths) while auditing


def _audit_hook(event: str, args: tuple) -> None:
    # `open` is raised for builtins.open, io.open and os.open alike, before the file is opened.
    if event == "open" and _WATCHED and isinstance(args[0], (str, bytes, os.PathLike)):
        directory, opened = _WATCHED[-1]
        if os.path.realpath(os.fsdecode(args[0])).startswith(directory):
            opened.append(os.fsdecode(args[0]))


sys.addaudithook(_audit_hook)     # hooks cannot be removed: it only acts while _WATCHED is set


def _opened_outside(root: Path, outside: Path):
    """Audit `root` in process (one job, no git) and list every file opened under `outside`."""
    opened: list[str] = []
    _WATCHED.append((os.path.realpath(outside), opened))
    try:
        result = run_audit(AuditRequest(root, DiscoveryConfig(use_git=False), jobs=1))
    finally:
        _WATCHED.pop()
    return opened, result


def test_tsconfig_extends_never_opens_a_file_outside_the_root(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "base.json").write_text('{"compilerOptions": {"baseUrl": "."}}')
    (outside / "secret.env").write_text("MUBIT_CL_FORGET=1\n")
    (outside / "secret.py").write_text("import os\nos.system('x')\n")
    root = healthy_repo(tmp_path / "repo")
    os.symlink(outside / "base.json", root / "base.json")
    os.symlink(outside / "secret.env", root / ".env")           # links discovery skips, too
    os.symlink(outside / "secret.py", root / "leak.py")
    (root / "tsconfig.json").write_text('{"extends": "./base.json"}')
    (root / "main.ts").write_text("go();\n")
    opened, result = _opened_outside(root, outside)
    assert opened == []
    reasons = {(u.file, u.reason) for u in result.unknowns}
    assert ("base.json", "tsconfig not read (extended by tsconfig.json): outside the audited "
                         "root (a symlink leads out of it)") in reasons
    assert sorted((f.location.file, f.location.line, f.code.id) for f in result.findings) == \
        HEALTHY_FINDINGS


def test_tsconfig_extending_a_fifo_does_not_hang(tmp_path: Path) -> None:
    root = healthy_repo(tmp_path / "repo")
    os.mkfifo(root / "base.json")
    (root / "tsconfig.json").write_text('{"extends": "./base.json"}')
    (root / "main.ts").write_text("go();\n")
    run = check_json(root, timeout=60)
    assert run.exit_code == 2, run.stderr
    assert _unknowns(run)["base.json"] == \
        "tsconfig not read (extended by tsconfig.json): not a regular file (a FIFO)"
    assert findings(run.document()) == HEALTHY_FINDINGS


def test_policy_prose_that_cannot_be_read_is_left_out(tmp_path: Path) -> None:
    # Markdown under `shared/` is documentation: bytes that are not UTF-8, or a file over the
    # size limit, give no prose and no unknown (the audit's facts do not depend on it).
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "bad.md").write_bytes(b"\xff\xfe never \x00")
    (tmp_path / "shared" / "big.md").write_text("Never refund.\n" * 200)
    (tmp_path / "shared" / "ok.md").write_text("Never refund above $200.\n")
    facts, unknowns = read_configs(
        tmp_path, (), max_size=1000, settings_kept=(),
        documents=("shared/bad.md", "shared/big.md", "shared/ok.md", "docs/other.md"),
        prose_paths=(("memexai", "shared/"),))
    assert unknowns == ()
    assert [(p.file, p.store) for p in facts.prose] == [("shared/ok.md", "memexai")]
