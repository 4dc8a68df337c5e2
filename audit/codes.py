"""Finding codes: declared once, here, as module constants (`ALL` and `__all__` are derived
from them). `shared/spec/findings.md` is the catalog they come from.

A code enters this module when something can emit it; a meta-test checks that each one has a
documentation file in `audit/docs/codes/` and fixtures that find it and do not.
Codes are never renamed or reused: deprecate and add.
"""

from __future__ import annotations

from topo.audit.model import Category, Code, Severity

EMU_SCHEMA = Code(
    "EMU-SCHEMA", "EMU object violates the EMU schema", Severity.HIGH, Category.POLICY,
    ("external/cwe/cwe-20",))
EMU_TRIGGER_SYNTAX = Code(
    "EMU-TRIGGER-SYNTAX", "Trigger does not parse as v2 trigger DSL", Severity.HIGH,
    Category.POLICY, ("external/cwe/cwe-20",))
POLICY_GAP = Code(
    "POLICY-GAP", "Side-effecting policy without duplicate protection", Severity.MEDIUM,
    Category.POLICY, ("external/cwe/cwe-799",))
UNGUARDED_PLACEHOLDER = Code(
    "UNGUARDED-PLACEHOLDER", "Template placeholder without an EXISTS guard", Severity.MEDIUM,
    Category.POLICY, ("external/cwe/cwe-20",))
RETENTION_WINDOW = Code(
    "RETENTION-WINDOW", "Event window longer than event retention", Severity.LOW,
    Category.POLICY, ())

UNGOVERNED_PATH = Code(
    "UNGOVERNED-PATH", "Model output reaches a consequential executor ungoverned",
    Severity.CRITICAL, Category.AUTHORITY,
    ("external/cwe/cwe-862", "external/cwe/cwe-1426", "owasp-llm/LLM06"))
HIDDEN_AUTHORITY = Code(
    "HIDDEN-AUTHORITY", "A threshold or branch on model output selects a consequential action",
    Severity.CRITICAL, Category.AUTHORITY,
    ("external/cwe/cwe-863", "external/cwe/cwe-1426", "owasp-llm/LLM06"))

GHOST_EVENT = Code(
    "GHOST-EVENT", "Negated event clause whose event nothing emits", Severity.HIGH,
    Category.POLICY, ("external/cwe/cwe-863", "external/cwe/cwe-754"))
EVENT_NAME_DRIFT = Code(
    "EVENT-NAME-DRIFT", "Event clause names a near-miss of an emitted event", Severity.MEDIUM,
    Category.POLICY, ("external/cwe/cwe-697",))
EVENT_SCOPE = Code(
    "EVENT-SCOPE", "Event clause not scoped to the entity it decides about", Severity.HIGH,
    Category.POLICY, ("external/cwe/cwe-863",))
ABSENCE_PERMITS = Code(
    "ABSENCE-PERMITS", "Missing input makes a consequential trigger true", Severity.HIGH,
    Category.POLICY, ("external/cwe/cwe-636", "external/cwe/cwe-863"))
UNSATISFIABLE_TRIGGER = Code(
    "UNSATISFIABLE-TRIGGER", "Trigger can never be true", Severity.HIGH, Category.POLICY,
    ("external/cwe/cwe-561",))

INVOKE_GAP = Code(
    "INVOKE-GAP", "Decision point never invoked, or its tool reached around it", Severity.HIGH,
    Category.POLICY, ("external/cwe/cwe-862",))
ATOM_GAP = Code(
    "ATOM-GAP", "A caller does not supply a trigger dependency", Severity.HIGH, Category.POLICY,
    ("external/cwe/cwe-20",))
ACTION_GAP = Code(
    "ACTION-GAP", "The selected action has no handler", Severity.HIGH, Category.POLICY, ())
COHERENCE_GAP = Code(
    "COHERENCE-GAP", "EMU, tool and events belong to different projects", Severity.MEDIUM,
    Category.POLICY, ())
BINDING_MISMATCH = Code(
    "BINDING-MISMATCH", "Code invokes a near-miss of a bound decision point", Severity.HIGH,
    Category.POLICY, ())

