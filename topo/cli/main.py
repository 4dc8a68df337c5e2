"""The `topo` group. Sub-commands live in their own modules, imported only when run.

`topo --version` and `topo --help` must answer at once: the commands' modules pull in libcst,
tree-sitter, networkx, jinja2 and Hypothesis, which take about a second to import. The group
therefore names each command's module and one-line help in a table (`COMMANDS`) and imports a
module only when its command is called (click's documented lazy-group pattern); a test checks
that the table's help lines are the commands' own.
"""

from __future__ import annotations

import gc
import importlib
import sys
from dataclasses import dataclass

import click

from topo import __version__
from topo.cli.errors import ExitCode

__all__ = ["COMMANDS", "CommandEntry", "cli", "main"]


@dataclass(frozen=True, slots=True)
class CommandEntry:
    module: str
    attribute: str
    short_help: str   # the first sentence of the command's docstring, for `topo --help`


COMMANDS: dict[str, CommandEntry] = {
    "audit": CommandEntry("topo.cli.audit_cmd", "audit",
                          "Audit the decision topology of the repository at PATH."),
    "cache": CommandEntry("topo.cli.cache_cmd", "cache",
                          "Show or empty the parse cache (per-file facts, keyed by content "
                          "hash)."),
    "check": CommandEntry("topo.cli.check_cmd", "check",
                          "Gate a repository in CI: audit PATH and fail on findings at or above "
                          "a severity."),
    "emus": CommandEntry("topo.cli.emus", "emus",
                         "Check Memrail EMU policy files (emus/*.jsonl)."),
    "explain": CommandEntry("topo.cli.explain", "explain",
                            "Print the documentation of CODE (a finding code such as "
                            "GHOST-EVENT, or a trigger DSL diagnostic code such as "
                            "DSL-DOUBLE-QUOTE)."),
    "fuzz": CommandEntry("topo.cli.fuzz", "fuzz",
                         "Fuzz the triggers of EMUS (an emus/ directory or one .jsonl file) "
                         "with Hypothesis."),
    "graph": CommandEntry("topo.cli.graph_cmd", "graph",
                          "Export the authority graph of the repository at PATH."),
    "trigger": CommandEntry("topo.cli.trigger", "trigger",
                            "Parse, evaluate, format and inspect trigger DSL expressions."),
}


class _LazyGroup(click.Group):
    """A group whose commands are imported when they are looked up to run."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        return getattr(importlib.import_module(entry.module), entry.attribute)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, _shorten(COMMANDS[name].short_help, limit)) for name in sorted(COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:max(0, limit - 3)].rsplit(" ", 1)[0] + "..."


@click.group(cls=_LazyGroup,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="topo")
def cli() -> None:
    """topo: audit the decision topology of AI-agent applications.

    topo reads Python and TypeScript repositories and Memrail EMU policies and shows where model
    output acquires authority over real effects. It never imports, runs or modifies the code it
    audits.
    """


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
