"""`topo graph PATH -f dot|json|graphml`: export the authority graph."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from topo.cli.audit_cmd import audit_request
from topo.cli.errors import UserError
from topo.cli.options import (ConfigOptions, ScanOptions, Verbosity, config_options,
                              project_config, scan_options, verbosity_options)
from topo.cli.output import file_output_option, file_target, write_file
from topo.audit.pipeline import AuditError, run_audit
from topo.reports.escape import escape_text
from topo.reports.graph_export import FORMATS, render_graph

__all__ = ["graph"]

_FILE_NAMES = {"dot": "topology.dot", "json": "topology-graph.json",
               "graphml": "topology.graphml"}


@click.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="dot",
              show_default=True)
@file_output_option("-o", "--out")
@scan_options
@config_options
@verbosity_options
def graph(path: Path, fmt: str, out: str, scan: ScanOptions, settings: ConfigOptions,
          verbosity: Verbosity) -> None:
    """Export the authority graph of the repository at PATH.

    Nodes are sites, functions, decision points, EMUs, events and tools; edges are the five
    topology roles (observation, inference, authority, execution, recording) and the structural
    relations (calls, contains, binds, emits, consumes, registers).

    The scan options of `topo audit` apply (--exclude, --include-tests, -j, --cache-dir…).
    Exit 0, or 2 when the audit could not run or the output could not be written.
    """
    target = file_target(out, _FILE_NAMES[fmt])
    request = audit_request(path, scan, config=project_config(path, settings), settings=settings)
    progress = verbosity.progress()
    try:
        result = run_audit(request, progress=progress)
    except AuditError as error:
        raise UserError(str(error)) from None
    finally:
        progress.finish()
    if result.partial:
        click.echo(f"topo: partial result: {len(result.unknowns)} input(s) could not be read",
                   err=True)
    write_file(target, escape_text(render_graph(result.graph, fmt)), sys.stdout)
    if target.path is not None:
        click.echo(str(target.path))
