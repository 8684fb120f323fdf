"""The any-d engine: identities proved for every dimension d at once.

Every value a claim builds from ``I``, ``ones`` and declared vectors by sums, products,
transposes, inner products, scalar functions and differentiation has a finite structured
form, whatever d is:

* a vector is ``sum_p a_p b_p`` over the basis ``b_p`` (``ones`` and the declared vectors),
* a matrix is ``alpha I + sum_{p,q} m_pq b_p b_q^T``,
* a scalar is a SymPy expression in the declared scalars, ``d`` and the Gram symbols
  ``<b_p, b_q>`` (with ``<ones, ones> = d``).

Differentiation with respect to a declared vector ``x`` uses the chain rule through the Gram
symbols: ``d<x, b_q>/dx = b_q^T`` (``2 x^T`` for ``q = x``), and ``d b_p/dx = I`` iff
``b_p = x``.  A claim is proved when its difference has every coefficient identically zero
as a function of the Gram symbols (radicals reduced by :mod:`symnorm.engines.zero`): then it
holds for every realization of the vectors, in every dimension d, wherever it is defined.

Entrywise products (``hadamard(g, x)``) and diagonal matrices (``diag(g)``) extend the
forms: the basis then holds the entrywise monomials ``g*x`` of the declared vectors (``ones``
is the empty monomial), a matrix may have terms ``delta_m diag(b_m)`` (``I`` is
``diag(ones)``), and a scalar may use the moments ``sum_i prod_p b_p,i`` of monomials,
each an independent symbol (the Gram symbols are the moments of degree 1 and 2).  The
chain rule is ``d<b_m>/dx = k b_{m/x}^T`` and ``d b_m/dx = k diag(b_{m/x})`` for ``x``
appearing ``k`` times in ``m``.  An identity whose coefficients vanish as functions of
independent moments holds at every realization, so the proof stays one for every d.

What it cannot decide, it says so (:class:`Unsupported`): free matrices (``matrix W``),
vector literals, element-wise functions, hypotheses it cannot solve for a Gram symbol,
inequalities, and identities that need more than the relations above.  It never guesses:
a claim not shown to be zero is handed to the other engines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from ..lang.context import PreparedClaim
from ..lang.syntax import BinOp, Call, Expr, Name, Neg, Num, Relation, Transpose, VectorLit, nodes
from .zero import is_zero

__all__ = ["AnyD", "Mat", "Unsupported", "Vec", "check_domain", "prove_any_d", "scalar_symbols"]


class Unsupported(Exception):
    """The any-d engine cannot decide this claim (the message says why)."""


@dataclass
class Vec:
    coeffs: dict[str, sp.Expr]
    row: bool = False


@dataclass
class Mat:
    alpha: sp.Expr
    terms: dict[tuple[str, str], sp.Expr]
    #: ``diag(b_m)`` terms for entrywise monomials ``m`` other than ``ones`` (``alpha``)
    diag: dict[str, sp.Expr] = field(default_factory=dict)


Value = sp.Expr | Vec | Mat


def scalar_symbols(claim: PreparedClaim) -> dict[str, sp.Symbol]:
    """SymPy symbols for the claim's scalars, with sign assumptions from ``assume``."""
    signs: dict[str, dict[str, bool]] = {}
    for a in claim.assumptions:
        name, op, value = _simple_bound(a)
        if name is None:
            continue
        if op == ">" and value >= 0 or op == ">=" and value > 0:
            signs.setdefault(name, {})["positive"] = True
        elif op == ">=" and value == 0:
            signs.setdefault(name, {}).setdefault("nonnegative", True)
        elif op == "!=" and value == 0:
            signs.setdefault(name, {})["nonzero"] = True
        elif op == "<" and value <= 0 or op == "<=" and value < 0:
            signs.setdefault(name, {})["negative"] = True
    out = {}
    for n in claim.scalars:
        kw = signs.get(n, {})
        if "positive" in kw:
            kw.pop("nonnegative", None)
        if "negative" in kw and ("positive" in kw or "nonnegative" in kw):
            kw = {}  # contradictory bounds: no admissible point, which the SMT step reports
        out[n] = sp.Symbol(n, real=True, **kw)
    out["d"] = sp.Symbol("d", integer=True, positive=True)
    return out


def _simple_bound(rel: Relation) -> tuple[str | None, str, Fraction]:
    """``name op number`` (or ``number op name``, flipped) or ``(None, '', 0)``."""
    flip = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
    l, r = rel.left, rel.right
    if isinstance(l, Name) and _number(r) is not None:
        return l.id, rel.op, _number(r)  # type: ignore[return-value]
    if isinstance(r, Name) and _number(l) is not None:
        return r.id, flip[rel.op], _number(l)  # type: ignore[return-value]
    return None, "", Fraction(0)


