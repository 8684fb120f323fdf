"""Fractions ``p / q`` of sparse polynomials with cheap cancellation of monomial denominators.

The explicit engine's symbolic quantities have denominators that are powers of the symbol
``W``, and also powers of ``W - eps**2`` when eps sits outside the root.  A general fraction
field runs a polynomial gcd after every operation, and that gcd is most of the cost.  Here a
monomial denominator is cancelled by monomial content alone, and only the other denominators
(eps outside the root) are cancelled with a gcd.  The polynomials come from
:mod:`symnorm.engines.polys` (python-flint when installed, SymPy otherwise).

>>> K = WField(["c1", "W"], "sympy")
>>> c1, W = K.gens
>>> e = c1 / W + c1 / (W * W)
>>> e.numer, e.denom
(c1*W + c1, W**2)
>>> (e * W * W).denom
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .polys import backend

__all__ = ["WField", "WFrac"]


class WField:
    """The quotient field of ``QQ[names]`` with lazily cancelled denominators."""

    def __init__(self, names: Sequence[str], which: str | None = None) -> None:
        self.B = backend(names, which)
        one = self.B.one
        self.gens = [WFrac(self, g, one) for g in self.B.gens]
        self.zero = WFrac(self, self.B.zero, one)
        self.one = WFrac(self, one, one)
        self.field_new = True  # marks a field that is called, not .convert-ed

    def __call__(self, value: Any) -> WFrac:
        if isinstance(value, WFrac):
            return value
        return WFrac(self, self.B.const(value), self.B.one)

    def new(self, numer: Any, denom: Any) -> WFrac:
        """``numer / denom`` (monomial factors cancelled)."""
        return WFrac(self, numer, denom)._cancel()


class WFrac:
    """``numer / denom`` with a monic denominator."""

    __slots__ = ("denom", "field", "numer")

    def __init__(self, field: WField, numer: Any, denom: Any) -> None:
        self.field, self.numer, self.denom = field, numer, denom

    def _cancel(self) -> WFrac:
        B, num, den = self.field.B, self.numer, self.denom
        if not num:
            return self.field.zero
        if len(den) == 1:
            lc = B.lc(den)
            if lc != 1:
                num, den = B.scale(num, 1 / lc), B.scale(den, 1 / lc)
            if not B.is_const(den):
                g = B.monomial_content(B.monomial_content(num) + den)  # gcd of monomials
                if not B.is_const(g):
                    num, den = B.exquo(num, g), B.exquo(den, g)
            return WFrac(self.field, num, den)
        num, den = B.cancel(num, den)  # rare (eps outside the root): a full gcd
        lc = B.lc(den)
        if lc != 1:
            num, den = B.scale(num, 1 / lc), B.scale(den, 1 / lc)
        return WFrac(self.field, num, den)

    def _lift(self, other: Any) -> WFrac:
        return other if isinstance(other, WFrac) else self.field(other)

    def __bool__(self) -> bool:
        return bool(self.numer)

    def __neg__(self) -> WFrac:
        return WFrac(self.field, -self.numer, self.denom)

    def __add__(self, other: Any) -> WFrac:
        o = self._lift(other)
        if not o.numer:
            return self
        if not self.numer:
            return o
        B = self.field.B
        d1, d2 = self.denom, o.denom
        if d1 == d2:
            return WFrac(self.field, self.numer + o.numer, d1)._cancel()
        if len(d1) == 1 and len(d2) == 1:
            g = B.monomial_content(d1 + d2)
            lcm = B.exquo(d1 * d2, g)
            num = self.numer * B.exquo(lcm, d1) + o.numer * B.exquo(lcm, d2)
            return WFrac(self.field, num, lcm)._cancel()
        return WFrac(self.field, self.numer * d2 + o.numer * d1, d1 * d2)._cancel()

    __radd__ = __add__

    def __sub__(self, other: Any) -> WFrac:
        return self + (-self._lift(other))

    def __rsub__(self, other: Any) -> WFrac:
        return self._lift(other) + (-self)

    def __mul__(self, other: Any) -> WFrac:
        if not isinstance(other, WFrac):
            return WFrac(self.field, self.field.B.scale(self.numer, other), self.denom)
        if not self.numer or not other.numer:
            return self.field.zero
        return WFrac(self.field, self.numer * other.numer, self.denom * other.denom)._cancel()

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> WFrac:
        if not isinstance(other, WFrac):
            return self * (1 / self.field.B.scalar(other))
        if not other.numer:
            raise ZeroDivisionError("division by a zero fraction")
        return WFrac(self.field, self.numer * other.denom, self.denom * other.numer)._cancel()

    def __rtruediv__(self, other: Any) -> WFrac:
        return self._lift(other) / self

    def __eq__(self, other: object) -> bool:
        return not (self - self._lift(other)).numer

    __hash__ = None  # type: ignore[assignment]

    def as_expr(self) -> Any:
        """A SymPy expression (numerator over denominator)."""
        B = self.field.B
        return B.to_expr(self.numer) / B.to_expr(self.denom)

    def __repr__(self) -> str:
        return f"({self.numer})/({self.denom})"
