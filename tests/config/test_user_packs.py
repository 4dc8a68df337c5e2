"""In-house knowledge as one TOML entry: `--pack FILE` and `packs = [...]` in the configuration.

Each twin is run with and without the pack: the pack must change the findings, both ways.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.gate.gate_helpers import check, topo

ACME_PACK = '''system = "acme"
description = "ACME's in-house payment, model and approval helpers"
languages = ["python"]
fingerprint = ["acme"]

[[entries]]
id = "acme.charge"
on = "call"
match = ["acme.payments.charge"]
site = "executor"
role = "execution"
tier = "money"

[[entries]]
id = "acme.complete"
on = "call"
match = ["acme.llm.complete"]
site = "inference"
role = "inference"

[[entries]]
id = "acme.approval"
on = "call"
match = ["acme.approvals.require_approval"]
site = "approval_gate"
role = "authority"
enforced = true
'''

ASK_MODEL = '''from openai import OpenAI

client = OpenAI()


def ask(request: str) -> int:
    reply = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": request}])
    return int(reply.choices[0].message.content)
'''

# An in-house money executor: unknown to the shipped packs.
SINK_APP = ASK_MODEL + '''

from acme.payments import charge


def settle(customer: str, request: str) -> None:
    charge(customer, ask(request))
'''

# An in-house model wrapper in front of a sink the shipped packs know.
WRAPPER_APP = '''import stripe

from acme.llm import complete


def settle(charge_id: str, request: str) -> None:
    amount = int(complete(f"How much should we refund? {request}"))
    stripe.Refund.create(charge=charge_id, amount=amount)
'''

# An in-house approval gate on the path from the model to a known sink.
GATE_APP = ASK_MODEL + '''

import stripe

from acme.approvals import require_approval


def settle(charge_id: str, request: str) -> None:
    amount = ask(request)
    if not require_approval(f"refund {amount} on {charge_id}"):
        return
    stripe.Refund.create(charge=charge_id, amount=amount)
'''


def app(root: Path, source: str) -> Path:
    root.mkdir(parents=True)
    (root / "app.py").write_text(source, encoding="utf-8")
    return root


def codes(root: Path, *args: object) -> list[str]:
    run = check(root, "-f", "json", "--exit-zero", *args)
    assert run.exit_code == 0, run.stderr
    return sorted(f["code"] for f in run.json()["findings"])


@pytest.fixture()
def pack(tmp_path: Path) -> Path:
    path = tmp_path / "packs" / "acme.toml"
    path.parent.mkdir()
    path.write_text(ACME_PACK, encoding="utf-8")
    return path


@pytest.mark.parametrize("source, without, with_pack", [
    (SINK_APP, [], ["UNGOVERNED-PATH"]),
    (WRAPPER_APP, [], ["UNGOVERNED-PATH"]),
    (GATE_APP, ["HIDDEN-AUTHORITY", "UNGOVERNED-PATH"], []),
], ids=["in-house sink", "model wrapper", "approval gate"])
def test_one_pack_entry_changes_the_findings(tmp_path: Path, pack: Path, source: str,
                                             without: list[str], with_pack: list[str]) -> None:
    root = app(tmp_path / "repo", source)
    assert codes(root) == without
    assert codes(root, "--pack", pack) == with_pack


def test_the_configuration_names_packs_by_glob_relative_to_itself(tmp_path: Path,
                                                                  pack: Path) -> None:
    root = app(tmp_path / "repo", SINK_APP)
    (root / "topo").mkdir()
    (root / "topo" / "acme.toml").write_text(ACME_PACK, encoding="utf-8")
    (root / "topo.toml").write_text('packs = ["topo/*.toml"]\n', encoding="utf-8")
    assert codes(root) == ["UNGOVERNED-PATH"]
    (root / "topo.toml").write_text('packs = ["topo/acme.toml"]\n', encoding="utf-8")
    assert codes(root) == ["UNGOVERNED-PATH"]
    (root / "topo.toml").write_text("", encoding="utf-8")
    assert codes(root) == []
    # --pack adds to the configured packs; the same file named twice is loaded once
    assert codes(root, "--pack", pack) == ["UNGOVERNED-PATH"]
    assert codes(root, "--pack", pack, "--pack", pack) == ["UNGOVERNED-PATH"]


def test_two_packs_of_one_system_are_an_error_naming_both_paths(tmp_path: Path,
                                                                pack: Path) -> None:
    root = app(tmp_path / "repo", SINK_APP)
    (root / "acme.toml").write_text(ACME_PACK, encoding="utf-8")
    run = check(root, "--pack", pack, "--pack", root / "acme.toml")
    assert run.exit_code == 2
    assert f"{root / 'acme.toml'}: system: 'acme' is also the system of {pack}" in run.stderr


def test_graph_takes_the_pack(tmp_path: Path, pack: Path) -> None:
    root = app(tmp_path / "repo", SINK_APP)
    assert "acme.payments.charge" not in topo("graph", root, "-f", "json", "--no-cache").stdout
    run = topo("graph", root, "-f", "json", "--no-cache", "--pack", pack)
    assert run.exit_code == 0, run.stderr
    assert "acme.payments.charge" in run.stdout


@pytest.mark.parametrize("broken, message", [
    (ACME_PACK.replace('site = "executor"', 'site = "exector"'),
     "acme.toml: entries[0].site: 'exector' is not one of"),
    (ACME_PACK.replace('tier = "money"', 'tier = "cash"'), "acme.toml: entries[0].tier"),
    ("colour = 'red'\n" + ACME_PACK, "acme.toml: (top level): Additional properties"),
    (ACME_PACK + "colour = 'red'\n", "acme.toml: entries[2]: Additional properties"),
    ("system = \n", "acme.toml: not valid TOML"),
])
def test_a_bad_pack_is_exit_2_naming_the_file_and_key(tmp_path: Path, pack: Path, broken: str,
                                                      message: str) -> None:
    root = app(tmp_path / "repo", SINK_APP)
    pack.write_text(broken, encoding="utf-8")
    (root / "topo.toml").write_text(f"packs = [{str(pack)!r}]\n", encoding="utf-8")
    for run in (check(root, "--pack", pack), check(root),
                topo("audit", root, "-o", tmp_path / "out", "--no-cache")):
        assert run.exit_code == 2
        assert message in run.stderr, run.stderr
        assert "Traceback" not in run.stderr


@pytest.mark.parametrize("entry, message", [
    ("missing.toml", "packs: 'missing.toml': no such file"),
    ("packs/*.toml", "packs: 'packs/*.toml' matches no file"),
])
def test_a_pack_the_configuration_names_must_exist(tmp_path: Path, entry: str,
                                                   message: str) -> None:
    root = app(tmp_path / "repo", SINK_APP)
    (root / "topo.toml").write_text(f"packs = [{entry!r}]\n", encoding="utf-8")
    run = check(root)
    assert run.exit_code == 2
    assert message in run.stderr and str(root / "topo.toml") in run.stderr, run.stderr


def test_a_fifo_named_as_a_pack_is_refused_without_blocking(tmp_path: Path) -> None:
    root = app(tmp_path / "repo", SINK_APP)
    os.mkfifo(root / "acme.toml")
    run = check(root, "--pack", root / "acme.toml")
    assert run.exit_code == 2
    assert "acme.toml: cannot read: not a regular file (a FIFO)" in run.stderr, run.stderr


def test_explain_says_how_to_load_a_pack() -> None:
    text = topo("explain", "UNGOVERNED-PATH").stdout
    assert "--pack FILE" in text and "packs = [" in text
    assert "add it to a rule pack." not in text
