"""Exit codes and the one way a command reports a user error without a traceback."""

from __future__ import annotations

import enum

import click

__all__ = ["ExitCode", "UserError"]


class ExitCode(enum.IntEnum):
    """The documented exit codes (README, "Exit codes")."""

    OK = 0
    FINDINGS = 1          # findings at/above the threshold; for `trigger`: the expression is invalid
    ERROR = 2             # usage, configuration, unreadable input or scan error
    EVALUATION_ERROR = 3  # `trigger eval`: the trigger could not be evaluated on this context


class UserError(click.ClickException):
    """A problem with the user's input: printed as `topo: error: …`, exit code 2 by default."""

    def __init__(self, message: str, exit_code: int = ExitCode.ERROR) -> None:
        super().__init__(message)
        self.exit_code = exit_code

    def show(self, file=None) -> None:  # noqa: ANN001 - click's signature
        click.echo(f"topo: error: {self.format_message()}", err=True)
