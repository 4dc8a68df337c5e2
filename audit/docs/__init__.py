"""Per-code documentation, shipped as package data (`codes/<CODE>.md`).

One file feeds `topo explain`, SARIF `help.markdown` and the HTML report.
"""

from __future__ import annotations

from importlib import resources

__all__ = ["code_doc", "REQUIRED_HEADINGS"]

REQUIRED_HEADINGS = ("## What it finds", "## Why it matters", "## Example", "## Use instead",
                     "## How to fix", "## Limits", "## Options", "## References")


def code_doc(code_id: str) -> str:
    """The Markdown documentation of a finding code; FileNotFoundError if it has none."""
    return resources.files("topo.audit.docs").joinpath("codes", f"{code_id}.md").read_text("utf-8")
