"""Running Hypothesis as a search engine: find the minimal context that satisfies a condition,
or draw a bounded sample, reproducibly.

Every search is seeded from the run's seed and a *purpose* string (`witness:support.refund`), so
one EMU's results do not depend on which other EMUs are in the file or in which order they are
searched. The example database is off (results must not depend on earlier runs) and so are the
deadline (a slow `MATCHES` is reported, not a flaky failure) and Hypothesis' own output.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import TypeVar

from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable

__all__ = ["Budget", "Found", "find_minimal", "draw_sample", "DEFAULT_MAX_EXAMPLES"]

DEFAULT_MAX_EXAMPLES = 300

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard each search tries (`max_examples` generated inputs) and the run's seed."""

    max_examples: int = DEFAULT_MAX_EXAMPLES
    seed: int = 0

    def __post_init__(self) -> None:
        if self.max_examples < 1:
            raise ValueError(f"max_examples must be at least 1, not {self.max_examples}")


@dataclass(frozen=True, slots=True)
class Found:
    """The outcome of one search: the minimal value found (None when none was), and how many
    candidates were tried, shrinking included."""

    value: object | None
    tried: int


def find_minimal(strategy: st.SearchStrategy[T], condition: Callable[[T], bool],
                 budget: Budget, purpose: str) -> Found:
    """The value of `strategy` that satisfies `condition`, shrunk by Hypothesis; `value` is None
    when none turned up within the budget."""
    tried = 0

    def counted(value: T) -> bool:
        nonlocal tried
        tried += 1
        return condition(value)

    try:
        value = find(strategy, counted, settings=_settings(budget), random=_random(budget,
                                                                                   purpose))
    except (NoSuchExample, Unsatisfiable):
        return Found(None, tried)
    return Found(value, tried)


def draw_sample(strategy: st.SearchStrategy[T], budget: Budget, purpose: str) -> list[T]:
    """Up to `budget.max_examples` values of `strategy`, in the order Hypothesis produced them
    (fewer when the strategy has fewer distinct values)."""
    sample: list[T] = []

    def keep(value: T) -> bool:
        sample.append(value)
        return False

    try:
        find(strategy, keep, settings=_settings(budget), random=_random(budget, purpose))
    except (NoSuchExample, Unsatisfiable):
        pass
    return sample


def _settings(budget: Budget) -> settings:
    return settings(database=None, max_examples=budget.max_examples, deadline=None,
                    phases=(Phase.generate, Phase.shrink), verbosity=Verbosity.quiet,
                    suppress_health_check=list(HealthCheck), derandomize=False)


def _random(budget: Budget, purpose: str) -> Random:
    digest = hashlib.sha256(f"{budget.seed}\0{purpose}".encode()).digest()
    return Random(int.from_bytes(digest[:8], "big"))