UNSAFE_FALLBACK = Code(
    "UNSAFE-FALLBACK", "A failed or empty control call falls through to the effect",
    Severity.CRITICAL, Category.AUTHORITY,
    ("external/cwe/cwe-636", "external/cwe/cwe-1426", "owasp-llm/LLM06"))
EVAL_LEAK = Code(
    "EVAL-LEAK", "A dry-run selection reaches a live executor", Severity.HIGH,
    Category.AUTHORITY, ("external/cwe/cwe-863", "owasp-llm/LLM06"))
MODEL_CONSENT = Code(
    "MODEL-CONSENT", "Human consent taken from model output", Severity.HIGH,
    Category.AUTHORITY, ("external/cwe/cwe-807", "external/cwe/cwe-1426", "owasp-llm/LLM06"))
DYNAMIC_DECISION_POINT = Code(
    "DYNAMIC-DECISION-POINT", "Decision point name is not a literal", Severity.HIGH,
    Category.AUTHORITY, ("external/cwe/cwe-807",))
RECORDING_GAP = Code(
    "RECORDING-GAP", "Governed effect without an outcome record after it", Severity.MEDIUM,
    Category.AUTHORITY, ("external/cwe/cwe-778",))
UNVALIDATED_TAG = Code(
    "UNVALIDATED-TAG", "Model output sent as a tag without validation", Severity.MEDIUM,
    Category.AUTHORITY, ("external/cwe/cwe-20", "external/cwe/cwe-1426"))
ADVISORY_ONLY_POLICY = Code(
    "ADVISORY-ONLY-POLICY", "Only prompt text constrains a consequential effect",
    Severity.HIGH, Category.AUTHORITY,
    ("external/cwe/cwe-1426", "owasp-llm/LLM01", "owasp-llm/LLM06"))

GHOST_NEGATIVE = Code(
    "GHOST-NEGATIVE", "Effect permitted by a memory or database lookup that found nothing",
    Severity.HIGH, Category.AUTHORITY, ("external/cwe/cwe-863", "external/cwe/cwe-754"))
AGENT_VERDICT = Code(
    "AGENT-VERDICT", "Another model's verdict used as approval", Severity.HIGH,
    Category.AUTHORITY, ("external/cwe/cwe-863", "owasp-llm/LLM06"))
UNVERIFIED_OUTCOME = Code(
    "UNVERIFIED-OUTCOME", "Outcome recorded from the model's own grading or a constant",
    Severity.MEDIUM, Category.AUTHORITY, ("external/cwe/cwe-345", "owasp-llm/LLM09"))
SELF_MODIFYING_AUTHORITY = Code(
    "SELF-MODIFYING-AUTHORITY", "Model output written to what is later read as policy",
    Severity.HIGH, Category.AUTHORITY, ("external/cwe/cwe-1426", "owasp-llm/LLM01"))
UNTRUSTED_IDENTITY = Code(
    "UNTRUSTED-IDENTITY", "User or approver identity taken from the request or the model",
    Severity.HIGH, Category.AUTHORITY, ("external/cwe/cwe-639", "external/cwe/cwe-290"))
DESTRUCTIVE_MEMORY_TOOL = Code(
    "DESTRUCTIVE-MEMORY-TOOL", "Destructive memory operation exposed to the model without a gate",
    Severity.HIGH, Category.AUTHORITY, ("external/cwe/cwe-862", "owasp-llm/LLM06"))

SUPPRESSION_INVALID = Code(
    "SUPPRESSION-INVALID", "Suppression comment is malformed or unjustified",
    Severity.LOW, Category.SUPPRESSION, ())
SUPPRESSION_UNUSED = Code(
    "SUPPRESSION-UNUSED", "Suppression comment with no finding to suppress", Severity.LOW,
    Category.SUPPRESSION, ())

# Every code above, in declaration order (the SARIF rule order and `topo explain`'s listing).
ALL: tuple[Code, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, Code))
__all__ = ["ALL", "by_id", *(name for name, v in dict(globals()).items() if isinstance(v, Code))]

_BY_ID = {code.id: code for code in ALL}


def by_id(code_id: str) -> Code | None:
    """The code with this identifier (case-insensitive), or None."""
    return _BY_ID.get(code_id.strip().upper())
