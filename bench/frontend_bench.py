"""Benchmark of the per-file stage (discovery + front-ends) against a bare parse.

Python: generates a repository of realistic agent-style Python files (or takes one with
`--repo`), then times a bare `libcst.parse_module` loop, `analyze_files` in one process,
`analyze_files` on all cores without a cache, a run that fills a cache, and a run on the warm
cache. TypeScript: the same phases on a generated repository of agent-style TypeScript files (or
the `.ts/.tsx/.js` files of `--repo`), against a bare tree-sitter parse of the same files.
Prints figures; asserts nothing. Peak memory is `ru_maxrss` (a high-water mark since the start,
for this process and for its reaped children), so each figure includes every phase before it.

    python bench/frontend_bench.py [--files 2000] [--ts-files N] [--repo PATH] [--jobs N]
                                   [--seed 1] [--languages python,typescript]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import libcst

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from topo.analyzers.discovery.inventory import DiscoveryConfig, Inventory, discover  # noqa: E402
from topo.analyzers.frontend.stage import analyze_files  # noqa: E402
from topo.analyzers.ir import Language  # noqa: E402
from topo.analyzers.typescript.grammars import parse_tree  # noqa: E402

_HEADER = '''"""{domain} agent number {index}: triage, decide and act on tickets."""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from typing import Any

import stripe
from openai import OpenAI

from app.common import audit_log, notify
from .helpers_{helper} import normalize

logger = logging.getLogger(__name__)
THRESHOLD = {threshold}
MAX_REFUND_CENTS = {limit}
client = OpenAI()


@dataclass
class Ticket{index}:
    id: str
    customer_id: str
    amount_cents: int
    text: str
    tier: str = "standard"


class {domain}Agent{index}:
    """Routes one ticket through a model verdict to a handler."""

    def __init__(self, api_key: str | None = None) -> None:
        self.llm = OpenAI(api_key=api_key or os.environ.get("OPENAI_API_KEY"))
        self.handlers = {{
            "refund": self.refund,
            "escalate": self.escalate,
            "close": self.close,
        }}

    def classify(self, ticket: Ticket{index}) -> dict[str, Any]:
        prompt = f"Classify ticket {{ticket.id}} for {{ticket.customer_id}}: {{ticket.text}}"
        try:
            resp = self.llm.chat.completions.create(
                model="gpt-4o-mini",
                messages=[
                    {{"role": "system", "content": "Answer with JSON: action, confidence."}},
                    {{"role": "user", "content": prompt}},
                ],
                temperature=0,
            )
        except Exception as exc:  # the model is down: escalate
            logger.warning("classification failed: %s", exc)
            return {{"action": "escalate", "confidence": 0.0}}
        content = resp.choices[0].message.content
        return json.loads(content or "{{}}")

    def handle(self, ticket: Ticket{index}) -> Any:
        verdict = self.classify(ticket)
        if verdict.get("confidence", 0) < THRESHOLD:
            return self.escalate(ticket)
        handler = self.handlers.get(verdict["action"])
        if handler is None:
            raise ValueError(f"unknown action {{verdict['action']}}")
        return handler(ticket)

    def refund(self, ticket: Ticket{index}) -> None:
        if ticket.amount_cents > MAX_REFUND_CENTS and ticket.tier != "enterprise":
            notify("finance", f"large refund for {{ticket.id}}")
            return None
        stripe.Refund.create(
            charge=ticket.id,
            amount=ticket.amount_cents,
            metadata={{"source": "agent", "agent": "{domain}"}},
        )
        audit_log("refund", ticket.id, amount=ticket.amount_cents)

    def escalate(self, ticket: Ticket{index}) -> None:
        notify("support", normalize(ticket.text))

    def close(self, ticket: Ticket{index}) -> None:
        audit_log("close", ticket.id)
'''

_EXTRAS = [
    '''

def summarize_{name}(items: list[dict[str, Any]], limit: int = {number}) -> str:
    """Summarise at most `limit` items."""
    lines = []
    for position, item in enumerate(items[:limit]):
        if not item.get("visible", True):
            continue
        label = item.get("label") or item["id"]
        lines.append(f"{{position}}: {{label}} ({{item.get('score', 0):.2f}})")
    return "\\n".join(lines)
''',
    '''

async def fetch_{name}(session: Any, customer_id: str) -> dict[str, Any] | None:
    response = await session.get(f"/customers/{{customer_id}}", timeout={number})
    if response.status != 200:
        logger.info("lookup failed for %s", customer_id)
        return None
    payload = await response.json()
    return {{key: value for key, value in payload.items() if key in ("id", "tier", "email")}}
''',
    '''

def route_{name}(event: dict[str, Any]) -> str:
    match event.get("type"):
        case "charge.refunded":
            audit_log("refunded", event["id"])
            return "ok"
        case "charge.disputed" | "charge.failed":
            notify("finance", json.dumps(event))
            return "flagged"
        case _:
            return "ignored"
''',
    '''

class Cache{name}:
    def __init__(self) -> None:
        self._entries: dict[str, Any] = {{}}
        self.hits = 0

    def get(self, key: str) -> Any:
        value = self._entries.get(key)
        if value is not None:
            self.hits += 1
        return value

    def put(self, key: str, value: Any) -> None:
        if len(self._entries) > {number}:
            self._entries.clear()
        self._entries[key] = value
''',
    '''

def score_{name}(features: dict[str, float]) -> float:
    weights = {{"recency": 0.{number}, "amount": 0.2, "tier": 0.1}}
    total = sum(weights.get(name, 0.0) * value for name, value in features.items())
    if total > 0.9 or features.get("vip"):
        return 1.0
    return round(total, 3) if total > 0 else 0.0
''',
    '''

def retry_{name}(operation: Any, attempts: int = {number}) -> Any:
    last_error: Exception | None = None
    while attempts > 0:
        attempts -= 1
        try:
            return operation()
        except (TimeoutError, ConnectionError) as error:
            last_error = error
            logger.debug("retrying after %s", error)
        finally:
            logger.debug("attempt done")
    raise RuntimeError("gave up") from last_error
''',
]

_DOMAINS = ("Billing", "Support", "Shipping", "Refund", "Account", "Fraud", "Returns")


def generate_repository(root: Path, files: int, seed: int) -> None:
    """Write `files` modules (about 100 to 300 lines each) under `root/app/`."""
    rng = random.Random(seed)
    package = root / "app"
    (package / "agents").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "agents" / "__init__.py").write_text("")
    (package / "common.py").write_text(
        "def audit_log(*args, **kwargs):\n    pass\n\n\ndef notify(*args):\n    pass\n")
    for index in range(files):
        parts = [_HEADER.format(domain=rng.choice(_DOMAINS), index=index, helper=index % 50,
                                threshold=round(rng.uniform(0.5, 0.95), 2),
                                limit=rng.randrange(1000, 100000, 500))]
        target_lines = rng.randint(100, 300)
        counter = 0
        while sum(part.count("\n") for part in parts) < target_lines:
            counter += 1
            parts.append(rng.choice(_EXTRAS).format(name=f"{index}_{counter}",
                                                    number=rng.randint(2, 99)))
        (package / "agents" / f"agent_{index:05d}.py").write_text("".join(parts))


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed(action: Callable[[], object]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this process and its reaped workers) of `action`. CPU
    time is the steadier figure on a machine shared with other work."""
    start, cpu = time.perf_counter(), _cpu_seconds()
    action()
    return time.perf_counter() - start, _cpu_seconds() - cpu


