"""Whether `topo check` colours its text: `--color auto|always|never`, then the environment.

`always`/`never` decide. `auto` (the default) honours `NO_COLOR` (https://no-color.org: any
non-empty value turns colour off), then `FORCE_COLOR` (any non-empty value turns it on, for CI
logs that render ANSI), then colours only when the report goes to a terminal. Only the text
format is ever coloured; a report written to a file never is, unless `--color always`.
"""

from __future__ import annotations

from collections.abc import Mapping

import click

__all__ = ["COLOR_CHOICES", "color_option", "use_color"]

COLOR_CHOICES = ("auto", "always", "never")


def use_color(mode: str, *, to_terminal: bool, environment: Mapping[str, str]) -> bool:
    if mode != "auto":
        return mode == "always"
    if environment.get("NO_COLOR"):
        return False
    if environment.get("FORCE_COLOR"):
        return True
    return to_terminal


color_option = click.option(
    "--color", "color", type=click.Choice(COLOR_CHOICES), default="auto", show_default=True,
    help="Colour the text report: auto colours on a terminal, honouring NO_COLOR and "
         "FORCE_COLOR.")
