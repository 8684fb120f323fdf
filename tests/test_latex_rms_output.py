"""RMSNorm's output in LaTeX and the hatted estimates of Dive into Deep Learning (issue 10).

``use rmsnorm`` names its output ``y``; the use line says which layer it is (the sources
differ on the affine part): ``affine=none``, the plain ``RMS(x)``; ``affine=gain``,
``gamma*RMS(x)`` (PyTorch's weight); by default a bias too, ``gamma*RMS(x) + beta*ones``
(Marian).  An equation that drops a parameter the use line gives is two readings (an error
unless both give one verdict).  A gamma the document declares a vector is applied
entrywise.  Each true form is proved, each one-token variant refuted; the
variants' truth is computed with numpy here, never by symnorm.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from symnorm.check.run import check_text

Q = Fraction
X = np.array([float(v) for v in (Q(1), Q(-2), Q(4), Q(7, 2))])
G = np.array([float(v) for v in (Q(2), Q(-1, 2), Q(3, 4), Q(1))])
EPS, GAMMA, BETA = 0.1, 1.5, -1 / 3
D = len(X)
RMS_X = np.sqrt(np.mean(X ** 2) + EPS)  # the scalar root mean square, eps inside


def rows(pre: str, latex: str) -> list[tuple[str, str, str]]:
    """(status, statement, message) of each row of the preamble and one ``latex`` block."""
    pre = "\n".join(f"document {ln}" if ln.startswith("use ") and "(" in ln else ln
                    for ln in pre.splitlines())
    text = f"```symnorm\n{pre}\n```\n\n```latex eq\n{latex}\n```\n"
    return [(v.status, v.statement, v.message)
            for v in check_text(text, "rms.md", sandbox=False).verdicts]


def claims(pre: str, latex: str) -> list[str]:
    return [s for s, _, _ in rows(pre, latex) if s != "defined"]


def same(a, b) -> bool:
    return bool(np.allclose(*np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))))


RMS = "use rmsnorm"
RMS4G = "use rmsnorm(d=4)\nvector gamma"  # MindSpore's per-element gamma, declared
RMS0 = "use rmsnorm(affine=none)"
RMSG = "use rmsnorm(affine=gain)"
RMS4GG = "use rmsnorm(d=4, affine=gain)\nvector gamma"
PLAIN = X / RMS_X
GAIN = GAMMA * X / RMS_X
FULL = GAMMA * X / RMS_X + BETA

#: (name, preamble, latex, the numbers the equation states, the layer it is compared with)
CASES = [
    # the plain output, the use line says: neither gain nor bias
    ("plain", RMS0, r"y = \frac{x}{\sqrt{\frac{1}{n}\sum_{i=1}^n x_i^2 + \epsilon}}",
     X / np.sqrt(np.sum(X ** 2) / D + EPS), PLAIN),
    ("plain.noeps", RMS0, r"y = \frac{x}{\sqrt{\frac{1}{n}\sum_{i=1}^n x_i^2}}",
     X / np.sqrt(np.sum(X ** 2) / D), PLAIN),
    ("plain.bare", RMS0, r"\frac{x}{\mathrm{RMS}(x)}", X / RMS_X, PLAIN),
    # the gain only (PyTorch, MLX)
    ("gain", RMSG, r"y = \frac{x}{\mathrm{RMS}(x)} \gamma", GAMMA * X / RMS_X, GAIN),
    ("gain.weight", RMSG, r"y = \frac{x}{\mathrm{RMS}(x)} \cdot weight", GAMMA * X / RMS_X, GAIN),
    ("gain.divided", RMSG, r"y = \frac{x}{\gamma\,\mathrm{RMS}(x)}", X / (GAMMA * RMS_X), GAIN),
    ("gain.unbiased", RMSG, r"y = \frac{x}{\sqrt{\frac{1}{n-1}\sum_{i=1}^n x_i^2 + \epsilon}}\gamma",
     GAMMA * X / np.sqrt(np.sum(X ** 2) / (D - 1) + EPS), GAIN),
    ("gain.eps.outside", RMSG, r"y = \frac{x}{\sqrt{\frac{1}{n}\sum_{i=1}^n x_i^2}+\epsilon}\gamma",
     GAMMA * X / (np.sqrt(np.sum(X ** 2) / D) + EPS), GAIN),
    # MindSpore r2.3.1's typo: the root closes after 1/n
    ("gain.root.early", RMSG, r"y = \frac{x}{\sqrt{\frac{1}{n}}\sum_{i=1}^n x_i^2+\epsilon}\gamma",
     GAMMA * X / (np.sqrt(1 / D) * np.sum(X ** 2) + EPS), GAIN),
    # gain and bias (Marian)
    ("full", RMS, r"\frac{x}{\sqrt{\frac{1}{N}\sum x^2 + \mathrm{eps}}} \times \gamma + \beta",
     X / np.sqrt(np.sum(X ** 2) / D + EPS) * GAMMA + BETA, FULL),
    ("full.beta.sign", RMS,
     r"\frac{x}{\sqrt{\frac{1}{N}\sum x^2 + \mathrm{eps}}} \times \gamma - \beta",
     X / np.sqrt(np.sum(X ** 2) / D + EPS) * GAMMA - BETA, FULL),
    ("full.noeps", RMS, r"\frac{x}{\sqrt{\frac{1}{N}\sum x^2}} \times \gamma + \beta",
     X / np.sqrt(np.sum(X ** 2) / D) * GAMMA + BETA, FULL),
    ("full.unbiased", RMS,
     r"\frac{x}{\sqrt{\frac{1}{N-1}\sum x^2 + \mathrm{eps}}} \times \gamma + \beta",
     X / np.sqrt(np.sum(X ** 2) / (D - 1) + EPS) * GAMMA + BETA, FULL),
    ("full.words", RMS, r"y = \frac{x}{\mathrm{RMS}(x)} \cdot weight + bias", FULL, FULL),
    # a bias without the gain, false for both readings (the gain at 1: the bias sign)
    ("full.nogain", RMS, r"y = \frac{x}{\mathrm{RMS}(x)} - \beta", X / RMS_X - BETA, FULL),
    # the document's vector gamma: entrywise (MindSpore's stable formula and its typo)
    ("vector", RMS4GG, r"y=\frac{x_i}{\sqrt{\frac{1}{n}\sum_{i=1}^{n}{ x_i^2}+\varepsilon}}\gamma_i",
     X / np.sqrt(np.sum(X ** 2) / D + EPS) * G, G * X / RMS_X),
    ("vector.root.early", RMS4GG,
     r"y=\frac{x_i}{\sqrt{\frac{1}{n}}\sum_{i=1}^{n}{ x_i^2}+\varepsilon }\gamma_i",
     X / (np.sqrt(1 / D) * np.sum(X ** 2) + EPS) * G, G * X / RMS_X),
    ("vector.bias", RMS4G, r"y_i = \frac{x_i}{\mathrm{RMS}(x)} \gamma_i + \beta",
     G * X / RMS_X + BETA, G * X / RMS_X + BETA),
    ("vector.bias.sign", RMS4G, r"y_i = \frac{x_i}{\mathrm{RMS}(x)} \gamma_i - \beta",
     G * X / RMS_X - BETA, G * X / RMS_X + BETA),
]


@pytest.mark.parametrize("name, pre, latex, stated, layer", CASES, ids=[c[0] for c in CASES])
def test_rms_output_verdict(name, pre, latex, stated, layer) -> None:
    expected = "proved" if same(stated, layer) else "refuted"
    assert claims(pre, latex) == [expected], rows(pre, latex)


def test_the_table_has_both_kinds() -> None:
    truths = [same(c[3], c[4]) for c in CASES]
    assert sum(truths) >= 6 and len(truths) - sum(truths) >= 10


@pytest.mark.parametrize("pre, latex, let, claim", [
    (RMS0, r"y = \frac{x}{\mathrm{RMS}(x)}", "let y = RMS(x)", "y == "),
    (RMSG, r"y = \frac{x}{\mathrm{RMS}(x)} \gamma", "let y = gamma * RMS(x)", "y == "),
    (RMS, r"\frac{x}{\mathrm{RMS}(x)} \gamma + \beta", "let y = gamma * RMS(x) + beta * ones",
     "y == "),
    (RMS4GG, r"y_i = \frac{x_i}{\mathrm{RMS}(x)} \gamma_i",
     "let y = hadamard(gamma, RMS(x))", "y == "),
    ("use rmsnorm(affine=elementwise)", r"\frac{x}{\mathrm{RMS}(x)} * \gamma", None,
     "y == hadamard("),
])
def test_read_as_names_the_output_used(pre, latex, let, claim) -> None:
    got = rows(pre, latex)
    statements = [st for _, st, _ in got]
    assert let is None or let in statements, got
    assert any(s != "defined" and st.startswith(claim) for s, st, _ in got), got


@pytest.mark.parametrize("latex, stated, other", [
    (r"y = \frac{x}{\mathrm{RMS}(x)}", PLAIN, PLAIN),
    (r"y = \frac{x}{\mathrm{RMS}(x)} \gamma", GAIN, GAIN),
    (r"y = \frac{x}{\mathrm{RMS}(x)} + \beta", X / RMS_X + BETA, X / RMS_X + BETA),
])
def test_plain_use_rmsnorm_with_a_parameter_dropped_is_two_readings(latex, stated,
                                                                      other) -> None:
    # false for the layer with gain and bias, true for the one without what is dropped
    assert not same(stated, FULL) and same(stated, other)
    got = [r for r in rows(RMS, latex) if r[0] != "defined"]
    assert [r[0] for r in got] == ["error"], got
    assert "two readings" in got[0][2] and "without them proved" in got[0][2], got


def test_elementwise_keeps_its_gain() -> None:
    """With affine=elementwise the document says the layer has a weight: a formula without
    it is two readings (true without the weight), never proved; false both ways, refuted."""
    pre = "use rmsnorm(affine=elementwise)"
    assert claims(pre, r"y = \frac{x}{\mathrm{RMS}(x)}") == ["error"]
    assert claims(pre, r"y = \frac{2x}{\mathrm{RMS}(x)}") == ["refuted"]
    assert claims(pre, r"y_i = \frac{x_i}{\mathrm{RMS}(x)} * \gamma_i") == ["proved"]


def test_a_derivative_uses_the_full_output() -> None:
    assert claims(RMS, r"\frac{\partial y_i}{\partial \beta} = 1") == ["proved"]
    assert claims(RMS, r"\frac{\partial y_i}{\partial \gamma} = \frac{x_i}{\mathrm{RMS}(x)}") \
        == ["proved"]
    assert claims(RMS, r"\frac{\partial y_i}{\partial \gamma} = x_i") == ["refuted"]


@pytest.mark.parametrize("pre, latex, fragment", [
    (RMS, r"\frac{x}{\sqrt{\frac{1}{N}\sum_{i=1}^{n} x_i^2 + \epsilon}} \gamma",
     "names the dimension both N and n"),
    (RMS + "\nvector g", r"y = \frac{x}{\mathrm{RMS}(x)} g", "uses g, declared by the document"),
    (RMS + "\nscalar weight", r"y = \frac{x}{\mathrm{RMS}(x)} weight",
     "weight is declared by the document"),
    ("use rmsnorm(affine=elementwise)", r"y = \frac{x}{\mathrm{RMS}(x)} * \gamma + \beta",
     "unknown name 'beta'"),  # PyTorch's RMSNorm has no bias
    (RMS, r"\frac{x}{\mathrm{RMS}(x)} \gamma, \quad \mathrm{RMS}(x) = \sqrt{\epsilon}",
     "expected a relation"),
])
def test_near_misses_are_refused(pre, latex, fragment) -> None:
    got = rows(pre, latex)
    assert any(s == "error" and fragment in m for s, _, m in got), got


# --- the hatted estimates (Dive into Deep Learning) ----------------------------------------

BN = "use batchnorm"
LN = "use layernorm"
VAR = np.mean((X - X.mean()) ** 2)


@pytest.mark.parametrize("pre, latex, stated, true", [
    (BN, r"\hat{\boldsymbol{\mu}}_\mathcal{B} = \frac{1}{|\mathcal{B}|} \sum_{\mathbf{x} \in "
         r"\mathcal{B}} \mathbf{x}", np.sum(X) / D, X.mean()),
    (BN, r"\hat{\boldsymbol{\mu}}_\mathcal{B} = \frac{1}{|\mathcal{B}|-1} \sum_{\mathbf{x} \in "
         r"\mathcal{B}} \mathbf{x}", np.sum(X) / (D - 1), X.mean()),
    # d2l adds eps to the variance estimate: sigma-hat is sqrt(var + eps)
    (BN, r"\hat{\boldsymbol{\sigma}}_\mathcal{B}^2 = \frac{1}{|\mathcal{B}|} \sum_{\mathbf{x} "
         r"\in \mathcal{B}} (\mathbf{x} - \hat{\boldsymbol{\mu}}_{\mathcal{B}})^2 + \epsilon",
     VAR + EPS, VAR + EPS),
    (BN, r"\hat{\boldsymbol{\sigma}}_\mathcal{B}^2 = \frac{1}{|\mathcal{B}|} \sum_{\mathbf{x} "
         r"\in \mathcal{B}} (\mathbf{x} - \hat{\boldsymbol{\mu}}_{\mathcal{B}})^2",
     VAR, VAR + EPS),
    (BN, r"\hat x = \frac{x - \hat\mu}{\hat\sigma}", (X - X.mean()) / np.sqrt(VAR + EPS),
     (X - X.mean()) / np.sqrt(VAR + EPS)),
    (LN, r"\hat\mu = \frac{1}{d}\sum_{i=1}^d x_i", np.sum(X) / D, X.mean()),
    (LN, r"\hat\mu = \frac{1}{d}\sum_{i=1}^d x_i^2", np.sum(X ** 2) / D, X.mean()),
    (LN, r"\hat\sigma^2 = \frac{1}{d}\sum_{i=1}^d (x_i - \hat\mu)^2 + \epsilon", VAR + EPS,
     VAR + EPS),
    (LN, r"\hat\sigma^2 = \frac{1}{d}\sum_{i=1}^d (x_i - \hat\mu)^2 - \epsilon", VAR - EPS,
     VAR + EPS),
    (LN, r"y = \gamma \frac{x - \hat\mu}{\hat\sigma} + \beta",
     GAMMA * (X - X.mean()) / np.sqrt(VAR + EPS) + BETA,
     GAMMA * (X - X.mean()) / np.sqrt(VAR + EPS) + BETA),
    (LN, r"y = \gamma \frac{x - \hat\mu}{\hat\sigma^2} + \beta",
     GAMMA * (X - X.mean()) / (VAR + EPS) + BETA,
     GAMMA * (X - X.mean()) / np.sqrt(VAR + EPS) + BETA),
])
def test_hatted_estimates(pre, latex, stated, true) -> None:
    expected = "proved" if same(stated, true) else "refuted"
    assert claims(pre, latex) == [expected], rows(pre, latex)


def test_hatted_estimates_are_shown() -> None:
    got = [st for _, st, _ in rows(BN, r"\hat x = \frac{x - \hat\mu_\mathcal{B}}"
                                       r"{\hat\sigma_\mathcal{B}}")]
    assert "let muhat_B = mean(x)" in got and \
        "let sigmahat_B = sqrt((P * x).T * P * x / d + eps)" in got, got
    got = [st for _, st, _ in rows(LN, r"\hat\sigma = \sqrt{v + \epsilon}")]
    assert "let sigmahat = sqrt(v + eps)" in got, got


def test_d2l_batchnorm_per_feature_gain_is_the_scalar_product() -> None:
    """d2l's gamma is per feature; over one channel's batch it is a scalar, so its \\odot is
    the scalar times the vector (symnorm/lang/latex_odot.py, tests/test_latex_odot_scalar.py)."""
    got = rows(BN, r"\mathrm{BN}(\mathbf{x}) = \boldsymbol{\gamma} \odot \frac{\mathbf{x} - "
                   r"\hat{\boldsymbol{\mu}}_\mathcal{B}}{\hat{\boldsymbol{\sigma}}_\mathcal{B}} + "
                   r"\boldsymbol{\beta}")
    assert ("proved", "y == gamma * (x - muhat_B * ones) / sigmahat_B + beta * ones", "") \
        in got, got


def test_d2l_layer_norm_without_the_arrow_is_the_output() -> None:
    """LN(x) = (x - \\hat\\mu)/\\hat\\sigma with use layernorm, no arrow: the layer's name
    applied to the input x is the output (tests/test_latex_layer_names.py), here without
    affine parameters (the use line says so); d2l's sigma-hat holds eps, so it is proved, and
    a doubled eps refuted.
    (d2l's map written with its arrow, x -> LN(x) = ..., is read:
    tests/test_latex_words_tensor.py.)"""
    none = "use layernorm(affine=none)\nlet n = d"
    got = rows(none, r"\textrm{LN}(\mathbf{x}) = \frac{\mathbf{x} - \hat{\mu}}{\hat\sigma},")
    assert [s for s, _, _ in got if s != "defined"] == ["proved"], got
    assert got[0][1] == "y == (x - muhat * ones) / sigmahat", got
    got = rows(none, r"\textrm{LN}(\mathbf{x}) = "
                     r"\frac{\mathbf{x} - \hat{\mu}}{2\hat\sigma},")
    assert "refuted" in [s for s, _, _ in got], got
