"""Declarative rule packs: which resolved names play which role in the decision topology.

A pack (`data/<system>.toml`, schema `pack.schema.json`) is data; adding a framework means
adding a pack file. The engine applies all packs to front-end IR and returns `Site`s:

    sites = classify(files)                 # the shipped packs
    sites = classify(files, load_packs([my_pack_path]))
    systems = fingerprint(file)             # {"memrail", "openai", …}
    "boto3.client" in factories()           # calls whose results name methods
"""

from topo.analyzers.packs._engine import ENGINE_ATTRS, classify, factories, fingerprint
from topo.analyzers.packs._load import load_pack, load_packs
from topo.analyzers.packs._model import Entry, Pack, PackError

__all__ = ["ENGINE_ATTRS", "Entry", "Pack", "PackError", "classify", "factories", "fingerprint",
           "load_pack", "load_packs"]
