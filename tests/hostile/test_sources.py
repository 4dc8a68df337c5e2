"""Hostile source trees (issue #16, cases 1, 2, 3, 14, 16): deep nesting, worker crashes, file
names that are not UTF-8, long lines, symlink loops. Each keeps the healthy file's findings."""

from __future__ import annotations

import faulthandler
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.hostile_helpers import HEALTHY_FINDINGS, check_json, findings, healthy_repo, \
    topo
from topo.analyzers.discovery.inventory import discover
from topo.analyzers.frontend import stage
from topo.analyzers.ir import Language

DEEP_BRACKETS = "x = " + "(" * 3000 + "1" + ")" * 3000 + "\n"
DEEP_NOT = "x = " + "not " * 20_000 + "1\n"      # no bracket at all: a chain libcst recurses on


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("source", [DEEP_BRACKETS, DEEP_NOT], ids=["brackets", "not-chain"])
def test_deep_python_is_an_unknown_with_its_line_and_the_rest_is_audited(
        tmp_path: Path, jobs: str, source: str) -> None:
    root = healthy_repo(tmp_path / "repo")
    (root / "lib").mkdir()
    (root / "lib" / "ok.py").write_text("def f():\n    return 1\n")
    (root / "deep.py").write_text(source)
    run = check_json(root, "-j", jobs)
    assert run.exit_code == 2, run.stderr            # partial, not 139 (a segfault)
    [line] = run.unknown_lines()
    assert line.startswith("topo: unknown: deep.py:1: not parsed: nested too deeply")
    assert findings(run.document()) == HEALTHY_FINDINGS
    # Gating on what could be read still finds the healthy file's findings.
    assert check_json(root, "-j", jobs, "--allow-partial").exit_code == 1


def test_deep_python_left_alone_by_a_warm_cache_is_parsed_safely(tmp_path: Path) -> None:
    """Every other file cached: the deep one is the only one parsed (in process)."""
    root = healthy_repo(tmp_path / "repo")
    cache = tmp_path / "cache"
    assert topo("check", root, "-q", "--cache-dir", cache, "-j", "2").exit_code == 1
    (root / "deep.py").write_text(DEEP_BRACKETS)
    run = topo("check", root, "-f", "json", "-q", "--cache-dir", cache, "-j", "2")
    assert run.exit_code == 2, run.stderr
    assert findings(run.document()) == HEALTHY_FINDINGS


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_deep_typescript_does_not_crash(tmp_path: Path, jobs: str) -> None:
    root = healthy_repo(tmp_path / "repo")
    # One bracket a line: short lines, so this is read as source, not set aside as a bundle.
    (root / "deep.ts").write_text("const x = " + "[\n" * 20_000 + "]\n" * 20_000 + ";\n")
    run = check_json(root, "-j", jobs)
    assert run.exit_code == 2, run.stderr
    assert run.unknown_lines() == ["topo: unknown: deep.ts: nested too deeply to read"]
    assert findings(run.document()) == HEALTHY_FINDINGS


def _crash_on(name: str):
    real = stage.parse_source

    def parse(path, *args, **kwargs):
        if path == name:
            faulthandler.disable()             # pytest's traceback dump would only be noise
            os.abort()                         # the worker dies of a signal, as on a segfault
        return real(path, *args, **kwargs)
    return parse


