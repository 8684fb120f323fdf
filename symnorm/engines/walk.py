"""One walk over expanded claim trees, written once for every concrete-d backend.

The explicit engine (exact SymPy matrices) and the numeric engine (mpmath matrices at a
point) differ only in their leaves and primitive operations; they subclass
:class:`TreeEvaluator` and supply those, as mpmath's contexts do for float and
multiprecision arithmetic.  Shared subtrees are evaluated once (memoized by identity).
"""

from __future__ import annotations

from typing import Any

from ..lang.syntax import BinOp, Call, Expr, Name, Neg, Num, Transpose, VectorLit

__all__ = ["TreeEvaluator"]


class TreeEvaluator:
    """Evaluate an expanded expression; subclasses define the primitives below."""

    #: the backend's matrix class (a 1x1 product of a row and a column becomes a scalar)
    matrix_type: type = object

    def __init__(self) -> None:
        self._memo: dict[int, Any] = {}

    def value(self, e: Expr) -> Any:
        """The value of ``e`` as the engine reports it (subclasses may post-process)."""
        return self.node(e)

    def node(self, e: Expr) -> Any:
        """The value of ``e`` as the walk computes it, memoized (what ``jacobian`` uses)."""
        key = id(e)
        if key not in self._memo:
            self._memo[key] = self._value(e)
        return self._memo[key]

    def _value(self, e: Expr) -> Any:
        if isinstance(e, Num):
            return self.number(e.value.numerator, e.value.denominator)
        if isinstance(e, Name):
            return self.name(e.id)
        if isinstance(e, Neg):
            return -self.node(e.operand)
        if isinstance(e, Transpose):
            v = self.node(e.operand)
            return v.T if isinstance(v, self.matrix_type) else v
        if isinstance(e, VectorLit):
            return self.column([self.node(i) for i in e.items])
        if isinstance(e, BinOp):
            a, b = self.node(e.left), self.node(e.right)
            if e.op == "+":
                return a + b
            if e.op == "-":
                return a - b
            if e.op in ("*", "@"):
                out = a * b
                if isinstance(a, self.matrix_type) and isinstance(b, self.matrix_type) \
                        and a.rows == 1 and b.cols == 1:
                    return out[0, 0]
                return out
            if e.op == "/":
                return self.divide(a, b)
            if e.op == "**":
                if isinstance(a, self.matrix_type):
                    return a ** int(b)
                return self.power(a, b)
        if isinstance(e, Call):
            if e.func == "jacobian":
                var = e.args[1]
                assert isinstance(var, Name)
                return self.jacobian(e.args[0], var.id)
            a = self.node(e.args[0])
            if e.func == "hadamard":  # entrywise product of two columns
                b = self.node(e.args[1])
                return self.column([a[i] * b[i] for i in range(a.rows)])
            if e.func == "diag":  # the diagonal matrix of a column
                return self.diagonal([a[i] for i in range(a.rows)])
            if e.func == "trace":
                return sum((a[i, i] for i in range(1, a.rows)), a[0, 0])
            return self.function(e.func, a)
        raise TypeError(f"unsupported construct {e}")  # pragma: no cover

    # --- primitives ---------------------------------------------------------------------
    def number(self, p: int, q: int) -> Any:
        raise NotImplementedError

    def name(self, name: str) -> Any:
        raise NotImplementedError

    def column(self, items: list[Any]) -> Any:
        raise NotImplementedError

    def divide(self, a: Any, b: Any) -> Any:
        return a / b

    def diagonal(self, items: list[Any]) -> Any:
        raise NotImplementedError

    def power(self, a: Any, b: Any) -> Any:
        raise NotImplementedError

    def function(self, name: str, a: Any) -> Any:
        raise NotImplementedError

    def jacobian(self, body: Expr, var: str) -> Any:
        raise NotImplementedError
