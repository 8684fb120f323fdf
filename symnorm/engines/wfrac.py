"""Fractions ``p / q`` of sparse polynomials that cancel only monomial denominators (no gcd).

The explicit engine's symbolic quantities have denominators that are powers of the symbol
``W`` (and, with eps outside the root, of ``W - eps**2``).  SymPy's fraction field runs a
polynomial gcd after every operation; that gcd is most of the cost, and only the zero test
needs it, which the engine does on numerators anyway.  Here sums over equal or monomial
denominators stay small by monomial arithmetic, and nothing else is cancelled.

>>> from sympy.polys.domains import QQ
>>> K = WField(["c1", "W"], QQ)
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

from sympy.polys.rings import PolyElement, ring

__all__ = ["WField", "WFrac"]


class WField:
    """The quotient field of ``QQ[gens]`` with lazily cancelled denominators."""

    def __init__(self, names: Sequence[str], domain: Any) -> None:
        self.ring, *polys = ring(",".join(names), domain)
        self.domain = domain
        self.gens = [WFrac(self, p, self.ring.one) for p in polys]
        self.zero = WFrac(self, self.ring.zero, self.ring.one)
        self.one = WFrac(self, self.ring.one, self.ring.one)
        self.field_new = True  # marks a field that is called, not .convert-ed

    def __call__(self, value: Any) -> WFrac:
        if isinstance(value, WFrac):
            return value
        return WFrac(self, self.ring(self.domain.convert(value)), self.ring.one)

    def new(self, numer: PolyElement, denom: PolyElement) -> WFrac:
        """``numer / denom`` (monomial factors cancelled)."""
        return WFrac(self, numer, denom)._cancel_monomial()


def _monomial_div(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x - y for x, y in zip(a, b))


class WFrac:
    """``numer / denom``; the denominator is kept monic."""

    __slots__ = ("denom", "field", "numer")

    def __init__(self, field: WField, numer: PolyElement, denom: PolyElement) -> None:
        self.field, self.numer, self.denom = field, numer, denom

    def _cancel_monomial(self) -> WFrac:
        den = self.denom
        if len(den) != 1:  # rare (eps outside the root): a full gcd keeps sizes bounded
            num, den = self.numer.cancel(den)
            lc = den.LC
            if lc != 1:
                num, den = num.quo_ground(lc), den.quo_ground(lc)
            return WFrac(self.field, num, den)
        ((dm, dc),) = den.items()
        num = self.numer
        if dc != 1:
            num = num.quo_ground(dc)
        if not num or not any(dm):
            return WFrac(self.field, num, self.field.ring.one if not num else
                         self.field.ring({dm: self.field.domain.one}))
        common = list(dm)
        for m in num.itermonoms():
            common = [min(x, y) for x, y in zip(common, m)]
            if not any(common):
                break
        if any(common):
            cm = tuple(common)
            num = num.ring.from_dict({_monomial_div(m, cm): c for m, c in num.items()})
            dm = _monomial_div(dm, cm)
        return WFrac(self.field, num, self.field.ring({dm: self.field.domain.one}))

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
        if self.denom == o.denom:
            return WFrac(self.field, self.numer + o.numer, self.denom)._cancel_monomial()
        if len(self.denom) == 1 and len(o.denom) == 1:
            (m1,), (m2,) = self.denom.itermonoms(), o.denom.itermonoms()
            lcm = tuple(max(x, y) for x, y in zip(m1, m2))
            R, one = self.field.ring, self.field.domain.one
            num = (self.numer * R({_monomial_div(lcm, m1): one})
                   + o.numer * R({_monomial_div(lcm, m2): one}))
            return WFrac(self.field, num, R({lcm: one}))._cancel_monomial()
        return WFrac(self.field, self.numer * o.denom + o.numer * self.denom,
                     self.denom * o.denom)._cancel_monomial()

    __radd__ = __add__

    def __sub__(self, other: Any) -> WFrac:
        return self + (-self._lift(other))

    def __rsub__(self, other: Any) -> WFrac:
        return self._lift(other) + (-self)

    def __mul__(self, other: Any) -> WFrac:
        if not isinstance(other, WFrac):
            k = self.field.domain.convert(other)
            return WFrac(self.field, self.numer.mul_ground(k), self.denom)
        if not self.numer or not other.numer:
            return self.field.zero
        return WFrac(self.field, self.numer * other.numer,
                     self.denom * other.denom)._cancel_monomial()

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> WFrac:
        if not isinstance(other, WFrac):
            k = self.field.domain.convert(other)
            return WFrac(self.field, self.numer.quo_ground(k), self.denom)
        if not other.numer:
            raise ZeroDivisionError("division by zero fraction")
        return WFrac(self.field, self.numer * other.denom,
                     self.denom * other.numer)._cancel_monomial()

    def __rtruediv__(self, other: Any) -> WFrac:
        return self._lift(other) / self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WFrac):
            other = self.field(other)
        return not (self - other).numer

    __hash__ = None  # type: ignore[assignment]

    def as_expr(self) -> Any:
        """A SymPy expression (numerator over denominator)."""
        return self.numer.as_expr() / self.denom.as_expr()

    def __repr__(self) -> str:
        return f"({self.numer})/({self.denom})"
