"""Sparse multivariate polynomials over QQ: python-flint's ``fmpq_mpoly`` or SymPy's rings.

The explicit engine needs a handful of operations (arithmetic, monomial content, exact
division, gcd cancellation, substituting the last generator).  python-flint (the ``fast``
extra) does them in C; SymPy's sparse rings are the pure-Python fallback.  ``backend()``
picks flint when it imports, unless ``SYMNORM_POLYS=sympy``.

>>> B = backend(["a", "W"], "sympy")
>>> a, W = B.gens
>>> B.compose_last(a * W + 1, a * a)
a**3 + 1
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from typing import Any

import sympy
from sympy.polys.domains import QQ
from sympy.polys.rings import ring

__all__ = ["FlintPolys", "SympyPolys", "backend"]


class SympyPolys:
    """SymPy's ``PolyElement`` over QQ (pure Python)."""

    name = "sympy"

    def __init__(self, names: Sequence[str]) -> None:
        self.ring, *self.gens = ring(",".join(names), QQ)
        self.one, self.zero = self.ring.one, self.ring.zero
        self.symbols = list(self.ring.symbols)

    def const(self, q: Any) -> Any:
        return self.ring(QQ.convert(q))

    def scalar(self, q: Any) -> Any:
        return QQ.convert(q)

    def scale(self, p: Any, q: Any) -> Any:
        return p.mul_ground(QQ.convert(q))

    def lc(self, p: Any) -> Any:
        return p.LC

    def is_const(self, p: Any) -> bool:
        return p.is_ground

    def monomial_content(self, p: Any) -> Any:
        """The largest monomial dividing every term (coefficient 1)."""
        common: list[int] | None = None
        for m in p.itermonoms():
            common = list(m) if common is None else [min(x, y) for x, y in zip(common, m)]
            if not any(common):
                break
        return self.ring({tuple(common or [0] * len(self.gens)): QQ.one})

    def exquo(self, p: Any, q: Any) -> Any:
        return p.exquo(q)

    def cancel(self, p: Any, q: Any) -> tuple[Any, Any]:
        return p.cancel(q)

    def lcm(self, p: Any, q: Any) -> Any:
        return p.lcm(q)

    def degree_last(self, p: Any) -> int:
        return max((m[-1] for m in p.itermonoms()), default=0)

    def compose_last(self, p: Any, w: Any) -> Any:
        """``p`` with its last generator replaced by ``w`` (Horner over that generator)."""
        by_power: dict[int, dict] = {}
        for monom, coeff in p.items():
            by_power.setdefault(monom[-1], {})[monom[:-1] + (0,)] = coeff
        if not by_power:
            return self.zero
        powers = sorted(by_power, reverse=True)
        out = self.ring.from_dict(by_power[powers[0]])
        for prev, k in itertools.pairwise(powers):
            out = out * w ** (prev - k) + self.ring.from_dict(by_power[k])
        return out * w ** powers[-1]

    def to_expr(self, p: Any) -> sympy.Expr:
        return p.as_expr()


class FlintPolys:
    """python-flint's ``fmpq_mpoly`` (C, lex order)."""

    name = "flint"

    def __init__(self, names: Sequence[str]) -> None:
        import flint
        self.flint = flint
        self.ctx = flint.fmpq_mpoly_ctx.get(tuple(names), "lex")
        self.gens = list(self.ctx.gens())
        self.one = self.ctx.constant(1)
        self.zero = self.ctx.constant(0)
        self.symbols = [sympy.Symbol(n) for n in names]

    def scalar(self, q: Any) -> Any:
        if isinstance(q, self.flint.fmpq):
            return q
        if isinstance(q, int):
            return self.flint.fmpq(q)
        r = QQ.to_sympy(QQ.convert(q))
        return self.flint.fmpq(int(r.p), int(r.q))

    def const(self, q: Any) -> Any:
        return self.ctx.constant(self.scalar(q))

    def scale(self, p: Any, q: Any) -> Any:
        return p * self.scalar(q)

    def lc(self, p: Any) -> Any:
        return p.leading_coefficient()

    def is_const(self, p: Any) -> bool:
        return p.is_constant()

    def monomial_content(self, p: Any) -> Any:
        return p.term_content()

    def exquo(self, p: Any, q: Any) -> Any:
        return p / q

    def cancel(self, p: Any, q: Any) -> tuple[Any, Any]:
        g = p.gcd(q)
        return (p / g, q / g) if not g.is_one() else (p, q)

    def lcm(self, p: Any, q: Any) -> Any:
        return p * q / p.gcd(q)

    def degree_last(self, p: Any) -> int:
        return max(p.degrees()[-1], 0) if p else 0

    def compose_last(self, p: Any, w: Any) -> Any:
        return p.compose(*self.gens[:-1], w)

    def to_expr(self, p: Any) -> sympy.Expr:
        terms = []
        for monom, coeff in p.terms():
            term = sympy.Rational(int(coeff.p), int(coeff.q))
            for sym, k in zip(self.symbols, monom):
                if k:
                    term *= sym ** k
            terms.append(term)
        return sympy.Add(*terms)


def backend(names: Sequence[str], which: str | None = None) -> SympyPolys | FlintPolys:
    """Polynomials in ``names``: flint when available (or ``which``/``SYMNORM_POLYS``)."""
    which = which or os.environ.get("SYMNORM_POLYS", "auto")
    if which in ("auto", "flint"):
        try:
            return FlintPolys(names)
        except ImportError:
            if which == "flint":
                raise
    return SympyPolys(names)
