"""The executor catalog as a Markdown table: what `topo` treats as a real-world effect.

A reviewer reads the packs' executor entries here instead of in TOML: each row names the
family (the site's system), the consequence tier, the languages, how a call is recognised
(exact names, or a verb rule under a client root) and the entry id findings carry. The same
text is `topo explain --sinks` and `docs/sinks.md` (a test keeps the page up to date).
"""

from __future__ import annotations

from collections.abc import Iterable

from topo.analyzers.model import SiteKind
from topo.analyzers.packs import Entry, Pack

__all__ = ["sink_catalog"]

_LANGUAGES = {"python": "py", "typescript": "ts", "tsx": "tsx", "javascript": "js"}


def sink_catalog(packs: Iterable[Pack]) -> str:
    """The executor entries of `packs`, grouped by tier then family, and the verb sets."""
    packs = tuple(packs)
    entries = sorted((entry for pack in packs for entry in pack.entries
                      if entry.site is SiteKind.EXECUTOR),
                     key=lambda e: (e.tier.value if e.tier else "", e.system, e.id))
    lines = [
        "# Executor catalog",
        "",
        "Calls `topo` treats as real-world effects (executor sites), generated from the rule "
        "packs (`analyzers/packs/data/*.toml`) by `topo explain --sinks`. A *verb* rule keeps "
        "a call under the client root only when the method's first word (split at `_` and "
        "camelCase) is in the named verb set, or the method is one of the listed extras; any "
        "other method of that client (reads, unknown verbs) gives no site. An *exact* rule "
        "lists the names. Where both match a call, the exact row wins. A *by tool name* "
        "tier is the called tool's: that of the `[tools.intent]` write verb its name begins "
        "with (`transfer_funds` is money); a name whose first word is in the read set gives "
        "no site, any other name keeps the listed tier, inferred.",
        "",
        "| tier | family | lang | rule | matches | extra methods / condition | entry |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += [_row(entry) for entry in entries]
    lines += ["", "## Verb sets", "", "| set | verbs |", "|---|---|"]
    lines += [f"| `{name}` | {', '.join(sorted(verbs))} |"
              for pack in sorted(packs, key=lambda p: p.system) for name, verbs in pack.verbs]
    return "\n".join(lines) + "\n"


def _row(entry: Entry) -> str:
    tier = entry.tier.value if entry.tier else "-"
    languages = ", ".join(sorted(_LANGUAGES[name] for name in entry.languages))
    rule = f"verb `{entry.verbs}`" if entry.verbs else "exact"
    if entry.tier_by_name is not None:
        tier = f"by tool name (`{entry.tier_by_name.attr}`), else {tier}"
    if entry.inferred:
        rule += " (inferred)"
    matches = "<br>".join(f"`{_cell(pattern)}`" for pattern in entry.match)
    extra = ", ".join(f"`{method}`" for method in entry.exact_methods)
    conditions = "; ".join(
        f"{c.attr} present" if c.present else
        f"{c.attr} in {', '.join(map(str, c.one_of))}" if c.one_of else f"{c.attr} = {c.value}"
        for c in entry.when)
    detail = "; ".join(part for part in (extra, conditions) if part) or "-"
    return (f"| {tier} | {entry.system} | {languages} | {rule} | {matches} | {_cell(detail)} "
            f"| `{entry.id}` |")


def _cell(text: str) -> str:
    """Pipes would end a Markdown cell."""
    return text.replace("|", "\\|")
