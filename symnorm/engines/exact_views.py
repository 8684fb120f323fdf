"""SymPy views of the explicit engine's exact objects (P, c, v, s, N, J, the eigen-decomposition).

The engine computes in ``F(s)``; these methods turn its elements into ordinary SymPy
expressions for printing.  With a concrete point ``s`` becomes ``sqrt(W)`` with ``W`` rational;
with symbolic ``x`` the expressions use the centered coordinates ``c1..cd`` and the symbol
``s`` (``r`` for eps outside the root), and :meth:`ExactViews.definitions` says what they mean.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sympy
from sympy.polys.domains import QQ

if TYPE_CHECKING:  # pragma: no cover
    from .exact import EigenSpace

__all__ = ["ExactViews"]


class ExactViews:
    """Mixin of :class:`~symnorm.engines.exact.ExactEngine`: conversions to SymPy."""

    d: int
    n: int
    eps: sympy.Rational
    center: bool
    inside: bool
    symbolic: bool
    x: tuple[Any, ...]

    @property
    def s_symbol(self) -> sympy.Symbol:
        """The symbol used for the square root in symbolic expressions."""
        return sympy.Symbol("s" if self.inside else "r", positive=True)

    def _base_to_sympy(self, e: Any) -> sympy.Expr:
        if not self.symbolic:
            return QQ.to_sympy(e)
        expr = sympy.cancel(e.as_expr())
        W = sympy.Symbol("W")
        return expr.subs(W, self.s_symbol ** 2) if expr.has(W) else expr

    def to_sympy(self, e: Any) -> sympy.Expr:
        """An exact ``a + b*s`` as a SymPy expression (``s = sqrt(W)`` for a concrete point)."""
        a = self._base_to_sympy(e.a)
        b = self._base_to_sympy(e.b)
        root = sympy.sqrt(QQ.to_sympy(self._st.W)) if not self.symbolic else self.s_symbol
        return a + b * root

    def surd_str(self, e: Any) -> str:
        """Fast text of an exact entry at a concrete point: ``a + b*sqrt(m)``, m squarefree."""
        if self.symbolic:
            return str(self.to_sympy(e))
        if getattr(self, "_root", None) is None:
            coeff, rest = sympy.sqrt(QQ.to_sympy(self._st.W)).as_coeff_Mul()
            self._root = (QQ.convert(coeff), "" if rest == 1 else f"*{rest}")
        k, tail = self._root
        a, b = e.a, e.b * k
        if not tail:
            return str(a + b)
        if not b:
            return str(a)
        return (f"{a} + " if a else "") + f"{b}{tail}"

    @property
    def P(self) -> sympy.Matrix:
        """The centering projector ``I - 1 1^T/d`` (the identity for RMSNorm)."""
        d = self.d
        if not self.center:
            return sympy.eye(d)
        return sympy.eye(d) - sympy.ones(d, d) / d

    @property
    def c(self) -> sympy.Matrix:
        """The centered vector ``P x`` (``x`` itself for RMSNorm), in terms of x."""
        return self.P * sympy.Matrix(self.x)

    @property
    def v(self) -> sympy.Expr:
        """The variance ``c^T c / n`` (n = d, or d - 1 for the unbiased denominator)."""
        c = self.c
        return sympy.expand((c.T * c)[0, 0] / self.n) if not self.symbolic else \
            sympy.Add(*[ck ** 2 for ck in c]) / self.n

    @property
    def s(self) -> sympy.Expr:
        """``sqrt(v + eps)`` (or ``sqrt(v)`` when eps sits outside the root)."""
        return sympy.sqrt(self.v + self.eps) if self.inside else sympy.sqrt(self.v)

    @property
    def N(self) -> sympy.Matrix:
        """The normalized vector ``N(x)`` (exact)."""
        return sympy.Matrix([self.to_sympy(Nk.val) for Nk in self._N])

    def jacobian(self) -> sympy.Matrix:
        """J obtained by differentiation, as an exact SymPy matrix."""
        return sympy.Matrix([[self.to_sympy(e) for e in row] for row in self.jacobian_surd])

    def jacobian_closed(self) -> sympy.Matrix:
        """The closed form ``P/s - c c^T/(n s^3)`` as an exact SymPy matrix."""
        return sympy.Matrix([[self.to_sympy(e) for e in row] for row in self.closed_form()])

    def definitions(self) -> dict[sympy.Symbol, sympy.Expr]:
        """What the symbols of symbolic expressions stand for (empty at a concrete point)."""
        if not self.symbolic:
            return {}
        out: dict[sympy.Symbol, sympy.Expr] = {}
        if self.center:
            for k, ck in enumerate(self.c, start=1):
                out[sympy.Symbol(f"c{k}")] = ck
        out[self.s_symbol] = self.s
        return out

    def eigen(self) -> list[EigenSpace]:
        """Eigenvalues of J with exact eigenvectors: 0 on 1, eps/s^3 on c, 1/s on the rest."""
        from .exact import EigenSpace
        lam_c, lam_u = self.lambdas()
        to = self.to_sympy
        d = self.d
        cvec = sympy.Matrix([self._base_to_sympy(ck) for ck in self._st.cvals])
        basis = [sympy.Matrix([self._base_to_sympy(e) for e in u])
                 for u in self.complement_basis()]
        out = []
        if self.center:
            out.append(EigenSpace(sympy.Integer(0), (sympy.ones(d, 1),),
                                  "the mean direction 1 (removed by centering)"))
        degenerate = not self.symbolic and not any(self._st.cvals)
        radial = "c = P x (the radial direction)" if self.center else "x (the radial direction)"
        if not degenerate:
            out.append(EigenSpace(to(lam_c), (cvec,), radial))
        rest = "the complement of span{1, c}" if self.center else "the complement of x"
        if degenerate:
            rest += " (c = 0 here, so it is all of " + ("1-perp)" if self.center else "R^d)")
        if basis:  # empty at d = 2 (centered): 1 and c already span R^2
            out.append(EigenSpace(to(lam_u), tuple(basis), rest))
        return out
