"""Exact arithmetic in ``F(s)`` with ``s**2 = W``, and forward-mode differentiation over it.

The explicit engine never simplifies radicals: every quantity is kept as ``a + b*s`` with
``a, b`` in a base field ``F`` (the rationals for a concrete point, or the rational functions
``QQ(c_1, ..., c_d, W)`` as :class:`~symnorm.engines.wfrac.WField` for symbolic ``x``) and products
are reduced with ``s**2 = W``.  Derivatives follow the chain rule ``ds/dx_j = (dW/dx_j)/(2 s)``.

>>> from sympy.polys.domains import QQ
>>> alg = SurdAlgebra(QQ, QQ(3))          # s = sqrt(3)
>>> s = alg.s
>>> (s * s).a, (s * s).b
(3, 0)
>>> inv = 1 / (s + 1)                     # (s - 1) / 2
>>> inv.a, inv.b
(-1/2, 1/2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["Dual", "Surd", "SurdAlgebra"]


class SurdAlgebra:
    """The algebra ``F[s]/(s**2 - W)`` over a base field ``F`` (QQ or a WField).

    ``field`` must offer ``zero``, ``one`` and a call/convert from rationals; ``W`` is the
    base element that ``s**2`` equals.
    """

    def __init__(self, field: Any, W: Any) -> None:
        self.field = field
        self.W = W
        self.zero_f = field.zero
        self.one_f = field.one

    def scalar(self, value: Any) -> Any:
        """Convert an int, sympy Rational or base element into the base field."""
        conv = getattr(self.field, "convert", None)
        if conv is not None and not hasattr(self.field, "field_new"):
            return conv(value)
        return self.field(value) if not _is_base(value) else value

    def const(self, value: Any) -> Surd:
        """The element ``value + 0*s``."""
        return Surd(self, self.scalar(value), self.zero_f)

    @property
    def s(self) -> Surd:
        """The square root ``s`` itself."""
        return Surd(self, self.zero_f, self.one_f)


def _is_base(value: Any) -> bool:
    return hasattr(value, "numer") and hasattr(value, "field")


class Surd:
    """An element ``a + b*s`` of a :class:`SurdAlgebra`; arithmetic reduces with ``s**2 = W``."""

    __slots__ = ("a", "alg", "b")

    def __init__(self, alg: SurdAlgebra, a: Any, b: Any) -> None:
        self.alg, self.a, self.b = alg, a, b

    def _coerce(self, other: Any) -> Surd:
        return other if isinstance(other, Surd) else self.alg.const(other)

    def __add__(self, other: Any) -> Surd:
        o = self._coerce(other)
        return Surd(self.alg, self.a + o.a, self.b + o.b)

    __radd__ = __add__

    def __sub__(self, other: Any) -> Surd:
        o = self._coerce(other)
        return Surd(self.alg, self.a - o.a, self.b - o.b)

    def __rsub__(self, other: Any) -> Surd:
        return self._coerce(other) - self

    def __neg__(self) -> Surd:
        return Surd(self.alg, -self.a, -self.b)

    def __mul__(self, other: Any) -> Surd:
        if not isinstance(other, Surd):
            k = self.alg.scalar(other)
            return Surd(self.alg, self.a * k if self.a else self.a, self.b * k if self.b else self.b)
        a1, b1, a2, b2 = self.a, self.b, other.a, other.b
        zero = self.alg.zero_f
        a = a1 * a2 if (a1 and a2) else zero
        if b1 and b2:
            a = a + b1 * b2 * self.alg.W
        b = a1 * b2 if (a1 and b2) else zero
        if b1 and a2:
            b = b + b1 * a2
        return Surd(self.alg, a, b)

    __rmul__ = __mul__

    def inverse(self) -> Surd:
        """``1/(a + b s) = (a - b s)/(a**2 - b**2 W)``; ZeroDivisionError when that norm is 0."""
        if not self.b:
            return Surd(self.alg, self.alg.one_f / self.a, self.b)
        if not self.a:
            return Surd(self.alg, self.a, self.alg.one_f / (self.b * self.alg.W))
        norm = self.a * self.a - self.b * self.b * self.alg.W
        if not norm:
            raise ZeroDivisionError("a + b*s has norm 0")
        return Surd(self.alg, self.a / norm, -self.b / norm)

    def __truediv__(self, other: Any) -> Surd:
        if not isinstance(other, Surd):
            k = self.alg.scalar(other)
            return Surd(self.alg, self.a / k, self.b / k)
        return self * other.inverse()

    def __rtruediv__(self, other: Any) -> Surd:
        return self._coerce(other) * self.inverse()

    def is_structurally_zero(self) -> bool:
        """True when both coordinates are the zero of the base field (no relation used)."""
        return not self.a and not self.b

    def __repr__(self) -> str:
        return f"Surd({self.a!r} + ({self.b!r})*s)"


class Dual:
    """A value with its gradient (a list of :class:`Surd`, one per input): forward-mode AD.

    Only the rules the normalized maps need: sums, products, quotients, and the square root of
    a named base element (``W``), whose derivative is ``dW/(2 s)``.
    """

    __slots__ = ("grad", "val")

    def __init__(self, val: Surd, grad: Sequence[Surd]) -> None:
        self.val, self.grad = val, list(grad)

    def __add__(self, other: Dual) -> Dual:
        return Dual(self.val + other.val, [g + h for g, h in zip(self.grad, other.grad)])

    def __sub__(self, other: Dual) -> Dual:
        return Dual(self.val - other.val, [g - h for g, h in zip(self.grad, other.grad)])

    def scale(self, k: Any) -> Dual:
        """Multiply by a constant (rational) ``k``."""
        return Dual(self.val * k, [g * k for g in self.grad])

    def shift(self, k: Any) -> Dual:
        """Add a constant ``k`` (the gradient does not change)."""
        return Dual(self.val + k, self.grad)

    def __mul__(self, other: Dual) -> Dual:
        # product rule
        u, v = self.val, other.val
        return Dual(u * v, [_add_skip(g * v, u * h) for g, h in zip(self.grad, other.grad)])

    def reciprocal(self) -> Dual:
        """``1/u`` with gradient ``-du/u**2`` (quotient rule)."""
        inv = self.val.inverse()
        k = -(inv * inv)
        return Dual(inv, [g * k for g in self.grad])

    def __truediv__(self, other: Dual) -> Dual:
        return self * other.reciprocal()


def _add_skip(p: Surd, q: Surd) -> Surd:
    if q.is_structurally_zero():
        return p
    if p.is_structurally_zero():
        return q
    return p + q


def sqrt_of_named(alg: SurdAlgebra, w: Dual) -> Dual:
    """``s = sqrt(W)`` where ``w.val`` is ``W`` itself: chain rule ``ds = dw/(2 s)``."""
    half_inv_s = Surd(alg, alg.zero_f, alg.one_f / (2 * alg.W))  # 1/(2s) = s/(2W)
    return Dual(alg.s, [g * half_inv_s for g in w.grad])


__all__ += ["sqrt_of_named"]