def test_a_worker_crash_marks_only_its_own_file(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    for index in range(12):
        (root / f"m{index:02d}.py").write_text(f"def f{index}():\n    run({index})\n")
    monkeypatch.setattr(stage, "parse_source", _crash_on("m00.py"))   # workers are forked
    files = stage.analyze_files(discover(root), jobs=2)
    crashed = [ir.path for ir in files if ir.parse_error is not None]
    assert crashed == ["m00.py"]
    assert "crashed on this file" in files[0].parse_error.reason
    assert [len(ir.calls) for ir in files[1:]] == [1] * 11


def test_a_file_name_that_is_not_utf8_is_written_escaped(tmp_path: Path) -> None:
    root = healthy_repo(tmp_path / "repo")
    with open(os.path.join(os.fsencode(root), b"bad\xffname.py"), "wb") as handle:
        handle.write((root / "app.py").read_bytes())
    out = tmp_path / "out"
    run = topo("audit", root, "-o", out, "-f", "yaml,html,md,sarif,json", "--no-cache", "-q")
    assert run.exit_code == 0, run.stderr
    for report in sorted(out.iterdir()):
        text = report.read_bytes().decode("utf-8")           # full, valid UTF-8
        # `\xff` as the format quotes a backslash: raw, JSON `\\`, or in a SARIF URI `%5C`
        assert re.search(r"bad(\\|\\\\|%5C)xffname", text), report.name
    stdout = topo("audit", root, "-o", "-", "-f", "json", "--no-cache")
    assert {f["file"] for f in stdout.document()["findings"]} == {"app.py", "bad\\xffname.py"}
    text = topo("check", root, "--no-cache")
    assert text.exit_code == 1 and "repo/bad\\xffname.py:12:8: HIDDEN-AUTHORITY" in text.stdout


LONG_DATA = "export const LOGO = '" + "QUJD" * 1300 + "';\n"   # a 5 KB base64 constant


def test_a_long_string_line_is_read_and_a_bundle_is_out_of_scope(tmp_path: Path) -> None:
    root = healthy_repo(tmp_path / "repo")
    (root / "logo.ts").write_text(LONG_DATA + "export function show() { return render(LOGO); }\n")
    (root / "public").mkdir()
    (root / "public" / "app.js").write_text(
        ";".join(f"function f{i}(a){{return a+{i}}}" for i in range(3000)))
    run = check_json(root)
    assert run.exit_code == 1, run.stderr           # not partial: nothing looks minified
    document = run.document()
    assert document["unknowns"] == [] and findings(document) == HEALTHY_FINDINGS
    assert document["summary"]["files"] == 2          # app.py and logo.ts, not the bundle
    [bundles] = [rule for rule in document["scope"]["out_of_scope"]
                 if rule["area"] == "generated bundles"]
    assert bundles["patterns"] == ["public/app.js"]


def test_the_long_line_file_is_parsed(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "logo.ts").write_text(LONG_DATA + "send();\n")
    [ir] = stage.analyze_files(discover(root), jobs=1)
    assert ir.parse_error is None and [call.name for call in ir.calls] == ["send"]
    assert ir.language is Language.TYPESCRIPT


def test_non_source_symlink_loops_are_out_of_scope(tmp_path: Path) -> None:
    root = healthy_repo(tmp_path / "repo")
    os.symlink("LICENSE", root / "LICENSE")
    os.symlink("b", root / "a")
    os.symlink("a", root / "b")
    run = check_json(root)
    assert run.exit_code == 1, run.stderr
    document = run.document()
    assert document["unknowns"] == [] and findings(document) == HEALTHY_FINDINGS
    [loops] = [rule for rule in document["scope"]["out_of_scope"]
               if rule["area"] == "symlink loops"]
    assert loops["patterns"] == ["LICENSE", "a", "b"]


def test_a_symlink_loop_named_like_source_is_still_an_unknown(tmp_path: Path) -> None:
    root = healthy_repo(tmp_path / "repo")
    os.symlink("loop.py", root / "loop.py")
    run = check_json(root)
    assert run.exit_code == 2
    assert run.unknown_lines() == ["topo: unknown: loop.py: symlink loop skipped"]
    assert findings(run.document()) == HEALTHY_FINDINGS


def test_a_small_thread_stack_still_parses_within_the_bound(tmp_path: Path) -> None:
    """On a 512 KiB thread (macOS's default; Dask runs tasks on threads) libcst would overflow
    at a few hundred levels: the front-end moves the parse to a stack of its own size."""
    script = ("import threading\n"
              "from topo.analyzers.python import parse_python\n"
              "def run():\n"
              "    ir = parse_python('a.py', 'x = ' + '-' * 1990 + '1\\n', 'a')\n"
              "    print(ir.parse_error.reason if ir.parse_error else 'parsed')\n"
              "threading.stack_size(512 * 1024)\n"
              "worker = threading.Thread(target=run)\n"
              "worker.start()\n"
              "worker.join()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr               # not -11 (a segfault)
    assert done.stdout.strip() in ("parsed", "nested too deeply to read")


def test_long_prompts_and_constants_in_python_are_parsed() -> None:
    """The nesting bound counts a string as one character and an f-string's literal text too:
    a 12 KB f-string prompt and a 5 KB constant are ordinary code."""
    from topo.analyzers.python import parse_python
    source = ('LOGO = "' + "QUJD" * 1300 + '"\n'
              'def prompt(name):\n'
              '    return f"""' + "Answer politely. " * 700 + '{name.title()}"""\n')
    ir = parse_python("prompts.py", source, "prompts")
    assert ir.parse_error is None and [d.name for d in ir.definitions] == ["prompt"]
