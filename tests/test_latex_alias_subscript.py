r"""Aliases of a vocabulary's statistics written with the source's subscript: Arat's
``\mu_\phi``, ``\sigma^2_\phi``, DJL's ``\mu_{batch}`` with ``let mu_phi = mu``, ``let
sigma_batch = sigma`` (corpus 8).  The subscripted name is the alias, and so the vocabulary's
name, in an expression and as an operand of ``\partial``.  Truth by numpy.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import verdicts

from symnorm.check.run import check_text

X = np.array([0.5, -1.25, 2.0, 3.5])
EPS = 0.3
M = X.size
MU = X.mean()
VAR = ((X - MU) ** 2).mean()
PRE = "use batchnorm\nlet N = d\nlet mu_phi = mu\nlet sigma_phi = sigma"


def claims(preamble: str, latex: str) -> list[str]:
    return [s for _, s, _ in verdicts(preamble, latex) if s != "defined"]


def dvar_dmu(m: float, h: float = 1e-6) -> float:
    f = lambda t: float(np.mean((X - t) ** 2))
    return (f(m + h) - f(m - h)) / (2 * h)


@pytest.mark.parametrize("latex, holds", [
    (r"\hat{x} = \frac{x - \mu_{\phi}}{\sqrt{\sigma^2_{\phi} + \epsilon}}", True),
    (r"\hat{x} = \frac{x - \mu_{\phi}}{\sqrt{\sigma_{\phi} + \epsilon}}",
     bool(np.isclose(np.sqrt(VAR), VAR))),
    (r"\frac{\partial \sigma_{\phi}^{2}}{\partial \mu_\phi} = \frac{-2}{N} \sum_{i=1}^{N} "
     r"(x_i-{\mu_\phi})", bool(np.isclose(dvar_dmu(MU), -2 / M * np.sum(X - MU)))),
    # 0 at the mean: -2/N sum(x_i - mu) is 0 too, so a false variant needs another factor
    (r"\frac{\partial \sigma_{\phi}^{2}}{\partial \mu_\phi} = \frac{-2}{N} \sum_{i=1}^{N} "
     r"(x_i+{\mu_\phi})", bool(np.isclose(dvar_dmu(MU), -2 / M * np.sum(X + MU)))),
    (r"\frac{\partial \sigma^{2}_\phi}{\partial x_{i}} = \frac{2(x_i - {\mu_\phi})}{N}", True),
    (r"\frac{\partial \sigma^{2}_\phi}{\partial x_{i}} = \frac{(x_i - {\mu_\phi})}{N}", False),
])
def test_subscripted_aliases(latex: str, holds: bool) -> None:
    assert claims(PRE, latex) == (["proved"] if holds else ["refuted"])


def test_an_alias_of_a_claim_language_name_expands_in_claims() -> None:
    text = ("```symnorm\nuse batchnorm\nlet mu_phi = mu\n"
            "claim a: mu_phi == ones.T*x/d\nclaim b: mu_phi == 2*ones.T*x/d\n```\n")
    got = {v.label: v.status for v in check_text(text, "a.md", sandbox=False).verdicts}
    assert got == {"a": "proved", "b": "refuted"}


def test_an_alias_of_a_latex_only_name_stays_an_error_in_claims() -> None:
    text = "```symnorm\nuse batchnorm\nlet sigma_phi = sigma\nclaim a: sigma_phi > 0\n```\n"
    v = check_text(text, "a.md", sandbox=False).verdicts
    assert [x.status for x in v] == ["error"]
    assert "is the alias of sigma" in v[0].message


def test_without_the_alias_the_subscript_is_unknown() -> None:
    got = verdicts("use batchnorm", r"\hat{x} = \frac{x - \mu_{\phi}}{\sqrt{\sigma^2_{\phi} "
                   r"+ \epsilon}}")
    assert [s for _, s, _ in got][0] == "error"
    assert "phi" in next(m for _, s, m in got if s == "error")
