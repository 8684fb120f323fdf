"""Real arithmetic decided exactly: the reduced claim handed to SMT solvers.

After the any-d reduction (:mod:`symnorm.engines.anyd`) a claim is a statement about a few
real numbers: ``d``, the declared scalars and the Gram symbols ``<b_p, b_q>``.  At a concrete
d (a fixed ``d``, or each d of a finite range) the explicit engine gives the same statement
in the coordinates of the vectors (free matrices and vector literals included).  Either way
the claim is a first-order formula over the reals, which this module decides:

* square roots, fractional powers and divisions become fresh variables with their defining
  polynomial equations (``t >= 0, t**2 = radicand``; ``q * den = num``), and the points where
  a side is not defined (a negative radicand, a zero denominator) are left out, exactly as
  the other engines leave them out;
* ``abs`` is a case split; constants such as ``exp(-500)`` or ``pi`` are enclosed between
  rational bounds computed with ball arithmetic (python-flint's arb); ``exp``/``log`` of
  variables and powers with symbolic exponents are abstracted by fresh variables with true
  bounds (``exp(u) >= 1 + u``...), which keeps proofs sound but makes models mere candidates;
* the Gram symbols are tied to realizable vectors: ``x = m_x ones + c_x`` with ``c_x``
  orthogonal to ``ones`` written in the Helmert basis ``h_j = (1, .., 1, -j, 0, ..)`` of
  ``ones``-orthogonal space, ``<c_x, c_y> = sum_j j(j+1) L_xj L_yj`` with ``L`` lower
  triangular and column ``j`` present only when ``j <= d - 1``.  Every configuration of
  vectors in every dimension d has such a parametrization, and every rational model gives
  rational vectors;
* every ``assume`` and ``given`` is a constraint; d is an integer with the document's
  bounds.

``unsat`` of the negation (from z3's complete procedure for nonlinear real arithmetic) is a
proof only after a second, independent solver (cvc5, with its own encoding of the same
formula) also says ``unsat``; if it finds a model instead, that is an internal error.  A
``sat`` model is turned into exact values (rationals where a nearby rational still
satisfies the formula, exact algebraic numbers otherwise), the vectors are built from them,
and the ORIGINAL claim is evaluated there in exact arithmetic by the explicit engine
(:func:`symnorm.engines.exacteval.truth_at`); only a point that passes is a counterexample.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from ..lang.context import PreparedClaim
from ..lang.syntax import Relation
from .anyd import AnyD, Unsupported

__all__ = ["Outcome", "OutsideFragment", "decide_smt", "solvers_available"]

#: largest finite range of d decided one d at a time
MAX_ENUMERATED_D = 64
#: largest d at which a model's vectors are built for the exact re-verification: claims
#: with derivatives or d x d matrices (I) cost d**2 exact entries and more
MAX_REALIZED_D = {"jacobian": 48, "matrix": 160, "vector": 8192}
#: largest d at which a concrete-d claim is encoded coordinate by coordinate
MAX_COORDINATE_D = 12
#: time for cvc5 to confirm one proof (it answers in well under a second when it can): CPU
#: time of its child, and its resource limit at :data:`CVC5_UNITS_PER_MS`
CVC5_MS = 4500
#: z3 resource units (``rlimit``) that stand for one millisecond of solving: z3 does about
#: 300 to 1500 of them per millisecond of CPU on this project's formulas.  Every z3 call is
#: bounded by units, not by time, so the same claim gets the same answer on an idle and on
#: a loaded machine; wall time is only a guard (it can only make an answer ``unknown``).
Z3_UNITS_PER_MS = 1000
#: cvc5 resource units (``rlimit-per``) for one millisecond (about 1000 per millisecond of
#: CPU); cvc5's cylindrical coverings do not always count them, hence also its child's CPU
#: limit
CVC5_UNITS_PER_MS = 1000


class OutsideFragment(Exception):
    """The reduced claim has a part the encoding does not cover (the message says which)."""


@dataclass
class Outcome:
    """What the SMT step established.

    ``status``: ``proved`` (the negation is unsatisfiable, both solvers agree),
    ``counterexample`` (a model re-verified by exact evaluation; ``point`` holds it),
    ``unknown`` (``reason`` says why), ``vacuous`` (no admissible point at all).
    """

    status: str
    reason: str = ""
    point: Any = None
    scope_ds: tuple[int, ...] | None = None  # the d decided one by one, when finite
    #: a model against the claim that could not be re-verified (where, and why): evidence
    #: that withholds ``confirmed`` though it refutes nothing
    unverified: str = ""


def solvers_available() -> bool:
    try:
        import cvc5.pythonic  # noqa: F401
        import z3  # noqa: F401
    except ImportError:  # pragma: no cover - both are dependencies
        return False
    return True


# --- encoding -----------------------------------------------------------------------------

_FLIP = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


class Encoder:
    """SymPy scalars -> terms of one solver API (z3 or cvc5's z3-compatible module).

    ``side`` collects the defining equations of auxiliary variables, ``domain`` the
    conditions under which every encoded expression is a real number.
    """

    def __init__(self, api: Any, abs_as_root: bool = False) -> None:
        self.api = api
        self.abs_as_root = abs_as_root
        self.vars: dict[sp.Symbol, Any] = {}
        self.side: list[Any] = []
        self.domain: list[Any] = []
        self.memo: dict[sp.Expr, Any] = {}
        self.abstracted: list[str] = []
        #: (function of one argument as SymPy lambda, argument term, variable, increasing)
        self.monotone: list[tuple[Any, Any, Any, bool]] = []
        self._n = 0

    def var(self, sym: sp.Symbol) -> Any:
        if sym not in self.vars:
            self.vars[sym] = self.api.Real(f"v{len(self.vars)}_{_safe(sym.name)}")
            if sym.is_positive:
                self.side.append(self.vars[sym] > 0)
            elif sym.is_nonnegative:
                self.side.append(self.vars[sym] >= 0)
            elif sym.is_negative:
                self.side.append(self.vars[sym] < 0)
            if sym.is_nonzero and not (sym.is_positive or sym.is_negative):
                self.side.append(self.vars[sym] != 0)
        return self.vars[sym]

    def fresh(self, what: str) -> Any:
        self._n += 1
        return self.api.Real(f"aux{self._n}_{what}")

    def rational(self, q: sp.Rational) -> Any:
        return self.api.RealVal(f"{q.p}/{q.q}") if q.q != 1 else self.api.RealVal(str(q.p))

    def expr(self, e: sp.Expr) -> Any:
        if e in self.memo:
            return self.memo[e]
        out = self._expr(e)
        self.memo[e] = out
        return out

    def _expr(self, e: sp.Expr) -> Any:
        A = self.api
        if e.is_Rational:
            return self.rational(e)
        if e.is_Symbol:
            return self.var(e)
        if e.is_number and not e.is_Rational:
            if isinstance(e, sp.Pow) and e.exp.is_Rational:
                pass  # algebraic constants: the exact encoding below
            elif isinstance(e, (sp.Add, sp.Mul)) and not e.has(sp.exp, sp.log, sp.pi, sp.E):
                pass
            else:
                return self._enclosed(e)
        if isinstance(e, sp.Add):
            terms = [self.expr(a) for a in e.args]
            return A.Sum(terms) if len(terms) > 1 else terms[0]
        if isinstance(e, sp.Mul):
            num, den = [], []
            for a in e.args:
                if isinstance(a, sp.Pow) and a.exp.is_Rational and a.exp < 0:
                    den.append(a.base ** (-a.exp))
                else:
                    num.append(a)
            top = _product([self.expr(a) for a in num], A) if num else A.RealVal(1)
            if not den:
                return top
            return self._divide(top, self.expr(sp.Mul(*den)))
        if isinstance(e, sp.Pow):
            return self._pow(e)
        if isinstance(e, sp.Abs):
            a = self.expr(e.args[0])
            if self.abs_as_root:  # |a| is the nonnegative root of t**2 = a**2
                t = self.fresh("abs")
                self.side += [t >= 0, t * t == a * a]
                return t
            return A.If(a >= 0, a, -a)
        if isinstance(e, sp.exp):
            return self._abstract_exp(e)
        if isinstance(e, sp.log):
            return self._abstract_log(e)
        raise OutsideFragment(f"{type(e).__name__} has no encoding in real arithmetic")

    def _divide(self, top: Any, bottom: Any) -> Any:
        q = self.fresh("quot")
        self.side.append(q * bottom == top)
        self.domain.append(bottom != 0)
        return q

    def _pow(self, e: sp.Pow) -> Any:
        A = self.api
        base, ex = e.base, e.exp
        if not ex.is_Rational:
            return self._abstract_power(e)
        if ex.is_Integer:
            n = int(ex)
            if abs(n) > 64:
                raise OutsideFragment(f"exponent {n} is too large to encode")
            b = self.expr(base)
            if n == 0:  # 0**0 is 1 in every engine
                return A.RealVal(1)
            p = _product([b] * abs(n), A)
            return p if n > 0 else self._divide(A.RealVal(1), p)
        # base**(p/q): r >= 0 with r**q == base, defined for base >= 0 (real roots only)
        p, q = int(ex.p), int(ex.q)
        if q > 12 or abs(p) > 64:
            raise OutsideFragment(f"exponent {ex} is too large to encode")
        b = self.expr(base)
        r = self.fresh("root")
        self.side += [r >= 0, _product([r] * q, A) == b]
        self.domain.append(b >= 0)
        if p < 0:
            self.domain.append(b != 0)
            return self._divide(A.RealVal(1), _product([r] * (-p), A))
        return _product([r] * p, A)

    def _enclosed(self, e: sp.Expr) -> Any:
        lo, hi = enclosure(e)
        v = self.fresh("const")
        self.side += [v >= self.rational(lo), v <= self.rational(hi)]
        if lo > 0:
            self.side.append(v > 0)
        self.abstracted.append(f"{e} (enclosed in [{float(lo):.6g}, {float(hi):.6g}])")
        return v

    def _abstract_exp(self, e: sp.Expr) -> Any:
        u = self.expr(e.args[0])
        v = self.fresh("exp")
        # true for every real u: exp(u) > 0, exp(u) >= 1 + u
        self.side += [v > 0, v >= 1 + u]
        self.abstracted.append(str(e))
        self.monotone.append((sp.exp, u, v, True))
        return v

    def _abstract_log(self, e: sp.Expr) -> Any:
        u = self.expr(e.args[0])
        v = self.fresh("log")
        # for u > 0: log(u) <= u - 1 and u*log(u) >= u - 1
        self.domain.append(u > 0)
        self.side += [v <= u - 1, u * v >= u - 1]
        self.abstracted.append(str(e))
        self.monotone.append((sp.log, u, v, True))
        return v

    def _abstract_power(self, e: sp.Pow) -> Any:
        """``base**exponent`` with a symbolic exponent: a fresh variable. Only true facts
        are added: the other engines define it for a negative base at integer exponents
        ((-1)**d), so nothing is excluded and the sign is known only for a positive base."""
        b = self.expr(e.base)
        x = self.expr(e.exp)
        v = self.fresh("pow")
        self.side.append(self.api.Implies(b > 0, v > 0))
        self.abstracted.append(str(e))
        base = e.base
        if base.is_Rational and base > 0 and base != 1:
            self.monotone.append((lambda t, base=base: base ** t, x, v, bool(base > 1)))
        return v


def _and(A: Any, items: list) -> Any:
    return items[0] if len(items) == 1 else A.And(items) if items else A.BoolVal(True)


def _or(A: Any, items: list) -> Any:
    return items[0] if len(items) == 1 else A.Or(items) if items else A.BoolVal(False)


def _product(terms: list, A: Any) -> Any:
    if len(terms) == 1:
        return terms[0]
    return A.Product(terms) if hasattr(A, "Product") else _fold_mul(terms)


def _fold_mul(terms: list) -> Any:
    out = terms[0]
    for t in terms[1:]:
        out = out * t
    return out


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)


def enclosure(e: sp.Expr, bits: int = 256) -> tuple[sp.Rational, sp.Rational]:
    """Rational bounds ``lo <= e <= hi`` for a real constant, by ball arithmetic (arb).

    The precision grows until the ball is tight relative to its midpoint (and excludes 0
    when the constant is not 0): ``log(1 + exp(-800))`` needs about 3000 bits."""
    try:
        import flint
    except ImportError:  # pragma: no cover - python-flint is a dependency
        raise OutsideFragment("constants need python-flint for rigorous bounds") from None
    old = flint.ctx.prec
    try:
        while True:
            flint.ctx.prec = bits
            ball = _arb(e, flint)
            if not ball.is_finite():
                raise OutsideFragment(f"{e} is not a finite real number")
            tight = not ball.contains(0) and ball.rad() <= abs(ball.mid()) * flint.arb(2) ** -80
            if tight or bits >= 1 << 14:
                break
            bits *= 4
        lo, hi = ball.mid() - ball.rad(), ball.mid() + ball.rad()
        return _arf_rational(lo.lower()), _arf_rational(hi.upper())
    finally:
        flint.ctx.prec = old


def _arb(e: sp.Expr, flint: Any) -> Any:
    arb = flint.arb
    if e.is_Rational:
        return arb(int(e.p)) / int(e.q)
    if e is sp.pi:
        return arb.pi()
    if e is sp.E:
        return arb(1).exp()
    if isinstance(e, sp.Add):
        out = arb(0)
        for a in e.args:
            out += _arb(a, flint)
        return out
    if isinstance(e, sp.Mul):
        out = arb(1)
        for a in e.args:
            out *= _arb(a, flint)
        return out
    if isinstance(e, sp.Pow):
        b = _arb(e.base, flint)
        if e.exp.is_Integer and abs(int(e.exp)) <= 10_000:
            return b ** int(e.exp)
        x = _arb(e.exp, flint)
        if not b > 0:
            raise OutsideFragment(f"{e} is not real (or not certainly so)")
        return (x * b.log()).exp()
    if isinstance(e, sp.exp):
        return _arb(e.args[0], flint).exp()
    if isinstance(e, sp.log):
        a = _arb(e.args[0], flint)
        if not a > 0:
            raise OutsideFragment(f"{e} is not real (or not certainly so)")
        return a.log()
    if isinstance(e, sp.Abs):
        return abs(_arb(e.args[0], flint))
    raise OutsideFragment(f"cannot bound the constant {e}")


def _arf_rational(x: Any) -> sp.Rational:
    m, ex = x.man_exp()
    m, ex = int(m), int(ex)
    if abs(ex) > 100_000:
        raise OutsideFragment("constant too large or too small to bound")
    return sp.Rational(m) * (sp.Integer(2) ** ex)


# --- the formula of a claim -----------------------------------------------------------------


@dataclass
class Formula:
    """One claim at one kind of d: ``facts`` (assumptions, hypotheses, definitions, domain)
    and ``goal`` (the negated claim, or for ``!=`` the witness condition)."""

    enc: Encoder
    facts: list
    goal: Any
    d: Any  # the solver variable of d, or None when d is a number
    primary: list[tuple[str, Any]]  # (what, solver var) for model extraction, in order
    front: str  # "gram" or "coordinates"


def _relation_terms(enc: Encoder, eng: Any, rel: Relation, front: str) -> list:
    """Solver terms of ``left - right`` whose simultaneous vanishing is the equality (one
    term for scalars)."""
    from .explicit import aligned
    left, right = eng.value(rel.left), eng.value(rel.right)
    if front == "gram":
        return [enc.expr(t) for t in eng.difference_terms(left, right)]
    left, right = aligned(left, right)
    diff = left - right
    return [enc.expr(x) for x in (diff if isinstance(diff, sp.MatrixBase) else [diff])]


def _domain(enc: Encoder, eng: Any, rel: Relation) -> list:
    """Where the relation as written is defined (:mod:`symnorm.engines.domain`)."""
    from .domain import domain_conditions
    out = []
    for v, op in domain_conditions(eng, rel):
        t = enc.expr(v)
        out.append({">=": t >= 0, ">": t > 0, "!=": t != 0}[op])
    return out


def _constraint(enc: Encoder, eng: Any, rel: Relation, front: str) -> Any:
    A = enc.api
    terms = _relation_terms(enc, eng, rel, front)
    if rel.op == "==":
        return _and(A, [t == 0 for t in terms])
    if rel.op == "!=":
        return _or(A, [t != 0 for t in terms])
    t = terms[0]  # left - right
    return {"<": t < 0, "<=": t <= 0, ">": t > 0, ">=": t >= 0}[rel.op]


def build_formula(api: Any, claim: PreparedClaim, rel: Relation, d: int | None,
                  inline: bool = False) -> Formula:
    """The claim's negation (or for ``!=``, its witness condition) with all facts.

    ``d=None``: the Gram front-end with d a solver variable; ``d=k``: d fixed to k (the Gram
    front-end when it applies, else coordinates: vector literals, free matrices).
    """
    try:
        return _build_formula(api, claim, rel, d, inline)
    except Unsupported:
        if d is None:
            raise
        return _build_formula(api, claim, rel, d, inline, coordinates=True)


def _build_formula(api: Any, claim: PreparedClaim, rel: Relation, d: int | None,
                   inline: bool = False, coordinates: bool = False) -> Formula:
    enc = Encoder(api, abs_as_root=inline)  # the second solver's own encoding
    facts: list = []
    primary: list[tuple[str, Any]] = []
    try:
        if coordinates:
            raise Unsupported("coordinates requested")
        eng: Any = AnyD(claim)
        front = "gram"
    except Unsupported:
        if d is None:
            raise
        eng, front = None, "coordinates"
    if front == "gram":
        eng.subs = {}  # assumptions are constraints here, never substituted early
        dsym = eng.syms["d"]
        if d is not None:
            eng.d = sp.Integer(d)
            for key, g in list(eng.gram.items()):
                if key == ("ones", "ones"):
                    eng.gram[key] = sp.Integer(d)
        dvar = None if d is not None else enc.var(dsym)
        if dvar is not None:
            facts.append(dvar >= 2)
            primary.append(("d", dvar))
        dval = dvar if dvar is not None else api.RealVal(d)
        vecs = list(claim.vectors)
        m = {v: api.Real(f"m_{i}") for i, v in enumerate(vecs)}
        L = {(i, j): api.Real(f"L_{i}_{j}") for i in range(len(vecs)) for j in range(i + 1)}
        for name in claim.scalars:
            if name in eng.syms:
                primary.append((name, enc.var(eng.syms[name])))
        for i, v in enumerate(vecs):
            primary.append((f"m:{v}", m[v]))
            primary += [(f"L:{i}:{j}", L[(i, j)]) for j in range(i + 1)]
        for j in range(len(vecs)):  # column j is h_{j+1}, present when j + 1 <= d - 1
            col_zero = _and(api, [L[(i, j)] == 0 for i in range(j, len(vecs))])
            if dvar is not None:
                facts.append(api.Implies(dvar < j + 2, col_zero))
            elif d < j + 2:
                facts.append(col_zero)
        for i, p in enumerate(vecs):
            pairs = [(eng.gram[("ones", p)], dval * m[p])]
            for k, q in enumerate(vecs[i:], start=i):
                inner = dval * m[p] * m[q] + api.Sum([
                    api.RealVal((j + 1) * (j + 2)) * L[(i, j)] * L[(k, j)]
                    for j in range(min(i, k) + 1)])
                pairs.append((eng.gram[(p, q)], inner))
            for g, value in pairs:
                if inline:  # the Gram symbol IS its parametrization (fewer variables)
                    enc.memo[g] = value
                    if g.is_nonnegative:
                        facts.append(value >= 0)
                else:
                    facts.append(enc.expr(g) == value)
    else:
        from .explicit import Explicit
        if d > MAX_COORDINATE_D:
            raise OutsideFragment(f"d = {d} is too large for a coordinate encoding")
        eng = Explicit(claim, d)
        eng.subs = {}
        for name in claim.scalars:
            primary.append((name, enc.var(eng.syms[name])))
        for v, ss in eng.vec_syms.items():
            primary += [(f"{v}[{i}]", enc.var(s)) for i, s in enumerate(ss)]
        for mname, mat in eng.mat_syms.items():
            primary += [(f"{mname}[{s}]", enc.var(s)) for s in mat]
    for a in claim.assumptions:
        facts.append(_constraint(enc, eng, a, front))
        facts += _domain(enc, eng, a)
    for h in claim.given:
        facts.append(_constraint(enc, eng, h, front))
        facts += _domain(enc, eng, h)
    facts += _domain(enc, eng, rel)
    if rel.op == "!=":
        goal = _constraint(enc, eng, Relation("!=", rel.left, rel.right, rel.pos), front)
    else:
        goal = _constraint(enc, eng, Relation(_FLIP[rel.op], rel.left, rel.right, rel.pos),
                           front)
    facts = facts + enc.side + enc.domain
    return Formula(enc, facts, goal, None if front != "gram" or d is not None
                   else enc.vars.get(eng.syms["d"]), primary, front)


# --- solving --------------------------------------------------------------------------------


class Effort:
    """A deterministic allowance of z3 work (resource units), with a wall-clock guard.

    ``seconds`` of solving become ``seconds * 1000 *`` :data:`Z3_UNITS_PER_MS` units; each
    call spends what z3 counted.  The guard (:func:`~symnorm.engines.child.wall_guard` of
    ``seconds``) only stops work on a machine so loaded that the units cannot be spent in
    time, and what it stops is ``unknown``.
    """

    def __init__(self, seconds: float) -> None:
        from .child import wall_guard
        self.seconds = seconds
        self.units = int(seconds * 1000 * Z3_UNITS_PER_MS)
        self.guard = time.monotonic() + wall_guard(seconds)

    def exhausted(self) -> bool:
        return self.units <= 0 or time.monotonic() > self.guard

    def cap(self, ms: float) -> int:
        """The units one call may spend: ``ms`` milliseconds' worth, at most what is left."""
        return max(1, min(int(ms * Z3_UNITS_PER_MS), self.units))

    def guard_ms(self) -> int:
        return max(1, int((self.guard - time.monotonic()) * 1000))

    def left_ms(self) -> float:
        """What is left, in the milliseconds the units stand for."""
        return max(1.0, self.units / Z3_UNITS_PER_MS)

    def solve(self, s: Any, ms: float) -> Any:
        """``s.check()`` within ``ms`` milliseconds' worth of units; spends what it used."""
        s.set("rlimit", self.cap(ms))
        s.set("timeout", self.guard_ms())
        before = _z3_units(s)
        r = s.check()
        self.units -= _z3_units(s) - before
        return r


def _z3_units(s: Any) -> int:
    """z3's resource count so far (one counter for the process, read through ``s``)."""
    st = s.statistics()
    return int(st.get_key_value("rlimit count")) if "rlimit count" in st.keys() else 0


def _z3_check(f: Formula, extra: list, effort: Effort, ms: float) -> tuple[str, Any]:
    import z3
    s = z3.Solver()
    s.add(*f.facts, f.goal, *extra)
    r = effort.solve(s, ms)
    return str(r), (s.model() if r == z3.sat else None)


def _cvc5_check(claim: PreparedClaim, rel: Relation, d: int | None, extra_d: list,
                ms: int, integer_d: bool = False) -> str:
    """cvc5 on its own encoding of the formula, in a child process: ``ms`` milliseconds'
    worth of cvc5's resource units and of CPU time (its complete procedure for real
    arithmetic does not always count its units), never a wall-clock limit but the guard."""
    return _in_child(lambda: _cvc5_run(claim, rel, d, extra_d, ms, integer_d),
                     ms / 1000 + 1.0)


def _cvc5_run(claim: PreparedClaim, rel: Relation, d: int | None, extra_d: list,
              ms: int, integer_d: bool = False) -> str:
    import cvc5.pythonic as c
    f = build_formula(c, claim, rel, d, inline=True)
    # QF_NRA enables cvc5's complete procedure (cylindrical coverings)
    s = c.SolverFor("QF_NIRA" if integer_d else "QF_NRA")
    s.set("rlimit-per", max(1, int(ms * CVC5_UNITS_PER_MS)))
    s.add(*f.facts, f.goal)
    if integer_d and f.d is not None:
        s.add(f.d == c.ToReal(c.Int("n_d")))
    if f.d is not None:
        for lo, hi in extra_d:
            if lo is not None:
                s.add(f.d >= lo)
            if hi is not None:
                s.add(f.d <= hi)
    try:
        return str(s.check())
    except Exception as exc:  # noqa: BLE001 - solver limits surface as exceptions
        return f"unknown ({exc})"


def _in_child(fn: Any, cpu_seconds: float) -> str:
    """``fn()`` (returning a short string) in a forked child with ``cpu_seconds`` of CPU
    time (:func:`symnorm.engines.child.forked`)."""
    from .child import forked

    def job() -> Iterator[str]:
        try:
            out = str(fn())
        except BaseException as exc:  # noqa: BLE001
            out = f"unknown ({type(exc).__name__})"
        yield out[:4000]
    got = forked(job, cpu_seconds)
    return got[0] if got else f"unknown (no answer within {cpu_seconds:.0f} s of CPU time)"


def decide_smt(claim: PreparedClaim, rel: Relation, *, budget: float = 10.0,
               d_bounds: tuple[int, int | None] = (2, None)) -> Outcome:
    """Decide ``rel`` (the claim's relation, possibly with ``!=`` turned into ``==``) exactly.

    ``d_bounds`` is the admissible range of d from the document (``hi`` None: unbounded).
    ``budget`` is seconds' worth of solver work (an :class:`Effort`): the same claim gets
    the same outcome however loaded the machine is, unless the wall-clock guard stops it
    (then the outcome is ``unknown``).
    """
    from .exacteval import truth_at
    if not solvers_available():  # pragma: no cover
        return Outcome("unknown", "the SMT solvers (z3-solver, cvc5) are not installed")
    effort = Effort(budget)

    def left_ms() -> int:
        return int(effort.left_ms())

    import z3
    lo, hi = d_bounds
    if claim.d_value:
        ds: list[int] | None = [claim.d_value]
    elif hi is not None and hi - lo + 1 <= MAX_ENUMERATED_D:
        ds = list(range(lo, hi + 1))
    elif not _uses_d(claim):
        ds = [max(lo, 2)]
    else:
        ds = None
    try:
        if ds is not None:
            confirmed: list[int] = []
            inhabited = False
            for d in ds:
                if effort.exhausted():
                    done = f"{confirmed[0]}..{confirmed[-1]}" if confirmed else "none"
                    return Outcome("unknown", f"solver allowance used up after d = {done}")
                f = build_formula(z3, claim, rel, d)
                r, model = _z3_check(f, [], effort, 5000)
                if r == "sat":
                    out = _counterexample(claim, rel, f, model, d, truth_at, effort)
                    if out.status == "unknown" and not f.enc.abstracted and rel.op != "!=":
                        out.unverified = f"z3 finds a counterexample at d = {d} ({out.reason})"
                    return out
                if r != "unsat":
                    return Outcome("unknown", f"z3 returned {r} at d = {d}")
                c = _cvc5_check(claim, rel, d, [], min(left_ms(), CVC5_MS))
                if c == "sat":
                    raise_disagreement(claim, d)
                if c != "unsat":
                    return Outcome("unknown", f"z3 proved it at d = {d}, but cvc5 could not "
                                   f"confirm ({c})")
                confirmed.append(d)
                if not inhabited:
                    inhabited = _inhabited(build_formula(z3, claim, rel, d), [], effort)
            if not inhabited:
                return Outcome("vacuous", "no admissible point: the assumptions, hypotheses "
                               "and the domain of the claim (square roots, denominators) "
                               "contradict each other at every d tried")
            return _proved(claim, rel, tuple(confirmed))
        f = build_formula(z3, claim, rel, None)
        bounds = [f.d >= lo] + ([f.d <= hi] if hi is not None else [])
        r, model = _z3_check(f, bounds, effort, 8000)
        if r == "unsat":
            c = _cvc5_check(claim, rel, None, [(lo, hi)], min(left_ms(), CVC5_MS))
            if c == "sat":
                raise_disagreement(claim, None)
            if c != "unsat":
                return Outcome("unknown", f"z3 proved it for every real d >= {lo}, but cvc5 "
                               f"could not confirm ({c})")
            if not _inhabited(f, bounds, effort):
                return Outcome("vacuous", "no admissible point: the assumptions, hypotheses "
                               "and the domain of the claim contradict each other")
            return _proved(claim, rel, None)
        if r != "sat":
            return Outcome("unknown", f"z3 returned {r}")
        # a model exists for some real d: look for one at an integer d, small ones first,
        # then near the smallest d a model needs (caps), refining abstractions in between
        tried: set[int] = set()
        cap_d = realizable_cap(claim)

        def try_d(d: int) -> Outcome | None:
            if d in tried or d < max(lo, 2) or (hi is not None and d > hi) or d > cap_d:
                return None
            if effort.exhausted():
                return None
            tried.add(d)
            fd = build_formula(z3, claim, rel, d)
            r2, m2 = _z3_check(fd, [], effort, 3000)
            if r2 != "sat":
                return None
            out = _counterexample(claim, rel, fd, m2, d, truth_at, effort)
            return out if out.status in ("counterexample", "witness") else None
        for d in range(lo, lo + 7):
            got = try_d(d)
            if got:
                return got
        for _ in range(MAX_REFINE):
            last = None
            for cap in (16, 128, 1024, 8192, None):
                extra = bounds + ([f.d <= cap] if cap else [])
                r, m = _z3_check(f, extra, effort, 3000)
                if r != "sat":
                    continue
                last = m
                for d in _int_candidates(m, f.d):
                    got = try_d(d)
                    if got:
                        return got
                break
            if last is None or not f.enc.monotone or effort.exhausted():
                break
            cuts = _refinements(f, last)  # true facts about exp/log/powers at the model
            if not cuts:
                break
            f.facts += cuts
        # integer d in general
        n = z3.Int("n_d")
        r3, m3 = _z3_check(f, [*bounds, f.d == z3.ToReal(n)], effort, 5000)
        if r3 == "unsat":
            c = _cvc5_check(claim, rel, None, [(lo, hi)], min(left_ms(), CVC5_MS),
                            integer_d=True)
            if c == "sat":
                raise_disagreement(claim, None)
            if c != "unsat":
                return Outcome("unknown", "z3 finds no counterexample at an integer d, but "
                               f"cvc5 could not confirm ({c})")
            if not _inhabited(f, [*bounds, f.d == z3.ToReal(n)], effort):
                return Outcome("vacuous", "no admissible point at an integer d")
            return _proved(claim, rel, None)
        if r3 == "sat":
            d = m3.eval(n).as_long()
            got = try_d(d)
            if got:
                return got
            # a model of the exact encoding is evidence against the claim; one that needs
            # abstracted exp/log/powers or enclosed constants may be spurious: no evidence
            exact = "" if f.enc.abstracted else "x"
            if d > cap_d:
                why = (f"z3 finds a counterexample at d = {d}, beyond the dimensions where it "
                       f"can be built and re-verified exactly (at most {cap_d} for this claim)")
                return Outcome("unknown", why, unverified=exact and why)
            why = f"z3's candidate at d = {d} did not survive exact re-evaluation"
            return Outcome("unknown", why, unverified=exact and why)
        return Outcome("unknown", f"z3 returned {r3} for integer d")
    except OutsideFragment as exc:
        return Outcome("unknown", f"outside real polynomial arithmetic: {exc}")
    except Unsupported as exc:
        return Outcome("unknown", str(exc))


def _inhabited(f: Formula, extra: list, effort: Effort) -> bool:
    """Whether some admissible point exists (the facts without the negated claim)."""
    import z3
    s = z3.Solver()
    s.add(*f.facts, *extra)
    return effort.solve(s, 3000) != z3.unsat  # unknown: do not call it vacuous


def raise_disagreement(claim: PreparedClaim, d: int | None) -> None:
    from ..errors import InternalError
    where = f"at d = {d}" if d is not None else "for d free"
    raise InternalError(f"solvers disagree on claim {claim.label!r} {where}: z3 finds no "
                        f"counterexample, cvc5 finds one")


def _proved(claim: PreparedClaim, rel: Relation, ds: tuple[int, ...] | None) -> Outcome:
    if rel.op == "!=":  # no witness exists: the two sides agree wherever defined
        return Outcome("identical", scope_ds=ds)
    return Outcome("proved", scope_ds=ds)


def _uses_d(claim: PreparedClaim) -> bool:
    from ..lang.context import _names
    if claim.vectors or claim.matrices:
        return True
    names = set().union(*(_names(r.left) | _names(r.right)
                          for r in (claim.relation, *claim.given, *claim.assumptions)))
    return bool(names & {"I", "ones", "d"})


def _int_candidates(model: Any, dvar: Any) -> list[int]:
    """Integers at and next to the model's d (a power (-1)**d needs the right parity)."""
    v = _model_fraction(model, dvar)
    if v is None:
        return []
    import math
    lo, hi = math.floor(v), math.ceil(v)
    return list(dict.fromkeys([lo, hi, hi + 1, lo - 1, hi + 2]))


# --- from a model to an exact, re-verified point ------------------------------------------


def _model_fraction(model: Any, v: Any) -> Fraction | None:
    """A model value as a Fraction (an approximation for algebraic values)."""
    import z3
    val = model.eval(v, model_completion=True)
    if z3.is_rational_value(val):
        return Fraction(val.numerator_as_long(), val.denominator_as_long())
    if z3.is_algebraic_value(val):
        a = val.approx(40)
        return Fraction(a.numerator_as_long(), a.denominator_as_long())
    return None


def _model_exact(model: Any, v: Any) -> sp.Expr | None:
    """A model value as an exact SymPy number (rational or a real root of its polynomial)."""
    import z3
    val = model.eval(v, model_completion=True)
    if z3.is_rational_value(val):
        return sp.Rational(val.numerator_as_long(), val.denominator_as_long())
    if z3.is_algebraic_value(val):
        coeffs = [sp.Rational(c.numerator_as_long(), c.denominator_as_long())
                  for c in val.poly()] if hasattr(val, "poly") else None
        lo = val.approx(60)
        approx = sp.Rational(lo.numerator_as_long(), lo.denominator_as_long())
        if not coeffs:
            return None
        t = sp.Symbol("t")
        poly = sp.Poly(sum(c * t**i for i, c in enumerate(coeffs)), t)
        roots = [r for r in sp.real_roots(poly)]
        best = min(roots, key=lambda r: abs(sp.N(r - approx, 80)))
        return best
    return None


def _simple_rationals(x: Fraction) -> list[Fraction]:
    out = []
    for den in (1, 2, 4, 10, 100, 10**4, 10**8):
        out.append(Fraction(round(x * den), den))
    out.append(x.limit_denominator(10**12))
    return list(dict.fromkeys(out))


#: rounds of refinement of exp/log/power abstractions after a spurious model
MAX_REFINE = 40


def _counterexample(claim: PreparedClaim, rel: Relation, f: Formula, model: Any, d: int,
                    truth_at: Any, effort: Effort) -> Outcome:
    """A model made exact and re-verified; a model that is spurious only because of an
    abstraction (``exp(u)`` as a variable) is excluded by true monotonicity facts at the
    model's argument (``u <= u0 -> exp(u) <= exp(u0)``...) and the formula solved again."""
    for _ in range(MAX_REFINE):
        out = _counterexample_once(claim, rel, f, model, d, truth_at, effort)
        if out.status != "spurious":
            return out
        cuts = _refinements(f, model) if not effort.exhausted() else []
        if not cuts:
            break
        f.facts += cuts
        r, model = _z3_check(f, [], effort, effort.left_ms())
        if r != "sat":
            return Outcome("unknown", "the abstraction of exp/log/powers, refined, leaves no "
                           f"counterexample for z3 ({r}); that alone is not a proof")
    return Outcome("unknown", "the solver's models did not survive exact re-evaluation "
                   "(exp/log/powers are only abstracted in the encoding)")


def _refinements(f: Formula, model: Any) -> list:
    """True facts that exclude the model: monotonicity of each abstracted function at the
    model's value of its argument, with the function's value there enclosed by arb."""
    import z3
    cuts = []
    for fn, arg, var, increasing in f.enc.monotone:
        u0 = _model_fraction(model, arg)
        if u0 is None:
            continue
        q = sp.Rational(u0.numerator, u0.denominator)
        try:
            lo, hi = enclosure(fn(q))
        except (OutsideFragment, ValueError, TypeError):
            continue
        qv = z3.RealVal(f"{q.p}/{q.q}")
        lov, hiv = (z3.RealVal(f"{x.p}/{x.q}") for x in (lo, hi))
        if fn is sp.log:  # concave: below its tangent, log(u) <= log(u0) + (u - u0)/u0
            cuts.append(z3.Implies(arg > 0, var <= hiv + (arg - qv) / qv))
        if fn is sp.exp:  # convex: above its tangent, exp(u) >= exp(u0) (1 + u - u0)
            cuts.append(z3.Implies(arg >= qv - 1, var >= lov * (1 + arg - qv)))
        if increasing:
            cuts += [z3.Implies(arg <= qv, var <= hiv), z3.Implies(arg >= qv, var >= lov)]
        else:
            cuts += [z3.Implies(arg <= qv, var >= lov), z3.Implies(arg >= qv, var <= hiv)]
    return cuts


def _counterexample_once(claim: PreparedClaim, rel: Relation, f: Formula, model: Any, d: int,
                         truth_at: Any, effort: Effort) -> Outcome:
    """Round the model to rationals where the formula still holds, build the point, and
    re-verify the original claim there exactly."""
    import z3
    s = z3.Solver()
    s.add(*f.facts, f.goal)
    fixed: dict[str, sp.Expr] = {}
    for what, v in f.primary:
        if effort.exhausted():
            break
        approx = _model_fraction(model, v)
        done = False
        if approx is not None:
            for q in _simple_rationals(approx):
                s.push()
                s.add(v == z3.RealVal(f"{q.numerator}/{q.denominator}"))
                r = effort.solve(s, 2000)
                if r == z3.sat:
                    model = s.model()
                    fixed[what] = sp.Rational(q.numerator, q.denominator)
                    s.pop()
                    s.add(v == z3.RealVal(f"{q.numerator}/{q.denominator}"))
                    done = True
                    break
                s.pop()
        if not done:
            exact = _model_exact(model, v)
            if exact is None:
                return Outcome("unknown", f"the solver's value of {what} is not an exact real")
            fixed[what] = exact
            if exact.is_Rational:
                s.add(v == z3.RealVal(f"{exact.p}/{exact.q}"))
    point = _point_from(claim, f, fixed, d)
    if point is None:
        return Outcome("unknown", "the model could not be turned into vectors")
    verdict = truth_at(claim, rel, point)
    if rel.op == "!=":
        if verdict is True:
            return Outcome("witness", point=point)
        if verdict is False and f.enc.monotone:
            return Outcome("spurious", "the model violates the abstracted functions")
        return Outcome("unknown", "the solver's witness did not survive exact re-evaluation")
    if verdict is False:
        return Outcome("counterexample", point=point)
    if verdict is True and f.enc.monotone:
        return Outcome("spurious", "the model violates the abstracted functions")
    return Outcome("unknown", "the solver's counterexample did not survive exact "
                   f"re-evaluation ({'it holds there' if verdict else 'undecidable there'})")


def _point_from(claim: PreparedClaim, f: Formula, fixed: dict[str, sp.Expr], d: int):
    from .numclaim import Point
    values: dict[str, Any] = {}
    for name in claim.scalars:
        if name in fixed:
            values[name] = _as_value(fixed[name])
    values.update(_pinned(claim))
    if f.front == "gram":
        if d > realizable_cap(claim):
            return None
        # x = m ones + sum_j L_j h_{j+1}, h_k = (1, .., 1, -k, 0, ..) with k ones
        for i, v in enumerate(claim.vectors):
            coords = [fixed.get(f"m:{v}", sp.Integer(0))] * d
            coords = list(coords)
            for j in range(i + 1):
                lij = fixed.get(f"L:{i}:{j}", sp.Integer(0))
                if lij == 0:
                    continue
                k = j + 1
                if k > d - 1:
                    return None
                for t in range(k):
                    coords[t] += lij
                coords[k] -= k * lij
            values[v] = [_as_value(c) for c in coords]
    else:
        for v in claim.vectors:
            values[v] = [_as_value(fixed.get(f"{v}[{i}]", sp.Integer(0))) for i in range(d)]
        for mname in claim.matrices:
            values[mname] = [[_as_value(fixed.get(f"{mname}[{mname}[{r},{c}]]", sp.Integer(0)))
                              for c in range(1, d + 1)] for r in range(1, d + 1)]
    return Point(d, values)


def _as_value(x: sp.Expr):
    x = sp.nsimplify(x) if isinstance(x, sp.Float) else x
    if x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    return x


def _pinned(claim: PreparedClaim) -> dict[str, Any]:
    """Scalars that a hypothesis or assumption sets to a closed constant (``eps ==
    exp(-500)``): the point takes that exact value, not the solver's rational inside its
    enclosure, so the exact re-verification sees the hypothesis hold."""
    from ..lang.context import _names
    from ..lang.syntax import Name
    from .explicit import Explicit
    out: dict[str, Any] = {}
    for r in (*claim.given, *claim.assumptions):
        if r.op != "==":
            continue
        for a, b in ((r.left, r.right), (r.right, r.left)):
            if isinstance(a, Name) and a.id in claim.scalars and not _names(b):
                try:
                    val = Explicit(claim, 2).value(b)
                except (Unsupported, TypeError, ValueError):
                    continue
                if isinstance(val, sp.Expr) and val.is_number and not val.is_Rational:
                    out[a.id] = val
    return out


def realizable_cap(claim: PreparedClaim) -> int:
    """The largest d at which a counterexample of this claim is rebuilt and re-verified."""
    from ..lang.syntax import Call, Name, nodes
    if not (claim.vectors or claim.matrices):
        return 10**9  # only scalars and d: exact evaluation does not grow with d
    kinds = set()
    for r in (claim.relation, *claim.given, *claim.assumptions):
        for n in nodes(r):
            if isinstance(n, Call) and n.func == "jacobian":
                kinds.add("jacobian")
            elif isinstance(n, Name) and (n.id == "I" or n.id in claim.matrices):
                kinds.add("matrix")
    return min((MAX_REALIZED_D[k] for k in kinds), default=MAX_REALIZED_D["vector"])
