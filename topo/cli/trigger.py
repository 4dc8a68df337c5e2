"""`topo trigger check|eval|deps|fmt`: the DSL from the command line."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import click

from topo.audit import dsl
from topo.cli.errors import ExitCode, UserError
from topo.cli.inputs import parse_instant, read_expression, read_json_file
from topo.cli.jsonable import to_jsonable

__all__ = ["trigger"]


@dataclass(frozen=True, slots=True)
class EvalRequest:
    expression: str
    context_path: Path
    now: str | None


@click.group()
def trigger() -> None:
    """Parse, evaluate, format and inspect trigger DSL expressions."""


def _parse_or_exit(text: str) -> dsl.ParseResult:
    """Parse; print every diagnostic to stderr; exit 1 when the trigger is invalid."""
    result = dsl.parse_trigger(text)
    for diagnostic in result.diagnostics:
        click.echo(dsl.render(text, diagnostic), err=True)
    if not result.ok:
        raise SystemExit(ExitCode.FINDINGS)
    return result


@trigger.command("check")
@click.argument("expr")
def check(expr: str) -> None:
    """Parse EXPR and print its diagnostics.

    Exit 0 when the trigger is valid (warnings may still be printed), 1 when it is invalid.

    EXPR is the trigger text, '-' to read it from standard input, or '@FILE'.
    """
    text = read_expression(expr)
    _parse_or_exit(text)
    click.echo("valid")



@trigger.command("eval")
@click.argument("expr")
@click.option("--context", "context_path", required=True,
              type=click.Path(path_type=Path, dir_okay=False),
              help="CTX.json: {state: {key: value}, tags: {kind: value}, events: [...]}.")
@click.option("--now", help="Evaluation instant, ISO-8601 (default: the current time, UTC).")
def eval_(expr: str, context_path: Path, now: str | None) -> None:
    """Evaluate EXPR against a context and print `true` or `false`.

    Exit 0 with the result, 1 when the trigger is invalid, 2 when the context file is unreadable
    or malformed, 3 when evaluation fails (for example non-numeric arithmetic or a MATCHES pattern
    that exceeds its time bound).

    EXPR is the trigger text, '-' to read it from standard input, or '@FILE'.
    """
    request = EvalRequest(read_expression(expr), context_path, now)
    result = _parse_or_exit(request.expression)
    instant = parse_instant(request.now)
    data = read_json_file(request.context_path, what="context")
    try:
        context = dsl.load_context(data, now=instant)
    except dsl.ContextError as error:
        raise UserError(f"context {request.context_path}: {error}") from None
    try:
        value = dsl.evaluate(result.ast, context)
    except dsl.EvaluationError as error:
        click.echo(f"topo: evaluation error: {error}", err=True)
        raise SystemExit(ExitCode.EVALUATION_ERROR) from None
    click.echo("true" if value else "false")



@trigger.command("deps")
@click.argument("expr")
@click.option("-f", "--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def deps(expr: str, fmt: str) -> None:
    """List what EXPR depends on: state keys, tag kinds and events, with polarity and guards.

    Exit 0, or 1 when the trigger is invalid.

    EXPR is the trigger text, '-' to read it from standard input, or '@FILE'.
    """
    text = read_expression(expr)
    result = _parse_or_exit(text)
    dependencies = dsl.dependencies(result.ast)
    if fmt == "json":
        click.echo(json.dumps([to_jsonable(d) for d in dependencies], indent=2, sort_keys=True))
        return
    for dependency in dependencies:
        click.echo(_dependency_line(dependency))


def _dependency_line(dependency: dsl.Dependency) -> str:
    accessor = dependency.key if dependency.kind != "event" or not dependency.project \
        else f"{dependency.project}.{dependency.key}"
    parts = [f"{dependency.kind:<5}", f"{accessor:<32}", dependency.polarity]
    if dependency.under_count:
        parts.append("count")
    if dependency.window is not None:
        parts.append(f"window={dependency.window.raw}")
    if dependency.where_attrs:
        parts.append("where=" + ",".join(dependency.where_attrs))
    if dependency.templates:
        parts.append("templates=" + ",".join(dependency.templates))
    if dependency.guarded:
        parts.append("guarded")
    return "  ".join(parts).rstrip()



@trigger.command("fmt")
@click.argument("expr")
def fmt_(expr: str) -> None:
    """Print EXPR in canonical form (single quotes, uppercase keywords, minimal parentheses).

    Exit 0, or 1 when the trigger is invalid.

    EXPR is the trigger text, '-' to read it from standard input, or '@FILE'.
    """
    text = read_expression(expr)
    result = _parse_or_exit(text)
    click.echo(dsl.format_trigger(result.ast))

