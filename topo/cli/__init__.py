"""The `topo` command line: thin click commands over library functions."""

from topo.cli.main import main

__all__ = ["main"]
