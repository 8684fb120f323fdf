"""The numeric engine for claims: mpmath at exact rational points, at two precisions.

Sample points are exact (seeded rationals, probes of special values, ``given`` hypotheses
solved exactly at the point; see ``docs/engines.md``).  Both sides are evaluated with
mpmath at ``dps`` and ``dps + 20`` digits (a third precision when needed); ``jacobian`` is
computed in forward mode (the chain rule applied to the claim's tree in mpmath,
``symnorm/engines/forward.py``), or by central differences with Richardson extrapolation
where forward mode has no rule or ``SYMNORM_JACOBIAN=differences`` asks for them, at
raised working precision and independently of SymPy.

A point *agrees* when the difference is rounding noise (it shrinks with precision) below
``10**-30`` relative to the sizes involved; it *differs* when the difference is stable
across the two precisions (a genuine nonzero value, however small).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy as sp

from ..lang.context import PreparedClaim
from ..lang.syntax import BinOp, Call, Expr, Neg, Num, Relation, Transpose, VectorLit, nodes
from .anyd import _simple_bound
from .forward import NoForward, forward_enabled
from .forward import jacobian as forward_jacobian
from .walk import TreeEvaluator

__all__ = ["MAX_DPS", "Outcome", "Point", "classify", "evaluate_relation", "sample_point"]

MAX_DPS = 1000
MAX_POWER_BITS = 10 ** 7  # a power whose size exceeds this many bits is not evaluated
EXTRA = 20  # digits added for the second precision
AGREE_DIGITS = 30


class Undefined(Exception):
    """The expression is not defined (real-valued) at this point."""


@dataclass
class Point:
    d: int
    values: dict[str, Fraction | list[Fraction]]
    complete: bool = True  # False: drawn from only part of the hypotheses' solution set

    def describe(self) -> dict[str, str | list[str]]:
        out: dict[str, str | list[str]] = {"d": str(self.d)}
        for k, v in self.values.items():
            if isinstance(v, list):
                out[k] = [[str(x) for x in row] if isinstance(row, list) else str(row)
                          for row in v]  # type: ignore[assignment]
            else:
                out[k] = str(v)
        return out


@dataclass
class Outcome:
    """One point: ``status`` is ``agree``, ``differ`` or ``unclear``; values as strings
    (vectors and matrices as lists of them)."""

    status: str
    digits: float
    lhs: str | list  # a number, or nested lists of numbers, as strings of dps digits
    rhs: str | list
    diff: float
    diff_text: str = ""  # the difference as text (a float underflows below 1e-308)


class _Eval(TreeEvaluator):
    """The shared walk over mpmath numbers and matrices at one exact point."""

    matrix_type = mpmath.matrix

    def __init__(self, claim: PreparedClaim, point: Point) -> None:
        super().__init__()
        self.claim, self.point, self.d = claim, point, point.d
        self.over: dict[str, object] = {}

    def mp(self, v):
        if isinstance(v, list):
            if v and isinstance(v[0], list):
                return mpmath.matrix([[_mpf(x) for x in row] for row in v])
            return mpmath.matrix([_mpf(x) for x in v])
        return _mpf(v)

    def number(self, p: int, q: int):
        return mpmath.mpf(p) / q

    def name(self, name: str):
        if name in self.over:
            return self.over[name]
        if name == "I":
            return mpmath.eye(self.d)
        if name == "ones":
            return mpmath.ones(self.d, 1)
        if name == "d":
            return mpmath.mpf(self.d)
        return self.mp(self.point.values[name])

    def column(self, items: list):
        return mpmath.matrix(items)

    def diagonal(self, items: list):
        return mpmath.diag(items)

    def divide(self, a, b):
        if b == 0:
            raise Undefined("division by zero")
        return a / b

    def power(self, a, b):
        if a == 0 and b == 0:
            return mpmath.mpf(1)  # the claim language follows SymPy: 0**0 = 1
        if a == 0 and b < 0 or a < 0 and b != int(b):
            raise Undefined("power undefined")
        if a != 0 and abs(b) * max(1, abs(mpmath.log(abs(a), 2))) > MAX_POWER_BITS:
            raise Undefined("power too large to evaluate")
        return a ** b

    def function(self, name: str, a):
        if name in ("sqrt", "log") and a < 0 or name == "log" and a == 0:
            raise Undefined(f"{name} of a negative number")
        return {"sqrt": mpmath.sqrt, "abs": abs, "exp": mpmath.exp, "log": mpmath.log}[name](a)

    def jacobian(self, body: Expr, var: str):
        return self._jacobian(body, var)

    def _jacobian(self, body: Expr, var: str):
        """Forward-mode derivatives (the chain rule on the tree, ``forward.py``), or where
        they have no rule (or ``SYMNORM_JACOBIAN=differences``) central differences with
        Richardson extrapolation, at the current precision.

        The result is shared by every claim a worker process decides (``_JACOBIANS``): the
        key is everything the value depends on -- the expanded body (structural equality),
        the variable, d, every value of the point, the working precision -- and nested
        derivatives (values held in ``over``) are never shared.
        """
        key = None
        forward = forward_enabled()
        if not self.over:
            key = (body, var, self.d, _frozen(self.point.values), mpmath.mp.prec, forward)
            hit = _JACOBIANS.get(key)
            if hit is not None:
                return hit.copy() if isinstance(hit, mpmath.matrix) else hit
        out = self._compute(body, var, forward)
        if key is not None:
            if len(_JACOBIANS) >= _JACOBIAN_CACHE_SIZE:
                _JACOBIANS.pop(next(iter(_JACOBIANS)))
            _JACOBIANS[key] = out.copy() if isinstance(out, mpmath.matrix) else out
        return out

    def _compute(self, body: Expr, var: str, forward: bool):
        """The Jacobian itself: forward mode where it has a rule, else differences."""
        if forward:
            try:
                base = self.over.get(var, self.mp(self.point.values[var]))
                return forward_jacobian(self, body, var, base)
            except NoForward:
                pass
        return self._differences(body, var)

    def _differences(self, body: Expr, var: str):
        base = self.over.get(var, self.mp(self.point.values[var]))
        prec_digits = mpmath.mp.dps
        h0 = mpmath.mpf(10) ** (-(prec_digits // 16 + 2))
        levels = 6

        def at(value):
            sub = _Eval(self.claim, self.point)
            sub.over = dict(self.over)
            sub.over[var] = value
            return sub.value(body)

        def deriv(direction):
            table = []
            for k in range(levels):
                h = h0 / 2 ** k
                table.append((at(base + h * direction) - at(base - h * direction)) / (2 * h))
            _check_differentiable(at, base, direction, h0 / 2 ** (levels - 1))
            for m in range(1, levels):  # error series in h**2
                f = 4 ** m
                table = [(f * table[i + 1] - table[i]) / (f - 1) for i in range(len(table) - 1)]
            return table[0]

        if not isinstance(base, mpmath.matrix):
            return deriv(mpmath.mpf(1))
        n = base.rows
        cols = []
        for j in range(n):
            ej = mpmath.zeros(n, 1)
            ej[j] = 1
            cols.append(deriv(ej))
        first = cols[0]
        if isinstance(first, mpmath.matrix):
            out = mpmath.zeros(first.rows, n)
            for j, c in enumerate(cols):
                for i in range(first.rows):
                    out[i, j] = c[i]
            return out
        out = mpmath.zeros(1, n)
        for j, c in enumerate(cols):
            out[0, j] = c
        return out


#: Jacobians at sample points, shared by the claims one worker process decides (a
#: document's claims use the same maps at the same cross-check points); oldest dropped first
_JACOBIANS: dict[tuple, object] = {}
_JACOBIAN_CACHE_SIZE = 512


def _frozen(values: dict) -> tuple:
    """A point's values as a hashable key (exact: Fractions or exact SymPy numbers)."""
    def one(v):
        return tuple(one(x) for x in v) if isinstance(v, list) else (type(v).__name__, v)
    return tuple(sorted((k, one(v)) for k, v in values.items()))