def _number(e: Expr, depth: int = 0) -> Fraction | None:
    """A rational constant written with literals, ``-`` and ``+ - * /`` (``-1``, ``1/2``,
    ``-5/1``), folded exactly; None for anything else."""
    if isinstance(e, Num):
        return e.value
    if depth > 20:
        return None
    if isinstance(e, Neg):
        v = _number(e.operand, depth + 1)
        return None if v is None else -v
    if isinstance(e, BinOp) and e.op in ("+", "-", "*", "/"):
        a, b = _number(e.left, depth + 1), _number(e.right, depth + 1)
        if a is None or b is None or e.op == "/" and b == 0:
            return None
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else a}[e.op]
    return None


def substitutions(claim: PreparedClaim, syms: dict[str, sp.Symbol]) -> dict[sp.Symbol, sp.Expr]:
    """``assume name == number`` assumptions, as substitutions."""
    out = {}
    for a in claim.assumptions:
        name, op, value = _simple_bound(a)
        if name is not None and op == "==" and name in syms:
            out[syms[name]] = sp.Rational(value.numerator, value.denominator)
    return out


def has_entrywise(claim: PreparedClaim) -> bool:
    """Whether a claim uses ``hadamard`` or ``diag`` (entrywise monomials and moments)."""
    rels = (claim.relation, *claim.given, *claim.assumptions)
    return any(isinstance(n, Call) and n.func in ENTRYWISE for n in nodes(*rels))


ENTRYWISE = ("hadamard", "diag")


