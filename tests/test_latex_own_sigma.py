r"""A row of its own that defines sigma with eps is the source's own sigma from there on
(``symnorm/lang/latex_own.py``), checked to be the layer's denominator.

The allo README (corpus 7) writes ``\sigma = \sqrt{\frac1d\sum_i(x_i-\mu)^2 + \epsilon}`` and then
``\mathrm{LayerNorm}(x) = \gamma\cdot\frac{x-\mu}{\sigma}``; both were refuted, since the
vocabulary's sigma has no eps.  Truth here is computed with numpy at a fixed point.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import verdicts

X = np.array([0.5, -1.25, 2.0, 3.5])
EPS, GAMMA, BETA = 0.3, 1.5, -0.25
MU = X.mean()
VAR = ((X - MU) ** 2).mean()
DEN = np.sqrt(VAR + EPS)

SIGMA_ROW = r"\sigma = \sqrt{ \frac{1}{d} \sum_{i=1}^{d} (x_i - \mu)^2 + \epsilon }"
LN_ROW = r"\text{LayerNorm}(x) = \gamma \cdot \frac{x - \mu}{\sigma}"


def claims(preamble: str, latex: str) -> list[str]:
    return [s for _, s, _ in verdicts(preamble, latex) if s != "defined"]


def first_error(preamble: str, latex: str) -> str:
    return next(m for _, s, m in verdicts(preamble, latex) if s == "error")


def test_the_source_sigma_row_then_the_layer_is_proved() -> None:
    assert np.isclose(np.sqrt(((X - MU) ** 2).sum() / X.size + EPS), DEN)
    assert claims("use layernorm(affine=gain)", f"{SIGMA_ROW}\n{LN_ROW}") == ["proved"] * 2
    got = verdicts("use layernorm(affine=gain)", SIGMA_ROW)
    note = next(m for lb, s, m in got if s == "defined" and lb.endswith(".sigma"))
    assert "the source's own sigma" in note and "layer's denominator" in note


def test_the_layer_row_alone_keeps_the_vocabulary_sigma() -> None:
    assert not np.allclose(GAMMA * (X - MU) / np.sqrt(VAR), GAMMA * (X - MU) / DEN)
    assert claims("use layernorm(affine=gain)", LN_ROW) == ["refuted"]


@pytest.mark.parametrize("wrong, value", [
    # no 1/d
    (SIGMA_ROW.replace(r"\frac{1}{d} ", ""), np.sqrt(((X - MU) ** 2).sum() + EPS)),
    # eps outside the root
    (r"\sigma = \sqrt{ \frac{1}{d} \sum_{i=1}^{d} (x_i - \mu)^2} + \epsilon", np.sqrt(VAR) + EPS),
    # minus eps
    (SIGMA_ROW.replace(r"+ \epsilon", r"- \epsilon"), np.sqrt(VAR - EPS)),
    # 2 eps
    (SIGMA_ROW.replace(r"+ \epsilon", r"+ 2\epsilon"), np.sqrt(VAR + 2 * EPS)),
])
def test_a_wrong_definition_with_eps_is_refuted(wrong: str, value: float) -> None:
    assert not np.isclose(value, DEN)
    assert claims("use layernorm", wrong) == ["refuted"]


def test_later_rows_read_the_source_sigma() -> None:
    # (x - mu)/sqrt(sigma^2 + eps) with the source's sigma holds eps twice: false
    assert not np.allclose((X - MU) / np.sqrt(DEN ** 2 + EPS), (X - MU) / DEN)
    got = claims("use layernorm", f"{SIGMA_ROW}\n\\hat x = \\frac{{x-\\mu}}{{\\sigma}}\n"
                 r"\hat x = \frac{x-\mu}{\sqrt{\sigma^2 + \epsilon}}")
    assert got == ["proved", "proved", "refuted"]


def test_sigma_squared_with_eps_defines_sigma() -> None:
    row = r"\sigma^2 = \frac{1}{d}\sum_{i=1}^{d} (x_i - \mu)^2 + \epsilon"
    assert claims("use layernorm", f"{row}\n\\hat x = \\frac{{x-\\mu}}{{\\sigma}}") == \
        ["proved", "proved"]
    assert claims("use layernorm", row.replace(r"\frac{1}{d}", r"\frac{2}{d}")) == ["refuted"]


def test_batchnorm_sigma_b() -> None:
    rows = (r"\sigma_B = \sqrt{\frac{1}{m}\sum_{i=1}^{m} (x_i - \mu_B)^2 + \epsilon}" "\n"
            r"y = \gamma \frac{x - \mu_B}{\sigma_B} + \beta")
    assert claims("use batchnorm", rows) == ["proved", "proved"]
    assert claims("use batchnorm", rows.replace(r"+ \beta", r"- \beta"))[-1] == "refuted"


def test_an_earlier_use_of_the_vocabulary_sigma_makes_two_readings() -> None:
    msg = first_error("use layernorm", "\\hat x = \\frac{x-\\mu}{\\sqrt{\\sigma^2+\\epsilon}}\n"
                      + SIGMA_ROW)
    assert "an earlier equation read sigma as the vocabulary's sqrt(v)" in msg
    assert "two readings" in msg


def test_sigma_on_both_sides_is_refused() -> None:
    msg = first_error("use layernorm", r"\sigma = \sqrt{\sigma^2 + \epsilon}")
    assert "on both sides of a row with eps" in msg


def test_without_eps_the_row_stays_a_claim_about_the_vocabulary() -> None:
    row = r"\sigma = \sqrt{ \frac{1}{d} \sum_{i=1}^{d} (x_i - \mu)^2 }"
    assert claims("use layernorm", row) == ["proved"]
    # and it defines nothing: the layer's formula after it is still false
    assert claims("use layernorm(affine=gain)", f"{row}\n{LN_ROW}") == ["proved", "refuted"]


def test_eps_outside_the_root_keeps_the_old_reading() -> None:
    # with eps_inside=0 the vocabulary names no denominator: a claim about its sigma
    assert np.sqrt(VAR) != DEN
    assert claims("use layernorm(eps_inside=0)", SIGMA_ROW) == ["refuted"]


def test_a_where_clause_is_unchanged() -> None:
    eq = (r"\hat x = \frac{x-\mu}{\sigma}, \quad \text{where } \sigma = "
          r"\sqrt{\frac{1}{d}\sum_{i=1}^{d}(x_i-\mu)^2+\epsilon}")
    assert claims("use layernorm", eq) == ["proved"]


def test_a_chain_that_defines_sigma_with_eps_has_two_readings() -> None:
    # sigma = A = B (red team 20, d24): alone the row is the source's own sigma; as a link it
    # was read as a claim about the vocabulary's sigma and refuted, although the source's
    # chain is true in its own reading: both readings, so an error naming them
    chain = SIGMA_ROW + r" = \sqrt{\mathrm{Var}[x] + \epsilon}"
    assert np.isclose(np.sqrt(X.var() + EPS), DEN) and not np.isclose(np.sqrt(X.var()), DEN)
    msg = first_error("use layernorm", chain)
    assert claims("use layernorm", chain) == ["error"]
    assert "\\sigma is defined with eps as a link of a chain: the source's own sigma" in msg
    assert "or a claim about the vocabulary's sigma, sqrt(v), without eps: two readings" in msg
    squared = r"\sigma^2 = \frac{1}{d}\sum_i (x_i-\mu)^2+\epsilon = \mathrm{Var}[x]+\epsilon"
    assert "\\sigma^2 is defined with eps as a link" in first_error("use layernorm", squared)
    # the hint's form: the row on its own, then the other link with sigma on the left
    then = SIGMA_ROW + "\n" + r"\sigma = \sqrt{\mathrm{Var}[x] + \epsilon}"
    assert claims("use layernorm", then) == ["proved", "proved"]
    assert claims("use layernorm", then.replace(" + \\epsilon}", "}")) == ["proved", "refuted"]


def test_an_earlier_equation_of_another_vocabulary_makes_two_readings() -> None:
    # red team 20: use batchnorm read sigma first; a later own row would make the order decide
    from symnorm.check.run import check_text
    text = ("```symnorm\nuse batchnorm\nlatex e0: y = \\gamma\\frac{x-\\mu}{\\sqrt{\\sigma^2+"
            "\\epsilon}}+\\beta\n```\n\n```symnorm\nuse layernorm\nlatex e1: " + SIGMA_ROW +
            "\n```\n")
    got = {v.label: (v.status, v.message) for v in check_text(text, "o.md", sandbox=False).verdicts}
    assert got["e0.1"][0] == "proved"
    assert got["e1"][0] == "error" and "an earlier equation read sigma" in got["e1"][1]


# --- a partial by sigma^2 after the source's own sigma (red team 20, d05 and d28) ----------

DL_DVAR = (r"\frac{\partial \ell}{\partial \sigma^2} = -\frac{1}{2}\sum_i \frac{\partial \ell}"
           r"{\partial \hat x_i}(x_i-\mu)(\sigma^2+\epsilon)^{%s}")


@pytest.mark.parametrize("row, num, why", [
    (DL_DVAR % "-3/2", "l", "y, of which dl_dy is the gradient, is computed along that graph, "
     "not from the document's definitions"),
    (r"\frac{\partial \hat x_i}{\partial \sigma^2} = -\frac{x_i-\mu}{2}\sigma^{-3}", "xhat",
     "xhat is a node of that graph, not one of the document's definitions"),
])
def test_a_partial_by_the_own_sigma_says_sigma_is_the_documents(row: str, num: str,
                                                                 why: str) -> None:
    # the message said "\partial l/\partial sigma: ... y does not depend on sigma^2", which
    # is untrue of the source (its y is computed from its sigma) and names the wrong partial
    msg = first_error("use layernorm\nvector dl_dy", f"{SIGMA_ROW}\n{row}")
    assert f"\\partial {num}/\\partial sigma^2: sigma here is the document's own definition " \
        "(sigma = sqrt(" in msg, msg
    assert "not the vocabulary's sigma (sqrt(v)), so sigma^2 is no node of the vocabulary's " \
        "computation graph (mu, sigma^2, xhat, y)" in msg and why in msg, msg
    assert "does not depend on" not in msg and "drop the document's definition of sigma" in msg


def test_without_the_own_row_the_partial_is_the_vocabularys_node() -> None:
    # the hint's other route: sigma^2 is then the graph's node, the variance without eps
    import torch
    x = torch.tensor(X, dtype=torch.float64)
    var = torch.tensor(VAR, dtype=torch.float64, requires_grad=True)
    dy = torch.tensor([0.7, -1.1, 0.4, 2.0], dtype=torch.float64)
    xhat = (x - float(MU)) / torch.sqrt(var + EPS)
    (dy * (GAMMA * xhat + BETA)).sum().backward()
    dxhat = GAMMA * dy.numpy()
    by_hand = -0.5 * float(np.sum(dxhat * (X - MU)))
    assert np.isclose(var.grad.item(), by_hand * (VAR + EPS) ** -1.5)
    assert not np.isclose(var.grad.item(), by_hand * (VAR + EPS) ** -0.5)
    assert claims("use layernorm\nvector dl_dy", DL_DVAR % "-3/2") == ["proved"]
    assert claims("use layernorm\nvector dl_dy", DL_DVAR % "-1/2") == ["refuted"]
