"""Entrywise products ``hadamard(u, v)`` and ``diag(g)``: proofs for every d, mutants, shapes.

Expected values come from the definitions ((g ⊙ x)_i = g_i x_i, diag(g)_ii = g_i) and from
numpy, never from the engines under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from symnorm.check.run import check_text
from symnorm.errors import SourceError
from symnorm.lang.context import Scope
from symnorm.lang.parser import parse_statement

EVERY_D = ("every d >= 2", "every d >= 2, where defined")


def doc(*lines: str) -> str:
    return "```symnorm\n" + "\n".join(lines) + "\n```\n"


def verdicts(*lines: str) -> dict:
    res = check_text(doc(*lines), sandbox=False)
    return {v.label: v for v in res.verdicts}


HEAD = ("use layernorm", "vector g, b", "scalar a, k")

TRUE = [
    ("comm", "hadamard(g, x) == hadamard(x, g)"),
    ("sum", "ones.T*hadamard(g, x) == g.T*x"),
    ("diag_vec", "diag(g)*x == hadamard(g, x)"),
    ("ones_gain", "hadamard(ones, N(x)) == N(x)"),
    ("shift", "hadamard(g, N(x + k*ones)) + b == hadamard(g, N(x)) + b"),
    ("jac", "jacobian(hadamard(g, N(x)) + b, x) == diag(g)*J"),
    ("jac_gain", "jacobian(hadamard(g, N(x)) + b, g) == diag(N(x))"),
    ("jac_bias", "jacobian(hadamard(g, N(x)) + b, b) == I"),
    ("trace", "trace(diag(g)) == ones.T*g"),
    ("diag_prod", "diag(g)*diag(x) == diag(hadamard(g, x))"),
    ("square", "jacobian(hadamard(x, x), x) == 2*diag(x)"),
    ("norm2", "jacobian(ones.T*hadamard(g, hadamard(x, x)), x) == 2*hadamard(g, x).T"),
    ("scalar_gain", "hadamard(a*ones, N(x)) == a*N(x)"),
    ("vjp", "jacobian(hadamard(g, N(x)), x).T*b == J*hadamard(g, b)"),
]

FALSE = [
    ("swap", "jacobian(hadamard(g, N(x)) + b, x) == J*diag(g)"),
    ("no_gain", "jacobian(hadamard(g, N(x)) + b, x) == J"),
    ("inner", "hadamard(g, x) == g.T*x*ones/d"),
    ("sum_wrong", "ones.T*hadamard(g, x) == g.T*x/d"),
    ("gain_is_mean", "hadamard(g, N(x)) == mean(g)*N(x)"),
    ("trace_wrong", "trace(diag(g)) == g.T*g"),
    ("square_wrong", "jacobian(hadamard(x, x), x) == diag(x)"),
    ("jac_gain_wrong", "jacobian(hadamard(g, N(x)), g) == diag(x)"),
    ("vjp_wrong", "jacobian(hadamard(g, N(x)), x).T*b == hadamard(g, J*b)"),
    ("bias_gain_swap", "hadamard(g, N(x)) + b == hadamard(b, N(x)) + g"),
]


@pytest.fixture(scope="module")
def results():
    lines = [*HEAD] + [f"claim {k}: {c}" for k, c in TRUE + FALSE]
    return verdicts(*lines)


@pytest.mark.parametrize("label", [k for k, _ in TRUE])
def test_true_entrywise_identity_is_proved_for_every_d(results, label):
    v = results[label]
    # the scope says every d; ", where defined" where a denominator may vanish (tested in
    # tests/test_scope_defined.py)
    assert v.status == "proved" and v.scope in EVERY_D, (label, v.status, v.message)


@pytest.mark.parametrize("label", [k for k, _ in FALSE])
def test_false_entrywise_variant_is_refuted(results, label):
    assert results[label].status == "refuted", (label, results[label].status)


def test_counterexample_is_a_real_difference():
    """The swapped Jacobian differs at the printed point, by numpy's own arithmetic."""
    v = verdicts("vector g, x", "claim w: diag(g)*x == hadamard(x, x)")["w"]
    assert v.status == "refuted"
    g = np.array([float(eval_frac(t)) for t in v.counterexample["g"]])
    x = np.array([float(eval_frac(t)) for t in v.counterexample["x"]])
    assert not np.allclose(np.diag(g) @ x, x * x)


def eval_frac(t: str):
    from fractions import Fraction
    return Fraction(t)


def test_fixed_d_proof_has_that_scope():
    v = verdicts("use layernorm(d=3)", "vector g",
                 "claim j: jacobian(hadamard(g, N(x)), x) == diag(g)*J")["j"]
    assert v.status == "proved" and v.scope in ("d = 3", "d = 3, where defined")


def test_proved_for_lists_the_dimensions_when_a_free_matrix_blocks_any_d():
    v = verdicts("vector g", "matrix W",
                 "claim m: trace(diag(g)*W) == trace(W*diag(g))")["m"]
    assert (v.status, v.scope) == ("proved-for", "d = 2..8")