class AnyD:
    """Evaluates expanded expressions into structured values over symbolic d.

    ``entrywise=True`` admits ``hadamard``/``diag`` (monomial basis, moment symbols); the
    SMT step and the large-d sampler tie Gram symbols to realizable vectors and know no
    higher moments, so they construct the engine without it and get :class:`Unsupported`.
    """

    def __init__(self, claim: PreparedClaim, entrywise: bool = False) -> None:
        if claim.matrices:
            raise Unsupported("free matrices (matrix ...) have no structured form")
        if not entrywise and has_entrywise(claim):
            raise Unsupported("entrywise products have no Gram-symbol form for this step")
        self.entrywise = entrywise
        self.claim = claim
        self.syms = scalar_symbols(claim)
        self.subs = substitutions(claim, self.syms)
        self.radicands: list[tuple[str, sp.Expr]] = []  # sqrt/log arguments, for `finish`
        self.d = sp.Integer(claim.d_value) if claim.d_value else self.syms["d"]
        self.basis = ["ones", *claim.vectors]
        self.gram: dict[tuple[str, str], sp.Expr] = {}
        for i, p in enumerate(self.basis):
            for q in self.basis[i:]:
                g = self.d if p == q == "ones" else sp.Symbol(
                    f"<{p},{q}>", real=True, **({"nonnegative": True} if p == q else {}))
                self.gram[(p, q)] = self.gram[(q, p)] = g
        #: moment symbol -> its monomial (the Gram symbols and the higher moments)
        self.monomial_of: dict[sp.Symbol, tuple[str, ...]] = {}
        for (p, q), g in self.gram.items():
            if isinstance(g, sp.Symbol):
                self.monomial_of[g] = self._sorted(tuple(n for n in (p, q) if n != "ones"))
        self.moments: dict[tuple[str, ...], sp.Symbol] = {}
        #: declared vectors a hypothesis fixes (``given g == ones``), entrywise mode only
        self.vector_values: list[tuple[str, Vec]] = []
        self._memo: dict[int, Value] = {}

    # --- entrywise monomials ----------------------------------------------------------
    def _sorted(self, m: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(m, key=self.basis.index))

    @staticmethod
    def monomial(key: str) -> tuple[str, ...]:
        """``"ones"`` is the empty monomial, ``"g*x"`` the entrywise product of g and x."""
        return () if key == "ones" else tuple(key.split("*"))

    @staticmethod
    def key(m: tuple[str, ...]) -> str:
        return "*".join(m) if m else "ones"

    def times(self, p: str, q: str) -> str:
        """The basis key of the entrywise product of basis vectors ``p`` and ``q``."""
        return self.key(self._sorted(self.monomial(p) + self.monomial(q)))

    def moment(self, m: tuple[str, ...]) -> sp.Expr:
        """``sum_i prod_p b_p,i`` over the monomial ``m``: d, a Gram symbol, or a moment."""
        if len(m) == 0:
            return self.d
        if len(m) <= 2:
            return self.gram[("ones", m[0]) if len(m) == 1 else m]
        if m not in self.moments:
            even = all(m.count(n) % 2 == 0 for n in m)
            sym = sp.Symbol(f"<1,{'*'.join(m)}>", real=True,
                            **({"nonnegative": True} if even else {}))
            self.moments[m] = sym
            self.monomial_of[sym] = m
        return self.moments[m]

    def latex_names(self) -> dict[sp.Symbol, str]:
        """LaTeX for the engine's symbols: Gram symbols as inner products, Greek names."""
        names = {g: f"\\langle {_vec_tex(p)}, {_vec_tex(q)}\\rangle"
                 for (p, q), g in self.gram.items() if isinstance(g, sp.Symbol) and g != self.d}
        names.update({g: rf"\langle \mathbf{{1}}, {_vec_tex(self.key(m))}\rangle"
                      for m, g in self.moments.items()})
        names.update({sym: _GREEK[n] for n, sym in self.syms.items() if n in _GREEK})
        return names

    def G(self, p: str, q: str) -> sp.Expr:
        if (p, q) in self.gram:
            return self.gram[(p, q)]
        return self.moment(self.monomial(self.times(p, q)))

    # --- evaluation -------------------------------------------------------------------
    def value(self, e: Expr) -> Value:
        """The value of ``e`` at the assumed values (``assume t == 3``, ``eps=0``)."""
        return self.finish(self.raw(e))

    def raw(self, e: Expr) -> Value:
        """The value of ``e`` with every symbol free (memoized): what ``jacobian`` uses."""
        key = id(e)
        if key not in self._memo:
            self._memo[key] = self._value(e)
        return self._memo[key]

    def finish(self, v: Value) -> Value:
        """Substitute the assumed values into a computed value; differentiation is done."""
        if not self.subs:
            return v
        check_domain(self.radicands, self.subs)
        if isinstance(v, Vec):
            return Vec({p: c.subs(self.subs) for p, c in v.coeffs.items()}, v.row)
        if isinstance(v, Mat):
            return Mat(v.alpha.subs(self.subs),
                       {k: c.subs(self.subs) for k, c in v.terms.items()},
                       {k: c.subs(self.subs) for k, c in v.diag.items()})
        return v.subs(self.subs)

    def _value(self, e: Expr) -> Value:
        if isinstance(e, Num):
            return sp.Rational(e.value.numerator, e.value.denominator)
        if isinstance(e, Name):
            if e.id == "I":
                return Mat(sp.Integer(1), {})
            if e.id == "ones" or e.id in self.claim.vectors:
                return Vec({e.id: sp.Integer(1)})
            # a symbol, also when an assumption fixes its value: `value` substitutes the
            # value after every derivative is taken (d/dt of t**3 at t = 3 is 27, not 0)
            return self.d if e.id == "d" else self.syms[e.id]
        if isinstance(e, Neg):
            return scale(sp.Integer(-1), self.raw(e.operand))
        if isinstance(e, Transpose):
            return transpose(self.raw(e.operand))
        if isinstance(e, VectorLit):
            raise Unsupported("vector literals fix the coordinates; no any-d form")
        if isinstance(e, BinOp):
            a, b = self.raw(e.left), self.raw(e.right)
            if e.op == "+":
                return add(a, b)
            if e.op == "-":
                return add(a, scale(sp.Integer(-1), b))
            if e.op in ("*", "@"):
                return self.mul(a, b)
            if e.op == "/":
                return scale(1 / b, a)  # type: ignore[operator]
            if e.op == "**":
                if isinstance(a, Mat):
                    out: Value = a
                    for _ in range(int(b) - 1):  # type: ignore[arg-type]
                        out = self.mul(out, a)
                    return out
                return _power(a, b)  # type: ignore[arg-type]
        if isinstance(e, Call):
            return self._call(e)
        raise Unsupported(f"unsupported construct {e}")  # pragma: no cover

    def _call(self, e: Call) -> Value:
        if e.func == "jacobian":
            var = e.args[1]
            assert isinstance(var, Name)
            return check_smooth(self.jacobian(self.raw(e.args[0]), var.id), self.subs)
        a = self.raw(e.args[0])
        if e.func == "hadamard":
            b = self.raw(e.args[1])
            assert isinstance(a, Vec) and isinstance(b, Vec) and not (a.row or b.row)
            out: dict[str, sp.Expr] = {}
            for p, x in a.coeffs.items():
                for q, y in b.coeffs.items():
                    k = self.times(p, q)
                    out[k] = out.get(k, sp.Integer(0)) + x * y
            return Vec(out)
        if e.func == "diag":
            assert isinstance(a, Vec) and not a.row
            return Mat(a.coeffs.get("ones", sp.Integer(0)), {},
                       {p: c for p, c in a.coeffs.items() if p != "ones"})
        if e.func == "trace":
            assert isinstance(a, Mat)
            return self.trace(a)
        self.radicands.append((e.func, a))
        return real_function(e.func, a)

    def trace(self, m: Mat) -> sp.Expr:
        """``trace(alpha I + sum m_pq b_p b_q^T) = alpha d + sum m_pq <b_q, b_p>`` (and
        ``trace(diag(b_m))`` is the moment of ``m``)."""
        return m.alpha * self.d + sum((c * self.G(q, p) for (p, q), c in m.terms.items()),
                                      sp.Integer(0)) + sum(
            (c * self.moment(self.monomial(k)) for k, c in m.diag.items()), sp.Integer(0))

    def difference_terms(self, left: Value, right: Value) -> list[sp.Expr]:
        """Scalars whose simultaneous vanishing is ``left == right`` in every realization:
        a vector difference's inner products with the basis (it lies in their span), a
        matrix difference's squared Frobenius norm ``trace(D^T D)``, a scalar difference."""
        diff = add(left, scale(sp.Integer(-1), right))
        if isinstance(diff, Vec):
            col = transpose(diff) if diff.row else diff
            span = [*self.basis, *(k for k in col.coeffs if k not in self.basis)]
            return [sp.expand(self.inner(Vec({q: sp.Integer(1)}, row=True), col))
                    for q in span]
        if isinstance(diff, Mat):
            return [self.trace(self.mul(transpose(diff), diff))]
        return [diff]

    def inner(self, u: Vec, v: Vec) -> sp.Expr:
        return sp.Add(*[a * b * self.G(p, q) for p, a in u.coeffs.items()
                        for q, b in v.coeffs.items()])

    def mul(self, a: Value, b: Value) -> Value:
        if not isinstance(a, (Vec, Mat)):
            return scale(a, b)
        if not isinstance(b, (Vec, Mat)):
            return scale(b, a)
        if isinstance(a, Vec) and isinstance(b, Vec):
            if a.row and not b.row:
                return self.inner(a, b)
            if not a.row and b.row:
                return Mat(sp.Integer(0), {(p, q): x * y for p, x in a.coeffs.items()
                                           for q, y in b.coeffs.items()})
            raise Unsupported("shape mismatch in product")  # the checker rejects these
        if isinstance(a, Mat) and isinstance(b, Vec):
            out = {p: a.alpha * c for p, c in b.coeffs.items()}
            for m, dm in a.diag.items():
                for p, c in b.coeffs.items():
                    k = self.times(m, p)
                    out[k] = out.get(k, sp.Integer(0)) + dm * c
            for (p, q), m in a.terms.items():
                w = m * sp.Add(*[c * self.G(q, r) for r, c in b.coeffs.items()])
                out[p] = out.get(p, sp.Integer(0)) + w
            return Vec(out)
        if isinstance(a, Vec) and isinstance(b, Mat):
            return transpose(self.mul(transpose(b), transpose(a)))
        assert isinstance(a, Mat) and isinstance(b, Mat)
        terms: dict[tuple[str, str], sp.Expr] = {}
        def put(k: tuple[str, str], v: sp.Expr) -> None:
            terms[k] = terms.get(k, sp.Integer(0)) + v
        for k, v in a.terms.items():
            put(k, b.alpha * v)
        for k, v in b.terms.items():
            put(k, a.alpha * v)
        for (p, q), x in a.terms.items():
            for (r, s), y in b.terms.items():
                put((p, s), x * y * self.G(q, r))
        diag: dict[str, sp.Expr] = {}
        def put_diag(k: str, v: sp.Expr) -> None:
            diag[k] = diag.get(k, sp.Integer(0)) + v
        for m, x in a.diag.items():  # diag(b_m) diag(b_n) = diag(b_mn)
            put_diag(m, b.alpha * x)
            for n, y in b.diag.items():
                put_diag(self.times(m, n), x * y)
            for (p, q), y in b.terms.items():
                put((self.times(m, p), q), x * y)
        for n, y in b.diag.items():
            put_diag(n, a.alpha * y)
            for (p, q), x in a.terms.items():
                put((p, self.times(q, n)), x * y)
        return Mat(a.alpha * b.alpha, terms, diag)

    # --- differentiation --------------------------------------------------------------
    def grad(self, f: sp.Expr, var: str) -> dict[str, sp.Expr]:
        """Coefficients of the gradient of scalar ``f`` with respect to vector ``var``."""
        out = {}
        for q in self.basis:
            g = self.G(var, q)
            if isinstance(g, sp.Symbol) and f.has(g):
                out[q] = sp.diff(f, g) * (2 if q == var else 1)
        for m, g in self.moments.items():  # d<b_m>/dx = k b_{m/x}^T, x k times in m
            k = m.count(var)
            if k and f.has(g):
                rest = list(m)
                rest.remove(var)
                q = self.key(tuple(rest))
                out[q] = out.get(q, sp.Integer(0)) + k * sp.diff(f, g)
        return out

    def jacobian(self, f: Value, var: str) -> Value:
        if var in self.syms:  # derivative with respect to a scalar
            s = self.syms[var]
            if isinstance(f, Vec):
                return Vec({p: sp.diff(c, s) for p, c in f.coeffs.items()}, f.row)
            if isinstance(f, Mat):
                return Mat(sp.diff(f.alpha, s), {k: sp.diff(c, s) for k, c in f.terms.items()},
                           {k: sp.diff(c, s) for k, c in f.diag.items()})
            return sp.diff(f, s)
        if isinstance(f, Vec) and not f.row:
            terms = {}
            for p, c in f.coeffs.items():
                for q, gq in self.grad(c, var).items():
                    terms[(p, q)] = terms.get((p, q), sp.Integer(0)) + gq
            alpha = f.coeffs.get(var, sp.Integer(0))
            diag: dict[str, sp.Expr] = {}
            for p, c in f.coeffs.items():  # d b_m/dx = k diag(b_{m/x}), x k times in m
                m = list(self.monomial(p))
                k = m.count(var)
                if k and len(m) > 1:
                    m.remove(var)
                    q = self.key(tuple(m))
                    diag[q] = diag.get(q, sp.Integer(0)) + k * c
            return Mat(alpha, terms, diag)
        if isinstance(f, (Vec, Mat)):
            raise Unsupported("jacobian of a row vector or a matrix")
        return Vec(self.grad(f, var), row=True)

    # --- hypotheses -------------------------------------------------------------------
    def _vector_hypothesis(self, h: Relation) -> tuple[str, Vec] | None:
        """``g == expr`` with ``g`` a declared vector that ``expr`` does not involve: the
        value ``g`` has at the claim's point (entrywise mode only, see :meth:`put_vectors`)."""
        if not self.entrywise:
            return None
        for var, other in ((h.left, h.right), (h.right, h.left)):
            if not (isinstance(var, Name) and var.id in self.claim.vectors):
                continue
            v = self.put_vectors(self.value(other))
            if isinstance(v, Vec) and not v.row and not self._involves(v, var.id):
                return var.id, v
        return None

    def _involves(self, v: Value, var: str) -> bool:
        parts = list(v.coeffs) if isinstance(v, Vec) else []
        if any(var in self.monomial(k) for k in parts):
            return True
        return any(isinstance(c, sp.Basic) and any(
            var in self.monomial_of.get(sym, ()) for sym in c.free_symbols)
            for c in components(v))

    def put_vectors(self, v: Value) -> Value:
        """``v`` with each vector fixed by a hypothesis (``given g == ones``) replaced by its
        value, after every derivative was taken (a hypothesis fixes the point): a monomial
        ``g^k m`` becomes ``value^k o m``, a moment ``<1, g^k m>`` the moments of that."""
        for var, val in self.vector_values:
            v = self._put_vector(v, var, val)
        return v

    def _expand(self, key: str, var: str, val: Vec) -> dict[str, sp.Expr]:
        """The monomial ``key`` with each ``var`` in it replaced by ``val``."""
        m = list(self.monomial(key))
        k = m.count(var)
        out: dict[str, sp.Expr] = {self.key(tuple(n for n in m if n != var)): sp.Integer(1)}
        for _ in range(k):
            nxt: dict[str, sp.Expr] = {}
            for p, a in out.items():
                for q, b in val.coeffs.items():
                    r = self.times(p, q)
                    nxt[r] = nxt.get(r, sp.Integer(0)) + a * b
            out = nxt
        return out

    def _put_vector(self, v: Value, var: str, val: Vec) -> Value:
        symbols: dict[sp.Symbol, sp.Expr] = {}
        for sym, m in list(self.monomial_of.items()):
            if var in m:
                symbols[sym] = sp.Add(*[c * self.moment(self.monomial(p))
                                        for p, c in self._expand(self.key(m), var, val).items()])

        def c_(c: sp.Expr) -> sp.Expr:
            return c.xreplace(symbols) if isinstance(c, sp.Basic) and symbols else c

        def keyed(d: dict[str, sp.Expr]) -> dict[str, sp.Expr]:
            out: dict[str, sp.Expr] = {}
            for p, c in d.items():
                for q, w in self._expand(p, var, val).items():
                    out[q] = out.get(q, sp.Integer(0)) + w * c_(c)
            return out
        if isinstance(v, Vec):
            return Vec(keyed(v.coeffs), v.row)
        if isinstance(v, Mat):
            terms: dict[tuple[str, str], sp.Expr] = {}
            for (p, q), c in v.terms.items():
                for p2, a in self._expand(p, var, val).items():
                    for q2, b in self._expand(q, var, val).items():
                        terms[(p2, q2)] = terms.get((p2, q2), sp.Integer(0)) + a * b * c_(c)
            diag = keyed({**v.diag, "ones": v.alpha})
            return Mat(diag.pop("ones", sp.Integer(0)), terms, diag)
        return c_(v)

    def hypothesis_substitution(self) -> dict[sp.Symbol, sp.Expr]:
        """Solve each ``given`` equation for one Gram symbol or scalar it is linear in; in
        entrywise mode a hypothesis ``g == expr`` fixing a declared vector is kept whole
        (:meth:`put_vectors`), since its inner products leave the higher moments free."""
        eqs: list[sp.Expr] = []
        self.vector_values = []
        rest = []
        for h in self.claim.given:
            if h.op != "==":
                raise Unsupported(f"hypothesis '{h}' is not an equation")
            fixed = self._vector_hypothesis(h)
            if fixed is not None and all(fixed[0] != v for v, _ in self.vector_values):
                self.vector_values.append(fixed)
            else:
                rest.append(h)
        for h in rest:
            diff = self.put_vectors(
                add(self.value(h.left), scale(sp.Integer(-1), self.value(h.right))))
            if isinstance(diff, Vec):
                eqs += [self.inner(diff if not diff.row else transpose(diff),
                                   Vec({q: sp.Integer(1)})) for q in self.basis]
            elif isinstance(diff, Mat):
                raise Unsupported("matrix hypotheses")
            else:
                eqs.append(diff)
        sol: dict[sp.Symbol, sp.Expr] = {}
        candidates = [g for g in dict.fromkeys(self.gram.values())
                      if isinstance(g, sp.Symbol) and g != self.d]
        candidates.sort(key=lambda g: ("x" in g.name, g.name))  # prefer free vectors
        candidates += [s for n, s in self.syms.items() if n != "d"]
        if isinstance(self.d, sp.Symbol):
            candidates.append(self.d)  # last: keeps the proof in terms of d
        for eq in eqs:
            num = sp.numer(sp.together(eq.subs(sol)))
            num = sp.expand(num)
            if num == 0:
                continue
            for g in candidates:
                if g in sol or not num.has(g):
                    continue
                try:
                    p = sp.Poly(num, g)
                except sp.PolynomialError:  # g inside a radical or function: not linear
                    continue
                lc = p.LC()
                if p.degree() == 1 and (lc.is_number and lc != 0 or lc.is_nonzero):
                    value = sp.cancel(-p.nth(0) / p.LC())
                    sol = {k: v.subs(g, value) for k, v in sol.items()}
                    sol[g] = value
                    break
            else:
                raise Unsupported(f"cannot solve the hypotheses ({num} = 0) for a symbol")
        return sol