def _check_differentiable(at, base, direction, h) -> None:
    """Raise Undefined at a kink: one-sided slopes whose gap does not shrink with the step.

    At a smooth point the gap between the forward and backward slopes is about h*f'' and
    falls a thousandfold with the step; at a kink (|a| at 0) it stays at the jump.
    """
    f0 = at(base)

    def gap(step):
        fwd = (at(base + step * direction) - f0) / step
        bwd = (f0 - at(base - step * direction)) / step
        return _norm(_sub(fwd, bwd))

    g1 = gap(h)
    if g1 == 0:
        return
    g2 = gap(h / 1000)
    if g2 > g1 / 10:
        raise Undefined("not differentiable at this point")


def _mpf(x) -> mpmath.mpf:
    """An exact point coordinate (a Fraction, or an exact SymPy number) at the current precision."""
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(sp.Float(x.evalf(mpmath.mp.dps + 10), mpmath.mp.dps + 10)._mpf_)


def _norm(v) -> mpmath.mpf:
    if isinstance(v, mpmath.matrix):
        return max((abs(v[i, j]) for i in range(v.rows) for j in range(v.cols)),
                   default=mpmath.mpf(0))
    return abs(v)


def _sub(a, b):
    if isinstance(a, mpmath.matrix) and not isinstance(b, mpmath.matrix):
        return a if b == 0 else a - b
    if isinstance(b, mpmath.matrix) and not isinstance(a, mpmath.matrix):
        return -b if a == 0 else a - b
    return a - b


