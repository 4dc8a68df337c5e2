"""Where CI systems look for a finding's file: the path inside the git work tree.

The audit document's `file` is relative to the audited root; GitHub annotations and GitLab Code
Quality resolve paths against the repository's top (`repository_path` prefixes them, as the
SARIF URIs are prefixed).
"""

from __future__ import annotations

__all__ = ["repository_file", "active_findings"]


def repository_file(document: dict, file: str) -> str:
    prefix = document.get("repository_path", "")
    return f"{prefix}/{file}" if prefix else file


def active_findings(document: dict) -> list[dict]:
    """The reported findings no directive or baseline suppresses, in report order."""
    return [finding for finding in document["findings"] if "suppressed" not in finding]
