"""Numbers at dimensions no vector could reach: the reduced claim sampled at huge d.

The numeric engine builds vectors, so it stops at d = 12 or so for vector claims; a claim
that fails only from d = 13 on would look confirmed.  The any-d reduction turns a claim into
scalars in ``d``, the declared scalars and the Gram symbols; any realizable Gram values can
be put in, at d = 10**3 .. 10**9, using the same parametrization as the SMT step
(``<ones, x> = d m_x``, ``<x, y> = d m_x m_y + sum_j j(j+1) L_xj L_yj``).

This is used only to *withhold* ``confirmed``: a stable difference at a huge d means the
sampled evidence at small d says nothing about every d.  It never refutes (a refutation
needs a point that the original claim can be evaluated at exactly).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import mpmath
import sympy as sp

from ..lang.context import PreparedClaim
from ..lang.syntax import Relation
from .anyd import AnyD, Unsupported, has_entrywise

__all__ = ["LARGE_DS", "large_d_difference"]

LARGE_DS = (10**3, 10**6, 10**9)


def _terms(eng: AnyD, rel: Relation) -> list[sp.Expr]:
    """Scalars whose simultaneous vanishing is ``left == right`` (``left - right`` for an
    inequality)."""
    return eng.difference_terms(eng.value(rel.left), eng.value(rel.right))


def large_d_difference(claim: PreparedClaim, rel: Relation, seed: int,
                       admissible: Callable[[int], bool], points: int = 6,
                       dps: int = 60) -> dict | None:
    """A point at a huge d where the reduced claim clearly fails, or None.

    Points must satisfy every assumption and hypothesis (evaluated the same way); the
    difference must be the same at two precisions.
    """
    if claim.d_value or claim.matrices:
        return None
    entrywise = has_entrywise(claim)
    try:
        eng = AnyD(claim, entrywise=entrywise)
    except Unsupported:
        return None
    eng.subs = {}
    try:
        goal = _terms(eng, rel)
        conds = [(c.op, _terms(eng, c)) for c in (*claim.assumptions, *claim.given)]
    except (Unsupported, TypeError, ValueError):
        return None
    dsym = eng.syms["d"]
    rng = random.Random(seed)
    vecs = list(claim.vectors)
    scalars = [eng.syms[n] for n in claim.scalars if n in eng.syms]
    for d in LARGE_DS:
        if not admissible(d):
            continue
        for _ in range(points):
            vals = {dsym: sp.Integer(d)}
            for s in scalars:
                vals[s] = _rand(rng)
            if entrywise:
                vals.update(_block_moments(eng, d, rng))
                got = _evaluate(goal, conds, vals, rel.op, dps)
                if got is not None:
                    return dict({"d": str(d)}, **{str(s): str(v) for s, v in vals.items()
                                                  if s in scalars}, difference=got)
                continue
            m = {v: _rand(rng) for v in vecs}
            L = {(i, j): _rand(rng) for i in range(len(vecs)) for j in range(i + 1)}
            for (p, q), g in eng.gram.items():
                if not isinstance(g, sp.Symbol) or g == dsym:
                    continue
                if p == "ones":
                    vals[g] = d * m[q]
                elif q == "ones":
                    vals[g] = d * m[p]
                else:
                    i, k = vecs.index(p), vecs.index(q)
                    vals[g] = d * m[p] * m[q] + sum(
                        (j + 1) * (j + 2) * L[(i, j)] * L[(k, j)] for j in range(min(i, k) + 1))
            got = _evaluate(goal, conds, vals, rel.op, dps)
            if got is not None:
                where = {"d": str(d)}
                where.update({str(s): str(v) for s, v in vals.items()
                              if s in scalars})
                return dict(where, difference=got)
    return None


def _block_moments(eng: AnyD, d: int, rng: random.Random) -> dict[sp.Symbol, sp.Expr]:
    """Values of every Gram symbol and moment of ``eng`` realized by vectors of dimension d
    that are constant on three blocks of entries (sizes n_1 + n_2 + n_3 = d, one value per
    block and vector): ``<1, b_m> = sum_j n_j prod_p a_pj``.  Entrywise moments of degree 3
    and more are tied to nothing else, so only such a realization gives consistent values."""
    sizes = [rng.randint(1, d // 3) for _ in range(2)]
    sizes.append(d - sum(sizes))
    a = {v: [_rand(rng) for _ in sizes] for v in eng.claim.vectors}
    out: dict[sp.Symbol, sp.Expr] = {}
    for sym, m in eng.monomial_of.items():
        total = sp.Integer(0)
        for j, n in enumerate(sizes):
            prod = sp.Integer(n)
            for p in m:
                prod *= a[p][j]
            total += prod
        out[sym] = total
    return out


def _rand(rng: random.Random) -> sp.Rational:
    return sp.Rational(rng.randint(-40, 40), rng.choice([1, 2, 3, 5, 7]))


def _sign(e: sp.Expr, vals: dict) -> int | None:
    """The exact sign of ``e`` at rational ``vals`` (arb balls): -1, 0, 1, or None."""
    from .exacteval import sign_of
    try:
        return sign_of(sp.sympify(e).subs(vals))
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def _evaluate(goal, conds, vals, op, dps) -> str | None:
    """The difference as text when the claim fails at ``vals`` (signs decided exactly by
    ball arithmetic, however small the difference: exp(-10**6) against 10**-500); else
    None. Every assumption and hypothesis must hold there, also exactly."""
    for cop, terms in conds:
        signs = [_sign(t, vals) for t in terms]
        if any(g is None for g in signs):
            return None
        ok = all(g == 0 for g in signs) if cop == "==" else \
            any(g != 0 for g in signs) if cop == "!=" else \
            {"<": signs[0] < 0, "<=": signs[0] <= 0, ">": signs[0] > 0,
             ">=": signs[0] >= 0}[cop]
        if not ok:
            return None
    signs = [_sign(t, vals) for t in goal]
    if any(g is None for g in signs):
        return None
    if op == "==":
        failed = any(g != 0 for g in signs)
    elif op == "!=":
        return None  # an existential claim: a point where it holds is not a failure
    else:
        g = signs[0]
        failed = not {"<": g < 0, "<=": g <= 0, ">": g > 0, ">=": g >= 0}[op]
    if not failed:
        return None
    worst = next(t for t, g in zip(goal, signs) if g != 0 or op != "==")
    with mpmath.workdps(dps):
        return str(sp.N(sp.sympify(worst).subs(vals), 8))
