"""`--executor dask://HOST:PORT`: the per-file stage on a Dask cluster gives the same reports as
the local pool, byte for byte, and a worker that dies costs only its own file."""

from __future__ import annotations

import faulthandler
import io
import os
from pathlib import Path

import pytest

from topo.analyzers.discovery.inventory import discover
from topo.analyzers.frontend import stage
from topo.analyzers.frontend.executor import ExecutorError, parse_executor
from topo.audit.pipeline import AuditError, AuditRequest, run_audit
from topo.reports.document import audit_document
from topo.reports.formats import audit_format

APPS = Path(__file__).resolve().parents[2] / "corpus" / "apps"

distributed = pytest.importorskip(
    "dask.distributed", reason="dask[distributed] is not installed (pip install "
                               "'topo-audit[dask]'): the Dask executor cannot be tested")


def _address(cluster) -> str:
    return "dask://" + cluster.scheduler_address.removeprefix("tcp://")


def _reports(request: AuditRequest) -> dict[str, str]:
    document = audit_document(run_audit(request))
    texts = {}
    for name in ("json", "yaml", "md", "sarif"):
        out = io.StringIO()
        audit_format(name).write(document, out)
        texts[name] = out.getvalue()
    return texts


@pytest.fixture(scope="module")
def threaded_cluster():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=":0") as cluster:
        yield cluster


@pytest.mark.parametrize("app", ["demo_support_agent", "parity_ts"])
def test_reports_on_dask_are_byte_identical_to_the_local_pool(app: str, threaded_cluster,
                                                              monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    local = _reports(AuditRequest(root=APPS / app, jobs=2, cache_dir=None))
    remote = _reports(AuditRequest(root=APPS / app, jobs=2, cache_dir=None,
                                   executor=_address(threaded_cluster)))
    assert remote == local
    assert '"kind": "inference"' in local["json"] or app == "parity_ts"


def test_dask_results_fill_the_same_cache_a_local_run_reads(tmp_path: Path,
                                                            threaded_cluster) -> None:
    inventory = discover(APPS / "demo_support_agent")
    remote = stage.analyze_files(inventory, cache_dir=tmp_path,
                                 executor=_address(threaded_cluster))
    assert any(tmp_path.rglob("*.pickle"))
    assert stage.analyze_files(inventory, cache_dir=tmp_path, jobs=1) == remote


def test_an_unreachable_scheduler_is_a_clear_audit_error() -> None:
    with pytest.raises(AuditError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        run_audit(AuditRequest(root=APPS / "cross_file", cache_dir=None,
                               executor="dask://127.0.0.1:9"))


def test_malformed_executors_are_refused() -> None:
    assert parse_executor(None) is None and parse_executor("local") is None
    assert parse_executor("dask://10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    for bad in ("dask://host", "dask://:8786", "ray://h:1", "dask://h:99999"):
        with pytest.raises(ExecutorError):
            parse_executor(bad)


def _abort_on(name: str):
    real = stage.parse_source

    def parse(path, *args, **kwargs):
        if path == name:
            faulthandler.disable()
            os.abort()                  # the worker process dies of a signal
        return real(path, *args, **kwargs)
    return parse


def test_a_dask_worker_that_dies_costs_only_its_own_file(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    for index in range(8):
        (root / f"m{index:02d}.py").write_text(f"def f{index}():\n    run({index})\n")
    monkeypatch.setattr(stage, "parse_source", _abort_on("m00.py"))
    # Forked worker processes inherit the patched front-end; no retry of a task that killed one.
    import dask

    with dask.config.set({"distributed.worker.multiprocessing-method": "fork",
                          "distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                     dashboard_address=":0") as cluster:
        files = stage.analyze_files(discover(root), cache_dir=None, executor=_address(cluster))
    crashed = [ir.path for ir in files if ir.parse_error is not None]
    assert crashed == ["m00.py"]
    assert "crashed on this file" in files[0].parse_error.reason
    assert [len(ir.calls) for ir in files[1:]] == [1] * 7
