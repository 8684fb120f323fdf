"""The SMT step: real arithmetic decided exactly, with counterexamples re-verified.

Truth in these tables comes from mathematics, not from symnorm: each true claim has a
one-line reason, each false claim a counterexample that a test re-checks with Python
Fractions or by hand.  The differential test at the end builds random polynomial claims, asks
the SMT step, and checks every answer against an independent evaluator written here.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from symnorm.check.run import check_document
from symnorm.engines import smt
from symnorm.lang.document import parse_text

pytestmark = pytest.mark.skipif(not smt.solvers_available(), reason="z3/cvc5 missing")


def _verdicts(tmp_path, body: str) -> dict:
    doc = tmp_path / "doc.md"
    doc.write_text(f"```symnorm\n{body}\n```\n")
    return {v.label: v for v in check_document(str(doc)).verdicts}


# (preamble, claim, status, scope/where fragment, reason)
TRUE_CLAIMS = [
    ("use layernorm", "v >= 0", "every d >= 2", "a variance is a mean of squares"),
    ("use layernorm", "s > 0  given eps > 0", "every d >= 2", "s**2 = v + eps > 0"),
    ("use layernorm", "v/(v + eps) <= 1  given eps > 0", "every d >= 2", "v >= 0"),
    ("use layernorm", "N(x).T*N(x) <= d  given eps >= 0", "every d >= 2",
     "|N|^2 = d v/(v + eps)"),
    ("use layernorm", "N(x).T*N(x) < d  given eps > 0", "every d >= 2", "strict for eps > 0"),
    ("vector x", "x.T*x >= (ones.T*x)**2/d", "every d >= 2", "Cauchy-Schwarz with ones"),
    ("vector x\nvector u", "(u.T*x)**2 <= (u.T*u)*(x.T*x)", "every d >= 2", "Cauchy-Schwarz"),
    ("scalar a, b", "a*b == 1  given a == 1/b", "all values", "b != 0 where a = 1/b"),
    ("scalar a, b", "a**2 + b**2 >= 2*a*b", "all values", "(a - b)**2 >= 0"),
    ("scalar a", "a**4 - 2*a**2 + 1 >= 0", "all values", "(a**2 - 1)**2"),
    ("scalar a", "sqrt(a**2) == abs(a)", "all values", "definition of abs"),
    ("scalar a\nassume a > 1", "log(a) > 0", None, "log is increasing, log 1 = 0"),
    ("", "d*(d - 1) <= 132  given d <= 12", "every admissible d (2..12)", "12*11 = 132"),
]

FALSE_CLAIMS = [
    # claim, expected d of the counterexample (or None: no d), check of the counterexample
    ("", "d*(d - 1) <= 60  given d <= 12", 9, "9*8 = 72 > 60; d <= 8 all hold"),
    ("", "2**d <= 300  given d <= 10", 9, "2**9 = 512"),
    ("vector x", "(ones.T*x)**2 <= 12*(x.T*x)", 13, "x = ones: d**2 <= 12 d fails at d = 13"),
    ("vector u", "d*(d - 1) <= 150 + u.T*u", 13, "u = 0: d(d-1) > 150 from d = 13"),
    ("use layernorm", "s > 0", 2, "eps = 0 with a constant x gives s = 0"),
    ("use layernorm", "N(x).T*N(x) < d  given eps >= 0", 2, "eps = 0: |N|^2 = d"),
    ("scalar a, b", "a**2 + b**2 > 2*a*b", None, "equality at a = b"),
    ("scalar a", "a**3 >= a", None, "a = 1/2"),
]


@pytest.mark.parametrize("pre,claim,scope,why", TRUE_CLAIMS)
def test_true_claims_are_proved(tmp_path, pre, claim, scope, why):
    v = _verdicts(tmp_path, f"{pre}\nclaim t: {claim}")["t"]
    assert v.status == "proved", (claim, why, v.status, v.message, v.notes)
    if scope:
        assert scope in v.scope, v.scope


@pytest.mark.parametrize("pre,claim,d,why", FALSE_CLAIMS)
def test_false_claims_are_refuted_with_a_checked_counterexample(tmp_path, pre, claim, d, why):
    v = _verdicts(tmp_path, f"{pre}\nclaim f: {claim}")["f"]
    assert v.status == "refuted", (claim, why, v.status, v.message)
    cx = v.counterexample
    if d is not None and "d" in cx:
        assert int(cx["d"]) >= d if d > 2 else True
    if d is not None and d > 8:  # the first failing d is found, not just some d
        assert int(cx["d"]) == d, cx


def test_counterexample_of_scalar_polynomial_is_true_counterexample(tmp_path):
    v = _verdicts(tmp_path, "scalar a\nclaim f: a**3 >= a")["f"]
    a = Fraction(v.counterexample["a"])
    assert not a ** 3 >= a


def test_counterexample_vectors_are_rational_and_violate_the_claim(tmp_path):
    v = _verdicts(tmp_path, "vector x\nclaim f: (ones.T*x)**2 <= 12*(x.T*x)")["f"]
    x = [Fraction(t) for t in v.counterexample["x"]]
    assert len(x) == int(v.counterexample["d"])
    assert not sum(x) ** 2 <= 12 * sum(t * t for t in x)


def test_vacuous_assumptions_are_not_a_proof(tmp_path):
    v = _verdicts(tmp_path, "scalar a\nassume a > 1\nclaim f: a**2 < 0  given a < 0")["f"]
    assert v.status != "proved"


def test_not_equal_needs_a_witness_and_identity_refutes(tmp_path):
    got = _verdicts(tmp_path, "scalar a, b\nclaim w: a*b != b*a + a\nclaim i: (a + b)**2 != "
                              "a**2 + 2*a*b + b**2")
    assert got["w"].status == "proved"
    assert got["i"].status == "refuted"


@pytest.mark.parametrize("claim,bad", [("exp(a) < 10**10", lambda a: a > 23),
                                       ("log(a) < 50  given a > 0", lambda a: a > 5e21),
                                       ("2**a <= 1000", lambda a: a > 9.96)])
def test_abstracted_functions_are_refined_to_a_real_counterexample(tmp_path, claim, bad):
    v = _verdicts(tmp_path, f"scalar a\nclaim f: {claim}")["f"]
    assert v.status == "refuted", (v.status, v.notes, v.message)
    assert bad(Fraction(v.counterexample["a"])), v.counterexample


def test_constant_below_every_precision_is_decided(tmp_path):
    # exp(-500) is a positive number: eps == exp(-500) makes N(3x) != N(x)
    got = _verdicts(tmp_path, "scalar a\nclaim f: a*exp(-500) == 0  given a == 1\n"
                              "claim t: exp(-500) > 0")
    assert got["f"].status == "refuted"
    assert got["t"].status == "proved"


def test_outside_polynomial_arithmetic_is_said(tmp_path):
    doc = parse_text("```symnorm\nscalar a\nclaim f: exp(a) >= 1 + a + a**2/2\n```\n")
    c = doc.scope.claims[0]
    out = smt.decide_smt(c, c.relation, budget=5)
    # exp(a) is abstracted: a model is only a candidate, and the re-verification decides
    assert out.status in ("counterexample", "unknown")
    if out.status == "counterexample":
        a = out.point.values["a"]
        import mpmath
        with mpmath.workdps(50):
            am = mpmath.mpf(a.numerator) / a.denominator
            assert mpmath.exp(am) < 1 + am + am ** 2 / 2


# --- differential test: the SMT step against an independent evaluator -------------------------

def _rand_poly(rng: random.Random, names: list[str], depth: int = 0):
    """A random polynomial as (text, evaluator)."""
    if depth >= 2 or rng.random() < 0.3:
        if rng.random() < 0.5:
            n = rng.choice(names)
            return n, (lambda env, n=n: env[n])
        q = Fraction(rng.randint(-4, 4), rng.choice([1, 1, 2, 3]))
        return f"({q})", (lambda env, q=q: q)
    op = rng.choice(["+", "-", "*", "*", "**"])
    lt, lf = _rand_poly(rng, names, depth + 1)
    if op == "**":
        k = rng.choice([2, 3])
        return f"({lt})**{k}", (lambda env, lf=lf, k=k: lf(env) ** k)
    rt, rf = _rand_poly(rng, names, depth + 1)
    fn = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}[op]
    return f"({lt} {op} {rt})", (lambda env, lf=lf, rf=rf, fn=fn: fn(lf(env), rf(env)))


_OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b, "==": lambda a, b: a == b}


def _grid():
    vals = [Fraction(n, q) for n in range(-6, 7) for q in (1, 2, 3)]
    return sorted(set(vals))


@pytest.mark.parametrize("seed", range(40))
def test_smt_agrees_with_independent_evaluation(seed):
    rng = random.Random(seed)
    names = ["a", "b"]
    lt, lf = _rand_poly(rng, names)
    rt, rf = _rand_poly(rng, names)
    op = rng.choice(list(_OPS))
    text = f"```symnorm\nscalar a, b\nclaim r: {lt} {op} {rt}\n```\n"
    doc = parse_text(text)
    assert not doc.errors, doc.errors
    c = doc.scope.claims[0]
    out = smt.decide_smt(c, c.relation, budget=8)
    holds = lambda env: _OPS[op](lf(env), rf(env))
    if out.status == "counterexample":
        env = {n: Fraction(out.point.values[n]) if n in out.point.values else Fraction(0)
               for n in names}
        assert not holds(env), (text, env)
    elif out.status == "proved":
        g = _grid()
        for a in g[::3]:
            for b in g[::5]:
                assert holds({"a": a, "b": b}), (text, a, b)
    else:
        assert out.status == "unknown", out


# --- counterexamples a user can paste -----------------------------------------------------

PASTE_CASES = [
    ("vector x", "(ones.T*x)**2 <= 12*(x.T*x)"),
    ("", "d*(d - 1) <= 60  given d <= 12"),
    ("use layernorm", "N(x).T*N(x) < d  given eps >= 0"),
    ("use layernorm", "J*c == eps/s**2*c"),  # wrong power: refuted by numbers
    ("scalar a, b", "(a + b)**2 == a**2 + b**2"),
    ("scalar a", "a**3 >= a"),
]


@pytest.mark.parametrize("pre,claim", PASTE_CASES)
def test_pasted_counterexample_is_proved_by_symnorm(tmp_path, pre, claim):
    v = _verdicts(tmp_path, f"{pre}\nclaim f: {claim}")["f"]
    assert v.status == "refuted", (v.status, v.message)
    paste = v.counterexample.get("paste")
    assert paste, v.counterexample
    again = _verdicts(tmp_path, "\n".join(paste))
    (label, w), = again.items()
    assert label == "f.counterexample"
    assert w.status == "proved", (paste, w.status, w.message)


# --- differential test with vectors: Gram-level SMT against coordinates ---------------------

_ATOMS = {
    "x.T*x": lambda e: sum(t * t for t in e["x"]),
    "u.T*x": lambda e: sum(p * q for p, q in zip(e["u"], e["x"])),
    "u.T*u": lambda e: sum(t * t for t in e["u"]),
    "ones.T*x": lambda e: sum(e["x"]),
    "ones.T*u": lambda e: sum(e["u"]),
    "d": lambda e: Fraction(len(e["x"])),
}


def _rand_gram_poly(rng: random.Random, depth: int = 0):
    if depth >= 2 or rng.random() < 0.35:
        if rng.random() < 0.7:
            name = rng.choice(list(_ATOMS))
            return f"({name})", _ATOMS[name]
        q = Fraction(rng.randint(-3, 3), rng.choice([1, 2]))
        return f"({q})", (lambda e, q=q: q)
    op = rng.choice(["+", "-", "*"])
    lt, lf = _rand_gram_poly(rng, depth + 1)
    rt, rf = _rand_gram_poly(rng, depth + 1)
    fn = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}[op]
    return f"({lt} {op} {rt})", (lambda e, lf=lf, rf=rf, fn=fn: fn(lf(e), rf(e)))


@pytest.mark.parametrize("seed", range(25))
def test_gram_smt_agrees_with_coordinates(seed):
    rng = random.Random(1000 + seed)
    lt, lf = _rand_gram_poly(rng)
    rt, rf = _rand_gram_poly(rng)
    op = rng.choice(["<", "<=", ">", ">=", "=="])
    doc = parse_text(f"```symnorm\nvector x, u\nclaim r: {lt} {op} {rt}\n```\n")
    assert not doc.errors, doc.errors
    c = doc.scope.claims[0]
    out = smt.decide_smt(c, c.relation, budget=8)
    holds = lambda e: _OPS[op](lf(e), rf(e))
    if out.status == "counterexample":
        env = {n: [Fraction(t) for t in out.point.values[n]] if n in out.point.values
               else [Fraction(0)] * out.point.d for n in ("x", "u")}
        assert len(env["x"]) == out.point.d
        assert not holds(env), (lt, op, rt, env)
    elif out.status == "proved":
        g = [Fraction(n, 2) for n in range(-4, 5)]
        for d in (2, 3, 5):
            for _ in range(30):
                env = {"x": [rng.choice(g) for _ in range(d)],
                       "u": [rng.choice(g) for _ in range(d)]}
                assert holds(env), (lt, op, rt, env)
            for k in (-1, 0, 2):  # constant and parallel vectors: thin sets
                env = {"x": [Fraction(1)] * d, "u": [Fraction(k)] * d}
                assert holds(env), (lt, op, rt, env)
    else:
        assert out.status == "unknown", out


@pytest.mark.parametrize("seed", range(12))
def test_gram_smt_on_true_by_construction_claims(seed):
    """A + B**2 >= A holds for every A and B; A + B**2 > A fails where B = 0; the SMT step
    must prove the first and refute the second with a point where B = 0."""
    rng = random.Random(5000 + seed)
    at, _ = _rand_gram_poly(rng)
    bt, bf = _rand_gram_poly(rng)
    doc = parse_text(f"```symnorm\nvector x, u\nclaim t: {at} + ({bt})**2 >= {at}\n"
                     f"claim f: {at} + ({bt})**2 > {at}\n```\n")
    t, f = doc.scope.claims
    got_t = smt.decide_smt(t, t.relation, budget=8)
    assert got_t.status in ("proved", "unknown"), got_t
    got_f = smt.decide_smt(f, f.relation, budget=8)
    if got_f.status == "counterexample":  # values may be exact algebraic numbers
        import sympy as sp
        env = {n: [sp.nsimplify(v) if not isinstance(v, Fraction) else sp.Rational(
                   v.numerator, v.denominator) for v in got_f.point.values[n]]
               if n in got_f.point.values else [sp.Integer(0)] * got_f.point.d
               for n in ("x", "u")}
        assert sp.simplify(bf(env)) == 0, (bt, env)
    elif got_f.status == "proved":  # then B never vanishes: check it at many points
        g = [Fraction(n, 2) for n in range(-4, 5)]
        for d in (2, 3, 4):
            for _ in range(40):
                env = {"x": [rng.choice(g) for _ in range(d)],
                       "u": [rng.choice(g) for _ in range(d)]}
                assert bf(env) != 0, (bt, env)
    else:
        assert got_f.status == "unknown", got_f


# --- fractional powers: the domain of the claim as written ----------------------------------

@pytest.mark.parametrize("claim,status", [
    ("a**(1/2)*a**(1/2) != abs(a)", "refuted"),   # equal wherever a**(1/2) is real
    ("a**(1/4)*a**(3/4) != abs(a)", "refuted"),
    ("a**(1/2)*a**(1/2) >= 0", "proved"),         # SymPy merges it into a; a >= 0 still holds
    ("a**(2/4)*a**(2/4) == abs(a)", "proved"),
    ("(a**(1/2))**2 >= 0", "proved"),
    ("a**(1/2)*a**(1/2) == -a", "refuted"),
])
def test_fractional_powers_keep_their_domain_after_simplification(tmp_path, claim, status):
    v = _verdicts(tmp_path, f"scalar a\nclaim f: {claim}")["f"]
    assert v.status == status, (v.status, v.counterexample, v.message)
    if status == "refuted" and "a" in (v.counterexample or {}):
        assert Fraction(v.counterexample["a"]) >= 0  # never a point outside the domain


def test_no_paste_block_beyond_the_dimensions_let_accepts(tmp_path):
    v = _verdicts(tmp_path, "vector x\nclaim f: (ones.T*x)**2 <= 100*(x.T*x)")["f"]
    assert v.status == "refuted" and int(v.counterexample["d"]) > 64
    assert "paste" not in v.counterexample


def test_literal_hypotheses_at_a_fixed_d_use_coordinates(tmp_path):
    v = _verdicts(tmp_path, "let d = 2\nscalar b\nvector x\n"
                            "claim f: jacobian(b*x, b) != 0*x  given b == 1, x == [1, 2]")["f"]
    assert v.status == "proved", (v.status, v.message)


# --- red-team round 4: thin sets of transcendental claims, huge d, literals, failed lines --

def test_strict_transcendental_inequality_is_never_confirmed_by_numbers(tmp_path):
    # false only at a = sqrt(2), where both sides are equal: no sample can hit it
    v = _verdicts(tmp_path, "scalar a\nclaim f: exp(a - sqrt(2)) > a - sqrt(2) + 1")["f"]
    assert v.status == "undecided", (v.status, v.scope)


@pytest.mark.parametrize("claim", ["exp(-d) > 10**(-500)", "exp(-d) >= exp(-1000)"])
def test_claims_failing_only_at_huge_d_are_refuted_there(tmp_path, claim):
    v = _verdicts(tmp_path, f"claim f: {claim}")["f"]
    assert v.status == "refuted", (v.status, v.message)
    assert int(v.counterexample["d"]) > 1000


def test_paste_block_of_a_literal_claim_fixes_d(tmp_path):
    v = _verdicts(tmp_path, "let d = 2\nclaim f: norm([1, 1]) == 2")["f"]
    assert v.status == "refuted"
    again = _verdicts(tmp_path, "\n".join(v.counterexample["paste"]))
    assert again["f.counterexample"].status == "proved"


def test_claims_after_a_refused_assumption_are_not_checked(tmp_path):
    got = _verdicts(tmp_path, "scalar a\nassume a > 0\nassume a < 0\nclaim f: a == 2")
    assert got["f"].status == "error" and "line 4" in got["f"].message


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG")
def test_a_solver_child_dies_with_the_worker_that_forked_it(tmp_path):
    """A claim's worker killed at the time limit must not leave its cvc5 child running (one
    ran on for 30 minutes of CPU, orphaned, before this)."""
    pidfile = tmp_path / "child.pid"
    code = ("import os, time\n"
            "from symnorm.engines.smt import _in_child\n"
            f"def spin():\n    open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
            "    while True: pass\n"
            "_in_child(spin, 600)\n")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    worker = subprocess.Popen([sys.executable, "-c", code], env=env)
    for _ in range(300):
        if pidfile.exists() and pidfile.read_text():
            break
        time.sleep(0.1)
    child = int(pidfile.read_text())
    worker.kill()
    worker.wait()
    for _ in range(100):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        with open(f"/proc/{child}/stat") as fh:  # a zombie awaiting its reaper is dead too
            if fh.read().split(") ", 1)[1].startswith("Z"):
                break
        time.sleep(0.1)
    else:
        os.kill(child, 9)
        raise AssertionError("the solver child outlived its worker")
