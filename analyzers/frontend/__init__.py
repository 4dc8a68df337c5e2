"""The per-file stage: every source file to its IR, in parallel and cached by content."""
