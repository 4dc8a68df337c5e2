"""The installed distribution: one `topo` namespace, nothing generic at the top level, the
licence and metadata in the wheel, and an install from a checkout that works on its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from email.parser import Parser
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# What a build reads: copied out, so that builds never write into the checkout (and two
# tests building at once do not share its build/ directory).
BUILD_INPUTS = ("pyproject.toml", "README.md", "LICENSE", "topo", "analyzers", "audit",
                "reports")


def checkout_copy(target: Path) -> Path:
    target.mkdir()
    for name in BUILD_INPUTS:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, target / name)
    return target


def build_wheel(tmp_path: Path) -> Path:
    source = checkout_copy(tmp_path / "src")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--no-cache-dir", "-w", str(tmp_path), str(source)],
                   check=True, capture_output=True, cwd=tmp_path)
    (wheel,) = tmp_path.glob("topo_audit-*.whl")
    return wheel


def test_the_wheel_installs_only_the_topo_namespace(tmp_path: Path) -> None:
    """`pip wheel .` (offline: the test extra carries setuptools) puts every import name under
    `topo`, and ships the pack data, schemas, code docs, queries and templates with it."""
    wheel = build_wheel(tmp_path)
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


def test_the_wheel_ships_the_licence_and_the_metadata(tmp_path: Path) -> None:
    wheel = zipfile.ZipFile(build_wheel(tmp_path))
    (licence,) = [n for n in wheel.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
    text = wheel.read(licence).decode()
    assert text == (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text           # the full text, not a notice
    metadata = Parser().parsestr(wheel.read(next(
        n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))).decode())
    from topo import __version__
    assert metadata["Version"] == __version__               # one place to bump
    assert metadata["License-Expression"] == "Apache-2.0"
    assert metadata["Author"]
    assert "static-analysis" in metadata["Keywords"]
    classifiers = metadata.get_all("Classifier")
    assert "Topic :: Security" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]   # PEP 639: the expression
    assert metadata.get_all("Project-URL") is None          # no public home yet


def _dependencies_only(target: Path) -> Path:
    """This environment's installed packages, without topo itself: links in one directory."""
    target.mkdir()
    for directory in dict.fromkeys((sysconfig.get_paths()["purelib"],
                                    sysconfig.get_paths()["platlib"])):
        for entry in Path(directory).iterdir():
            name = entry.name
            if name.startswith(("topo", "__editable__")) or \
                    name.endswith(".pth") or (target / name).exists():
                continue
            (target / name).symlink_to(entry)
    return target


def test_pip_install_from_a_checkout_into_a_clean_venv_runs_topo_check(tmp_path: Path) -> None:
    """README, "Install for your repo": `pip install .` from a checkout into a virtualenv
    outside it. Offline: the dependencies are this environment's (linked, topo left out), the
    build runs without isolation."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], check=True, capture_output=True, text=True
                          ).stdout.strip()
    deps = _dependencies_only(tmp_path / "deps")
    Path(site, "deps.pth").write_text(f"{deps}\n")
    checkout = checkout_copy(tmp_path / "checkout")
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    work = tmp_path / "work"
    work.mkdir()
    assert subprocess.run([python, "-c", "import topo"], cwd=work, env=environment,
                          capture_output=True).returncode != 0      # not there before
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                              "--quiet", "--no-deps", "--no-build-isolation", "--no-cache-dir",
                              "."], capture_output=True, text=True, cwd=checkout, env=environment)
    assert install.returncode == 0, install.stderr
    shutil.rmtree(checkout)                                          # the install stands alone
    where = subprocess.run([python, "-c", "import topo; print(topo.__file__)"], cwd=work,
                           env=environment, check=True, capture_output=True, text=True).stdout
    assert where.startswith(str(venv)), where
    topo = venv / "bin" / "topo"
    version = subprocess.run([topo, "--version"], cwd=work, env=environment,
                             capture_output=True, text=True, check=True).stdout
    from topo import __version__
    assert __version__ in version

    sample = work / "sample"
    sample.mkdir()
    (sample / "app.py").write_text(
        "import shutil\n\nfrom agents import Agent, function_tool\n\n\n@function_tool\n"
        "def purge(path: str) -> str:\n    shutil.rmtree(path)\n    return 'purged'\n\n\n"
        "agent = Agent(name='ops', tools=[purge])\n", encoding="utf-8")
    cache = ["--cache-dir", str(tmp_path / "cache")]
    run = subprocess.run([topo, "check", "sample", *cache], cwd=work, env=environment,
                         capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert "sample/app.py:8:5: UNGOVERNED-PATH [critical]" in run.stdout
    (sample / "topo.toml").write_text('ignore = ["UNGOVERNED-PATH"]\n', encoding="utf-8")
    run = subprocess.run([topo, "check", "sample", *cache], cwd=work, env=environment,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_readme_pins_the_current_release_tag() -> None:
    """docs/RELEASING.md: the install line, the pre-commit `rev:` and the Action's `uses:`
    all name the tag of the version in topo/__init__.py."""
    import re
    from topo import __version__
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    pins = re.findall(r"topo@(v[0-9][^\s\"'`]*)|rev: (v[0-9][^\s]*)", readme)
    tags = {tag for pair in pins for tag in pair if tag}
    assert len(pins) >= 3, pins
    assert tags == {f"v{__version__}"}
    assert f"v{__version__}" not in readme.split("## Install for your repo")[0]   # Quickstart
    releasing = (REPO / "docs" / "RELEASING.md").read_text(encoding="utf-8")
    assert "topo/__init__.py" in releasing and "git tag -a vX.Y.Z" in releasing
