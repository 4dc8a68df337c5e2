"""The `topo` group. Sub-commands live in their own modules and are registered here."""

from __future__ import annotations

import gc
import sys

import click

from topo import __version__
from topo.cli.audit_cmd import audit
from topo.cli.check_cmd import check
from topo.cli.emus import emus
from topo.cli.errors import ExitCode
from topo.cli.explain import explain
from topo.cli.fuzz import fuzz
from topo.cli.graph_cmd import graph
from topo.cli.trigger import trigger

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="topo")
def cli() -> None:
    """topo: audit the decision topology of AI-agent applications.

    topo reads Python and TypeScript repositories and Memrail EMU policies and shows where model
    output acquires authority over real effects. It never imports, runs or modifies the code it
    audits.
    """


cli.add_command(audit)
cli.add_command(check)
cli.add_command(trigger)
cli.add_command(emus)
cli.add_command(explain)
cli.add_command(fuzz)
cli.add_command(graph)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: no traceback reaches the user, whatever happens."""
    # An audit allocates millions of small objects that live to the end (EMUs, trigger ASTs,
    # document dicts); at the default threshold the cyclic collector rescans them again and
    # again (a fifth of the CPU time of an audit of 20,000 EMUs). mypy tunes it the same way
    # (python/mypy:mypy/build.py). Results do not depend on it.
    gc.set_threshold(200_000, 30, 30)
    try:
        cli.main(args=argv, prog_name="topo", standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        click.echo("topo: interrupted", err=True)
        sys.exit(130)
    except Exception as error:  # noqa: BLE001 - the last line of defence against tracebacks
        click.echo(f"topo: internal error: {type(error).__name__}: {error}\n"
                   "This is a bug in topo; please report it with the command that caused it.",
                   err=True)
        sys.exit(ExitCode.ERROR)
