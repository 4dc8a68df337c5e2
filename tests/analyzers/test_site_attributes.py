"""The declared attributes of each site kind (`SITE_ATTRIBUTES`) are the one contract between
what packs, the engine and the flow stage write and what checks read: a read of an undeclared
name fails, and every literal name the code reads is declared somewhere."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from topo.analyzers.model import (SITE_ATTRIBUTES, AttributeDecl, Location, Site, SiteKind,
                                  UndeclaredAttribute)
from topo.analyzers.packs._model import ENGINE_ATTRS

REPO = Path(__file__).resolve().parents[2]
READERS = ("analyzers", "audit", "reports", "topo")
ATTR_VALUE_TYPES = {str, int, float, bool, type(None), tuple}


def _site(kind: SiteKind, **attrs: object) -> Site:
    return Site(id=f"{kind.value}:a.py:1:1", kind=kind, system="demo", language="python",
                location=Location("a.py", 1), symbol="a.f", attrs=tuple(sorted(attrs.items())))


def _literal_reads(root: Path) -> list[tuple[str, int, str]]:
    """Every `<expr>.attr("<literal>", ...)` call under `root` as (file, line, name), read
    with `ast`, not imported."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "attr" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                found.append((str(path), node.lineno, node.args[0].value))
    return found


def _declared_anywhere() -> set[str]:
    return {name for table in SITE_ATTRIBUTES.values() for name in table}


def test_every_literal_attribute_read_is_declared_for_some_kind():
    reads = [read for root in READERS for read in _literal_reads(REPO / root)]
    assert len(reads) > 200      # the scan sees the checks, not an empty tree
    declared = _declared_anywhere()
    assert [read for read in reads if read[2] not in declared] == []


def test_the_scan_catches_a_misspelt_read(tmp_path):
    (tmp_path / "check.py").write_text('def f(site):\n    return site.attr("teir")\n')
    reads = _literal_reads(tmp_path)
    assert [name for _, _, name in reads if name not in _declared_anywhere()] == ["teir"]


def test_reading_an_undeclared_attribute_raises_with_a_hint():
    executor = _site(SiteKind.EXECUTOR, tier="money")
    with pytest.raises(UndeclaredAttribute) as caught:
        executor.attr("teir")
    assert str(caught.value) == "'teir' is not an attribute of executor sites " \
                                "(did you mean 'tier'?)"
    assert isinstance(caught.value, KeyError)


def test_an_attribute_of_another_kind_is_undeclared_even_when_absent():
    # `protocol` belongs to model branches; a generic reader must ask `kind.declares` first.
    threshold = _site(SiteKind.THRESHOLD, op=">")
    with pytest.raises(UndeclaredAttribute):
        threshold.attr("protocol")
    assert not SiteKind.THRESHOLD.declares("protocol")
    assert SiteKind.MODEL_BRANCH.declares("protocol")


def test_a_check_reading_a_misspelt_attribute_fails():
    def executor_tier(site: Site) -> str:    # a check's helper with a typo
        return str(site.attr("tire") or "none")

    with pytest.raises(UndeclaredAttribute):
        executor_tier(_site(SiteKind.EXECUTOR, tier="money"))


def test_a_declared_attribute_the_site_lacks_reads_as_the_default():
    executor = _site(SiteKind.EXECUTOR, tier="money")
    assert executor.attr("tier") == "money"
    assert executor.attr("amount") is None and executor.attr("amount", 0) == 0


def test_a_dynamic_attribute_declares_its_non_literal_companions():
    table = SITE_ATTRIBUTES[SiteKind.DECISION_CALL]
    assert table["decision_point"].dynamic
    assert table["decision_point_literal"].type == (bool,)
    assert table["decision_point_text"].type == (str,)
    assert "executes_literal" not in table       # a constant has no non-literal form


def test_engine_attributes_are_declared_for_every_kind_a_pack_can_name():
    for kind in SiteKind:
        assert ENGINE_ATTRS - {"tier"} <= set(SITE_ATTRIBUTES[kind]), kind
    assert [kind for kind in SiteKind if kind.declares("tier")] == [SiteKind.EXECUTOR]


def test_declarations_are_well_formed():
    for kind, table in SITE_ATTRIBUTES.items():
        assert table, kind
        for name, decl in table.items():
            assert isinstance(decl, AttributeDecl) and decl.name == name
            assert name.isidentifier() and name == name.lower(), (kind, name)
            assert decl.type and set(decl.type) <= ATTR_VALUE_TYPES, (kind, name)
            assert decl.meaning and "\n" not in decl.meaning, (kind, name)
