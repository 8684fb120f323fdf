"""Refusal classes of corpus 8 (issue 10; brief latex16): a parenthesised gloss at the end of
a row (Arat's ``\\qquad (\\text{mini-batch mean})``), a partial of a bracketed expression
(Shreyansh Singh's ``\\frac{\\partial (x_k - \\mu)}{\\partial x_j}``), a trailing index range
after a formula (coremltools' ``\\;,\\; i=1,....,C``) and group superscripts under the grouped
vocabularies (NNabla's ``\\mu^g``, ``x_i^i``).  Each accepted form is proved, a one-token
false variant refuted, and the unsafe neighbours are refused with their message asserted.
Expected verdicts come from the mathematics (checked with numpy below), not from the reader.
"""

from __future__ import annotations

import numpy as np
import pytest

from test_latex_gloss import claims, error, run  # the same document and row helpers

from symnorm.check.run import check_text


BN = "use batchnorm"
_X = np.array([0.5, -1.25, 2.0, 3.5])


def test_the_truths_used_below() -> None:
    # the batch mean is (1/d) sum x_i, not (2/d) sum x_i; the variance divides by d
    assert np.isclose(np.sum(_X) / 4, _X.mean()) and not np.isclose(2 * np.sum(_X) / 4,
                                                                      _X.mean())
    assert np.isclose(np.sum((_X - _X.mean()) ** 2) / 4, _X.var())


# --- 1. a parenthesised gloss at the end of a row ----------------------------------------

MEAN = r"\mu = \frac{1}{d}\sum_i x_i"
MEAN_FALSE = r"\mu = \frac{2}{d}\sum_i x_i"

PAREN_GLOSSED = [
    r"{} \qquad (\text{mini-batch mean})",
    r"{} \quad \left(\text{mini-batch mean}\right).",
    r"{} \; (\text{the mean of the batch}),",
    r"(\text{Mini-batch mean})\ {}",
    r"(\text{Step one}) \quad {} \qquad (\text{mini-batch mean})",
]


@pytest.mark.parametrize("form", PAREN_GLOSSED)
def test_a_parenthesised_gloss_at_the_edge_of_a_row_is_presentation(form: str) -> None:
    assert claims(run(BN, form.replace("{}", MEAN))) == ["proved"]
    assert claims(run(BN, form.replace("{}", MEAN_FALSE))) == ["refuted"]


def test_parenthesised_glosses_in_the_rows_of_a_split_block() -> None:
    latex = (r"\begin{split} \mu &\leftarrow \frac{1}{d} \sum_{i=1}^{d} x_{i} \qquad "
             r"(\text{mini-batch mean})\\ \sigma^{2} &\leftarrow \frac{1}{d} \sum_{i=1}^{d} "
             r"(x_i - \mu)^2 \qquad (\text{mini-batch variance}) \end{split}")
    assert claims(run(BN, latex)) == ["proved", "proved"]
    got = run(BN, latex.replace(r"\frac{1}{d} \sum_{i=1}^{d} (x_i",
                                r"\frac{2}{d} \sum_{i=1}^{d} (x_i"))
    assert claims(got) == ["proved", "refuted"], got


@pytest.mark.parametrize("latex,what", [
    # against the math: not set apart
    (MEAN + r"(\text{mini-batch mean})", "inside an equation"),
    # a script on the parentheses: part of the expression
    (MEAN + r" \qquad (\text{mini-batch mean})^2", "inside an equation"),
    # more than the gloss inside the parentheses
    (MEAN + r" \qquad (\text{mini-batch mean} + 1)", "inside an equation"),
    # between operands
    (r"\mu = (\text{mini-batch mean}) \; \frac{1}{d}\sum_i x_i", "inside an equation"),
    # a condition word: dropping it would drop a hypothesis
    (MEAN + r" \qquad (\text{for every batch})", "states a condition ('every')"),
    (MEAN + r" \qquad (\text{with \(d > 2\)})", "math inside the gloss"),
    # inside a root: not at the edge of a row
    (r"\mu = \frac{1}{d}\sum_i x_i \sqrt{(\text{mini-batch mean})}", "inside an equation"),
])
def test_parentheses_around_prose_elsewhere_are_refused(latex: str, what: str) -> None:
    msg = error(run(BN, latex))
    assert what in msg and msg.startswith("g.md:6:"), msg