_NONSMOOTH = (sp.sign, sp.Heaviside, sp.DiracDelta, sp.Derivative, sp.Subs)


def check_smooth(v, subs: dict | None = None):
    """Refuse a derivative that SymPy could only write with sign() or unevaluated parts:
    at the kink it does not exist, and SymPy's value there (sign(0) = 0) is not a proof.

    With ``subs`` (assumed values, substituted after differentiating), sign(g) is accepted
    when g becomes a nonzero number there: abs(g) is smooth near that point."""
    parts = components(v) if isinstance(v, (Vec, Mat)) else [v]
    for c in parts:
        if not isinstance(c, sp.Basic) or not c.has(*_NONSMOOTH):
            continue
        away = subs and not c.has(*(f for f in _NONSMOOTH if f is not sp.sign)) and all(
            (g := s.args[0].subs(subs)).is_number and g.is_nonzero for s in c.atoms(sp.sign))
        if not away:
            raise Unsupported("the derivative involves sign() or an unevaluated derivative: "
                              "it does not exist where the argument of abs is 0")
    return v


def check_domain(calls: list[tuple[str, sp.Expr]], subs: dict) -> None:
    """Refuse sqrt or log of a negative constant (log of 0) once assumed values are in:
    the value is substituted after differentiating, and SymPy may have simplified the
    call away by then (sqrt(t)**2 is t)."""
    for name, a in calls:
        if isinstance(a, sp.Basic) and a.free_symbols & set(subs):
            real_function(name, a.subs(subs))


