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

import os
from functools import lru_cache, reduce

import sympy as sp

__all__ = ["Radicals", "factor_list", "is_zero"]


def factor_list(e: sp.Expr) -> tuple[sp.Expr, list[tuple[sp.Expr, int]]]:
    """``sp.factor_list(e)``, through python-flint's ``fmpz_mpoly.factor`` when ``e`` is a
    polynomial with rational coefficients in plain symbols (SymPy's multivariate factoring
    took seconds on the radicands of BatchNorm claims at d = 3). Any factorization is
    correct for the callers (they use ``e == coeff * prod f**m`` only); flint's is checked
    by multiplying it out in flint. ``SYMNORM_POLYS=sympy`` or no flint: SymPy's."""
    if os.environ.get("SYMNORM_POLYS", "auto") == "sympy":
        return sp.factor_list(e)
    try:
        import flint
        get_ctx = flint.fmpz_mpoly_ctx.get  # python-flint >= 0.7
        p = sp.Poly(e)
    except (ImportError, AttributeError, sp.PolynomialError, sp.GeneratorsNeeded):
        return sp.factor_list(e)
    if p.domain not in (sp.ZZ, sp.QQ) or not all(g.is_Symbol for g in p.gens):
        return sp.factor_list(e)
    den, p = p.clear_denoms(convert=True)
    gens = p.gens
    ctx = get_ctx(tuple(f"v{i}" for i in range(len(gens))), "lex")
    poly = ctx.from_dict({k: int(c) for k, c in p.as_dict().items()})
    c, facs = poly.factor()
    if reduce(lambda a, b: a * b, (f ** m for f, m in facs), ctx.constant(c)) != poly:
        return sp.factor_list(e)  # pragma: no cover - flint's factorization is exact

    def expr(f) -> sp.Expr:
        return sp.Add(*[int(k) * sp.Mul(*[g ** n for g, n in zip(gens, mon)])
                        for mon, k in f.to_dict().items()])
    return sp.Rational(int(c), int(den)), [(expr(f), int(m)) for f, m in facs]


def _polynomial(e: sp.Expr) -> bool:
    """Whether ``e`` is a polynomial with rational coefficients in its symbols (no division
    by a symbol, no radical, no function, no constant such as ``pi``)."""
    if any(not (p.exp.is_Integer and p.exp > 0) for p in e.atoms(sp.Pow)):
        return False
    return all(a.is_Symbol or a.is_Rational for a in e.atoms()) and \
        not e.atoms(sp.Function)


@lru_cache(maxsize=1024)
def _cancel(e: sp.Expr) -> sp.Expr:
    """``sp.cancel(e)``, kept: the entries of one claim share radicands (a vector's d
    entries divide by the same ``sqrt(v + eps)``), and each entry is tested on its own.

    A polynomial is its own cancelled form: expanding it (:func:`expand_polynomial`) gives
    what ``sp.cancel`` returns for it, without ``cancel``'s search for a common
    denominator that a polynomial does not have.

    >>> x, y = sp.symbols("x y")
    >>> _cancel((x + y) ** 2 / 2) == sp.cancel((x + y) ** 2 / 2)
    True
    """
    if _polynomial(e):
        return expand_polynomial(e)
    return sp.cancel(e)


def _expand(e: sp.Expr) -> sp.Expr:
    """``sp.expand(e)``, through :func:`expand_polynomial` when ``e`` is a polynomial."""
    return expand_polynomial(e) if _polynomial(e) else sp.expand(e)


def expand_polynomial(e: sp.Expr) -> sp.Expr:
    """``sp.expand(e)`` for a polynomial with rational coefficients, multiplied out by
    python-flint's ``fmpq_mpoly`` and rebuilt term by term (SymPy's expand spent most of
    the zero test's time on the radicands of free-matrix claims); SymPy's expand without
    flint or with ``SYMNORM_POLYS=sympy``.  The rebuilt sum is SymPy's canonical one, the
    same expression ``sp.expand`` gives.

    >>> x, y = sp.symbols("x y")
    >>> expand_polynomial((x + y / 2) ** 2 - x * y)
    x**2 + y**2/4
    """
    syms = sorted(e.free_symbols, key=sp.default_sort_key)
    if not syms or os.environ.get("SYMNORM_POLYS", "auto") == "sympy":
        return sp.expand(e)
    try:
        import flint
        ctx = flint.fmpq_mpoly_ctx.get(tuple(f"v{i}" for i in range(len(syms))), "lex")
    except (ImportError, AttributeError):
        return sp.expand(e)
    gens = dict(zip(syms, ctx.gens()))
    memo: dict[sp.Expr, object] = {}

    def conv(x: sp.Expr):
        if x in memo:
            return memo[x]
        if x.is_Symbol:
            out = gens[x]
        elif x.is_Rational:
            out = ctx.constant(flint.fmpq(int(x.p), int(x.q)))
        elif x.is_Add:
            out = reduce(lambda a, b: a + b, (conv(a) for a in x.args))
        elif x.is_Mul:
            out = reduce(lambda a, b: a * b, (conv(a) for a in x.args))
        else:  # a power with a positive integer exponent (``_polynomial``)
            out = conv(x.base) ** int(x.exp)
        memo[x] = out
        return out
    terms = []
    for mon, c in conv(e).to_dict().items():
        q = flint.fmpq(c)
        terms.append(sp.Mul(sp.Rational(int(q.p), int(q.q)),
                            *[g ** n for g, n in zip(syms, mon) if n]))
    return sp.Add(*terms)


