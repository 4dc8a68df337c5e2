"""A trigger as a disjunction of conjunctions of (possibly negated) predicates.

Both the unsatisfiability proof and the witness search work branch by branch: a trigger is
satisfiable exactly when one of its conjunctions is. Expansion can blow up (each `AND` of two
`OR`s multiplies), so it stops at `limit` conjunctions and says it is incomplete; a proof needs
every branch, a search is happy with the first ones.

`NOT` is pushed down to the predicates with De Morgan's laws only. A negated predicate stays a
negated predicate: `NOT state.a.b > 1` is *not* `state.a.b <= 1`, because an absent value makes
both false.
"""

from __future__ import annotations

from dataclasses import dataclass

from topo.audit.dsl.ast import And, Expr, Not, Or

__all__ = ["Term", "NormalForm", "normal_form", "DEFAULT_LIMIT"]

DEFAULT_LIMIT = 256


@dataclass(frozen=True, slots=True)
class Term:
    """One predicate (a comparison, EXISTS, shorthand, IN, string test, event or COUNT) that
    must hold (`positive`) or must not hold."""

    predicate: Expr
    positive: bool = True


@dataclass(frozen=True, slots=True)
class NormalForm:
    """`conjunctions` in source order; `complete` is False when expansion stopped at the limit
    (then the trigger may be satisfiable through a branch that is not listed)."""

    conjunctions: tuple[tuple[Term, ...], ...]
    complete: bool


def normal_form(ast: Expr, *, limit: int = DEFAULT_LIMIT) -> NormalForm:
    """The disjunctive normal form of `ast`, with at most `limit` conjunctions.

    >>> from topo.audit.dsl import parse_trigger
    >>> nf = normal_form(parse_trigger("state.a.b EXISTS AND (tag.x EXISTS OR NOT tag.y)").ast)
    >>> [[(type(t.predicate).__name__, t.positive) for t in c] for c in nf.conjunctions]
    [[('Exists', True), ('Exists', True)], [('Exists', True), ('Truthy', False)]]
    """
    expansion = _Expansion(limit)
    branches = expansion.expand(ast, True)
    return NormalForm(tuple(_unique(branch) for branch in branches), expansion.complete)


class _Expansion:
    """One expansion: remembers whether anything was cut off at the limit."""

    def __init__(self, limit: int) -> None:
        self.limit = max(limit, 1)
        self.complete = True

    def expand(self, node: Expr, positive: bool) -> list[tuple[Term, ...]]:
        match node:
            case Not(operand=operand):
                return self.expand(operand, not positive)
            case And(left=left, right=right) if positive:
                return self.both(left, right, positive)
            case Or(left=left, right=right) if not positive:
                return self.both(left, right, positive)  # NOT (a OR b) = NOT a AND NOT b
            case And(left=left, right=right) | Or(left=left, right=right):
                return self.either(left, right, positive)
            case _:
                return [(Term(node, positive),)]

    def either(self, left: Expr, right: Expr, positive: bool) -> list[tuple[Term, ...]]:
        return self.cut(self.expand(left, positive) + self.expand(right, positive))

    def both(self, left: Expr, right: Expr, positive: bool) -> list[tuple[Term, ...]]:
        lefts, rights = self.expand(left, positive), self.expand(right, positive)
        product: list[tuple[Term, ...]] = []
        for a in lefts:
            for b in rights:
                if len(product) == self.limit:
                    self.complete = False
                    return product
                product.append(a + b)
        return product

    def cut(self, branches: list[tuple[Term, ...]]) -> list[tuple[Term, ...]]:
        if len(branches) > self.limit:
            self.complete = False
            return branches[:self.limit]
        return branches


def _unique(terms: tuple[Term, ...]) -> tuple[Term, ...]:
    return tuple(dict.fromkeys(terms))
