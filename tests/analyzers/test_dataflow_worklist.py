"""The dataflow's worklist re-reads a statement only when something it reads changed; its fixed
point must equal the one reached by reading every statement again until nothing changes. If
the index of what each statement reads missed a dependency, the worklist would stop early and
the two would differ."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.analyzers.discovery.inventory import discover
from topo.analyzers.flow import dataflow
from topo.analyzers.flow.dataflow import Flow, Seeds, propagate
from topo.analyzers.flow.facts import source_facts
from topo.analyzers.frontend.stage import analyze_files

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def _every_statement_until_nothing_changes(files, graph, seeds: Seeds) -> Flow:
    index = dataflow.flow_index(files, graph)
    statements = dataflow._with_writes(index, seeds.graphs)
    state = dataflow._State(seeds, statements, index.readers, index.chained, index.locals,
                            index.modules)

    def tables():
        return (dict(state.calls), {k: dict(v) for k, v in state.names.items()},
                dict(state.returns), dict(state.channels))

    while True:
        before = tables()
        for path in sorted(statements, reverse=True):    # another order, too
            state.dirty[path] = set(range(len(statements[path].statements)))
            dataflow._pass(index.by_path[path], statements[path].statements, graph, state)
        state.dirty.clear()
        state.pending.clear()
        state.queued.clear()
        if tables() == before:
            return dataflow._expanded(index.files, graph, state)


@pytest.fixture(scope="module")
def program():
    facts = source_facts(analyze_files(discover(CORPUS), jobs=1, cache_dir=None))
    calls = sorted(call.id for file in facts.files for call in file.calls)
    definitions = sorted(facts.graph.definitions)
    assert facts.state_graphs.writes      # graph channels are followed, too
    return facts, calls, definitions


@pytest.mark.parametrize("every", [3, 11])
def test_worklist_reaches_the_fixed_point_of_reading_everything(program, every: int) -> None:
    facts, calls, definitions = program
    seeds = Seeds(
        calls={call: frozenset({f"seed:{index % 17}"})
               for index, call in enumerate(calls) if index % every == 0},
        parameters={key: {p.name: frozenset({"param"})
                          for p in facts.graph.definitions[key][1].parameters}
                    for key in definitions[::every * 2]},
        barriers=frozenset(calls[1::every * 3]),
        graphs=facts.state_graphs)
    fast = propagate(facts.files, facts.graph, seeds)
    slow = _every_statement_until_nothing_changes(facts.files, facts.graph, seeds)
    assert fast.calls and fast.names        # the seeds reached something
    assert fast.calls == slow.calls
    assert fast.names == slow.names
    assert fast.returns == slow.returns
    assert fast.channels == slow.channels


def test_graph_writes_keep_every_statement_at_its_number(program) -> None:
    """Calls are named by (file, number) in the run's readers, built without graph writes:
    adding a propagation's writes must not renumber a file's own statements."""
    facts, _, _ = program
    index = dataflow.flow_index(facts.files, facts.graph)
    extended = dataflow._with_writes(index, facts.state_graphs)
    changed = [path for path in facts.state_graphs.writes if path in index.statements]
    assert changed
    for path in changed:
        base, more = index.statements[path].statements, extended[path].statements
        assert len(more) > len(base)
        assert more[:len(base)] == base
