"""Renderers of an audit: JSON, TOPOLOGY_STATE.yaml, HTML, Markdown, SARIF."""
