"""The installed distribution: one `topo` namespace, nothing generic at the top level."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_the_wheel_installs_only_the_topo_namespace(tmp_path: Path) -> None:
    """`pip wheel .` (offline: the test extra carries setuptools) puts every import name under
    `topo`, and ships the pack data, schemas, code docs, queries and templates with it."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--no-cache-dir", "-w", str(tmp_path), str(REPO)],
                   check=True, capture_output=True, cwd=tmp_path)
    (wheel,) = tmp_path.glob("topo_audit-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"topo"}
    for data in ("topo/analyzers/packs/data/memrail.toml", "topo/analyzers/packs/pack.schema.json",
                 "topo/audit/schemas/emu.schema.json", "topo/audit/docs/codes/UNGOVERNED-PATH.md",
                 "topo/analyzers/typescript/queries/imports.scm",
                 "topo/reports/templates/topology.css",
                 "topo/cli/main.py"):
        assert data in names, data
    entry_points = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "topo = topo.cli:main" in entry_points
