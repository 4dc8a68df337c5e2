"""The per-file stage: dispatch, unreadable files, module names, cache, and parallel runs."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from topo.analyzers.frontend import stage as frontend
from topo.analyzers.discovery.inventory import DiscoveryConfig, Inventory, SourceFile, discover
from topo.analyzers.frontend.cache import load_ir
from topo.analyzers.frontend.stage import analyze_files
from topo.analyzers.ir import FileIR, Language
from topo.audit.pipeline import AuditRequest, run_audit

GOOD = "from openai import OpenAI\n\nclient = OpenAI()\nclient.chat.completions.create()\n"


def _inventory(root: Path, files: dict[str, bytes]) -> Inventory:
    sources = []
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
        language = Language.TYPESCRIPT if path.endswith(".ts") else Language.PYTHON
        sources.append(SourceFile(path, language, len(data)))
    return Inventory(root, tuple(sorted(sources, key=lambda s: s.path)), (), (), (), False)


def _by_path(results: tuple[FileIR, ...]) -> dict[str, FileIR]:
    return {ir.path: ir for ir in results}


def test_unreadable_files_become_unknowns_and_the_batch_completes(tmp_path: Path) -> None:
    inventory = _inventory(tmp_path, {
        "app/__init__.py": b"",
        "app/good.py": GOOD.encode(),
        "app/bad.py": b"def f(:\n",
        "app/latin.py": "name = 'caf\u00e9'\n".encode("latin-1"),
        "app/blob.py": b"x = 1\0\n",
        "app/huge.py": b"x = 1\n" * 100,
        "web/app.ts": b"export const x = 1;\n",
    })
    results = analyze_files(inventory, jobs=1, cache_dir=None, max_file_size=300)
    assert [ir.path for ir in results] == sorted(s.path for s in inventory.sources)
    reasons = {ir.path: ir.parse_error.reason if ir.parse_error else None for ir in results}
    assert reasons["app/good.py"] is None
    assert reasons["app/__init__.py"] is None
    assert reasons["app/bad.py"].startswith("syntax error: ")
    assert reasons["app/latin.py"] == "not valid UTF-8 (byte 11)"
    assert reasons["app/blob.py"] == "binary file (contains a NUL byte)"
    assert reasons["app/huge.py"] == "file too large (600 bytes; the limit is 300)"
    assert reasons["web/app.ts"] is None      # read by the TypeScript front-end
    assert _by_path(results)["web/app.ts"].module == "web/app"
    good = _by_path(results)["app/good.py"]
    assert [c.callee for c in good.calls] == ["openai.OpenAI",
                                              "openai.OpenAI.chat.completions.create"]
    assert good.module == "app.good"


def test_module_names_follow_packages_and_src_layouts(tmp_path: Path) -> None:
    inventory = _inventory(tmp_path, {
        "src/pkg/__init__.py": b"",
        "src/pkg/core.py": b"from .util import helper\nhelper()\n",
        "src/pkg/util.py": b"def helper():\n    pass\n",
        "services/billing/app/__init__.py": b"",
        "services/billing/app/main.py": b"",
        "scripts/run.py": b"",
    })
    modules = {ir.path: ir.module for ir in analyze_files(inventory, jobs=1)}
    assert modules == {
        "src/pkg/__init__.py": "pkg", "src/pkg/core.py": "pkg.core", "src/pkg/util.py": "pkg.util",
        "services/billing/app/__init__.py": "app", "services/billing/app/main.py": "app.main",
        "scripts/run.py": "scripts.run",
    }
    core = _by_path(analyze_files(inventory, jobs=1))["src/pkg/core.py"]
    assert [c.callee for c in core.calls] == ["pkg.util.helper"]


def _many(root: Path) -> Inventory:
    files = {f"app/m{index}.py": (GOOD + f"value = {index}\n").encode() for index in range(6)}
    files["app/bad.py"] = b"def (\n"
    return _inventory(root, files)


def test_two_jobs_give_the_same_result_as_one(tmp_path: Path) -> None:
    inventory = _many(tmp_path)
    assert analyze_files(inventory, jobs=2) == analyze_files(inventory, jobs=1)


def test_cache_hit_returns_equal_ir_without_parsing(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    inventory = _many(tmp_path / "repo")
    cache = tmp_path / "cache"
    first = analyze_files(inventory, jobs=1, cache_dir=cache)
    entries = sorted(cache.rglob("*.pickle"))
    assert len(entries) == len(inventory.sources)

    def no_parse(*args: object, **kwargs: object) -> FileIR:
        raise AssertionError("parsed although cached")

    monkeypatch.setattr(frontend, "parse_source", no_parse)
    assert analyze_files(inventory, jobs=1, cache_dir=cache) == first
    assert not any(path.is_relative_to(inventory.root) for path in cache.rglob("*"))


def test_changed_content_misses_the_cache(tmp_path: Path) -> None:
    inventory = _many(tmp_path / "repo")
    cache = tmp_path / "cache"
    analyze_files(inventory, jobs=1, cache_dir=cache)
    (inventory.root / "app/m0.py").write_text("changed()\n")
    [changed] = [ir for ir in analyze_files(inventory, jobs=1, cache_dir=cache)
                 if ir.path == "app/m0.py"]
    assert [c.name for c in changed.calls] == ["changed"]


FACTORY_APP = "import acme_sdk\n\nconn = acme_sdk.connect('db')\nconn.wipe()\n"
FACTORY_PACK = """
system = "acme_sdk"
languages = ["python"]
fingerprint = ["acme_sdk"]
{factories}
[[entries]]
id = "acme_sdk.wipe"
on = "call"
match = ["acme_sdk.connect.wipe"]
site = "executor"
role = "execution"
tier = "deletion"
"""


def test_an_edited_pack_misses_the_cache(tmp_path: Path) -> None:
    """A warm cache from a run whose pack had no factory must not serve its IR once the pack
    names `acme_sdk.connect` a factory: `conn.wipe()` is only named through it."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "app.py").write_text(FACTORY_APP)
    pack = tmp_path / "acme.toml"

    def executors() -> list[int]:
        result = run_audit(AuditRequest(root=root, jobs=1, cache_dir=tmp_path / "cache",
                                        extra_packs=(pack,)))
        return [s.location.line for s in result.facts.sites if s.kind.value == "executor"]

    pack.write_text(FACTORY_PACK.format(factories=""))
    assert executors() == []
    assert list((tmp_path / "cache").rglob("*.pickle"))   # warm
    pack.write_text(FACTORY_PACK.format(factories='factories = ["acme_sdk.connect"]'))
    assert executors() == [4]
    pack.write_text(FACTORY_PACK.format(factories=""))
    assert executors() == []