@pytest.mark.parametrize("text, where, needle", [
    ("claim e: hadamard(a, x) == x", 19, "takes column vectors, not a scalar"),
    ("claim e: hadamard(x, W) == x", 22, "not a matrix"),
    ("claim e: hadamard(x.T, x) == x", 20, "not a row vector"),
    ("claim e: diag(a) == I", 15, "not a scalar"),
    ("claim e: diag(W) == I", 15, "diagonal of a matrix is not modelled"),
    ("claim e: hadamard(x) == x", 10, "takes 2 argument(s), got 1"),
    ("claim e: diag(x, x) == I", 10, "takes 1 argument(s), got 2"),
])
def test_shape_misuse_is_located(text, where, needle):
    sc = Scope("doc.md")
    for line in ("vector x", "scalar a", "matrix W"):
        sc.add(parse_statement(line))
    with pytest.raises(SourceError) as exc:
        sc.add(parse_statement(text, "doc.md", 4))
    assert needle in str(exc.value) and f"doc.md:4:{where}" in str(exc.value), str(exc.value)


# --- vocabularies: use layernorm(affine=elementwise), use batchnorm's x ---------------------

def latex_rows(preamble: str, latex: str) -> list[tuple[str, str, str, str]]:
    """(label, status, scope, message) of the rows of one latex block after ``preamble``."""
    text = f"```symnorm\n{preamble}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "pe.md", sandbox=False)
    return [(v.label, v.status, v.scope, v.message) for v in res.verdicts]


EW = "document use layernorm(affine=elementwise)"


@pytest.mark.parametrize("latex", [
    r"y = \gamma \odot \hat x + \beta",
    r"y_i = \gamma_i \hat x_i + \beta_i",
    r"y = \hat x * \gamma + \beta",
    r"y = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x]+\epsilon}} * \gamma + \beta",
    r"\frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x]+\epsilon}} * \gamma + \beta",
    r"\frac{\partial y}{\partial x} = \mathrm{diag}(\gamma) J",
    r"y = \gamma \odot \frac{x - \mu\mathbf 1}{\sqrt{\sigma^2 + \epsilon}} + \beta",
])
def test_per_element_latex_is_proved_for_every_d(latex):
    rows = [r for r in latex_rows(EW, latex) if r[1] != "defined"]
    assert rows and all(r[1:3] == ("proved", "every d >= 2, where defined") for r in rows), rows


@pytest.mark.parametrize("latex", [
    r"y = \beta \odot \hat x + \gamma",                 # gamma and beta swapped
    r"y_i = \gamma_i \hat x_i - \beta_i",               # sign of the bias
    r"y = \hat x * \gamma * \gamma + \beta",            # the gain twice
    r"y = 2\hat x * \gamma",                            # the bias dropped, 2 added
    r"\frac{\partial y}{\partial x} = J \mathrm{diag}(\gamma)",   # diag on the wrong side
    r"\frac{\partial y}{\partial x} = 2J",               # the gain dropped
    r"y = \gamma \odot \frac{x - \mu\mathbf 1}{\sqrt{\sigma^2}} + \beta",  # eps dropped
])
def test_per_element_latex_mutants_are_refuted(latex):
    rows = [r for r in latex_rows(EW, latex) if r[1] != "defined"]
    assert "refuted" in [r[1] for r in rows] and "error" not in [r[1] for r in rows], rows


def test_a_dropped_bias_is_two_readings_with_the_per_element_layer_too():
    # y = xhat * gamma: false for the layer with a bias, true for one without (affine=gain)
    rows = [r for r in latex_rows(EW, r"y = \hat x * \gamma") if r[1] != "defined"]
    assert [r[1] for r in rows] == ["error"] and "two readings" in rows[0][3], rows


def test_star_between_vectors_is_read_entrywise_and_says_so():
    res = check_text(f"```symnorm\n{EW}\n```\n\n```latex eq\ny = \\hat x * \\gamma + \\beta\n"
                     "```\n", "pe.md", sandbox=False)
    (v,) = [v for v in res.verdicts if v.status != "defined"]
    assert v.statement == "y == hadamard(xhat, gamma) + beta"
    # with a scalar gain the star is the ordinary product
    res = check_text("```symnorm\nuse layernorm\nlatex e: y = \\hat x * \\gamma + \\beta\n```\n",
                     "pe.md", sandbox=False)
    (v,) = [v for v in res.verdicts if v.status != "defined"]
    assert v.status == "proved" and "hadamard" not in v.statement, v.statement


def test_scalar_gain_with_odot_names_the_option_at_the_operand():
    rows = latex_rows("use layernorm", r"y = \gamma \odot \hat x + \beta")
    (err,) = [r for r in rows if r[1] == "error"]
    assert err[3].startswith("pe.md:6:5: hadamard() takes column vectors, not a scalar"), err
    assert "affine=elementwise" in err[3]


def test_entrywise_product_scope_at_a_fixed_d_is_that_d():
    rows = latex_rows("document use layernorm(d=3, affine=elementwise)",
                      r"y_i = \gamma_i \hat x_i + \beta_i")
    assert [r[1:3] for r in rows if r[1] != "defined"] == [("proved", "d = 3, where defined")], rows


