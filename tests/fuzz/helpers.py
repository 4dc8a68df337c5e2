"""Shared helpers of the fuzzer tests: corpus paths, loading policies, running the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from topo.cli.main import cli
from topo.audit.dsl import parse_trigger
from topo.audit.dsl.ast import Expr
from topo.audit.fuzz import Budget, FuzzConfig, PolicyUnderTest, parse_policies
from topo.audit.policy import load_emus

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
POLICIES = CORPUS / "policies"
FAST = FuzzConfig(Budget(max_examples=60, seed=0))


def parse(text: str) -> Expr:
    result = parse_trigger(text)
    assert result.ast is not None, result.diagnostics
    return result.ast


def policies(directory: Path) -> tuple[PolicyUnderTest, ...]:
    parsed, errors = parse_policies(load_emus(directory))
    assert errors == ()
    return parsed


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    """`topo ARGS` in-process; an exception other than SystemExit would be a traceback."""
    result = CliRunner().invoke(cli, list(args), env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"command raised {result.exception!r}") from result.exception
    return result


def fuzz_json(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict]:
    result = run("fuzz", *args, "-f", "json", "--max-examples", "60", env=env)
    return result.exit_code, json.loads(result.stdout)


def write_emus(folder: Path, *lines: str, name: str = "emus.jsonl") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return folder


def emu_line(key: str, trigger: str, *, state: str = "active",
             decision_point: str = "test.point", **extra: object) -> str:
    emu = {"emu_key": key, "decision_point": decision_point, "state": state,
           "trigger": trigger, "action": {"type": "context_directive", "directive": "x"},
           **extra}
    return json.dumps(emu)
