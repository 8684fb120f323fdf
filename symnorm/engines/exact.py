"""The explicit engine: a normalized map at concrete d, its Jacobian by differentiation, proofs.

For a spec with concrete ``d`` (LayerNorm with centering, or RMSNorm when ``spec.center`` is
False; eps inside ``sqrt(v + eps)`` or outside ``sqrt(v) + eps``; variance denominator ``N``
or ``N-1``) and either symbolic ``x`` (symbols ``x1..xd``) or a concrete rational point, the
engine builds ``c``, ``v``, ``s`` and ``N(x)``, differentiates ``N`` by forward-mode
automatic differentiation (sum, product and quotient rules, and ``ds/dx_j = (dW/dx_j)/(2 s)``
for the square root), and proves the closed form and the eigen-relations exactly.

Three devices keep this fast without simplifying any radical:

* ``s`` is kept as a symbol and every quantity is an element ``a + b*s`` reduced with
  ``s**2 = W`` (:mod:`symnorm.engines.surd`), where ``W`` is itself a free symbol standing
  for ``v + eps`` (``v`` when eps sits outside the root).  The relation ``W = v + eps`` is
  substituted only into the numerators of a difference that did not already cancel.
* Polynomials are sparse (python-flint's ``fmpq_mpoly`` when installed, SymPy's rings
  otherwise; :mod:`symnorm.engines.polys`), in fractions whose monomial denominators are
  cancelled without a gcd (:mod:`symnorm.engines.wfrac`).
* With symbolic ``x`` the polynomials are written in the centered coordinates
  ``c_k = x_k - mean(x)`` (chain rule ``dc_k/dx_j = P_kj``), so ``c_i c_j`` is one monomial
  instead of ``d**2/2``.  ``c_1..c_{d-1}`` are free and ``c_d = -(c_1 + ... + c_{d-1})``
  (c ranges over all of 1-perp), so ``1^T c = 0`` holds identically.

``W = v + eps`` is a specialisation, so a difference that reduces to zero is an identity of
the map wherever it is differentiable (``W > 0``): the proofs are sound.  (Conversely a
nonzero remainder refutes the identity unless ``v + eps`` is a perfect square, which happens
only for eps = 0 at d = 2.)

>>> from symnorm.spec import layer_norm
>>> from sympy import Rational
>>> eng = ExactEngine(layer_norm(3, Rational(1, 10)), [1, 2, 4])
>>> eng.s
sqrt(1490)/30
>>> all(c.holds for c in eng.verify())
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

import sympy
from sympy.polys.domains import QQ

from ..errors import LimitError, SpecError
from ..spec import NormSpec, as_rational
from .exact_views import ExactViews
from .surd import Dual, Surd, SurdAlgebra, sqrt_of_named
from .wfrac import WField

__all__ = ["MAX_CONCRETE_D", "MAX_SYMBOLIC_D", "Check", "EigenSpace", "ExactEngine"]

#: Largest d with symbolic x (d = 64 takes a few seconds).
MAX_SYMBOLIC_D = 96
#: Largest d with a concrete point (d**2 exact entries).
MAX_CONCRETE_D = 512


@dataclass(frozen=True)
class Check:
    """One exact identity checked at this d: ``holds`` is True only when it reduced to zero."""

    label: str
    statement: str
    holds: bool
    detail: str = ""


@dataclass(frozen=True)
class EigenSpace:
    """An eigenvalue of J with its exact eigenvectors (columns) and what the direction is."""

    value: sympy.Expr
    vectors: tuple[sympy.Matrix, ...]
    direction: str

    @property
    def multiplicity(self) -> int:
        return len(self.vectors)


@dataclass
class _Setup:
    alg: SurdAlgebra
    cvals: list[Any]                 # base-field values of c (or x for RMSNorm)
    W: Any
    vpoly: Any = None                # base element v (symbolic) used in the W relation
    gens: list[Any] = dc_field(default_factory=list)
    W_gen: Any = None


class ExactEngine(ExactViews):
    """Exact Jacobian, closed form, spectrum and proofs for ``spec`` at symbolic or rational x."""

    def __init__(self, spec: NormSpec, x: Sequence[Any] | None = None, *,
                 polys: str | None = None) -> None:
        d = spec.d
        if d is None:
            raise SpecError("the explicit engine needs a concrete d (got symbolic d)")
        self.spec, self.d = spec, d
        self.n = d if spec.var_denominator == "N" else d - 1
        self.eps = sympy.Rational(spec.eps)
        self.center, self.inside = spec.center, spec.eps_inside
        self.symbolic = x is None
        self._polys = polys  # "flint", "sympy" or None (flint when installed)
        if self.symbolic and d > MAX_SYMBOLIC_D:
            raise LimitError(f"symbolic x is limited to d <= {MAX_SYMBOLIC_D} (got d={d})")
        if not self.symbolic and d > MAX_CONCRETE_D:
            raise LimitError(f"a concrete point is limited to d <= {MAX_CONCRETE_D} (got d={d})")
        if self.symbolic:
            self.x = tuple(sympy.symbols(f"x1:{d + 1}"))
            self._st = self._setup_symbolic()
        else:
            if len(x) != d:
                raise SpecError(f"x must have d={d} entries (got {len(x)})")
            self.x = tuple(as_rational(xi, f"x[{i + 1}]") for i, xi in enumerate(x))
            self._st = self._setup_concrete()
        self._wp: Any = None
        self._jac = self._differentiate()

    # ---- construction --------------------------------------------------------------------
    def _centering_grad(self) -> list[list[Any]]:
        # derivative of x_i - (x_1 + ... + x_d)/d (or of x_i itself, RMSNorm) w.r.t. x_j
        d = self.d
        off = QQ(1, d) if self.center else QQ(0)
        return [[(QQ(1) if i == j else QQ(0)) - off for j in range(d)] for i in range(d)]

    def _setup_symbolic(self) -> _Setup:
        # Centered maps: c lies in 1-perp, so c_1..c_{d-1} are free and c_d = -(c_1+...+c_{d-1});
        # then 1^T c = 0 holds identically and only W = v + eps is left as a relation.
        d = self.d
        free = d - 1 if self.center else d
        names = [f"{'c' if self.center else 'x'}{k}" for k in range(1, free + 1)] + ["W"]
        K = WField(names, self._polys)
        gens = K.gens
        W = gens[free]
        cvals = list(gens[:free])
        if self.center:
            cvals.append(-sum(cvals, K.zero))
        vpoly = sum((ck * ck for ck in cvals), K.zero) / self.n
        return _Setup(SurdAlgebra(K, W), cvals, W, vpoly, list(gens[:free]), W)

    def _setup_concrete(self) -> _Setup:
        d = self.d
        xq = [QQ.convert(xi) for xi in self.x]
        mean = sum(xq, QQ(0)) / d if self.center else QQ(0)
        cvals = [xi - mean for xi in xq]
        v = sum((ck * ck for ck in cvals), QQ(0)) / self.n
        W = v + QQ.convert(self.eps) if self.inside else v
        if W == 0:
            self._raise_singular()
        return _Setup(SurdAlgebra(QQ, W), cvals, W)

    def _raise_singular(self) -> None:
        point = f"x = ({', '.join(map(str, self.x))})"
        if self.center:
            what, other = "has zero variance", "an x whose entries are not all equal"
        else:
            what, other = "is the zero vector", "a nonzero x"
        if self.inside:
            raise SpecError(
                f"{point} {what} and eps = 0: N(x) divides by sqrt(v + eps) = 0, so N and its "
                f"Jacobian do not exist there (accepted: eps > 0, or {other})")
        raise SpecError(
            f"{point} {what}: with eps outside the root, sqrt(v) is not differentiable at "
            f"v = 0 (accepted: {other})")

    def _differentiate(self) -> list[list[Surd]]:
        st, alg = self._st, self._st.alg
        grads = self._centering_grad()
        cs = [Dual(alg.const(ck), [alg.const(g) for g in row])
              for ck, row in zip(st.cvals, grads)]
        v = cs[0] * cs[0]
        for ck in cs[1:]:
            v = v + ck * ck
        v = v.scale(QQ(1, self.n))
        # W names v + eps (or v): same gradient, value replaced by the symbol/number W
        w = Dual(alg.const(st.W), v.grad)
        s = sqrt_of_named(alg, w)
        t = s if self.inside else s.shift(QQ.convert(self.eps))
        inv_t = t.reciprocal()
        self._N = [ck * inv_t for ck in cs]
        return [Nk.grad for Nk in self._N]

    # ---- exact zero test -----------------------------------------------------------------
    def _base_zero(self, e: Any) -> bool:
        if not e:
            return True
        if not self.symbolic:
            return False
        B = e.field.B
        num, den = e.numer, e.denom
        if B.degree_last(num) <= 0:
            return False  # no W left to substitute: a nonzero polynomial in free coordinates
        # a single term k*W**j never vanishes (v + eps is not the zero polynomial)
        if len(den) > 1 and not B.compose_last(den, self._w_poly()):
            raise ZeroDivisionError("denominator vanishes under W = v + eps")
        return not B.compose_last(num, self._w_poly())

    def _w_poly(self) -> Any:
        # v + eps (or v) as a polynomial: the value the symbol W stands for
        if self._wp is None:
            w = self._st.vpoly + (QQ.convert(self.eps) if self.inside else QQ(0))
            B = w.field.B
            self._wp = B.scale(w.numer, 1 / B.lc(w.denom))
        return self._wp

    def is_zero(self, e: Surd) -> bool:
        """Exact test that ``a + b*s`` is 0 using ``s**2 = W``, ``W = v + eps`` and ``1^T c = 0``."""
        if e.is_structurally_zero():
            return True
        if not self.symbolic:
            ok, root = _rational_sqrt(self._st.W)
            if ok:
                return e.a + e.b * root == 0
            return False
        return self._base_zero(e.a) and self._base_zero(e.b)

    # ---- the objects of the paper ------------------------------------------------------------
    @property
    def jacobian_surd(self) -> list[list[Surd]]:
        """J as a d x d list of exact ``a + b*s`` entries (row i, column j = dN_i/dx_j)."""
        return self._jac

    def _surd_c(self) -> list[Surd]:
        return [self._st.alg.const(ck) for ck in self._st.cvals]

    def lambdas(self) -> tuple[Surd, Surd]:
        """Eigenvalues ``(along c, on the complement)``: ``(eps/s**3, 1/s)`` or ``(eps/t**2, 1/t)``."""
        alg = self._st.alg
        s = alg.s
        if self.inside:
            inv_s = s.inverse()
            return inv_s * inv_s * inv_s * QQ.convert(self.eps), inv_s
        inv_t = (s + QQ.convert(self.eps)).inverse()
        return inv_t * inv_t * QQ.convert(self.eps), inv_t

    def closed_form(self, variant: str = "paper") -> list[list[Surd]]:
        """The closed form ``A/s - c c^T/(n s**3)`` (``A/t - c c^T/(n s t**2)``, t = s + eps).

        ``A`` is P (centered) or I (RMSNorm), ``n`` the variance denominator.  ``variant`` builds
        deliberately wrong forms for mutant tests: ``"no_rank_one"``, ``"wrong_power"``
        (``s**2``), ``"wrong_sign"``, ``"identity"`` (I instead of P), ``"d_not_n"``.
        """
        alg, d = self._st.alg, self.d
        c = self._surd_c()
        s = alg.s
        inv_s = s.inverse()
        n = QQ(self.d) if variant == "d_not_n" else QQ(self.n)
        if self.inside:
            lead = inv_s
            k = inv_s * inv_s * (inv_s if variant != "wrong_power" else alg.const(1)) / n
        else:
            inv_t = (s + QQ.convert(self.eps)).inverse()
            lead = inv_t
            k = inv_s * inv_t * inv_t / n
        if variant == "wrong_sign":
            k = -k
        center = self.center and variant != "identity"
        out = []
        for i in range(d):
            row = []
            for j in range(d):
                a = (QQ(1) if i == j else QQ(0)) - (QQ(1, d) if center else QQ(0))
                e = lead * a
                if variant != "no_rank_one":
                    e = e - c[i] * c[j] * k
                row.append(e)
            out.append(row)
        return out

    def complement_basis(self) -> list[list[Any]]:
        """An exact basis of the complement of span{1, c} (of x for RMSNorm), as base elements.

        Centered: on coordinates (a, b, k) the vector ``(c_k - c_b, c_a - c_k, c_b - c_a)``
        (the cross product of 1 and c there), for every k other than a pivot pair (a, b) with
        ``c_a != c_b``; coordinate k occurs in no other vector, so they are independent.
        RMSNorm: ``x_k e_a - x_a e_k`` with ``x_a != 0``.  Symbolic x uses a, b = 1, 2.
        """
        cv, d, zero = self._st.cvals, self.d, self._st.alg.zero_f
        if self.center:
            pair = (0, 1)
            if not self.symbolic:
                pair = next(((a, b) for a in range(d) for b in range(a + 1, d)
                             if cv[a] != cv[b]), None)
                if pair is None:  # c = 0: the whole of 1-perp
                    return [[(1 if i == 0 else -1 if i == k else 0) * self._st.alg.one_f
                             for i in range(d)] for k in range(1, d)]
            a, b = pair
            basis = []
            for k in range(d):
                if k in pair:
                    continue
                u = [zero] * d
                u[a], u[b], u[k] = cv[k] - cv[b], cv[a] - cv[k], cv[b] - cv[a]
                basis.append(u)
            return basis
        a = 0 if self.symbolic else next((i for i in range(d) if cv[i]), None)
        if a is None:
            return [[self._st.alg.one_f if i == k else zero for i in range(d)]
                    for k in range(d)]
        basis = []
        for k in range(d):
            if k == a:
                continue
            u = [zero] * d
            u[a], u[k] = cv[k], -cv[a]
            basis.append(u)
        return basis

    def _matvec(self, J: list[list[Surd]], vec: Sequence[Any]) -> list[Surd]:
        alg = self._st.alg
        if self.symbolic and all(not vk or vk.denom == vk.field.B.one for vk in vec):
            return [Surd(alg, _dot_common_den(alg.field, [e.a for e in row], vec),
                         _dot_common_den(alg.field, [e.b for e in row], vec)) for row in J]
        out = []
        for row in J:
            acc = alg.const(0)
            for e, vk in zip(row, vec):
                if vk:
                    acc = acc + e * vk
            out.append(acc)
        return out

    def _vec_zero(self, vec: Sequence[Surd]) -> bool:
        return all(self.is_zero(e) for e in vec)

    def verify(self, closed: list[list[Surd]] | None = None,
               progress: Callable[[str], None] | None = None) -> list[Check]:
        """Prove, exactly at this d, the closed form, the eigen-relations, symmetry and trace
        (``progress`` is told the name of each check as it starts)."""
        from .exact_checks import run_checks
        return run_checks(self, closed, progress)



def _dot_common_den(K: Any, row: Sequence[Any], vec: Sequence[Any]) -> Any:
    """``sum(row[j] * vec[j])`` over one common denominator: one cancellation instead of d."""
    pairs = [(e, vk) for e, vk in zip(row, vec) if e and vk]
    if not pairs:
        return K.zero
    B = K.B
    den = pairs[0][0].denom
    for e, _ in pairs[1:]:
        if e.denom != den:
            den = B.lcm(den, e.denom)
    num = B.zero
    for e, vk in pairs:
        num += e.numer * (B.exquo(den, e.denom) if e.denom != den else B.one) * vk.numer
    return K.new(num, den)


def _rational_sqrt(q: Any) -> tuple[bool, Any]:
    r = sympy.sqrt(QQ.to_sympy(q))
    if r.is_Rational:
        return True, QQ.convert(r)
    return False, None
