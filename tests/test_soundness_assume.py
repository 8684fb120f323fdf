"""Soundness tables for assumed values under derivatives and for settings across blocks.

Issue 9, class 2: an assumed value (``assume t == 3``, ``use layernorm(eps=0)``) or a
hypothesis (``given t == 3``) fixes the point where a derivative is evaluated, never the
function that is differentiated: ``jacobian(t**3, t)`` at ``t = 3`` is 27, not 0.

Issue 9, class 6: settings (``assume``, ``let d = N``, the options of ``use``) hold to the end
of their fenced block unless written ``document ...``; definitions that depend on a block's
settings end with it (docs/claims.md, "Blocks and settings").

Every expected verdict was established by hand (the ``why`` text), and the derivative values
that are not one-line calculus are recomputed below with mpmath, independently of symnorm.
``FALSE`` claims may be refuted or undecided, never proved or confirmed; ``REFUTE`` and
``PROVE`` pin the verdict the engines reach today; ``TRUE`` must never be refuted.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import pytest

from symnorm.check.run import check_text

FALSE, REFUTE, TRUE, PROVE = "false", "refute", "true", "prove"
OK = {"proved", "proved-for", "confirmed"}
ALLOWED = {FALSE: {"refuted", "undecided"}, REFUTE: {"refuted"}, TRUE: OK | {"undecided"},
           PROVE: OK}


@dataclass(frozen=True)
class Case:
    """A document (blocks separated by ``---``) whose claim ``c`` gets one of the verdicts."""

    id: str
    doc: str
    kind: str
    why: str


def _text(doc: str) -> str:
    blocks = [b.strip("\n") for b in doc.split("\n---\n")]
    return "".join(f"```symnorm\n{b}\n```\n\nprose\n\n" for b in blocks)


@functools.cache
def _verdict(doc: str):
    res = check_text(_text(doc), file="assume.md", sandbox=True, timeout=20.0)
    (v,) = [v for v in res.verdicts if v.label == "c"]
    return v


# --- class 2: a value fixed before differentiating ----------------------------------------
T3 = "scalar t\nassume t == 3\n"
T2 = "scalar t\nassume t == 2\n"
EPS0 = "use layernorm(eps=0)\n"

DERIVATIVES: list[Case] = [
    Case("t3_zero", T3 + "claim c: jacobian(t**3, t) == 0", REFUTE, "3 t**2 = 27 at t = 3"),
    Case("t3_27", T3 + "claim c: jacobian(t**3, t) == 27", PROVE, "3 t**2 = 27 at t = 3"),
    Case("t3_frozen", T3 + "claim c: jacobian(t**3, t) == jacobian(27, t)", REFUTE,
         "the derivative of the value 27 is 0, the derivative at t = 3 is 27"),
    Case("given_zero", "scalar t\nclaim c: jacobian(t**3, t) == 0 given t == 3", REFUTE,
         "3 t**2 = 27 at t = 3"),
    Case("given_27", "scalar t\nclaim c: jacobian(t**3, t) == 27 given t == 3", PROVE,
         "3 t**2 = 27 at t = 3"),
    Case("inside_sum", T2 + "claim c: t*jacobian(t**3, t) + t**2 == 28", PROVE,
         "2*12 + 4 = 28"),
    Case("inside_sum_frozen", T2 + "claim c: t*jacobian(t**3, t) + t**2 == 4", REFUTE,
         "what a derivative of the constant 8 would give"),
    Case("ineq_true", T2 + "claim c: jacobian(t**3, t) > 11", PROVE, "12 > 11"),
    Case("ineq_false", T2 + "claim c: jacobian(t**3, t) <= 0", REFUTE, "12 > 0"),
    Case("nested", "scalar t, u\nassume t == 2\nassume u == 3\n"
         "claim c: jacobian(jacobian(t**2*u**3, t), u) == 108", PROVE, "2 t * 3 u**2 = 108"),
    Case("nested_zero", "scalar t, u\nassume t == 2\nassume u == 3\n"
         "claim c: jacobian(jacobian(t**2*u**3, t), u) == 0", REFUTE, "it is 108"),
    Case("negative_value", "scalar t\nassume t == -2\nclaim c: jacobian(t**3, t) == 12", PROVE,
         "3*(-2)**2 = 12 (a negative literal is an assumed value too)"),
    Case("kink_at_value", "scalar t\nassume t == 0\nclaim c: jacobian(abs(t), t) == 0", FALSE,
         "|t| has no derivative at 0"),
    Case("abs_away_pos", T3 + "claim c: jacobian(abs(t), t) == 1", PROVE, "|t|' = 1 at 3"),
    Case("abs_away_neg", "scalar t\nassume t == -3\nclaim c: jacobian(abs(t), t) == -1", PROVE,
         "|t|' = -1 at -3"),
    Case("abs_away_wrong", "scalar t\nassume t == -3\nclaim c: jacobian(abs(t), t) == 1",
         REFUTE, "|t|' = -1 at -3"),
    Case("sqrt_domain", "scalar a\nassume a == -1\nclaim c: sqrt(a)*sqrt(a) == -1", FALSE,
         "sqrt(-1) is not real"),
    # hypotheses solved for the symbol that is differentiated
    Case("solved_var", "scalar t, a\nclaim c: jacobian(t**2, t) == 2*a given t == a", PROVE,
         "2 t at t = a"),
    Case("solved_var_rev", "scalar a, t\nclaim c: jacobian(t**2, t) == 2*a given a == t", PROVE,
         "2 t at t = a, whichever symbol is solved for"),
    Case("solved_var_zero", "scalar t, a\nclaim c: jacobian(t**2, t) == 0 given t == a", REFUTE,
         "2 a != 0 for a != 0"),
    Case("solved_other", "scalar t, a\nclaim c: jacobian(t*a, t) == a given a == t**2", PROVE,
         "a is a separate symbol: d(t a)/dt = a, evaluated where a = t**2"),
    Case("gram_solved", "vector x\nclaim c: jacobian(x.T*x, x) == 2*x.T given x.T*x == 1",
         PROVE, "gradient of |x|**2"),
    Case("gram_solved_zero", "vector x\nclaim c: jacobian(x.T*x, x) == 0*x.T given x.T*x == 1",
         REFUTE, "2 x != 0 on the unit sphere"),
    Case("gram_sqrt", "vector x\nclaim c: jacobian(sqrt(x.T*x), x) == x.T given x.T*x == 1",
         PROVE, "x/|x| = x on the unit sphere"),
    # vocabulary options become assumed values
    Case("eps0_jac_zero", EPS0 + "claim c: jacobian(N(x), eps) == 0*x", REFUTE,
         "dN/deps = -c/(2 v**(3/2)) at eps = 0 (see test_eps_derivative_value)"),
    Case("eps0_jac_value", EPS0 + "claim c: jacobian(N(x), eps) == -c/(2*v*sqrt(v))", PROVE,
         "dN/deps = -c/(2 v**(3/2)) at eps = 0 (see test_eps_derivative_value)"),
    Case("eps0_jac_s", EPS0 + "claim c: jacobian(s, eps) == 0", REFUTE, "1/(2 sqrt(v))"),
    Case("eps0_jac_s2", EPS0 + "claim c: jacobian(s**2, eps) == 1", PROVE, "s**2 = v + eps"),
    Case("eps0_scale", EPS0 + "scalar k\nassume k == 1\nclaim c: jacobian(N(k*x), k) == 0*x",
         PROVE, "eps = 0: N(k x) = N(x) for k > 0, so the derivative at k = 1 is 0"),
    Case("assume_eps0", "use layernorm\nassume eps == 0\nclaim c: jacobian(N(x), eps) == 0*x",
         REFUTE, "as eps0_jac_zero, with the assumption written out"),
    Case("given_eps0", "use layernorm\nclaim c: jacobian(N(x), eps) == 0*x given eps == 0",
         REFUTE, "as eps0_jac_zero, as a hypothesis"),
    Case("k1_chain", "use layernorm\nscalar k\nassume k == 1\n"
         "claim c: jacobian(N(k*x), k) == J*x", PROVE, "chain rule at k = 1"),
    Case("k1_frozen", "use layernorm\nscalar k\nassume k == 1\n"
         "claim c: jacobian(N(k*x), k) == 0*x", REFUTE, "J x = eps c/s**3 != 0"),
    Case("bn_eps", "use batchnorm(eps=0)\nscalar b\nassume b == 2\n"
         "claim c: jacobian(BN(0; [0, b]), eps) == 1/2", PROVE,
         "d/deps of -b/sqrt(b**2 + 4 eps) = 2 b/(b**2 + 4 eps)**(3/2) = 4/8 at b = 2, eps = 0"),
    Case("bn_eps_zero", "use batchnorm(eps=0)\nscalar b\nassume b == 2\n"
         "claim c: jacobian(BN(0; [0, b]), eps) == 0", REFUTE, "it is 1/2"),
    # the explicit engine (vector literals) and free matrices
    Case("literal", "let d = 2\nscalar t\nassume t == 3\n"
         "claim c: jacobian([t**2, t], t) == [6, 1]", PROVE, "(2 t, 1) at t = 3"),
    Case("literal_zero", "let d = 2\nscalar t\nassume t == 3\n"
         "claim c: jacobian([t**2, t], t) == [0, 0]", REFUTE, "(6, 1)"),
    Case("matrix", "matrix W\nscalar t\nassume t == 2\n"
         "claim c: jacobian(t**3*trace(W), t) == 12*trace(W)", PROVE, "3 t**2 = 12"),
    Case("matrix_zero", "matrix W\nscalar t\nassume t == 2\n"
         "claim c: jacobian(t**3*trace(W), t) == 0", REFUTE, "12 trace(W) != 0"),
]


def test_eps_derivative_value() -> None:
    """dN/deps at eps = 0 is -c/(2 v**(3/2)): mpmath's own differentiation at x = (1, 2, 4)."""
    x = [mpmath.mpf(1), mpmath.mpf(2), mpmath.mpf(4)]
    with mpmath.workdps(40):
        mean = sum(x) / 3
        c = [xi - mean for xi in x]
        v = sum(ci ** 2 for ci in c) / 3
        for i in range(3):
            got = mpmath.diff(lambda e, ci=c[i]: ci / mpmath.sqrt(v + e), 0)
            assert abs(got - (-c[i] / (2 * v * mpmath.sqrt(v)))) < mpmath.mpf(10) ** -30
            assert abs(got) > mpmath.mpf(10) ** -3  # nonzero: `== 0*x` is false


