"""Config readers (analyzers/discovery/configs.py): dotenv, compose `environment:`, MCP client configs,
what discovery lists for them, and the retention hook that GHOST-NEGATIVE can read."""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import SimpleNamespace

from topo.analyzers.discovery.configs import ConfigFacts, is_config_file, read_configs
from topo.analyzers.discovery.inventory import DiscoveryConfig, discover
from topo.analyzers.packs import Knowledge, load_packs
from topo.audit.checks._memory import retention_settings


def _write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def _read(root: Path, files: dict[str, str]) -> tuple[ConfigFacts, tuple]:
    _write(root, files)
    knowledge = Knowledge.of(load_packs())   # the shipped packs name the settings and servers
    return read_configs(root, tuple(files), settings_kept=knowledge.settings(),
                        known_servers=knowledge.mcp_servers)


def test_dotenv_keeps_only_authority_settings_and_never_secrets(tmp_path):
    facts, unknowns = _read(tmp_path, {".env": """\
        MEMEX_API_KEY=dev-agent-key
        MEMEX_ADMIN_SECRET=s3cret
        export MEMEX_SHARED_WRITE_MODE=rw   # agents write shared/**
        MUBIT_CL_FORGET="1"
        MUBIT_CL_FORGET_MIN_AGE_SECS=604800
        MUBIT_TRANSPORT=${TRANSPORT:-grpc}
        OPENAI_API_KEY=sk-...
        """})
    assert unknowns == ()
    named = {s.name: s for s in facts.settings}
    assert set(named) == {"MEMEX_SHARED_WRITE_MODE", "MUBIT_CL_FORGET",
                          "MUBIT_CL_FORGET_MIN_AGE_SECS", "MUBIT_TRANSPORT"}
    assert named["MEMEX_SHARED_WRITE_MODE"].value == "rw"
    assert named["MEMEX_SHARED_WRITE_MODE"].location.line == 3
    assert named["MUBIT_CL_FORGET"].enabled and named["MUBIT_TRANSPORT"].value is None
    assert all("secret" not in str(s.value).lower() for s in facts.settings)


def test_a_credential_under_a_client_bundle_prefix_is_kept_by_name_never_by_value(tmp_path):
    facts, _ = _read(tmp_path, {"web/.env.local": """\
        NEXT_PUBLIC_MEMEX_ADMIN_SECRET=s3cret
        NEXT_PUBLIC_MEMEX_URL=https://memex.example.com
        NEXT_PUBLIC_OTHER_SECRET=x
        """, "docker-compose.yml": """\
        services:
          web:
            environment:
              - VITE_MEMEX_API_KEY=dev-agent-key
        """})
    named = {s.name: s for s in facts.settings}
    assert set(named) == {"NEXT_PUBLIC_MEMEX_ADMIN_SECRET", "VITE_MEMEX_API_KEY"}
    assert [s.value for s in named.values()] == [None, None]
    assert named["VITE_MEMEX_API_KEY"].location.line == 4


def test_compose_environment_map_and_list_forms(tmp_path):
    facts, _ = _read(tmp_path, {"docker-compose.prod.yml": """\
        services:
          memexai:
            environment:
              MEMEX_DREAM_ENABLED: "true"   # consolidation
              MEMEX_API_KEY: key
            labels:
              MEMEX_SHARED_WRITE_MODE: rw
          mubit:
            environment:
              - MUBIT_CL_FORGET=1
              - "MUBIT_CL_UNFORGET=0"
        """})
    assert [(s.name, s.value, s.location.line) for s in facts.settings] == [
        ("MEMEX_DREAM_ENABLED", "true", 4), ("MUBIT_CL_FORGET", "1", 10),
        ("MUBIT_CL_UNFORGET", "0", 11)]
    assert {s.source for s in facts.settings} == {"compose"}


