"""`topo cache info|clean` and the bounded store (least recently used entries go first)."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from topo.analyzers.frontend.cache import IRCache
from topo.cli.main import cli


def _app(root: Path) -> Path:
    (root / "app").mkdir(parents=True)
    for index in range(3):
        (root / "app" / f"m{index}.py").write_text(f"def f{index}():\n    return {index}\n")
    return root / "app"


def test_info_then_clean(tmp_path: Path) -> None:
    app, store = _app(tmp_path), tmp_path / "cache"
    (tmp_path / "cache").mkdir()
    (store / "notes.txt").write_text("not ours")
    runner = CliRunner()
    audited = runner.invoke(cli, ["audit", str(app), "-q", "--cache-dir", str(store), "-o",
                                  str(tmp_path / "out") + "/"])
    assert audited.exit_code == 0, audited.output
    info = runner.invoke(cli, ["cache", "info", "--cache-dir", str(store)])
    assert info.exit_code == 0 and ": 3 entries," in info.output
    cleaned = runner.invoke(cli, ["cache", "clean", "--cache-dir", str(store)])
    assert cleaned.exit_code == 0 and "removed 3 entries" in cleaned.output
    assert IRCache(store).usage().entries == 0
    assert (store / "notes.txt").read_text() == "not ours"     # only entries are removed
    again = runner.invoke(cli, ["cache", "clean", "--cache-dir", str(tmp_path / "absent")])
    assert again.exit_code == 0 and "removed 0 entries" in again.output


def test_prune_keeps_the_most_recently_used(tmp_path: Path) -> None:
    store = IRCache(tmp_path)
    for index, key in enumerate(["aa01", "bb02", "cc03"]):
        store.store(key, b"x" * 100)
        entry = tmp_path / key[:2] / f"{key}.pickle"
        os.utime(entry, (1_000_000 + index, 1_000_000 + index))
    os.utime(tmp_path / "aa" / "aa01.pickle", (2_000_000, 2_000_000))   # used last
    removed = store.prune(250)
    assert (removed.entries, removed.bytes) == (1, 100)
    assert not (tmp_path / "bb" / "bb02.pickle").exists()
    assert (tmp_path / "aa" / "aa01.pickle").exists() and (tmp_path / "cc" / "cc03.pickle").exists()
    assert store.prune(10_000).entries == 0


def test_a_hit_is_served_when_the_store_is_read_only(tmp_path: Path, monkeypatch) -> None:
    from topo.analyzers.frontend import cache as cache_module
    from topo.analyzers.frontend.cache import dump_ir
    from topo.analyzers.ir import FileIR, Language
    store = IRCache(tmp_path)
    ir = FileIR(path="a.py", language=Language.PYTHON, module="a", sha256="0", lines=1)
    store.store("ab12", dump_ir(ir))

    def refuse(*args, **kwargs):
        raise PermissionError("read-only")
    monkeypatch.setattr(cache_module.os, "utime", refuse)
    assert store.load("ab12") == ir