def _parse_each(sources: list[str]) -> None:
    """The baseline: parse every file and keep nothing (the stage keeps only its IR)."""
    for source in sources:
        libcst.parse_module(source)


def _peak_mib() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def _report(label: str, timing: tuple[float, float], files: int, lines: int) -> None:
    seconds, cpu = timing
    own, children = _peak_mib()
    print(f"{label:<36} files={files} lines={lines} seconds={seconds:.2f} cpu_seconds={cpu:.2f} "
          f"lines/s={lines / seconds:.0f} peak_rss_mib(self)={own:.0f} "
          f"peak_rss_mib(children)={children:.0f}")


def run(inventory: Inventory, jobs: int | None) -> None:
    sources = [(inventory.root / source.path).read_text("utf-8") for source in inventory.sources
               if source.language.value == "python"]
    files = len(sources)
    lines = sum(source.count("\n") for source in sources)
    print(f"root={inventory.root} python_files={files} lines={lines} "
          f"cores={os.cpu_count()} jobs={jobs or os.cpu_count()}")
    bare = _timed(lambda: _parse_each(sources))
    _report("bare libcst.parse_module (1 process)", bare, files, lines)
    single = _timed(lambda: analyze_files(inventory, jobs=1, cache_dir=None))
    _report("analyze_files jobs=1, no cache", single, files, lines)
    parallel = _timed(lambda: analyze_files(inventory, jobs=jobs, cache_dir=None))
    _report("analyze_files all cores, no cache", parallel, files, lines)
    with tempfile.TemporaryDirectory(prefix="topo-bench-cache-") as cache:
        fill = _timed(lambda: analyze_files(inventory, jobs=jobs, cache_dir=Path(cache)))
        _report("analyze_files all cores, cache fill", fill, files, lines)
        warm = _timed(lambda: analyze_files(inventory, jobs=jobs, cache_dir=Path(cache)))
        _report("analyze_files all cores, warm cache", warm, files, lines)
    print(f"ratio analyze_files(jobs=1) / bare parse: wall {single[0] / bare[0]:.2f}, "
          f"cpu {single[1] / bare[1]:.2f}")
    print(f"ratio analyze_files(all cores) / bare parse: wall {parallel[0] / bare[0]:.2f}, "
          f"cpu {parallel[1] / bare[1]:.2f}")
    print(f"speed-up of a warm cache over no cache (all cores, wall): "
          f"{parallel[0] / warm[0]:.1f}x")


