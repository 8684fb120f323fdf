"""The verdict logic: which engines run on a claim, and what their answers mean.

For ``==``: the any-d engine first; a proof there is cross-checked by the numeric engine
(and, when no numeric point agreed, by the explicit engine at small d), and a disagreement
is an internal error, never a pass.
Without a general proof: a numeric counterexample refutes; exact proofs at d = 2..8 give
``proved-for``; numeric agreement alone gives ``confirmed``.  ``!=`` is proved by a
witness and refuted by a proof of identity.  Inequalities are decided numerically.
"""

from __future__ import annotations

import random
import re
import time
import zlib
from dataclasses import replace
from fractions import Fraction

import sympy as sp

from ..engines import anyd, explicit
from ..engines.anyd import Unsupported, has_entrywise
from ..engines.child import cpu_clock
from ..engines.numclaim import (
    Point,
    Undefined,
    classify,
    near_branch,
    root_points,
    sample_point,
    solve_hypotheses,
)
from ..errors import InternalError
from ..lang.context import PreparedClaim, _names
from ..lang.syntax import Relation
from .limits import DEFAULT_TIMEOUT
from .verdict import CONFIRMED, PROVED, PROVED_FOR, REFUTED, UNDECIDED, Verdict

__all__ = ["DEFAULT_DS", "decide"]

DEFAULT_DS = (2, 3, 4, 5, 6, 7, 8)
#: numeric sampling goes beyond the explicit engine's dimensions before confirming
NUMERIC_EXTRA_DS = (12,)
NUMERIC_DS = (2, 3, 5)
POINTS_PER_D = 2


def _has_vectors(c: PreparedClaim) -> bool:
    """Whether the dimension d plays a role in the claim."""
    if c.vectors or c.matrices:
        return True
    names = set().union(*(_names(r.left) | _names(r.right) for r in (c.relation, *c.given)))
    return bool(names & {"I", "ones", "d"})


def _dims(c: PreparedClaim, ds: tuple[int, ...]) -> tuple[int, ...]:
    if c.d_value:
        return (c.d_value,)
    def admissible(d: int) -> bool:
        return _admissible(c, d)
    chosen = tuple(d for d in ds if admissible(d))
    if chosen:
        return chosen
    # every listed d is excluded: take the first admissible ones beyond them
    return tuple(d for d in range(2, 200) if admissible(d))[:3]


#: Sample points where the claim is not defined, kept as evidence rows (``"singular"``).
MAX_SKIPPED_ROWS = 6


