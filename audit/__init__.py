"""topo: static audit of the decision topology of AI-agent applications."""

__version__ = "0.1.0"
