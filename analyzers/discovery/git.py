"""Running git on an audited tree without running any program the tree's own config names.

A tree obtained with its `.git` (a CI cache, a tarball, an upload) brings a `.git/config` that
git obeys: `core.fsmonitor` runs a program on `git ls-files`, a `filter.<driver>.clean` or
`.process` runs on `git diff` against the work tree, `diff.external` and textconv drivers run on
diffs. git cannot be told to ignore the repository's config, but values given in the
environment (`GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`, which take any key verbatim) win over it, so
every such key is overridden with an empty value. Filter drivers have free names, so they are
listed first with `git config`, which reads config and runs nothing. Diff commands must still
pass `--no-ext-diff --no-textconv`. The user's own global and system config stay in force: they
are trusted (and `actions/checkout` records `safe.directory` there).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["NEUTRAL_CONFIG", "neutral_environment", "run_git"]

NEUTRAL_CONFIG: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", ""),        # empty: no hook, no daemon
    ("core.hooksPath", os.devnull),
    ("diff.external", ""),
)
_FILTER_SETTINGS = ("clean", "smudge", "process")


def run_git(git: str, root: Path, arguments: Sequence[str], environment: Mapping[str, str],
            *, timeout: float) -> subprocess.CompletedProcess[bytes] | None:
    """`git ARGUMENTS` inside `root` with `environment`; None when it cannot run or times out."""
    try:
        return subprocess.run([git, *arguments], cwd=root, env=dict(environment),
                              capture_output=True, timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError):
        return None


def neutral_environment(git: str, root: Path, *, timeout: float) -> dict[str, str]:
    """The process environment plus optional locks off (an audit never writes into the
    audited `.git`) and every command-running key overridden, filter drivers included."""
    base = _with_config({**os.environ, "GIT_OPTIONAL_LOCKS": "0"}, NEUTRAL_CONFIG)
    listed = run_git(git, root, ["config", "--name-only", "--get-regexp", r"^filter\."], base,
                     timeout=timeout)
    drivers = sorted(_filter_drivers(listed.stdout if listed is not None else b""))
    overrides = [(f"filter.{name}.{setting}", "") for name in drivers
                 for setting in _FILTER_SETTINGS]
    overrides += [(f"filter.{name}.required", "false") for name in drivers]
    return _with_config(base, overrides)


def _filter_drivers(listing: bytes) -> set[str]:
    """Driver names in `git config --name-only` output: `filter.<name>.<setting>` lines."""
    names = set()
    for line in listing.decode("utf-8", "surrogateescape").splitlines():
        section, _, rest = line.partition(".")
        name, dot, _ = rest.rpartition(".")
        if section == "filter" and dot:
            names.add(name)
    return names


def _with_config(environment: dict[str, str],
                 pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    """`environment` with `pairs` appended to its GIT_CONFIG_COUNT list (later entries win)."""
    try:
        count = int(environment.get("GIT_CONFIG_COUNT", "0"))
    except ValueError:
        count = 0
    result = dict(environment)
    for index, (key, value) in enumerate(pairs, start=count):
        result[f"GIT_CONFIG_KEY_{index}"] = key
        result[f"GIT_CONFIG_VALUE_{index}"] = value
    result["GIT_CONFIG_COUNT"] = str(count + len(pairs))
    return result