class _Numeric:
    """Runs the numeric engine over sample points and collects evidence."""

    def __init__(self, claim: PreparedClaim, dps: int, deadline: float) -> None:
        self.claim, self.dps, self.deadline = claim, dps, deadline
        # seeded by what the claim says, never by where the file lies (verdicts must not
        # depend on the path as typed)
        seed = zlib.crc32("\n".join([claim.label, claim.statement, str(claim.relation),
                                     *map(str, claim.given), *map(str, claim.assumptions),
                                     str(claim.d_value)]).encode())
        self.rng = random.Random(seed)
        self.evidence: list[dict] = []
        self.skipped: list[dict] = []  # points where the claim is not defined (singular)
        self.counterexample: dict | None = None
        self.incomplete = False  # some points came from part of the hypotheses' solutions
        self._n = 0  # points attempted: drives the sign/special/root coverage of samples
        self._pending: list[Point] = []  # equality cases of an inequality, tried early
        self.cut = False  # the time limit stopped the sampling before its planned points
        self.probe = None  # what the ladder of d found (symnorm/engines/gramsample.py)

    def run(self, rel: Relation, ds: tuple[int, ...], per_d: int = POINTS_PER_D,
            stop_on_differ: bool = True) -> tuple[int, int, int]:
        """(agree, differ, unclear) counts over the points tried."""
        agree = differ = unclear = 0
        def solver(p: Point) -> Point | None:  # alternate the roots of quadratics
            return solve_hypotheses(self.claim, p, root=1 if self._n % 2 == 0 else -1)
        if not _has_vectors(self.claim):
            per_d = max(per_d, 24)  # d plays no role and scalars are cheap: many points
        elif len(ds) == 1:
            per_d = max(per_d, 10)  # one dimension: more points instead
        elif not (self.claim.vectors or self.claim.matrices):
            per_d = max(per_d, 4)  # scalars whose claim depends on d: cheap, sample more
        for d in ds:
            got = 0
            for attempt in range(per_d * 6):
                if got >= per_d:
                    break
                if cpu_clock() > self.deadline:
                    self.cut = True  # fewer points than planned: confirms nothing
                    break
                point = sample_point(self.claim, d, self.rng,
                                     solver if self.claim.given else None, index=self._n)
                if point is not None and self._n >= 8 and self._n % 2 == 0 \
                        and not self.claim.given:
                    point = near_branch(self.claim, point, self.rng, self._n // 2)
                if point is not None and self._n == 1 and rel.op in ("<", ">", "<=", ">=") \
                        and not self.claim.given:
                    self._pending = root_points(self.claim, rel, point)
                if self._pending and self._n > 1:
                    point = self._pending.pop()
                self._n += 1
                if point is None or not self._assumptions_hold(point):
                    continue
                if not point.complete:
                    self.incomplete = True
                try:
                    out = classify(self.claim, rel, point, self.dps)
                except (Undefined, ZeroDivisionError) as exc:
                    if len(self.skipped) < MAX_SKIPPED_ROWS:  # shown, never counted
                        self.skipped.append({
                            "d": d, "point": point.describe(), "dps": self.dps,
                            "second_dps": self.dps + 20, "lhs": "", "rhs": "", "digits": 0.0,
                            "result": "singular", "reason": str(exc) or type(exc).__name__})
                    continue
                except (ValueError, TypeError):
                    continue
                got += 1
                row = {"d": d, "point": point.describe(), "dps": self.dps,
                       "second_dps": self.dps + 20, "lhs": out.lhs, "rhs": out.rhs,
                       "digits": round(out.digits, 1), "result": out.status}
                self.evidence.append(row)
                if out.status == "agree":
                    agree += 1
                elif out.status == "differ":
                    differ += 1
                    if self.counterexample is None:
                        where = point.describe()
                        if not _has_vectors(self.claim):
                            where.pop("d")
                        self.counterexample = dict(where, lhs=out.lhs, rhs=out.rhs,
                                                   difference=out.diff_text
                                                   or f"{out.diff:.6g}",
                                                   confirmed_at_dps=[self.dps, self.dps + 20])
                    if stop_on_differ:
                        return agree, differ, unclear
                else:
                    unclear += 1
            if not _has_vectors(self.claim):
                break  # d plays no role
        return agree, differ, unclear

    def dims_covered(self, claim: PreparedClaim) -> bool:
        """Numeric confirmation with d free needs points at two dimensions at least."""
        if claim.d_value or not _has_vectors(claim):
            return True
        return len({r["d"] for r in self.evidence if r["result"] == "agree"}) >= 2 or \
            len(_dims(claim, DEFAULT_DS)) < 2

    def _assumptions_hold(self, point: Point) -> bool:
        for a in self.claim.assumptions:
            name, op, bound = anyd._simple_bound(a)
            if name is not None and name in point.values:
                # exact check: hypotheses may have overwritten a sampled value
                if not _exact_holds(point.values[name], op, bound):
                    return False
                continue
            if name == "d":
                continue
            try:
                # a stable numeric gap rejects the point without exact re-verification:
                # dropping an admissible point only loses evidence
                if classify(self.claim, a, point, 15, confirm=False).status != "agree":
                    return False
            except (Undefined, ZeroDivisionError, ValueError, TypeError):
                return False
        return True


def _scope_all(c: PreparedClaim) -> str:
    """The scope of a proof, literally: values fixed by assumptions are named."""
    fixed = []
    for a in c.assumptions:
        name, op, v = anyd._simple_bound(a)
        if op == "==" and name is not None and name != "d":
            fixed.append(f"{name} = {v}")
        elif name is None and a.op == "==":  # e == sqrt(2), a*b == 1: a thin set, named
            fixed.append(f"{a.left} = {a.right}")
    at = f" at {', '.join(fixed)}" if fixed else ""
    if c.d_value:
        return f"d = {c.d_value}" + (f", {', '.join(fixed)}" if fixed else "")
    if not _has_vectors(c):
        return ("all values of the free symbols" if not fixed else
                "all values of the other symbols") + at
    bounds = [f"d {op} {v}" for name, op, v in map(anyd._simple_bound, c.assumptions)
              if name == "d"]
    return "every d >= 2" + (" with " + ", ".join(bounds) if bounds else "") + at


#: the dimensions at which a claim over vectors must be seen defined everywhere
_DOMAIN_DS = (2, 3, 4)


def _defined_everywhere(c: PreparedClaim) -> bool:
    """Whether the relation as written is defined wherever the assumptions allow: every
    denominator nonzero, every radicand and ``log`` argument in range
    (:func:`~symnorm.engines.domain.domain_conditions`), shown by SymPy's sign rules with
    the sign assumptions of the claim's symbols.  False when that is not shown: a proof then
    holds where the claim is defined, and its scope says so.  Over every d, the name ``d``
    is an integer symbol >= 2 while the vectors have a few fixed lengths."""
    from ..engines.domain import differentiability_conditions, domain_conditions
    any_d = _has_vectors(c) and not c.d_value
    ds = (c.d_value,) if c.d_value else _DOMAIN_DS if _has_vectors(c) else (2,)
    try:
        for d in ds:
            eng = (_SymbolicD if any_d else explicit.Explicit)(c, d)
            for value, op in domain_conditions(eng, c.relation) + \
                    differentiability_conditions(eng, c.relation):
                v = value.subs(eng.subs) if eng.subs else value
                shown = {">=": v.is_nonnegative, ">": v.is_positive,
                         "!=": v.is_nonzero}[op]
                if shown is not True:
                    return False
    except (Unsupported, TypeError, ValueError, ZeroDivisionError, AttributeError):
        return False
    return True


class _SymbolicD(explicit.Explicit):
    """The explicit engine with the written name ``d`` an integer symbol >= 2."""

    def name(self, name: str):
        if name == "d":
            return sp.Symbol("d_minus_2", integer=True, nonnegative=True) + 2
        return super().name(name)


def _where_defined(v: Verdict, c: PreparedClaim) -> None:
    """A proof's scope names the points it covers: those where the claim is defined (a
    proved ``!=`` names its witness, a point where it is defined)."""
    if v.status in (PROVED, PROVED_FOR) and c.relation.op != "!=" and v.scope \
            and "defined" not in v.scope and not _defined_everywhere(c):
        v.scope += ", where defined"


def _admissible(c: PreparedClaim, d: int) -> bool:
    """Whether dimension ``d`` satisfies the claim's assumptions on d."""
    bounds = [b[1:] for b in map(anyd._simple_bound, c.assumptions) if b[0] == "d"]
    return d >= 2 and all(_exact_holds(Fraction(d), op, v) for op, v in bounds)


def _finitely_many_d(c: PreparedClaim) -> bool:
    """Whether assumptions bound d from above (so the admissible d can all be checked)."""
    return not c.d_value and not _admissible(c, 10_000)


def decide(claim: PreparedClaim, *, dps: int = 50, budget: float = DEFAULT_TIMEOUT,
           ds: tuple[int, ...] = DEFAULT_DS) -> Verdict:
    """Decide one prepared claim; raises InternalError when engines disagree."""
    t0 = time.monotonic()
    # the budget is CPU time (load does not shorten it); the worker's wall limit is the guard
    deadline = cpu_clock() + budget * 0.9
    v = Verdict(file=claim.file, line=claim.pos.line, column=claim.pos.col, label=claim.label,
                statement=claim.statement, status=UNDECIDED, origin=claim.origin,
                source=claim.source, assumptions=list(claim.assumption_text))
    op = claim.relation.op
    num = _Numeric(claim, dps, deadline)
    dims = _dims(claim, ds)
    if op in ("==", "!="):
        eq = replace(claim.relation, op="==")
        proved, reason, steps = _any_d(claim, eq)
        if proved:  # the steps of a failed attempt would only confuse a reader
            v.steps = steps
        vacuous = ""
        if proved:
            try:
                _cross_check(claim, eq, num, dims, deadline)
            except Unsupported as exc:  # no point where the claim is defined
                vacuous = f"the symbolic reduction succeeded, but {exc}"
        if vacuous:
            v.message = vacuous
        elif proved:
            if op == "==":
                v.status, v.engine, v.scope = PROVED, "any-d", _scope_all(claim)
                v.notes += _unneeded_assumptions(claim)
            else:
                v.status, v.engine, v.scope = REFUTED, "any-d", _scope_all(claim)
                v.counterexample = {"proof": "the two sides are identical ("
                                    + _scope_all(claim) + "): no witness can exist"}
        else:
            if op == "==" and _early_probe(v, claim, eq, num, deadline):
                return _finished(v, num, t0)  # refuted at the vectors of a failure
            agree, differ, unclear = num.run(eq, _numeric_dims(claim, dims))
            early, smt, suffix = None, None, ""
            if not differ and op == "==" and claim.d_value:
                # at the one fixed d the explicit engine's exact proof is the whole answer,
                # and it is cheaper than the SMT step (whose proofs wait for cvc5)
                early = _explicit_dims(claim, eq, dims, deadline)
                if early:
                    v.status, v.engine, v.scope = PROVED, "explicit", f"d = {claim.d_value}"
                    return _finished(v, num, t0)
            if not differ:  # numbers found nothing: decide the reduced claim exactly
                smt = _smt_step(claim, claim.relation, budget)
                if _apply_smt(v, claim, smt, num, dims):
                    return _finished(v, num, t0)
                if smt is not None and smt.reason:
                    reason = "; ".join(x for x in (reason, "SMT: " + smt.reason) if x)
            if differ:
                if op == "==":
                    v.status, v.engine = REFUTED, "numeric"
                    v.counterexample = _with_paste(claim, num.counterexample)
                    v.scope = _where(claim, "counterexample", num.counterexample)
                else:
                    v.status, v.engine = PROVED, "numeric witness"
                    v.counterexample = num.counterexample
                    v.scope = _where(claim, "witness", num.counterexample)
            elif op == "==":
                done = early if early is not None else _explicit_dims(claim, eq, dims,
                                                                       deadline)
                if done and claim.d_value:
                    v.status, v.engine, v.scope = PROVED, "explicit", f"d = {claim.d_value}"
                elif done and not _has_vectors(claim):
                    v.status, v.engine, v.scope = PROVED, "explicit", _scope_all(claim)
                elif done and _finitely_many_d(claim) and \
                        set(_dims(claim, tuple(range(2, 200)))) <= set(done):
                    # an upper bound on d leaves finitely many d, and all of them are done
                    v.status, v.engine = PROVED, "explicit"
                    v.scope = f"every admissible d ({_ranges(done)})"
                elif done:
                    v.status, v.engine = PROVED_FOR, "explicit"
                    v.scope = f"d = {_ranges(done)}"
                elif agree >= 2 and not unclear and \
                        (suffix := _probe_dims(v, claim, eq, num.probe, smt,
                                               deadline)) is None:
                    pass  # refuted beyond the sampled d, or the message says where it fails
                elif agree >= 2 and not unclear and not num.incomplete and not num.cut \
                        and num.dims_covered(claim):
                    v.status, v.engine = CONFIRMED, "numeric"
                    v.scope = _points_scope(agree, num.evidence) + suffix
                else:
                    v.message = reason or "no engine could decide the claim within its limits"
                    if num.cut:
                        v.message += ("; the time limit stopped the numeric sampling before "
                                      "its planned points (raise --timeout)")
                    if num.incomplete:
                        v.message += ("; the sample points covered only part of the solutions "
                                      "of the hypotheses, so numbers alone cannot confirm it")
            else:
                v.message = ("no witness found at the sampled points and no proof of identity"
                             + (f" ({reason})" if reason else ""))
    else:
        suffix = ""
        smt = _smt_step(claim, claim.relation, budget)
        if _apply_smt(v, claim, smt, num, dims):
            return _finished(v, num, t0)
        if smt is not None and smt.reason:
            v.notes.append("SMT: " + smt.reason)
        dims = _all_admissible(claim) or dims
        if dims and (claim.d_value or not _has_vectors(claim)):
            exact = _exact_inequality(claim, dims[0])
        elif dims and _finitely_many_d(claim):  # every admissible d, each exactly
            each = [_exact_inequality(claim, d) for d in dims]
            exact = None if None in each else all(each)
        else:
            exact = None  # with d free, one d decides nothing
        if exact is not None:  # cross-check: defined somewhere, and numbers agree
            agree, differ, unclear = num.run(claim.relation, dims, per_d=1)
            if not (agree or differ or unclear):
                exact = None
                v.message = ("the exact evaluation succeeded, but the claim could not be "
                             "evaluated at any admissible point (is it defined there?)")
            elif exact and differ:
                raise InternalError(f"engines disagree on claim {claim.label!r}: exact "
                                    f"evaluation proves it, the numeric engine found "
                                    f"{num.counterexample}")
        if exact is not None:
            v.status, v.engine = (PROVED if exact else REFUTED), "exact"
            v.scope = "exact evaluation (no free symbols)" if claim.d_value or \
                not _has_vectors(claim) else f"exact at every admissible d ({_ranges(list(dims))})"
            if not exact:
                v.counterexample = {"proof": "both sides are constants and the relation is "
                                    "false when they are evaluated exactly"}
            return _finished(v, num, t0)  # with the points that cross-checked it
        if not v.message and _early_probe(v, claim, claim.relation, num, deadline):
            return _finished(v, num, t0)  # refuted at the vectors of a failure
        if not v.message:  # otherwise: not defined anywhere admissible, undecided
            agree, differ, unclear = num.run(claim.relation, _numeric_dims(claim, dims), per_d=4)
            if differ:
                v.status, v.engine = REFUTED, "numeric"
                v.counterexample = _with_paste(claim, num.counterexample)
                v.scope = _where(claim, "counterexample", num.counterexample)
            elif agree and not unclear and \
                    (suffix := _probe_dims(v, claim, claim.relation, num.probe, smt,
                                       deadline)) is None:
                pass  # refuted beyond the sampled d, or the message says where it fails
            elif claim.relation.op in ("<", ">") and agree and not unclear:
                # a strict inequality can fail at a single point (its equality case) that no
                # sampling finds: exp(a - sqrt(2)) > a - sqrt(2) + 1 fails only at sqrt(2)
                v.message = ("the sampled points agree, but a strict inequality can fail at "
                             "single points that sampling cannot find; numbers alone do not "
                             "confirm it")
            elif agree >= 3 and not unclear and not num.incomplete and not num.cut and \
                    num.dims_covered(claim):
                v.status, v.engine = CONFIRMED, "numeric"
                v.scope = _points_scope(agree, num.evidence) + suffix
            else:
                v.message = "the sampled points did not decide the inequality"
                if num.cut:
                    v.message += (" (the time limit stopped the sampling before its planned "
                                  "points; raise --timeout)")
                if num.incomplete:
                    v.message += " (they covered only part of the solutions of the hypotheses)"
    return _finished(v, num, t0)


def _any_d(claim: PreparedClaim, rel: Relation) -> tuple[bool, str, list]:
    try:
        proved, steps = anyd.prove_any_d(claim, rel)
        return proved, "" if proved else "the any-d engine did not reduce it to 0", steps
    except Unsupported as exc:
        return False, f"any-d engine: {exc}", []


def _explicit_dims(claim: PreparedClaim, rel: Relation, ds, deadline: float) -> list[int]:
    done = []
    for d in ds:
        if cpu_clock() > deadline:
            break
        try:
            if not explicit.prove_at(claim, d, rel):
                return []  # not shown at this d: no proved-for claim at all
        except Unsupported:
            return []
        done.append(d)
    return done


def _cross_check(claim: PreparedClaim, rel: Relation, num: _Numeric, dims, deadline) -> None:
    """A general proof must survive the explicit engine at small d and the numeric engine.

    Its sample points are seeded by the claim's context (names, assumptions, hypotheses, d),
    not its label, so claims of one document that share a context share points, and the
    numeric engine evaluates each Jacobian there once for all of them (its cache is keyed
    by the expanded expression, d, the point's values and the precision).
    """
    num.rng = random.Random(_context_seed(claim))
    agree, differ, unclear = num.run(rel, dims[:3], per_d=1)
    if not (agree or differ or unclear):
        agree, differ, unclear = num.run(rel, dims, per_d=3)
    if not (agree or differ or unclear):
        raise Unsupported("the claim could not be evaluated at any admissible point (is it "
                          "defined there? e.g. sqrt or log of a negative number)")
    if differ:
        raise InternalError(
            f"engines disagree on claim {claim.label!r}: the any-d engine proved it but the "
            f"numeric engine found a difference at {num.counterexample}")
    if agree:
        return  # the explicit engine's answer below matters only when no point agreed
    small = [d for d in dims[:2]]
    for d in small:
        if cpu_clock() > deadline:
            break
        try:
            ok = explicit.prove_at(claim, d, rel)
        except Unsupported:
            continue
        if not ok and not agree:
            raise InternalError(
                f"engines disagree on claim {claim.label!r}: proved for every d, but the "
                f"explicit engine could not prove it at d = {d} and no numeric point agreed")


def _context_seed(claim: PreparedClaim) -> int:
    """A seed from what a sample point depends on: the claim's names, assumptions,
    hypotheses and fixed d (never its label or relation, nor where the file lies)."""
    return zlib.crc32("\n".join(["context", ",".join(claim.scalars), ",".join(claim.vectors),
                                 ",".join(claim.matrices), *map(str, claim.given),
                                 *map(str, claim.assumptions), str(claim.d_value)]).encode())


def _unneeded_assumptions(claim: PreparedClaim) -> list[str]:
    notes = []
    if not claim.assumptions or len(claim.assumptions) > 4:
        return notes
    for i, text in enumerate(claim.assumption_text):
        if i >= len(claim.assumptions) or claim.assumptions[i].op == "==":
            continue  # substitutions change the claim itself
        fewer = replace(claim, assumptions=claim.assumptions[:i] + claim.assumptions[i + 1:])
        try:
            ok, _ = anyd.prove_any_d(fewer)
        except Unsupported:
            continue
        if ok:
            notes.append(f"assumption `{text}` is not needed")
    return notes


def _points_scope(agree: int, evidence: list[dict]) -> str:
    """The scope of a numeric confirmation: ``24 points at d = 2`` or ``at d = 2..5``.

    >>> _points_scope(3, [{"d": 2}, {"d": 4}, {"d": 3}])
    '3 points at d = 2..4'
    """
    return f"{agree} points at d = {_ranges(sorted({r['d'] for r in evidence}))}"


def _ranges(ds: list[int]) -> str:
    if len(ds) > 1 and ds == list(range(ds[0], ds[-1] + 1)):
        return f"{ds[0]}..{ds[-1]}"
    return ", ".join(map(str, ds))


def _where(claim: PreparedClaim, what: str, point: dict | None) -> str:
    if point and "d" in point:
        return f"{what} at d = {point['d']}"
    return what


def _exact_inequality(claim: PreparedClaim, d: int) -> bool | None:
    """Decide an inequality between constants exactly; None when symbols remain."""
    import sympy as sp

    from ..engines.zero import is_zero
    try:
        eng = explicit.Explicit(claim, d)
        sol = eng.hypothesis_solution() if claim.given else {}
        lhs = eng.value(claim.relation.left)
        rhs = eng.value(claim.relation.right)
    except Unsupported:
        return None
    if not all(isinstance(x, sp.Expr) for x in (lhs, rhs)):
        return None
    gap = (rhs - lhs).subs(sol) if sol else rhs - lhs
    if gap.free_symbols or gap.has(sp.I) or lhs.has(sp.I) or rhs.has(sp.I):
        return None
    if is_zero(gap):
        sign = 0
    else:
        val = gap.evalf(60)
        if not val.is_Number or abs(val) < sp.Float("1e-40"):
            return None  # too close to call without a proof that it is nonzero
        sign = 1 if val > 0 else -1
    return {"<": sign > 0, "<=": sign >= 0, ">": sign < 0, ">=": sign <= 0}[claim.relation.op]


def _exact_holds(value, op: str, bound) -> bool:
    """``value op bound`` for an exact point coordinate (Fraction or exact SymPy number)."""
    from fractions import Fraction

    import sympy as sp
    x = sp.Rational(value.numerator, value.denominator) if isinstance(value, Fraction) \
        else value
    b = sp.Rational(bound.numerator, bound.denominator)
    if isinstance(x, list):
        return True
    try:
        return bool({">": x > b, ">=": x >= b, "<": x < b, "<=": x <= b, "==": sp.Eq(x, b),
                     "!=": sp.Ne(x, b)}[op])
    except TypeError:  # undecidable comparison: reject the point
        return False


def _numeric_dims(claim: PreparedClaim, dims: tuple[int, ...]) -> tuple[int, ...]:
    """The explicit engine's dimensions plus larger ones, when d is free."""
    if claim.d_value or not _has_vectors(claim) or claim.matrices or not dims:
        return dims  # free matrices make large d expensive (d*d unknowns)
    wanted = NUMERIC_EXTRA_DS
    if not claim.vectors:  # only scalars and d: large d are cheap, probe far beyond
        wanted += (2 * max(dims) + 10, 10 * max(dims) + 7)
    return dims + tuple(d for d in wanted if d > max(dims) and _admissible(claim, d))


# --- the SMT step ---------------------------------------------------------------------------

#: at most this share of a claim's time limit goes to the SMT step
SMT_SHARE = 0.4


def _d_bounds(claim: PreparedClaim) -> tuple[int, int | None]:
    """The admissible range of d from the claim's simple bounds (``hi`` None: unbounded)."""
    import math
    if claim.d_value:
        return claim.d_value, claim.d_value
    lo, hi = 2, None
    for name, op, v in map(anyd._simple_bound, claim.assumptions):
        if name != "d":
            continue
        if op in ("<=", "<", "=="):
            top = math.floor(v) if op != "<" else math.ceil(v) - 1
            hi = top if hi is None else min(hi, top)
        if op in (">=", ">", "=="):
            bottom = math.ceil(v) if op != ">" else math.floor(v) + 1
            lo = max(lo, bottom)
    return lo, hi


def _all_admissible(claim: PreparedClaim, cap: int = 256) -> tuple[int, ...]:
    """Every admissible d when the claim's bounds leave finitely many (at most ``cap``)."""
    lo, hi = _d_bounds(claim)
    if claim.d_value or hi is None or hi - lo + 1 > cap:
        return ()
    return tuple(d for d in range(lo, hi + 1) if _admissible(claim, d))


def _smt_step(claim: PreparedClaim, rel: Relation, budget: float):
    from ..engines import smt
    if not smt.solvers_available():  # pragma: no cover - both solvers are dependencies
        return None
    lo, hi = _d_bounds(claim)
    if hi is not None and hi < lo:
        return None
    try:
        return smt.decide_smt(claim, rel, budget=min(budget * SMT_SHARE, 10.0),
                              d_bounds=(lo, hi))
    except (TypeError, ValueError, AttributeError, NotImplementedError, RecursionError,
            ZeroDivisionError) as exc:  # an encoding gap decides nothing; never a verdict
        return smt.Outcome("unknown", f"the SMT encoding failed ({type(exc).__name__}: {exc})")


def _smt_scope(claim: PreparedClaim, ds: tuple[int, ...] | None) -> str:
    """What the solvers established, literally."""
    if not _has_vectors(claim) and not claim.scalars:
        return "exact (no free symbols)"
    if ds is None or not _has_vectors(claim):
        return _scope_all(claim)
    if claim.d_value:
        return f"d = {claim.d_value}"
    every = _all_admissible(claim)
    if every and set(every) <= set(ds):
        return f"every admissible d ({_ranges(list(every))})"
    return f"d = {_ranges(sorted(ds))}"


def _smt_point(claim: PreparedClaim, rel: Relation, point) -> dict:
    """A solver counterexample or witness as the report shows it: exact values, both sides."""
    from ..engines.exacteval import _values
    where = point.describe()
    if not _has_vectors(claim):
        where.pop("d")
    try:
        sides = _values(claim, rel, point)
    except Exception:  # noqa: BLE001 - the point was verified; showing sides is a courtesy
        sides = None
    if sides is not None:
        def show(xs: list):
            return str(xs[0]) if len(xs) == 1 else [str(x) for x in xs]
        where.update(lhs=show(sides[0]), rhs=show(sides[1]))
    where["verified"] = "exact evaluation of the claim at this point"
    return where


def _apply_smt(v: Verdict, claim: PreparedClaim, smt, num: _Numeric, dims) -> bool:
    """Turn an SMT outcome into the verdict; False when it decided nothing."""
    if smt is None:
        return False
    rel = claim.relation
    if smt.status in ("proved", "identical"):
        # the numbers must not contradict a proof (vacuity was ruled out by the solver)
        _, differ, _ = num.run(replace(rel, op="==") if rel.op == "!=" else rel,
                                         _numeric_dims(claim, dims)[:4], per_d=1)
        if differ and smt.status == "proved":
            raise InternalError(
                f"engines disagree on claim {claim.label!r}: the SMT solvers proved it but "
                f"the numeric engine found a difference at {num.counterexample}")
        if differ and smt.status == "identical":
            raise InternalError(
                f"engines disagree on claim {claim.label!r}: the SMT solvers found the sides "
                f"identical but the numeric engine found a witness at {num.counterexample}")
        scope = _smt_scope(claim, smt.scope_ds)
        v.engine = "smt (z3, confirmed by cvc5)"
        v.scope = scope
        if smt.status == "proved":
            v.status = PROVED
        else:
            v.status = REFUTED
            v.counterexample = {"proof": f"the two sides are equal wherever defined ({scope}, "
                                         "decided by z3 and cvc5): no witness can exist"}
        return True
    if smt.status in ("counterexample", "witness"):
        v.counterexample = _smt_point(claim, rel, smt.point)
        if smt.status == "counterexample":
            paste = paste_lines(claim, smt.point.values, smt.point.d)
            if paste:
                v.counterexample["paste"] = paste
        v.engine = "smt (z3) + exact re-verification"
        what = "counterexample" if smt.status == "counterexample" else "witness"
        v.status = REFUTED if what == "counterexample" else PROVED
        v.scope = _where(claim, what, v.counterexample) if _has_vectors(claim) else what
        return True
    if smt.status == "vacuous":  # numbers near a point that is not admissible confirm nothing
        v.status, v.message = UNDECIDED, smt.reason
        return True
    return False


#: seconds at most for re-verifying a failure of the reduced claim at the vectors built
REBUILD_SECONDS = 20.0
#: largest d tried for that re-verification when the claim has d x d matrices (I)
REBUILD_MATRIX_D = 4096


def _early_probe(v: Verdict, claim: PreparedClaim, rel: Relation, num: _Numeric,
                 deadline: float) -> bool:
    """The reduced claim along the ladder of d (2 .. 10**12), before the numbers sample
    vectors at small d; True when it refuted the claim (at the vectors built for a failure,
    re-verified by exact evaluation of the original claim).  The probe is kept on ``num``:
    a failure that could not be re-verified withholds ``confirmed`` later, and leaves the
    numbers half of the remaining time (they can still refute at small d)."""
    from ..engines.gramsample import probe_ladder
    if not _has_vectors(claim):
        return False
    seed = zlib.crc32(f"{claim.label}\n{claim.statement}".encode())
    try:
        num.probe = probe_ladder(claim, rel, seed, lambda d: _admissible(claim, d), deadline)
    except (TypeError, ValueError, ZeroDivisionError, RecursionError, AttributeError):
        num.probe = None
    if num.probe is None or num.probe.failure is None:
        return False
    if num.probe.failure.d <= max(NUMERIC_EXTRA_DS):
        return False  # where the numbers sample: their counterexample comes first
    _at_failure(v, claim, rel, num.probe, deadline)
    now = cpu_clock()
    num.deadline = now + max(0.0, num.deadline - now) / 2
    return v.status == REFUTED


def _probe_dims(v: Verdict, claim: PreparedClaim, rel: Relation, probe, smt,
                deadline: float) -> str | None:
    """Before numbers confirm: what the ladder of d found, and any solver model against the
    claim.  Returns what to add to the scope of a confirmation, or None with a message
    saying why it is not confirmed (a failure of the reduced claim that could not be
    re-verified, or a solver model that could not be)."""
    if probe is not None and probe.failure is not None:
        if not probe.message:  # at a small d, left to the numbers, which did not refute
            _at_failure(v, claim, rel, probe, deadline)
        if v.status != REFUTED:
            v.message = probe.message
        return None
    against = getattr(smt, "unverified", "") if smt is not None else ""
    if against:
        v.message = (f"the sampled points agree, but {against}: evidence against the claim "
                     "that could not be re-verified exactly, so it is not confirmed")
        return None
    if probe is None and not claim.d_value and has_entrywise(claim):
        # sums of entrywise products have no Gram-symbol form, so the ladder cannot probe
        # them: (1^T(g*x))**2 <= 12 (g*x)^T(g*x) holds at every sampled d and fails from 13
        v.message = ("the sampled points agree, but a claim with entrywise products "
                     "(hadamard, diag) is not probed beyond the sampled d, so numbers at "
                     "small d do not confirm it")
        return None
    if probe is None or not probe.ds:
        return ""
    return "; " + probe.describe() + (" (cut by the time limit)" if probe.cut else "")


def _at_failure(v: Verdict, claim: PreparedClaim, rel: Relation, probe, deadline: float
                ) -> None:
    """Refute at the vectors that realize a failure of the reduced claim, re-verified by
    exact evaluation of the original claim; else say where the claim fails."""
    from ..engines import gramsample, smt
    f = probe.failure
    left = min(deadline - cpu_clock(), REBUILD_SECONDS)
    why = ""
    # the child's time limit bounds the cost; d x d matrices (I) are cheap enough to try
    # far beyond the SMT step's cap, derivatives (d**2 symbolic entries) are not
    cap = smt.realizable_cap(claim)
    cap = max(cap, REBUILD_MATRIX_D) if cap == smt.MAX_REALIZED_D["matrix"] else cap
    if f.d > cap:
        why = f"vectors are built for the exact re-verification up to d = {cap} for this claim"
    elif left < 1:
        why = "no time was left to build vectors there and re-verify it exactly"
    else:
        got = gramsample.verify_failure(claim, rel, f, probe.rebuildable, left)
        if got is not None:
            v.status, v.engine = REFUTED, "ladder of d + exact re-verification"
            v.counterexample = got
            paste = paste_lines(claim, got.pop("_values"), f.d)
            if paste:
                v.counterexample["paste"] = paste
            v.scope = _where(claim, "counterexample", v.counterexample)
            return
        why = (f"the exact evaluation of the claim at vectors there did not finish within "
               f"{left:.0f} s or did not re-verify it")
    at = ", ".join(f"{k} = {x}" for k, x in f.shown.items())
    probe.message = (f"the reduced claim (in d, the scalars and the Gram symbols) fails at "
                     f"{at} (margin {f.difference}, certified by ball arithmetic); {why}, so "
                     "it is not refuted, and agreement at the sampled points does not confirm it")


_NEGATE = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def paste_lines(claim: PreparedClaim, values: dict, d: int | None) -> list[str] | None:
    """A self-contained ``symnorm`` block that re-checks a counterexample: the declarations,
    ``let d = ..``, and the claim's negation at the point (``given name == value``), which
    ``symnorm check`` proves by exact evaluation.  None when a value is not a rational."""
    def num(x) -> str | None:
        f = x if isinstance(x, Fraction) else None
        if f is None:
            try:
                f = Fraction(str(x))
            except (ValueError, ZeroDivisionError):
                return None
        return str(f)
    if claim.matrices or (d is not None and d > 64 and _has_vectors(claim)):
        return None  # `let d = N` takes 2..64: a larger counterexample has no paste form
    given = []
    for name in (*claim.scalars, *claim.vectors):
        if name not in values:
            return None
        val = values[name]
        if isinstance(val, list):
            items = [num(x) for x in val]
            if None in items:
                return None
            given.append(f"{name} == [{', '.join(items)}]")
        else:
            text = num(val)
            if text is None:
                return None
            given.append(f"{name} == {text}")
    lines = []
    if d is not None and (_has_vectors(claim) or claim.d_value):
        lines.append(f"let d = {d}")  # also what a vector literal's length needs
    if claim.scalars:
        lines.append("scalar " + ", ".join(claim.scalars))
    if claim.vectors:
        lines.append("vector " + ", ".join(claim.vectors))
    rel = claim.relation
    body = f"{rel.left} {_NEGATE[rel.op]} {rel.right}"
    lines.append(f"claim {claim.label}.counterexample: {body}"
                 + (f"  given {', '.join(given)}" if given else ""))
    return lines


def _with_paste(claim: PreparedClaim, cx: dict | None) -> dict | None:
    """A numeric counterexample with its re-check block (its values are exact rationals)."""
    if not cx:
        return cx
    d = int(cx["d"]) if "d" in cx else claim.d_value
    paste = paste_lines(claim, cx, d)
    return dict(cx, paste=paste) if paste else cx


def _finished(v: Verdict, num: _Numeric, t0: float) -> Verdict:
    probe = num.probe
    if v.status == UNDECIDED and probe is not None and probe.failure is not None and \
            probe.message not in v.message:  # where the claim fails comes first
        v.message = "; ".join(x for x in (probe.message, v.message) if x)
    v.evidence = num.evidence + num.skipped
    _where_defined(v, num.claim)
    v.seconds = round(time.monotonic() - t0, 3)
    if v.status == REFUTED:  # shown with the verdict, not only with -v
        v.message = " ".join(x for x in (v.message, *_eps_note(num.claim, v.counterexample))
                             if x)
    return v


def _eps_note(claim: PreparedClaim, cex: dict | None) -> list[str]:
    """A refutation at eps <= 0 of a claim that says nothing of eps: papers take eps > 0, so
    say that the counterexample uses the sign the claim left open (the verdict stands)."""
    if not cex or "eps" not in cex or "eps" not in claim.scalars:
        return []
    said = [*claim.assumption_text, *map(str, claim.given)]
    if any(re.search(r"\beps\b", t) for t in said):
        return []
    try:
        value = Fraction(str(cex["eps"]))
    except (ValueError, ZeroDivisionError):
        return []
    if value > 0:
        return []
    return [(f"the counterexample has eps = {cex['eps']}, which the claim allows (it assumes "
             "nothing about eps); if it is meant for eps > 0, as papers take it, add "
             "`assume eps > 0`")]