_TS_HEADER = """// {domain} agent number {index}: triage, decide and act on tickets.
import OpenAI from 'openai';
import Stripe from 'stripe';
import {{ AMIClient, state, tag }} from '@memrail/sdk';
import {{ z }} from 'zod';
import {{ auditLog, notify }} from '../common';
import {{ normalize }} from './helpers_{helper}';

const THRESHOLD = {threshold};
const MAX_REFUND_CENTS = {limit};
const client = new OpenAI();
const stripe = new Stripe(process.env.STRIPE_KEY ?? '');
const ami = new AMIClient();
const Action = z.enum(['refund', 'escalate', 'close']);

interface Ticket{index} {{
  id: string;
  customerId: string;
  amountCents: number;
  text: string;
  tier?: string;
}}

export class {domain}Agent{index} {{
  private llm = new OpenAI({{ apiKey: process.env.OPENAI_API_KEY }});
  private handlers: Record<string, (t: Ticket{index}) => Promise<unknown>> = {{
    refund: (t) => this.refund(t),
    escalate: (t) => this.escalate(t),
    close: (t) => this.close(t),
  }};

  async classify(ticket: Ticket{index}): Promise<{{ action: string; confidence: number }}> {{
    const prompt = `Classify ticket ${{ticket.id}} for ${{ticket.customerId}}: ${{ticket.text}}`;
    try {{
      const resp = await this.llm.chat.completions.create({{
        model: 'gpt-4o-mini',
        messages: [
          {{ role: 'system', content: 'Answer with JSON: action, confidence.' }},
          {{ role: 'user', content: prompt }},
        ],
        temperature: 0,
      }});
      return JSON.parse(resp.choices[0].message.content ?? '{{}}');
    }} catch (error) {{
      console.warn('classification failed', error);
      return {{ action: 'escalate', confidence: 0 }};
    }}
  }}

  async handle(ticket: Ticket{index}) {{
    const verdict = await this.classify(ticket);
    if (verdict.confidence < THRESHOLD) {{
      return this.escalate(ticket);
    }}
    const action = Action.parse(verdict.action);
    const decision = await ami.decide({{
      decisionPoint: 'support.{domain_lower}',
      context: [state('ticket.amount_cents', ticket.amountCents), tag('intent', action, 'ml')],
      options: {{ dry_run: false }},
    }});
    if (decision.selected.length === 0) {{
      throw new Error(`not allowed: ${{action}}`);
    }}
    const handler = this.handlers[action];
    return handler(ticket);
  }}

  async refund(ticket: Ticket{index}) {{
    if (ticket.amountCents > MAX_REFUND_CENTS && ticket.tier !== 'enterprise') {{
      notify('finance', `large refund for ${{ticket.id}}`);
      return null;
    }}
    await stripe.refunds.create({{ charge: ticket.id, amount: ticket.amountCents,
                                   metadata: {{ source: 'agent', agent: '{domain}' }} }});
    auditLog('refund', ticket.id, {{ amount: ticket.amountCents }});
  }}

  async escalate(ticket: Ticket{index}) {{
    notify('support', normalize(ticket.text));
  }}

  async close(ticket: Ticket{index}) {{
    auditLog('close', ticket.id);
  }}
}}
"""