def test_a_parenthesised_gloss_naming_the_affine_parameters_is_still_judged() -> None:
    msg = error(run("use batchnorm(affine=none)",
                    r"y = \frac{x-\mu}{\sqrt{\sigma^2+\epsilon}} \qquad (\text{learnable "
                    r"scale and shift})"))
    assert "names the affine parameters ('learnable')" in msg and "two readings" in msg, msg


# --- 2. a partial of a bracketed expression, and a \text name as an operand --------------

LN_N = "use layernorm(affine=elementwise)\nlet N = d"
RSTD = LN_N + "\nlet rstd = 1/sqrt(v + eps)"


def run_in_block(preamble: str, latex: str) -> list[tuple[str, str, str]]:
    """As :func:`run`, with the equation in the preamble's block (its lets in scope)."""
    text = f"```symnorm\n{preamble}\nlatex eq: {latex}\n```\n"
    return [(v.label, v.status, v.message) for v in check_text(text, "g.md",
                                                               sandbox=False).verdicts]


def _jac_centred(x: np.ndarray) -> np.ndarray:
    """d(x_k - mean(x))/dx_j by central differences (rows k, columns j)."""
    h, n = 1e-6, len(x)
    cols = [((x + h * e) - (x + h * e).mean() - (x - h * e) + (x - h * e).mean()) / (2 * h)
            for e in np.eye(n)]
    return np.array(cols).T


def _grad_rstd(x: np.ndarray, eps: float = 0.25) -> np.ndarray:
    h = 1e-6
    f = lambda v: (np.var(v) + eps) ** -0.5  # noqa: E731
    return np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(len(x))])


def test_the_derivative_truths() -> None:
    n = len(_X)
    assert np.allclose(_jac_centred(_X), np.eye(n) - 1 / n, atol=1e-6)
    assert not np.allclose(_jac_centred(_X), np.eye(n) - 2 / n, atol=1e-6)
    rstd = (np.var(_X) + 0.25) ** -0.5
    assert np.allclose(_grad_rstd(_X), -rstd ** 3 * (_X - _X.mean()) / n, atol=1e-6)
    assert not np.allclose(_grad_rstd(_X), -2 * rstd ** 3 * (_X - _X.mean()) / n, atol=1e-6)


@pytest.mark.parametrize("latex,verdict", [
    (r"\frac{\partial (x_k - \mu)}{\partial x_j} = \delta_{kj} - \frac{1}{N}", "proved"),
    (r"\frac{\partial (x_k - \mu)}{\partial x_j} = \delta_{kj} - \frac{2}{N}", "refuted"),
    (r"\frac{\partial \left(x_k - \mu\right)}{\partial x_j} = \delta_{kj} - \frac{1}{N}",
     "proved"),
    (r"\frac{\partial (x_k - \mu)}{\partial x_j} = \frac{\partial x_k}{\partial x_j} - "
     r"\frac{\partial \mu}{\partial x_j}", "proved"),
])
def test_a_partial_of_a_bracketed_entry_is_the_inline_form(latex: str, verdict: str) -> None:
    assert claims(run(LN_N, latex)) == [verdict]
    # exactly the inline \partial (..) / \partial x_j
    inline = latex.replace(r"\frac{\partial (x_k - \mu)}{\partial x_j}",
                           r"\partial (x_k - \mu) / \partial x_j")
    if inline != latex:
        assert claims(run(LN_N, inline)) == [verdict]


@pytest.mark.parametrize("latex,what", [
    (r"\frac{\partial (x_k - \mu)^2}{\partial x_j} = 0",
     "'^' after the bracket in \\frac{\\partial (..) ...}: the derivative of the bracket, or "
     "of the bracket with what follows it? Two readings"),
    (r"\frac{\partial (x_k - \mu) \gamma_k}{\partial x_j} = 0", "Two readings"),
    (r"\frac{\partial (x_k - \mu)}{\partial x} = 0",
     "a bracketed numerator is read only differentiated by an entry of a declared vector"),
    (r"\frac{\partial (x_k - \mu)}{\partial \mu} = 1",
     "a bracketed numerator is read only differentiated by an entry of a declared vector"),
    (r"\frac{\partial (x_k - x_j)}{\partial x_j} = 0", "one free index letter (it has k, j)"),
    (r"\frac{\partial (\mu)}{\partial x_j} = \frac{1}{N}", "one free index letter (it has none)"),
    # the same index: the local partial (1) and the Jacobian's diagonal (1 - 1/N) disagree
    (r"\frac{\partial (x_j - \mu)}{\partial x_j} = 1 - \frac{1}{N}",
     "the same index on both sides of the partial has two readings"),
])
def test_unsafe_bracketed_partials_are_refused(latex: str, what: str) -> None:
    msg = error(run(LN_N, latex))
    assert what in msg, msg


