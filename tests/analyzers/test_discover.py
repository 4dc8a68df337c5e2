"""Discovery: listings with and without git, default and configured excludes, unknowns."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from topo.analyzers.discovery import _listing
from topo.analyzers.discovery.inventory import DiscoveryConfig, discover
from topo.analyzers.ir import Language

WALK = DiscoveryConfig(use_git=False)

TREE = {
    "app/agent.py": "x = 1\n",
    "app/ui/App.tsx": "export {}\n",
    "app/ui/api.ts": "export {}\n",
    "app/ui/types.d.ts": "export {}\n",
    "app/ui/util.js": "1\n",
    "app/ui/mod.mjs": "1\n",
    "app/ui/legacy.cjs": "1\n",
    "app/ui/view.jsx": "1\n",
    "app/README.md": "docs\n",
    "app/proto/api_pb2.py": "x = 1\n",
    "app/static/lib.min.js": "1\n",
    "app/emus/refund.jsonl": "{}\n",
    "app/emus/notes.txt": "x\n",
    "other/emus/readme.md": "x\n",
    ".emu.lock.jsonl": "{}\n",
    "pyproject.toml": "[project]\n",
    "requirements-dev.txt": "pytest\n",
    "web/package.json": "{}\n",
    "web/tsconfig.json": "{}\n",
    "setup.cfg": "[metadata]\n",
    "node_modules/pkg/index.js": "1\n",
    "node_modules/pkg/package.json": "{}\n",
    ".venv/lib/site.py": "x = 1\n",
    "vendor/lib.py": "x = 1\n",
    "third_party/x.py": "x = 1\n",
    "dist/out.js": "1\n",
    "build/out.py": "x = 1\n",
    "app/__pycache__/agent.py": "x = 1\n",
    "tests/test_agent.py": "x = 1\n",
    "tests/emus/fixture.jsonl": "{}\n",
    "app/test_inline.py": "x = 1\n",
    "app/agent_test.py": "x = 1\n",
    "app/conftest.py": "x = 1\n",
    "app/ui/api.test.ts": "1\n",
    "app/ui/api.spec.ts": "1\n",
    "app/ui/__tests__/x.ts": "1\n",
    "app/fixtures/data.py": "x = 1\n",
}
SOURCES = [
    ("app/agent.py", Language.PYTHON), ("app/ui/App.tsx", Language.TSX),
    ("app/ui/api.ts", Language.TYPESCRIPT), ("app/ui/legacy.cjs", Language.JAVASCRIPT),
    ("app/ui/mod.mjs", Language.JAVASCRIPT), ("app/ui/util.js", Language.JAVASCRIPT),
    ("app/ui/view.jsx", Language.JAVASCRIPT),
]
TEST_SOURCES = [
    "app/agent_test.py", "app/conftest.py", "app/fixtures/data.py", "app/test_inline.py",
    "app/ui/__tests__/x.ts", "app/ui/api.spec.ts", "app/ui/api.test.ts", "tests/test_agent.py",
]


def _write(root: Path, files: dict[str, str | bytes]) -> None:
    for path, content in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content)


def test_walk_lists_sources_manifests_and_emus_with_default_excludes(tmp_path: Path) -> None:
    _write(tmp_path, TREE)
    inventory = discover(tmp_path, WALK)
    assert [(s.path, s.language) for s in inventory.sources] == SOURCES
    assert inventory.sources[0].size == 6
    assert inventory.manifests == ("pyproject.toml", "requirements-dev.txt", "setup.cfg",
                                   "web/package.json", "web/tsconfig.json")
    assert inventory.emu_dirs == ("app/emus",)
    assert inventory.emu_locks == (".emu.lock.jsonl",)
    assert inventory.unknowns == ()
    assert inventory.used_git is False
    assert inventory.notes == ("git disabled by configuration; the tree was walked instead",)


def test_tests_and_fixtures_are_included_on_request(tmp_path: Path) -> None:
    _write(tmp_path, TREE)
    inventory = discover(tmp_path, DiscoveryConfig(use_git=False, include_tests=True))
    paths = [s.path for s in inventory.sources]
    assert sorted(set(paths) - {path for path, _ in SOURCES}) == TEST_SOURCES
    assert inventory.emu_dirs == ("app/emus", "tests/emus")


def test_configured_excludes_are_gitignore_style_globs(tmp_path: Path) -> None:
    _write(tmp_path, {"app/a.py": "", "app/legacy/old.py": "", "app/gen/x.gen.py": "",
                      "scripts/run.py": "", "tools/scripts/keep.py": "",
                      "app/deep/er/skip_me.py": ""})
    config = DiscoveryConfig(use_git=False, exclude=(
        "app/legacy/", "*.gen.py", "/scripts", "app/**/skip_*.py"))
    assert [s.path for s in discover(tmp_path, config).sources] == [
        "app/a.py", "tools/scripts/keep.py"]


def test_negated_exclude_patterns_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unsupported exclude pattern"):
        discover(tmp_path, DiscoveryConfig(use_git=False, exclude=("!keep.py",)))


def test_large_binary_and_non_utf8_files_are_unknowns(tmp_path: Path) -> None:
    _write(tmp_path, {"big.py": "x = 1\n" * 20, "blob.py": b"x\0y", "latin.ts": b"caf\xe9",
                      "ok.py": "x = 1\n"})
    inventory = discover(tmp_path, DiscoveryConfig(use_git=False, max_file_size=100))
    assert [s.path for s in inventory.sources] == ["ok.py"]
    assert [(u.file, u.reason) for u in inventory.unknowns] == [
        ("big.py", "file too large (120 bytes; the limit is 100)"),
        ("blob.py", "binary file (contains a NUL byte)"),
        ("latin.ts", "not valid UTF-8 (byte 3)"),
    ]


def test_symlink_loops_and_links_out_of_the_root_are_skipped(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    outside = tmp_path / "outside"
    _write(root, {"app/a.py": "x = 1\n", "shared/lib.py": "x = 1\n"})
    _write(outside, {"secret.py": "x = 1\n"})
    os.symlink("..", root / "app" / "parent")
    os.symlink(root / "app" / "self_loop.py", root / "app" / "self_loop.py")
    os.symlink(outside, root / "app" / "elsewhere")
    os.symlink(root / "shared", root / "app" / "linked")
    inventory = discover(root, WALK)
    # A link to a directory inside the root is not followed: its files keep their own path.
    assert [s.path for s in inventory.sources] == ["app/a.py", "shared/lib.py"]
    assert [(u.file, u.reason) for u in inventory.unknowns] == [
        ("app/elsewhere", "symlink to outside the audited root skipped"),
        ("app/parent", "symlink loop skipped"),
        ("app/self_loop.py", "symlink loop skipped"),
    ]


def test_git_missing_falls_back_to_walking(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, {"a.py": "x = 1\n"})
    monkeypatch.setattr(_listing.shutil, "which", lambda name: None)
    inventory = discover(tmp_path, DiscoveryConfig())
    assert (inventory.used_git, [s.path for s in inventory.sources]) == (False, ["a.py"])
    assert inventory.notes == ("git is not installed; the tree was walked instead",)


def _git(root: Path, *arguments: str) -> None:
    subprocess.run(["git", *arguments], cwd=root, check=True, capture_output=True)


@pytest.fixture()
def git_repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is NOT installed: discovery's git listing is untested on this machine")
    _write(tmp_path, {
        "app/agent.py": "x = 1\n", "app/untracked.py": "x = 1\n", "app/ignored.py": "x = 1\n",
        "app/sub/deep.py": "x = 1\n", "node_modules/m/index.js": "1\n",
        "vendor/v.py": "x = 1\n", ".gitignore": "app/ignored.py\n", "tests/test_a.py": "x\n",
    })
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "app/agent.py", "app/sub/deep.py", "vendor/v.py", ".gitignore")
    return tmp_path


def test_git_lists_tracked_and_untracked_but_not_ignored_files(git_repo: Path) -> None:
    inventory = discover(git_repo, DiscoveryConfig())
    assert inventory.used_git is True
    assert [s.path for s in inventory.sources] == [
        "app/agent.py", "app/sub/deep.py", "app/untracked.py"]
    assert inventory.notes == ("listed with git ls-files (tracked and untracked, not ignored)",)


def test_git_listing_of_a_subdirectory_is_relative_to_it(git_repo: Path) -> None:
    inventory = discover(git_repo / "app", DiscoveryConfig())
    assert inventory.used_git is True
    assert [s.path for s in inventory.sources] == ["agent.py", "sub/deep.py", "untracked.py"]


def test_non_repository_falls_back_to_walking(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is NOT installed: the non-repository fallback is untested here")
    root = tmp_path / "plain"
    _write(root, {"a.py": "x = 1\n"})
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    inventory = discover(root, DiscoveryConfig())
    assert (inventory.used_git, [s.path for s in inventory.sources]) == (False, ["a.py"])
    assert inventory.notes == ("not a git work tree; the tree was walked instead",)


def test_javascript_compiled_from_an_audited_typescript_source_is_read_once(
        tmp_path: Path) -> None:
    _write(tmp_path, {
        "web/tools.ts": "export {}\n",
        "web/tools.js": "1\n",              # tsc without outDir: beside its source
        "web/plain.js": "1\n",              # no TypeScript of that stem: ordinary source
        "web/view.tsx": "export {}\n",
        "web/view.jsx": "1\n",
        "svc/tsconfig.json": '{ // comments are allowed\n "compilerOptions": '
                             '{"outDir": "lib", "rootDir": "src"} }\n',
        "svc/src/agent/refund.ts": "export {}\n",
        "svc/lib/agent/refund.js": "1\n",   # outDir mirrors rootDir
        "svc/lib/agent/extra.js": "1\n",    # in outDir, but no source: still read
        "api/tsconfig.json": '{"compilerOptions": {"outDir": "out"}}\n',
        "api/src/send.ts": "export {}\n",
        "api/out/send.js": "1\n",           # no rootDir: the sources' common directory
    })
    inventory = discover(tmp_path, WALK)
    paths = {source.path for source in inventory.sources}
    compiled = {"web/tools.js", "web/view.jsx", "svc/lib/agent/refund.js", "api/out/send.js"}
    assert not paths & compiled
    assert {"web/tools.ts", "web/plain.js", "svc/src/agent/refund.ts",
            "svc/lib/agent/extra.js", "api/src/send.ts"} <= paths
    [exclusion] = [e for e in inventory.out_of_scope if e.area == "compiled JavaScript"]
    assert set(exclusion.patterns) == compiled
    assert dict(inventory.skipped)["compiled JavaScript beside its TypeScript source"] == 4


def test_an_unreadable_or_odd_tsconfig_only_keeps_its_outdir_unmapped(tmp_path: Path) -> None:
    _write(tmp_path, {
        "a/tsconfig.json": "{ not json",
        "a/src/x.ts": "export {}\n",
        "a/lib/x.js": "1\n",
        "b/tsconfig.json": '{"compilerOptions": {"outDir": "../../elsewhere"}}\n',
        "b/x.ts": "export {}\n",
        "c/tsconfig.json": '{"compilerOptions": {"outDir": 3}}\n',
    })
    inventory = discover(tmp_path, WALK)
    assert "a/lib/x.js" in {source.path for source in inventory.sources}