@lru_cache(maxsize=1024)
def _sqrt_parts(key: sp.Expr) -> tuple[sp.Expr, tuple[sp.Expr, ...]]:
    """``sqrt(key) = out * prod(sqrt(r) for r in radicands)`` (see :meth:`Radicals._sqrt`);
    kept, because it factors the radicand and every entry of a claim repeats it."""
    num, den = sp.fraction(key)
    outside = sp.Integer(1)
    if den != 1 and den.is_positive:  # sqrt(n/m) = sqrt(n*m)/m for m > 0
        num, outside, den = _expand(num * den), 1 / den, sp.Integer(1)
    known: list[tuple[sp.Expr, int]] = []
    rest = num
    if den == 1 and sp.count_ops(num) < 400:
        coeff, factors = factor_list(num)
        rest = coeff
        for f, m in factors:
            if f.is_nonnegative or f.is_positive:
                known.append((f, m))
            else:
                rest *= f ** m
    cn, pn = _expand(rest).as_content_primitive()
    cd, pd = _expand(den).as_content_primitive()
    c = sp.Rational(cn) / sp.Rational(cd)
    if c < 0:
        c, pn = -c, -pn
    out = outside * sp.sqrt(c)
    radicands = []
    for f, m in known:
        out *= f ** (m // 2)
        if m % 2:
            radicands.append(_expand(f))
    inner = _cancel(pn / pd)
    if inner != 1:
        radicands.append(inner)
    return out, tuple(radicands)


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

    def _sqrt(self, key: sp.Expr) -> sp.Expr:
        """sqrt(key) as (outside) * sqrt(rational) * product of radical symbols.

        Uses only sqrt(A*B) = sqrt(A)*sqrt(B) for A >= 0 known (by SymPy's assumptions) and
        sqrt(f**2) = f for f >= 0, so radicands equal up to such factors share symbols.
        """
        if key.is_Rational and key >= 0:
            return sp.sqrt(key)
        out, radicands = _sqrt_parts(key)
        for r in radicands:
            out *= self._fresh(("sqrt", r), r, "t")
        return out

    def _rewrite(self, e: sp.Expr) -> sp.Expr:
        if e.is_Atom:
            return e
        if e.is_Pow:
            base, ex = e.args
            b = self.rewrite(base)
            if ex.is_Rational and ex.q == 2:
                return self._sqrt(_cancel(b)) ** ex.p
            if ex.is_Integer:
                return b ** ex
            x = self.rewrite(ex)
            return self._fresh(("pow", _cancel(b), _cancel(x)), None, "f")
        if isinstance(e, sp.Abs):
            a = _cancel(self.rewrite(e.args[0]))
            return self._fresh(("abs", a), a ** 2, "w")
        if e.is_Add or e.is_Mul:
            return e.func(*[self.rewrite(a) for a in e.args])
        if isinstance(e, sp.Function) or e.args:
            args = tuple(_cancel(self.rewrite(a)) for a in e.args)
            return self._fresh((e.func, args), None, "f")
        return e


def _reduce(poly: sp.Expr, rad: Radicals, syms: list[sp.Symbol]) -> bool:
    """True when ``poly`` (a polynomial in ``syms`` and others) is zero modulo the relations."""
    poly = _expand(poly)
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
    num, den = sp.fraction(_cancel(rad.relation[t]))
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
    # a polynomial (no power with a negative or fractional exponent left once radicals are
    # symbols) is its own numerator: ``together`` would only rebuild it, slowly
    polynomial = all(p.exp.is_Integer and p.exp > 0 for p in r.atoms(sp.Pow))
    num = r if polynomial else sp.fraction(sp.together(r))[0]
    # inner radicals were created first; reduce the outermost one first
    return _reduce(num, rad, list(rad.order))
