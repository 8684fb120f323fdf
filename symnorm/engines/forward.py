"""Forward-mode derivatives for the numeric engine: the chain rule on the claim's tree.

A Jacobian ``jacobian(f, x)`` at a point is computed by walking ``f`` once with every value
that depends on ``x`` carried as a *jet*: its mpmath value and its directional derivatives
along the basis directions of ``x`` (one tangent per coordinate).  Each operation of the
claim language applies its own derivative rule (product, quotient, power and chain rules
for ``sqrt``, ``exp``, ``log``, ``abs``), in mpmath at the working precision, so the result
is the derivative up to rounding -- with no step size and no truncation error -- and is
independent of SymPy.  Subtrees that do not contain ``x`` are evaluated once, as constants.

Where a rule does not apply the point is not differentiable (``abs`` or ``sqrt`` at 0 with
a nonzero tangent, a power below 1 or a fractional power of 0): :class:`~symnorm.engines.numclaim.Undefined` is
raised and the point is skipped, never counted.  Constructs without a rule here (a nested
``jacobian``, a power of a matrix that depends on ``x``, a variable exponent of a base that
is not positive) raise :class:`NoForward`, and the caller falls back to Richardson-
extrapolated central differences (``SYMNORM_JACOBIAN=differences`` forces those always).

>>> import mpmath
>>> from fractions import Fraction
>>> from symnorm.lang.syntax import BinOp, Name, Num, Pos
>>> at = Pos(1, 1)
>>> body = BinOp("**", Name("t", at), Num(Fraction(3), at), at)   # t**3
>>> class Ev:  # the primitives of a numeric evaluator (here: only what t**3 needs)
...     def node(self, e): return mpmath.mpf(int(e.value))
...     def power(self, a, b): return a ** b
>>> with mpmath.workdps(30):
...     print(jacobian(Ev(), body, "t", mpmath.mpf(2)))
12.0
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import mpmath

from ..lang.syntax import BinOp, Call, Expr, Name, Neg, Num, Transpose, VectorLit

__all__ = ["NoForward", "forward_enabled", "jacobian"]


class NoForward(Exception):
    """This expression has no forward rule here: use central differences instead."""


def forward_enabled() -> bool:
    """False when ``SYMNORM_JACOBIAN=differences`` asks for central differences only."""
    return os.environ.get("SYMNORM_JACOBIAN", "forward") != "differences"


@dataclass
class _Jet:
    """A value and its tangents (one per basis direction); ``None``: no dependence."""

    v: Any
    t: list | None


def _undefined(why: str) -> Exception:
    from .numclaim import Undefined
    return Undefined(why)


def _zero_like(v):
    return mpmath.zeros(v.rows, v.cols) if isinstance(v, mpmath.matrix) else mpmath.mpf(0)


def _is_matrix(v) -> bool:
    return isinstance(v, mpmath.matrix)


def _depends(e: Expr, var: str, memo: dict[int, bool]) -> bool:
    key = id(e)
    if key in memo:
        return memo[key]
    if isinstance(e, Name):
        out = e.id == var
    elif isinstance(e, Num):
        out = False
    elif isinstance(e, (Neg, Transpose)):
        out = _depends(e.operand, var, memo)
    elif isinstance(e, BinOp):
        out = _depends(e.left, var, memo) | _depends(e.right, var, memo)
    elif isinstance(e, Call):
        out = any(_depends(a, var, memo) for a in e.args)
    elif isinstance(e, VectorLit):
        out = any(_depends(x, var, memo) for x in e.items)
    else:
        raise NoForward(f"no forward rule for {type(e).__name__}")
    memo[key] = out
    return out


class _Walk:
    """One forward pass: ``ev`` supplies the constants and the primitive operations."""

    def __init__(self, ev, var: str, base) -> None:
        self.ev, self.var, self.base = ev, var, base
        self.dep: dict[int, bool] = {}
        self.memo: dict[int, _Jet] = {}
        if _is_matrix(base):
            if base.cols != 1:
                raise NoForward("derivative with respect to a matrix")
            self.n = base.rows
            seeds = []
            for j in range(self.n):
                ej = mpmath.zeros(self.n, 1)
                ej[j] = 1
                seeds.append(ej)
            self.seeds = seeds
        else:
            self.n, self.seeds = 1, [mpmath.mpf(1)]

    def node(self, e: Expr) -> _Jet:
        key = id(e)
        if key not in self.memo:
            if not _depends(e, self.var, self.dep):
                self.memo[key] = _Jet(self.ev.node(e), None)
            else:
                self.memo[key] = self._value(e)
        return self.memo[key]

    def _value(self, e: Expr) -> _Jet:
        if isinstance(e, Name):  # the variable itself (constants never get here)
            return _Jet(self.base, list(self.seeds))
        if isinstance(e, Neg):
            a = self.node(e.operand)
            return _Jet(-a.v, [-x for x in a.t] if a.t else None)
        if isinstance(e, Transpose):
            a = self.node(e.operand)
            if not _is_matrix(a.v):
                return a
            return _Jet(a.v.T, [x.T for x in a.t] if a.t else None)
        if isinstance(e, VectorLit):
            items = [self.node(i) for i in e.items]
            if any(_is_matrix(i.v) for i in items):
                raise NoForward("a vector literal of non-scalars")
            value = mpmath.matrix([i.v for i in items])
            tangents = [mpmath.matrix([i.t[j] if i.t else mpmath.mpf(0) for i in items])
                        for j in range(self.n)]
            return _Jet(value, tangents)
        if isinstance(e, BinOp):
            return self._binop(e.op, self.node(e.left), self.node(e.right))
        if isinstance(e, Call):
            if e.func == "jacobian":
                raise NoForward("a nested jacobian")
            a = self.node(e.args[0])
            if e.func == "trace":
                return _Jet(_trace(a.v), [_trace(x) for x in a.t] if a.t else None)
            return self._function(e.func, a)
        raise NoForward(f"no forward rule for {type(e).__name__}")  # pragma: no cover

    def _binop(self, op: str, a: _Jet, b: _Jet) -> _Jet:
        if op in ("+", "-"):
            value = a.v + b.v if op == "+" else a.v - b.v
            ta = a.t or [_zero_like(a.v)] * self.n
            tb = b.t or [_zero_like(b.v)] * self.n
            return _Jet(value, [x + y if op == "+" else x - y for x, y in zip(ta, tb)])
        if op in ("*", "@"):
            value = a.v * b.v
            tangents = []
            for j in range(self.n):
                parts = []
                if a.t:
                    parts.append(a.t[j] * b.v)
                if b.t:
                    parts.append(a.v * b.t[j])
                tangents.append(parts[0] + parts[1] if len(parts) == 2 else parts[0])
            if _is_matrix(a.v) and _is_matrix(b.v) and a.v.rows == 1 and b.v.cols == 1:
                return _Jet(value[0, 0], [x[0, 0] for x in tangents])
            return _Jet(value, tangents)
        if op == "/":
            if _is_matrix(b.v):
                raise NoForward("division by a matrix")
            value = self.ev.divide(a.v, b.v)
            tangents = []
            for j in range(self.n):
                parts = []
                if a.t:
                    parts.append(a.t[j] / b.v)
                if b.t:
                    parts.append(-(value * (b.t[j] / b.v)))
                tangents.append(parts[0] + parts[1] if len(parts) == 2 else parts[0])
            return _Jet(value, tangents)
        if op == "**":
            return self._power(a, b)
        raise NoForward(f"no forward rule for {op}")  # pragma: no cover

    def _power(self, a: _Jet, b: _Jet) -> _Jet:
        if _is_matrix(a.v) or _is_matrix(b.v):
            raise NoForward("a power of a matrix that depends on the variable")
        value = self.ev.power(a.v, b.v)
        tangents = [mpmath.mpf(0)] * self.n
        if a.t:
            if a.v == 0 and b.v != 0 and (b.v < 1 or b.v != int(b.v)):
                # below 1 the slope is infinite; a fractional power is not defined left of 0,
                # so 0 is the boundary of its domain, where no two-sided derivative exists
                raise _undefined("not differentiable at this point (a power of 0 below 1, "
                                 "or a fractional one)")
            # d(a**b)/da = b * a**(b - 1); at b = 0 the power is the constant 1
            slope = mpmath.mpf(0) if b.v == 0 else b.v * self.ev.power(a.v, b.v - 1)
            tangents = [x + slope * y for x, y in zip(tangents, a.t)]
        if b.t:
            if not a.v > 0:
                raise NoForward("a variable exponent of a base that is not positive")
            slope = value * mpmath.log(a.v)
            tangents = [x + slope * y for x, y in zip(tangents, b.t)]
        return _Jet(value, tangents)

    def _function(self, name: str, a: _Jet) -> _Jet:
        if _is_matrix(a.v):
            raise NoForward(f"{name} of a matrix")
        value = self.ev.function(name, a.v)
        if name == "sqrt":
            if value == 0:
                raise _undefined("not differentiable at this point (sqrt of 0)")
            slope = 1 / (2 * value)
        elif name == "abs":
            if a.v == 0:
                raise _undefined("not differentiable at this point (abs of 0)")
            slope = mpmath.mpf(1) if a.v > 0 else mpmath.mpf(-1)
        elif name == "exp":
            slope = value
        elif name == "log":
            slope = 1 / a.v
        else:
            raise NoForward(f"no forward rule for {name}")
        return _Jet(value, [slope * x for x in a.t] if a.t else None)


def _trace(a):
    return sum((a[i, i] for i in range(1, a.rows)), a[0, 0]) if _is_matrix(a) else a


def jacobian(ev, body: Expr, var: str, base) -> Any:
    """The derivative of ``body`` with respect to ``var`` at ``base``, laid out as the
    central differences of :mod:`symnorm.engines.numclaim` lay it out: for a scalar
    variable the derivative itself, for a vector variable one column per coordinate (a
    row for a scalar body)."""
    walk = _Walk(ev, var, base)
    out = walk.node(body)
    cols = out.t if out.t else [_zero_like(out.v)] * walk.n
    if not _is_matrix(base):
        return cols[0]
    first = cols[0]
    n = walk.n
    if _is_matrix(first):
        if first.cols != 1:
            raise NoForward("the derivative of a matrix with respect to a vector")
        m = mpmath.zeros(first.rows, n)
        for j, c in enumerate(cols):
            for i in range(first.rows):
                m[i, j] = c[i]
        return m
    m = mpmath.zeros(1, n)
    for j, c in enumerate(cols):
        m[0, j] = c
    return m
