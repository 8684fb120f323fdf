"""The reduced claim probed along a ladder of dimensions, from d = 2 to d = 10**12.

The numeric engine builds vectors, so it stops at d = 12 or so for vector claims; a claim
that fails only from d = 142 on (``norm(N(x))**2 * 1.1**d <= 10**8``), or only for
200 < d < 400 (``d*2**(-d/200) <= 100``), would look confirmed.  The any-d reduction turns a
claim into scalars in ``d``, the declared scalars and the Gram symbols; realizable Gram
values are put in with the parametrization of the SMT step (``<ones, x> = d m_x``,
``<x, y> = d m_x m_y + sum_j (j+1)(j+2) L_xj L_yj``, vectors built from the Helmert basis),
at every d of :data:`LADDER` (each d up to 1024, then ratios of 1.02 up to 10**6 and of 1.25
up to 10**12, with the round numbers ``c * 10**k``, ``2**k`` and their neighbours).  Between
ladder points an inequality's margin is minimized over the integers near each of its
smallest local minima, so a failure at a single d (``(d - 10**7)**2 >= 1``) is found too.

Every value is a ball of arb (:mod:`symnorm.engines.balls`) that contains the true value:
a failure is reported only when a ball certainly lies on the failing side, at an exact
rational point where every assumption and hypothesis holds just as certainly.  A failure
says that small-d agreement confirms nothing; :mod:`symnorm.check.decide` refutes only after
the original claim is evaluated exactly at the vectors this module builds (:func:`rebuild`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..lang.context import PreparedClaim
from ..lang.syntax import Relation
from .anyd import AnyD, Unsupported
from .balls import NotCompiled, compile_balls, precision, rational_ball
from .child import cpu_clock, forked


def flint_zero() -> Any:
    import flint
    return flint.arb(0)

__all__ = ["DENSE_TOP", "LADDER", "Failure", "Probe", "probe_ladder", "rebuild"]

DENSE_TOP = 1024
TOP = 10**12


def _ladder() -> tuple[int, ...]:
    ds = set(range(2, DENSE_TOP + 1))
    x = float(DENSE_TOP)
    while x < 10**6:
        x *= 1.02
        ds.add(round(x))
    while x < TOP:
        x *= 1.25
        ds.add(round(x))
    for k in range(3, 13):
        for c in range(1, 10):
            ds.update(c * 10**k + e for e in (-1, 0, 1))
    for k in range(10, 41):
        ds.update(2**k + e for e in (-1, 0, 1))
    return tuple(sorted(d for d in ds if 2 <= d <= TOP))


LADDER = _ladder()
#: parameter sets (scalars, m, L) per claim; each is evaluated along the whole ladder
THETAS = 3
SCREEN_BITS = 160
EXACT_BITS = (640, 4096, 1 << 15)
#: local minima of an inequality's margin refined per parameter set
REFINED = 4
#: ambiguous screen results looked at again at higher precision, per claim
MAX_LOOKS = 12


@dataclass
class Failure:
    """A point where the reduced claim certainly fails."""

    d: int
    difference: str
    theta: dict[str, sp.Rational]  # the scalars, m_x and L_x_j that produced it
    shown: dict[str, str]  # the scalar values, for the message


@dataclass
class Probe:
    """What the ladder probed and found."""

    ds: list[int] = field(default_factory=list)  # the d where some point was evaluated
    points: int = 0
    failure: Failure | None = None
    cut: bool = False  # the deadline stopped it before the end of the ladder
    message: str = ""  # set by the verdict logic: where it fails and why not refuted
    rebuildable: bool = True  # theta alone fixes the vectors (no Gram symbol solved)

    def describe(self) -> str:
        """``the reduced claim at 4100 points, every d = 2..1024 and 611 d up to 10**12``."""
        if not self.ds:
            return ""
        dense = [d for d in self.ds if d <= DENSE_TOP]
        every = dense and dense == list(range(dense[0], dense[-1] + 1))
        far = [d for d in self.ds if d > DENSE_TOP]
        head = f"every d = {dense[0]}..{dense[-1]}" if every else \
            f"{len(dense)} d in {dense[0]}..{dense[-1]}" if dense else ""
        tail = f"{len(far)} d up to {_power_text(far[-1])}" if far else ""
        return f"the reduced claim at {self.points} points, " + \
            " and ".join(x for x in (head, tail) if x)


def _power_text(n: int) -> str:
    k = len(str(n)) - 1
    return f"10**{k}" if n == 10**k else str(n)


class _Reduced:
    """The reduced claim as compiled ball functions of (d, scalars, Gram symbols)."""

    def __init__(self, claim: PreparedClaim, rel: Relation) -> None:
        eng = AnyD(claim)
        try:
            goal = eng.difference_terms(eng.value(rel.left), eng.value(rel.right))
        except Unsupported:
            eng.subs = {}
            goal = eng.difference_terms(eng.value(rel.left), eng.value(rel.right))
        try:
            sol: dict | None = eng.hypothesis_substitution() if claim.given else {}
        except Unsupported:  # the hypotheses stay conditions that points must meet
            sol = None
        self.dsym = eng.syms["d"]
        if self.dsym in (sol or {}):
            raise Unsupported("a hypothesis fixes d")
        self.fixed = {**eng.subs, **(sol or {})}  # assumed values and solved hypotheses
        grams = {g for g in eng.gram.values() if isinstance(g, sp.Symbol) and g != self.dsym}
        self.rebuildable = sol is not None and not (set(sol) & grams)
        self.op = rel.op
        self.vecs = list(claim.vectors)
        self.gram = {k: g for k, g in eng.gram.items() if g in grams}
        self.free = [eng.syms[n] for n in claim.scalars if eng.syms[n] not in self.fixed]
        self.scalars = claim.scalars
        self.syms = eng.syms

        def put(e: sp.Expr) -> sp.Expr:
            e = sp.sympify(e)
            return e.subs(self.fixed) if self.fixed else e
        self.goal = [put(t) for t in goal]
        conds: list[tuple[str, sp.Expr]] = []
        # solved hypotheses hold by construction (each equation was solved in turn)
        for a in (*claim.assumptions, *(claim.given if sol is None else ())):
            terms = eng.difference_terms(eng.value(a.left), eng.value(a.right))
            if a.op == "==":
                conds += [("==", put(t)) for t in terms]
            elif a.op == "!=":
                conds.append(("!=", sum((put(t) ** 2 for t in terms), sp.Integer(0))))
            else:
                conds.append((a.op, put(terms[0])))
        conds += [(">=" if f == "sqrt" else ">", put(r)) for f, r in eng.radicands
                  if f in ("sqrt", "log")]
        self.conds = conds
        self.gvals = [put(v) for v in self.fixed.values()]  # must be real where defined
        args = [self.dsym, *self.free, *grams]
        exprs = [*self.goal, *(c for _, c in conds), *self.gvals]
        self.parts = [list(t.args) if isinstance(t, sp.Add) else [t] for t in self.goal]
        flat = [a for p in self.parts for a in p]
        self.fn = compile_balls([*exprs, *flat], args)
        self.n_goal, self.n_cond = len(self.goal), len(conds)

    def theta(self, rng: random.Random, bounds: dict[str, list]) -> dict[str, sp.Rational]:
        out: dict[str, sp.Rational] = {}
        for s in self.free:
            out[s.name] = _bounded(rng, bounds.get(s.name, []))
        for i, v in enumerate(self.vecs):
            out[f"m:{v}"] = _rand(rng)
            for j in range(i + 1):
                x = _rand(rng)
                out[f"L:{i}:{j}"] = x if x != 0 or j != i else sp.Integer(1)
        return out

    def env(self, theta: dict[str, sp.Rational], d: int) -> dict[sp.Symbol, Any]:
        """Balls of every argument at ``theta`` and ``d`` (Gram values exact rationals)."""
        env: dict[sp.Symbol, Any] = {self.dsym: rational_ball(d)}
        for s in self.free:
            env[s] = rational_ball(theta[s.name])
        for sym, val in self.gram_values(theta, d).items():
            env[sym] = rational_ball(val)
        return env

    def gram_values(self, theta: dict[str, sp.Rational], d: int) -> dict[sp.Symbol, sp.Rational]:
        out = {}
        for (p, q), g in self.gram.items():
            if p == "ones":
                out[g] = d * theta[f"m:{q}"]
            elif q == "ones":
                out[g] = d * theta[f"m:{p}"]
            else:
                i, k = self.vecs.index(p), self.vecs.index(q)
                out[g] = d * theta[f"m:{p}"] * theta[f"m:{q}"] + sum(
                    ((j + 1) * (j + 2) * theta[f"L:{i}:{j}"] * theta[f"L:{k}:{j}"]
                     for j in range(min(i, k) + 1)), sp.Integer(0))
        return out

    def margin(self, theta: dict, d: int) -> tuple[Any, Any] | None:
        """(margin, scale) balls at ``theta`` and ``d``: the claim holds where the margin is
        > 0 (>= 0 when not strict; == 0 for ``==``, whose margin is minus the |term| most
        certainly nonzero); the scale is the sum of the |terms| of that difference.  None
        where something is undefined or an assumption does not certainly hold."""
        vals = self.fn(self.env(theta, d))
        goal = vals[:self.n_goal]
        conds = vals[self.n_goal:self.n_goal + self.n_cond]
        rest = vals[self.n_goal + self.n_cond:]
        gv, flat = rest[:len(self.gvals)], rest[len(self.gvals):]
        if not all(x.is_finite() for x in (*goal, *conds, *gv, *flat)):
            return None
        for (op, _), c in zip(self.conds, conds):
            if not _certainly(op, c):
                return None
        scales, k = [], 0
        for p in self.parts:
            scales.append(sum((abs(x) for x in flat[k:k + len(p)]), flint_zero()))
            k += len(p)
        if self.op == "==":
            i = next((i for i, g in enumerate(goal) if not g.contains(0)),
                     max(range(len(goal)), key=lambda i: goal[i].rad() / (scales[i] + 1)))
            return -abs(goal[i]), scales[i]
        g = goal[0]
        return (-g if self.op in ("<", "<=") else g), scales[0]

    def fails(self, m: Any) -> bool:
        """Whether a margin ball certainly means a failure."""
        return bool(m <= 0) if self.op in ("<", ">") else bool(m < 0)

    def candidate(self, m: Any, scale: Any) -> bool:
        """A failure, or a margin ball too wide to tell (rounding at this precision):
        worth a look at higher precision.  An exact 0 is an equality case."""
        if self.fails(m):
            return True
        if not m.contains(0) or m.is_exact():
            return False
        return bool(m.rad() > scale * 2**(-SCREEN_BITS // 2)) or self.op != "=="

    def shown(self, theta: dict, d: int) -> dict[str, str]:
        out = {"d": str(d)}
        out.update({s.name: str(theta[s.name]) for s in self.free})
        return out


def _certainly(op: str, c: Any) -> bool:
    if op == "==":
        return c.is_exact() and c == 0
    if op == "!=":
        return not c.contains(0)
    return {"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]


def _rand(rng: random.Random) -> sp.Rational:
    return sp.Rational(rng.randint(-40, 40), rng.choice([1, 2, 3, 5, 7]))


def _bounded(rng: random.Random, bounds: list) -> sp.Rational:
    """A random rational inside the simple bounds (``a > 0``, ``b <= 3``) on one scalar."""
    lo = max((b for op, b in bounds if op in (">", ">=")), default=None)
    hi = min((b for op, b in bounds if op in ("<", "<=")), default=None)
    r = abs(_rand(rng)) + sp.Rational(1, rng.choice([2, 3, 7]))
    if lo is not None and hi is not None:
        return lo + (hi - lo) * sp.Rational(rng.randint(1, 99), 100)
    if lo is not None:
        return lo + r
    if hi is not None:
        return hi - r
    return _rand(rng)


def probe_ladder(claim: PreparedClaim, rel: Relation, seed: int,
                 admissible: Callable[[int], bool], deadline: float) -> Probe | None:
    """Probe the reduced claim along :data:`LADDER`; None when there is no reduction."""
    if claim.d_value or claim.matrices or rel.op == "!=":
        return None
    try:
        red = _Reduced(claim, rel)
    except (Unsupported, NotCompiled, TypeError, ValueError, ZeroDivisionError,
            RecursionError, AttributeError):
        return None
    from .anyd import _simple_bound
    bounds: dict[str, list] = {}
    for a in claim.assumptions:
        name, op, v = _simple_bound(a)
        if name is not None and op in ("<", "<=", ">", ">="):
            bounds.setdefault(name, []).append((op, sp.Rational(v.numerator, v.denominator)))
    rng = random.Random(seed)
    out = Probe(rebuildable=red.rebuildable)
    low = len(red.vecs) + 1  # the Helmert basis needs d - 1 >= the number of vectors
    ds = [d for d in LADDER if d >= low and admissible(d)]
    thetas = [red.theta(rng, bounds) for _ in range(THETAS)]
    seen: set[int] = set()
    curves: list[list[tuple[int, Any]]] = [[] for _ in thetas]
    looks = MAX_LOOKS
    with precision(SCREEN_BITS):
        for d in ds:
            if cpu_clock() > deadline:
                out.cut = True
                break
            for k, th in enumerate(thetas):
                got = _margin(red, th, d)
                if got is None:
                    continue
                m, scale = got
                if red.candidate(m, scale):
                    if looks <= 0:
                        continue  # undecided at this precision: not counted as probed
                    looks -= 1
                    fail, held = _confirm(red, th, d)
                    if fail:
                        out.failure = fail
                        return out
                    if not held:
                        continue
                if d not in seen:
                    seen.add(d)
                    out.ds.append(d)
                out.points += 1
                curves[k].append((d, m, scale))
        if red.op != "==" and not out.cut:
            for k, th in enumerate(thetas):
                for d in _refine(red, th, curves[k], deadline):
                    fail, _ = _confirm(red, th, d)
                    if fail:
                        out.failure = fail
                        return out
    return out


def _margin(red: _Reduced, th: dict, d: int) -> tuple[Any, Any] | None:
    try:
        return red.margin(th, d)
    except (ZeroDivisionError, ValueError, TypeError, OverflowError):
        return None


def _confirm(red: _Reduced, th: dict, d: int) -> tuple[Failure | None, bool]:
    """The failure at ``(th, d)`` certified at increasing precision (or None), and whether
    the claim certainly holds there instead."""
    for bits in EXACT_BITS:
        with precision(bits):
            got = _margin(red, th, d)
            if got is None:
                continue
            m, _ = got
            if red.fails(m):
                return Failure(d=d, difference=m.str(8, radius=False), theta=dict(th),
                               shown=red.shown(th, d)), False
            if not m.contains(0) or m.is_exact():
                return None, True
    return None, False


def _refine(red: _Reduced, th: dict, curve: list, deadline: float) -> list[int]:
    """The integers near the smallest local minima of the margin, between ladder points
    that are not neighbours: a golden-section search on the integers of each gap."""
    mins = []
    for i in range(1, len(curve) - 1):
        (a, ma, _), (_, mb, sb), (c, mc, _) = curve[i - 1], curve[i], curve[i + 1]
        if c - a > 2 and bool(mb.mid() <= ma.mid()) and bool(mb.mid() <= mc.mid()):
            mins.append((mb.mid() / (sb.mid() + 1), a, c))
    out = []
    for _, a, c in _smallest(mins):
        if cpu_clock() > deadline:
            break
        d = _golden(red, th, a, c, deadline)
        if d is not None:
            got = _margin(red, th, d)
            if got is not None and red.candidate(*got):
                out.append(d)
    return out


def _smallest(mins: list) -> list:
    """The :data:`REFINED` entries with the smallest relative margin (arb keys)."""
    out: list = []
    for item in mins:
        out.append(item)
        out.sort(key=lambda t: float(t[0]) if t[0].is_finite() else float("inf"))
        del out[REFINED:]
    return out


def _golden(red: _Reduced, th: dict, lo: int, hi: int, deadline: float) -> int | None:
    """An integer in ``[lo, hi]`` near a minimum of the margin (assumed unimodal there)."""
    cache: dict[int, Any] = {}

    def g(d: int) -> Any:  # the margin's midpoint; None (as +infinity) where undefined
        if d not in cache:
            got = _margin(red, th, d)
            cache[d] = None if got is None else got[0].mid()
        return cache[d]

    def below(a: int, b: int) -> bool:
        x, y = g(a), g(b)
        return x is not None and (y is None or bool(x <= y))
    while hi - lo > 3 and cpu_clock() < deadline:
        x1 = lo + (hi - lo) * 382 // 1000
        x2 = lo + (hi - lo) * 618 // 1000
        if below(x1, x2):
            hi = x2
        else:
            lo = x1
    best = lo
    for d in range(lo + 1, hi + 1):
        if below(d, best):
            best = d
    return best if g(best) is not None else None


def rebuild(claim: PreparedClaim, fail: Failure):
    """The exact point (vectors from the Helmert basis, scalars, solved hypotheses) that
    realizes a failure; None when a hypothesis fixes a Gram symbol (no direct rebuild)."""
    from .numclaim import Point
    from .smt import _as_value
    red = _Reduced(claim, claim.relation)
    if not red.rebuildable:
        return None
    th, d = fail.theta, fail.d
    values: dict[str, Any] = {}
    grams = red.gram_values(th, d)
    at = {red.dsym: sp.Integer(d), **{s: th[s.name] for s in red.free}, **grams}
    for name in claim.scalars:
        sym = red.syms[name]
        if sym in red.fixed:
            values[name] = _as_value(sp.sympify(red.fixed[sym]).xreplace(at))
        else:
            values[name] = _as_value(th[name])
    for i, v in enumerate(red.vecs):
        coords = [th[f"m:{v}"]] * d
        for j in range(i + 1):
            lij = th[f"L:{i}:{j}"]
            k = j + 1
            for t in range(k):
                coords[t] += lij
            coords[k] -= k * lij
        values[v] = [_as_value(c) for c in coords]
    return Point(d, values)


def verify_failure(claim: PreparedClaim, rel: Relation, fail: Failure, rebuildable: bool,
                   seconds: float) -> dict | None:
    """The counterexample of the original claim at the failure's d, evaluated exactly in a
    forked child with ``seconds`` of CPU time (:func:`symnorm.engines.child.forked`): at
    the vectors :func:`rebuild` makes, or (when a hypothesis fixes a Gram symbol) at a
    model the SMT step finds at that d and re-verifies.  None when neither finishes or
    re-verifies; the dict shows the point (long vectors abbreviated), both sides when they
    were computed in time, and the point's values under ``"_values"``."""
    if rebuildable:
        point = rebuild(claim, fail)
        if point is None:
            return None

        def job() -> Iterator[Any]:
            from .exacteval import _values, truth_at
            yield truth_at(claim, rel, point)
            yield _values(claim, rel, point)
        got = forked(job, seconds)
        if not got or got[0] is not False:
            return None
        sides = got[1] if len(got) > 1 else None
    else:
        from .smt import decide_smt

        def job() -> Iterator[Any]:
            out = decide_smt(claim, rel, budget=seconds, d_bounds=(fail.d, fail.d))
            yield out.point if out.status == "counterexample" else None
        got = forked(job, seconds)
        if not got or got[0] is None:
            return None
        point, sides = got[0], None
    where: dict[str, Any] = {k: _short(x) for k, x in point.describe().items()}
    if sides is not None:
        def show(xs: list) -> Any:
            return _number(xs[0]) if len(xs) == 1 else _short([_number(x) for x in xs])
        where.update(lhs=show(sides[0]), rhs=show(sides[1]))
    where["verified"] = "exact evaluation of the claim at this point"
    where["_values"] = dict(point.values)
    return where


def _number(x: Any) -> str:
    """An exact value as text; one longer than 60 characters rounded to 15 digits (``~``)."""
    text = str(x)
    if len(text) <= 60:
        return text
    try:
        return "~" + str(sp.N(x, 15))
    except (TypeError, ValueError):
        return text


def _short(x: Any) -> Any:
    """A long vector as text: its first entries, then how many repeat the last one."""
    if not isinstance(x, list) or len(x) <= 16:
        return x
    tail = x[-1]
    n = 0
    while n < len(x) and x[len(x) - 1 - n] == tail:
        n += 1
    head = x[:len(x) - n]
    if len(head) > 16 or n < 2:
        return x
    return "[" + ", ".join([*head, f"then {tail} repeated {n} times"]) + "]"
