"""Where the per-file stage runs: the local process pool (the default) or a Dask cluster.

`--executor dask://HOST:PORT` hands the stage's jobs to a running Dask distributed scheduler
(`pip install 'topo-audit[dask]'`; every worker needs the same topo installed). Dask does the
scheduling; this module only submits chunks of jobs and reads back the bytes the local pool
would have returned, so the result is byte-identical to a local run. `dask.distributed` is
imported only when a Dask executor is asked for. The files' bytes travel to the cluster: that
is the one network traffic topo makes, and only when asked.

Crash isolation follows the local pool's: a chunk whose worker dies (Dask's `KilledWorker`,
after its own retries) is submitted again one job per task, and only a job that fails on its
own is reported, as `None` (the stage marks that file crashed).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["ExecutorError", "DaskExecutor", "parse_executor", "LOCAL"]

LOCAL = "local"
_SCHEME = "dask://"
_CONNECT_TIMEOUT = "10s"
_CHUNKS_PER_WORKER = 4


class ExecutorError(Exception):
    """The executor named cannot be used: a malformed address, the `dask` extra missing, the
    scheduler unreachable, or workers running another topo. The audit cannot run (exit 2)."""


def parse_executor(text: str | None) -> str | None:
    """The Dask scheduler address (`tcp://HOST:PORT`) of `dask://HOST:PORT`; None for the local
    pool (`None`, `''` or `local`). Anything else is an `ExecutorError`."""
    if text is None or text.strip() in ("", LOCAL):
        return None
    text = text.strip()
    if not text.startswith(_SCHEME):
        raise ExecutorError(f"unknown executor {text!r} (use 'local' or dask://HOST:PORT)")
    host, _, port = text[len(_SCHEME):].rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536 or "/" in host:
        raise ExecutorError(f"executor {text!r}: expected dask://HOST:PORT")
    return f"tcp://{host}:{port}"


def _distributed() -> Any:
    try:
        return importlib.import_module("dask.distributed")
    except ImportError:
        raise ExecutorError("--executor dask://… needs Dask: pip install 'topo-audit[dask]'") \
            from None


@dataclass(frozen=True, slots=True)
class DaskExecutor:
    """The stage's jobs on the Dask scheduler at `address` (`tcp://HOST:PORT`)."""

    address: str
    identity: Callable[[], tuple[str, ...]]   # what a worker must share with us (versions)

    def ensure_available(self) -> None:
        """Fail now, not after the cache was read, when the `dask` extra is missing."""
        _distributed()

    def run(self, batch: Sequence[Any], task: Callable[[list[Any]], list[bytes]]
            ) -> Iterator[bytes | None]:
        """`task` over chunks of `batch`, in order: each job's bytes, or None for a job whose
        worker died on it alone. `task` must be importable on the workers."""
        distributed = _distributed()
        try:
            client = distributed.Client(self.address, timeout=_CONNECT_TIMEOUT,
                                        set_as_default=False)
        except (OSError, TimeoutError) as error:
            raise ExecutorError(f"cannot reach the Dask scheduler at {self.address}: "
                                f"{error}") from None
        try:
            self._check_workers(client)
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            size = max(1, len(batch) // (workers * _CHUNKS_PER_WORKER))
            chunks = [list(batch[start:start + size]) for start in range(0, len(batch), size)]
            futures = client.map(task, chunks, pure=False)
            for chunk, future in zip(chunks, futures):
                yield from self._results(client, distributed, task, chunk, future)
        finally:
            client.close()

    def _check_workers(self, client: Any) -> None:
        ours = self.identity()
        theirs = client.run(self.identity)
        if not theirs:
            raise ExecutorError(f"the Dask scheduler at {self.address} has no workers")
        for worker, identity in sorted(theirs.items()):
            if tuple(identity) != ours:
                raise ExecutorError(f"Dask worker {worker} runs {'/'.join(identity)}, this "
                                    f"topo is {'/'.join(ours)}: results would differ")

    @staticmethod
    def _results(client: Any, distributed: Any, task: Callable, chunk: list[Any],
                 future: Any) -> Iterator[bytes | None]:
        lost = _Lost(distributed.KilledWorker)
        found = lost.result(future)
        if found is not lost:
            yield from found
            return
        # Which job killed the worker is unknown: each is run again on its own; a round that
        # finished nothing goes one job at a time, so only a job that dies alone is None.
        results: dict[int, bytes | None] = {}
        pending = list(range(len(chunk)))
        while pending:
            futures = client.map(task, [[chunk[i]] for i in pending], pure=False)
            outcomes = [lost.result(single) for single in futures]
            survivors = [i for i, outcome in zip(pending, outcomes) if outcome is lost]
            results |= {i: outcome[0] for i, outcome in zip(pending, outcomes)
                        if outcome is not lost}
            if len(survivors) == len(pending):
                for i in survivors:
                    outcome = lost.result(client.submit(task, [chunk[i]], pure=False))
                    results[i] = None if outcome is lost else outcome[0]
                survivors = []
            pending = survivors
        for index in range(len(chunk)):
            yield results[index]


@dataclass(frozen=True, slots=True)
class _Lost:
    """The marker of a task whose worker died (Dask's `KilledWorker`)."""

    killed: type

    def result(self, future: Any) -> Any:
        """The future's result, or this marker when its worker died; any other failure is the
        cluster's (a job never raises), and stops the run."""
        try:
            return future.result()
        except self.killed:
            return self
        except Exception as error:  # noqa: BLE001 - reported as an ExecutorError
            raise ExecutorError(f"a Dask task failed: {type(error).__name__}: "
                                f"{error}"[:300]) from None
