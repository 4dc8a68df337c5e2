"""Approvals that do not hold: an approval callback that approves by itself.

A registration that requires approval is enforced authority only if a human decides. When
the framework hands the decision to a function of the app (`on_approval` / `onApproval`, named
by the packs' `approval_callbacks`), we read that function, and the repository functions its
answer comes from (bounded), for an approving answer (`true`, `{approve: true}`, by the packs'
`approval_decision_keys`) returned unconditionally or under a condition that reads the
environment: `process.env.X`, `os.environ` / `os.getenv`, or a module constant or `self.` /
`this.` attribute assigned from them. Such a switch (`SHELL_AUTO_APPROVE=1`) turns the human
off without a code change, so the approval fails open (issue #14).
"""

from __future__ import annotations

from topo.analyzers.flow.facts import SourceFacts
from topo.analyzers.ir import MODULE_SCOPE, Assignment, FileIR, Guard, GuardKind, Value, ValueKind
from topo.analyzers.model import Site

__all__ = ["approval_switch", "ALWAYS"]

ALWAYS = "always"
# Where a program reads its environment: Python's `os` module, Node's `process` global.
_ENVIRONMENT = ("process.env", "os.environ", "os.getenv")
_DEPTH = 3          # functions followed from the callback to the answer
_NO_CONDITION = frozenset({GuardKind.TRY, GuardKind.EXCEPT, GuardKind.FINALLY})


def approval_switch(facts: SourceFacts, registration: Site) -> str | None:
    """What makes the registration's approval callback approve without a human: the
    environment switch's name, `ALWAYS`, or None when the callback (as far as it is read)
    only approves on someone's answer."""
    knowledge = facts.knowledge
    key = knowledge.approval_callback(registration)
    if key is None:
        return None
    return _approves(facts, key, knowledge.approval_decision_keys, _DEPTH)


def _approves(facts: SourceFacts, key: str, keys: tuple[str, ...], depth: int) -> str | None:
    found = facts.graph.definitions.get(key)
    if found is None or depth <= 0:
        return None
    file, definition = found
    for ret in file.returns:
        if ret.scope != definition.qualname or ret.value is None:
            continue
        answer = _answer(ret.value, keys)
        if answer is None:
            continue
        if answer.kind is ValueKind.BOOL and answer.literal is True:
            switch = _switch(facts, file, ret.guards)
            if switch:
                return switch
            continue
        for inner in _producers(facts, file, definition.qualname, answer):
            if switch := _approves(facts, inner, (), depth - 1):
                return switch
    return None


def _answer(value: Value, keys: tuple[str, ...]) -> Value | None:
    """The part of a returned value that carries the decision: the value of a decision key
    of a returned record, or the value itself (a boolean answer)."""
    if value.kind is ValueKind.DICT:
        return next((v for k, v in value.entries if k in keys), None)
    return value


def _producers(facts: SourceFacts, file: FileIR, scope: str, answer: Value) -> list[str]:
    """The repository functions whose results the answer is: called in place, or assigned to
    the name the answer reads (`approve = await promptShellApproval(commands)`, `op ? await
    ask(op) : false`)."""
    values = [answer]
    if answer.kind is ValueKind.NAME and answer.ref:
        values = [a.value for a in file.assignments if a.scope == scope and a.target == answer.ref]
    calls = [c for v in values for c in ((v.call,) if v.call else v.results)]
    targets = (facts.graph.resolved.get(call) for call in calls)
    return [str(target) for target in targets if target is not None]


def _switch(facts: SourceFacts, file: FileIR, guards: tuple[Guard, ...]) -> str | None:
    """`ALWAYS` when no condition guards the approving return; the environment switch when a
    condition reads one, itself or through a predicate of the repository (`is_auto_mode()`);
    None when the condition is someone's answer."""
    conditions = [g.condition for g in guards if g.kind not in _NO_CONDITION and g.condition]
    if not conditions:
        return ALWAYS
    for condition in conditions:
        named = _variable(file, condition.calls) or _predicate(facts, condition.calls)
        if named:
            return named
        for read in condition.reads:
            name = _environment_name(read) or _assigned_from_environment(file, read)
            if name:
                return name
        if _reads_environment(condition.reads):     # `os.environ[name]`: no name written
            return condition.text
    return None


def _predicate(facts: SourceFacts, calls: tuple[str, ...]) -> str | None:
    """The variable a repository predicate called in the condition returns a test of
    (`def is_auto_mode(): return os.environ.get("AUTO") == "1"`)."""
    for call in calls:
        found = facts.graph.definitions.get(str(facts.graph.resolved.get(call)))
        if found is None:
            continue
        file, definition = found
        for ret in file.returns:
            if ret.scope == definition.qualname and ret.value is not None and \
                    _value_reads_environment(file, ret.value):
                inside = tuple(c.id for c in file.calls if c.scope == definition.qualname)
                return _name(file, inside, ret.value.reads) or f"{definition.name}()"
    return None


def _name(file: FileIR, calls: tuple[str, ...], reads: tuple[str, ...]) -> str | None:
    """The environment variable a value reads, written in a call or an access path."""
    named = (_environment_name(read) for read in reads)
    return _variable(file, calls) or next((n for n in named if n), None)


def _environment_name(read: str) -> str | None:
    """`SHELL_AUTO_APPROVE` of `process.env.SHELL_AUTO_APPROVE`."""
    for prefix in _ENVIRONMENT:
        if read.startswith(prefix + ".") and read != prefix + ".get":
            return read[len(prefix) + 1:]
    return None


def _variable(file: FileIR, calls: tuple[str, ...]) -> str | None:
    """The variable an environment read names (`os.getenv("OPS_UNATTENDED")`)."""
    for call in file.calls:
        if call.id in calls and (call.callee or "").startswith(_ENVIRONMENT) and call.args \
                and call.args[0].kind is ValueKind.STRING and call.args[0].literal:
            return str(call.args[0].literal)
    return None


def _assigned_from_environment(file: FileIR, read: str) -> str | None:
    """A module constant or an instance attribute assigned from the environment: the
    variable it reads when one is written, else its own name."""
    for assignment in file.assignments:
        value = assignment.value
        if assignment.target == read and _settable(assignment) and \
                _value_reads_environment(file, value):
            calls = (value.call,) if value.call else value.results
            return _name(file, calls, value.reads) or read
    return None


def _settable(assignment: Assignment) -> bool:
    return assignment.scope == MODULE_SCOPE or \
        assignment.target.startswith(("self.", "this."))


def _value_reads_environment(file: FileIR, value: Value) -> bool:
    calls = (value.call,) if value.call else value.results
    return _reads_environment(value.reads) or \
        any((c.callee or "").startswith(_ENVIRONMENT) for c in file.calls if c.id in calls)


def _reads_environment(reads: tuple[str, ...]) -> bool:
    return any(read == prefix or read.startswith(prefix + ".")
               for read in reads for prefix in _ENVIRONMENT)
