"""The text printer of ``symnorm derive`` (reads a :class:`~symnorm.derivation.Derivation`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy

__all__ = ["render"]

#: Exact matrices are printed up to this d; decimals up to DECIMAL_MAX_D.
EXACT_MAX_D, DECIMAL_MAX_D = 6, 10


def render(res: Any, matrix: Callable, vec: Callable, num: Callable) -> str:
    """Render every section of the worked example as plain text."""
    eng, d = res.engine, res.engine.d
    kind = "LayerNorm" if eng.center else "RMSNorm"
    out: list[str] = []
    add = out.append
    add(f"symnorm derive: {kind}, d = {d}, eps = {eng.eps}, x = {vec(res.x)}")
    add("")
    if eng.center:
        add("Centering projector P = I - 1 1^T/d")
        if d <= EXACT_MAX_D:
            add(matrix([[sympy.sstr(e) for e in row] for row in eng.P.tolist()]))
        else:
            add(f"    diagonal {sympy.Rational(d - 1, d)}, off-diagonal {sympy.Rational(-1, d)}")
    n = "d" if eng.n == d else "(d-1)"
    J = "J"
    if eng.center or not eng.inside:
        add(f"c = {'P x' if eng.center else 'x'}            = {vec(eng.c)}")
        add(f"v = c^T c/{n}        = {eng.v}")
        sname = "s = sqrt(v + eps)" if eng.inside else "r = sqrt(v)      "
        add(f"{sname}  = {eng.s}  ~ {num(eng.s)}")
        add(f"N(x) = c/{'s' if eng.inside else '(r + eps)'}      = {vec(eng.N)}")
    else:  # the names of `use rmsnorm`, so the output reads like the documents' claims
        J = "Jr"
        add("Names as in `use rmsnorm`: r, RMS(y) = y/r, Jr = jacobian(RMS(x), x)")
        add(f"x^T x/{n}                 = {eng.v}")
        add(f"r = sqrt(x^T x/{n} + eps)  = {eng.s}  ~ {num(eng.s)}")
        add(f"RMS(x) = x/r              = {vec(eng.N)}")
    add(f"                 ~ {vec([num(e) for e in eng.N])}")
    add("")
    what = "dN/dx" if J == "J" else "dRMS(x)/dx"
    add(f"Jacobian {J} = {what}, obtained by differentiation (forward-mode, exact):")
    if d <= EXACT_MAX_D:
        add(matrix([[sympy.sstr(e) for e in row] for row in res.jacobian_exact.tolist()]))
    else:
        add("    (exact entries: see --json, key jacobian_exact)")
    if d <= DECIMAL_MAX_D:
        add("  in decimals:")
        add(matrix([[repr(f) for f in row] for row in res.jacobian_floats]))
    add("")
    add(f"Eigen-decomposition of {J} (exact):")
    for es in res.eigen:
        vecs = es.vectors
        shown = ", ".join(vec(v) for v in vecs[:3]) + (", ..." if len(vecs) > 3 else "")
        add(f"  {sympy.sstr(es.value)}  ~ {num(es.value)}   multiplicity {es.multiplicity}, "
            f"on {es.direction}")
        if vecs:
            add(f"      eigenvectors: {shown}")
    add("")
    for title, checks in ((f"Proved exactly at d = {d} for every x (symbolic x1..x{d})",
                           res.checks_symbolic),
                          (f"Proved exactly at x = {vec(res.x)}", res.checks_point)):
        if checks is None:
            add(f"{title}: skipped (d > 24; the point proofs below still run)")
            continue
        add(title + ":")
        for c in checks:
            mark = "proved " if c.holds else "FAILED "
            add(f"  [{mark}] {c.statement}" + (f"   ({c.detail})" if c.detail else ""))
    add("")
    add("Proved for every d (claim checker):")
    if res.any_d is None:
        add(f"  not run: {res.any_d_note}")
    else:
        add(f"  {res.any_d_note}")
        for row in res.any_d:
            scope = f"  [{row['scope']}]" if row["scope"] else ""
            add(f"  {row['status']:>11}  {row['label']}{scope}")
    add("")
    nm = res.numeric
    add(f"Numeric cross-check (mpmath, {nm.dps} digits; central differences with step "
        f"h = {sympy.Float(str(nm.step), 3)} at {nm.workdps} working digits):")
    add(f"  max |{J}_fd - {J}| = {sympy.Float(str(nm.max_abs_error), 6)}   "
        f"({nm.agreeing_digits} agreeing digits)")
    add(f"  float64, step 1e-6 (the paper's check): {nm.float64_error!r}")
    add("")
    c0 = res.companion[0]
    add(f"BatchNorm companion (two-sample batch, population variance, eps = {c0['eps']}):")
    for c in res.companion:
        add(f"  BN(0; {{0, {c['b']}}}) = {c['exact']}  = {c['float64']!r}")
    add("")
    add("timings: " + ", ".join(f"{k} {v:.3f}s" for k, v in res.timings.items()))
    return "\n".join(out)
