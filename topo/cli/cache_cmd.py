"""`topo cache`: what the parse cache holds, and emptying it."""

from __future__ import annotations

from pathlib import Path

import click

from topo.analyzers.frontend.cache import DEFAULT_MAX_CACHE_BYTES, IRCache
from topo.audit.pipeline import default_cache_dir

__all__ = ["cache"]

_DIRECTORY = click.option("--cache-dir", type=click.Path(path_type=Path, file_okay=False),
                          default=None, help="The cache directory (default: the one audits use).")


@click.group()
def cache() -> None:
    """Show or empty the parse cache (per-file facts, keyed by content hash)."""


@cache.command("info")
@_DIRECTORY
def info(cache_dir: Path | None) -> None:
    """Print the cache directory, its entries and its size (bounded to 1 GiB, least recently
    used entries removed first)."""
    directory = cache_dir or default_cache_dir()
    usage = IRCache(directory).usage()
    click.echo(f"{directory}: {usage.entries} entries, {_size(usage.bytes)} "
               f"(bounded to {_size(DEFAULT_MAX_CACHE_BYTES)})")


@cache.command("clean")
@_DIRECTORY
def clean(cache_dir: Path | None) -> None:
    """Remove every cache entry. Exit 0 (an absent cache is already clean)."""
    directory = cache_dir or default_cache_dir()
    removed = IRCache(directory).clean()
    click.echo(f"{directory}: removed {removed.entries} entries, {_size(removed.bytes)}")


def _size(count: int) -> str:
    for unit in ("B", "KiB", "MiB"):
        if count < 1024:
            return f"{count} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    return f"{count:.1f} GiB"
