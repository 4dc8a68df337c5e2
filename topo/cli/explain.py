"""`topo explain CODE`: the documentation of one finding or DSL diagnostic code; `--sinks`:
the executor catalog."""

from __future__ import annotations

import click

from topo.analyzers.packs import load_packs
from topo.audit import codes
from topo.cli.errors import ExitCode, UserError
from topo.audit.docs import code_doc
from topo.audit.dsl.diagnostics import DSL_CODES
from topo.reports.sink_catalog import sink_catalog

__all__ = ["explain"]


@click.command()
@click.argument("code", required=False)
@click.option("--list", "list_codes", is_flag=True, help="List every code with its title.")
@click.option("--sinks", is_flag=True,
              help="Print the executor catalog (every call treated as a real-world effect, "
                   "by tier and family) as a Markdown table.")
def explain(code: str | None, list_codes: bool, sinks: bool) -> None:
    """Print the documentation of CODE (a finding code such as GHOST-EVENT, or a trigger DSL
    diagnostic code such as DSL-DOUBLE-QUOTE).

    With --sinks, print the executor catalog instead (docs/sinks.md).

    Exit 0, or 2 when the code is unknown.
    """
    if sinks:
        click.echo(sink_catalog(load_packs()), nl=False)
        return
    if list_codes or code is None:
        for finding_code in codes.ALL:
            click.echo(f"{finding_code.id:<24} {finding_code.default_severity.value:<8} "
                       f"{finding_code.title}")
        for dsl_code in DSL_CODES.values():
            click.echo(f"{dsl_code.id:<24} {'dsl':<8} {dsl_code.title}")
        return
    wanted = code.strip().upper()
    finding_code = codes.by_id(wanted)
    if finding_code is not None:
        click.echo(code_doc(finding_code.id))
        return
    dsl_code = DSL_CODES.get(wanted)
    if dsl_code is not None:
        click.echo(f"# {dsl_code.id}: {dsl_code.title}\n\n"
                   f"A trigger DSL diagnostic (reported by `topo trigger check` and inside "
                   f"EMU-TRIGGER-SYNTAX findings).\n\n"
                   f"## Example\n\n    {dsl_code.example}\n\n## Use instead\n\n    {dsl_code.fixed}")
        return
    raise UserError(f"unknown code {code!r}; `topo explain --list` lists them",
                    exit_code=ExitCode.ERROR)
