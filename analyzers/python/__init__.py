"""The Python front-end (libcst → IR). `parse_python` is the only entry point others use.

`parse_python` is imported on first use: libcst takes a sixth of a second to import, and a run
that finds every file in the parse cache never parses."""

from topo.analyzers.python.version import FRONTEND_VERSION

__all__ = ["FRONTEND_VERSION", "parse_python"]


def __getattr__(name: str) -> object:
    if name == "parse_python":
        from topo.analyzers.python.frontend import parse_python
        return parse_python
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