# --- class 6: settings and blocks ---------------------------------------------------------
BLOCKS: list[Case] = [
    Case("leak_d_bn", "use layernorm(d=3, eps=0.1)\n---\nuse batchnorm\nclaim c: trace(I) == 3",
         REFUTE, "d is free in the second block: d = 2 gives 2"),
    Case("leak_eps_bn", "use layernorm(d=3, eps=0.1)\n---\nuse batchnorm\n"
         "claim c: BN(z).T*BN(z) == d*(z.T*P*z/d)/(z.T*P*z/d + 1/10)", REFUTE,
         "eps is free in the second block (eps = 1/10 is not assumed there)"),
    Case("no_leak_bn_eps0", "use layernorm(d=3, eps=0.1)\n---\nuse batchnorm\n"
         "claim c: BN(z).T*BN(z) == d  given eps == 0", PROVE, "eps = 0: |BN(z)|**2 = d"),
    Case("leak_eps_rms", "use layernorm(eps=0)\n---\nuse rmsnorm\n"
         "claim c: RMS(x).T*RMS(x) == d", REFUTE, "eps is free in the second block"),
    Case("same_block_shares", "use layernorm(eps=0)\nuse rmsnorm\n"
         "claim c: RMS(x).T*RMS(x) == d", PROVE, "within one block the vocabularies share eps"),
    Case("leak_let_d", "let d = 3\nvector u\n---\nclaim c: trace(I) == 3", REFUTE,
         "d is free in the second block"),
    Case("leak_assume", "scalar k\nassume k > 0\n---\nclaim c: abs(k) == k", REFUTE,
         "k < 0 is allowed in the second block"),
    Case("leak_assume_d", "use layernorm\nassume d <= 3\n---\nclaim c: trace(I) <= 3", REFUTE,
         "d = 4 is allowed in the second block"),
    Case("doc_assume", "scalar k\ndocument assume k > 0\n---\nclaim c: abs(k) == k", PROVE,
         "stated for the whole document"),
    Case("doc_let_d", "document let d = 3\nvector u\n---\nclaim c: trace(I) == 3", PROVE,
         "stated for the whole document"),
    Case("doc_use", "document use layernorm(d=4, eps=0)\n---\nclaim c: trace(P) == 3",
         PROVE, "d = 4 for the whole document"),
    Case("doc_use_eps", "document use layernorm(eps=0)\n---\nclaim c: N(x).T*N(x) == d",
         PROVE, "eps = 0 for the whole document"),
    Case("later_options", "use layernorm\n---\nuse layernorm(eps_inside=0)\n"
         "claim c: J*c == eps/s**2*c", PROVE, "eps outside: N = c/(sqrt(v) + eps), "
         "J c = eps c/s**2 by hand (as out_radial in test_soundness)"),
    Case("later_options_old", "use layernorm\n---\nuse layernorm(eps_inside=0)\n"
         "claim c: J*c == eps/s**3*c", REFUTE, "the eps-inside formula, not this block's"),
    Case("after_options", "use layernorm\n---\nuse layernorm(eps_inside=0)\n---\n"
         "claim c: J*c == eps/s**3*c", PROVE, "the third block sees the document's layernorm"),
    Case("after_options_wrong", "use layernorm\n---\nuse layernorm(eps_inside=0)\n---\n"
         "claim c: J*c == eps/s**2*c", REFUTE, "the eps-outside formula does not leak"),
    Case("options_then_plain", "use layernorm(eps_inside=0)\n---\nuse layernorm\n"
         "claim c: s == sqrt(v + eps)", PROVE, "the second block's own definitions"),
    Case("unbiased_then_plain", "use layernorm(var_denominator=1)\n---\nuse layernorm\n"
         "claim c: v == c.T*c/d", PROVE, "population variance in the second block"),
    Case("unbiased_leak", "use layernorm(var_denominator=1)\n---\nuse layernorm\n"
         "claim c: v == c.T*c/(d - 1)", REFUTE, "the unbiased variance does not leak"),
    Case("group_d_leak", "use groupnorm(groups=2, channels=4, spatial=2, eps=0.1)\n---\n"
         "use layernorm\nclaim c: trace(I) == 8", REFUTE, "d is free in the second block"),
    Case("stale_ok_later", "use layernorm\nlet q = 1/s\n---\nuse layernorm(eps_inside=0)\n"
         "---\nclaim c: q*s == 1", PROVE, "the third block sees the document's s again"),
    Case("other_vocab_kept", "use layernorm\nuse batchnorm\n---\nuse layernorm(eps_inside=0)"
         "\nclaim c: Jb*ones == 0", PROVE, "batchnorm's names do not use the redefined ones"),
    Case("doc_groupnorm", "document use groupnorm(groups=2, channels=4, spatial=2)\n---\n"
         "claim c: trace(I) == 8", PROVE, "d = channels*spatial = 8, document-wide"),
    Case("doc_groupnorm_jac", "document use groupnorm(groups=2, channels=4, spatial=2)\n---\n"
         "claim c: Jg*ones == 0", TRUE, "each group is centred: GN(x + t ones) = GN(x) "
         "(TRUE, not PROVE: the check can reach the time limit on a loaded machine)"),
    Case("new_d_next_block", "let d = 3\nvector u\n---\nlet d = 4\nclaim c: trace(I) == 4",
         PROVE, "each block fixes its own d"),
]