def _fmt(v, digits: int) -> str | list:
    """A value for JSON at ``digits`` significant digits: a number as a string, a column
    vector as a list of them, any other matrix as a list of rows."""
    if isinstance(v, mpmath.matrix):
        rows = [[mpmath.nstr(v[i, j], digits) for j in range(v.cols)] for i in range(v.rows)]
        return [r[0] for r in rows] if v.cols == 1 else rows
    return mpmath.nstr(v, digits)


def evaluate_relation(claim: PreparedClaim, rel: Relation, point: Point, dps: int):
    """(lhs, rhs) at ``dps`` digits, computed at raised working precision."""
    with mpmath.workdps(2 * dps + 30):
        ev = _Eval(claim, point)
        lhs, rhs = ev.value(rel.left), ev.value(rel.right)
        return lhs, rhs


def literal_digits(rel: Relation) -> int:
    """Decimal digits a claim's literals can reach (``10**-200`` needs 200 more digits).

    The numeric engine works this much above the requested precision, so that a difference
    written into the claim's own constants is never below the rounding level.
    """
    seen: set[int] = set()

    def walk(e: Expr) -> float:
        if id(e) in seen:
            return 0.0
        seen.add(id(e))
        if isinstance(e, Num):
            v = e.value
            return float(len(str(v.numerator)) + len(str(v.denominator)))
        if isinstance(e, BinOp) and e.op == "**":
            base, ex = e.left, e.right
            while isinstance(ex, Neg):
                ex = ex.operand
            if isinstance(base, Num) and isinstance(ex, Num) and base.value not in (0, 1):
                size = abs(float(ex.value)) * abs(math.log10(abs(float(base.value))))
                return min(size, 1e6) + walk(base)
            return walk(base) + walk(e.right)
        if isinstance(e, BinOp):
            return walk(e.left) + walk(e.right)
        if isinstance(e, (Neg, Transpose)):
            return walk(e.operand)
        if isinstance(e, Call):
            return sum(walk(a) for a in e.args)
        if isinstance(e, VectorLit):
            return sum(walk(x) for x in e.items)
        return 0.0

    return int(walk(rel.left) + walk(rel.right))