@pytest.mark.parametrize("latex,verdict", [
    (r"\frac{\partial \text{rstd}}{\partial x_j} = -\frac{1}{N} \text{rstd}^3 \cdot (x_j - \mu)",
     "proved"),
    (r"\frac{\partial \text{rstd}}{\partial x_j} = -\frac{2}{N} \text{rstd}^3 \cdot (x_j - \mu)",
     "refuted"),
    (r"\frac{\partial \mathrm{rstd}}{\partial x_j} = -\frac{1}{N} \text{rstd}^2 \cdot (x_j - \mu)",
     "refuted"),
])
def test_a_text_name_is_an_operand_of_partial(latex: str, verdict: str) -> None:
    assert claims(run_in_block(RSTD, latex)) == [verdict]


def test_a_text_name_the_document_lacks_is_named() -> None:
    msg = error(run(LN_N, r"\frac{\partial \text{rstd}}{\partial x_j} = 0"))
    assert "rstd is neither declared nor defined" in msg, msg
    # a vocabulary word keeps its meaning: \text{mean} is mu
    assert claims(run(LN_N, r"\frac{\partial \text{mean}}{\partial x_j} = \frac{1}{N}")) == [
        "proved"]
    assert claims(run(LN_N, r"\frac{\partial \text{mean}}{\partial x_j} = \frac{2}{N}")) == [
        "refuted"]


# --- 3. an index range after the formula (coremltools' batch_norm) ------------------------

@pytest.mark.parametrize("latex,shown", [
    (r"y_i = \gamma \hat x_i + \beta \;,\; i=1,....,C", "i=1,....,C"),
    (r"y_i = \gamma \hat x_i + \beta, \quad i = 1, \ldots, d", "i = 1, \\ldots, d"),
    (r"y_i = \gamma \hat x_i + \beta, i = 1, 2, \dots, m", "i = 1, 2, \\dots, m"),
    (r"y_i = \gamma \hat x_i + \beta \quad i = 1 \cdots C", "i = 1 \\cdots C"),
])
def test_an_index_range_is_refused_naming_both_readings(latex: str, shown: str) -> None:
    msg = error(run(BN, latex))
    assert f"an index range {shown!r} after the formula is not read" in msg, msg
    assert "two readings" in msg and "runs over something else (the channels" in msg, msg
    assert msg.startswith(f"g.md:6:{latex.index(shown) + 1}:"), msg


def test_without_the_range_the_row_is_read() -> None:
    assert claims(run(BN, r"y_i = \gamma \hat x_i + \beta")) == ["proved"]
    assert claims(run(BN, r"y_i = \gamma \hat x_i - \beta")) == ["refuted"]


@pytest.mark.parametrize("latex,what", [
    # dots that are no range keep the errors they had
    (r"y_i = \gamma \hat x_i + \beta, \ldots", "unsupported LaTeX command \\ldots"),
    (r"y = a + \ldots + b", "unsupported LaTeX command \\ldots"),
])
def test_dots_elsewhere_keep_their_error(latex: str, what: str) -> None:
    msg = error(run(BN, latex))
    assert what in msg, msg


# --- 4. group superscripts under the grouped vocabularies (NNabla) ------------------------

GN = "use groupnorm(groups=2, channels=4, spatial=2)"
IN = "use instancenorm(channels=2, spatial=4)"
#: 4 channels x 2 positions, channel-major; groups of two channels (four entries each)
_XG = np.array([0.5, -1.0, 2.0, 0.25, 3.0, -2.5, 1.5, 0.75])
_GAIN, _BIAS, _EPS = np.array([2.0, -1.0, 0.5, 3.0]), np.array([0.5, 1.0, -2.0, 0.0]), 0.25


