r"""Red team 14's class of false claims that were proved: a name an earlier block gave one
vocabulary's meaning leaked into a two-index partial of a block whose vocabulary gives it another
(``\frac{\partial \hat x_i}{\partial x_j}`` under ``use rmsnorm`` after a LayerNorm block was
LayerNorm's Jacobian), and the order of equations decided whether a where-clause was a
definition.  Both are refused now, as the docs' conflict rule says; each refused false claim is
checked false with numpy first."""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import _X, EPS, _jac, _rms

from symnorm.check.run import check_text

LN_BLOCK = "```symnorm\nuse layernorm\n```\n\n```latex first\n" \
           r"\hat x = \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}" "\n```\n\n"


def _second(vocab: str, latex: str) -> list[tuple[str, str, str]]:
    text = LN_BLOCK + f"```symnorm\n{vocab}\n```\n\n```latex second\n{latex}\n```\n"
    res = check_text(text, "rt14.md", sandbox=False)
    return [(v.label, v.status, v.message) for v in res.verdicts
            if not v.label.startswith("first.")]


@pytest.mark.parametrize("latex", [
    r"\sum_k \frac{\partial \hat x_k}{\partial x_j} = 0",
    r"\frac{\partial \hat x}{\partial x} \mathbf 1 = 0",
])
def test_an_earlier_blocks_xhat_does_not_reach_a_partial(latex: str) -> None:
    # false for RMSNorm: its Jacobian's columns do not sum to 0
    assert not np.allclose(_jac(_rms, _X).sum(axis=0), 0)
    got = _second("use rmsnorm", latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors and "give xhat different meanings" in errors[0], got
    assert not {"proved", "confirmed"} & {s for _, s, _ in got}, got


def test_a_where_clause_after_an_earlier_use_of_the_name_is_refused() -> None:
    # an earlier equation read sigma as the vocabulary's (no eps); a where-clause giving it
    # eps after using it would make the verdict depend on the order of equations
    assert not np.isclose(np.sqrt(_X.var()), np.sqrt(_X.var() + EPS))
    text = ("```symnorm\nuse layernorm\n```\n\n```latex e1\n"
            r"y = \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}}\gamma + \beta" "\n```\n\n"
            "```latex e2\n"
            r"\hat x = \frac{x-\mu}{\sigma}, \quad \text{where } \sigma = "
            r"\sqrt{\mathrm{Var}[x]+\epsilon}" "\n```\n")
    got = [(v.label, v.status, v.message) for v in
           check_text(text, "rt14.md", sandbox=False).verdicts]
    e2 = [g for g in got if g[0].startswith("line") or g[0].startswith("e2")]
    assert e2 and e2[0][1] == "error" and "two readings" in e2[0][2], got


def _rms_jacobian_rows(latex: str) -> list[str]:
    text = f"```symnorm\nuse rmsnorm\nlatex j: {latex}\n```\n"
    return [v.status for v in check_text(text, "rt14.md", sandbox=False).verdicts
            if v.status != "defined"]


def test_the_vocabularys_rms_in_a_two_index_equation_is_the_scalar() -> None:
    # red team 14: \mathrm{RMS}(x) beside indexed entries was the claim language's vector
    r = np.sqrt(np.mean(_X ** 2) + EPS)
    d = len(_X)
    closed = np.eye(d) / r - np.outer(_X, _X) / (d * r ** 3)
    assert np.allclose(_jac(_rms, _X), closed, atol=1e-7)
    assert not np.allclose(_jac(_rms, _X), np.eye(d) / r - np.outer(_X, _X) / r ** 3, atol=1e-7)
    true = (r"\frac{\partial \hat x_i}{\partial x_j} = \frac{\delta_{ij}}{\mathrm{RMS}(x)} - "
            r"\frac{x_i x_j}{d\,\mathrm{RMS}(x)^3}")
    assert _rms_jacobian_rows(true) == ["proved"]
    assert _rms_jacobian_rows(true.replace(r"{d\,\mathrm{RMS}", r"{\mathrm{RMS}")) == ["refuted"]


@pytest.mark.parametrize("latex, status", [
    (r"\nabla \gamma = dy^\top \hat x", "proved"),   # dL/dgamma = sum_i dy_i xhat_i
    (r"\nabla \gamma = dy^\top x", "refuted"),
    (r"d\beta = dy^\top \mathbf 1", "proved"),
])
def test_the_transposed_upstream_gradient_is_read(latex: str, status: str) -> None:
    # red team 14: dy^\top was refused ("only a digit exponent")
    xhat = (_X - _X.mean()) / np.sqrt(_X.var() + EPS)
    assert not np.isclose(np.ones_like(_X) @ xhat, np.ones_like(_X) @ _X)
    text = f"```symnorm\nuse layernorm\nvector dy\nlatex g: {latex}\n```\n"
    got = [v.status for v in check_text(text, "rt14.md", sandbox=False).verdicts
           if v.status != "defined"]
    assert got == [status], got


# --- red team 15 ------------------------------------------------------------------------

def test_a_where_clauses_own_meaning_does_not_reach_another_block() -> None:
    # sigma with eps, from a layernorm where-clause, in a batchnorm block: the batch variance
    # is sigma^2 without eps, so sigma^2 = Var + eps there was proved with the leaked sigma
    assert not np.isclose(_X.var() + EPS, _X.var())
    text = ("```symnorm\nuse layernorm\n"
            r"latex w: \hat x = \frac{x-\mu}{\sigma}, \text{ where } \sigma = "
            r"\sqrt{\mathrm{Var}[x]+\epsilon}" "\n```\n\n```symnorm\nuse batchnorm\n"
            r"latex b: \sigma^2 = \frac{1}{d}\sum_i (x_i - \mu)^2 + \epsilon" "\n```\n")
    got = {v.label: (v.status, v.message) for v in
           check_text(text, "rt15.md", sandbox=False).verdicts}
    assert got["w.1"][0] == "proved", got
    b = [v for k, v in got.items() if not k.startswith("w")]
    assert b and b[0][0] == "error" and "the where-clause of equation w" in b[0][1], got


@pytest.mark.parametrize("latex", [
    r"\hat x \approx \frac{x-\mu}{\sigma}(1 + \frac{\epsilon}{2\sigma^2})",
    r"s \approx \sigma + \frac{\epsilon}{\sigma}",
])
def test_approx_that_writes_eps_itself_is_refused(latex: str) -> None:
    # s = sqrt(sigma^2 + eps) = sigma + eps/(2 sigma) + O(eps^2): the written first-order
    # term is wrong, and the claim at eps = 0 would not look at it
    sigma, eps = 2.0, 1e-4
    assert abs(np.sqrt(sigma ** 2 + eps) - (sigma + eps / sigma)) > 1e-5
    text = f"```symnorm\nuse layernorm\nlatex a: {latex}\n```\n"
    got = [(v.status, v.message) for v in check_text(text, "rt15.md", sandbox=False).verdicts]
    assert got[0][0] == "error" and "a side writes eps itself" in got[0][1], got


def test_a_where_clause_setting_a_free_symbol_is_a_condition() -> None:
    # d y_i / d gamma = xhat_i at every gamma, so at gamma = 2; a claim "gamma = 2" was refuted
    text = ("```symnorm\nuse layernorm\n"
            r"latex e: \frac{\partial y_i}{\partial \gamma} = \hat x_i, \text{ where } \gamma = 2"
            "\n" r"latex f: \frac{\partial y_i}{\partial \gamma} = 2\hat x_i, \text{ where } "
            r"\gamma = 2" "\n```\n")
    got = {v.label: v.status for v in check_text(text, "rt15.md", sandbox=False).verdicts}
    assert got["e.1"] == "proved" and got["f.1"] == "refuted", got
    assert "e.2" not in got, got