def test_the_front_end_takes_the_packs_factories_as_an_argument() -> None:
    source = FACTORY_APP.encode()
    plain = frontend.parse_source("app.py", Language.PYTHON, source, "app")
    built = frontend.parse_source("app.py", Language.PYTHON, source, "app",
                                  factories=frozenset({"acme_sdk.connect"}))
    assert [c.callee for c in plain.calls] == ["acme_sdk.connect", None]
    assert [c.callee for c in built.calls] == ["acme_sdk.connect", "acme_sdk.connect.wipe"]


def test_irs_loaded_from_the_cache_or_workers_share_equal_names_and_values(
        tmp_path: Path) -> None:
    inventory = _many(tmp_path / "repo")
    cache = tmp_path / "cache"
    for jobs in (2, 1):       # parsed by workers, then loaded from the cache
        first, second = (ir.calls[1] for ir in analyze_files(inventory, jobs=jobs,
                                                              cache_dir=cache)[1:3])
        assert first.receiver == second.receiver == "client.chat.completions"
        assert first.receiver is second.receiver
        assert first.callee is second.callee
        assert first.id is not second.id


def test_corrupt_cache_entries_are_ignored_and_rewritten(tmp_path: Path) -> None:
    inventory = _many(tmp_path / "repo")
    cache = tmp_path / "cache"
    expected = analyze_files(inventory, jobs=1, cache_dir=cache)
    entries = sorted(cache.rglob("*.pickle"))
    entries[0].write_bytes(b"not a pickle")
    entries[1].write_bytes(entries[1].read_bytes()[:20])
    entries[2].write_bytes(pickle.dumps({"not": "an IR"}))
    assert analyze_files(inventory, jobs=1, cache_dir=cache) == expected
    for entry in entries[:3]:
        assert isinstance(load_ir(entry.read_bytes()), FileIR)
    assert not list(cache.rglob(".tmp-*"))


def test_discover_then_analyze(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "agent.py").write_text(GOOD)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_agent.py").write_text("import app\n")
    inventory = discover(tmp_path, DiscoveryConfig(use_git=False))
    results = analyze_files(inventory, jobs=1)
    assert [(ir.path, ir.module, ir.lines) for ir in results] == [("app/agent.py", "app.agent", 4)]


def test_cache_filled_by_workers_serves_a_later_run(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    inventory = _many(tmp_path / "repo")
    cache = tmp_path / "cache"
    filled = analyze_files(inventory, jobs=2, cache_dir=cache)
    monkeypatch.setattr(frontend, "parse_source", lambda *args, **kwargs: None)
    assert analyze_files(inventory, jobs=1, cache_dir=cache) == filled


def test_a_directory_without_init_inside_a_package_is_part_of_it(tmp_path: Path) -> None:
    """`app/tools/` has no `__init__.py` but sits in package `app`: its modules are
    `app.tools.*` (a namespace portion), so `from ..util import x` and `app.tools.mailer`
    imports both resolve."""
    inventory = _inventory(tmp_path, {
        "services/billing/app/__init__.py": b"",
        "services/billing/app/util.py": b"def helper():\n    pass\n",
        "services/billing/app/tools/mailer.py": b"from ..util import helper\nhelper()\n",
        "services/billing/app/main.py": b"from app.tools.mailer import helper\n",
    })
    results = _by_path(analyze_files(inventory, jobs=1))
    assert results["services/billing/app/tools/mailer.py"].module == "app.tools.mailer"
    assert [c.callee for c in results["services/billing/app/tools/mailer.py"].calls] == \
        ["app.util.helper"]


def _report_collector(path, language, data, module, **kwargs):
    import gc
    raise RuntimeError(f"collector enabled={gc.isenabled()}")


@pytest.mark.parametrize("jobs", [1, 2])
def test_files_are_parsed_with_the_collector_on_and_it_is_on_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    # The collector is paused while IRs load; a parse (in this process or a worker) still runs
    # with it on, and the stage leaves it as it found it.
    import gc
    inventory = _inventory(tmp_path, {"a.py": GOOD.encode(), "b.py": GOOD.encode()})
    monkeypatch.setattr(frontend, "parse_source", _report_collector)   # workers are forked
    results = analyze_files(inventory, jobs=jobs, cache_dir=None)
    assert [ir.parse_error.reason for ir in results] == \
        ["front-end failed: RuntimeError: collector enabled=True"] * 2
    assert gc.isenabled()
    gc.disable()
    try:
        analyze_files(inventory, jobs=1, cache_dir=None)
        assert not gc.isenabled()
    finally:
        gc.enable()