_TS_EXTRAS = [
    """
export function summarize_{name}(items: Array<Record<string, any>>, limit = {number}): string {{
  const lines: string[] = [];
  for (const [position, item] of items.slice(0, limit).entries()) {{
    if (!(item.visible ?? true)) {{
      continue;
    }}
    const label = item.label || item.id;
    lines.push(`${{position}}: ${{label}} (${{(item.score ?? 0).toFixed(2)}})`);
  }}
  return lines.join('\\n');
}}
""",
    """
export async function fetch_{name}(customerId: string): Promise<Record<string, unknown> | null> {{
  const response = await fetch(`/customers/${{customerId}}`, {{ signal: AbortSignal.timeout({number}) }});
  if (response.status !== 200) {{
    console.info('lookup failed for', customerId);
    return null;
  }}
  const payload = await response.json();
  return Object.fromEntries(Object.entries(payload).filter(([key]) => ['id', 'tier', 'email'].includes(key)));
}}
""",
    """
export function route_{name}(event: {{ type: string; id: string }}): string {{
  switch (event.type) {{
    case 'charge.refunded':
      auditLog('refunded', event.id);
      return 'ok';
    case 'charge.disputed':
    case 'charge.failed':
      notify('finance', JSON.stringify(event));
      return 'flagged';
    default:
      return 'ignored';
  }}
}}
""",
    """
export class Cache{name} {{
  private entries = new Map<string, unknown>();
  hits = 0;

  get(key: string): unknown {{
    const value = this.entries.get(key);
    if (value !== undefined) {{
      this.hits += 1;
    }}
    return value;
  }}

  put(key: string, value: unknown): void {{
    if (this.entries.size > {number}) {{
      this.entries.clear();
    }}
    this.entries.set(key, value);
  }}
}}
""",
    """
export const score_{name} = (features: Record<string, number>): number => {{
  const weights: Record<string, number> = {{ recency: 0.{number}, amount: 0.2, tier: 0.1 }};
  const total = Object.entries(features).reduce((sum, [name, value]) => sum + (weights[name] ?? 0) * value, 0);
  if (total > 0.9 || features.vip) {{
    return 1;
  }}
  return total > 0 ? Math.round(total * 1000) / 1000 : 0;
}};
""",
    """
export async function retry_{name}<T>(operation: () => Promise<T>, attempts = {number}): Promise<T> {{
  let lastError: unknown = null;
  while (attempts > 0) {{
    attempts -= 1;
    try {{
      return await operation();
    }} catch (error) {{
      lastError = error;
      console.debug('retrying after', error);
    }} finally {{
      console.debug('attempt done');
    }}
  }}
  throw new Error(`gave up: ${{String(lastError)}}`);
}}
""",
]


def generate_ts_repository(root: Path, files: int, seed: int) -> None:
    """Write `files` TypeScript modules (about 100 to 300 lines each) under `root/web/src/`."""
    rng = random.Random(seed)
    source = root / "web" / "src"
    (source / "agents").mkdir(parents=True)
    (source / "common.ts").write_text(
        "export function auditLog(...args: unknown[]) {}\nexport function notify(...args: unknown[]) {}\n")
    for index in range(50):
        (source / "agents" / f"helpers_{index}.ts").write_text(
            "export const normalize = (text: string) => text.trim().toLowerCase();\n")
    for index in range(files):
        domain = rng.choice(_DOMAINS)
        parts = [_TS_HEADER.format(domain=domain, domain_lower=domain.lower(), index=index,
                                   helper=index % 50,
                                   threshold=round(rng.uniform(0.5, 0.95), 2),
                                   limit=rng.randrange(1000, 100000, 500))]
        target_lines = rng.randint(100, 300)
        counter = 0
        while sum(part.count("\n") for part in parts) < target_lines:
            counter += 1
            parts.append(rng.choice(_TS_EXTRAS).format(name=f"{index}_{counter}",
                                                       number=rng.randint(2, 99)))
        (source / "agents" / f"agent_{index:05d}.ts").write_text("".join(parts))


