"""The Python front-end (libcst → IR). `parse_python` is the only entry point others use."""

from topo.analyzers.python.frontend import FRONTEND_VERSION, parse_python

__all__ = ["FRONTEND_VERSION", "parse_python"]