def test_elementwise_vocabulary_lines():
    v = verdicts("use layernorm(affine=elementwise)", "scalar k",
                 "claim shift: y == hadamard(gamma, N(x + k*ones)) + beta",
                 "claim jac: Jy == diag(gamma)*J",
                 "claim jacw: Jy == J*diag(gamma)",
                 "claim unit: hadamard(ones, N(x)) + beta == N(x) + beta",
                 "claim unit_given: y == N(x) + beta  given gamma == ones",
                 "claim unit_wrong: y == 2*N(x) + beta  given gamma == ones")
    assert (v["shift"].status, v["jac"].status, v["unit"].status) == ("proved",) * 3
    assert v["jacw"].status == "refuted" and v["unit_wrong"].status == "refuted"
    # a hypothesis fixing a vector is put in after differentiating: proved for every d
    assert (v["unit_given"].status, v["unit_given"].scope) == ("proved", "every d >= 2, where defined")
    assert "use layernorm(affine=elementwise)" in " ".join(v["jac"].assumptions)


def test_rmsnorm_elementwise_has_a_gain_and_no_bias():
    v = verdicts("use rmsnorm(affine=elementwise)",
                 "claim y: y == hadamard(gamma, x)/r",
                 "claim j: Jy*x == eps/r**3*hadamard(gamma, x)",
                 "claim jw: Jy*x == eps/r**3*x")
    assert (v["y"].status, v["j"].status, v["jw"].status) == ("proved", "proved", "refuted")


@pytest.mark.parametrize("line, needle", [
    ("use batchnorm(affine=elementwise)", "gain and bias are per channel"),
    ("use groupnorm(affine=elementwise)", "does not take the option(s) affine"),
    ("use layernorm(affine=vector)", "unknown or malformed option 'affine'"),
    ("use layernorm(affine=1)", "unknown or malformed option 'affine'"),
])
def test_affine_option_refusals(line, needle):
    sc = Scope("doc.md")
    with pytest.raises(SourceError) as exc:
        sc.add(parse_statement(line, "doc.md", 2))
    assert needle in str(exc.value) and "doc.md:2:1" in str(exc.value), str(exc.value)


def test_batchnorm_batch_is_x_and_z_is_its_alias():
    v = verdicts("use batchnorm", "vector dy",
                 "claim jac: jacobian(BN(x), x) == Jb",
                 "claim alias: BN(z) == BN(x)",
                 "claim vjp: Jb.T*dy == (dy - mean(dy)*ones - BN(x)*(BN(x).T*dy)/d)"
                 "/sqrt((P*x).T*(P*x)/d + eps)",
                 "claim vjp_wrong: Jb.T*dy == (dy - mean(dy)*ones - BN(x)*(BN(x).T*dy)/d)"
                 "/sqrt((P*x).T*(P*x)/d)")
    assert [v[k].status for k in ("jac", "alias", "vjp", "vjp_wrong")] == \
        ["proved", "proved", "proved", "refuted"]
    sc = Scope("doc.md")
    sc.add(parse_statement("use batchnorm"))
    with pytest.raises(SourceError, match="needs a declared vector or scalar"):
        sc.add(parse_statement("claim j: jacobian(BN(z), z) == Jb", "doc.md", 3))


HYP = [  # (label, claim, true?): a hypothesis g == value fixes the point, not the function
    ("h01", "hadamard(g, x) == x  given g == ones", True),
    ("h02", "hadamard(g, x) == 2*x  given g == ones", False),
    ("h03", "hadamard(g, hadamard(g, x)) == x  given g == -ones", True),
    ("h04", "hadamard(g, x) == x  given g == -ones", False),
    ("h05", "hadamard(u, x) == 2*x  given g == ones, u == 2*g", True),
    ("h06", "jacobian(hadamard(g, x), x) == diag(x)  given g == x", True),
    ("h07", "jacobian(hadamard(g, x), x) == 2*diag(x)  given g == x", False),  # g held fixed
    ("h08", "jacobian(hadamard(g, x), g) == 0*I  given g == x", False),
    ("h09", "ones.T*hadamard(g, N(x)) == N(x).T*N(x)  given g == N(x)", True),
    ("h10", "ones.T*hadamard(g, N(x)) == 0  given g == N(x)", False),
    ("h11", "hadamard(g, x) == x  given u == ones", False),
]


@pytest.fixture(scope="module")
def hyp_results():
    return verdicts("use layernorm", "vector g, u", "assume eps > 0",
                    *[f"claim {k}: {c}" for k, c, _ in HYP])


@pytest.mark.parametrize("label, claim, true", HYP, ids=[h[0] for h in HYP])
def test_vector_hypothesis(hyp_results, label, claim, true):
    v = hyp_results[label]
    want = ("proved", "every d >= 2") if true else ("refuted",)
    assert (v.status, v.scope)[:len(want)] == want, (claim, v.status, v.scope, v.message)
