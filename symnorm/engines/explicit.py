"""The explicit engine: a claim evaluated exactly at one concrete dimension d.

Vectors become columns of symbols (``x_1 .. x_d``), ``I`` and ``ones`` concrete matrices,
``jacobian`` is SymPy differentiation, and equality is decided entry by entry with the
radical-aware zero test.  Hypotheses (``given``) are solved for components of the free
vectors.  A proof here holds for this d only.
"""

from __future__ import annotations

import sympy as sp

from ..lang.context import PreparedClaim
from ..lang.syntax import Call, Expr, Name, Relation, nodes
from .anyd import (
    Unsupported,
    _power,
    check_domain,
    check_smooth,
    real_function,
    scalar_symbols,
    substitutions,
)
from .walk import TreeEvaluator
from .zero import is_zero

__all__ = ["Explicit", "entries", "prove_at"]


class Explicit(TreeEvaluator):
    """Evaluates expanded expressions to SymPy scalars and matrices at dimension ``d``."""

    matrix_type = sp.MatrixBase

    def __init__(self, claim: PreparedClaim, d: int, fixed: dict | None = None) -> None:
        """``fixed`` maps names to exact values (SymPy numbers or matrices) used instead of
        symbols: exact evaluation at a point without building the symbolic expression.
        A variable the claim differentiates with respect to stays a symbol until
        :meth:`value` substitutes its fixed value, like an assumed one."""
        super().__init__()
        self.claim, self.d = claim, d
        self.fixed = fixed or {}
        self.syms = scalar_symbols(claim)
        self.syms.pop("d")
        self.subs = substitutions(claim, self.syms)
        self.radicands: list[tuple[str, sp.Expr]] = []  # sqrt/log arguments, for `finish`
        # component names use brackets, which no user name can contain: a scalar called
        # x_1 must never be the same SymPy symbol as the first entry of the vector x
        self.vec_syms = {v: [sp.Symbol(f"{v}[{i}]", real=True) for i in range(1, d + 1)]
                         for v in claim.vectors}
        self.mat_syms = {m: _matrix_symbols(m, d) for m in claim.matrices}
        self.component_of = {s: (v, i) for v, ss in self.vec_syms.items()
                             for i, s in enumerate(ss)}
        jac = set().union(*(_jacobian_vars(r) for r in (claim.relation, *claim.given)))
        self.late: dict[sp.Symbol, sp.Expr] = {}  # fixed values of differentiation variables
        self.late_names = jac & set(self.fixed)
        for name in self.late_names:
            value = self.fixed[name]
            if name in self.vec_syms:
                self.late.update(zip(self.vec_syms[name], value))
            elif name in self.syms:
                self.late[self.syms[name]] = value

    # --- primitives of the shared walk ------------------------------------------------
    def number(self, p: int, q: int) -> sp.Expr:
        return sp.Rational(p, q)

    def name(self, name: str):
        if name == "I":
            return sp.eye(self.d)
        if name == "ones":
            return sp.ones(self.d, 1)
        if name == "d":
            return sp.Integer(self.d)
        if name in self.fixed and name not in self.late_names:
            return self.fixed[name]
        if name in self.vec_syms:
            return sp.Matrix(self.vec_syms[name])
        if name in self.mat_syms:
            return self.mat_syms[name]
        # a symbol, also when an assumption fixes its value: `value` substitutes the value
        # after every derivative has been taken (d/dt of t**3 at t = 3 is 27, not 0)
        return self.syms[name]

    def value(self, e: Expr):
        """The value of ``e`` at the assumed values (``assume t == 3``, ``eps=0``)."""
        return self.finish(self.node(e))

    def finish(self, v):
        """Substitute the assumed values into a computed value; differentiation is done."""
        if not (self.subs or self.late) or not isinstance(v, (sp.Basic, sp.MatrixBase)):
            return v
        check_domain(self.radicands, self.subs)  # a point's values: callers check I, zoo
        return v.subs({**self.subs, **self.late})

    def column(self, items: list) -> sp.Matrix:
        return sp.Matrix(items)

    def diagonal(self, items: list) -> sp.Matrix:
        return sp.diag(*items)

    def divide(self, a, b):
        """``a / b``; SymPy divides a zero matrix by 0 to a zero matrix, which would make
        0/0 (a constant x with eps = 0 under N) look defined: it is not a number."""
        if isinstance(b, sp.Expr) and b.is_zero:
            return a.applyfunc(lambda _: sp.nan) if isinstance(a, sp.MatrixBase) else sp.nan
        return a / b

    def power(self, a: sp.Expr, b: sp.Expr) -> sp.Expr:
        return _power(a, b)

    def function(self, name: str, a: sp.Expr) -> sp.Expr:
        self.radicands.append((name, a))
        return real_function(name, a)

    def jacobian(self, body: Expr, var: str):
        f = self.node(body)  # before substituting assumed values: they are constants
        if var in self.vec_syms:
            xs = self.vec_syms[var]
            out = (f if isinstance(f, sp.MatrixBase) else sp.Matrix([f])).jacobian(xs)
        else:
            out = f.diff(self.syms[var])
        for c in entries(out):
            check_smooth(c, self.subs)
        return out

    def hypothesis_solution(self, root: int = 0) -> dict[sp.Symbol, sp.Expr]:
        """Solve the ``given`` equations for components of the free vectors (or scalars).

        For proofs (``root=0``) an equation is solved only for a symbol it contains linearly
        with a coefficient known to be nonzero, so no case is lost. For sample points
        (``root=+1`` or ``-1``) it may also divide by a coefficient that can vanish, or take
        the ``+`` or ``-`` root of a quadratic; ``self.complete`` is then False when a part of
        the solution set (a vanishing coefficient) can never be sampled.
        """
        self.complete = True
        eqs = []
        for h in self.claim.given:
            if h.op != "==":
                raise Unsupported(f"hypothesis '{h}' is not an equation")
            diff = self.value(h.left) - self.value(h.right)
            eqs += list(diff) if isinstance(diff, sp.MatrixBase) else [diff]
        jac_vars = _jacobian_vars(self.claim.relation)
        order = [s for v, ss in self.vec_syms.items() if v not in jac_vars for s in reversed(ss)]
        order += [s for v, ss in self.vec_syms.items() if v in jac_vars for s in reversed(ss)]
        order += [s for s in self.syms.values() if s not in self.subs]  # assumed: fixed
        # `given b == B` with b differentiated by and absent from B (the point of a partial
        # along a computation graph): solved for b first, each equation linear in b with
        # coefficient 1, so nothing is lost and no other symbol is eliminated through it
        points = {h.left.id for h in self.claim.given if h.op == "==" and isinstance(h.left, Name)
                  and h.left.id in jac_vars and h.left.id not in _names_of(h.right)}
        sol: dict[sp.Symbol, sp.Expr] = {}
        for h in self.claim.given:
            v = h.left.id if isinstance(h.left, Name) else ""
            if v not in points or not (v in self.vec_syms or v in self.syms and
                                       self.syms[v] not in self.subs):
                continue
            syms = list(self.vec_syms[v]) if v in self.vec_syms else [self.syms[v]]
            value = self.value(h.right)
            comps = list(value) if isinstance(value, sp.MatrixBase) else [value]
            if len(comps) == len(syms) and not any(s in sol for s in syms):
                sol.update(zip(syms, comps))
        for eq in eqs:
            num = sp.expand(sp.numer(sp.together(sp.Integer(0) + eq.subs(sol))))
            if num == 0:
                continue
            found = self._linear(num, order, sol, exact=True)
            if found is None and root:
                found = self._linear(num, order, sol, exact=False)
                if found is not None:
                    self.complete = False
            if found is None and root:
                found = self._quadratic(num, order, sol, root)
            if found is None:
                raise Unsupported(f"cannot solve the hypothesis {num} = 0 at d = {self.d}")
            s, value = found
            sol = {k: v.subs(s, value) for k, v in sol.items()}
            sol[s] = value
        return sol

    @staticmethod
    def _polys(num: sp.Expr, order: list, sol: dict):
        for s in order:
            if s in sol or not num.has(s):
                continue
            try:
                yield s, sp.Poly(num, s)
            except sp.PolynomialError:
                continue

    def _linear(self, num: sp.Expr, order: list, sol: dict, exact: bool):
        for s, p in self._polys(num, order, sol):
            lc = p.LC()
            if p.degree() == 1 and (not exact or lc.is_number and lc != 0 or lc.is_nonzero):
                return s, sp.cancel(-p.nth(0) / lc)
        return None

    def _quadratic(self, num: sp.Expr, order: list, sol: dict, root: int):
        for s, p in self._polys(num, order, sol):
            if p.degree() == 2 and p.LC().is_number:
                a, b, c = p.all_coeffs()
                return s, (-b + root * sp.sqrt(b ** 2 - 4 * a * c)) / (2 * a)
        return None


