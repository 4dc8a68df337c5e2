"""Each finding code is documented once, with required headings and runnable examples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from topo.audit import codes, emitters
from topo.audit.checks import ALL_CHECKS
from topo.audit.docs import REQUIRED_HEADINGS, code_doc
from topo.audit.pipeline import AuditRequest, run_audit
from topo.audit.policy.lints import LINTS
from topo.audit.suppressions import CODES as SUPPRESSION_CODES

REPO = Path(__file__).resolve().parents[2]
_BLOCK = re.compile(r"```(?P<lang>python|json|typescript)\n(?P<body>.*?)```", re.S)


@pytest.mark.parametrize("code", codes.ALL, ids=lambda c: c.id)
def test_doc_has_required_headings(code) -> None:
    text = code_doc(code.id)
    assert text.startswith(f"# {code.id}: {code.title}\n")
    positions = [text.find(f"\n{heading}\n") for heading in REQUIRED_HEADINGS]
    assert all(p > 0 for p in positions), code.id
    assert positions == sorted(positions), f"{code.id}: headings out of order"


def _example(code_id: str, heading: str) -> list[tuple[str, str]]:
    """Every code block under a heading: together they form one small repository (Python and
    TypeScript blocks become source files, each ```json block one EMU line of emus.jsonl)."""
    section = code_doc(code_id).split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]
    blocks = [(m["lang"], m["body"]) for m in _BLOCK.finditer(section)]
    assert blocks, f"{code_id}: no code block under {heading}"
    return blocks


def _audit_example(root: Path, blocks: list[tuple[str, str]]) -> set[str]:
    emus = []
    for index, (lang, body) in enumerate(blocks):
        if lang == "json":
            emus.append(json.dumps(json.loads(body)))
        else:
            suffix = ".py" if lang == "python" else ".ts"
            (root / f"example_{index}{suffix}").write_text(body)
    if emus:
        (root / "emus").mkdir()
        (root / "emus" / "emus.jsonl").write_text("\n".join(emus) + "\n")
    result = run_audit(AuditRequest(root=root, jobs=1, cache_dir=None))
    assert result.unknowns == (), result.unknowns
    return {f.code.id for f in result.findings}


@pytest.mark.parametrize("code", codes.ALL, ids=lambda c: c.id)
def test_doc_examples_behave_as_documented(code, tmp_path: Path) -> None:
    bad, good = tmp_path / "bad", tmp_path / "good"
    bad.mkdir()
    good.mkdir()
    assert code.id in _audit_example(bad, _example(code.id, "## Example"))
    assert code.id not in _audit_example(good, _example(code.id, "## Use instead"))


def test_all_is_every_code_constant_once_in_declaration_order() -> None:
    constants = [v for v in vars(codes).values() if isinstance(v, codes.Code)]
    assert codes.ALL == tuple(constants) and len({c.id for c in codes.ALL}) == len(codes.ALL)
    assert (codes.ALL[0], codes.ALL[-1]) == (codes.EMU_SCHEMA, codes.SUPPRESSION_UNUSED)
    assert set(codes.__all__) == {"ALL", "by_id", *(n for n, v in vars(codes).items()
                                                    if isinstance(v, codes.Code))}


def test_every_code_has_exactly_one_emitter() -> None:
    for code in codes.ALL:
        assert len(emitters.emitters_of(code)) == 1, code.id
    assert {c for e in emitters.EMITTERS for c in e.codes} == set(codes.ALL)


def test_the_registry_lists_every_check_lint_and_the_suppression_pass() -> None:
    registered = {(e.stage, e.module) for e in emitters.EMITTERS}
    assert {(emitters.Stage.CHECK, one.run.__module__) for one in ALL_CHECKS} <= registered
    assert {(emitters.Stage.LINT, lint.check.__module__) for lint in LINTS} <= registered
    [suppression] = [e for e in emitters.EMITTERS if e.stage is emitters.Stage.SUPPRESSION]
    assert suppression.codes == SUPPRESSION_CODES
    assert emitters.CHECKS == ALL_CHECKS and emitters.LINTS == LINTS


def test_every_check_module_is_registered() -> None:
    modules = {p.stem for p in (REPO / "audit" / "checks").glob("*.py")
               if not p.name.startswith("_")}
    registered = {one.run.__module__.rsplit(".", 1)[1] for one in ALL_CHECKS}
    assert modules == registered


def test_catalog_lists_every_code() -> None:
    catalog = (REPO / "docs" / "findings.md").read_text()
    for code in codes.ALL:
        assert re.search(rf"^\| `{re.escape(code.id)}` \| {code.default_severity.value} \|",
                         catalog, re.M), f"{code.id} missing from docs/findings.md"