def _params(cases):
    return [pytest.param(c, id=c.id) for c in cases]


@pytest.mark.parametrize("case", _params(DERIVATIVES + BLOCKS))
def test_claim(case: Case) -> None:
    v = _verdict(case.doc)
    assert v.status != "error", f"{case.id}: {v.message}"
    assert v.status in ALLOWED[case.kind], (
        f"{case.id}: {v.status} ({v.engine}, {v.scope}); must be {sorted(ALLOWED[case.kind])}:"
        f" {case.why}; counterexample {v.counterexample}; {v.message}")


# --- errors: never a silent reuse of another block's definitions ---------------------------
def _all(doc: str):
    return check_text(_text(doc), file="assume.md", sandbox=False).verdicts


@pytest.mark.parametrize("doc, needle", [
    ("use layernorm(eps=0)\n---\nclaim c: J*c == 0", "'J' is not defined in this block"),
    ("use layernorm(eps_inside=0)\nlet q = 1/s\n---\nclaim c: q*s == 1",
     "'q' is not defined in this block"),
    ("use layernorm(d=3)\n---\nclaim c: P*ones == 0", "'P' is not defined in this block"),
    ("let d = 3\nlet w = [1, 2, 3]\n---\nclaim c: w.T*w == 14", "'w' is not defined"),
    ("use layernorm\nuse layernorm(eps_inside=0)\nclaim c: s == s",
     "'s' is already defined in this block"),
    ("document scalar k\nclaim c: 1 == 1", "`document` applies to settings only"),
    ("use groupnorm\n---\nclaim c: Jg*ones == 0", "'Jg' is not defined in this block"),
    # a document-wide definition that uses a name this block's `use` options redefine
    ("use layernorm\nlet q = 1/s\n---\nuse layernorm(eps_inside=0)\nclaim c: q*s == 1",
     "'q' (line 3) was defined with the document's 's', which this block redefines"),
    ("use layernorm(eps_inside=0)\n---\nlatex c: J c = \\frac{\\epsilon}{s^2} c",
     "'J' is not defined in this block"),
    ("scalar eps\ndocument assume eps > 0\n---\nassume eps == 0\nclaim c: eps == 0",
     "contradicts"),
    ("document let d = 3\n---\nlet d = 4\nclaim c: 1 == 1",
     "d is already fixed to 3 (d = 3 (document let d = 3"),
])
def test_block_errors(doc: str, needle: str) -> None:
    verdicts = _all(doc)
    errors = [v.message for v in verdicts if v.status == "error"]
    assert any(needle in m for m in errors), (needle, [(v.label, v.status, v.message)
                                                        for v in verdicts])