_SCRIPTS = (Language.TYPESCRIPT, Language.TSX, Language.JAVASCRIPT)


def _parse_each_script(sources: list[tuple[Language, bytes]]) -> None:
    """The baseline: a bare tree-sitter parse of every file, keeping nothing."""
    for language, data in sources:
        parse_tree(language, data)


def run_typescript(inventory: Inventory, jobs: int | None) -> None:
    """The same phases as `run`, on the TS/JS files only, against a bare tree-sitter parse."""
    scripts = tuple(source for source in inventory.sources if source.language in _SCRIPTS)
    inventory = replace(inventory, sources=scripts)
    sources = [(source.language, (inventory.root / source.path).read_bytes())
               for source in scripts]
    files = len(sources)
    lines = sum(data.count(b"\n") for _, data in sources)
    print(f"root={inventory.root} typescript_files={files} lines={lines} "
          f"cores={os.cpu_count()} jobs={jobs or os.cpu_count()}")
    if not files:
        return
    bare = _timed(lambda: _parse_each_script(sources))
    _report("bare tree-sitter parse (1 process)", bare, files, lines)
    single = _timed(lambda: analyze_files(inventory, jobs=1, cache_dir=None))
    _report("TS analyze_files jobs=1, no cache", single, files, lines)
    parallel = _timed(lambda: analyze_files(inventory, jobs=jobs, cache_dir=None))
    _report("TS analyze_files all cores, no cache", parallel, files, lines)
    with tempfile.TemporaryDirectory(prefix="topo-bench-cache-") as cache:
        fill = _timed(lambda: analyze_files(inventory, jobs=jobs, cache_dir=Path(cache)))
        _report("TS analyze_files all cores, cache fill", fill, files, lines)
        warm = _timed(lambda: analyze_files(inventory, jobs=jobs, cache_dir=Path(cache)))
        _report("TS analyze_files all cores, warm cache", warm, files, lines)
    print(f"TS ratio analyze_files(jobs=1) / bare parse: wall {single[0] / bare[0]:.2f}, "
          f"cpu {single[1] / bare[1]:.2f}")
    print(f"TS ratio analyze_files(all cores) / bare parse: wall {parallel[0] / bare[0]:.2f}, "
          f"cpu {parallel[1] / bare[1]:.2f}")
    print(f"TS speed-up of a warm cache over no cache (all cores, wall): "
          f"{parallel[0] / warm[0]:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--repo", type=Path, default=None)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ts-files", type=int, default=None,
                        help="TypeScript files to generate (default: --files)")
    parser.add_argument("--languages", default="python,typescript")
    options = parser.parse_args()
    languages = set(options.languages.split(","))
    if options.repo is not None:
        inventory = discover(options.repo, DiscoveryConfig())
        if "python" in languages:
            run(inventory, options.jobs)
        if "typescript" in languages:
            run_typescript(inventory, options.jobs)
        return
    if "python" in languages:
        with tempfile.TemporaryDirectory(prefix="topo-bench-repo-") as directory:
            root = Path(directory)
            generate_repository(root, options.files, options.seed)
            inventory = discover(root, DiscoveryConfig(use_git=False))
            run(inventory, options.jobs)
    if "typescript" in languages:
        with tempfile.TemporaryDirectory(prefix="topo-bench-ts-repo-") as directory:
            root = Path(directory)
            ts_files = options.files if options.ts_files is None else options.ts_files
            generate_ts_repository(root, ts_files, options.seed)
            run_typescript(discover(root, DiscoveryConfig(use_git=False)), options.jobs)


if __name__ == "__main__":
    main()
