"""A generated repository of a given size for the HTML report's scale test: `services`
packages each with two crewAI tools (a shell command, a refund) and a model-confidence refund
(the findings), padded with helper modules (each one effect no model output reaches) to
`files` Python files in all: the whole graph has thousands of nodes, the findings' paths a few
dozen."""

from __future__ import annotations

from pathlib import Path

__all__ = ["make_repo", "tool_names"]

_TOOLS = '''"""Tools the crew may call."""

import subprocess

import stripe
from crewai.tools import tool


@tool("run_command_{n}")
def run_command(command: str) -> str:
    """Run a maintenance command."""
    return subprocess.run(command, shell=True, capture_output=True).stdout.decode()


@tool("refund_order_{n}")
def refund_order(charge_id: str, amount_cents: int) -> str:
    """Refund a charge."""
    return stripe.Refund.create(charge=charge_id, amount=amount_cents).id
'''
_TRIAGE = '''import json

import stripe
from openai import OpenAI

client = OpenAI()


def assess(text: str) -> dict:
    reply = client.chat.completions.create(model="gpt-4o",
                                           messages=[{{"role": "user", "content": text}}])
    return json.loads(reply.choices[0].message.content)


def handle_{n}(text: str, charge_id: str) -> None:
    assessment = assess(text)
    if assessment["confidence"] > 0.9:
        stripe.Refund.create(charge=charge_id, amount=assessment["amount_cents"])
'''
_HELPER = '''import subprocess


def helper_{n}_{m}(value: int) -> None:
    """An effect no model output reaches: a node of the whole graph, never of a finding."""
    subprocess.run(["echo", str(value * {m} + {n})], check=True)
'''


def tool_names(services: int) -> list[str]:
    """The exposed names of the tools `make_repo` writes, sorted."""
    return sorted(f"{kind}_{n}" for n in range(services) for kind in ("run_command",
                                                                       "refund_order"))


def make_repo(root: Path, *, files: int = 2000, services: int = 12) -> Path:
    """Write the repository under `root` (which must not exist yet) and return it."""
    per_service = files // services
    written = 0
    for n in range(services):
        package = root / f"svc_{n:02d}"
        package.mkdir(parents=True)
        (package / "tools.py").write_text(_TOOLS.format(n=n), encoding="utf-8")
        (package / "triage.py").write_text(_TRIAGE.format(n=n), encoding="utf-8")
        written += 2
        count = per_service - 2 if n < services - 1 else files - written
        for m in range(count):
            (package / f"mod_{m:04d}.py").write_text(_HELPER.format(n=n, m=m), encoding="utf-8")
        written += count
    return root