def test_gone_name_error_says_where_it_came_from() -> None:
    (v,) = [v for v in _all("use layernorm(eps=0)\n---\nclaim c: J*c == 0") if v.label == "c"]
    assert v.status == "error"
    assert "use layernorm(eps=0)` (line 2)" in v.message and "document use" in v.message


# --- settings that reach a claim are shown in its verdict ----------------------------------
@pytest.mark.parametrize("doc, shown, hidden", [
    ("use layernorm(eps=0)\nclaim c: N(x).T*N(x) == d",
     ["eps == 0 (use layernorm(eps=0), line 2)"], []),
    ("use layernorm(eps_inside=0)\nclaim c: J*c == eps/s**2*c",
     ["the definitions of use layernorm(eps_inside=0) (line 2)"], []),
    ("use layernorm(d=3)\nclaim c: trace(P) == 2", ["d = 3 (use layernorm(d=3), line 2)"], []),
    ("document let d = 3\nscalar k\n---\nclaim c: trace(I) == 3",
     ["d = 3 (document let d = 3, line 2)"], []),
    ("document let d = 3\nscalar k\n---\nclaim c: k + 1 > k", [], ["d = 3"]),  # d plays no role
    ("scalar k\ndocument assume k > 0\n---\nclaim c: abs(k) == k",
     ["k > 0 (document-wide, line 3)"], []),
    ("use layernorm(d=3, eps=0.1)\n---\nuse batchnorm\nclaim c: Jb*ones == 0", [],
     ["d = 3", "eps == 1/10"]),
])
def test_settings_in_verdict(doc: str, shown: list[str], hidden: list[str]) -> None:
    (v,) = [v for v in _all(doc) if v.label == "c"]
    assert v.status != "error", v.message
    for text in shown:
        assert text in v.assumptions, (text, v.assumptions)
    for text in hidden:
        assert not any(text in a for a in v.assumptions), (text, v.assumptions)


