"""Shared test fixtures: where the repository, the corpus and shared/ are."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "corpus"
SHARED = REPO.parent / "shared"


@pytest.fixture()
def corpus() -> Path:
    return CORPUS
