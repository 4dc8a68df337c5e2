"""Progress: stderr only, delayed on a terminal, quiet elsewhere, never changing results."""

from __future__ import annotations

import io
from pathlib import Path

from topo.audit.pipeline import AuditRequest, run_audit
from topo.audit.progress import (NO_PROGRESS, SHOW_AFTER_SECONDS, TerminalProgress, VerboseProgress,
                                 progress_for)
from tests.gate.gate_helpers import APPS, check, topo


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple] = []

    def stage(self, name: str) -> None:
        self.events.append(("stage", name))

    def files(self, done: int, total: int) -> None:
        self.events.append(("files", done, total))

    def finish(self) -> None:
        self.events.append(("finish",))


def test_progress_for_picks_by_flags_and_terminal() -> None:
    assert progress_for(io.StringIO()) is NO_PROGRESS                 # a pipe or a CI log
    assert isinstance(progress_for(Terminal()), TerminalProgress)
    assert progress_for(Terminal(), quiet=True) is NO_PROGRESS
    assert isinstance(progress_for(io.StringIO(), verbose=True), VerboseProgress)


def test_terminal_progress_waits_then_redraws_then_clears() -> None:
    stream, clock = Terminal(), Clock()
    progress = TerminalProgress(stream, clock=clock)
    progress.stage("parsing 3 files")
    progress.files(1, 3)
    assert stream.getvalue() == ""                                    # a short run says nothing
    clock.now += SHOW_AFTER_SECONDS
    progress.files(2, 3)
    assert stream.getvalue() == "\r\x1b[Ktopo: parsed 2/3 files"
    progress.files(2, 3)                                              # throttled
    assert stream.getvalue().count("parsed") == 1
    progress.files(3, 3)                                              # the last one is drawn
    progress.stage("running checks")
    assert stream.getvalue().endswith("\r\x1b[Ktopo: running checks")
    progress.finish()
    assert stream.getvalue().endswith("\r\x1b[K") and "\n" not in stream.getvalue()


def test_terminal_progress_that_never_showed_writes_nothing_at_the_end() -> None:
    stream = Terminal()
    progress = TerminalProgress(stream, clock=Clock())
    progress.stage("discovering files")
    progress.finish()
    assert stream.getvalue() == ""


def test_verbose_progress_is_one_line_per_stage() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = VerboseProgress(stream, clock=clock)
    progress.stage("parsing 2 files")
    progress.files(1, 2)
    clock.now += 1.5
    progress.files(2, 2)
    progress.finish()
    assert stream.getvalue().splitlines() == [
        "topo: [   0.00s] parsing 2 files", "topo: [   1.50s] parsed 2 files",
        "topo: [   1.50s] done"]


def test_the_pipeline_reports_stages_and_files_without_changing_results() -> None:
    request = AuditRequest(root=APPS / "cross_file", jobs=1, cache_dir=None)
    recorder = Recorder()
    watched = run_audit(request, progress=recorder)
    assert watched.findings == run_audit(request).findings
    stages = [event[1] for event in recorder.events if event[0] == "stage"]
    assert stages[:2] == ["discovering files", "parsing 5 files"]
    assert stages[-1] == "running checks"
    files = [event[1:] for event in recorder.events if event[0] == "files"]
    assert files[0] == (0, 5) and files[-1] == (5, 5)
    assert [done for done, _ in files] == sorted(done for done, _ in files)


def test_verbose_goes_to_stderr_and_leaves_stdout_identical(tmp_path: Path) -> None:
    plain = check(APPS / "cross_file", "-f", "json")
    verbose = check(APPS / "cross_file", "-f", "json", "--verbose")
    assert verbose.stdout == plain.stdout and verbose.exit_code == plain.exit_code == 1
    assert "] parsing 5 files" in verbose.stderr and "] running checks" in verbose.stderr
    # Not a terminal: no progress, only the closing line of what was read.
    assert plain.stderr.startswith("topo: read 5 files") and plain.stderr.count("\n") == 1
    audited = topo("audit", APPS / "cross_file", "-f", "json", "-o", "-", "--no-cache", "-v")
    assert audited.exit_code == 0 and audited.stdout.startswith("{")
    assert "] done" in audited.stderr


def test_quiet_drops_notes_but_not_errors(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "main.py").write_text("print('hi')\n")
    baseline = tmp_path / "b.json"
    assert "wrote baseline" in check(root, "--write-baseline", baseline).stderr
    assert check(root, "--write-baseline", baseline, "--quiet").stderr == ""
    assert "no such file" in check(root, "--baseline", tmp_path / "x.json", "-q").stderr