def test_case_ids_unique() -> None:
    ids = [c.id for c in DERIVATIVES + BLOCKS]
    assert len(ids) == len(set(ids))


# --- the engines directly: a fixed value never reaches the function being differentiated ----
def _claim(text: str):
    from symnorm.lang.document import parse_text
    doc = parse_text("```symnorm\n" + text + "\n```\n")
    assert not doc.errors, doc.errors
    return doc.scope.claims[0]


def test_engines_differentiate_before_substituting() -> None:
    import sympy as sp

    from symnorm.engines.anyd import AnyD
    from symnorm.engines.explicit import Explicit
    from symnorm.engines.numclaim import Point, root_points
    claim = _claim("scalar t, a\nassume t == 3\nclaim c: jacobian(t**3, t) + a >= 0")
    jac = claim.relation.left.left
    assert AnyD(claim).value(jac) == 27
    assert Explicit(claim, 2).value(jac) == 27
    # a point's value of the differentiation variable is substituted after differentiating
    # too (exact re-checks and the roots used as sample points)
    assert Explicit(claim, 2, fixed={"t": sp.Integer(3)}).value(jac) == 27
    free = _claim("scalar t, a\nclaim c: jacobian(t**3, t) + a >= 0")
    roots = root_points(free, free.relation, Point(2, {"t": Fraction(2), "a": Fraction(1)}))
    assert [p.values["a"] for p in roots] == [Fraction(-12)]  # 3*2**2 + a = 0


