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
    assert (v.status, v.scope) == ("proved", "every d >= 2"), (label, v.status, v.message)


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
    assert (v.status, v.scope) == ("proved", "d = 3")


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