def _matrix_symbols(name: str, d: int) -> sp.Matrix:
    return sp.Matrix(d, d, lambda i, j: sp.Symbol(f"{name}[{i + 1},{j + 1}]", real=True))


def _names_of(e: object) -> set[str]:
    return {n.id for n in nodes(e) if isinstance(n, Name)}  # type: ignore[arg-type]


def _jacobian_vars(rel: Relation) -> set[str]:
    """The variables a claim differentiates with respect to."""
    return {n.args[1].id for n in nodes(rel)
            if isinstance(n, Call) and n.func == "jacobian" and isinstance(n.args[1], Name)}


def aligned(left, right):
    """Both sides as matrices of one shape when one is a matrix and the other the literal 0
    (``J*ones == 0``); anything else is returned as it is."""
    if isinstance(left, sp.MatrixBase) and not isinstance(right, sp.MatrixBase) and right == 0:
        right = sp.zeros(*left.shape)
    if isinstance(right, sp.MatrixBase) and not isinstance(left, sp.MatrixBase) and left == 0:
        left = sp.zeros(*right.shape)
    return left, right


def entries(v) -> list[sp.Expr]:
    return list(v) if isinstance(v, sp.MatrixBase) else [v]


def prove_at(claim: PreparedClaim, d: int, relation: Relation | None = None) -> bool:
    """True when ``lhs == rhs`` is proved exactly at dimension ``d``."""
    rel = relation or claim.relation
    eng = Explicit(claim, d)
    sol = eng.hypothesis_solution() if claim.given else {}
    lhs, rhs = aligned(eng.value(rel.left), eng.value(rel.right))
    diff = lhs - rhs
    for c in entries(diff):
        if sol:
            c = c.subs(sol)
        if not is_zero(c):
            return False
    return True
