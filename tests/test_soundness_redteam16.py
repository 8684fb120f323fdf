"""Red teams 16 and 17 (outsiders, on the affine-parameter rule and the newest LaTeX
constructs): each finding as a test.  Truths by numpy at rational points; a false claim
must never be proved, a claim true for one reading of a dropped parameter never refuted."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from symnorm.check.run import check_text

Q = Fraction
X = np.array([float(v) for v in (Q(1), Q(-2), Q(4), Q(7, 2))])
EPS, GAMMA, BETA = 0.5, 1.5, -0.25
XH = (X - X.mean()) / np.sqrt(X.var() + EPS)


def rows(text: str) -> dict[str, tuple[str, str]]:
    res = check_text(text, "rt.md", sandbox=False, timeout=60)
    return {v.label: (v.status, v.message) for v in res.verdicts if v.status != "defined"}


def block(*lines: str) -> str:
    return "```symnorm\n" + "\n".join(lines) + "\n```\n\n"


# --- red team 17, A: a continued row after a condition chained from the condition ----------

@pytest.mark.parametrize("latex", [
    r"\begin{aligned} \mathrm{Var}[\hat x] &= \frac{\sigma^2}{\sigma^2+\epsilon} \quad "
    r"\text{if } \epsilon = 1 \\ &= 1 \end{aligned}",
    r"\begin{aligned} \mu &= \frac{1}{d}\sum_i x_i, \quad \text{where } t = \sum_i x_i \\ "
    r"&= \frac{t}{d} \end{aligned}",
    r"\begin{aligned} \hat x &= \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}, \quad \epsilon > 0 "
    r"\\ &= 0 \end{aligned}",
])
def test_a_row_continued_after_a_row_with_a_side_relation_is_refused(latex: str) -> None:
    # numpy: the first false link as the red team found it read (1 == 1 after eps = 1)
    xb = X  # use batchnorm's batch
    var_xhat = np.var((xb - xb.mean()) / np.sqrt(xb.var() + 1.0))
    assert abs(var_xhat - 1.0) > 0.1
    got = rows(block("use batchnorm", f"latex v: {latex}"))
    assert "proved" not in {s for s, _ in got.values()}, got
    assert got["v"][0] == "error" and "which one it continues is ambiguous" in got["v"][1], got


# --- red team 17, C: ONNX syntax made the word Output an identifier it defined --------------

def test_a_capitalised_vocabulary_word_keeps_its_meaning_in_onnx_syntax() -> None:
    assert not np.allclose(GAMMA * XH + BETA, 2 * X)
    got = rows(block("use layernorm", "let X = x",
                     r"latex a: Output = Mul(X, 2), \quad Output = Add(X, X)"))
    assert [s for s, _ in got.values()] == ["refuted", "refuted"], got


# --- red team 16, A: a block's plain use line kept a document-wide affine option ------------

def test_a_block_use_line_must_give_the_documents_affine_option() -> None:
    # numpy: with a bias the mean of y is beta, not 0
    assert abs(np.mean(GAMMA * XH + BETA)) > 0.1
    got = rows(block("document use layernorm(affine=none)", r"latex a: y = \hat x")
               + block("use layernorm", r"latex b: \frac{1}{d}\sum_i y_i = 0"))
    assert got["a.1"][0] == "proved"
    assert "proved" not in [s for k, (s, _) in got.items() if not k.startswith("a")], got
    assert any("while the document uses layernorm with affine=none" in m
               for _, m in got.values()), got


def test_a_name_defined_from_a_shadowed_output_is_an_error_not_a_traceback() -> None:
    got = rows(block("use layernorm", "latex u1: z = y")
               + block("use layernorm(affine=none)", r"latex u3: z = \hat x"))
    assert got["u3"][0] == "error" and "which this block gives another meaning" in got["u3"][1]


# --- red team 16, B: the two readings under affine=gain and affine=elementwise --------------

@pytest.mark.parametrize("use, latex, stated, full, without", [
    ("use layernorm(affine=gain)", r"y = \hat x", XH, GAMMA * XH, XH),
    ("use layernorm(affine=elementwise)", r"y = \hat x + \beta", XH + BETA, GAMMA * XH + BETA,
     XH + BETA),
])
def test_a_parameter_dropped_under_an_option_is_two_readings(use, latex, stated, full,
                                                             without) -> None:
    assert not np.allclose(stated, full) and np.allclose(stated, without)
    got = rows(block(use, f"latex a: {latex}"))
    assert got["a.1"][0] == "error" and "two readings" in got["a.1"][1], got
    got = rows(block(use, f"latex a: {latex.replace('= ', '= 2')}"))
    assert got["a.1"][0] == "refuted", got  # false with and without the parameter


# --- red team 16, C and D: where-clauses and bounds on a parameter used through y -----------

def test_a_where_clause_on_the_gain_used_through_y_is_a_condition() -> None:
    assert np.allclose(2.0 * XH, 2 * XH) and not np.allclose(2.0 * XH, 3 * XH)
    got = rows(block("use layernorm(affine=gain)", r"latex a: y = 2\hat x, \quad \text{where } "
                     r"\gamma = 2", r"latex b: y = 3\hat x, \quad \text{where } \gamma = 2"))
    assert got["a.1"][0] == "proved" and got["b.1"][0] == "refuted", got
    assert not any(k.startswith("a.") and k != "a.1" for k in got), got


def test_a_bound_on_a_parameter_does_not_write_it() -> None:
    # y = xhat + beta with gamma > 0: false with the gain, true without it
    assert not np.allclose(XH + BETA, GAMMA * XH + BETA)
    got = rows(block("use layernorm", r"latex a: y = \hat x + \beta, \quad \gamma > 0"))
    assert got["a.1"][0] == "error" and "two readings" in got["a.1"][1], got


def test_a_derivative_with_the_gain_fixed_still_drops_the_bias() -> None:
    # Caffe's formula with Y = y (gain 1, bias free): true only without the bias
    caffe = (r"dE/dX = (1/sqrt(var+eps)) * (dE/dY - mean(dE/dY) - mean(dE/dY * Y) * Y) "
             r"\quad \text{if}\ \gamma = 1")
    got = rows(block("use batchnorm", "let X = x", "let Y = y", "vector dE_dY",
                     f"latex k: {caffe}"))
    assert got["k.1"][0] == "error" and "without \\beta" in got["k.1"][1], got