def real_function(name: str, a: sp.Expr) -> sp.Expr:
    """sqrt/abs/exp/log of a scalar; a negative constant under sqrt or log is not real."""
    if name in ("sqrt", "log") and a.is_number and (a.is_negative or name == "log" and a == 0):
        raise Unsupported(f"{name}({a}) is not a real number")
    fn = {"sqrt": sp.sqrt, "abs": sp.Abs, "exp": sp.exp, "log": sp.log}[name]
    return fn(a)


def add(a: Value, b: Value) -> Value:
    if isinstance(a, Vec) and isinstance(b, Vec):
        out = dict(a.coeffs)
        for p, c in b.coeffs.items():
            out[p] = out.get(p, sp.Integer(0)) + c
        return Vec(out, a.row)
    if isinstance(a, Mat) and isinstance(b, Mat):
        out2 = dict(a.terms)
        for k, c in b.terms.items():
            out2[k] = out2.get(k, sp.Integer(0)) + c
        diag = dict(a.diag)
        for m, c in b.diag.items():
            diag[m] = diag.get(m, sp.Integer(0)) + c
        return Mat(a.alpha + b.alpha, out2, diag)
    if isinstance(a, (Vec, Mat)) and b == 0:
        return a
    if isinstance(b, (Vec, Mat)) and a == 0:
        return b
    if isinstance(a, (Vec, Mat)) or isinstance(b, (Vec, Mat)):
        raise Unsupported("shape mismatch in sum")
    return a + b


