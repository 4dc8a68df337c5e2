"""The `chain` attribute source: an argument of a call inside the matched expression (a step
of its receiver chain, or a call among its arguments), for query builders whose model or SQL
sits several calls before the method that returns the row. The front-end names the chained
methods through the shipped packs' `factories` (db_reads.toml), so the test pack matches
SQLAlchemy names."""

from __future__ import annotations

import textwrap

import pytest

from topo.analyzers.packs import PackError, classify, factories, load_packs
from topo.analyzers.python import parse_python
from topo.analyzers.model import SiteKind

FACTORIES = factories()   # the shipped packs' factories, for the Python front-end

PACK = '''
system = "chainy"
languages = ["python"]
[[entries]]
id = "chainy.first"
on = "call"
match = ["sqlalchemy.orm.Session.query.**.first", "sqlalchemy.orm.Session.scalars.first"]
site = "memory_read"
role = "observation"
[entries.attrs]
table = { chain = ["query", "select"], arg = 0, as = "text" }
query = { chain = "filter_by", kwarg = "request_id", as = "text" }
'''

SOURCE = '''
from sqlalchemy import select
from sqlalchemy.orm import Session

def f(db: Session, rid):
    a = db.query(Refund).filter_by(request_id=rid).first()
    b = db.scalars(select(Payout).where(x)).first()
    c = db.scalars(statement).first()
'''


def _reads(tmp_path):
    path = tmp_path / "chainy.toml"
    path.write_text(PACK, encoding="utf-8")
    packs = load_packs([path])
    file = parse_python("app/a.py", textwrap.dedent(SOURCE), "app.a", strict=True,
                        factories=FACTORIES)   # the shipped ones: `Session`
    sites = [s for s in classify([file], packs) if s.kind is SiteKind.MEMORY_READ]
    return {s.location.line: s for s in sites}


def test_chain_reads_an_argument_of_an_earlier_step_of_the_receiver_chain(tmp_path):
    read = _reads(tmp_path)[6]
    assert read.attr("table") == "Refund"
    assert read.attr("query") == "rid"


def test_chain_reads_an_argument_of_a_call_nested_in_the_arguments(tmp_path):
    read = _reads(tmp_path)[7]
    assert read.attr("table") == "Payout"
    assert read.attr("query") is None


def test_chain_without_such_a_call_gives_no_attribute(tmp_path):
    assert _reads(tmp_path)[8].attr("table") is None


def test_chain_must_name_methods(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(PACK.replace('chain = "filter_by"', 'chain = "filter-by"'), encoding="utf-8")
    with pytest.raises(PackError):
        load_packs([path])