def classify(claim: PreparedClaim, rel: Relation, point: Point, dps: int,
             confirm: bool = True) -> Outcome:
    """Compare both sides at ``dps`` and ``dps + EXTRA`` digits (see module docstring).

    ``confirm=False`` reports a stable numeric gap as ``differ`` without the exact
    re-verification: only for deciding that an assumption fails at a sample point, where a
    wrong ``differ`` merely drops the point (never a verdict's evidence)."""
    # raised by the literals' digits, then up to a multiple of EXTRA: claims of a document
    # then evaluate at the same precisions and share their Jacobians (more digits never hurt)
    dps = -(-(dps + literal_digits(rel)) // EXTRA) * EXTRA
    if dps > 4 * MAX_DPS:
        return Outcome("unclear", 0.0, "", "", float("nan"))
    lhs, rhs = evaluate_relation(claim, rel, point, dps)
    with mpmath.workdps(2 * dps + 30):
        mag0 = max(_norm(lhs), _norm(rhs))
        # a huge value would hide a small absolute difference (X vs X + 1): raise the
        # precision so the absolute resolution stays at 10**-dps, or give up on the point
        extra = int(mpmath.ceil(mpmath.log10(mag0))) if mag0 > 10 ** 6 else 0
    if dps + extra > 4 * MAX_DPS:
        return Outcome("unclear", 0.0, _fmt(lhs, dps), _fmt(rhs, dps), float("nan"))
    dps += extra
    results = []
    for p in (dps, dps + EXTRA):
        if p != dps or extra:  # at extra == 0 the first evaluation is this one: reuse it
            lhs, rhs = evaluate_relation(claim, rel, point, p)
        with mpmath.workdps(2 * p + 30):
            diff = _norm(_sub(lhs, rhs))
            mag = max(_norm(lhs), _norm(rhs))
        results.append((lhs, rhs, diff, mag))
    (l1, r1, d1, m1), (_, _, d2, m2) = results
    with mpmath.workdps(2 * dps + 30):
        stable = d1 > 0 and d2 > 0 and abs(d1 - d2) <= mpmath.mpf(10) ** -12 * max(d1, d2)
        if rel.op not in ("==", "!="):
            if stable:  # a genuine gap: its sign decides
                ok = {"<": l1 < r1, "<=": l1 <= r1, ">": l1 > r1, ">=": l1 >= r1}[rel.op]
                status = "agree" if ok else (
                    _confirm_difference(claim, rel, point) if confirm else "differ")
            elif exact_difference_is_zero(claim, rel, point):  # an exact tie
                status = "agree" if rel.op in ("<=", ">=") else "differ"
            else:
                status = "unclear"
            return Outcome(status, 0.0, _fmt(l1, dps), _fmt(r1, dps), float(d1),
                           mpmath.nstr(d1, 6))
        if d1 == 0 and d2 == 0:
            # an exact zero at both precisions may be a tiny quantity lost in rounding
            # (1 + 10**-300 - 1): check exactly, else at four times the precision
            gap = exact_gap(claim, rel, point)
            if gap == "undefined":
                raise Undefined("not defined at this point (exact evaluation)")
            if gap == "zero":
                return Outcome("agree", float(dps), _fmt(l1, dps), _fmt(r1, dps), 0.0)
            if gap == "nonzero":  # a difference below every precision tried, but exact
                return Outcome(_confirm_difference(claim, rel, point), 0.0, _fmt(l1, dps),
                               _fmt(r1, dps), 0.0,
                               "below every precision tried; nonzero exactly")
            l3, r3 = evaluate_relation(claim, rel, point, 4 * dps)
            with mpmath.workdps(8 * dps + 30):  # far below what dps and dps + 20 could see
                zero = _norm(_sub(l3, r3)) <= mpmath.mpf(10) ** (-3 * dps) * max(m1, 1)
            status = "agree" if zero and gap == "unknown" else "unclear"
            return Outcome(status, float(dps), _fmt(l1, dps), _fmt(r1, dps), 0.0)
        digits = float(-mpmath.log10(max(d1, d2) / max(m1, mpmath.mpf(10) ** -dps)))
        tol1 = mpmath.mpf(10) ** -AGREE_DIGITS * max(m1, 1)
        tol2 = mpmath.mpf(10) ** -AGREE_DIGITS * max(m2, 1)
        if stable:
            status = _confirm_difference(claim, rel, point) if confirm else "differ"
        elif d1 <= tol1 and d2 <= tol2:
            # a difference below the noise of the first precision but above that of the
            # second looks like shrinking noise: a third precision tells them apart
            l3, r3 = evaluate_relation(claim, rel, point, dps + 2 * EXTRA)
            with mpmath.workdps(2 * (dps + 2 * EXTRA) + 30):
                d3 = _norm(_sub(l3, r3))
                if d2 > 0 and d3 > 0 and abs(d2 - d3) <= mpmath.mpf(10) ** -12 * max(d2, d3):
                    status = _confirm_difference(claim, rel, point)
                else:
                    status = "agree"
                    digits = max(digits, float(-mpmath.log10(max(d1, d2) / max(m1, 1))))
        elif exact_gap(claim, rel, point) == "undefined":
            # rounding noise over rounding noise at a singular point (a constant x with
            # eps = 0): the claim is not defined there, so the point is skipped, not unclear
            raise Undefined("not defined at this point (exact evaluation)")
        else:
            status = "unclear"
        return Outcome(status, min(digits, float(dps)), _fmt(l1, dps), _fmt(r1, dps),
                       float(d1), mpmath.nstr(d1, 6))


def _confirm_difference(claim: PreparedClaim, rel: Relation, point: Point) -> str:
    """A numeric difference becomes ``differ`` only when exact arithmetic re-verifies it:
    every assumption and hypothesis holds at the point exactly, both sides are real there,
    and the relation fails (:func:`symnorm.engines.exacteval.truth_at`).  A point where a
    side is 0/0 (a hypothesis forcing a constant x with eps = 0) is skipped."""
    from .exacteval import truth_at
    verdict = truth_at(claim, rel, point)
    if verdict is False:
        return "differ"
    if verdict is None and exact_gap(claim, rel, point) == "undefined":
        raise Undefined("not defined at this point (exact evaluation)")
    return "unclear"


def exact_gap(claim: PreparedClaim, rel: Relation, point: Point) -> str:
    """``lhs - rhs`` at the point in exact arithmetic (SymPy): ``zero``, ``nonzero``,
    ``undefined`` (a 0/0 or a non-real value there) or ``unknown``.

    This is how a numeric difference is confirmed before it is called a counterexample: at a
    singular point (a constant vector with eps = 0) rounding noise divided by rounding noise
    can look like a stable value.
    """
    from .anyd import Unsupported
    from .explicit import Explicit, _jacobian_vars
    from .zero import is_zero
    try:
        # everything but the differentiation variables is exact from the start
        jac = _jacobian_vars(rel)
        fixed = {n: _exact_value(v) for n, v in point.values.items() if n not in jac}
        eng = Explicit(claim, point.d, fixed=fixed)
        gap = eng.value(rel.left) - eng.value(rel.right)
        from .exacteval import point_values
        subs = point_values(eng, jac, point)
        if subs:
            gap = gap.subs(subs)
        entries = list(gap) if isinstance(gap, sp.MatrixBase) else [gap]
    except (Unsupported, TypeError, ValueError, ZeroDivisionError, sp.PolynomialError):
        return "unknown"
    if any(e.has(sp.nan, sp.zoo, sp.oo, -sp.oo, sp.I) for e in entries):
        return "undefined"
    if any(e.free_symbols for e in entries):
        return "unknown"
    if any(e.is_Rational and e != 0 for e in entries):
        return "nonzero"  # exact, however small
    if all(is_zero(e) or _algebraic_zero(e) for e in entries):
        return "zero"
    from .exacteval import sign_of
    for e in entries:  # a sign certified by ball arithmetic (SymPy's evalf is not rigorous)
        if sign_of(e) in (1, -1):
            return "nonzero"
    return "unknown"


def exact_difference_is_zero(claim: PreparedClaim, rel: Relation, point: Point) -> bool:
    """Whether ``lhs - rhs`` is exactly 0 at the point; False when unknown."""
    return exact_gap(claim, rel, point) == "zero"


def _algebraic_zero(e: sp.Expr) -> bool:
    """An algebraic constant is 0 exactly when its minimal polynomial is x (sqrt(3+2*sqrt 2)
    - 1 - sqrt 2); False when unknown (transcendental parts, or too big to try)."""
    if e.has(sp.exp, sp.log, sp.Abs) or sp.count_ops(e) > 60:
        return False
    try:
        z = sp.Dummy("z")
        return sp.minimal_polynomial(e, z) == z
    except Exception:  # noqa: BLE001 - NotAlgebraic and friends: not shown to be 0
        return False


def _exact_value(v):
    """A point coordinate as an exact SymPy scalar, column or matrix."""
    if isinstance(v, list):
        if v and isinstance(v[0], list):
            return sp.Matrix([[_exact(x) for x in row] for row in v])
        return sp.Matrix([_exact(x) for x in v])
    return _exact(v)


def _exact(x) -> sp.Expr:
    return sp.Rational(x.numerator, x.denominator) if isinstance(x, Fraction) else x


def _rand_rational(rng: random.Random, lo: Fraction, hi: Fraction) -> Fraction:
    den = rng.choice([1, 2, 3, 4, 5, 7, 8, 10])
    num = rng.randint(int(lo * den), int(hi * den))
    return Fraction(num, den)


def sample_point(claim: PreparedClaim, d: int, rng: random.Random,
                 solver=None, index: int = 2) -> Point | None:
    # the probes cycle every 8 points: +, -, zero/constant, large, tiny, medium magnitudes
    """A random exact-rational point satisfying the simple bounds and the hypotheses."""
    bounds: dict[str, list[tuple[str, Fraction]]] = {}
    for a in claim.assumptions:
        name, op, value = _simple_bound(a)
        if name is not None:
            bounds.setdefault(name, []).append((op, value))
    values: dict[str, Fraction | list[Fraction]] = {}
    for s in claim.scalars:
        bs = bounds.get(s, [])
        fixed = [v for op, v in bs if op == "=="]
        if fixed:
            values[s] = fixed[0]
            continue
        lo, hi = Fraction(-5), Fraction(5)
        for op, v in bs:
            if op in (">", ">="):
                lo = max(lo, v)
                hi = max(hi, v + 5)
            elif op in ("<", "<="):
                hi = min(hi, v)
                lo = min(lo, v - 5)
        special = _special_value(index, rng)
        if special is not None and all(_holds(special, op, v) for op, v in bs):
            values[s] = special
            continue
        for _ in range(50):
            x = _rand_rational(rng, lo, hi)
            if index % 8 < 2 and lo < 0 < hi:  # points 0 and 1 of a cycle: both signs
                x = abs(x) if index % 8 == 0 else -abs(x)
            if x != 0 and all(_holds(x, op, v) for op, v in bs):
                values[s] = x
                break
        else:
            return None
    # every other point uses small vector entries, so constraints such as x.T*x == d
    # leave a real solution for the last component
    for v in claim.vectors:
        special = _special_vector(index % 8, d, rng)
        if special is not None:
            values[v] = special
        elif index % 2 == 0:
            values[v] = [_rand_rational(rng, Fraction(-5), Fraction(5)) for _ in range(d)]
        else:  # small but never all zero
            values[v] = [Fraction(rng.choice((1, -1)) * rng.randint(1, 9), 10 * d)
                         for _ in range(d)]
    for m in claim.matrices:
        values[m] = _special_matrix(index % 8, d, rng) or [
            [_rand_rational(rng, Fraction(-3), Fraction(3)) for _ in range(d)]
            for _ in range(d)]
    point = Point(d, values)
    if claim.given and solver is not None:
        point = solver(point)
    return point


def _special_value(index: int, rng: random.Random) -> Fraction | None:
    """Points 2..7 of each cycle of 8 probe 0, large, tiny, unit-like and medium magnitudes;
    each scalar draws its own sign, except the unit-like values 1, -1, 2, -2, 1/2, -1/2 taken
    in turn by successive cycles (equality cases such as log(a) <= a - 1 at a = 1)."""
    k, cycle = index % 8, index // 8
    if k == 6:
        return (Fraction(1), Fraction(-1), Fraction(2), Fraction(-2), Fraction(1, 2),
                Fraction(-1, 2))[cycle % 6]
    sign = rng.choice((1, -1))
    value = {2: Fraction(0), 3: Fraction(10 ** rng.choice((2, 3))),
             4: Fraction(10 ** rng.choice((2, 3))), 5: Fraction(1, 10 ** rng.choice((3, 6))),
             7: Fraction(rng.randint(6, 40), rng.choice((1, 3)))}.get(k)
    return None if value is None else sign * value


def _special_vector(index: int, d: int, rng: random.Random) -> list[Fraction] | None:
    """Points 2..4 probe degenerate vectors: constant (zero variance), a basis vector, zero."""
    if index == 2:
        return [Fraction(rng.choice((1, -1)) * rng.randint(1, 9), rng.choice((1, 2)))] * d
    if index == 3:
        k = rng.randrange(d)
        return [Fraction(rng.randint(1, 9)) if i == k else Fraction(0) for i in range(d)]
    if index == 4:
        return [Fraction(0)] * d
    return None


def root_points(claim: PreparedClaim, rel: Relation, point: Point, limit: int = 4
                ) -> list[Point]:
    """Points where the two sides are equal along one scalar (the others kept): the exact
    real roots of the gap's numerator, the equality cases of an inequality."""
    from .anyd import Unsupported
    from .explicit import Explicit
    out: list[Point] = []
    for free in claim.scalars:
        fixed = {n: _exact_value(v) for n, v in point.values.items() if n != free}
        try:
            eng = Explicit(claim, point.d, fixed=fixed)
            gap = eng.value(rel.left) - eng.value(rel.right)
            if isinstance(gap, sp.MatrixBase):
                return out
            num = sp.numer(sp.together(gap))
            roots = sp.Poly(num, eng.syms[free]).real_roots() if num.has(eng.syms[free]) \
                else []
        except (Unsupported, sp.PolynomialError, NotImplementedError, TypeError, ValueError):
            continue
        for r in list(dict.fromkeys(roots))[:limit]:
            values = dict(point.values)
            values[free] = Fraction(int(r.p), int(r.q)) if r.is_Rational else r
            out.append(Point(point.d, values, complete=point.complete))
    return out[:limit]


def branch_arguments(rel: Relation) -> list[Expr]:
    """Scalar arguments of abs, sqrt and log in a claim: where branch identities break."""
    return [n.args[0] for n in nodes(rel)
            if isinstance(n, Call) and n.func in ("abs", "sqrt", "log")]


def near_branch(claim: PreparedClaim, point: Point, rng: random.Random, k: int) -> Point:
    """Move one scalar so that the k-th branch argument is +-1/2 (or +-1/1000), the others
    kept: a claim true only where an argument is positive fails just across zero."""
    from .anyd import Unsupported
    from .explicit import Explicit
    args = branch_arguments(claim.relation)
    if not args or not claim.scalars:
        return point
    target = args[k % len(args)]
    fixed = {n: _exact_value(v) for n, v in point.values.items()}
    free = rng.choice(claim.scalars)
    fixed.pop(free, None)
    try:
        eng = Explicit(claim, point.d, fixed=fixed)
        arg = eng.value(target)
        sym = eng.syms[free]
        if isinstance(arg, sp.MatrixBase) or not arg.has(sym):
            return point
        level = sp.Dummy("t")
        p = sp.Poly(sp.numer(sp.together(arg - level)), sym)
    except (Unsupported, sp.PolynomialError, KeyError, TypeError, ValueError):
        return point
    if p.degree() != 1:
        return point
    t = rng.choice((1, -1)) * sp.Rational(1, rng.choice((2, 1000)))
    value = sp.cancel((-p.nth(0) / p.LC()).subs(level, t))
    if not value.is_Rational:
        return point
    values = dict(point.values)
    values[free] = Fraction(int(value.p), int(value.q))
    return Point(point.d, values, complete=point.complete)


def _special_matrix(index: int, d: int, rng: random.Random) -> list | None:
    """Points 2..5 probe the zero matrix, the identity, a rank-one and an antisymmetric one."""
    if index == 2:
        return [[Fraction(0)] * d for _ in range(d)]
    if index == 3:
        return [[Fraction(int(i == j)) for j in range(d)] for i in range(d)]
    if index in (4, 5):
        u = [Fraction(rng.randint(-4, 4)) for _ in range(d)]
        w = [Fraction(rng.randint(-4, 4)) for _ in range(d)]
        if index == 4:
            return [[u[i] * w[j] for j in range(d)] for i in range(d)]
        return [[u[i] * w[j] - u[j] * w[i] for j in range(d)] for i in range(d)]
    return None


def _holds(x: Fraction, op: str, v: Fraction) -> bool:
    return {">": x > v, ">=": x >= v, "<": x < v, "<=": x <= v, "!=": x != v, "==": x == v}[op]


def solve_hypotheses(claim: PreparedClaim, point: Point, root: int = 1) -> Point | None:
    """Make the point satisfy the ``given`` equations by solving for some components.

    ``root`` picks the branch of a quadratic hypothesis; ``point.complete`` is False when
    the solution used divides by a coefficient that may vanish (see ``hypothesis_solution``).
    """
    got = _hypothesis_solution(claim, point.d, root)
    if got is None:
        return None
    eng, sol = got
    subs = {}
    for name, val in point.values.items():
        if name in eng.vec_syms:
            for s, x in zip(eng.vec_syms[name], val):  # type: ignore[arg-type]
                subs[s] = sp.Rational(x.numerator, x.denominator)
        elif name in eng.syms:
            subs[eng.syms[name]] = sp.Rational(val.numerator, val.denominator)  # type: ignore
    free = {k: v for k, v in subs.items() if k not in sol}
    values = dict(point.values)
    for s, expr in sol.items():
        val = expr.xreplace(free)  # simultaneous: subs, one symbol at a time, rebuilt the
        # radicands over and over (red team 19: 60 s on one chain rule at d = 6)
        if val.free_symbols or not val.is_finite or val.is_real is False:
            return None
        # an exact value: rational, or algebraic such as sqrt(17)/2 (kept exact)
        exact = Fraction(int(val.p), int(val.q)) if val.is_Rational else val
        if s in eng.component_of:
            name, idx = eng.component_of[s]
            vec = list(values[name])  # type: ignore[arg-type]
            vec[idx] = exact
            values[name] = vec
        else:
            values[s.name] = exact
    return Point(point.d, values, complete=eng.complete)


#: Solved hypotheses per (claim, d, root) in this worker: the solution (SymPy solving, the
#: costly part of a sample point) depends only on them, never on the point's values
_SOLUTIONS: dict[tuple[int, int, int], tuple[PreparedClaim, object]] = {}
_SOLUTION_CACHE_SIZE = 256


def _hypothesis_solution(claim: PreparedClaim, d: int, root: int):
    """``(engine, solution)`` of the claim's hypotheses at ``d`` (None: cannot solve)."""
    from .anyd import Unsupported
    from .explicit import Explicit
    key = (id(claim), d, root)
    hit = _SOLUTIONS.get(key)
    if hit is not None and hit[0] is claim:  # the claim is kept, so its id is not reused
        return hit[1]
    try:
        eng = Explicit(claim, d)
        got = (eng, eng.hypothesis_solution(root=root))
    except Unsupported:
        got = None
    if len(_SOLUTIONS) >= _SOLUTION_CACHE_SIZE:
        _SOLUTIONS.pop(next(iter(_SOLUTIONS)))
    _SOLUTIONS[key] = (claim, got)
    return got
