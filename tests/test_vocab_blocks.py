"""Vocabulary names across blocks, aliases in derivatives and atomic equations (red team 10).

Each table row is a document and the verdict expected for each label: true claims proved,
false ones refuted, and misuses an ``error`` whose message names the construct.  Truth of
each row comes from the mathematics (docs/latex.md's meanings and calculus), stated beside
it, never from the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from symnorm.check.run import check_text


def verdicts(text: str) -> dict[str, tuple[str, str]]:
    """label -> (status, message or statement) of every row of the document."""
    result = check_text(text, "t.md", sandbox=False)
    return {v.label: (v.status, v.message or v.statement) for v in result.verdicts}


def block(*lines: str) -> str:
    return "```symnorm\n" + "\n".join(lines) + "\n```\n\n"


def expect(text: str, wanted: dict[str, str]) -> dict[str, tuple[str, str]]:
    got = verdicts(text)
    for label, status in wanted.items():
        assert label in got, (label, got)
        assert got[label][0] == status, (label, got[label], got)
    return got


# --- M3: batchnorm's alias z differentiates as x ------------------------------------------

BN = ("use batchnorm", "vector dl_dy")
# (equation, true?) -- the Ioffe and Szegedy input gradient; dmu/dx = ones.T/m; dy/dx =
# gamma*Jb (not 0); dxhat/dx is not a multiple of I (the centering and the variance terms)
Z_ALIAS = [
    (r"\frac{\partial \mu_\mathcal{B}}{\partial z} = \frac{1}{m}\mathbf 1^\top", True),
    (r"\frac{\partial \mu_\mathcal{B}}{\partial z} = \mathbf 1^\top", False),
    (r"\frac{\partial \mu_\mathcal{B}}{\partial z_i} = \frac{1}{m}", True),
    (r"\frac{\partial \mu_\mathcal{B}}{\partial z_i} = 1", False),
    (r"\frac{\partial y}{\partial z} = 0", False),
    (r"\frac{\partial \hat x}{\partial z} = \frac{1}{\sqrt{\sigma^2+\epsilon}} I", False),
    (r"\frac{\partial \ell}{\partial z_i} = \frac{\gamma}{\sqrt{\sigma_\mathcal{B}^2+\epsilon}}"
     r"\frac{\partial \ell}{\partial y_i}", False),
    (r"\frac{\partial \ell}{\partial z_i} = \frac{\gamma}{m\sqrt{\sigma_\mathcal{B}^2+\epsilon}}"
     r"\left(m\frac{\partial \ell}{\partial y_i} - \sum_{j=1}^m \frac{\partial \ell}"
     r"{\partial y_j} - \hat x_i\sum_{j=1}^m \frac{\partial \ell}{\partial y_j}\hat x_j\right)",
     True),
]


@pytest.mark.parametrize("equation,true", Z_ALIAS)
def test_partials_by_the_alias_z_are_checked_as_partials_by_x(equation: str, true: bool) -> None:
    got = expect(block(*BN, f"latex e: {equation}"), {"e.1": "proved" if true else "refuted"})
    assert not any(label.startswith("e.d") for label in got), got  # no dA_dz definition
    assert "jacobian(" in got["e.1"][1] and ", x)" in got["e.1"][1], got["e.1"]


def test_an_alias_of_a_declared_vector_in_the_document_differentiates_as_it() -> None:
    # let u = x: d(1^T u)/du is the row of ones (true); 2 ones^T is false
    pre = block("vector x", "let u = x", "let q = ones.T*u")
    expect(pre + block(r"latex t: \frac{\partial q}{\partial u} = \mathbf 1^\top"),
           {"t.1": "proved"})
    expect(pre + block(r"latex f: \frac{\partial q}{\partial u} = 2\mathbf 1^\top"),
           {"f.1": "refuted"})


# --- M8: an equation that is an error defines nothing ------------------------------------

LN = ("use layernorm",)


def test_an_equation_with_an_error_leaves_no_definition_behind() -> None:
    # the first equation fails (its condition compares a scalar with a vector): it must not
    # define y = N(x); afterwards y is the vocabulary's gamma*N(x) + beta*ones
    text = block(*LN, r"latex e: y = \hat x \quad\text{if}\ \epsilon = \mathbf 1",
                 r"latex t1: y = \gamma\hat x + \beta",
                 r"latex t2: \frac{\partial y}{\partial \beta} = \mathbf 1",
                 r"latex f1: \frac{\partial y}{\partial \gamma} = 0",
                 r"latex f2: \frac{\partial y}{\partial \beta} = 0")
    got = expect(text, {"e": "error", "t1.1": "proved", "t2.1": "proved", "f1.1": "refuted",
                        "f2.1": "refuted"})
    assert "cannot compare a scalar with a vector" in got["e"][1]
    assert not any(label.startswith("e.") for label in got), got


def test_an_error_in_the_second_relation_rolls_back_the_first_definition() -> None:
    # w is defined by the first relation, the second is a shape error: w stays undefined,
    # so the later equation defines it anew (a `defined` row with the later meaning)
    text = block("vector x", r"latex e: w = x^\top x, \quad w = x + 1",
                 r"latex g: w = 2 x^\top x", r"latex t: w = 2 \sum_i x_i^2")
    got = expect(text, {"e": "error", "g.w": "defined", "t.1": "proved"})
    assert "e.w" not in got


@pytest.mark.parametrize("condition,status", [
    # y = gamma*xhat + beta; under weight = 1 (gamma = 1) and bias = 0, y = xhat: true
    (r"\text{if}\ weight = 1,\ bias = 0", "proved"),
    (r"\text{if}\ weight = 2,\ bias = 0", "refuted"),
    # beta free: false for the layer with a bias, true for one without (two readings)
    (r"\text{if}\ weight = 1", "error"),
])
def test_weight_in_a_condition_is_the_vocabularys_gamma(condition: str, status: str) -> None:
    expect(block(*LN, rf"latex e: y = \hat x \quad{condition}"), {"e.1": status})


# --- M4: a conventional name means what the vocabularies of its own block say -------------

def latex_block(label: str, equation: str) -> str:
    return f"```latex {label}\n{equation}\n```\n\n"


# (first block, second block, equation, expected): the equation is read in the second block.
# Truth: layernorm's and batchnorm's normalization of x with the same eps is the same map
# (population variance, eps inside), so each row's truth is the textbook LayerNorm one.
ACROSS = [
    # batchnorm first (RT10 C4): layernorm's names keep their meaning
    ("use batchnorm", "use layernorm",
     # no centering
     r"y = \gamma \frac{x}{\sqrt{\frac{1}{d}x^\top x+\epsilon}} + \beta", "refuted"),
    ("use batchnorm", "use layernorm",
     r"y = \gamma\frac{x-\mu}{\sqrt{\sigma^2+\epsilon}} + \beta", "proved"),
    ("use batchnorm", "use layernorm", r"\hat x = \frac{x - \mu}{\sigma}", "refuted"),  # no eps
    ("use batchnorm", "use layernorm", r"\hat x = \frac{x}{\sqrt{\mathrm{MS}[x] + \epsilon}}",
     "refuted"),
    ("use batchnorm", "use layernorm", r"\hat x = \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}",
     "proved"),
    # layernorm first (RT9 l_vocab, n_leak): Ioffe and Szegedy's statistics keep theirs
    ("use layernorm", "use batchnorm",
     r"\sigma_\mathcal{B}^2 \leftarrow \frac{1}{m}\sum_{i=1}^m (x_i-\mu_\mathcal{B})^2", "proved"),
    ("use layernorm", "use batchnorm",
     r"\sigma_\mathcal{B}^2 \leftarrow \frac{1}{m-1}\sum_{i=1}^m (x_i-\mu_\mathcal{B})^2",
     "refuted"),
    ("use layernorm", "use batchnorm",
     r"\hat x_i \leftarrow \frac{x_i-\mu_\mathcal{B}}{\sqrt{\sigma_\mathcal{B}^2+\epsilon}}",
     "proved"),
    ("use layernorm", "use batchnorm",
     r"\hat x_i \leftarrow \frac{x_i-\mu_\mathcal{B}}{\sigma_\mathcal{B}+\epsilon}", "refuted"),
    # both in one block: the same map, so no name is lost
    ("use rmsnorm", "use layernorm\nuse batchnorm",
     r"\hat x = \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}", "proved"),
    ("use rmsnorm", "use layernorm\nuse batchnorm", r"\hat x = \frac{x - \mu}{\sigma^2+\epsilon}",
     "refuted"),
]


@pytest.mark.parametrize("first,second,equation,status", ACROSS)
def test_a_later_block_reads_its_own_vocabularys_names(first: str, second: str, equation: str,
                                                      status: str) -> None:
    # the equation is checked (a row e.1), never the silent definition of its left side
    expect(block(first, r"latex a: \mu = \mu") + block(second, f"latex e: {equation}"),
           {"e.1": status})


def test_names_defined_in_one_block_hold_in_a_block_that_gives_them_the_same_meaning() -> None:
    # \hat x, \mu, \sigma defined under layernorm, used under batchnorm: the same expressions
    text = (block("use layernorm", r"latex a: \hat x = \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}")
            + block("use batchnorm", r"latex t: \hat x = \frac{x-\mu_\mathcal{B}}"
                    r"{\sqrt{\sigma_\mathcal{B}^2+\epsilon}}",
                    r"latex f: \hat x = \frac{x-\mu}{\sqrt{\sigma+\epsilon}}",
                    r"latex g: \mu \gets \frac{1}{m}\sum_{i=1}^m x_i",
                    r"latex h: \mu \gets \frac{1}{m}\sum_{i=1}^m x_i^2"))
    expect(text, {"a.1": "proved", "t.1": "proved", "f.1": "refuted", "g.1": "proved",
                  "h.1": "refuted"})


def test_a_later_blocks_vocabulary_meaning_shadows_an_earlier_blocks() -> None:
    # rmsnorm gives xhat its own meaning (x/r, a node of its graph): in its block the name
    # is that, and layernorm's meaning is back after it (numpy: x/rms(x) and the centered
    # normalization differ at this x, so the two rows cannot both hold for one meaning)
    x = np.array([0.0, 2.0, -1.0, 3.5])
    eps = 0.25
    assert not np.allclose(x / np.sqrt(np.mean(x ** 2) + eps),
                           (x - x.mean()) / np.sqrt(x.var() + eps))
    text = (block("use layernorm", r"latex a: \hat x = \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}")
            + block("use rmsnorm", r"latex e: \hat x = \frac{x}{\sqrt{\mathrm{MS}[x]+\epsilon}}",
                    r"latex f: \hat x = \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}")
            + block("use layernorm", r"latex g: \hat x = \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}"))
    got = expect(text, {"a.1": "proved", "e.1": "proved", "g.1": "proved"})
    assert got["f"][0] == "error" and "(use rmsnorm) give it none" in got["f"][1], got


@pytest.mark.parametrize("equation,name,given", [
    (r"\mu = 0", "mu", "none"),
    (r"\frac{1}{m}\sum_{i=1}^m x_i = 0", "m", "none"),
])
def test_a_name_whose_vocabulary_is_not_in_force_is_an_error_naming_both(equation: str,
                                                                         name: str,
                                                                         given: str) -> None:
    text = (block("use layernorm", r"latex a: \hat x = \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}")
            + block("use batchnorm", r"latex b: \mu_\mathcal{B} = \frac{1}{m}\sum_{i=1}^m x_i")
            + block("use rmsnorm", f"latex e: {equation}"))
    got = expect(text, {"e": "error"})
    message = got["e"][1]
    assert f"{name} means" in message and f"(use rmsnorm) give it {given}" in message, message
    assert "t.md:13:" in message  # located in the equation's line
    assert "e.1" not in got and not any(k.startswith("e.") for k in got)


def test_two_vocabularies_of_a_block_that_differ_are_an_error_not_a_definition() -> None:
    # var_denominator=1: layernorm's sigma is the sample standard deviation, batchnorm's the
    # biased one; in a block with both, \sigma has no meaning and \hat x = ... defines nothing
    text = block("document use layernorm(var_denominator=1)", "use batchnorm",
                 r"latex e: \sigma^2 = \frac{1}{m}\sum_{i=1}^m (x_i - \mu)^2",
                 r"latex f: \sigma = 0")
    got = expect(text, {"e": "error", "f": "error"})
    assert "give sigma different meanings" in got["e"][1]
    assert "use batchnorm" in got["e"][1] and "use layernorm" in got["e"][1]


def test_a_later_use_batchnorm_accepts_the_mu_an_equation_gave_under_layernorm() -> None:
    # RT10 M2: mean(x) and batchnorm's ones.T*x/d are the same expression
    text = (block("use layernorm", r"latex a: \mu = \frac{1}{d}\sum_{i=1}^d x_i")
            + block("use batchnorm", r"latex t: \mu_\mathcal{B} = \frac{1}{m}\sum_{i=1}^m x_i",
                    r"latex f: \mu_\mathcal{B} = \frac{1}{m}\sum_{i=1}^m x_i^2"))
    expect(text, {"a.1": "proved", "t.1": "proved", "f.1": "refuted"})


def test_gets_on_a_vocabulary_let_is_a_claim() -> None:
    # Paddle's \mu \gets ... after an earlier line used \mu (RT10 G_tokens tG6)
    text = block("use batchnorm", r"latex a: \mu = \mu_\mathcal{B}") + latex_block(
        "g", r"\begin{aligned} \mu &\gets \frac{1}{d}\sum_{i=1}^d x_i \\ "
        r"\sigma^2 &\gets \frac{1}{d-1}\sum_{i=1}^d (x_i - \mu)^2 \end{aligned}")
    expect(text, {"a.1": "proved", "g.1": "proved", "g.2": "refuted"})


# --- M9: counts of two vocabularies ------------------------------------------------------

@pytest.mark.parametrize("equation,status", [
    (r"m = n", "error"),
    (r"\frac{1}{m}\sum_{i=1}^m x_i^2 = \frac{1}{n}\sum_{i=1}^n x_i^2", "error"),
    (r"\frac{1}{n}\sum_{i=1}^n x_i^2 = \frac{1}{d} x^\top x", "proved"),
    (r"\frac{1}{n}\sum_{i=1}^n x_i^2 = \frac{1}{d} x^\top x + 1", "refuted"),
    (r"\frac{1}{m}\sum_{i=1}^m x_i = \mu_\mathcal{B}", "proved"),
])
def test_a_mini_batch_size_and_a_feature_count_are_not_one_number(equation: str,
                                                                 status: str) -> None:
    got = expect(block("use batchnorm", "use rmsnorm", f"latex e: {equation}"),
                 {"e" if status == "error" else "e.1": status})
    if status == "error":
        assert "names the dimension both m and n" in got["e"][1]


# --- M7: affine=elementwise's vectors belong to their block --------------------------------

def test_elementwise_gamma_does_not_reach_a_later_plain_block() -> None:
    # scalar gamma, beta: 1^T(y - beta 1) = gamma 1^T N(x) = 0; dy/dgamma = N(x); dy/dx =
    # gamma J; the false ones double a factor (dy/dx = J, which writes no gain, is about the
    # layer without gain and bias, test_latex_slash_derivatives.py)
    text = (block("use layernorm(affine=elementwise)", "claim e0: jacobian(y, x) == diag(gamma)*J")
            + block("use layernorm", r"latex t1: \mathbf 1^\top (y - \beta) = 0",
                    r"latex t2: \frac{\partial y}{\partial x} = \gamma J",
                    r"latex t3: \frac{\partial y}{\partial \beta} = \mathbf 1",
                    r"latex t4: \frac{\partial y}{\partial \gamma} = \hat x",
                    r"latex f1: \frac{\partial y}{\partial \gamma} = 2\hat x",
                    r"latex f2: \frac{\partial y}{\partial x} = 2\gamma J"))
    expect(text, {"e0": "proved", "t1.1": "proved", "t2.1": "proved", "t3.1": "proved",
                  "t4.1": "proved", "f1.1": "refuted", "f2.1": "refuted"})


def test_a_plain_blocks_scalar_gamma_does_not_stop_a_later_elementwise_block() -> None:
    text = (block("use layernorm", r"latex a: \frac{\partial y}{\partial \gamma} = \hat x",
                  "let g2 = gamma*gamma")
            + block("use layernorm(affine=elementwise)",
                    r"latex t: \frac{\partial y}{\partial x} = \mathrm{diag}(\gamma) J",
                    r"latex f: \frac{\partial y}{\partial x} = J \mathrm{diag}(\gamma)",
                    r"latex f2: \mathbf 1^\top (y - \beta) = 0",
                    "claim s: g2 == g2")
            + block("claim z: gamma*1 == gamma", "claim zf: g2 == gamma"))
    # f2 drops the per-element gain: true without it, false with it (two readings)
    got = expect(text, {"a.1": "proved", "t.1": "proved", "f.1": "refuted", "f2.1": "error",
                        "s": "error", "z": "proved", "zf": "refuted"})
    assert "defined with the document's scalar 'gamma'" in got["s"][1]


def test_the_vector_gamma_of_a_block_is_gone_after_it() -> None:
    text = (block("use layernorm(affine=elementwise)", "claim a: jacobian(y, beta) == I")
            + block("claim g: gamma.T*gamma >= 0"))
    got = expect(text, {"a": "proved", "g": "error"})
    assert "use layernorm(affine=elementwise)" in got["g"][1]


def test_the_documents_own_definition_wins_over_clashing_vocabularies() -> None:
    # the biased standard deviation defined by the document: 1/m sum is true, 1/(m-1) false
    text = block("document use layernorm(var_denominator=1)", "use batchnorm",
                 "let sigma = sqrt((P*x).T*(P*x)/d)",
                 r"latex e: \sigma^2 = \frac{1}{m}\sum_{i=1}^m (x_i - \mu)^2",
                 r"latex f: \sigma^2 = \frac{1}{m-1}\sum_{i=1}^m (x_i - \mu)^2")
    expect(text, {"e.1": "proved", "f.1": "refuted"})


def test_a_meaning_whose_definitions_ended_with_their_block_is_an_error_at_the_name() -> None:
    # eps_inside=0 belongs to its block: in the next block sigma = sqrt(v) has no v
    text = block("use layernorm(eps_inside=0)") + latex_block(
        "t", r"\hat x = \frac{x-\mu}{\sigma + \epsilon}")
    got = verdicts(text)
    (status, message), = [v for k, v in got.items()]
    assert status == "error" and "t.md:6:" in message, got
    assert "'v' is not defined in this block" in message and "would mean" in message
