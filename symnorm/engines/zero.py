"""Exact zero test for expressions with square roots, without ``simplify``.

Each square root ``sqrt(B)`` becomes a fresh symbol ``t`` with the relation ``t**2 = B``
(innermost first, equal radicands sharing one symbol), ``abs(A)`` a symbol ``w`` with
``w**2 = A**2``, and every other non-rational function an opaque symbol keyed by its
argument.  The numerator of the resulting rational function is reduced modulo the
relations, outermost radical first; the expression is zero when every coefficient of the
reduced form vanishes.  Only true relations are used, so ``True`` is a proof (wherever the
expression is defined); ``False`` means "not shown to be zero", never "nonzero".

>>> import sympy as sp
>>> v, e = sp.symbols("v eps", positive=True)
>>> s = sp.sqrt(v + e)
>>> is_zero(1/s - s/(v + e))
True
>>> is_zero(1/s - s/(v + 2*e))
False
"""

from __future__ import annotations

import sympy as sp

__all__ = ["is_zero", "Radicals"]


class Radicals:
    """Replaces radicals and opaque functions by symbols and remembers their relations."""

    def __init__(self) -> None:
        self.sym_of: dict[sp.Expr, sp.Symbol] = {}
        self.relation: dict[sp.Symbol, sp.Expr] = {}  # t -> t**2
        self.order: list[sp.Symbol] = []  # creation order: inner radicals first
        self._n = 0
        self._memo: dict[sp.Expr, sp.Expr] = {}

    def _fresh(self, key: sp.Expr, square: sp.Expr | None, prefix: str) -> sp.Symbol:
        if key in self.sym_of:
            return self.sym_of[key]
        self._n += 1
        t = sp.Dummy(f"{prefix}{self._n}", positive=square is not None)
        self.sym_of[key] = t
        if square is not None:
            self.relation[t] = square
        self.order.append(t)
        return t

    def rewrite(self, e: sp.Expr) -> sp.Expr:
        if e in self._memo:
            return self._memo[e]
        out = self._rewrite(e)
        self._memo[e] = out
        return out

    def _rewrite(self, e: sp.Expr) -> sp.Expr:
        if e.is_Atom:
            return e
        if e.is_Pow:
            base, ex = e.args
            b = self.rewrite(base)
            if ex.is_Rational and ex.q == 2:
                key = sp.cancel(b)
                if key.is_Rational and key >= 0:
                    return sp.sqrt(key) ** ex.p
                # sqrt(c * B0) = sqrt(c) * sqrt(B0) for a positive rational content c, so
                # radicands equal up to a constant factor share one symbol
                num, den = sp.fraction(key)
                outside = sp.Integer(1)
                if sp.count_ops(key) < 400:  # pull out squares of factors known >= 0
                    num, o1 = _pull_squares(num)
                    den, o2 = _pull_squares(den)
                    outside = o1 / o2
                if den != 1 and den.is_positive:  # sqrt(n/m) = sqrt(n*m)/m for m > 0
                    num, outside, den = sp.expand(num * den), outside / den, sp.Integer(1)
                cn, pn = sp.expand(num).as_content_primitive()
                cd, pd = sp.expand(den).as_content_primitive()
                c = sp.Rational(cn) / sp.Rational(cd)
                if c < 0:
                    c, pn = -c, -pn
                t = self._fresh(("sqrt", sp.cancel(pn / pd)), sp.cancel(pn / pd), "t")
                return (outside * sp.sqrt(c) * t) ** ex.p
            if ex.is_Integer:
                return b ** ex
            x = self.rewrite(ex)
            return self._fresh(("pow", sp.cancel(b), sp.cancel(x)), None, "f")
        if isinstance(e, sp.Abs):
            a = sp.cancel(self.rewrite(e.args[0]))
            return self._fresh(("abs", a), a ** 2, "w")
        if e.is_Add or e.is_Mul:
            return e.func(*[self.rewrite(a) for a in e.args])
        if isinstance(e, sp.Function) or e.args:
            args = tuple(sp.cancel(self.rewrite(a)) for a in e.args)
            return self._fresh((e.func, args), None, "f")
        return e


def _pull_squares(p: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Write ``p = inside * outside**2`` with ``outside`` a product of factors known >= 0."""
    coeff, factors = sp.factor_list(p)
    inside, outside = coeff, sp.Integer(1)
    for f, m in factors:
        if m >= 2 and (f.is_nonnegative or f.is_positive):
            outside *= f ** (m // 2)
            inside *= f ** (m % 2)
        else:
            inside *= f ** m
    return inside, outside


def _reduce(poly: sp.Expr, rad: Radicals, syms: list[sp.Symbol]) -> bool:
    """True when ``poly`` (a polynomial in ``syms`` and others) is zero modulo the relations."""
    poly = sp.expand(poly)
    if poly == 0:
        return True
    if not syms:
        return False
    t, rest = syms[-1], syms[:-1]  # outermost radical first
    if t not in rad.relation or not poly.has(t):
        if poly.has(t):  # an opaque symbol: every coefficient must vanish
            coeffs = sp.Poly(poly, t).all_coeffs()
            return all(_reduce(c, rad, rest) for c in coeffs)
        return _reduce(poly, rad, rest)
    num, den = sp.fraction(sp.cancel(rad.relation[t]))
    p = sp.Poly(poly, t)
    top = p.degree() // 2
    even, odd = sp.S.Zero, sp.S.Zero
    for (k,), c in p.terms():
        term = c * num ** (k // 2) * den ** (top - k // 2)
        if k % 2:
            odd += term
        else:
            even += term
    return _reduce(even, rad, rest) and _reduce(odd, rad, rest)


def is_zero(expr: sp.Expr) -> bool:
    """True when ``expr`` is identically zero (a proof); False when not shown."""
    if expr == 0:
        return True
    rad = Radicals()
    r = rad.rewrite(expr)
    num, _ = sp.fraction(sp.together(r))
    # inner radicals were created first; reduce the outermost one first
    return _reduce(num, rad, list(rad.order))
