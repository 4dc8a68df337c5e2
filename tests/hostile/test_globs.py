"""Exclude globs from the audited repo's own `pyproject.toml` match in linear time (issue
#16, case 10). A regression would hang, so each test runs under a 20 s alarm."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from topo.analyzers.discovery.inventory import DiscoveryConfig, discover
from topo.analyzers.discovery._globs import GlobSet, PatternError
from tests.hostile.policy_helpers import run

HOSTILE = ["**/" * 30 + "x.py", "**/a/" * 30 + "x.py", "a*" * 30 + "b", "*a" * 30 + "/x.py"]


@pytest.fixture(autouse=True)
def alarm() -> Iterator[None]:
    def expired(signum: int, frame: object) -> None:
        raise TimeoutError("glob matching ran past 20 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("pattern", HOSTILE, ids=["double-star", "alternating", "stars",
                                                  "stars-dir"])
def test_hostile_patterns_answer_on_long_paths(pattern: str) -> None:
    globs = GlobSet((pattern,))
    for path in ["a/" * 40 + "y.py", "a" * 250 + "/y.py", ("a" * 200 + "/") * 10 + "y"]:
        assert globs.excludes(path) is False


def test_check_with_thirty_double_star_segments_in_pyproject(tmp_path: Path) -> None:
    deep = tmp_path / "/".join(["a"] * 25)
    deep.mkdir(parents=True)
    (deep / "keep.py").write_text("x = 1\n", encoding="utf-8")
    (deep / "x.py").write_text("x = 1\n", encoding="utf-8")
    patterns = ", ".join(f'"{p}"' for p in HOSTILE)
    (tmp_path / "pyproject.toml").write_text(f"[tool.topo]\nexclude = [{patterns}]\n",
                                             encoding="utf-8")
    result = run("check", str(tmp_path))
    assert result.exit_code == 0, result.output
    inventory = discover(tmp_path, DiscoveryConfig(use_git=False, exclude=tuple(HOSTILE)))
    assert [s.path.rsplit("/", 1)[-1] for s in inventory.sources] == ["keep.py"]


@pytest.mark.parametrize("pattern, path, is_dir, expected", [
    ("**/a/**/a/x.py", "a/b/a/x.py", False, True),
    ("**/a/**/a/x.py", "a/x.py", False, False),
    ("**/a/**/a/x.py", "q/a/a/x.py", False, True),
    ("a/**/b", "a/b", True, True),
    ("a/**", "a", True, False),
    ("a/**", "a/b/c", False, True),
    ("*.min.js", "web/x.min.js", False, True),
    ("x*y*z", "xayz", False, True),
    ("x*y*z", "xzy", False, False),
    ("[!a]b?", "cbd", False, True),
    ("[!a]b?", "abd", False, False),
    ("build/", "build", False, False),
    ("build/", "src/build", True, True),
])
def test_semantics(pattern: str, path: str, is_dir: bool, expected: bool) -> None:
    assert GlobSet((pattern,)).matches(path, is_dir) is expected


def test_a_bad_class_is_a_pattern_error() -> None:
    with pytest.raises(PatternError, match="unsupported exclude pattern"):
        GlobSet(("[z-a].py",))
