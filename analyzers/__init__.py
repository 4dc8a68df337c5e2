"""Reading source code: discovery, the language-neutral IR, front-ends and rule packs."""
