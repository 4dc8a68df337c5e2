"""Reading `topo: ignore[...]` directives out of a file's comments.

The grammar is one strict pattern (STYLE §3, in the manner of flake8's `defaults.py`): a
comment that *looks like* a directive but does not follow it exactly is reported, never
silently ignored and never loosely accepted (semgrep#6596 is what loose matching costs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from topo.analyzers.ir import Comment, FileIR
from topo.audit import codes
from topo.analyzers.model import Location
from topo.audit.model import Category

__all__ = ["Directive", "DirectiveProblem", "MIN_JUSTIFICATION", "read_directives"]

# A justification must say something ("ok" or "fp" does not).
MIN_JUSTIFICATION = 10

# Anything that starts a comment (or a `#`/`//` segment inside one) with `topo … ignore` is
# meant as a directive; only _DIRECTIVE decides whether it is a valid one.
_ATTEMPT = re.compile(r"(?:^|\#|//)[ \t]*topo[ \t]*:?[ \t]*ignore", re.IGNORECASE)

_DIRECTIVE = re.compile(r"""
    [ \t]* topo: [ \t]* ignore                  # the marker, lowercase as documented
    \[ [ \t]*
      (?P<codes> [A-Za-z][A-Za-z0-9-]*          # one finding code …
        (?: [ \t]*,[ \t]* [A-Za-z][A-Za-z0-9-]* )* )   # … or several, comma-separated
    [ \t]* \]
    (?: [ \t]+ -- [ \t]* (?P<justification> .*? ) )?  # `--`, then the justification
    [ \t]*
""", re.VERBOSE)


@dataclass(frozen=True, slots=True)
class Directive:
    """A valid directive: it suppresses `codes` on the statement it belongs to."""

    codes: tuple[str, ...]
    justification: str
    location: Location
    text: str


@dataclass(frozen=True, slots=True)
class DirectiveProblem:
    """A comment meant as a directive that suppresses nothing, and why."""

    location: Location
    text: str
    reason: str


def read_directives(file: FileIR) -> tuple[list[Directive], list[DirectiveProblem]]:
    """Every directive of one file, valid or not, in comment order."""
    valid: list[Directive] = []
    problems: list[DirectiveProblem] = []
    for comment in file.comments:
        attempt = _ATTEMPT.search(comment.text)
        if attempt is None:
            continue
        segment = comment.text[attempt.start():].lstrip("#/")
        outcome = _read(segment.strip(), comment)
        (valid if isinstance(outcome, Directive) else problems).append(outcome)
    return valid, problems


def _read(text: str, comment: Comment) -> Directive | DirectiveProblem:
    match = _DIRECTIVE.fullmatch(text)
    if match is None:
        return DirectiveProblem(comment.location, text, "does not follow the form "
                                "`topo: ignore[CODE] -- justification`")
    names = tuple(dict.fromkeys(n.strip().upper() for n in match["codes"].split(",")))
    unknown = [name for name in names if codes.by_id(name) is None]
    if unknown:
        return DirectiveProblem(comment.location, text,
                                f"names unknown code {', '.join(unknown)}")
    own = [name for name in names if codes.by_id(name).category is Category.SUPPRESSION]
    if own:
        return DirectiveProblem(comment.location, text, f"cannot suppress {', '.join(own)} "
                                "(only a baseline can)")
    justification = (match["justification"] or "").strip()
    if not justification:
        return DirectiveProblem(comment.location, text, "has no justification after `--`")
    if len(justification) < MIN_JUSTIFICATION:
        return DirectiveProblem(comment.location, text, f"has a justification shorter than "
                                f"{MIN_JUSTIFICATION} characters")
    return Directive(names, justification, comment.location, text)