def scale(k: sp.Expr, a: Value) -> Value:
    if isinstance(a, Vec):
        return Vec({p: k * c for p, c in a.coeffs.items()}, a.row)
    if isinstance(a, Mat):
        return Mat(k * a.alpha, {q: k * c for q, c in a.terms.items()},
                   {m: k * c for m, c in a.diag.items()})
    return k * a


def transpose(a: Value) -> Value:
    if isinstance(a, Vec):
        return Vec(a.coeffs, not a.row)
    if isinstance(a, Mat):
        return Mat(a.alpha, {(q, p): c for (p, q), c in a.terms.items()}, dict(a.diag))
    return a


_MAX_EXP = 10_000


def _power(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """``a**b`` with caps on literal exponents and on the size of exact powers."""
    if b.is_Rational and (abs(b.p) > _MAX_EXP or b.q > _MAX_EXP):
        raise Unsupported(f"exponent {b} exceeds the cap of {_MAX_EXP}")
    if a.is_Rational and b.is_Integer and abs(a.p) > 1 and \
            abs(b) * max(len(str(a.p)), len(str(a.q))) > 20_000:
        raise Unsupported("power too large to evaluate exactly")
    return a ** b


def components(v: Value) -> list[sp.Expr]:
    """The coefficients whose vanishing proves ``v == 0``."""
    if isinstance(v, Vec):
        return list(v.coeffs.values())
    if isinstance(v, Mat):
        return [v.alpha, *v.terms.values(), *v.diag.values()]
    return [v]


def prove_any_d(claim: PreparedClaim, relation: Relation | None = None) -> tuple[bool, list]:
    """Try to prove ``lhs == rhs`` for every d; returns (proved, steps).

    Raises :class:`Unsupported` when the claim is outside the engine's class.
    """
    rel = relation or claim.relation
    eng = AnyD(claim, entrywise=True)
    sol = eng.hypothesis_substitution() if claim.given else {}
    lhs, rhs = eng.value(rel.left), eng.value(rel.right)
    diff = add(lhs, scale(sp.Integer(-1), rhs))
    names = eng.latex_names()
    basis = ", ".join("1" if b == "ones" else b for b in eng.basis)
    jacs = [(call, eng.value(call)) for call in _jacobians(rel)]
    short = _abbreviations([lhs, rhs, *(v for _, v in jacs)], claim)

    def abbreviate(c: sp.Expr) -> sp.Expr:
        for long, name in short:
            c = c.subs(long, name)
        return c

    def shown(v: Value) -> str:  # for the reader only: the proof uses the full values
        return latex_value(map_value(v, abbreviate), names)
    roots = sum(1 for long, _ in short if isinstance(long, sp.Pow))
    # each step: a sentence saying what it does (plain text, no expression) and the maths
    steps = [{"text": "Abbreviate the square root" + ("s" if roots > 1 else "")
                      + " that recur" + ("" if roots > 1 else "s") + ":",
              "latex": r",\quad ".join(f"{sp.latex(t)} = {sp.latex(d, symbol_names=names)}"
                                        for t, d in _definitions(short))}] if short else []
    steps += [  # each derivative the claim takes, as the chain rule produced it
        {"text": f"Differentiate with respect to {call.args[1]} by the chain rule through "
                 "the Gram symbols:",
         "latex": shown(value), "of": str(call)}
        for call, value in jacs
    ]
    steps += [
        {"text": f"Write the left side in the basis {{{basis}}}:",
         "latex": shown(lhs), "side": "left"},
        {"text": "Write the right side in the same basis:", "latex": shown(rhs),
         "side": "right"},
    ]
    if sol:
        steps.append({"text": "Solve the hypotheses and substitute:", "latex": r",\ ".join(
            f"{sp.latex(k, symbol_names=names)} = {sp.latex(v, symbol_names=names)}"
            for k, v in sol.items())})
    diff = eng.put_vectors(diff)
    for c in components(diff):
        c = c.subs(sol) if sol else c
        if not is_zero(c):
            return False, steps
    roots = any(f == "sqrt" for f, _ in eng.radicands)
    squares = [f"{sp.latex(t)}^{{2}} = {sp.latex(d.base, symbol_names=names)}"
               for t, d in _definitions(short) if isinstance(d, sp.Pow)]
    steps.append({"text": "Subtract: every coefficient of left minus right reduces to 0"
                          + (" once each square root is replaced by its radicand when squared"
                             if roots else "")
                          + ", with d kept a symbol; so the identity holds throughout its "
                            "scope.",
                  "latex": (r",\ ".join(squares) + r"\ \Rightarrow\ " if squares else "")
                  + r"\text{left} - \text{right} = 0"})
    return True, steps


def map_value(v: Value, f) -> Value:
    """``v`` with ``f`` applied to every scalar coefficient."""
    if isinstance(v, Vec):
        return Vec({p: f(c) for p, c in v.coeffs.items()}, v.row)
    if isinstance(v, Mat):
        return Mat(f(v.alpha), {k: f(c) for k, c in v.terms.items()},
                   {k: f(c) for k, c in v.diag.items()})
    return f(v) if isinstance(v, sp.Basic) else v


_SHORT_NAMES = ("s", "r", "t", "q", "w", "z")


def _abbreviations(values: list[Value], claim: PreparedClaim
                   ) -> list[tuple[sp.Expr, sp.Expr]]:
    """Names for the square roots the displayed values share (``sqrt(eps + V) -> s``) and
    for the part of a radicand besides one symbol (``V -> v``), in the order to substitute.

    Only for display: a name is a fresh letter the claim does not use, and the step that
    introduces it shows its definition.
    """
    roots: dict[sp.Expr, None] = {}
    for v in values:
        for c in components(v):
            if not isinstance(c, sp.Basic):
                continue
            for p in c.atoms(sp.Pow):
                e = p.exp
                if e.is_Rational and e.q == 2 and not p.base.is_number and not any(
                        a.exp.is_Rational and a.exp.q == 2 for a in p.base.atoms(sp.Pow)):
                    roots[sp.sqrt(p.base)] = None
    if not roots or len(roots) > 3:
        return []
    used = set(claim.scalars) | set(claim.vectors) | set(claim.matrices) | {
        str(x) for v in values for c in components(v) if isinstance(c, sp.Basic)
        for x in c.free_symbols}
    free = [n for n in _SHORT_NAMES if n not in used]
    if len(free) < len(roots):
        return []
    out: list[tuple[sp.Expr, sp.Expr]] = [(root, sp.Symbol(name)) for root, name in
           zip(sorted(roots, key=sp.default_sort_key), free)]
    if len(roots) == 1 and "v" not in used:  # s = sqrt(eps + v): name the variance part
        base = next(iter(roots)).base
        symbols = [t for t in sp.Add.make_args(base) if t.is_Symbol]
        rest = base - symbols[0] if len(symbols) == 1 else None
        if rest is not None and not rest.is_Symbol and len(rest.free_symbols) > 1:
            v = sp.Symbol("v")
            out.append((rest, v))
            inner = [f for f in sp.Mul.make_args(rest) if f.is_Add]
            if len(inner) == 1:  # the sum inside v, with either sign, as a multiple of v
                k = sp.cancel(rest / inner[0])
                out += [(inner[0], v / k), (sp.Add(*(-t for t in inner[0].args)), -v / k)]
    return out


def _definitions(short: list[tuple[sp.Expr, sp.Expr]]) -> list[tuple[sp.Expr, sp.Expr]]:
    """Each abbreviation with its definition, a root written with the later names."""
    later = [(long, t) for long, t in short if not isinstance(long, sp.Pow)]
    out = []
    for long, t in short:
        if isinstance(long, sp.Pow):
            base = long.base
            for part, name in later:
                base = base.subs(part, name)
            out.append((t, sp.sqrt(base)))
        elif t.is_Symbol:  # the sums inside it are its multiples, not new names
            out.append((t, long))
    return out


def _jacobians(rel: Relation) -> list[Call]:
    """The distinct jacobian(...) calls of a relation."""
    return list(dict.fromkeys(n for n in nodes(rel)
                              if isinstance(n, Call) and n.func == "jacobian"))


def show(v: Value) -> str:
    """A structured value as plain text: ``I/s - (1/d)*ones*ones.T``-style terms."""
    def term(c: sp.Expr, what: str) -> str:
        return what if c == 1 else f"-{what}" if c == -1 else f"({c})*{what}"
    if isinstance(v, Vec):
        body = " + ".join(term(c, p) for p, c in v.coeffs.items() if c != 0) or "0"
        return body + (" (row)" if v.row else "")
    if isinstance(v, Mat):
        parts = [term(v.alpha, "I")] if v.alpha != 0 else []
        parts += [term(c, f"{p}*{q}.T") for (p, q), c in v.terms.items() if c != 0]
        parts += [term(c, f"diag({p})") for p, c in v.diag.items() if c != 0]
        return " + ".join(parts) or "0"
    return str(v)


_GREEK = {"eps": r"\epsilon", "alpha": r"\alpha", "beta": r"\beta", "gamma": r"\gamma",
          "sigma": r"\sigma", "mu": r"\mu", "lambda_": r"\lambda", "tau": r"\tau"}


def _vec_tex(p: str) -> str:
    """A basis key as LaTeX; an entrywise monomial ``g*x`` is g odot x."""
    if "*" in p:
        return r"\left(" + r" \odot ".join(_vec_tex(q) for q in p.split("*")) + r"\right)"
    return r"\mathbf{1}" if p == "ones" else _GREEK.get(p, p)


def latex_value(v: Value, names: dict[sp.Symbol, str] | None = None) -> str:
    """A structured value as LaTeX, Gram symbols as inner products; a negative coefficient
    is written as a subtraction (``I - \\frac{1}{d}\\mathbf{1}\\mathbf{1}^\\top``)."""
    def tex(c: sp.Expr) -> str:
        return sp.latex(c, symbol_names=names or {})

    def terms(pairs: list[tuple[sp.Expr, str]]) -> str:
        out = ""
        for c, what in pairs:
            if c == 0:
                continue
            c = c if isinstance(c, sp.Basic) else sp.Integer(c)
            negative = c.could_extract_minus_sign()
            c = -c if negative else c
            body = what if c == 1 else \
                f"\\left({tex(c)}\\right){what}" if isinstance(c, sp.Add) else \
                f"{tex(c)}\\,{what}"
            out += (" - " if negative else " + ") + body if out else \
                ("-" if negative else "") + body
        return out or "0"
    if isinstance(v, Vec):
        body = terms([(c, _vec_tex(p)) for p, c in v.coeffs.items()])
        if not v.row or body == "0":
            return body
        single = " + " not in body and " - " not in body
        return f"{body}^\\top" if single else f"\\left({body}\\right)^\\top"
    if isinstance(v, Mat):
        return terms([(v.alpha, "I"), *((c, f"{_vec_tex(p)}{_vec_tex(q)}^\\top")
                                        for (p, q), c in v.terms.items()),
                      *((c, rf"\operatorname{{diag}}({_vec_tex(p)})")
                        for p, c in v.diag.items())])
    return tex(v)
