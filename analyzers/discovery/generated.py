"""Recognising generated JavaScript bundles by their content (minified build output).

A bundle is not the application's own code: it is rebuilt from sources the audit reads, and
its one-line megabytes only slow the parser down. Long lines alone do not make a bundle: a
5 KB base64 constant or a long prompt is one string literal on one line of an ordinary file.
So string literals and comments are measured as one character each, and a file is a bundle
when lines holding more than `BUNDLE_LINE` (1,000) characters of *code* hold most
(`BUNDLE_SHARE`, half) of its code. Discovery lists such files under `out_of_scope`
("generated bundles"), never under unknowns.
"""

from __future__ import annotations

import re

__all__ = ["BUNDLE_LINE", "BUNDLE_SHARE", "bundle_reason"]

BUNDLE_LINE = 1000
BUNDLE_SHARE = 0.5

# Strings, template literals and comments: each stands for one character of code. A regular
# expression literal holding a quote can throw the count off; the share rule absorbs that.
_LITERALS = re.compile(r"""'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`"""
                       r"|//[^\n]*|/\*.*?\*/", re.DOTALL)


def bundle_reason(text: str) -> str | None:
    """Why `text` looks like a minified bundle, or None for an ordinary source file."""
    if len(text) < 2 * BUNDLE_LINE:
        return None
    code = _LITERALS.sub(lambda match: "s" + "\n" * match.group().count("\n"), text)
    lengths = [len(line.strip()) for line in code.split("\n")]
    long_lines = [length for length in lengths if length > BUNDLE_LINE]
    if long_lines and sum(long_lines) > BUNDLE_SHARE * (sum(lengths) or 1):
        return (f"looks minified or bundled ({len(long_lines)} line(s) with over "
                f"{BUNDLE_LINE} characters of code outside strings, the longest "
                f"{max(long_lines)})")
    return None