def _gn_numpy(sign: float = 1.0, eps_inside: bool = True) -> np.ndarray:
    """NNabla's printed formula per group: (x - mu^g) / sigma^g gamma + sign * beta."""
    out = np.empty_like(_XG)
    for g in range(2):
        v = _XG[4 * g:4 * g + 4]
        h = len(v)
        mu = np.sum(v) / h
        sd = np.sqrt(np.sum((v - mu) ** 2) / h + _EPS) if eps_inside else \
            np.sqrt(np.sum((v - mu) ** 2) / h) + _EPS
        out[4 * g:4 * g + 4] = (v - mu) / sd
    return out * np.repeat(_GAIN, 2) + sign * np.repeat(_BIAS, 2)


def _gn_torch() -> np.ndarray:
    torch = pytest.importorskip("torch")
    x = torch.tensor(_XG, dtype=torch.float64).reshape(1, 4, 2)
    return torch.nn.functional.group_norm(
        x, 2, torch.tensor(_GAIN), torch.tensor(_BIAS), eps=_EPS).numpy().ravel()


def test_the_group_norm_truths() -> None:
    ref = _gn_torch()
    assert np.allclose(_gn_numpy(), ref)
    assert not np.allclose(_gn_numpy(sign=-1.0), ref)
    assert not np.allclose(_gn_numpy(eps_inside=False), ref)


NNABLA_GN = (r"\begin{eqnarray} \mu^g &=& \frac{1}{H} \sum_{i=1}^{H} x_i^g \\ \sigma^g &=& "
             r"\sqrt{\frac{1}{H} \sum_{i=1}^{H} \left(x_i^g - \mu^g\right)^2 + \epsilon} \\ "
             r"y &=& \frac{x - \mu^g}{\sigma^g} \gamma + \beta \end{eqnarray}")


def verdicts_doc(preamble: str, latex: str) -> list[tuple[str, str, str]]:
    """As :func:`run`, with the use line document-wide (its options reach the latex block)."""
    return run(f"document {preamble}", latex)


@pytest.mark.parametrize("old,new,expect", [
    ("", "", ["proved", "proved"]),
    (r"\gamma + \beta", r"\gamma - \beta", ["proved", "refuted"]),
    (r"\frac{1}{H} \sum_{i=1}^{H} x_i^g", r"\frac{2}{H} \sum_{i=1}^{H} x_i^g", ["refuted",
                                                                               "proved"]),
    (r"\right)^2 + \epsilon}", r"\right)^2} ", ["proved", "refuted"]),
])
def test_group_superscripts_name_the_entrys_group(old: str, new: str, expect: list) -> None:
    got = verdicts_doc(GN, NNABLA_GN.replace(old, new))
    assert claims(got) == expect, got
    assert any(lb == "eq.sigma" and s == "defined" for lb, s, _ in got), got


def test_an_instance_letter_other_than_the_index_is_read() -> None:
    latex = NNABLA_GN.replace("^g", "^n")
    assert claims(verdicts_doc(IN, latex)) == ["proved", "proved"]
    got = verdicts_doc(IN, latex.replace(r"\gamma + \beta", r"\gamma - \beta"))
    assert claims(got) == ["proved", "refuted"], got


@pytest.mark.parametrize("latex,what", [
    # NNabla's InstanceNormalization: the instance letter is the sum's index
    (r"\mu^i = \frac{1}{H} \sum_{i=1}^{H} x_i^i",
     "superscript i on \\mu: i would name the group (instance) of the entry"),
    (r"\mu^g + \sigma^h = 0", "group superscripts g, h in one equation"),
    (r"\mu^g = x_i^g", "x_i^g outside a sum over the entries of group g"),
    (r"\mu^g = \frac{1}{H}\sum_{i=1}^{H} x_i^g x_i^g", "outside a sum over the entries"),
    (r"\mu^g = \frac{1}{H}\sum_{i=1}^{H} (x_i^g - x_i)", "Two readings"),
    (r"\mu^g = \frac{1}{H}\sum_{i=1}^{H} x_j^g", "inside the sum over i with another index"),
    (r"\mu^g = \frac{1}{H}\sum_{i=1}^{d} x_i^g", "d counts the group's entries, but the "
                                                "document gives it another meaning"),
    (r"\mu^g = \frac{1}{H}\sum_{i=1}^{H} x_i^g + \frac{1}{m}",
     "the group size is written both H and m"),
    (r"\mu^g = \frac{1}{HW}\sum_{i=1}^{H} x_i^g", "H written against other letters"),
    (r"\mu^g = \frac{1}{H}\sum_{i=1}^{H} x_i^g + \sigma_H", "H in a script"),
])
def test_unsafe_group_superscripts_are_refused(latex: str, what: str) -> None:
    pre = IN if "^i" in latex else GN
    msg = error(verdicts_doc(pre, latex))
    assert what in msg, msg


