"""The catalog of what `topo` knows about effects and the ways a model reaches them, as Markdown
tables: executor entries, the heuristics (judgements) that keep or drop them, the tool
registration forms that make a function model-invoked, and the intent rules that make a
write-named tool an executor by intent.

A reviewer reads the packs here instead of in TOML: each executor row names the family (the
site's system), the consequence tier, the languages, how a call is recognised (exact names, or
a verb rule under a client root), the conditions and judgements that apply, and the entry id
findings carry. The same text is `topo explain --sinks` and `docs/sinks.md` (a test keeps the
page up to date).
"""

from __future__ import annotations

from collections.abc import Iterable

from topo.analyzers.model import SiteKind
from topo.analyzers.packs import Entry, Pack
from topo.analyzers.packs._model import Condition, Source, Trigger

__all__ = ["sink_catalog"]

_LANGUAGES = {"python": "py", "typescript": "ts", "tsx": "tsx", "javascript": "js"}
_EXECUTORS_INTRO = (
    "Calls `topo` treats as real-world effects (executor sites), generated from the rule "
    "packs (`analyzers/packs/data/*.toml`) by `topo explain --sinks`. A *verb* rule keeps "
    "a call under the client root only when the method's first word (split at `_` and "
    "camelCase) is in the named verb set, or the method is one of the listed extras; any "
    "other method of that client (reads, unknown verbs) gives no site. An *exact* rule "
    "lists the names. Where both match a call, the exact row wins. A *by tool name* "
    "tier is the called tool's: that of the `[tools.intent]` write verb its name begins "
    "with (`transfer_funds` is money); a name whose first word is in the read set gives "
    "no site, any other name keeps the listed tier, inferred. *unless* names the "
    "judgements (below) that drop a site, *if judged* those of which one must hold.")


def sink_catalog(packs: Iterable[Pack]) -> str:
    """Executors by tier then family, the verb sets, the judgements, the registration forms
    and the intent rules of `packs`."""
    packs = tuple(packs)
    entries = [entry for pack in packs for entry in pack.entries]
    executors = sorted((e for e in entries if e.site is SiteKind.EXECUTOR),
                       key=lambda e: (e.tier.value if e.tier else "", e.system, e.id))
    lines = ["# Executor catalog", "", _EXECUTORS_INTRO, "",
             "| tier | family | lang | rule | matches | extra methods / condition | entry |",
             "|---|---|---|---|---|---|---|"]
    lines += [_row(entry) for entry in executors]
    lines += ["", "## Verb sets", "", "| set | verbs |", "|---|---|"]
    lines += [f"| `{name}` | {', '.join(sorted(verbs))} |"
              for pack in sorted(packs, key=lambda p: p.system) for name, verbs in pack.verbs]
    lines += _judgements(packs)
    lines += _registrations(e for e in entries if e.site is SiteKind.TOOL_REGISTRATION)
    lines += _intent(packs)
    return "\n".join(lines) + "\n"


def _row(entry: Entry) -> str:
    tier = entry.tier.value if entry.tier else "-"
    if entry.tier_by_name is not None:
        tier = f"by tool name (`{entry.tier_by_name.attr}`), else {tier}"
    rule = f"verb `{entry.verbs}`" if entry.verbs else "exact"
    if entry.inferred:
        rule += " (inferred)"
    extra = ", ".join(f"`{method}`" for method in entry.exact_methods)
    conditions = "; ".join(_condition(c) for c in entry.when)
    judged = "; ".join(part for part in (
        _names("unless", entry.unless), _names("if judged", entry.if_judged)) if part)
    detail = "; ".join(part for part in (extra, conditions, judged) if part) or "-"
    return (f"| {tier} | {entry.system} | {_languages(entry)} | {rule} | {_matches(entry)} | "
            f"{_cell(detail)} | `{entry.id}` |")


def _condition(condition: Condition) -> str:
    if condition.present:
        return f"{condition.attr} present"
    if condition.one_of:
        text = f"{condition.attr} in {', '.join(map(str, condition.one_of))}"
    elif condition.mentions:
        text = f"{condition.attr} mentions {', '.join(condition.mentions)}"
    elif condition.starts:
        text = f"{condition.attr} starts with {', '.join(condition.starts)}"
    elif condition.has_all or condition.has_any:
        words = condition.has_all or condition.has_any
        text = f"{condition.attr} has {'all' if condition.has_all else 'any'} of " \
               f"{', '.join(words)}"
    else:
        text = f"{condition.attr} = {condition.value}"
    return text + (" (or not literal)" if condition.or_unknown else "")


def _names(label: str, judgements: tuple) -> str:
    return f"{label} {', '.join(j.name for j in judgements)}" if judgements else ""


