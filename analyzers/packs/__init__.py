"""Declarative rule packs: which resolved names play which role in the decision topology.

A pack (`data/<system>.toml`, schema `pack.schema.json`) is data; adding a framework means
adding a pack file. The engine applies all packs to front-end IR and returns `Site`s, and the
pack index answers what the packs say beyond sites (injected tool parameters, approval
attributes, identity and retention rules, fingerprints):

    packs = load_packs(extra=[my_pack_path])  # the shipped packs and one more
    sites = classify(files, packs)            # None: the shipped packs
    systems = fingerprint(file)               # {"memrail", "openai", …}
    "boto3.client" in factories(packs)        # calls whose results name methods
    Knowledge.of(packs).retention_rules("mubit")
"""

from topo.analyzers.packs._engine import (ENGINE_ATTRS, classify, factories, fingerprint,
                                         generic_attributes, wrappers)
from topo.analyzers.packs._knowledge import Knowledge, packs_digest
from topo.analyzers.packs._load import default_pack_files, load_pack, load_packs
from topo.analyzers.packs._verbs import words
from topo.analyzers.packs._model import (CanaryDeciderRule, Entry, IntentRules, LiveShadowRule,
                                         McpServerRule,
                                         Pack, PackError,
                                         PolicyRead, PolicyWrites, RetentionRule, RouteRule,
                                         StateGraphRules, ToolRules)

__all__ = ["ENGINE_ATTRS", "CanaryDeciderRule", "Entry", "IntentRules", "Knowledge", "LiveShadowRule", "McpServerRule",
           "Pack",
           "PackError", "PolicyRead", "PolicyWrites", "RetentionRule", "RouteRule", "StateGraphRules", "ToolRules", "classify",
           "default_pack_files", "factories", "fingerprint", "generic_attributes", "load_pack",
           "load_packs", "packs_digest", "words", "wrappers"]
