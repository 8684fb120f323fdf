"""A claim evaluated in exact arithmetic at one point: the re-verification of solver models.

The explicit engine builds the claim at the point's d with symbolic coordinates only for
the variables it differentiates with respect to (so a derivative is taken before any value
is put in); everything else is the point's exact value (rationals, or exact algebraic
numbers).  Each assumption and hypothesis must hold exactly, both sides must be real
numbers, and the relation's truth is decided by the radical-aware zero test and, for a
nonzero difference, by a sign that SymPy certifies (``evalf(strict=True)``).

>>> from symnorm.lang.document import parse_text
>>> from symnorm.engines.numclaim import Point
>>> from fractions import Fraction as F
>>> doc = parse_text("```symnorm\\nscalar a\\nclaim c: a**2 >= 4*a - 3\\n```\\n")
>>> c = doc.scope.claims[0]
>>> truth_at(c, c.relation, Point(2, {"a": F(2)}))
False
>>> truth_at(c, c.relation, Point(2, {"a": F(3)}))
True
"""

from __future__ import annotations

import sympy as sp

from ..lang.context import PreparedClaim
from ..lang.syntax import Relation
from .anyd import Unsupported

__all__ = ["sign_of", "truth_at"]


def sign_of(e: sp.Expr) -> int | None:
    """-1, 0 or 1 for an exact real constant; None when it is not real or not decided."""
    from .numclaim import _algebraic_zero
    from .zero import is_zero
    if not isinstance(e, sp.Expr) or e.free_symbols:
        return None
    if e.has(sp.nan, sp.zoo, sp.oo, -sp.oo, sp.I):
        return None
    if e.is_Rational:
        return int(bool(e > 0)) - int(bool(e < 0))
    try:
        zero = is_zero(e) or _algebraic_zero(e)
    except Exception:  # noqa: BLE001 - e.g. NotAlgebraic: the sign test below decides
        zero = False
    if zero:
        return 0
    got = arb_sign(e)
    if got is not None or not e.has(sp.CRootOf):
        return got
    for prec in (40, 200):  # algebraic roots: SymPy isolates them rigorously
        try:
            val = e.evalf(prec, strict=True, maxn=4000)
        except (sp.core.evalf.PrecisionExhausted, TypeError, ValueError):
            continue
        if val.is_Number and val != 0 and not val.has(sp.I):
            return 1 if bool(val > 0) else -1
    return None


def arb_sign(e: sp.Expr, max_bits: int = 1 << 15) -> int | None:
    """The sign of a nonzero real constant by ball arithmetic (python-flint's arb), raising
    the precision until the ball excludes 0; None when it never does (0, or too close).

    SymPy's ``evalf`` is not rigorous here: ``log(1 + exp(-800))`` evaluates to 0 even with
    ``strict=True``; arb's balls always contain the true value."""
    from .smt import OutsideFragment, _arb
    try:
        import flint
    except ImportError:  # pragma: no cover - python-flint is a dependency
        return None
    old = flint.ctx.prec
    bits = 128
    try:
        while bits <= max_bits:
            flint.ctx.prec = bits
            try:
                ball = _arb(e, flint)
            except (OutsideFragment, ValueError, TypeError, ZeroDivisionError):
                return None
            if ball.is_finite() and not ball.contains(0):
                return 1 if ball > 0 else -1
            bits *= 4
        return None
    finally:
        flint.ctx.prec = old


def point_values(eng, names: set[str], point) -> dict:
    """The point's values of ``names`` keyed by the explicit engine's symbols (vector
    components included): what goes in after differentiating."""
    from .numclaim import _exact
    out = {}
    for name in names & set(point.values):
        val = point.values[name]
        if name in eng.vec_syms:
            out.update({s: _exact(x) for s, x in zip(eng.vec_syms[name], val)})
        elif name in eng.syms:
            out[eng.syms[name]] = _exact(val)
    return out


def _values(claim: PreparedClaim, rel: Relation, point) -> tuple[list, list] | None:
    from .explicit import Explicit, _jacobian_vars, aligned
    from .numclaim import _exact_value
    jac = _jacobian_vars(rel)
    fixed = {n: _exact_value(v) for n, v in point.values.items() if n not in jac}
    eng = Explicit(claim, point.d, fixed=fixed)
    # the point carries every value (assumptions are checked, not imposed); the
    # differentiation variables' values go in after differentiating, as assumed values do,
    # so a derivative with sign(g) is accepted where g is nonzero at the point
    subs = eng.subs = point_values(eng, jac, point)
    left, right = aligned(eng.value(rel.left), eng.value(rel.right))

    def flat(v) -> list:
        items = list(v) if isinstance(v, sp.MatrixBase) else [v]
        return [sp.sympify(x).subs(subs) if subs else sp.sympify(x) for x in items]
    if not _defined_as_written(eng, rel, subs):
        return None
    return flat(left), flat(right)


def _defined_as_written(eng, rel: Relation, subs: dict) -> bool:
    """Whether the relation AS WRITTEN is defined at the point
    (:func:`symnorm.engines.domain.domain_conditions`, each sign decided exactly)."""
    from .domain import domain_conditions
    for v, op in domain_conditions(eng, rel):
        sg = sign_of(v.subs(subs) if subs else v)
        if sg is None or not {">=": sg >= 0, ">": sg > 0, "!=": sg != 0}[op]:
            return False
    return True


def truth_at(claim: PreparedClaim, rel: Relation, point) -> bool | None:
    """Whether ``rel`` holds at ``point`` exactly, with every assumption and hypothesis of
    the claim holding there; None when that cannot be established (undefined, undecided,
    or the point does not satisfy the claim's assumptions)."""
    try:
        for cond in (*claim.assumptions, *claim.given):
            if _holds(claim, cond, point) is not True:
                return None
        return _holds(claim, rel, point)
    except (Unsupported, TypeError, ValueError, ZeroDivisionError, sp.PolynomialError):
        return None


def _holds(claim: PreparedClaim, rel: Relation, point) -> bool | None:
    got = _values(claim, rel, point)
    if got is None:
        return None
    left, right = got
    if len(left) != len(right):
        return None
    signs = [sign_of(a - b) for a, b in zip(left, right)]
    for a, b in zip(left, right):  # both sides must be real numbers at the point
        if sign_of(a) is None and not _is_real_number(a) or \
                sign_of(b) is None and not _is_real_number(b):
            return None
    if rel.op in ("==", "!="):
        if any(s not in (0,) and s is not None for s in signs):
            equal = False
        elif all(s == 0 for s in signs):
            equal = True
        else:
            return None
        return equal if rel.op == "==" else not equal
    s = signs[0]
    if s is None:
        return None
    return {"<": s < 0, "<=": s <= 0, ">": s > 0, ">=": s >= 0}[rel.op]


def _is_real_number(e: sp.Expr) -> bool:
    return isinstance(e, sp.Expr) and not e.free_symbols and not e.has(
        sp.nan, sp.zoo, sp.oo, -sp.oo, sp.I)
