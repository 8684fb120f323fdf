"""The exact proofs the explicit engine runs at one concrete d (see :func:`run_checks`).

Each check forms a difference from the differentiated Jacobian and reduces it to zero with
``s**2 = W``, ``W = v + eps`` and (centered maps) ``c_1 + ... + c_d = 0``; nothing is
simplified numerically.  A check that does not reduce to zero reports ``holds=False``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sympy.polys.domains import QQ

if TYPE_CHECKING:  # pragma: no cover
    from .exact import Check, ExactEngine
    from .surd import Surd

__all__ = ["run_checks"]


def _mat_zero(eng: ExactEngine, A: list[list[Surd]], B: list[list[Surd]]) -> tuple[bool, str]:
    for i, (ra, rb) in enumerate(zip(A, B)):
        for j, (a, b) in enumerate(zip(ra, rb)):
            if not eng.is_zero(a - b):
                return False, f"entry ({i + 1}, {j + 1}) differs"
    return True, f"all {eng.d * eng.d} entries reduce to 0"


def _eigen_check(eng: ExactEngine, vec: list[Any], lam: Surd) -> tuple[bool, str]:
    Jv = eng._matvec(eng.jacobian_surd, vec)
    for i, (e, vk) in enumerate(zip(Jv, vec)):
        if not eng.is_zero(e - lam * vk if vk else e):
            return False, f"component {i + 1} differs"
    return True, ""


def _basis_check(eng: ExactEngine, basis: list[list[Any]]) -> tuple[bool, str]:
    """The complement vectors are orthogonal to 1 and c (or x) and independent.

    Independence is structural: each vector has a pivot coordinate where it alone (among the
    complement vectors) is nonzero; with 1 orthogonal to c this gives a basis of R^d wherever
    the pivots and c are nonzero.
    """
    alg = eng._st.alg
    cv = eng._st.cvals
    for k, u in enumerate(basis):
        dot_c = alg.const(sum((ui * ci for ui, ci in zip(u, cv) if ui), alg.zero_f))
        if not eng.is_zero(dot_c):
            return False, f"complement vector {k + 1} is not orthogonal to c"
        if eng.center and not eng.is_zero(alg.const(sum(u, alg.zero_f))):
            return False, f"complement vector {k + 1} is not orthogonal to 1"
    pivots = []
    for k, u in enumerate(basis):
        own = [i for i in range(eng.d) if u[i] and all(not basis[m][i]
                                                          for m in range(len(basis)) if m != k)]
        if not own:
            return False, f"complement vector {k + 1} has no pivot coordinate"
        pivots.append(own[0])
    if not basis:
        return True, f"no complement vectors at d = {eng.d}"
    if eng.symbolic:
        where = "c1 != c2" if eng.center else "x1 != 0"
        return True, (f"{_vectors(len(basis))}, independent wherever {where} "
                      "(pivot coordinates)")
    return True, (f"{_vectors(len(basis)).replace(' ', ' independent ')} (pivot coordinates "
                  f"{[p + 1 for p in pivots]})")


def _vectors(n: int) -> str:
    """``1 vector``, ``2 vectors``."""
    return f"{n} vector" + ("" if n == 1 else "s")


def run_checks(eng: ExactEngine, closed: list[list[Surd]] | None = None,
               progress: Callable[[str], None] | None = None) -> list[Check]:
    """Prove the closed form, the eigen-relations, symmetry, trace and the projector laws;
    ``progress`` is told the name of each check as it starts (a display at large d)."""
    from .exact import Check

    def step(name: str) -> None:
        if progress is not None:
            progress(name)
    alg, d = eng._st.alg, eng.d
    J = eng.jacobian_surd
    out: list[Check] = []
    # RMSNorm (eps inside) is named as `use rmsnorm` names it: r, Jr, x
    rms = not eng.center and eng.inside
    r, Jn = ("r", "Jr") if rms else ("s", "J")
    sq = f"{r}**3" if eng.inside else "t**2"
    den = r if eng.inside else "t"
    A = "P" if eng.center else "I"
    step("closed form")
    holds, detail = _mat_zero(eng, J, closed if closed is not None else eng.closed_form())
    cc = "x x^T" if rms else "c c^T"
    rank_one = f"{cc}/({'d' if eng.n == d else 'n'} {r}**3)" if eng.inside else \
        "c c^T/(n r t**2)"
    out.append(Check("closed_form", f"{Jn} == {A}/{den} - {rank_one}", holds, detail))
    step("symmetry")
    Jt = [[J[j][i] for j in range(d)] for i in range(d)]
    out.append(Check("symmetric", f"{Jn} == {Jn}^T", *_mat_zero(eng, J, Jt)))
    lam_c, lam_u = eng.lambdas()
    if eng.center:
        step("J 1 = 0")
        ones = [alg.one_f] * d
        out.append(Check("null_ones", "J 1 == 0", *_eigen_check(eng, ones, alg.const(0))))
    cv = eng._st.cvals
    name = "c" if eng.center else "x"
    if any(cv) or eng.symbolic:
        step(f"eigenvector {name}")
        out.append(Check("eigen_radial", f"{Jn} {name} == (eps/{sq}) {name}",
                         *_eigen_check(eng, list(cv), lam_c)))
    basis = eng.complement_basis()
    perp = "1 and c" if eng.center else "x"
    ok, why = True, (_vectors(len(basis)) if basis else f"no vectors to check at d = {d}")
    for k, u in enumerate(basis):
        step(f"eigenvectors of the complement ({k + 1} of {len(basis)})")
        good, msg = _eigen_check(eng, u, lam_u)
        if not good:
            ok, why = False, f"vector {k + 1}: {msg}"
            break
    out.append(Check("eigen_complement", f"{Jn} u == u/{den} for u orthogonal to {perp}", ok,
                     why))
    step("eigenbasis")
    out.append(Check("eigenbasis", f"1, {name} and the u's form a basis" if eng.center
                     else "x and the u's form a basis", *_basis_check(eng, basis)))
    step("trace")
    trace = alg.const(0)
    for i in range(d):
        trace = trace + J[i][i]
    mult = d - 2 if eng.center else d - 1
    expected = lam_u * QQ(mult) + lam_c
    # the complement's share mult/den, written without a 0 or a 1 in front
    share = "" if mult == 0 else f"1/{den} + " if mult == 1 else f"{mult}/{den} + "
    out.append(Check("trace", f"tr {Jn} == {share}eps/{sq}",
                     eng.is_zero(trace - expected), ""))
    if eng.center:
        step("projector laws")
        P = [[(QQ(1) if i == j else QQ(0)) - QQ(1, d) for j in range(d)] for i in range(d)]
        out.append(Check("projector", "P**2 == P, P^T == P, P 1 == 0",
                         _idempotent(P) and all(P[i][j] == P[j][i] for i in range(d)
                                                for j in range(i)) and
                         all(sum(row, QQ(0)) == 0 for row in P), "exact rationals"))
    return out


def _idempotent(P: list[list[Any]]) -> bool:
    """``P @ P == P`` in exact rationals: python-flint's ``fmpq_mat`` product (d = 512 in a
    fraction of a second instead of d**3 Python operations), else the plain sum."""
    d = len(P)
    try:
        import flint
        if os.environ.get("SYMNORM_POLYS", "auto") == "sympy":
            raise ImportError("the pure-SymPy fallback was asked for")
    except ImportError:
        return all(sum((P[i][k] * P[k][j] for k in range(d)), QQ(0)) == P[i][j]
                   for i in range(d) for j in range(d))
    def fq(q: Any):
        return flint.fmpq(int(q.numerator), int(q.denominator))
    M = flint.fmpq_mat(d, d, [fq(q) for row in P for q in row])
    return M * M == M