def _judgements(packs: tuple[Pack, ...]) -> list[str]:
    rows = [(pack.system, judgement) for pack in packs for judgement in pack.judgements]
    if not rows:
        return []
    lines = ["", "## Judgements", "",
             "Heuristics over a site's attributes (each holds when all its conditions do); the "
             "executor rows above name the ones they apply.", "",
             "| pack | judgement | holds when | why |", "|---|---|---|---|"]
    lines += [f"| {system} | `{judgement.name}` | "
              f"{_cell('; '.join(_condition(c) for c in judgement.conditions))} | "
              f"{_cell(judgement.description)} |"
              for system, judgement in sorted(rows, key=lambda r: (r[0], r[1].name))]
    return lines


def _registrations(entries: Iterable[Entry]) -> list[str]:
    rows = sorted(entries, key=lambda e: (e.system, e.id))
    if not rows:
        return []
    lines = ["", "## Tool registrations", "",
             "How a function becomes model-invoked: the model fills in its arguments and decides "
             "when it runs, so every executor it reaches is on a model-influenced path. *form* "
             "is what the entry matches (a decorator, a call, a class base); *runs* is what the "
             "model's call executes (the decorated or registered function, the listed methods "
             "of the class or of the object handed over, or each tool written inline); *name* "
             "is where the tool's exposed name comes from.", "",
             "| framework | lang | form | matches | runs | name | entry |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| {e.system} | {_languages(e)} | {e.on.value} | {_matches(e)} | "
              f"{_cell(_runs(e))} | {_cell(_tool_name(e))} | `{e.id}` |" for e in rows]
    return lines


def _runs(entry: Entry) -> str:
    if entry.methods:
        return "methods " + ", ".join(f"`{m}`" for m in entry.methods)
    if entry.inline is not None:
        return "each tool written inline"
    if any(spec.name == "definition" for spec in entry.attrs):
        return "the registered function"
    return {Trigger.DECORATOR: "the decorated definition",
            Trigger.CLASS_BASE: "the class"}.get(entry.on, "what the call registers")


def _tool_name(entry: Entry) -> str:
    spec = next((s for s in entry.attrs if s.name == "tool_name"), None)
    if spec is None:
        return "-"
    parts = [f"`{spec.constant}`"] if spec.source is None and spec.constant is not None else []
    if spec.source is not None and not spec.source.is_call_itself:
        parts.append(_source(spec.source))
    if spec.fallback_to_definition_name:
        parts.append("the class's name" if entry.on is Trigger.CLASS_BASE
                     else "the function's name")
    if spec.fallback_to_placed_key:
        parts.append("the key it is placed under")
    return ", else ".join(parts) or "-"


def _source(source: Source) -> str:
    """Where an argument is read, as a reviewer would say it: `name=`, argument 1, key `name`."""
    places = [f"`{k}=`" for k in source.kwarg]
    if source.arg is not None:
        places.append("the last argument" if source.arg == -1 else f"argument {source.arg + 1}")
    places += [f"key `{k}`" for k in source.object_key]
    if source.class_attr is not None:
        places.append(f"class attribute `{source.class_attr}`")
    where = " or ".join(places) or "the call"
    return where + "".join(f", key `{step}`" for step in source.path)


def _intent(packs: tuple[Pack, ...]) -> list[str]:
    rules = [pack.tools.intent for pack in packs if pack.tools.intent]
    if not rules:
        return []
    by_tier: dict[str, set[str]] = {}
    for rule in rules:
        for verb, tier in rule.verbs:
            by_tier.setdefault(tier, set()).add(verb)
    lines = ["", "## Intent executors", "",
             "A model-callable tool with no recognised effect is an executor (inferred, "
             "`stub_or_in_memory`) when its exposed name begins with one of these verbs and its "
             "body writes state, returns a confirmation or is a stub; it is ranked "
             f"{max(r.tier_drop for r in rules)} consequence level(s) below its verb's tier. "
             "Names beginning with "
             + (", ".join(f"`{n}`" for r in rules for n in r.excluded_names) or "nothing")
             + " are never intent executors.", "",
             "| tier | verbs |", "|---|---|"]
    lines += [f"| {tier} | {', '.join(sorted(verbs))} |" for tier, verbs in sorted(by_tier.items())]
    return lines


def _languages(entry: Entry) -> str:
    return ", ".join(sorted(_LANGUAGES[name] for name in entry.languages))


def _matches(entry: Entry) -> str:
    return "<br>".join(f"`{_cell(pattern)}`" for pattern in entry.match)


def _cell(text: str) -> str:
    """Pipes would end a Markdown cell; newlines would end the row."""
    return " ".join(text.replace("|", "\\|").split())