def test_without_a_grouped_vocabulary_the_superscript_stays_a_layer_index() -> None:
    msg = error(run("use layernorm", r"\mu^g = \frac{1}{d}\sum_{i=1}^{d} x_i^g"))
    assert "superscript g is not a defined name: a layer index" in msg, msg
    # a letter the document defines is not a group
    msg = error(verdicts_doc(GN + "\nscalar g", r"\mu^g = \frac{1}{H}\sum_{i=1}^{H} x_i^g"))
    assert "upper bound H of \\sum is not the dimension d" in msg, msg


# --- red team: false variants of the new rules, none proved --------------------------------

RED_TEAM = [
    # (preamble, false latex, expected status); each false by the numpy checks above or by
    # the algebra written beside it
    (f"document {GN}", r"\mu^g = \frac{1}{H}\sum_{i=1}^{H} (x_i^g)^2", "refuted"),  # E[x^2]
    (f"document {GN}", r"\mathrm{Var}[x] = \frac{1}{H}\sum_{i=1}^{H} (x_i^g - \mu^g)^2 + 1",
     "refuted"),
    (f"document {GN}", r"\mu^g = \frac{1}{H}\sum\limits_{i=1}^{H} x_i^g + \mu", "refuted"),
    (f"document {GN}", r"\mu^g = \frac{1}{H+1}\sum_{i=1}^{H} x_i^g", "refuted"),
    (f"document {GN}", r"\mu^g = \frac{1}{d}\sum_{i=1}^{H} x_i^g", "refuted"),  # 1/8, not 1/4
    (f"document {GN}", r"\mu^g = \frac{1}{H}\sum_{i=1}^{H} (\gamma x_i^g)", "error"),
    (f"document {GN}", r"y = \frac{x^g - \mu^g}{\sigma^g}\gamma + \beta", "error"),  # sigma?
    (LN_N, r"\frac{\partial (x_k - \mu)}{\partial x_j} = \delta_{kj}", "refuted"),
    (LN_N, r"\frac{\partial (\hat x_k)}{\partial x_j} = \frac{\delta_{kj}}{\sigma}", "refuted"),
    (LN_N, r"\mu \qquad (\text{mini-batch mean}) = \frac{2}{d}\sum_i x_i", "error"),
    (LN_N, r"\mu = \frac{2}{d}\sum_i x_i \qquad \left(\text{mini batch}\right)^2", "error"),
    (BN, r"y_i = \gamma \hat x_i - \beta, \quad i = 1, \ldots, d", "error"),
]


@pytest.mark.parametrize("preamble,latex,status", RED_TEAM)
def test_false_variants_of_the_new_rules_are_not_proved(preamble: str, latex: str,
                                                        status: str) -> None:
    preamble = "\n".join(f"document {ln}" if ln.startswith("use ") and "(" in ln else ln
                         for ln in preamble.splitlines())  # options reach the latex block
    got = claims(run(preamble, latex))
    assert got and status in got and "proved" not in got, got


def test_a_document_m_is_not_the_group_size() -> None:
    # H would be rewritten to m, the group size; the document's own m would take its place
    # (found while red-teaming: the true row was refuted with `scalar m`)
    msg = error(verdicts_doc(GN + "\nscalar m", r"\mu^g = \frac{1}{H}\sum_{i=1}^{H} x_i^g"))
    assert "the document defines m itself: two meanings" in msg, msg
    # a document's j is not the entry the group sum is stated at
    got = verdicts_doc(GN + "\nscalar j", r"\mu^g = \frac{1}{H}\sum_{i=1}^{H} x_i^g")
    assert claims(got) == ["proved"], got
