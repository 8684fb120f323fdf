"""The numeric engine: N and its closed-form Jacobian in mpmath, checked by finite differences.

Points are exact rationals; every evaluation runs in a private mpmath context (never the global
``mp``), so precision cannot leak.  The finite differences follow ``mpmath.diff``: a central
difference with step ``h = 2**-(prec + 10)`` evaluated at working precision
``2 * (prec + 20)`` bits, so truncation (~h**2) and cancellation (~2**-workprec / h) both fall
far below ``10**-dps``; the closed form is evaluated at ``dps`` digits.  The same formulas run
in float64 (numpy) to reproduce the paper's own check, whose recipe is

    P = I - 1 1^T/d;  N(x) = P x / sqrt((P x).(P x)/d + eps)
    J = P/s - c c^T/(d s**3);  J_fd[:, j] = (N(x + h e_j) - N(x - h e_j)) / (2 h),  h = 1e-6

with the error the largest ``|J_fd - J|`` entry (1.384497516632166e-10 at x = (1, 2, 4),
eps = 1/10).

>>> from symnorm.spec import layer_norm
>>> res = cross_check(layer_norm(3, "1/10"), [1, 2, 4], dps=50)
>>> res.max_abs_error < 1e-45, res.agreeing_digits >= 45
(True, True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import sympy

from ..errors import LimitError, SpecError
from ..spec import NormSpec, as_rational

__all__ = [
    "MAX_DPS",
    "MIN_DPS",
    "CrossCheck",
    "batch_pair",
    "closed_jacobian",
    "cross_check",
    "finite_difference_error",
    "float64_fd_error",
    "mp_context",
    "normalize",
]

MIN_DPS, MAX_DPS = 10, 1000


@dataclass(frozen=True)
class _Map:
    d: int
    n: int
    eps: Fraction
    center: bool
    inside: bool

    @classmethod
    def of(cls, spec: NormSpec, d: int) -> _Map:
        n = d if spec.var_denominator == "N" else d - 1
        return cls(d, n, Fraction(int(spec.eps.p), int(spec.eps.q)), spec.center,
                   spec.eps_inside)


@dataclass(frozen=True)
class CrossCheck:
    """The numeric evidence at one point: values, closed-form J, finite-difference error."""

    x: tuple[sympy.Rational, ...]
    dps: int
    workdps: int
    step: Any                      # the finite-difference step h (an mpf)
    N: tuple[Any, ...]             # mpf values at dps digits
    jacobian: tuple[tuple[Any, ...], ...]
    max_abs_error: Any             # max |J_fd - J_closed| (mpf)
    agreeing_digits: int
    float64_error: float
    seconds: float

    def jacobian_floats(self) -> list[list[float]]:
        """The closed-form Jacobian rounded to float64."""
        return [[float(e) for e in row] for row in self.jacobian]


def mp_context(dps: int) -> mpmath.ctx_mp.MPContext:
    """A private mpmath context at ``dps`` digits (the global ``mp`` is never touched)."""
    ctx = mpmath.MPContext()
    ctx.dps = dps
    return ctx


def check_dps(dps: Any) -> int:
    """Validate a precision: an integer in [MIN_DPS, MAX_DPS]."""
    if isinstance(dps, bool) or not isinstance(dps, int):
        raise SpecError(f"dps must be an integer number of digits (got {dps!r})")
    if not MIN_DPS <= dps <= MAX_DPS:
        raise LimitError(f"dps must be between {MIN_DPS} and {MAX_DPS} digits (got {dps})")
    return dps


def _mpq(ctx: Any, q: Any) -> Any:
    return ctx.mpf(int(q.p)) / int(q.q) if hasattr(q, "p") else ctx.mpf(q.numerator) / q.denominator


def normalize(ctx: Any, m: _Map, xs: Sequence[Any]) -> list[Any]:
    """``N(x)`` in context ``ctx``: ``c / sqrt(v + eps)`` or ``c / (sqrt(v) + eps)``."""
    d = len(xs)
    mean = ctx.fsum(xs) / d if m.center else 0
    c = [xi - mean for xi in xs]
    v = ctx.fdot(c, c) / m.n
    eps = _mpq(ctx, m.eps)
    den = ctx.sqrt(v + eps) if m.inside else ctx.sqrt(v) + eps
    return [ci / den for ci in c]


def closed_jacobian(ctx: Any, m: _Map, xs: Sequence[Any]) -> list[list[Any]]:
    """``A/s - c c^T/(n s**3)`` (``A/t - c c^T/(n r t**2)`` with eps outside), A = P or I."""
    d = len(xs)
    mean = ctx.fsum(xs) / d if m.center else 0
    c = [xi - mean for xi in xs]
    v = ctx.fdot(c, c) / m.n
    eps = _mpq(ctx, m.eps)
    if m.inside:
        s = ctx.sqrt(v + eps)
        lead, k = 1 / s, 1 / (m.n * s ** 3)
    else:
        r = ctx.sqrt(v)
        t = r + eps
        lead, k = 1 / t, 1 / (m.n * r * t ** 2)
    off = lead / d if m.center else 0
    return [[(lead if i == j else 0) - off - c[i] * c[j] * k for j in range(d)]
            for i in range(d)]


def _singular(m: _Map, xq: Sequence[Any]) -> bool:
    mean = sum(xq, Fraction(0)) / len(xq) if m.center else 0
    v = sum(((xi - mean) ** 2 for xi in xq), Fraction(0))
    return v == 0 and (m.eps == 0 or not m.inside)


def cross_check(spec: NormSpec, x: Sequence[Any], dps: int = 50) -> CrossCheck:
    """Evaluate N and the closed-form J at the rational point ``x`` and compare with differences.

    Reports the largest ``|J_fd - J|`` entry, the number of agreeing significant digits
    (relative to the largest entry of J), the step and working precision used, and the
    float64 error of the paper's recipe at the same point.
    """
    t0 = time.perf_counter()
    dps = check_dps(dps)
    d = spec.d
    if d is None:
        raise SpecError("the numeric cross-check needs a concrete d (got symbolic d)")
    if len(x) != d:
        raise SpecError(f"x must have d={d} entries (got {len(x)})")
    xq = [Fraction(int(q.p), int(q.q))
          for q in (as_rational(xi, f"x[{i + 1}]") for i, xi in enumerate(x))]
    m = _Map.of(spec, d)
    if _singular(m, xq):
        raise SpecError("x has zero variance and the map is not differentiable there "
                        "(accepted: eps > 0 inside the root, or an x whose entries differ)")
    ctx = mp_context(dps)
    xs = [_mpq(ctx, q) for q in xq]
    N = normalize(ctx, m, xs)
    J = closed_jacobian(ctx, m, xs)
    err, h, workdps = finite_difference_error(m, xq, J, ctx.prec)
    scale = max((abs(e) for row in J for e in row), default=ctx.one)
    digits = dps if not err else max(0, int(ctx.floor(-ctx.log10(err / scale))))
    f64 = float64_fd_error(spec, x)
    return CrossCheck(tuple(sympy.Rational(q.numerator, q.denominator) for q in xq), dps,
                      workdps, ctx.mpf(h), tuple(N), tuple(tuple(r) for r in J),
                      ctx.mpf(err), min(digits, dps), f64, time.perf_counter() - t0)


def finite_difference_error(m: _Map, xq: Sequence[Fraction], J: Sequence[Sequence[Any]],
                            prec: int) -> tuple[Any, Any, int]:
    """``max |J_fd - J|`` with ``J_fd`` by central differences managed as ``mpmath.diff`` does.

    Working precision ``2 (prec + 20)`` bits and step ``h = 2**-(prec + 10)``: one direction
    at a time, the whole vector map is evaluated at ``x +- h e_j`` (a JVP per column).
    Returns the error, the step and the working precision in digits.
    """
    hi = mpmath.MPContext()
    hi.prec = 2 * (prec + 20)
    h = hi.ldexp(1, -(prec + 10))
    xh = [_mpq(hi, q) for q in xq]
    err = hi.zero
    for j in range(len(xq)):
        xp, xm = list(xh), list(xh)
        xp[j] += h
        xm[j] -= h
        fp, fm = normalize(hi, m, xp), normalize(hi, m, xm)
        for i in range(len(xq)):
            err = max(err, abs((fp[i] - fm[i]) / (2 * h) - hi.mpf(J[i][j])))
    return err, h, hi.dps


def float64_fd_error(spec: NormSpec, x: Sequence[Any], h: float = 1e-6) -> float:
    """The paper's float64 check: central differences with step ``h`` against the closed form.

    Exactly the paper's recipe (module docstring); with the unbiased denominator, eps outside
    the root or no centering the same recipe runs with those formulas.
    """
    d = len(x)
    m = _Map.of(spec, d)
    xf = np.array([float(as_rational(xi, "x")) for xi in x], dtype=np.float64)
    eps = float(m.eps)
    P = np.eye(d) - np.ones((d, d)) / d if m.center else np.eye(d)

    def N(z: np.ndarray) -> np.ndarray:
        c = P @ z
        v = c @ c / m.n
        return c / (np.sqrt(v + eps) if m.inside else np.sqrt(v) + eps)

    c = P @ xf
    v = c @ c / m.n
    if m.inside:
        s = np.sqrt(v + eps)
        J = P / s - np.outer(c, c) / (m.n * s ** 3)
    else:
        r = np.sqrt(v)
        t = r + eps
        J = P / t - np.outer(c, c) / (m.n * r * t ** 2)
    Jfd = np.zeros((d, d))
    for j in range(d):
        e = np.zeros(d)
        e[j] = h
        Jfd[:, j] = (N(xf + e) - N(xf - e)) / (2 * h)
    return float(np.max(np.abs(Jfd - J)))


def batch_pair(b: Any, eps: Any, dps: int = 50) -> dict[str, Any]:
    """BatchNorm of the two-sample batch {0, b} (population variance, no affine) at sample 0.

    Returns the exact value ``-b/sqrt(b**2 + 4 eps)``, its float64 evaluation from the batch
    statistics, and an mpmath value at ``dps`` digits.

    >>> batch_pair(2, "1/100")["float64"]
    -0.9950371902099893
    """
    bq, eq = as_rational(b, "b"), as_rational(eps, "eps")
    if eq < 0:
        raise SpecError(f"eps must be >= 0 (got {eq})")
    if bq == 0 and eq == 0:
        raise SpecError("the batch {0, 0} has zero variance and eps = 0: BN is undefined there")
    batch = [sympy.Integer(0), bq]
    mean = sum(batch) / 2
    var = sum((z - mean) ** 2 for z in batch) / 2
    exact = sympy.nsimplify((batch[0] - mean) / sympy.sqrt(var + eq))
    arr = np.array([0.0, float(bq)])
    f64 = float((arr[0] - arr.mean()) / np.sqrt(arr.var() + float(eq)))
    ctx = mp_context(check_dps(dps))
    val = (0 - _mpq(ctx, bq) / 2) / ctx.sqrt(_mpq(ctx, bq) ** 2 / 4 + _mpq(ctx, eq))
    return {"b": bq, "eps": eq, "exact": exact, "float64": f64, "mp": val}
