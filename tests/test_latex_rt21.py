r"""Red team 21's order dependences and a constant at a data matrix's fixed index: a verdict
must not depend on which equation came first.  Truth by numpy."""

from __future__ import annotations

import numpy as np

from symnorm.check.run import check_text

X = np.array([0.5, -1.25, 2.0, 3.5])
EPS, GAMMA, BETA = 0.3, 1.5, -0.25


def statuses(text: str) -> dict[str, str]:
    return {v.label: v.status for v in check_text(text, "o.md", sandbox=False).verdicts
            if v.status != "defined"}


def test_odot_with_the_batchnorm_gain_after_an_earlier_use_of_gamma() -> None:
    xhat = (X - X.mean()) / np.sqrt(X.var() + EPS)
    assert np.allclose(GAMMA * xhat + BETA, GAMMA * xhat + BETA)  # the scalar times xhat
    alone = "```symnorm\nuse batchnorm\nlatex p7: y = \\gamma \\odot \\hat x + \\beta\n```\n"
    after = ("```symnorm\nuse batchnorm\nlatex p1: y = \\gamma\\hat x + \\beta\n```\n\n"
             "```symnorm\nlatex p7: y = \\gamma \\odot \\hat x + \\beta\n"
             "latex p8: y = \\gamma \\odot \\hat x - \\beta\n```\n")
    assert statuses(alone) == {"p7.1": "proved"}
    assert statuses(after) == {"p1.1": "proved", "p7.1": "proved", "p8.1": "refuted"}


def test_a_declared_scalar_gamma_of_the_document_stays_refused() -> None:
    text = ("```symnorm\nuse batchnorm\nscalar gamma\n"
            "latex p7: y = \\gamma \\odot \\hat x + \\beta\n```\n")
    assert statuses(text) == {"p7": "error"}


def test_an_alias_of_sigma_after_an_equation_that_read_sigma() -> None:
    # d sigma^2 / d mu = -2/N sum (x_i - mu) (0 at the mean); with + mu it is not
    text = ("```symnorm\nuse batchnorm\nlatex n0: \\sigma^2 = \\frac{1}{m}\\sum_i (x_i - \\mu)^2\n"
            "```\n\n```symnorm\nlet N = d\nlet sigma_phi = sigma\nlet mu_phi = mu\n"
            "latex n2: \\frac{\\partial \\sigma_{\\phi}^{2}}{\\partial \\mu_\\phi} = \\frac{-2}{N}"
            "\\sum_{i=1}^{N}(x_i-\\mu_\\phi)\n"
            "latex n3: \\frac{\\partial \\sigma_{\\phi}^{2}}{\\partial \\mu_\\phi} = \\frac{-2}{N}"
            "\\sum_{i=1}^{N}(x_i+\\mu_\\phi)\n```\n")
    assert not np.isclose(-2 / X.size * np.sum(X + X.mean()), 0)
    assert statuses(text) == {"n0.1": "proved", "n2.1": "proved", "n3.1": "refuted"}


def test_eps_at_the_fixed_index_of_a_data_matrix_is_an_error() -> None:
    row = "\\hat{h}_{kl} = \\frac{h_{kl} - \\mu_l}{\\sqrt{\\sigma_l^2 + \\epsilon%s}}"
    text = ("```symnorm\nuse batchnorm\nlet h = x\n```\n\n```latex e1\n" + row % "_l" +
            "\n```\n\n```latex e2\n" + row % "" + "\n```\n")
    got = check_text(text, "o.md", sandbox=False).verdicts
    errors = [v.message for v in got if v.status == "error"]
    assert len(errors) == 1 and "eps is one scalar for every vector" in errors[0]
    assert [v.status for v in got if v.label == "e2.1"] == ["proved"]