def test_document_alone_is_an_error() -> None:
    (v,) = _all("document\nclaim c: 1 == 1")[:1]
    assert v.status == "error" and "`document` needs a setting" in v.message


@pytest.mark.parametrize("setting, status", [("assume a > 0", "refuted"),
                                             ("document assume a > 0", "proved")])
def test_latex_block_is_a_block(setting: str, status: str) -> None:
    """A ``latex LABEL`` block gets the earlier block's names, not its settings."""
    text = f"```symnorm\nscalar a\n{setting}\n```\n\n```latex L\n\\sqrt{{a^2}} = a\n```\n"
    (v,) = check_text(text, file="assume.md", sandbox=False).verdicts
    assert v.status == status, (v.status, v.message, v.counterexample)


def _poly_cases(seed: int) -> tuple[str, Fraction, Fraction]:
    """A random cubic in t, a value t0, and f'(t0) by exact polynomial arithmetic."""
    import random
    rng = random.Random(seed)
    coeffs = [Fraction(rng.randint(-9, 9), rng.choice((1, 2, 3))) for _ in range(4)]
    coeffs[3] = coeffs[3] or Fraction(1)
    t0 = Fraction(rng.randint(-6, 6), rng.choice((1, 2, 5)))
    text = " + ".join(f"({c.numerator}/{c.denominator})*t**{k}" for k, c in enumerate(coeffs))
    slope = sum((k * c * t0 ** (k - 1) for k, c in enumerate(coeffs) if k), Fraction(0))
    return text, t0, slope


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("how", ["assume", "given"])
def test_random_cubic_derivative_at_a_value(seed: int, how: str) -> None:
    """jacobian(f, t) at t = t0 is f'(t0), proved; the value of d/dt f(t0) = 0 is refuted."""
    f, t0, slope = _poly_cases(seed)
    t0s = f"{t0.numerator}/{t0.denominator}"
    head = f"scalar t\nassume t == {t0s}\n" if how == "assume" else "scalar t\n"
    tail = f"  given t == {t0s}" if how == "given" else ""
    right = f"{slope.numerator}/{slope.denominator}"
    text = _text(f"{head}claim c: jacobian({f}, t) == {right}{tail}\n"
                 f"claim w: jacobian({f}, t) == {right} + 1{tail}\n"
                 f"claim z: jacobian({f}, t)*0 + jacobian({f}, t) == 0{tail}")
    got = {v.label: v.status for v in check_text(text, file="assume.md", sandbox=False).verdicts}
    assert got["c"] == "proved", (f, t0, slope, got)
    assert got["w"] == "refuted", (f, t0, slope, got)
    assert got["z"] == ("proved" if slope == 0 else "refuted"), (f, t0, slope, got)


# Red team 8: an equality assumption whose value is not a rational number
# (`assume e == sqrt(2)`) was left out of the scope, which read "all values of the free
# symbols" for a claim proved only at e = sqrt(2).
def test_a_thin_equality_assumption_is_named_in_the_scope() -> None:
    doc = ("```symnorm\nscalar e, a\nassume e == sqrt(2)\nclaim one: e**2 == 2\n"
           "claim wrong: e**2 == 3\n```\n")
    got = {v.label: (v.status, v.scope) for v in check_text(doc, "t.md", sandbox=False).verdicts}
    assert got["one"][0] == "proved" and "e = sqrt(2)" in got["one"][1], got
    assert "all values of the free symbols" not in got["one"][1], got
    assert got["wrong"][0] == "refuted", got


def test_points_outside_a_thin_assumption_are_never_counterexamples() -> None:
    # every rational sample point violates e == sqrt(2); a claim that holds on the
    # assumption but fails off it must not be refuted at such a point
    doc = ("```symnorm\nscalar e\nassume e == sqrt(2)\nclaim c: e**4 == 4\n```\n")
    (v,) = check_text(doc, "t.md", sandbox=False).verdicts
    assert v.status == "proved", (v.status, v.scope, v.message)
