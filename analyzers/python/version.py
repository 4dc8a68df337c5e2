"""The Python front-end's version, apart from the front-end: the cache key needs it on every
run, the parser (and libcst) only when a file is not in the cache."""

__all__ = ["FRONTEND_VERSION"]

# Bump whenever the facts extracted for the same source change: it keys the per-file cache.
FRONTEND_VERSION = "python-19"
