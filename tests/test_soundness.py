"""Soundness red team: false claims never pass, true claims are never refuted.

Every case states a claim whose truth was established independently (by hand, or by the
exact/mpmath helpers below, never by symnorm) and the verdicts it may get:

* ``FALSE``: must be ``refuted`` or ``undecided`` (never proved, proved-for or confirmed);
* ``REFUTE``: a false claim symnorm must refute (a regression guard on the refuter);
* ``TRUE``: must be proved, proved-for, confirmed or undecided (never refuted);
* ``PROVE``: a true claim symnorm must prove or confirm.

A ``refuted`` verdict must carry a genuine counterexample: where the case gives a ``holds``
function (an independent evaluation of the claim at exact rational values), the
counterexample point is checked with it.  Known violations that are not fixed yet are marked
``xfail(strict=True)`` with the finding number of ``/tmp/redteam_findings.md``; they turn into
failures once fixed, so the marker is removed then.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import pytest

from symnorm.check.run import check_text

FALSE, REFUTE, TRUE, PROVE = "false", "refute", "true", "prove"
OK = {"proved", "proved-for", "confirmed"}
ALLOWED = {
    FALSE: {"refuted", "undecided"},
    REFUTE: {"refuted"},
    TRUE: OK | {"undecided"},
    PROVE: OK,
}

Holds = Callable[[dict[str, Fraction]], bool]


@dataclass(frozen=True)
class Case:
    """One claim line under a document header, the verdicts it may get, and why."""

    id: str
    header: str
    claim: str  # "lhs REL rhs [given ...]"; the label is added from ``id``
    kind: str
    why: str
    holds: Holds | None = None  # independent truth at a scalar point (for counterexamples)
    xfail: str = ""
    slow: bool = False


def _q(x: str) -> Fraction:
    return Fraction(x)


# --- headers -------------------------------------------------------------------------------
AB = "scalar a, b"
LN = "use layernorm\nscalar a, b, k\nvector u"
LN_EPS0 = "use layernorm(eps=0)\nscalar k"
LN_OUT = "use layernorm(eps_inside=0)"
LN_UNB = "use layernorm(var_denominator=1)"
RMS = "use rmsnorm\nscalar k"
BNV = "use batchnorm\nscalar b"
A_POS = "scalar a, b\nassume a > 0"
K_POS = "use layernorm\nscalar k\nassume k > 0"
D4 = "use layernorm\nassume d >= 4"
W = "matrix W\nvector x"
D3 = "let d = 3\nvector x\nscalar a"


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


CASES: list[Case] = [
    # ---- hypotheses: the solver must not divide by something that can vanish (F1) -----------
    Case("hyp_ab_zero", AB, "a == 0 given a*b == 0", FALSE,
         "a = 1, b = 0 satisfies a*b == 0"),
    Case("hyp_ab_b", AB, "a == 1 given a*b == b", FALSE,
         "a = 2, b = 0 satisfies a*b == b"),
    Case("hyp_a2b", AB, "b == 0 given a**2*b == 0", FALSE,
         "a = 0, b = 1 satisfies a**2*b == 0"),
    Case("hyp_linear_ok", AB, "a == 1 - b given a + b == 1", PROVE, "linear, coefficient 1"),
    Case("hyp_linear_false", AB, "a == 1 + b given a + b == 1", REFUTE, "a = 1, b = 0 -> ok; "
         "a = 0, b = 1 -> 0 != 2", holds=lambda v: v["a"] == 1 + v["b"]),
    Case("hyp_nonzero_assumed", "scalar a, b\nassume a != 0", "b == 0 given a*b == 0", TRUE,
         "a != 0 assumed, so b = 0"),
    # ---- assumptions must hold at every sample point, also after solving hypotheses (F5) ----
    Case("assume_given_true", A_POS, "abs(a**3 - a**2 + a) == a**3 - a**2 + a given a + b == 1",
         TRUE, "a > 0 gives a*(a**2 - a + 1) > 0"),
    Case("assume_given_ne", A_POS, "abs(a**3 - a**2 + a) != a**3 - a**2 + a given a + b == 1",
         FALSE, "equal for every a > 0"),
    Case("assume_plain", A_POS, "abs(a**3 - a**2 + a) == a**3 - a**2 + a", TRUE,
         "a*(a**2 - a + 1) > 0 for a > 0"),
    Case("assume_let_bound", "scalar a\nlet q = a - 1\nassume q > 0",
         "abs(a**3 - a**2) == a**3 - a**2", TRUE, "a > 1: a**2*(a - 1) > 0"),
    Case("assume_k_scale", K_POS, "N(k*x) == N(x) given eps == 0", PROVE, "k > 0, eps = 0"),
    Case("assume_k_flip", K_POS, "N(-k*x) == -N(x) given eps == 0", PROVE, "k > 0, eps = 0"),
    Case("assume_k_wrong", K_POS, "N(-k*x) == N(x) given eps == 0", REFUTE, "sign flips"),
    Case("scale_no_assume", LN, "N(k*x) == N(x) given eps == 0", REFUTE, "k < 0 flips"),
    # ---- assumptions that mention symbols the claim does not use (F17) ----------------------
    Case("chain_true", "scalar a, b\nassume a >= b\nassume b >= 0", "abs(a) == a", TRUE,
         "a >= b >= 0"),
    Case("chain_ne", "scalar a, b\nassume a >= b\nassume b >= 0", "abs(a) != a", FALSE,
         "a >= b >= 0 gives |a| = a"),
    Case("chain_ineq", "scalar a, b\nassume a >= b\nassume b >= 0", "a >= 0", TRUE,
         "a >= b >= 0"),
    Case("chain_local", AB, "abs(a) == a given a >= b, b >= 0", TRUE, "a >= b >= 0"),
    Case("chain_false", "scalar a, b\nassume a >= b", "abs(a) == a", REFUTE,
         "a = b = -1 satisfies a >= b", holds=lambda v: abs(v["a"]) == v["a"]),
    # ---- a bound away from 0 (F16) ----------------------------------------------------------
    Case("bound_off_zero", AB, "sqrt(a**2) == a given a > -1", FALSE, "a = -1/2"),
    Case("bound_off_zero_ok", AB, "sqrt(a**2) == a given a > 1", PROVE, "a > 1 > 0"),
    # ---- tiny differences: below the working precision (F2, F7) -----------------------------
    Case("tiny_const", AB, "1 + 1/10**200 == 1", FALSE, "differs by 1e-200"),
    Case("tiny_shift", AB, "a + 1/10**200 == a", FALSE, "differs by 1e-200"),
    Case("tiny_exp_const", AB, "exp(1/10**150) == 1", FALSE, "differs by 1e-150"),
    Case("tiny_exp", AB, "exp(a/10**150) == 1", FALSE, "differs by a*1e-150 != 0"),
    Case("tiny_ineq_true", AB, "a + 1/10**200 > a", TRUE, "1e-200 > 0"),
    Case("tiny_ineq_false", AB, "a + 1/10**200 <= a", FALSE, "1e-200 > 0"),
    Case("tiny_exp_ineq_true", AB, "exp(1/10**150) > 1", TRUE, "exp is increasing"),
    Case("tiny_exp_ineq_false", AB, "exp(1/10**150) <= 1", FALSE, "exp(1e-150) > 1"),
    Case("tiny_nonliteral", AB, "a**2 + 1 + 1/10**(2*100) == a**2 + 1", FALSE,
         "differs by 1e-200"),
    Case("tiny_exp_const_shift", AB, "a**2 + 1 + exp(-1000) == a**2 + 1", FALSE,
         "differs by exp(-1000) > 0"),
    Case("small_diff", AB, "a + 1/10**60 == a", REFUTE, "resolved at 130 digits"),
    Case("small_ne", AB, "a + 1/10**60 != a", PROVE, "a genuine witness exists"),
    Case("huge_plus_one", AB, "10**200 + 1 == 10**200", REFUTE, "differs by 1"),
    Case("huge_cancel", AB, "(10**80 + a) - 10**80 == a", TRUE, "exact cancellation"),
    Case("sqrt2_close_false", AB,
         "sqrt(2) < 1.41421356237309504880168872420969807856967187537694", REFUTE,
         "sqrt(2) = 1.41421356237309504880168872420969807856967187537694807...",
         ),
    Case("sqrt2_close_true", AB,
         "sqrt(2) < 1.41421356237309504880168872420969807856967187537695", TRUE,
         "sqrt(2) = 1.41421356237309504880168872420969807856967187537694807..."),
    # ---- sample range: values outside [-5, 5], zero, degenerate vectors (F3) ----------------
    Case("abs_far", AB, "abs(a - 7) == 7 - a", FALSE, "false for a > 7"),
    Case("sqrt_far", AB, "sqrt((a - 10)**2) == 10 - a", FALSE, "false for a > 10"),
    Case("exp_bound", AB, "exp(a) < 10**10", FALSE, "false for a > 23.03"),
    Case("square_pos", AB, "a**2 > 0", FALSE, "false at a = 0"),
    Case("exp_tangent_strict", AB, "exp(a) > 1 + a", FALSE, "equality at a = 0"),
    Case("root_strict", AB, "(a - 1/3)**2 > 0", FALSE, "false at a = 1/3"),
    *[Case(f"lt{i}", AB, "log(a) < a - 1", FALSE, "equality at a = 1")
      for i in range(8)],
    Case("amgm_strict", AB, "a**2 + b**2 > 2*a*b", FALSE, "equality at a = b"),
    Case("var_pos", LN, "v > 0", FALSE, "v = 0 at x = ones"),
    Case("cs_strict", LN, "x.T*x > (x.T*ones)**2/d", FALSE, "equality at x = ones"),
    Case("strip_x", AB, "sqrt(abs(a - b) + 1) == sqrt(a - b + 1)", FALSE,
         "false for -1 < a - b < 0 (a = 29/7, b = 23/5)",
         holds=lambda v: v["a"] - v["b"] >= 0 or v["a"] - v["b"] < -1),
    Case("strip_shifted", AB, "sqrt(abs(b - 7) + 1) == sqrt(b - 6)", FALSE,
         "false for 6 <= b < 7", holds=lambda v: v["b"] >= 7 or v["b"] < 6),
    Case("strip_affine", AB, "sqrt(abs(2*a + 1/3) + 1) == sqrt(2*a + 4/3)", FALSE,
         "false for -2/3 <= a < -1/6",
         holds=lambda v: not Fraction(-2, 3) <= v["a"] < Fraction(-1, 6)),
    Case("strip_hyperbola", AB, "sqrt(abs(a*b) + 1) + abs(a*b) == a*b + sqrt(a*b + 1)", FALSE,
         "false for -1 <= a*b < 0", holds=lambda v: not -1 <= v["a"] * v["b"] < 0),
    Case("abs_near", AB, "abs(a - 1/1000) == a - 1/1000", REFUTE, "false for a < 1/1000",
         holds=lambda v: abs(v["a"] - Fraction(1, 1000)) == v["a"] - Fraction(1, 1000)),
    Case("log_tangent_strict", AB, "log(a) < a - 1", FALSE, "equality at a = 1 (only)",
         holds=lambda v: v["a"] > 0 and mpmath.log(_mp(v["a"])) < _mp(v["a"] - 1)),
    Case("exp_tangent", AB, "exp(a) >= 1 + a", PROVE, "convexity"),
    Case("amgm", AB, "a**2 + b**2 >= 2*a*b", PROVE, "(a - b)**2 >= 0"),
    Case("triangle", AB, "abs(a + b) <= abs(a) + abs(b)", PROVE, "triangle inequality"),
    Case("triangle_strict", AB, "abs(a + b) < abs(a) + abs(b)", REFUTE, "equal for same signs",
         holds=lambda v: abs(v["a"] + v["b"]) < abs(v["a"]) + abs(v["b"])),
    Case("cs", LN, "x.T*x >= (x.T*ones)**2/d", PROVE, "Cauchy-Schwarz"),
    # ---- both signs must be sampled whatever the label (F8) ---------------------------------
    *[Case(f"sign_{i}", D3, "abs(a) == a", FALSE, "a = -1",
           holds=lambda v: abs(v["a"]) == v["a"]) for i in range(6)],
    *[Case(f"sign_vec_{i}", D3, "abs(a)*x == a*x", FALSE, "a = -1, x = ones" if i == 2 else "")
      for i in range(4)],
    # ---- quadratic hypotheses: every root must be sampled before confirming (F9) ------------
    Case("quad_root", AB, "a == 2 given a**2 == 4", FALSE, "a = -2"),
    Case("quad_sign", AB, "a >= 0 given a**2 == 4", FALSE, "a = -2"),
    Case("quad_two", AB, "a + b >= b given a**2 == b**2 + 1", FALSE, "a = -1, b = 0"),
    Case("quad_sqrt", AB, "sqrt(a**2) == a given a**2 == 4", FALSE, "a = -2"),
    Case("quad_vec", "vector x", "x.T*ones >= 0 given x.T*x == 1", FALSE, "x = -e1"),
    Case("quad_true", AB, "abs(a) == 2 given a**2 == 4", TRUE, "both roots"),
    Case("quad_vec_true", "vector x", "x.T*ones >= -d given x.T*x == d",
         TRUE, "Cauchy-Schwarz: |sum x| <= sqrt(d)*|x| = d"),
    # ---- mixed signs across scalars (F12) and cancellation below any precision (F13) --------
    Case("mixed_abs", AB, "abs(a + b) == abs(a)*1 + abs(b)", REFUTE, "a = 1, b = -1",
         holds=lambda v: abs(v["a"] + v["b"]) == abs(v["a"]) + abs(v["b"])),
    Case("mixed_sqrt", AB, "sqrt(b*a**2) == a*sqrt(b)", REFUTE, "a = -1, b = 1",
         holds=lambda v: v["b"] < 0 or abs(v["a"]) == v["a"]),
    Case("mixed_prod", AB, "a*b**2 >= 0", REFUTE, "a = -1",
         holds=lambda v: v["a"] * v["b"] ** 2 >= 0),
    Case("mixed_ne", AB, "abs(a*b) != a*b", PROVE, "a = 1, b = -1"),
    Case("cancel_deep", AB, "(1 + exp(-exp(a**2 + 20))) - 1 == 0", FALSE,
         "exp(-exp(20)) > 0 is lost in 1 + tiny at every precision"),
    # ---- derivatives where none exists (F10) ------------------------------------------------
    Case("jac_abs_zero", AB, "jacobian(abs(a), a) == 0 given a == 0", FALSE,
         "|a| is not differentiable at 0"),
    Case("jac_abs_diag", AB, "jacobian(abs(a - b), a) == 0 given a == b", FALSE,
         "|a - b| is not differentiable at a = b"),
    Case("jac_abs_cube", AB, "jacobian(abs(a)**3, a) == 0 given a == 0", TRUE,
         "|a|**3 is C1 with derivative 0 at 0"),
    Case("jac_abs_away", AB, "jacobian(abs(a), a)*a == abs(a)", TRUE, "a*sign(a) = |a|"),
    Case("jac_kink_sq", AB, "jacobian(abs(a), a)**2 == 1", TRUE,
         "true wherever the derivative exists (a != 0); a = 0 is no counterexample (F14)"),
    Case("jac_kink_grad", AB, "jacobian(sqrt(a**2 + b**2), a)**2 + "
         "jacobian(sqrt(a**2 + b**2), b)**2 == 1", TRUE, "unit gradient away from 0 (F14)"),
    Case("jac_kink_vec", LN, "jacobian(sqrt(x.T*x), x)*jacobian(sqrt(x.T*x), x).T == 1", TRUE,
         "unit gradient of the norm away from x = 0 (F14)"),
    Case("jac_kink_sum", LN, "jacobian(abs(x.T*ones), x)*jacobian(abs(x.T*ones), x).T == d",
         TRUE, "gradient sign(sum x)*ones away from sum x = 0 (F14)"),
    # ---- inequalities in d checked only up to d = 8 (F11) -----------------------------------
    Case("d_upto8", LN, "trace(P) < 8", FALSE, "false at d = 9"),
    Case("d_upto8_vec", LN, "x.T*x*(9 - d) >= 0", FALSE, "false at d = 10, x = ones"),
    Case("d_poly_scope", LN, "(d - 2)*(d - 3)*(d - 4)*(d - 5)*(d - 6)*(d - 7)*(d - 8)*x.T*x == 0",
         FALSE, "false at d = 9; proved-for is allowed only with the scope d = 2..8"),
    # ---- inequalities that depend on d (F6) -------------------------------------------------
    Case("trace_I_lt3", LN, "trace(I) < 3", FALSE, "d = 3"),
    Case("trace_P_le1", LN, "trace(P) <= 1", FALSE, "d - 1 > 1 for d = 3"),
    Case("d_lt3", LN, "d < 3", FALSE, "d = 3"),
    Case("d_sq", LN, "d**2 < 5", FALSE, "d = 3"),
    Case("d4_trace_le3", D4, "trace(P) <= 3", FALSE, "d = 5 gives 4"),
    Case("d4_trace_ge3", D4, "trace(P) >= 3", TRUE, "d - 1 >= 3"),
    Case("d_ge2", LN, "trace(P) >= 1", TRUE, "d >= 2"),
    Case("assume_d3", "use layernorm\nassume d == 3", "trace(I) == 3", TRUE, "d = 3"),
    Case("d_upper", "use layernorm\nassume d <= 3", "trace(P) <= 2", TRUE, "d <= 3"),
    Case("d_upper_strict", "use layernorm\nassume d < 4", "trace(I) < 4", TRUE, "d < 4"),
    Case("d_not3", "use layernorm\nassume d != 3", "(d - 3)**2*(x.T*x + 1) > 0", TRUE,
         "d != 3"),
    Case("d_lower", "use layernorm\nassume d > 3", "trace(I) >= 5", REFUTE, "d = 4"),
    Case("d_band", "use layernorm\nassume d >= 100", "trace(I) < 150", FALSE, "d = 150"),
    # ---- branches: sqrt, abs, log, exp, fractional powers -----------------------------------
    Case("sqrt_sq", AB, "sqrt(a**2) == a", REFUTE, "a < 0",
         holds=lambda v: abs(v["a"]) == v["a"]),
    Case("sqrt_sq_abs", AB, "sqrt(a**2) == abs(a)", PROVE, "definition of abs"),
    Case("sqrt_sq_pos", A_POS, "sqrt(a**2) == a", PROVE, "a > 0"),
    Case("sqrt_sq_neg", "scalar a\nassume a < 0", "sqrt(a**2) == -a", PROVE, "a < 0"),
    Case("sqrt_sq_neg_wrong", "scalar a\nassume a < 0", "sqrt(a**2) == a", REFUTE, "a < 0"),
    Case("abs_prod", AB, "abs(a*b) == abs(a)*abs(b)", TRUE, "multiplicative"),
    Case("abs_sum", AB, "abs(a + b) == abs(a) + abs(b)", REFUTE, "a = 1, b = -1",
         holds=lambda v: abs(v["a"] + v["b"]) == abs(v["a"]) + abs(v["b"])),
    Case("log_prod", "scalar a, b\nassume a > 0\nassume b > 0", "log(a*b) == log(a) + log(b)",
         TRUE, "a, b > 0"),
    Case("log_sq", AB, "log(a**2) == 2*log(a)", TRUE, "equal wherever both are defined (a > 0)"),
    Case("log_sq_abs", AB, "log(a**2) == 2*log(abs(a))", TRUE, "a != 0"),
    Case("log_exp", AB, "log(exp(a)) == a", PROVE, "a real"),
    Case("exp_log", AB, "exp(log(a)) == a", TRUE, "a > 0 where defined"),
    Case("exp_sum", AB, "exp(a + b) == exp(a)*exp(b)", PROVE, "exponential law"),
    Case("exp_sum_wrong", AB, "exp(a + b) == exp(a) + exp(b)", REFUTE, "a = b = 0 -> 1 != 2"),
    # an odd root is an error now (test_soundness_redteam13.py); the even root of a square
    Case("square_root", AB, "(a**2)**(1/2) == abs(a)", TRUE, "every a"),
    Case("pow_half_sq", AB, "(a**2)**(1/2) == a", REFUTE, "a < 0",
         holds=lambda v: abs(v["a"]) == v["a"]),
    Case("pow_three_halves", AB, "(a**2)**(3/2) == a**3", REFUTE, "a < 0",
         holds=lambda v: abs(v["a"]) ** 3 == v["a"] ** 3),
    Case("pow_neg_half", AB, "a**(-1/2) == 1/sqrt(a)", TRUE, "a > 0"),
    Case("sqrt_prod", AB, "sqrt(a)*sqrt(b) == sqrt(a*b)", TRUE, "wherever both sides are defined"),
    Case("sqrt_pull_out", AB, "sqrt(a**2*b) == a*sqrt(b)", REFUTE, "a < 0 < b",
         holds=lambda v: v["b"] < 0 or _mp(abs(v["a"])) == _mp(v["a"])),
    Case("sqrt_pull_out_abs", AB, "sqrt(a**2*b) == abs(a)*sqrt(b)", TRUE, "b >= 0"),
    Case("sqrt_upper", AB, "(a**2 + 1)**(1/2) >= abs(a)", PROVE, "a**2 + 1 > a**2"),
    Case("sqrt_neg_const", AB, "sqrt(-1)**2 == -1", FALSE, "sqrt(-1) is not real"),
    Case("sqrt_neg_ineq", AB, "sqrt(-1)**2 < 0", FALSE, "sqrt(-1) is not real"),
    Case("sqrt_neg_given", AB, "sqrt(a)*sqrt(a) < 0 given a == -1", FALSE,
         "sqrt(-1) is not real"),
    Case("sqrt_neg_given_eq", AB, "sqrt(a)**2 == -1 given a == -1", FALSE,
         "sqrt(-1) is not real"),
    Case("nested_sqrt", AB, "sqrt(3 + 2*sqrt(2)) == 1 + sqrt(2)", PROVE, "(1 + sqrt 2)**2"),
    Case("nested_sqrt_wrong", AB, "sqrt(3 + 2*sqrt(2)) == sqrt(2) - 1", REFUTE, "sign"),
    Case("denest_wrong", AB, "sqrt(3 - 2*sqrt(2)) == 1 - sqrt(2)", REFUTE,
         "left >= 0 > right"),
    Case("denest_right", AB, "sqrt(3 - 2*sqrt(2)) == sqrt(2) - 1", PROVE, "(sqrt 2 - 1)**2"),
    Case("d_parity", AB, "(a**2)**(d/2) == a**d", FALSE, "d = 3, a = -1 (F23)"),
    Case("d_parity_abs", AB, "(a**2)**(d/2) == abs(a)**d", PROVE, "(a**2)**(d/2) = |a|**d"),
    Case("d_sign_pow", AB, "(-1)**d == 1", REFUTE, "d = 3"),
    Case("d_sign_pow_even", AB, "(-1)**(2*d) == 1", PROVE, "even power"),
    Case("d_root", AB, "(a**d)**(1/d) == abs(a)", TRUE,
         "even d: |a|; odd d and a < 0: left side undefined"),
    # ---- != claims: a witness must be genuine -----------------------------------------------
    Case("ne_identity", AB, "(a + b)**2 != a**2 + 2*a*b + b**2", REFUTE, "identity"),
    Case("ne_true", AB, "(a + b)**2 != a**2 + b**2", PROVE, "a = b = 1"),
    Case("ne_abs", AB, "abs(a) != a", PROVE, "a = -1"),
    Case("ne_sqrt_abs", AB, "sqrt(a**2) != abs(a)", FALSE, "identity"),
    Case("ne_scale", LN, "N(2*x) != N(x)", PROVE, "eps != 0 changes it"),
    Case("ne_scale_eps0", LN, "N(2*x) != N(x) given eps == 0", FALSE, "scale invariant"),
    Case("ne_shift", LN, "N(x + b*ones) != N(x)", FALSE, "shift invariant"),
    # ---- vocabularies -----------------------------------------------------------------------
    Case("ln_radial", LN, "J*c == eps/s**3*c", PROVE, "paper eq. (3)"),
    Case("ln_radial_wrong", LN, "J*c == eps/s**2*c", REFUTE, "power of s"),
    Case("ln_trace", LN, "trace(J) == (d - 2)/s + eps/s**3", PROVE, "paper"),
    Case("ln_trace_wrong", LN, "trace(J) == (d - 1)/s + eps/s**3", REFUTE, "off by 1/s"),
    Case("ln_complement", LN, "J*u == u/s given u.T*ones == 0, u.T*c == 0", PROVE, "paper"),
    Case("ln_complement_wrong", LN, "J*u == u/s given u.T*ones == 0", REFUTE,
         "needs u orthogonal to c"),
    Case("ln_norm", LN, "N(x).T*N(x) == d*v/(v + eps)", PROVE, "|c|**2 = d v"),
    Case("ln_norm_wrong", LN, "N(x).T*N(x) == d", REFUTE, "eps != 0"),
    Case("ln_jac_scalar", LN, "jacobian(N(k*x), k) == J*x given k == 1", PROVE,
         "chain rule at k = 1"),
    Case("ln_jac_scalar_wrong", LN, "jacobian(N(k*x), k) == J*x", REFUTE, "needs k = 1"),
    Case("ln_jac_eps", LN, "jacobian(N(x), eps) == -c/(2*s**3)", PROVE, "d/deps of c/s"),
    Case("ln_jac_eps_wrong", LN, "jacobian(N(x), eps) == -c/s**3", REFUTE, "factor 1/2"),
    Case("ln_grad_v", LN, "jacobian(v, x) == 2*c.T/d", PROVE, "grad of |Px|**2/d"),
    Case("ln_grad_v_wrong", LN, "jacobian(v, x) == 2*x.T/d", REFUTE, "needs P"),
    Case("eps0_scale", LN_EPS0, "N(k*x) == N(x)", REFUTE, "k < 0 flips the sign"),
    Case("eps0_norm", LN_EPS0, "N(x).T*N(x) == d", PROVE, "eps = 0"),
    Case("eps0_radial", LN_EPS0, "J*c == 0", PROVE, "eps = 0"),
    Case("out_radial", LN_OUT, "J*c == eps/s**2*c", PROVE, "eps outside: s = sqrt(v) + eps"),
    Case("out_radial_inside", LN_OUT, "J*c == eps/s**3*c", REFUTE, "formula of eps inside"),
    Case("out_def_inside", LN_OUT, "N(x) == c/sqrt(v + eps)", REFUTE, "eps placement"),
    Case("unb_var", LN_UNB, "v == c.T*c/(d - 1)", PROVE, "unbiased"),
    Case("unb_var_wrong", LN_UNB, "v == c.T*c/d", REFUTE, "unbiased"),
    Case("unb_J_wrong", LN_UNB, "J == P/s - c*c.T/(d*s**3)", REFUTE, "d - 1"),
    Case("unb_J", LN_UNB, "J == P/s - c*c.T/((d - 1)*s**3)", PROVE, "d - 1"),
    Case("rms_radial", RMS, "Jr*x == eps/r**3*x", PROVE, "RMSNorm"),
    Case("rms_radial_wrong", RMS, "Jr*x == eps/r**2*x", REFUTE, "power"),
    Case("rms_shift", RMS, "RMS(x + k*ones) == RMS(x)", REFUTE, "no centering"),
    Case("rms_trace", RMS, "trace(Jr) == (d - 1)/r + eps/r**3", PROVE, "by hand"),
    Case("rms_trace_wrong", RMS, "trace(Jr) == (d - 2)/r + eps/r**3", REFUTE, "no centering"),
    Case("bn_pair", BNV, "BN(0; [0, b]) == -b/sqrt(b**2 + 4*eps)", PROVE, "paper eq. (4)"),
    Case("bn_pair_wrong", BNV, "BN(0; [0, b]) == -b/sqrt(b**2 + 2*eps)", REFUTE, "variance"),
    Case("bn_three", BNV, "BN(1; [1, 2, 3]) == -1/sqrt(2/3 + eps)", PROVE, "mean 2, var 2/3"),
    Case("bn_three_wrong", BNV, "BN(1; [1, 2, 3]) == -1/sqrt(1 + eps)", REFUTE,
         "population variance 2/3"),
    Case("bn_jac", BNV, "Jb*ones == 0", PROVE, "shift invariance"),
    Case("bn_1_2_4", BNV, "BN(1; [1, 2, 4]) == -4/sqrt(14 + 9*eps)", PROVE,
         "mean 7/3, population variance 14/9"),
    Case("bn_1_2_4_wrong", BNV, "BN(1; [1, 2, 4]) == -4/sqrt(14 + 3*eps)", REFUTE,
         "population variance 14/9, so the eps coefficient is 9"),
    Case("bn_dup", BNV, "BN(b; [b, b]) == 0 given eps == 1", PROVE, "zero variance, eps = 1"),

    # ---- grouped vocabularies at a concrete point: values computed independently with SymPy
    # (per group: (x - mean)/sqrt(var + eps), var over m or m - 1, eps outside: sqrt(var) + eps)
    Case("vocab_gn", 'use groupnorm(groups=2, channels=4, spatial=2, eps=0.1)',
         'GN([1, 2, 3, 4, 5, 6, 7, 9]) == [-sqrt(15)/3, -sqrt(15)/9, sqrt(15)/9, sqrt(15)/3, -7*sqrt(915)/183, -sqrt(915)/61, sqrt(915)/183, 3*sqrt(915)/61]',
         PROVE, 'computed by hand with SymPy (tests/test_soundness.py comment)'),
    Case("vocab_gn_w", 'use groupnorm(groups=2, channels=4, spatial=2, eps=0.1)',
         'GN([1, 2, 3, 4, 5, 6, 7, 9]) == [-101*sqrt(15)/300, -sqrt(15)/9, sqrt(15)/9, sqrt(15)/3, -7*sqrt(915)/183, -sqrt(915)/61, sqrt(915)/183, 3*sqrt(915)/61]',
         REFUTE, 'entry 0 scaled by 101/100'),
    Case("vocab_gn_out", 'use groupnorm(groups=2, channels=4, spatial=2, eps=0.1, eps_inside=0)',
         'GN([1, 2, 3, 4, 5, 6, 7, 9]) == [15/124 - 75*sqrt(5)/124, 5/124 - 25*sqrt(5)/124, -5/124 + 25*sqrt(5)/124, -15/124 + 75*sqrt(5)/124, -7/(4*(1/10 + sqrt(35)/4)), 30/871 - 75*sqrt(35)/871, -10/871 + 25*sqrt(35)/871, 9/(4*(1/10 + sqrt(35)/4))]',
         PROVE, 'computed by hand with SymPy (tests/test_soundness.py comment)'),
    Case("vocab_gn_out_w", 'use groupnorm(groups=2, channels=4, spatial=2, eps=0.1, eps_inside=0)',
         'GN([1, 2, 3, 4, 5, 6, 7, 9]) == [303/2480 - 303*sqrt(5)/496, 5/124 - 25*sqrt(5)/124, -5/124 + 25*sqrt(5)/124, -15/124 + 75*sqrt(5)/124, -7/(4*(1/10 + sqrt(35)/4)), 30/871 - 75*sqrt(35)/871, -10/871 + 25*sqrt(35)/871, 9/(4*(1/10 + sqrt(35)/4))]',
         REFUTE, 'entry 0 scaled by 101/100'),
    Case("vocab_gn_unb", 'use groupnorm(groups=2, channels=4, spatial=2, eps=0.1, var_denominator=1)',
         'GN([1, 2, 3, 4, 5, 6, 7, 9]) == [-3*sqrt(1590)/106, -sqrt(1590)/106, sqrt(1590)/106, 3*sqrt(1590)/106, -7*sqrt(2715)/362, -3*sqrt(2715)/362, sqrt(2715)/362, 9*sqrt(2715)/362]',
         PROVE, 'computed by hand with SymPy (tests/test_soundness.py comment)'),
    Case("vocab_gn_unb_w", 'use groupnorm(groups=2, channels=4, spatial=2, eps=0.1, var_denominator=1)',
         'GN([1, 2, 3, 4, 5, 6, 7, 9]) == [-303*sqrt(1590)/10600, -sqrt(1590)/106, sqrt(1590)/106, 3*sqrt(1590)/106, -7*sqrt(2715)/362, -3*sqrt(2715)/362, sqrt(2715)/362, 9*sqrt(2715)/362]',
         REFUTE, 'entry 0 scaled by 101/100'),
    Case("vocab_in", 'use instancenorm(channels=4, spatial=2, eps=0.1)',
         'IN([1, 2, 3, 4, 5, 6, 7, 9]) == [-sqrt(35)/7, sqrt(35)/7, -sqrt(35)/7, sqrt(35)/7, -sqrt(35)/7, sqrt(35)/7, -sqrt(110)/11, sqrt(110)/11]',
         PROVE, 'computed by hand with SymPy (tests/test_soundness.py comment)'),
    Case("vocab_in_w", 'use instancenorm(channels=4, spatial=2, eps=0.1)',
         'IN([1, 2, 3, 4, 5, 6, 7, 9]) == [-101*sqrt(35)/700, sqrt(35)/7, -sqrt(35)/7, sqrt(35)/7, -sqrt(35)/7, sqrt(35)/7, -sqrt(110)/11, sqrt(110)/11]',
         REFUTE, 'entry 0 scaled by 101/100'),
    Case("vocab_ln", 'use layernorm(d=4, eps=0.1)',
         'N([1, 2, 3, 5]) == [-7*sqrt(915)/183, -sqrt(915)/61, sqrt(915)/183, 3*sqrt(915)/61]',
         PROVE, 'hand-computed with SymPy'),
    Case("vocab_ln_w", 'use layernorm(d=4, eps=0.1)',
         'N([1, 2, 3, 5]) == [-7*sqrt(915)/183, -101*sqrt(915)/6100, sqrt(915)/183, 3*sqrt(915)/61]',
         REFUTE, 'entry 1 scaled by 101/100'),
    Case("vocab_ln_out", 'use layernorm(d=4, eps=0.1, eps_inside=0)',
         'N([1, 2, 3, 5]) == [-7/(4*(1/10 + sqrt(35)/4)), 30/871 - 75*sqrt(35)/871, -10/871 + 25*sqrt(35)/871, 9/(4*(1/10 + sqrt(35)/4))]',
         PROVE, 'hand-computed with SymPy'),
    Case("vocab_ln_out_w", 'use layernorm(d=4, eps=0.1, eps_inside=0)',
         'N([1, 2, 3, 5]) == [-7/(4*(1/10 + sqrt(35)/4)), 303/8710 - 303*sqrt(35)/3484, -10/871 + 25*sqrt(35)/871, 9/(4*(1/10 + sqrt(35)/4))]',
         REFUTE, 'entry 1 scaled by 101/100'),
    Case("vocab_ln_unb", 'use layernorm(d=4, eps=0.1, var_denominator=1)',
         'N([1, 2, 3, 5]) == [-7*sqrt(2715)/362, -3*sqrt(2715)/362, sqrt(2715)/362, 9*sqrt(2715)/362]',
         PROVE, 'hand-computed with SymPy'),
    Case("vocab_ln_unb_w", 'use layernorm(d=4, eps=0.1, var_denominator=1)',
         'N([1, 2, 3, 5]) == [-7*sqrt(2715)/362, -303*sqrt(2715)/36200, sqrt(2715)/362, 9*sqrt(2715)/362]',
         REFUTE, 'entry 1 scaled by 101/100'),
    Case("vocab_rms", 'use rmsnorm(d=4, eps=0.1)',
         'RMS([1, 2, 3, 5]) == [2*sqrt(985)/197, 4*sqrt(985)/197, 6*sqrt(985)/197, 10*sqrt(985)/197]',
         PROVE, 'hand-computed with SymPy'),
    Case("vocab_rms_w", 'use rmsnorm(d=4, eps=0.1)',
         'RMS([1, 2, 3, 5]) == [2*sqrt(985)/197, 101*sqrt(985)/4925, 6*sqrt(985)/197, 10*sqrt(985)/197]',
         REFUTE, 'entry 1 scaled by 101/100'),
    Case("vocab_bnv", 'use batchnorm(d=4, eps=0.1)',
         'BN([1, 2, 3, 5]) == [-7*sqrt(915)/183, -sqrt(915)/61, sqrt(915)/183, 3*sqrt(915)/61]',
         PROVE, 'hand-computed with SymPy'),
    Case("vocab_bnv_w", 'use batchnorm(d=4, eps=0.1)',
         'BN([1, 2, 3, 5]) == [-7*sqrt(915)/183, -101*sqrt(915)/6100, sqrt(915)/183, 3*sqrt(915)/61]',
         REFUTE, 'entry 1 scaled by 101/100'),
    # ---- free matrices, fixed d, vector literals --------------------------------------------
    Case("W_trace", W, "trace(W + W.T) == 2*trace(W)", PROVE, "trace of transpose"),
    Case("W_normal", W, "W*W.T == W.T*W", REFUTE, "not normal in general"),
    Case("W_ch2", W, "W*W - trace(W)*W + (trace(W)**2 - trace(W*W))/2*I == 0", REFUTE,
         "Cayley-Hamilton holds at d = 2 only"),
    Case("W_ch2_fixed", "let d = 2\nmatrix W", "W*W - trace(W)*W + (trace(W)**2 - "
         "trace(W*W))/2*I == 0", PROVE, "Cayley-Hamilton at d = 2"),
    Case("W_gram_pos", W, "trace(W*W.T) > 0", FALSE, "W = 0"),
    Case("W_gram_nonneg", W, "trace(W*W.T) >= 0", TRUE, "sum of squares"),
    Case("W_trace_sq", W, "trace(W*W) >= 0", REFUTE, "W = [[0, 1], [-1, 0]]"),
    Case("W_jac", W, "jacobian(x.T*W*x, x) == x.T*(W + W.T)", PROVE, "gradient of a quadratic form",
         slow=True),
    Case("W_jac_wrong", W, "jacobian(x.T*W*x, x) == 2*x.T*W", REFUTE, "W not symmetric"),
    Case("eps_shared", "use layernorm(eps=0)\nuse rmsnorm", "RMS(2*x) == RMS(x)", PROVE,
         "docs/claims.md (F21, by design): vocabularies share eps, so RMSNorm has eps = 0 too"),
    Case("eps_shared_scale", "use layernorm(eps=0)\nuse rmsnorm", "RMS(-2*x) == RMS(x)", REFUTE,
         "a negative scale flips the sign"),
    Case("W_quad", W, "x.T*W*x == x.T*W.T*x", PROVE, "scalar transpose"),
    Case("W_quad_wrong", W, "x.T*W*x == x.T*W*W*x", REFUTE, "W != W**2"),
    Case("lit_dot", D3, "[1, 2, 3].T*[1, 1, 1] == 6", PROVE, "1 + 2 + 3"),
    Case("lit_dot_wrong", D3, "[1, 2, 3].T*[1, 1, 1] == 7", REFUTE, "1 + 2 + 3 = 6"),
    Case("lit_norm", D3, "sqrt([1, 2, 2].T*[1, 2, 2]) == 3", PROVE, "1 + 4 + 4 = 9"),
    Case("lit_proj", D3, "(I - ones*ones.T/3)*[1, 2, 3] == [-1, 0, 1]", PROVE, "mean 2"),
    Case("lit_proj_wrong", D3, "(I - ones*ones.T/3)*[1, 2, 3] == [-1, 0, 2]", REFUTE,
         "mean 2"),
    Case("lit_scale", D3, "a*[1, 2, 3] == [a, 2*a, 3*a]", PROVE, "scaling"),
    Case("lit_sign", D3, "abs(a)*[1, 2, 3] == [a, 2*a, 3*a]", REFUTE, "a < 0"),
    Case("d3_trace", D3, "trace(I - ones*ones.T/d) == 2", PROVE, "d = 3"),
    # ---- a scalar named like a vector component (F18) ---------------------------------------
    Case("clash_given", "let d = 3\nvector x\nscalar x_1, b",
         "x_1 + 0*(x.T*[1, 1, 1]) == b given x_1 == b", TRUE, "x_1 == b by hypothesis"),
    Case("clash_anyd", "let d = 3\nvector x\nscalar x_1, b",
         "x_1 + 0*(x.T*ones) == b given x_1 == b", TRUE, "x_1 == b by hypothesis"),
    Case("clash_false", "let d = 3\nvector x\nscalar x_1", "x_1 == x.T*[1, 0, 0]", REFUTE,
         "the scalar x_1 is not the first entry of x"),
    # ---- LaTeX ------------------------------------------------------------------------------
    Case("tex_local_assume", AB, r"latex-sqrt_local: \sqrt{a^2} = a,\quad a>0", PROVE, "a > 0"),
    Case("tex_no_assume", AB, r"latex-sqrt_plain: \sqrt{a^2} = a", REFUTE, "a < 0"),
    Case("tex_neg_square", AB, r"latex-neg_sq: -2^2 = -4", PROVE, "-(2**2)"),
    Case("tex_tower", AB, r"latex-tower: 2^{3^2} = 512", PROVE, "right associative"),
    Case("tex_tower_wrong", AB, r"latex-tower_w: 2^{3^2} = 64", REFUTE, "(2**3)**2 = 64"),
    Case("tex_abs", AB, r"latex-abs: |a| = a", REFUTE, "a < 0"),
    Case("tex_product_sq", AB, r"latex-psq: 2a^2 = (2a)^2", REFUTE, "2a**2 != 4a**2"),
    Case("tex_interval", AB, r"latex-interval: a^2 < a,\quad 0<a<1", TRUE, "0 < a < 1"),
    Case("tex_interval_no", AB, r"latex-interval_no: a^2 < a", REFUTE, "a = 2"),
    Case("tex_frac", AB, r"latex-frac: \frac{1}{2}a = \frac{a}{2}", PROVE, "same"),
    Case("tex_cbrt", AB, r"latex-cbrt: \sqrt[3]{8} = 2", PROVE, "2**3 = 8"),
    Case("tex_frac_pow", AB, r"latex-frac_pow: \frac{a}{b}^2 = \frac{a^2}{b^2}", PROVE,
         "the exponent applies to the whole fraction"),
    Case("tex_log_sq", AB, r"latex-log_sq: \log(a)^2 = 2\log(a)", REFUTE, "(log a)**2"),
    Case("tex_amgm", AB, r"latex-amgm: \frac{a+b}{2} \ge \sqrt{ab}, \quad a \ge 0, \quad b \ge 0",
         TRUE, "AM-GM"),
    Case("tex_amgm_neg", AB, r"latex-amgm_neg: \frac{a+b}{2} \ge \sqrt{ab}", REFUTE,
         "a = b = -1: -1 >= 1 is false"),
    Case("tex_ln_norm", LN, r"latex-ln_norm: \|N(x)\|_2^2 = \frac{d v}{v + \epsilon}", PROVE,
         "|c|**2 = d v"),
    Case("tex_ln_bound", LN, r"latex-ln_bound: \|N(x)\|_2 \le \sqrt{d}", REFUTE,
         "eps < 0 is allowed (no assumption) and then the norm exceeds sqrt(d)"),
    Case("tex_ln_bound_pos", "use layernorm\nassume eps > 0",
         r"latex-ln_bound_pos: \|N(x)\|_2 \le \sqrt{d}", TRUE, "eps > 0"),
]


def _line(case: Case) -> str:
    if case.claim.startswith("latex-"):
        _, _, body = case.claim.partition(":")
        return f"latex {case.id}:{body}"
    return f"claim {case.id}: {case.claim}"


@functools.cache
def _verdicts(header: str, lines: tuple[str, ...]) -> dict[str, object]:
    text = "```symnorm\n" + header + "\n" + "\n".join(lines) + "\n```\n"
    res = check_text(text, file="soundness.md", sandbox=True, timeout=20.0)
    out: dict[str, object] = {}
    for v in res.verdicts:
        out[v.label.split(".")[0] if v.origin == "latex" else v.label] = v
    return out


def _group(case: Case) -> tuple[str, tuple[str, ...]]:
    same = tuple(_line(c) for c in CASES if c.header == case.header and c.slow == case.slow)
    return case.header, same


def _params():
    for c in CASES:
        marks = []
        if c.xfail:
            marks.append(pytest.mark.xfail(strict=True, reason=c.xfail))
        if c.slow:
            marks.append(pytest.mark.slow)
        yield pytest.param(c, id=c.id, marks=marks)


def _point(ce: dict) -> dict[str, Fraction]:
    out = {}
    for k, v in ce.items():
        if isinstance(v, str) and k not in ("lhs", "rhs", "difference", "proof"):
            try:
                out[k] = _q(v)
            except ValueError:
                pass
    return out


@pytest.mark.parametrize("case", list(_params()))
def test_claim(case: Case) -> None:
    v = _verdicts(*_group(case))[case.id]
    assert v.status != "error", f"{case.id}: the claim did not parse: {v.message}"
    if case.id == "d_poly_scope" and v.status == "proved-for":
        assert v.scope.endswith("2..8"), v.scope  # honest scope: exactly the d proved
        return
    assert v.status in ALLOWED[case.kind], (
        f"{case.id}: {case.claim!r} is {v.status} ({v.engine}, {v.scope}); must be "
        f"{sorted(ALLOWED[case.kind])}: {case.why}; counterexample {v.counterexample}")
    if v.status == "refuted" and case.holds is not None and v.counterexample \
            and "proof" not in v.counterexample:
        with mpmath.workdps(60):
            assert not case.holds(_point(v.counterexample)), (
                f"{case.id}: the counterexample {v.counterexample} satisfies the claim")


def test_latex_assumption_only_equation_is_reported() -> None:
    """``v \\ge 0`` states a fact about a defined quantity: it must be checked, not dropped."""
    text = "```symnorm\nuse layernorm\nlatex L2: v \\ge 0\nlatex L3: s > 1\n```\n"
    res = check_text(text, file="soundness.md", sandbox=True, timeout=20.0)
    labels = {v.label.split(".")[0] for v in res.verdicts}
    assert {"L2", "L3"} <= labels, [(v.label, v.status) for v in res.verdicts]
    assert all(v.status != "proved" for v in res.verdicts if v.label.startswith("L3"))


def test_case_ids_unique() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))


def test_holds_helpers_distinguish() -> None:
    """The independent evaluators used for counterexamples can say both yes and no."""
    by_id = {c.id: c for c in CASES}
    h = by_id["sqrt_sq"].holds
    assert h is not None and h({"a": Fraction(3)}) and not h({"a": Fraction(-3)})
    h = by_id["abs_near"].holds
    assert h is not None and h({"a": Fraction(1)}) and not h({"a": Fraction(0)})