def test_mcp_client_config_servers_and_filters(tmp_path):
    facts, unknowns = _read(tmp_path, {"claude_desktop_config.json": """\
        {
          "mcpServers": {
            "mubit": {
              "command": "npx",
              "args": ["-y", "@mubit-ai/mcp"],
              "env": {"MUBIT_API_KEY": "mbt_...", "MUBIT_ENDPOINT": "https://api.mubit.ai",
                      "MUBIT_CL_FORGET": "1"}
            },
            "notes": {"command": "npx", "args": ["@mubit-ai/mcp-docs"]},
            "memory": {"url": "http://localhost:8080/v1/mcp/sse?actor=claude&app=memex"}
          }
        }
        """})
    assert unknowns == ()
    servers = {s.name: s for s in facts.servers}
    assert servers["mubit"].known == "mubit" and not servers["mubit"].inferred
    assert servers["mubit"].location.line == 3 and servers["mubit"].exposes("mubit_forget")
    assert servers["notes"].known is None           # a look-alike package is not the server
    assert servers["memory"].known == "memexai" and servers["memory"].inferred
    [setting] = facts.settings
    assert (setting.name, setting.value, setting.source) == ("MUBIT_CL_FORGET", "1", "mcp")
    assert setting.location.line == 7


def test_json_without_mcp_servers_is_skipped_and_broken_json_is_unknown(tmp_path):
    facts, unknowns = _read(tmp_path, {
        "package.json": '{"name": "app", "dependencies": {"@mubit-ai/mcp": "0.6.0"}}',
        ".cursor/mcp.json": '{"mcpServers": {"mubit": {"command": "npx",, }}}',
    })
    assert facts.files == () and facts.servers == ()
    [unknown] = unknowns
    assert unknown.file == ".cursor/mcp.json" and "not readable as JSON" in unknown.reason


def test_discovery_lists_config_files(tmp_path):
    _write(tmp_path, {".env": "A=1\n", ".env.production": "A=1\n", "compose.yaml": "x: 1\n",
                      "deploy/docker-compose.yml": "x: 1\n", ".cursor/mcp.json": "{}\n",
                      "app/agent.py": "x = 1\n", "docs/notes.yml": "x: 1\n",
                      "node_modules/pkg/.env": "A=1\n"})
    inventory = discover(tmp_path, DiscoveryConfig(use_git=False))
    assert inventory.configs == (".cursor/mcp.json", ".env", ".env.production", "compose.yaml",
                                 "deploy/docker-compose.yml")
    assert not is_config_file("docs/notes.yml") and is_config_file("a/claude_desktop_config.json")


def _ctx(facts: ConfigFacts) -> SimpleNamespace:
    """A check context with the shipped packs' retention rules."""
    return SimpleNamespace(facts=SimpleNamespace(configs=facts,
                                                 knowledge=Knowledge.of(load_packs())))


def test_retention_settings_for_ghost_negative(tmp_path):
    facts, _ = _read(tmp_path, {".env": "MUBIT_CL_FORGET=1\nMEMEX_DREAM_ENABLED=true\n"})
    [forget] = retention_settings(_ctx(facts), "mubit")
    assert forget.name == "MUBIT_CL_FORGET" and forget.location.line == 1
    [dream] = retention_settings(_ctx(facts), "memexai")
    assert dream.name == "MEMEX_DREAM_ENABLED"
    assert retention_settings(_ctx(facts), "memorizz") == ()


def test_retention_off_or_rolled_back(tmp_path):
    off, _ = _read(tmp_path / "a", {".env": "MUBIT_CL_FORGET=0\nMEMEX_DREAM_ENABLED=false\n"})
    assert retention_settings(_ctx(off), "mubit") == ()
    assert retention_settings(_ctx(off), "memexai") == ()
    rolled, _ = _read(tmp_path / "b", {".env": "MUBIT_CL_FORGET=1\nMUBIT_CL_UNFORGET=1\n"})
    assert retention_settings(_ctx(rolled), "mubit") == ()
