"""Vocabulary names across blocks, aliases in derivatives and atomic equations (red team 10).

Each table row is a document and the verdict expected for each label: true claims proved,
false ones refuted, and misuses an ``error`` whose message names the construct.  Truth of
each row comes from the mathematics (docs/latex.md's meanings and calculus), stated beside
it, never from the code under test.
"""

from __future__ import annotations

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
    (r"\text{if}\ weight = 1", "refuted"),  # beta free
])
def test_weight_in_a_condition_is_the_vocabularys_gamma(condition: str, status: str) -> None:
    expect(block(*LN, rf"latex e: y = \hat x \quad{condition}"), {"e.1": status})
