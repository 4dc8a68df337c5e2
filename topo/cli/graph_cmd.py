"""`topo graph PATH -f dot|json|graphml`: export the authority graph."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from topo.cli.audit_cmd import audit_request
from topo.cli.errors import UserError
from topo.cli.options import EXECUTOR_OPTION
from topo.audit.pipeline import AuditError, run_audit
from topo.reports.escape import escape_text
from topo.reports.graph_export import FORMATS, render_graph

__all__ = ["graph"]


@click.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="dot",
              show_default=True)
@click.option("-o", "--out", default="-", show_default=True,
              help="Output file, or '-' for standard output.")
@click.option("--no-cache", is_flag=True, help="Parse every file again; write no cache.")
@click.option("--include-tests", is_flag=True, help="Also read tests and fixtures.")
@EXECUTOR_OPTION
def graph(path: Path, fmt: str, out: str, no_cache: bool, include_tests: bool,
          executor: str | None) -> None:
    """Export the authority graph of the repository at PATH.

    Nodes are sites, functions, decision points, EMUs, events and tools; edges are the five
    topology roles (observation, inference, authority, execution, recording) and the structural
    relations (calls, contains, binds, emits, consumes, registers).

    Exit 0, or 2 when the audit could not run or the output could not be written.
    """
    # An absent flag is None, so that include-tests in [tool.topo] applies.
    request = audit_request(path, no_cache=no_cache, include_tests=include_tests or None,
                            executor=executor)
    try:
        result = run_audit(request)
    except AuditError as error:
        raise UserError(str(error)) from None
    text = escape_text(render_graph(result.graph, fmt))
    if out == "-":
        sys.stdout.write(text)
        return
    try:
        Path(out).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot write {out}: {error.strerror}") from None
    click.echo(out)
